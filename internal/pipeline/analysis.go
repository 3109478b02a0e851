package pipeline

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/plots"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

// Request says what to analyze and how to name its systems.
type Request struct {
	// Experiment names the report; its tables are read unless From is set.
	Experiment string
	// From lists the experiments whose tables are read, in execution
	// order (compare --store OLD NEW); empty means Experiment.
	From []string
	// Manifest holds the experiment's settings; nil for none.
	Manifest *Manifest
	// Overrides are the command line's settings, taking precedence over
	// the manifest's.
	Overrides Overrides
	// Figures is the format of the figure files (PNG when ""); report.html
	// inlines them as SVG either way.
	Figures plots.Format
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

// SystemRule names the system of every run whose source it matches. A
// rule that matches no source of the experiment is an error (*NameError).
type SystemRule struct {
	Name string
	// Sources are source names, matched exactly (--system NAME=PATH,
	// PATH expanded to its files).
	Sources []string
	// Patterns are manifest patterns (see Patterns).
	Patterns []string
	// Experiments match every source of these experiments (compare
	// --store OLD NEW).
	Experiments []string
	// Flag is how the rule was given, for messages (e.g.
	// "--system old=runs/old"); empty for the manifest's.
	Flag string
}

// NameError is returned by Report when a name matches nothing: a
// baseline that is no system, a system rule (or one of its patterns)
// that matches no source, a source claimed by two systems. It is about
// the settings, never the store: retrying cannot help. The command line
// exits 2 for it; in a bucket the manifest is rejected (Analyze).
type NameError struct {
	// Msg says what matched nothing.
	Msg string
	// Known are the experiment's systems, sorted.
	Known []string
}

func (e *NameError) Error() string {
	known := "none"
	if len(e.Known) > 0 {
		names := make([]string, len(e.Known))
		for i, k := range e.Known {
			names[i] = shownName(k)
		}
		known = strings.Join(names, ", ")
	}
	return e.Msg + "; the systems are: " + known
}

// shownName is a name as a message shows it: as it is, or quoted with Go's
// escapes when it is not printable (CheckName) or holds ", " (the
// separator of a list of names).
func shownName(name string) string {
	if CheckName(name) != nil || strings.Contains(name, ", ") || strings.HasPrefix(name, `"`) {
		return strconv.Quote(name)
	}
	return name
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
	// summary.json.
	Files []File
	// Inputs are the objects read, with their ETags.
	Inputs map[string]string
	// Meta is what the report says of its inputs: the rejected and the
	// removed among them.
	Meta report.Meta
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

// listInputs adds to in the commit records and rejection records of an
// experiment (and its manifest when manifest is set), with ETags. The
// table files are not listed: a generation's files never change, and a
// new generation comes with a new commit record.
func (p *Pipeline) listInputs(ctx context.Context, exp string, manifest bool, in map[string]string) error {
	if err := store.CheckExperiment(exp); err != nil {
		return err
	}
	for _, pre := range []string{store.CommitPrefixOf(exp), store.RejectedPrefixOf(exp)} {
		objs, err := p.Store.List(ctx, pre)
		if err != nil {
			return err
		}
		for _, o := range objs {
			in[o.Key] = o.ETag
		}
	}
	if !manifest {
		return nil
	}
	if o, err := p.Store.Head(ctx, store.ManifestKey(exp)); err == nil {
		in[o.Key] = o.ETag
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return nil
}

// inputs is what an analysis reads of its experiments.
type inputs struct {
	set      analyze.Set
	rejected []Rejection
	removed  []string
	// samples are the committed samples files, by run_id, of the runs
	// read (those of the same generation as the runs; none for a source
	// without samples).
	samples map[string]string
}

// readInputs reads the committed generations and the rejection records
// among in: for each commit record, the table files it names (the
// rejection or removal it records); a rejection record of rejected/ only
// where its source has no commit record (the manifest's, or one whose
// commit was not written). A commit record that names a missing table
// file gives a *MissingTablesError listing every such source. A source
// whose runs would bring the total past MaxRuns (committed by concurrent
// ingests, each of which saw the others' runs unwritten) is not read: it
// is listed as rejected, saying why.
func (p *Pipeline) readInputs(ctx context.Context, exp string, in map[string]string) (inputs, error) {
	res := inputs{set: analyze.Set{Experiment: exp}, samples: map[string]string{}}
	mem := memory.NewGoAllocator()
	committed := map[string]bool{} // experiment-escaped prefix + source id
	keys := slices.Sorted(maps.Keys(in))
	for _, key := range keys {
		if strings.HasPrefix(key, store.CommitsPrefix) {
			id, _ := store.SourceIDOfKey(key)
			e, _ := store.ExperimentOfKey(key)
			committed[e+"\x00"+id] = true
		}
	}
	var missing []string
	runs := map[string]int{} // by experiment, in the commit records read
	expOf := func(key string) string { e, _ := store.ExperimentOfKey(key); return e }
	for _, key := range keys {
		switch {
		case strings.HasPrefix(key, store.CommitsPrefix):
			c, _, err := p.readCommit(ctx, key)
			if err != nil {
				return res, err
			}
			switch {
			case c.Removed:
				res.removed = append(res.removed, c.Key)
			case c.Rejected != nil:
				rej := *c.Rejected
				rej.Experiment, _ = store.ExperimentOfKey(key)
				res.rejected = append(res.rejected, rej)
			case runs[expOf(key)]+c.Runs > maxRuns:
				// Committed by concurrent ingests, each within the bound
				// alone: the analysis reads no more (MaxRuns).
				e := expOf(key)
				res.rejected = append(res.rejected, Rejection{Key: c.Key, Experiment: e, ETag: c.ETag, VersionID: c.VersionID,
					Error: (&ingest.SyntaxError{File: c.Key, Msg: experimentRunsMsg(e, c.Runs, runs[e])}).Error()})
			default:
				runs[expOf(key)] += c.Runs
				before := len(res.set.Runs)
				ok, err := p.readTables(ctx, c, &res.set, mem)
				if err != nil {
					return res, err
				}
				if !ok {
					missing = append(missing, c.Key)
				}
				if k := c.Table(results.TableSamples); k != "" {
					for _, r := range res.set.Runs[before:] {
						res.samples[r.RunID] = k
					}
				}
			}
		case strings.HasPrefix(key, store.RejectedPrefix):
			id, _ := store.SourceIDOfKey(key)
			e, _ := store.ExperimentOfKey(key)
			if committed[e+"\x00"+id] {
				continue
			}
			b, _, err := store.ReadAll(ctx, p.Store, key)
			if errors.Is(err, store.ErrNotFound) {
				continue // removed meanwhile by the commit of its source
			}
			if err != nil {
				return res, err
			}
			var rej Rejection
			if err := json.Unmarshal(b, &rej); err != nil {
				return res, fmt.Errorf("%s: %w", key, err)
			}
			rej.Experiment = e
			res.rejected = append(res.rejected, rej)
		}
	}
	if len(missing) > 0 {
		return res, &MissingTablesError{Sources: missing}
	}
	return res, nil
}

// readTables adds the tables of a committed generation to set; false when
// one of its files is missing.
func (p *Pipeline) readTables(ctx context.Context, c *Commit, set *analyze.Set, mem memory.Allocator) (bool, error) {
	var runs []results.Run
	var pcts []results.Percentile
	var series []results.Series
	for _, key := range c.Tables {
		table, ok := tableOf(key)
		if !ok || table == results.TableSamples {
			continue
		}
		b, _, err := store.ReadAll(ctx, p.Store, key)
		if errors.Is(err, store.ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		r := bytes.NewReader(b)
		switch table {
		case results.TableRuns:
			runs, err = results.ReadRuns(r, mem)
		case results.TablePercentiles:
			pcts, err = results.ReadPercentiles(r, mem)
		case results.TableSeries:
			series, err = results.ReadSeries(r, mem)
		}
		if err != nil {
			return false, fmt.Errorf("%s: %w", key, err)
		}
	}
	set.Runs = append(set.Runs, runs...)
	set.Percentiles = append(set.Percentiles, pcts...)
	set.Series = append(set.Series, series...)
	return true, nil
}

// tableOf tells which table a key of tables/ belongs to.
func tableOf(key string) (results.Table, bool) {
	rest, ok := strings.CutPrefix(key, store.TablesPrefix)
	if !ok {
		return "", false
	}
	t, _, ok := strings.Cut(rest, "/experiment=")
	return results.Table(t), ok
}

// report analyses the inputs in (keys with ETags) as req says.
func (p *Pipeline) report(ctx context.Context, req Request, in map[string]string) (*Report, error) {
	v, set, meta, err := p.verdict(ctx, req, in)
	if err != nil {
		return nil, err
	}
	if v == nil {
		// Every input rejected or removed: a report that says so and
		// lists them, not an error (no retry can read them).
		files, err := renderNoRuns(req.Experiment, meta)
		if err != nil {
			return nil, err
		}
		return &Report{Experiment: req.Experiment, Headline: report.NoRunsHeadline, Files: files, Inputs: in, Meta: meta}, nil
	}
	files, err := Render(v, set, meta, req.Figures)
	if err != nil {
		return nil, err
	}
	return &Report{Experiment: req.Experiment, Headline: report.Headline(v), Verdict: v, Files: files, Inputs: in}, nil
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
	set, rejs := inp.set, inp.rejected
	m := req.Manifest
	n := newNamer(req)
	// Execution order: the experiments of From in turn; in each, the
	// manifest's order, then the command line's, then the other sources
	// by name; runs in file order.
	slices.SortStableFunc(set.Runs, func(a, b results.Run) int {
		return cmp.Or(cmp.Compare(n.expRank[a.Experiment], n.expRank[b.Experiment]), cmp.Compare(n.rank(a.Source), n.rank(b.Source)),
			cmp.Compare(a.Source, b.Source), cmp.Compare(a.Index, b.Index))
	})
	slices.SortStableFunc(rejs, func(a, b Rejection) int {
		return cmp.Or(cmp.Compare(n.rank(a.Key), n.rank(b.Key)), cmp.Compare(a.Key, b.Key))
	})
	meta = report.Meta{GeneratedBy: p.GeneratedBy, Removed: slices.Sorted(slices.Values(inp.removed))}
	for _, r := range rejs {
		meta.Rejected = append(meta.Rejected, report.Rejected{Source: r.Key, Error: r.Error})
	}
	if len(set.Runs) == 0 {
		if len(meta.Rejected) == 0 && len(meta.Removed) == 0 {
			return nil, set, meta, fmt.Errorf("experiment %s: %w", req.Experiment, ErrNoRuns)
		}
		return nil, set, meta, nil
	}
	if err := n.name(set.Runs, rejs); err != nil {
		return nil, set, meta, err
	}
	for i := range set.Runs {
		if i == 0 || set.Runs[i].Source != set.Runs[i-1].Source {
			meta.Inputs = append(meta.Inputs, set.Runs[i].Source)
		}
	}
	merged, err := p.mergeParts(ctx, &set, n, inp.samples, rejs)
	if err != nil {
		var ne *NameError
		if errors.As(err, &ne) {
			ne.Known = n.known
		}
		return nil, set, meta, err
	}
	for _, m := range merged {
		if meta.Parts == nil {
			meta.Parts = map[string][]report.Part{}
		}
		for _, r := range m.Parts {
			meta.Parts[m.Run.RunID] = append(meta.Parts[m.Run.RunID], report.Part{RunID: r.RunID, Source: r.Source, Index: r.Index})
		}
	}
	for i := range set.Runs {
		set.Runs[i].Seq = int32(i)
	}
	opts := analyze.DefaultOptions()
	m.apply(&opts)
	o := req.Overrides
	if o.Baseline != "" {
		opts.Baseline = o.Baseline
	}
	opts.SLO = append(opts.SLO, o.SLO...)
	opts.FailOn = unionConditions(opts.FailOn, o.FailOn)
	opts.Allow = unionConditions(opts.Allow, o.Allow)
	if o.MaxRegressionPct != nil {
		opts.MaxRegressionPct = *o.MaxRegressionPct
	}
	if opts.Baseline != "" && !slices.Contains(n.known, opts.Baseline) {
		return nil, set, meta, &NameError{Msg: fmt.Sprintf("baseline %q is not a system of experiment %s", opts.Baseline, req.Experiment), Known: n.known}
	}
	if err := checkGate(opts, n.known, req.Experiment); err != nil {
		return nil, set, meta, err
	}
	if err := p.errorTallies(ctx, &set, inp.samples, merged); err != nil {
		return nil, set, meta, err
	}
	v, err := analyze.Analyze(set, opts)
	if err != nil {
		return nil, set, meta, err
	}
	for i, t := range opts.SLO {
		if !slices.ContainsFunc(v.Thresholds, func(c analyze.ThresholdCheck) bool { return c.Threshold == i }) {
			return nil, set, meta, &NameError{Msg: fmt.Sprintf("threshold %s applies to no system at its settings in experiment %s", t.Expr, req.Experiment), Known: n.known}
		}
	}
	return v, set, meta, nil
}

// unionConditions returns a's conditions followed by those of b not in a.
func unionConditions(a, b []gate.Condition) []gate.Condition {
	out := slices.Clone(a)
	for _, c := range b {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// checkGate checks that the gate's settings name something: a
// threshold's system is a system, fail on regression has a baseline to
// regress against, fail on threshold has thresholds.
func checkGate(opts analyze.Options, known []string, exp string) error {
	for _, t := range opts.SLO {
		if t.Scope.System != "" && !slices.Contains(known, t.Scope.System) {
			return &NameError{Msg: fmt.Sprintf("threshold %s: %q is not a system of experiment %s", t.Expr, t.Scope.System, exp), Known: known}
		}
	}
	if slices.Contains(opts.FailOn, gate.Regression) && opts.Baseline == "" {
		return &NameError{Msg: "failing on regression needs a baseline to regress against (--baseline, or the manifest's baseline:)", Known: known}
	}
	if slices.Contains(opts.FailOn, gate.ThresholdFailed) && len(opts.SLO) == 0 {
		return &NameError{Msg: "failing on threshold needs thresholds (--threshold, or the manifest's slo:)", Known: known}
	}
	return nil
}

// namer names the systems of an analysis.
type namer struct {
	req     Request
	dir     string // the manifest's folder
	order   []string
	expRank map[string]int
	levels  [2][]SystemRule // the command line's rules, then the manifest's
	labels  []map[string]string
	known   []string // the systems, sorted, once named
	ranks   map[string]int
	// named are the runs (by run_id) whose system a rule or a label
	// mapping named (the others keep the label of the tables).
	named map[string]bool
}

func newNamer(req Request) *namer {
	n := &namer{req: req, expRank: map[string]int{}, ranks: map[string]int{}, named: map[string]bool{}}
	for i, e := range req.From {
		n.expRank[e] = i
	}
	m := req.Manifest
	n.levels[0] = req.Overrides.Systems
	n.labels = []map[string]string{req.Overrides.Labels}
	if m != nil {
		n.dir = strings.TrimSuffix(m.Dir, "/")
		n.order = append(n.order, m.Order...)
		n.levels[1] = m.systemRules()
		n.labels = append(n.labels, m.Labels)
	}
	n.order = append(n.order, req.Overrides.Order...)
	return n
}

// rel is a source's name relative to the manifest's folder, or "".
func (n *namer) rel(source string) string {
	if n.dir == "" || n.dir == "." {
		return ""
	}
	rel, ok := strings.CutPrefix(source, n.dir+"/")
	if !ok {
		return ""
	}
	return rel
}

// rank is a source's place in the given order: negative when listed,
// 0 (after every listed one) when not.
func (n *namer) rank(source string) int {
	if r, ok := n.ranks[source]; ok {
		return r
	}
	rel := n.rel(source)
	r := 0
	for i, o := range n.order {
		if o == source || rel != "" && o == rel {
			r = i - len(n.order)
			break
		}
	}
	n.ranks[source] = r
	return r
}

// matches tells whether rule r claims a source of experiment exp, and
// which of its entries did (an index into Sources, then Patterns, then
// Experiments).
func (n *namer) matches(r SystemRule, source, exp string) (bool, int) {
	rel := n.rel(source)
	for i, s := range r.Sources {
		if s == source {
			return true, i
		}
	}
	for i, pat := range r.Patterns {
		if matchPattern(pat, source) || rel != "" && matchPattern(pat, rel) {
			return true, len(r.Sources) + i
		}
	}
	for i, e := range r.Experiments {
		if e == exp {
			return true, len(r.Sources) + len(r.Patterns) + i
		}
	}
	return false, 0
}

// systemOf returns the source-named system of a source, "" for none.
// used records which rule entries matched a source.
// Every level is looked at, so that a rule overridden by a higher level
// still counts as matching.
func (n *namer) systemOf(source, exp string, used map[[3]int]bool) (string, error) {
	system := ""
	for lvl, rules := range n.levels {
		name := ""
		for ri, r := range rules {
			ok, entry := n.matches(r, source, exp)
			if !ok {
				continue
			}
			used[[3]int{lvl, ri, entry}] = true
			if name != "" && name != r.Name {
				return "", &NameError{Msg: fmt.Sprintf("source %s is matched by two systems, %q and %q", shownName(source), name, r.Name)}
			}
			name = r.Name
		}
		if system == "" {
			system = name
		}
	}
	return system, nil
}

// name sets every run's label to its system and checks that every rule
// entry matched a source (a run's or a rejected input's).
func (n *namer) name(runs []results.Run, rejs []Rejection) error {
	used := map[[3]int]bool{}
	cache := map[string]string{}
	known := map[string]bool{}
	var nameErr error
	// A name the document of one input gave a target's host:port (the
	// tables' label differs from the target's host:port) names that
	// host:port in every input of the experiment: one address, one system,
	// as without names.
	// hps[i] is run i's target host:port, "" for a run without a target.
	hps := make([]string, len(runs))
	docNamed := map[string]string{}
	for i, r := range runs {
		if r.Target == "" {
			continue
		}
		hps[i] = ingest.Label(r.Target, nil)
		if r.Label != hps[i] {
			docNamed[hps[i]] = r.Label
		}
	}
	for i := range runs {
		r := &runs[i]
		if name, ok := docNamed[r.Label]; ok && hps[i] == r.Label {
			r.Label = name
		}
		sys, ok := cache[r.Source]
		if !ok {
			var err error
			if sys, err = n.systemOf(r.Source, r.Experiment, used); err != nil && nameErr == nil {
				nameErr = err
			}
			cache[r.Source] = sys
		}
		if sys == "" {
			for _, l := range n.labels {
				if name, ok := l[r.Label]; ok {
					sys = name
					break
				}
				// A label the input's own document gave (ingest.DocumentNames)
				// is still mapped by its target's host:port.
				if name, ok := l[hps[i]]; ok && hps[i] != "" {
					sys = name
					break
				}
			}
		}
		if sys != "" {
			r.Label = sys
			n.named[r.RunID] = true
		}
		known[r.Label] = true
	}
	// A system whose inputs were all rejected is still a system.
	for _, rej := range rejs {
		sys, err := n.systemOf(rej.Key, rej.Experiment, used)
		if err != nil && nameErr == nil {
			nameErr = err
		}
		if sys != "" {
			known[sys] = true
		}
	}
	n.known = slices.Sorted(maps.Keys(known))
	if nameErr != nil {
		nameErr.(*NameError).Known = n.known
		return nameErr
	}
	for lvl, rules := range n.levels {
		for ri, r := range rules {
			entries := slices.Concat(r.Sources, r.Patterns, r.Experiments)
			for e, what := range entries {
				if used[[3]int{lvl, ri, e}] {
					continue
				}
				how := r.Flag
				if how == "" {
					how = "the manifest's systems." + r.Name
				}
				return &NameError{Msg: fmt.Sprintf("system %q: %s matched no input (%s)", r.Name, shownName(what), how), Known: n.known}
			}
		}
	}
	return n.checkOrder(runs, rejs)
}

// checkOrder checks that every entry of the manifest's order: names an
// input (a run's source or a rejected input's key), as a system's
// pattern must.
func (n *namer) checkOrder(runs []results.Run, rejs []Rejection) error {
	m := n.req.Manifest
	if m == nil || len(m.Order) == 0 {
		return nil
	}
	var inputs []string
	seen := map[string]bool{}
	for _, r := range runs {
		if !seen[r.Source] {
			seen[r.Source] = true
			inputs = append(inputs, r.Source)
		}
	}
	for _, rej := range rejs {
		if !seen[rej.Key] {
			seen[rej.Key] = true
			inputs = append(inputs, rej.Key)
		}
	}
	for _, o := range m.Order {
		if slices.ContainsFunc(inputs, func(src string) bool { return o == src || o != "" && o == n.rel(src) }) {
			continue
		}
		shown := make([]string, 0, 10)
		for _, src := range inputs[:min(len(inputs), 10)] {
			if rel := n.rel(src); rel != "" {
				src = rel
			}
			shown = append(shown, shownName(src))
		}
		if len(inputs) > 10 {
			shown = append(shown, fmt.Sprintf("and %d more", len(inputs)-10))
		}
		return &NameError{Msg: fmt.Sprintf("the manifest's order: %s matched no input (the inputs are: %s)", shownName(o), strings.Join(shown, ", ")), Known: n.known}
	}
	return nil
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

// analyzeOnce analyses experiment exp from the inputs in (keys with
// ETags, as listed; it adds or removes the manifest's rejection record
// when it writes or deletes it) and writes the report and its
// covers.json, calling beforeWrite first.
func (p *Pipeline) analyzeOnce(ctx context.Context, exp string, in map[string]string, beforeWrite func(context.Context) error) (string, error) {
	req := Request{Experiment: exp}
	mkey := store.ManifestKey(exp)
	mrej := store.RejectedKey(exp, mkey)
	var mobj store.Object
	var mfault error // why the manifest cannot be used
	if _, ok := in[mkey]; ok {
		b, obj, err := ReadManifest(ctx, p.Store, mkey)
		var me *ManifestError
		switch {
		case errors.As(err, &me):
			mfault = err
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return "", err
		}
		mobj = obj
		if err == nil {
			if req.Manifest, mfault = ParseManifest(mkey, b); mfault == nil {
				req.Manifest.Dir = store.RawPrefix + exp
			}
		}
	}
	var r *Report
	var err error
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
