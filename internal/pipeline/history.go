package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/plots"
	"github.com/loadverdict/loadverdict/report"
)

// HistoryRequest says which experiments form a series and how.
type HistoryRequest struct {
	Series string
	// Experiments are the series' experiments of the store, in the order
	// given (used when no meta dates or run start times order them).
	Experiments []string
	// Manifests are the experiments' manifests by name, when the caller
	// has them (the command line); otherwise each experiment's manifest
	// is read from the store (raw/<experiment>/loadverdict.yaml).
	Manifests map[string]*experiment.Manifest
	// FailOn and Allow are added to the latest experiment's manifest's
	// gate.fail_on and gate.allow (as report's flags are);
	// MaxRegressionPct, when set, replaces its gate.max_regression.
	FailOn           []gate.Condition
	MaxRegressionPct *float64
	Allow            []gate.Condition
	// Accept names experiments whose change is accepted (--accept), in
	// addition to the manifests' history.accept.
	Accept experiment.Accepted
	// Control is the control system (--control); empty: the latest
	// manifest's history.control, if any.
	Control string
}

// AcceptError is an accepted or baseline experiment that is not in the
// series: a usage error, since the gate would otherwise silently ignore it.
type AcceptError struct {
	Series, Name, From string
	Known              []string
}

func (e *AcceptError) Error() string {
	return fmt.Sprintf("%s: series %s has no experiment %q (its experiments: %s)", e.From, e.Series, e.Name, strings.Join(e.Known, ", "))
}

// HistoryReport is an analysed series and the files of its report.
type HistoryReport struct {
	Series   string
	Headline string
	History  *analyze.History
	// Files are the trend figures, report.md, summary.md and summary.json.
	Files []File
	// Inputs are what it was made from, with ETags: each experiment's
	// covers.json and manifest, where they exist.
	Inputs map[string]string
}

// History analyses the experiments of a series, each as Report would
// (its manifest's systems, labels and thresholds), orders them
// (analyze.OrderExperiments), finds the change points of each system and
// settings, checks the latest experiment and renders the files. It
// writes nothing.
func (p *Pipeline) History(ctx context.Context, req HistoryRequest) (*HistoryReport, error) {
	if err := experiment.CheckSeries(req.Series); err != nil {
		return nil, err
	}
	if len(req.Experiments) == 0 {
		return nil, fmt.Errorf("series %s: %w", req.Series, ErrNoRuns)
	}
	hr := &HistoryReport{Series: req.Series, Inputs: map[string]string{}}
	var exps []analyze.SeriesExperiment
	var unread []unreadExperiment
	byName := map[string]*experiment.Manifest{}
	pos := map[string]int{}
	for i, exp := range req.Experiments {
		se, m, unreadable, err := p.seriesExperiment(ctx, req, exp, hr.Inputs)
		if err != nil {
			return nil, err
		}
		if unreadable {
			// Every upload rejected or removed: if the latest, it fails
			// the gate (latestUnread).
			unread = append(unread, unreadExperiment{name: exp, pos: i, meta: se.Meta})
		}
		if se.Verdict == nil {
			continue // nothing to show
		}
		exps = append(exps, se)
		byName[exp] = m
		pos[exp] = i
	}
	if len(exps) == 0 {
		return nil, fmt.Errorf("series %s: %w", req.Series, ErrNoRuns)
	}
	order, err := analyze.OrderExperiments(exps)
	if err != nil {
		return nil, fmt.Errorf("series %s: %w", req.Series, err)
	}
	if err := markAccepted(req, exps, byName); err != nil {
		return nil, err
	}
	// The latest experiment's manifest says how to analyse and gate.
	opts := experiment.HistoryOptions(byName[exps[len(exps)-1].Name], experiment.HistoryOverrides{
		FailOn: req.FailOn, Allow: req.Allow, MaxRegressionPct: req.MaxRegressionPct, Control: req.Control})
	earlier := max(len(exps)-analyze.MaxSeriesExperiments, 0)
	h, err := analyze.AnalyzeHistory(req.Series, order, exps[earlier:], opts)
	if err != nil {
		return nil, err
	}
	h.Earlier = earlier
	last := exps[len(exps)-1]
	if u := latestUnread(unread, last, pos[last.Name]); u != "" {
		h.MarkUnread(u)
	}
	hr.History, hr.Headline = h, report.HistoryHeadline(h)
	hr.Files, err = RenderHistory(h, p.GeneratedBy)
	return hr, err
}

