package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/local"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/plots"
	"github.com/loadverdict/loadverdict/report"
)

func runReport(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "report", "[-o DIR] [--open] [--figures png|svg] [--system NAME=PATH]... [--merge PATH,PATH...]... [--label host:port=name]... [--baseline NAME] [--manifest FILE] [--threshold EXPR]... [--fail-on LIST] [--max-regression PCT] FILE...",
		"Analyze the inputs (warm-up, steady state, comparison, capacity, methodology) through\n"+
			"the bucket pipeline over DIR as a local store and write the verdict: DIR/report.md with\n"+
			"its figures (PNG, or SVG with --figures svg), DIR/report.html (the same report as one\n"+
			"self-contained page, figures inlined; --open opens it), DIR/summary.md and\n"+
			"DIR/summary.json; the tables go under\n"+
			"DIR/tables/<table>/experiment=<name>/. The inputs are the whole experiment: tables (and\n"+
			"rejection records) in its partition from other sources, left by an earlier report, are\n"+
			"removed; other experiments' are never touched. The inputs are only read.\n"+
			"Systems: a run belongs to the system whose --system PATH (or manifest systems: pattern)\n"+
			"holds its file; else to the name its target maps to (--label, then the manifest's\n"+
			"labels:); else to its host:port. A manifest is --manifest FILE or loadverdict.yaml in\n"+
			"an input folder. --merge names inputs that are parts of one test, the outputs of\n"+
			"several load generators run at once: their runs become one run at analysis (counts\n"+
			"and throughput added, percentiles from their samples together).\n"+
			"Prints the headline verdict.\n"+gateHelp)
	out := fs.String("o", "out", "output `DIR`")
	baseline := fs.String("baseline", "", "compare every other system against this system `NAME`")
	labels := experiment.Labels{}
	fs.Var(&labels, "label", "name a system by its target: `host:port=name`, or a file name for logs without a target (repeatable)")
	var files local.Files
	fs.Var(&files.Systems, "system", "name a system by where its runs come from: `NAME=PATH`, a file or a folder (repeatable)")
	fs.Var(&files.Merges, "merge", "inputs that are parts of one test, run at once by several load generators: `PATH,PATH...` (files or folders; repeatable, one group each)")
	manifest := fs.String("manifest", "", "the experiment's manifest `FILE` (default: loadverdict.yaml in an input folder)")
	r := addInputFlags(fs, e)
	gate := addGateFlags(fs)
	figs := addFiguresFlag(fs)
	open := fs.Bool("open", false, "open report.html in the desktop's browser (xdg-open, open or start) when it is written")
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	files.Output, r.JUnit = *out, gate.junit
	in, exp, err := resolveInputs(fs.Name(), r, args, &files)
	if err != nil {
		return err
	}
	m, err := local.LoadManifest(*manifest, in.Manifests)
	if err != nil {
		return err
	}
	req := pipeline.Request{Experiment: exp, Manifest: m,
		Overrides: experiment.Overrides{Systems: in.Rules, Merge: in.Merges, Labels: labels, Baseline: *baseline}, Figures: *figs}
	gate.apply(&req.Overrides)
	res, err := r.Report(ctx, *out, in, req)
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, res.Report.Headline)
	page := filepath.Join(*out, pipeline.HTMLName)
	fmt.Fprintln(e.stdout)
	writtenReports(e.stdout, *out)
	if *open {
		if err := local.Open(page); err != nil {
			fmt.Fprintln(e.stderr, "--open:", err)
		}
	}
	if res.Report.Verdict == nil {
		return errReported // no run could be read: each input said why on stderr
	}
	return gateExit(e, report.VerdictGate(res.Report.Verdict), res.Rejected, gate.junit)
}

// addFiguresFlag declares --figures on fs.
func addFiguresFlag(fs *flag.FlagSet) *plots.Format {
	f := plots.FormatPNG
	fs.Var(&f, "figures", "`format` of the figure files beside report.md: png or svg (report.html inlines SVG either way)")
	return &f
}
