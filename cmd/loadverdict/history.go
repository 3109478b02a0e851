package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/report"
)

// historyGateHelp describes the gate of history.
const historyGateHelp = `The history check (made for nightly CI): each experiment, as it arrives, is tested against the
reference level: the nights since the first or the latest accepted experiment (--accept
EXPERIMENT, the manifests' history.accept, or a pinned history.baseline), less the nights of a
regression, the better nights (an improvement is reported and does not move the reference until
accepted) and outlier nights. The noise is the spread of the reference nights' values (never
below the runs' own); with --control LABEL each night is taken over the control's (the same
job's unchanged build), which cancels the machine's night-to-night drift. The first 2 nights
form the reference (not guarded yet). A night worse by more than --max-regression percent
(never less than the practical band) and beyond the noise is suspect: no change shown, the
next nights decide. A regression: the nights from a step are significant at alpha/5 and worse
by more than --max-regression; it is dated at the step and fails every night until accepted,
or until a night is back at the reference (recovered). A drift is a significant Mann-Kendall
trend over the reference whose cumulative Theil-Sen change passes --max-regression. The
headline says exactly one of: regression, drift, errors rose, undecided, improved, no change
shown.
The gate (exit 3): running history asks for its check, as compare's OLD does: it fails on
regression, drift, inconclusive (undecided: the night has errors, lacks the metric, or lacks
the control), errors (its error rate rose against the reference level's) and no-comparison
(none of the latest experiment's systems and settings ran before it) of the latest experiment
on throughput (closed model) or mean and p99 latency (open model), unless allowed by name
(--allow). The reasons go to stderr; summary.json records the
same decision.`

func runHistory(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "history", "[-o DIR] [--series NAME] [--control LABEL] [--accept EXPERIMENT]... [--fail-on LIST] [--max-regression PCT] DIR... | --store DIR|s3://BUCKET --series NAME [-o DIR]",
		"Analyse a series of experiments: one folder per experiment (its files, and its\n"+
			"loadverdict.yaml with series: and meta: {commit, version, branch, date, note}), in the order\n"+
			"given; or with --store, the experiments of the store whose manifest names --series.\n"+
			"Experiments are ordered by meta.date when every one has it (a meta.date on only some is\n"+
			"refused, exit 2), else by the start times of their runs, else as given (the report says\n"+
			"which). Per system and settings: each\n"+
			"experiment's steady values with 95 % CIs over runs, change points by E-Divisive means\n"+
			"confirmed by Welch's t-test over experiments and compare's tests over runs, and the latest\n"+
			"experiment against the reference level (below). Writes DIR/report.md,\n"+
			"summary.md, summary.json and trend-*.png, and (from folders) the tables of every\n"+
			"experiment under DIR/tables/, each experiment in its own partition (named after its folder).\n"+
			"Prints the headline.\n"+historyGateHelp)
	out := fs.String("o", "", "output `DIR` (default out; with --store, nothing is written without -o)")
	series := fs.String("series", "", "the series' `NAME` (default: the manifests' series:, else the folders' parent folder)")
	lr := addInputFlags(fs, e)
	sf := addStoreFlags(fs)
	g := addGateFlags(fs)
	fs.Lookup("experiment").Usage = "not for history: each folder is the experiment named after it"
	fs.Lookup("threshold").Usage = "not for history: check thresholds per experiment (report --threshold)"
	fs.Lookup("fail-on").Usage = "history guards `regression,drift,inconclusive,no-comparison,errors` of the latest experiment by default; --fail-on names them explicitly (comma-separated, repeatable; added to the manifest's gate.fail_on)"
	var accept experiment.Accepted
	fs.Var(&accept, "accept", "accept the change at `EXPERIMENT`: the reference level starts again there (repeatable; with the manifests' history.accept)")
	control := fs.String("control", "", "the control system's `LABEL`: an unchanged reference build or endpoint measured in every experiment of the series, in the same job; every other system is checked by its value over the control's that night (default: the latest manifest's history.control)")
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if lr.Experiment != "" {
		return usagef("history: --experiment: each folder is an experiment, named after it")
	}
	if len(g.thresholds) > 0 || slices.Contains(g.failOn, gate.ThresholdFailed) {
		return usagef("history: thresholds are checked per experiment (report --threshold), not on a series")
	}
	lr.JUnit = g.junit
	req := pipeline.HistoryRequest{Series: *series, Accept: accept, Control: *control}
	if len(g.failOn) > 0 {
		req.FailOn = g.failOn
	}
	req.Allow, req.MaxRegressionPct = g.allow, g.maxRegression
	var r *pipeline.HistoryReport
	rejected := 0
	if sf.store != "" {
		if len(args) > 0 {
			return usagef("history: with --store, the experiments are the store's (got %s)", strings.Join(args, " "))
		}
		r, err = lr.StoreHistory(ctx, sf.pipeline, *out, req)
	} else {
		if len(args) == 0 {
			return usagef("history: no experiment folders")
		}
		r, rejected, err = lr.History(ctx, cmp.Or(*out, "out"), args, req)
	}
	if errors.Is(err, pipeline.ErrNoRuns) && rejected > 0 {
		return errReported
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, r.Headline)
	if sf.store == "" || *out != "" {
		fmt.Fprintln(e.stdout)
		writtenReports(e.stdout, cmp.Or(*out, "out"))
	}
	return gateExit(e, report.HistoryGate(r.History), rejected, g.junit)
}
