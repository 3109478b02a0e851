package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/plots"
	"github.com/loadverdict/loadverdict/report"
)

// Request says what to analyze and how to name its systems.
type Request struct {
	// Experiment names the report; its tables are read unless From is set.
	Experiment string
	// From lists the experiments whose tables are read, in execution
	// order (compare --store OLD NEW); empty means Experiment.
	From []string
	// Manifest holds the experiment's settings; nil for none.
	Manifest *experiment.Manifest
	// Overrides are the command line's settings, taking precedence over
	// the manifest's.
	Overrides experiment.Overrides
	// Figures is the format of the figure files (PNG when ""); report.html
	// inlines them as SVG either way.
	Figures plots.Format
	// VerdictOnly leaves the report's files out (its figures, report.md,
	// report.html, summary.md and summary.json): the caller needs the
	// verdict and headline alone (compare without -o), and drawing the
	// figures is most of an analysis's time.
	VerdictOnly bool
}

// ErrNoRuns is returned (wrapped) by Report for an experiment without
// runs: none ingested yet, or every input rejected.
var ErrNoRuns = errors.New("no runs yet")

// Report is an analysed experiment: its verdict and the files of its
// report, not yet written anywhere.
type Report struct {
	Experiment string
	Headline   string
	Verdict    *analyze.Verdict
	// Files are the figures, report.md, report.html, summary.md and
	// summary.json; none when the request was VerdictOnly and the
	// experiment had runs.
	Files []File
	// Inputs are the objects read, with their ETags.
	Inputs map[string]string
	// Meta is what the report says of its inputs: the rejected and the
	// removed among them.
	Meta report.Meta
	// NoRunsOptions and NoRunsGate, when no run could be read (Verdict
	// nil), are the options as requested and the gate they decide
	// (analyze.NoRunsGate): what the no-runs reports say.
	NoRunsOptions analyze.Options
	NoRunsGate    analyze.Gate
}

// Report analyses the tables (and rejection records) of req's
// experiments in the store and renders the report; it writes nothing.
// Systems are named at this point, so the tables keep what the inputs
// said: a run's system is the first of
//
//  1. a source-named system: the command line's rules (req.Overrides),
//     then the manifest's systems;
//  2. the target mapping: the command line's labels, then the manifest's;
//  3. the run's label in the tables (host:port, or a file name).
//
// Names that match nothing give a *NameError.
func (p *Pipeline) Report(ctx context.Context, req Request) (*Report, error) {
	from := req.From
	if len(from) == 0 {
		from = []string{req.Experiment}
	}
	in := map[string]string{}
	for _, exp := range from {
		if err := p.listInputs(ctx, exp, false, in); err != nil {
			return nil, err
		}
	}
	return p.report(ctx, req, in)
}

// WriteReport writes a report's files under prefix ("" for the root of
// a local output folder, reports/<experiment>/ in a bucket), then removes
// the figures of an earlier report there that this one has not (a no-runs
// report has none), so nothing under prefix says what is no longer true.
func (p *Pipeline) WriteReport(ctx context.Context, prefix string, r *Report) error {
	keep := map[string]bool{}
	for _, f := range r.Files {
		if err := p.Store.Put(ctx, prefix+f.Name, bytes.NewReader(f.Data)); err != nil {
			return err
		}
		keep[prefix+f.Name] = true
	}
	for _, fp := range plots.FigurePrefixes {
		objs, err := p.Store.List(ctx, prefix+fp)
		if err != nil {
			return err
		}
		for _, o := range objs {
			ext := path.Ext(o.Key)
			if keep[o.Key] || strings.Contains(strings.TrimPrefix(o.Key, prefix), "/") || ext != ".png" && ext != ".svg" {
				continue
			}
			if err := p.Store.Delete(ctx, o.Key); err != nil {
				return err
			}
		}
	}
	return nil
}

// render is Render, a variable only so that the tests that analyse the
// same inputs hundreds of times (the fault and concurrency matrices) can
// reuse the files drawn the first time (memoRender).
var render = Render

// report analyses the inputs in (keys with ETags) as req says.
func (p *Pipeline) report(ctx context.Context, req Request, in map[string]string) (*Report, error) {
	v, set, meta, err := p.verdict(ctx, req, in)
	if err != nil {
		return nil, err
	}
	if v == nil {
		// Every input rejected or removed: a report that says so and
		// lists them, not an error (no retry can read them).
		opts := experiment.RequestedOptions(experiment.Request{Experiment: req.Experiment, Manifest: req.Manifest, Overrides: req.Overrides})
		g := analyze.NoRunsGate(opts)
		files, err := renderNoRuns(req.Experiment, opts, g, meta)
		if err != nil {
			return nil, err
		}
		return &Report{Experiment: req.Experiment, Headline: report.NoRunsHeadline, Files: files, Inputs: in, Meta: meta,
			NoRunsOptions: opts, NoRunsGate: g}, nil
	}
	var files []File
	if !req.VerdictOnly {
		if files, err = render(v, set, meta, req.Figures); err != nil {
			return nil, err
		}
	}
	return &Report{Experiment: req.Experiment, Headline: report.Headline(v), Verdict: v, Files: files, Inputs: in, Meta: meta}, nil
}

