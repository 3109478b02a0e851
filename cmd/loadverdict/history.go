package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/report"
)

// historyGateHelp describes the gate of history.
const historyGateHelp = `The history check (made for nightly CI): each experiment, as it arrives, is tested against the
reference level (the experiments since the first, the latest accepted or the latest better
level) over the experiments' values (their noise pooled over every level: a prediction
interval), and by compare's tests over the runs where that noise is not yet known. A
regression (significant at alpha, split with the drift test once it runs; worse by more than
--max-regression percent, never less than the practical band) stays one every night after,
until accepted (--accept EXPERIMENT, or the manifests' history.accept list, or a pinned
history.baseline experiment). A first night beyond --max-regression but not significant is
suspect: no change shown that night, the next one decides (the gate fails then if it holds). A
drift is a significant Mann-Kendall trend over the level whose cumulative Theil-Sen change
passes --max-regression. The headline says exactly one of: regression, drift, undecided,
improved, no change shown.
The gate (exit 3): running history asks for its check, as compare's OLD does: it fails on
regression, drift, inconclusive (undecided: still not significant the night after; errors; the
metric missing) and no-comparison (none of the latest experiment's systems and settings ran
before it) of the latest experiment on throughput (closed model) or mean and p99 latency (open
model), unless allowed by name (--allow). The reasons go to stderr; summary.json records the
same decision.`

func runHistory(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "history", "[-o DIR] [--series NAME] [--fail-on LIST] [--max-regression PCT] DIR... | --store DIR|s3://BUCKET --series NAME [-o DIR]",
		"Analyse a series of experiments: one folder per experiment (its files, and its\n"+
			"loadverdict.yaml with series: and meta: {commit, version, branch, date, note}), in the order\n"+
			"given; or with --store, the experiments of the store whose manifest names --series.\n"+
			"Experiments are ordered by meta.date when every one has it, else by the start times of\n"+
			"their runs, else as given (the report says which). Per system and settings: each\n"+
			"experiment's steady values with 95 % CIs over runs, change points by E-Divisive means\n"+
			"confirmed by Welch's t-test over experiments and compare's tests over runs, and the latest\n"+
			"experiment against the reference level (below). Writes DIR/report.md,\n"+
			"summary.md, summary.json and trend-*.png, and (from folders) the tables of every\n"+
			"experiment under DIR/tables/, each experiment in its own partition (named after its folder).\n"+
			"Prints the headline.\n"+historyGateHelp)
	out := fs.String("o", "", "output `DIR` (default out; with --store, nothing is written without -o)")
	series := fs.String("series", "", "the series' `NAME` (default: the manifests' series:, else the folders' parent folder)")
	in := addInputFlags(fs)
	sf := addStoreFlags(fs)
	g := addGateFlags(fs)
	fs.Lookup("experiment").Usage = "not for history: each folder is the experiment named after it"
	fs.Lookup("threshold").Usage = "not for history: check thresholds per experiment (report --threshold)"
	fs.Lookup("fail-on").Usage = "history guards `regression,drift,inconclusive,no-comparison` of the latest experiment by default; --fail-on names them explicitly (comma-separated, repeatable; added to the manifest's gate.fail_on)"
	var accept acceptList
	fs.Var(&accept, "accept", "accept the change at `EXPERIMENT`: the reference level starts again there (repeatable; with the manifests' history.accept)")
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if in.experiment != "" {
		return usagef("history: --experiment: each folder is an experiment, named after it")
	}
	if len(g.thresholds) > 0 || slices.Contains(g.failOn, gate.ThresholdFailed) {
		return usagef("history: thresholds are checked per experiment (report --threshold), not on a series")
	}
	req := pipeline.HistoryRequest{Series: *series, Accept: accept}
	if len(g.failOn) > 0 {
		req.FailOn = g.failOn
	}
	req.Allow = g.allow
	if g.maxRegression.set {
		req.MaxRegressionPct = &g.maxRegression.pct
	}
	var p *pipeline.Pipeline
	rejected := 0
	if sf.store != "" {
		if len(args) > 0 {
			return usagef("history: with --store, the experiments are the store's (got %s)", strings.Join(args, " "))
		}
		if p, err = sf.pipeline(ctx); err != nil {
			return err
		}
		if req.Experiments, err = storeSeries(ctx, p, *series); err != nil {
			return err
		}
	} else {
		if len(args) == 0 {
			return usagef("history: no experiment folders")
		}
		dir := *out
		if dir == "" {
			dir = "out"
		}
		if p, rejected, err = ingestSeries(ctx, e, dir, args, &req, in.window.Seconds()); err != nil {
			return err
		}
	}
	r, err := p.History(ctx, req)
	if errors.Is(err, pipeline.ErrNoRuns) && rejected > 0 {
		return errReported
	}
	var ae *pipeline.AcceptError
	var oe *analyze.OrderError
	if errors.As(err, &ae) || errors.As(err, &oe) {
		return usagef("history: %v", err)
	}
	if err != nil {
		return err
	}
	if sf.store == "" || *out != "" {
		dst := p
		dir := *out
		if sf.store != "" {
			if dst, err = openLocal(dir); err != nil {
				return err
			}
		} else if dir == "" {
			dir = "out"
		}
		if err := dst.WriteHistory(ctx, "", r); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, r.Headline)
		fmt.Fprintf(e.stdout, "\nreport: %s\nsummary: %s\n", filepath.Join(dir, "report.md"), filepath.Join(dir, "summary.json"))
	} else {
		fmt.Fprintln(e.stdout, r.Headline)
	}
	var allowed []string
	for _, a := range report.HistoryAllowed(r.History) {
		allowed = append(allowed, strings.TrimSuffix(a, " (allowed)"))
	}
	return gateExit(e, r.History.Failed, report.HistoryGateReasons(r.History), allowed, rejected, g.junit,
		func(w io.Writer) error { return report.HistoryJUnit(w, r.History) })
}