// unreadExperiment is an experiment of a series of which no run could be
// read (every input rejected or removed): its position in the request's
// list and its manifest's meta.
type unreadExperiment struct {
	name string
	pos  int
	meta analyze.Meta
}

// latestUnread names the latest of the unread experiments that comes
// after last (the latest analysed, at position lastPos of the request's
// list): by meta date where both have one (the same day counts as after:
// it cannot be placed before), else by the list's order (the command
// line's, the bucket's by name); "" when none does.
func latestUnread(unread []unreadExperiment, last analyze.SeriesExperiment, lastPos int) string {
	name, best := "", -1
	for _, u := range unread {
		after := u.pos > lastPos
		du, errU := analyze.ParseDate(u.meta.Date) // "" does not parse
		if dl, errL := analyze.ParseDate(last.Meta.Date); errU == nil && errL == nil {
			after = !du.Before(dl)
		}
		if after && u.pos > best {
			name, best = u.name, u.pos
		}
	}
	return name
}

// seriesExperiment analyses experiment exp of a series as Report would
// (its manifest's systems, labels and thresholds; the manifest of req, or
// the store's, whose ETag goes into inputs). Its Verdict is nil when it
// has nothing to show yet; the bool is true when that is because every
// input was rejected or removed (not for want of any input).
func (p *Pipeline) seriesExperiment(ctx context.Context, req HistoryRequest, exp string, inputs map[string]string) (analyze.SeriesExperiment, *experiment.Manifest, bool, error) {
	se := analyze.SeriesExperiment{Name: exp}
	m, ok := req.Manifests[exp]
	if !ok {
		var err error
		if m, err = p.manifest(ctx, exp, inputs); err != nil {
			return se, nil, false, err
		}
	}
	in := map[string]string{}
	if err := p.listInputs(ctx, exp, false, in); err != nil {
		return se, nil, false, err
	}
	v, _, _, err := p.verdict(ctx, Request{Experiment: exp, Manifest: m}, in)
	var ne *experiment.NameError
	if errors.As(err, &ne) && !ok {
		// A bucket's manifest whose names match nothing is rejected
		// (Analyze): the experiment counts without it.
		v, _, _, err = p.verdict(ctx, Request{Experiment: exp}, in)
	}
	if errors.Is(err, ErrNoRuns) {
		return se, m, false, nil // no input yet
	}
	if err == nil && v == nil {
		// Every input rejected or removed: with its manifest's meta, to
		// be placed in the series (latestUnread).
		if m != nil {
			se.Meta = m.Meta
		}
		return se, m, true, nil
	}
	if err != nil {
		return se, nil, false, fmt.Errorf("series %s: %w", req.Series, err)
	}
	if o, err := p.Store.Head(ctx, store.ReportKey(exp, "covers.json")); err == nil {
		inputs[o.Key] = o.ETag
	}
	se.Verdict = v
	if m != nil {
		se.Meta = m.Meta
	}
	return se, m, false, nil
}

// markAccepted marks the accepted experiments of a series: those named
// by req.Accept and by any experiment's manifest (history.accept), and
// the pinned baseline of the latest manifest that names one
// (history.baseline). A name that is no experiment of the series is an
// *AcceptError.
func markAccepted(req HistoryRequest, exps []analyze.SeriesExperiment, byName map[string]*experiment.Manifest) error {
	idx := map[string]int{}
	var known []string
	for i, e := range exps {
		idx[e.Name] = i
		known = append(known, e.Name)
	}
	mark := func(name, how, from string) error {
		i, ok := idx[name]
		if !ok {
			return &AcceptError{Series: req.Series, Name: name, From: from, Known: known}
		}
		if exps[i].Accepted != analyze.AcceptedBaseline {
			exps[i].Accepted = how
		}
		return nil
	}
	for _, a := range req.Accept {
		if err := mark(a, analyze.AcceptedByName, "--accept"); err != nil {
			return err
		}
	}
	baseline, from := "", ""
	for _, e := range exps {
		m := byName[e.Name]
		if m == nil {
			continue
		}
		for _, a := range m.History.Accept {
			if err := mark(a, analyze.AcceptedByName, "experiment "+e.Name+": history.accept"); err != nil {
				return err
			}
		}
		if m.History.Baseline != "" {
			baseline, from = m.History.Baseline, "experiment "+e.Name+": history.baseline"
		}
	}
	if baseline != "" {
		if _, ok := idx[baseline]; !ok {
			return &AcceptError{Series: req.Series, Name: baseline, From: from, Known: known}
		}
		exps[idx[baseline]].Accepted = analyze.AcceptedBaseline
	}
	return nil
}

