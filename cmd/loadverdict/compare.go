package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/loadverdict/loadverdict/internal/local"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/report"
)

func runCompare(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "compare", "[-o DIR] [--format text|markdown|json] [--store DIR|s3://BUCKET] [--threshold EXPR]... [--fail-on LIST] [--max-regression PCT] OLD NEW",
		"Compare the runs of OLD (the baseline) with those of NEW, through the same pipeline and\n"+
			"analysis as report. OLD and NEW are each a file or a folder, or with --store an\n"+
			"experiment of the store. The runs of OLD form one system and those of NEW another, also\n"+
			"when both hit the same host:port; each is named after its argument's base name (a file's\n"+
			"without its extension), or old and new when both names are equal; --system NAME=OLD or\n"+
			"--system NAME=NEW names it. With -o DIR the full report is written as\n"+
			"by report; without it the work happens in a temporary folder that is removed, and only\n"+
			"stdout says the result. A manifest applies only with --manifest. The inputs are only read.\n"+
			"Prints the headline and a table per setting: old, new, the change with its 95 % CI, p, runs\n"+
			"old/new, ~ where no difference can be claimed, the reasons as numbered footnotes; then\n"+
			"the thresholds and the gate. -o DIR also writes report.md, report.html (the same, one\n"+
			"self-contained page), summary.md (for a pull request comment) and summary.json.\n"+gateHelp)
	out := fs.String("o", "", "write the full report and the tables to `DIR` (default: none, a temporary folder)")
	format := fs.String("format", "text", "stdout `format`: text, markdown or json")
	var systems local.Systems
	fs.Var(&systems, "system", "name the system of OLD or NEW: `NAME=OLD` or NAME=NEW")
	manifest := fs.String("manifest", "", "a manifest `FILE` (labels, order, analysis thresholds)")
	r := addInputFlags(fs, e)
	fs.Lookup("experiment").Usage = "experiment `name` of the report (default: OLD-vs-NEW, after the systems' names)"
	sf := addStoreFlags(fs)
	gate := addGateFlags(fs)
	figs := addFiguresFlag(fs)
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(args) != 2 {
		return usagef("compare: want OLD and NEW, got %d arguments", len(args))
	}
	if !slices.Contains(report.CompareFormats, *format) {
		return usagef("compare: --format %q: want text, markdown or json", *format)
	}
	oldArg, newArg := args[0], args[1]
	m, err := local.LoadManifest(*manifest, nil)
	if err != nil {
		return err
	}
	r.JUnit = gate.junit
	req := pipeline.Request{Manifest: m, Figures: *figs}
	gate.apply(&req.Overrides)
	var res *local.Result
	if sf.store != "" {
		if len(systems) > 0 {
			return usagef("compare: --system names local files; with --store, OLD and NEW are experiments")
		}
		res, err = r.CompareStore(ctx, sf.pipeline, *out, oldArg, newArg, req)
	} else {
		res, err = r.Compare(ctx, *out, oldArg, newArg, systems, req)
	}
	if err != nil {
		return err
	}
	if *out != "" {
		writtenReports(e.stderr, *out)
	}
	if res.Report.Verdict == nil {
		// No run of either side could be read: say so in the format
		// asked for, as the bucket's report does, and fail.
		if err := report.CompareNoRuns(e.stdout, res.Report.Experiment, res.Old, res.New, *format, res.Report.NoRunsOptions, res.Report.NoRunsGate, res.Report.Meta); err != nil {
			return err
		}
		if res.Rejected == 0 {
			return fmt.Errorf("compare: %s", report.NoRunsHeadline)
		}
		return errReported // each input said why on stderr
	}
	if err := report.Compare(e.stdout, res.Report.Verdict, *format); err != nil {
		return err
	}
	return gateExit(e, report.VerdictGate(res.Report.Verdict), res.Rejected, gate.junit)
}