// verdict analyses the inputs in (keys with ETags) as req says, without
// rendering: the verdict, the tables read and what the report says of its
// inputs. An experiment without runs whose inputs were all rejected or
// removed has no verdict (nil, no error); one without any input is
// ErrNoRuns.
func (p *Pipeline) verdict(ctx context.Context, req Request, in map[string]string) (*analyze.Verdict, analyze.Set, report.Meta, error) {
	var meta report.Meta
	inp, err := p.readInputs(ctx, req.Experiment, in)
	if err != nil {
		return nil, analyze.Set{}, meta, err
	}
	rejs := make([]experiment.Rejected, len(inp.rejected))
	for i, r := range inp.rejected {
		rejs[i] = experiment.Rejected{Key: r.Key, Experiment: r.Experiment, Error: r.Error}
	}
	input := experiment.Input{Set: inp.set, Rejected: rejs, Samples: inp.samples}
	if p.Parsed != nil {
		input.Tallies = p.tallySamples
	}
	as, err := experiment.Assemble(ctx, experiment.Request{Experiment: req.Experiment, From: req.From, Manifest: req.Manifest, Overrides: req.Overrides},
		input, p.readSamples)
	meta = as.Meta
	meta.GeneratedBy, meta.Removed = p.GeneratedBy, slices.Sorted(slices.Values(inp.removed))
	set, opts := as.Set, as.Options
	if err != nil {
		return nil, set, meta, err
	}
	if len(set.Runs) == 0 {
		if len(meta.Rejected) == 0 && len(meta.Removed) == 0 {
			return nil, set, meta, fmt.Errorf("experiment %s: %w", req.Experiment, ErrNoRuns)
		}
		return nil, set, meta, nil
	}
	v, err := analyze.Analyze(set, opts)
	if err != nil {
		return nil, set, meta, err
	}
	for i, t := range opts.SLO {
		if !slices.ContainsFunc(v.Thresholds, func(c analyze.ThresholdCheck) bool { return c.Threshold == i }) {
			return nil, set, meta, &experiment.NameError{Msg: fmt.Sprintf("threshold %s applies to no system at its settings in experiment %s", t.Expr, req.Experiment), Known: as.Known}
		}
	}
	return v, set, meta, nil
}

// reingest ingests raw sources of experiment exp again (Ingest): those
// whose committed tables are missing. A source that is not a raw key of
// the experiment (a command line's path) cannot be read again here.
func (p *Pipeline) reingest(ctx context.Context, exp string, sources []string) error {
	for _, key := range sources {
		if e, err := store.ExperimentOf(key); err != nil || e != exp {
			return &MissingTablesError{Sources: sources}
		}
		if _, err := p.Ingest(ctx, key); err != nil && !IsInputFault(err) {
			return err
		}
	}
	return nil
}

// bucketManifest reads and parses experiment exp's manifest when the
// inputs in list one: the manifest, its object, and why it cannot be used
// (mfault: a *ManifestError), or an infrastructure error.
func (p *Pipeline) bucketManifest(ctx context.Context, exp string, in map[string]string) (m *experiment.Manifest, obj store.Object, mfault, err error) {
	mkey := store.ManifestKey(exp)
	if _, ok := in[mkey]; !ok {
		return nil, obj, nil, nil
	}
	b, obj, err := ReadManifest(ctx, p.Store, mkey)
	var me *experiment.ManifestError
	switch {
	case errors.As(err, &me):
		return nil, obj, err, nil
	case errors.Is(err, store.ErrNotFound):
		return nil, obj, nil, nil
	case err != nil:
		return nil, obj, nil, err
	}
	if m, mfault = experiment.ParseManifest(mkey, b); mfault == nil {
		m.Dir = store.RawPrefix + exp
	}
	return m, obj, mfault, nil
}

// analyzeOnce analyses experiment exp from the inputs in (keys with
// ETags, as listed; it adds or removes the manifest's rejection record
// when it writes or deletes it) and writes the report and its
// covers.json, calling beforeWrite first.
func (p *Pipeline) analyzeOnce(ctx context.Context, exp string, in map[string]string, beforeWrite func(context.Context) error) (string, error) {
	req := Request{Experiment: exp}
	mkey := store.ManifestKey(exp)
	mrej := store.RejectedKey(exp, mkey)
	m, mobj, mfault, err := p.bucketManifest(ctx, exp, in)
	if err != nil {
		return "", err
	}
	req.Manifest = m
	var r *Report
	if req.Manifest != nil {
		// With the manifest, its own rejection record (if any) is stale.
		without := maps.Clone(in)
		delete(without, mrej)
		r, err = p.report(ctx, req, without)
		switch {
		case IsInputFault(err):
			mfault, req.Manifest = err, nil
		case err != nil:
			return "", err
		default:
			if _, ok := in[mrej]; ok {
				if err := p.Store.Delete(ctx, mrej); err != nil {
					return "", err
				}
				delete(in, mrej)
			}
		}
	}
	if mfault != nil {
		if err := p.putRejection(ctx, exp, rejection(mkey, mobj.ModTime, mfault)); err != nil {
			return "", err
		}
		o, err := p.Store.Head(ctx, mrej)
		if err != nil {
			return "", err
		}
		in[mrej] = o.ETag
	}
	if req.Manifest == nil {
		if r, err = p.report(ctx, req, in); err != nil {
			return "", err
		}
	}
	// In a bucket the HTML report is the folder's index.html.
	for i := range r.Files {
		if r.Files[i].Name == HTMLName {
			r.Files[i].Name = IndexName
		}
	}
	if err := beforeWrite(ctx); err != nil {
		return "", err
	}
	if err := p.WriteReport(ctx, store.ReportKey(exp, ""), r); err != nil {
		return "", err
	}
	cov, _ := json.MarshalIndent(Covers{AnalysisVersion: analyze.AnalysisVersion, GeneratedBy: p.GeneratedBy, Inputs: in}, "", "  ")
	return r.Headline, p.Store.Put(ctx, store.ReportKey(exp, "covers.json"), bytes.NewReader(append(cov, '\n')))
}
