package experiment

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

// Request is what assembly is asked: the experiment's name, the
// experiments whose runs it holds, its manifest and the command line's
// settings.
type Request struct {
	// Experiment names the report.
	Experiment string
	// From lists the experiments read, in execution order (compare
	// --store OLD NEW); empty means Experiment.
	From []string
	// Manifest holds the experiment's settings; nil for none.
	Manifest *Manifest
	// Overrides are the command line's settings, taking precedence over
	// the manifest's.
	Overrides Overrides
}

// Overrides are settings given on the command line.
type Overrides struct {
	// Systems name systems by source; they take precedence over the
	// manifest's systems.
	Systems []SystemRule
	// Labels map targets to names; they take precedence over the
	// manifest's labels for the same target.
	Labels map[string]string
	// Baseline replaces the manifest's baseline when not empty.
	Baseline string
	// Order follows the manifest's order: the command line's inputs in
	// the order given.
	Order []string
	// Merge are groups of sources whose runs are parts of one test
	// (--merge), merged as well as the manifest's merge:.
	Merge []MergeRule
	// SLO are thresholds checked as well as the manifest's slo:.
	SLO []gate.Threshold
	// FailOn are conditions added to the manifest's gate.fail_on.
	FailOn []gate.Condition
	// Allow are conditions allowed as well as the manifest's gate.allow.
	Allow []gate.Condition
	// MaxRegressionPct replaces the manifest's gate.max_regression when
	// not nil.
	MaxRegressionPct *float64
}

// Rejected is an input that could not be read: its key or path, its
// experiment and why.
type Rejected struct {
	Key, Experiment, Error string
}

// Input is what was read of an experiment: its runs with their
// percentiles and series, the inputs rejected, and the key of the
// samples table of each run that has samples (by run_id).
type Input struct {
	Set      analyze.Set
	Rejected []Rejected
	Samples  map[string]string
	// Tallies, when set, reads the samples of the runs that are not parts
	// of a merged run for their error and pause tallies, in place of the
	// SampleReader: it may give a successful request (no error, status
	// 200-399) with status 200 and its time and latency as float32, all
	// the tallies keep of it (the command line's samples held in memory).
	Tallies SampleReader
}

// SampleReader scans the per-request samples of the table at key (of
// input source), in the order written. It is how assembly reads samples
// without knowing where they are kept; a table gone is its own error.
type SampleReader func(ctx context.Context, key, source string, fn func(results.Sample) error) error

// Assembled is what analysis needs of an experiment: its runs named,
// ordered, merged and without copies, their error and pause tallies, the
// analysis options (the baseline decided once, here), the experiment's
// systems, and what the report says of its inputs.
type Assembled struct {
	Set     analyze.Set
	Options analyze.Options
	// Known are the experiment's systems, sorted.
	Known []string
	// Meta holds the inputs, the rejected ones, the parts of merged runs
	// and the copies (its GeneratedBy and Removed are the caller's).
	Meta report.Meta
}

// assembler reads samples for merges and tallies: read whole, tally for
// the tallies of runs not merged (Input.Tallies, else read).
type assembler struct{ read, tally SampleReader }