// RenderHistory makes the files of a series' report: the trend figures,
// report.md, report.html, summary.md and summary.json, in that order.
func RenderHistory(h *analyze.History, generatedBy string) ([]File, error) {
	figs, err := plots.RenderHistory(h)
	if err != nil {
		return nil, err
	}
	out, refs := figureFiles(figs, plots.FormatPNG)
	var md, page, smd, js bytes.Buffer
	if err := report.HistoryMarkdownAndHTML(&md, &page, h, refs, generatedBy); err != nil {
		return nil, err
	}
	if err := report.HistorySummaryMarkdown(&smd, h, "report.md"); err != nil {
		return nil, err
	}
	if err := report.HistoryJSON(&js, h, generatedBy); err != nil {
		return nil, err
	}
	return append(out, File{"report.md", md.Bytes()}, File{HTMLName, page.Bytes()}, File{"summary.md", smd.Bytes()}, File{"summary.json", js.Bytes()}), nil
}

// WriteHistory writes a series' report under prefix ("" for the root of
// a local output folder, reports/_series/<series>/ in a bucket).
func (p *Pipeline) WriteHistory(ctx context.Context, prefix string, r *HistoryReport) error {
	return p.WriteReport(ctx, prefix, &Report{Files: r.Files})
}

// manifest reads an experiment's manifest from the store (nil when it
// has none, or one that cannot be parsed) and records its ETag in in.
func (p *Pipeline) manifest(ctx context.Context, exp string, in map[string]string) (m *experiment.Manifest, err error) {
	key := store.ManifestKey(exp)
	b, obj, err := ReadManifest(ctx, p.Store, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	var me *experiment.ManifestError
	if err != nil && !errors.As(err, &me) {
		return nil, err
	}
	if err == nil {
		m, err = experiment.ParseManifest(key, b)
	}
	if errors.As(err, &me) {
		// An input fault of the experiment, which its own analysis
		// records: for its series, it has no manifest.
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m.Dir = store.RawPrefix + exp
	if in != nil {
		in[key] = obj.ETag
	}
	return m, nil
}

// Series returns the series of the store: the names its experiments'
// manifests give, each with its experiments in name order.
func (p *Pipeline) Series(ctx context.Context) (map[string][]string, error) {
	exps, err := p.Experiments(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, exp := range exps {
		m, err := p.manifest(ctx, exp, nil)
		if err != nil {
			return nil, err
		}
		if m != nil && m.Series != "" {
			out[m.Series] = append(out[m.Series], exp)
		}
	}
	return out, nil
}

// AnalyzeSeries makes the report of a series from its experiments in the
// store and writes it under reports/_series/<series>/, with covers.json
// recording what it was made from. A series whose experiments have no
// runs yet is left alone; one whose manifests cannot be followed (an
// *AcceptError, an *analyze.OrderError: dates on only some experiments)
// loses its former report, which no longer stands, and is the error.
func (p *Pipeline) AnalyzeSeries(ctx context.Context, series string) (string, error) {
	all, err := p.Series(ctx)
	if err != nil {
		return "", err
	}
	exps := all[series]
	if len(exps) == 0 {
		return "", fmt.Errorf("series %s: no experiment's manifest names it", series)
	}
	r, err := p.History(ctx, HistoryRequest{Series: series, Experiments: exps})
	if errors.Is(err, ErrNoRuns) {
		return "", nil
	}
	var ae *AcceptError
	var oe *analyze.OrderError
	var ce *analyze.ControlError
	if errors.As(err, &ae) || errors.As(err, &oe) || errors.As(err, &ce) {
		// The series cannot be analysed as its manifests stand: its
		// former report would stand for a verdict no longer made.
		if rerr := p.removeSeriesReport(ctx, series); rerr != nil {
			return "", errors.Join(err, rerr)
		}
	}
	if err != nil {
		return "", err
	}
	// In a bucket the HTML report is the folder's index.html.
	for i := range r.Files {
		if r.Files[i].Name == HTMLName {
			r.Files[i].Name = IndexName
		}
	}
	if err := p.WriteHistory(ctx, store.SeriesReportKey(series, ""), r); err != nil {
		return "", err
	}
	cov, _ := json.MarshalIndent(Covers{AnalysisVersion: analyze.AnalysisVersion, GeneratedBy: p.GeneratedBy, Inputs: r.Inputs}, "", "  ")
	return r.Headline, p.Store.Put(ctx, store.SeriesReportKey(series, "covers.json"), bytes.NewReader(append(cov, '\n')))
}

// removeSeriesReport removes the files of a series' report.
func (p *Pipeline) removeSeriesReport(ctx context.Context, series string) error {
	objs, err := p.Store.List(ctx, store.SeriesReportKey(series, ""))
	if err != nil {
		return err
	}
	for _, o := range objs {
		if err := p.Store.Delete(ctx, o.Key); err != nil {
			return err
		}
	}
	return nil
}

// updateSeries re-makes the report of the series an experiment's
// manifest names, if any: the ingest keeps its series current.
func (p *Pipeline) updateSeries(ctx context.Context, exp string) error {
	m, err := p.manifest(ctx, exp, nil)
	if err != nil || m == nil || m.Series == "" {
		// A manifest that cannot be parsed already failed the analysis.
		return nil
	}
	_, err = p.AnalyzeSeries(ctx, m.Series)
	var ae *AcceptError
	var oe *analyze.OrderError
	var ce *analyze.ControlError
	if errors.As(err, &ae) || errors.As(err, &oe) || errors.As(err, &ce) {
		// A fault of the series' manifests (an accepted name that is no
		// experiment, experiments that cannot be ordered), not of this
		// experiment, whose own analysis stands: the series' report is
		// removed (AnalyzeSeries), history --store and the re-analysis
		// report the fault.
		return nil
	}
	return err
}

// seriesInputs lists what a series' report is made from, with ETags:
// its experiments' covers.json and manifests.
func (p *Pipeline) seriesInputs(ctx context.Context, exps []string) (map[string]string, error) {
	in := map[string]string{}
	for _, exp := range exps {
		for _, key := range []string{store.ReportKey(exp, "covers.json"), store.ManifestKey(exp)} {
			o, err := p.Store.Head(ctx, key)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			in[key] = o.ETag
		}
	}
	return in, nil
}

// seriesStale tells whether a series' report is missing, made by another
// build or analysis version, or made from other inputs.
func (p *Pipeline) seriesStale(ctx context.Context, series string, exps []string) (bool, error) {
	return p.coversStale(ctx, store.SeriesReportKey(series, "covers.json"), func(in map[string]string) error {
		got, err := p.seriesInputs(ctx, exps)
		maps.Copy(in, got)
		return err
	})
}

// remake calls redo for every name that stale says is stale (every name
// when all), and returns the names made (as named); one that fails does
// not stop the others.
func remake(names []string, all bool, stale func(string) (bool, error), redo func(string) error, named func(string) string) ([]string, error) {
	var done []string
	var errs []error
	for _, n := range names {
		if !all {
			st, err := stale(n)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if !st {
				continue
			}
		}
		if err := redo(n); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", named(n), err))
			continue
		}
		done = append(done, named(n))
	}
	return done, errors.Join(errs...)
}

// ReanalyzeSeries re-makes the report of every series that is stale
// (every series, with all) and returns those made.
func (p *Pipeline) ReanalyzeSeries(ctx context.Context, all bool) ([]string, error) {
	series, err := p.Series(ctx)
	if err != nil {
		return nil, err
	}
	return remake(slices.Sorted(maps.Keys(series)), all, func(s string) (bool, error) { return p.seriesStale(ctx, s, series[s]) },
		func(s string) error { _, err := p.AnalyzeSeries(ctx, s); return err }, func(s string) string { return store.SeriesDir + "/" + s })
}