// storeSeries returns the experiments of a store's series; a name that
// is no series is a usage error listing the series.
func storeSeries(ctx context.Context, p *pipeline.Pipeline, series string) ([]string, error) {
	all, err := p.Series(ctx)
	if err != nil {
		return nil, err
	}
	known := slices.Sorted(maps.Keys(all))
	list := "none"
	if len(known) > 0 {
		list = strings.Join(known, ", ")
	}
	if series == "" {
		return nil, usagef("history: --store needs --series NAME; the series are: %s", list)
	}
	if len(all[series]) == 0 {
		return nil, usagef("history: no experiment of %s names series %q in its manifest; the series are: %s", p.Store, series, list)
	}
	return all[series], nil
}

// ingestSeries ingests each argument (a folder, or a file) as one
// experiment named after it into the local store in dir, and fills req's
// experiments, manifests and series. Two arguments with the same name
// are a usage error: their tables would share a partition.
func ingestSeries(ctx context.Context, e *env, dir string, args []string, req *pipeline.HistoryRequest, windowS float64) (*pipeline.Pipeline, int, error) {
	type expIn struct {
		name, arg string
		files     []string
		m         *pipeline.Manifest
	}
	var exps []expIn
	var allFiles []string
	seen := map[string]string{}
	manSeries := map[string][]string{}
	for _, arg := range args {
		if arg == "-" {
			return nil, 0, usagef("history: standard input cannot be an experiment")
		}
		if _, err := os.Stat(arg); err != nil {
			return nil, 0, usagef("history: %s: %v", arg, errors.Unwrap(err))
		}
		name := defaultExperiment(arg)
		if other, ok := seen[name]; ok {
			return nil, 0, usagef("history: %s and %s would both be experiment %q: rename one folder", other, arg, name)
		}
		seen[name] = arg
		files, manifests, err := expandArg(arg)
		if err != nil {
			return nil, 0, err
		}
		if len(files) == 0 {
			return nil, 0, usagef("history: %s: no input files there", arg)
		}
		m, err := loadManifest("", manifests)
		if err != nil {
			return nil, 0, err
		}
		if m != nil && m.Series != "" {
			manSeries[m.Series] = append(manSeries[m.Series], arg)
		}
		exps = append(exps, expIn{name: name, arg: arg, files: files, m: m})
		allFiles = append(allFiles, files...)
	}
	if req.Series == "" {
		switch len(manSeries) {
		case 0:
			parent := filepath.Base(filepath.Dir(filepath.Clean(args[0])))
			if abs, err := filepath.Abs(args[0]); err == nil {
				parent = filepath.Base(filepath.Dir(abs))
			}
			req.Series = store.SanitizeName(parent)
		case 1:
			for s := range manSeries {
				req.Series = s
			}
		default:
			var parts []string
			for _, s := range slices.Sorted(maps.Keys(manSeries)) {
				parts = append(parts, fmt.Sprintf("%q (%s)", s, strings.Join(manSeries[s], ", ")))
			}
			return nil, 0, usagef("history: the manifests name several series: %s; choose one with --series", strings.Join(parts, ", "))
		}
	}
	if err := pipeline.CheckSeries(req.Series); err != nil {
		return nil, 0, usagef("history: --series: %v", err)
	}
	if err := checkOutput(dir, allFiles); err != nil {
		return nil, 0, err
	}
	p, err := openLocal(dir)
	if err != nil {
		return nil, 0, err
	}
	rejected := 0
	req.Manifests = map[string]*pipeline.Manifest{}
	for _, x := range exps {
		_, rej, err := ingestFiles(ctx, e, p, x.name, x.files, windowS)
		if err != nil {
			return nil, rejected, err
		}
		rejected += rej
		if _, err := p.Prune(ctx, x.name, sourceNames(x.files)); err != nil {
			return nil, rejected, err
		}
		req.Experiments = append(req.Experiments, x.name)
		req.Manifests[x.name] = x.m
	}
	return p, rejected, nil
}

// acceptList is the repeatable --accept flag: experiment names.
type acceptList []string

func (l *acceptList) String() string { return strings.Join(*l, ",") }

// Set adds one experiment name; an empty one is an error.
func (l *acceptList) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("want an experiment's name")
	}
	*l = append(*l, s)
	return nil
}