// Assemble turns what was read of an experiment into what analysis
// needs: the execution order (the experiments of From in turn; in each,
// the manifest's order, then the command line's, then the other sources
// by name; runs in file order), the systems named, copies dropped, parts
// merged, the options decided and checked against the systems, and the
// error and pause tallies of runs with samples. An experiment without
// runs gives an empty Set and no error. A name that matches nothing is a
// *NameError; the Assembled returned with an error still holds the Meta
// made so far.
func Assemble(ctx context.Context, req Request, in Input, read SampleReader) (Assembled, error) {
	a := &assembler{read: read, tally: in.Tallies}
	if a.tally == nil {
		a.tally = read
	}
	out := Assembled{Set: in.Set}
	set, rejs := &out.Set, slices.Clone(in.Rejected)
	n := newNamer(req)
	slices.SortStableFunc(set.Runs, func(a, b results.Run) int {
		return cmp.Or(cmp.Compare(n.expRank[a.Experiment], n.expRank[b.Experiment]), cmp.Compare(n.rank(a.Source), n.rank(b.Source)),
			cmp.Compare(a.Source, b.Source), cmp.Compare(a.Index, b.Index))
	})
	slices.SortStableFunc(rejs, func(a, b Rejected) int {
		return cmp.Or(cmp.Compare(n.rank(a.Key), n.rank(b.Key)), cmp.Compare(a.Key, b.Key))
	})
	for _, r := range rejs {
		out.Meta.Rejected = append(out.Meta.Rejected, report.Rejected{Source: r.Key, Error: r.Error})
	}
	if len(set.Runs) == 0 {
		return out, nil
	}
	if err := n.name(set.Runs, rejs); err != nil {
		return out, err
	}
	set.Runs, out.Meta.Copies = n.dropCopies(set.Runs)
	for i := range set.Runs {
		if i == 0 || set.Runs[i].Source != set.Runs[i-1].Source {
			out.Meta.Inputs = append(out.Meta.Inputs, set.Runs[i].Source)
		}
	}
	merged, err := a.mergeParts(ctx, set, n, in.Samples, rejs)
	out.Known = n.known
	if err != nil {
		var ne *NameError
		if errors.As(err, &ne) {
			ne.Known = n.known
		}
		return out, err
	}
	for _, m := range merged {
		if out.Meta.Parts == nil {
			out.Meta.Parts = map[string][]report.Part{}
		}
		for _, r := range m.Parts {
			out.Meta.Parts[m.Run.RunID] = append(out.Meta.Parts[m.Run.RunID], report.Part{RunID: r.RunID, Source: r.Source, Index: r.Index})
		}
	}
	for i := range set.Runs {
		set.Runs[i].Seq = int32(i)
	}
	if out.Options, err = decideOptions(req, n.known); err != nil {
		return out, err
	}
	err = a.errorTallies(ctx, set, in.Samples, merged)
	return out, err
}

// RequestedOptions is the one place where the analysis options are
// decided: the defaults, then the manifest's, then the command line's
// (the baseline among them), not yet checked against any system (an
// experiment without runs reports them as asked).
func RequestedOptions(req Request) analyze.Options {
	opts := analyze.DefaultOptions()
	req.Manifest.Apply(&opts)
	o := req.Overrides
	if o.Baseline != "" {
		opts.Baseline = o.Baseline
	}
	opts.SLO = append(opts.SLO, o.SLO...)
	opts.FailOn = UnionConditions(opts.FailOn, o.FailOn)
	opts.Allow = UnionConditions(opts.Allow, o.Allow)
	if o.MaxRegressionPct != nil {
		opts.MaxRegressionPct = *o.MaxRegressionPct
	}
	return opts
}

// decideOptions is RequestedOptions checked against the experiment's
// systems known.
func decideOptions(req Request, known []string) (analyze.Options, error) {
	opts := RequestedOptions(req)
	if opts.Baseline != "" && !slices.Contains(known, opts.Baseline) {
		return opts, &NameError{Msg: fmt.Sprintf("baseline %q is not a system of experiment %s", opts.Baseline, req.Experiment), Known: known}
	}
	return opts, checkGate(opts, known, req.Experiment)
}

// HistoryOverrides are the command line's settings of a history.
type HistoryOverrides struct {
	FailOn, Allow    []gate.Condition
	MaxRegressionPct *float64
	Control          string
}

// HistoryOptions decides the options of a series' history, as
// decideOptions does an experiment's: the defaults, then the latest
// experiment's manifest (nil for none), then the command line's. A
// history has no baseline and checks no thresholds (they are checked per
// experiment), so the manifest's threshold conditions are left out.
func HistoryOptions(latest *Manifest, o HistoryOverrides) analyze.Options {
	opts := analyze.DefaultOptions()
	latest.Apply(&opts)
	opts.Baseline, opts.SLO = "", nil
	opts.FailOn = slices.DeleteFunc(UnionConditions(opts.FailOn, o.FailOn), func(c gate.Condition) bool {
		return slices.Contains(gate.ThresholdConditions, c)
	})
	opts.Allow = UnionConditions(opts.Allow, o.Allow)
	if o.MaxRegressionPct != nil {
		opts.MaxRegressionPct = *o.MaxRegressionPct
	}
	opts.Control = o.Control
	if opts.Control == "" && latest != nil {
		opts.Control = latest.History.Control
	}
	return opts
}

// wrapRead says which input a sample read failed on, unless the reader's
// error already names it (a missing table's).
func wrapRead(what, source string, err error) error {
	var named interface{ NamesSource() bool }
	if errors.As(err, &named) && named.NamesSource() {
		return err
	}
	return fmt.Errorf("%s %s: %w", what, source, err)
}
