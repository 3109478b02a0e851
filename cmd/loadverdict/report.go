package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/loadverdict/loadverdict/internal/pipeline"
)

func runReport(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "report", "[-o DIR] [--system NAME=PATH]... [--merge PATH,PATH...]... [--label host:port=name]... [--baseline NAME] [--manifest FILE] [--threshold EXPR]... [--fail-on LIST] [--max-regression PCT] FILE...",
		"Analyze the inputs (warm-up, steady state, comparison, capacity, methodology) through\n"+
			"the bucket pipeline over DIR as a local store and write the verdict: DIR/report.md with\n"+
			"its PNG figures, and DIR/summary.json; the tables go under\n"+
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
	labels := labelFlag{}
	fs.Var(labels, "label", "name a system by its target: `host:port=name`, or a file name for logs without a target (repeatable)")
	var systems systemFlag
	fs.Var(&systems, "system", "name a system by where its runs come from: `NAME=PATH`, a file or a folder (repeatable)")
	var merges mergeFlag
	fs.Var(&merges, "merge", "inputs that are parts of one test, run at once by several load generators: `PATH,PATH...` (files or folders; repeatable, one group each)")
	manifest := fs.String("manifest", "", "the experiment's manifest `FILE` (default: loadverdict.yaml in an input folder)")
	in := addInputFlags(fs)
	gate := addGateFlags(fs)
	plan, exp, err := in.parseInputs(fs, args, &systems, &merges)
	if err != nil {
		return err
	}
	m, err := loadManifest(*manifest, plan.manifests)
	if err != nil {
		return err
	}
	req := pipeline.Request{Experiment: exp, Manifest: m,
		Overrides: pipeline.Overrides{Systems: plan.rules, Merge: plan.merges, Labels: labels, Baseline: *baseline}}
	gate.apply(&req.Overrides)
	res, err := analyzeLocal(ctx, e, *out, plan.files, req, in.window.Seconds())
	if err != nil {
		return err
	}
	if err := res.p.WriteReport(ctx, "", res.report); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, res.report.Headline)
	fmt.Fprintf(e.stdout, "\nreport: %s\nsummary: %s\n", filepath.Join(*out, "report.md"), filepath.Join(*out, "summary.json"))
	return gateResult(e, res.report.Verdict, res.rejected)
}

// localResult is an experiment analysed from local inputs.
type localResult struct {
	p        *pipeline.Pipeline
	report   *pipeline.Report
	rejected int // inputs that could not be read or parsed
}

// analyzeLocal runs the bucket pipeline over the local store in dir on
// files as experiment req.Experiment: it ingests every file, removes what
// the experiment's partition holds from other sources (the inputs are the
// whole experiment), and analyses the experiment, its runs in the order
// of the files (after the manifest's order). The report is not written.
func analyzeLocal(ctx context.Context, e *env, dir string, files []string, req pipeline.Request, windowS float64) (*localResult, error) {
	if err := checkOutput(dir, files); err != nil {
		return nil, err
	}
	p, err := openLocal(dir)
	if err != nil {
		return nil, err
	}
	_, rejected, err := ingestFiles(ctx, e, p, req.Experiment, files, windowS)
	if err != nil {
		return nil, err
	}
	names := sourceNames(files)
	if _, err := p.Prune(ctx, req.Experiment, names); err != nil {
		return nil, err
	}
	req.Overrides.Order = names
	rep, err := p.Report(ctx, req)
	if err != nil {
		return nil, err
	}
	if rep.Verdict == nil {
		return nil, errReported // every input failed, each said why on stderr
	}
	return &localResult{p: p, report: rep, rejected: rejected}, nil
}
