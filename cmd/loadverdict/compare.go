package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/plots"
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
	var systems systemFlag
	fs.Var(&systems, "system", "name the system of OLD or NEW: `NAME=OLD` or NAME=NEW")
	manifest := fs.String("manifest", "", "a manifest `FILE` (labels, order, analysis thresholds)")
	in := addInputFlags(fs)
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
	m, err := loadManifest(*manifest, nil)
	if err != nil {
		return err
	}
	var res *localResult
	var oldName, newName string
	if sf.store != "" {
		if len(systems) > 0 {
			return usagef("compare: --system names local files; with --store, OLD and NEW are experiments")
		}
		oldName, newName = oldArg, newArg
		res, err = compareStore(ctx, sf, in, oldArg, newArg, m, gate, figs.format)
	} else {
		oldName, newName = sideNames(oldArg, newArg)
		for _, s := range systems {
			switch filepath.Clean(s.path) {
			case filepath.Clean(oldArg):
				oldName = s.name
			case filepath.Clean(newArg):
				newName = s.name
			default:
				return usagef("compare: --system %s=%s: in compare, --system names OLD (%s) or NEW (%s)", s.name, s.path, oldArg, newArg)
			}
		}
		if oldName == newName {
			return usagef("compare: OLD and NEW are both named %q", oldName)
		}
		res, err = compareLocal(ctx, e, *out, in, oldArg, newArg, oldName, newName, m, gate, figs.format)
	}
	if err != nil {
		return err
	}
	if *out != "" {
		dst := res.p
		if sf.store != "" {
			if dst, err = openLocal(*out); err != nil {
				return err
			}
		}
		if err := dst.WriteReport(ctx, "", res.report); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "report: %s\nsummary: %s\n", filepath.Join(*out, "report.md"), filepath.Join(*out, "summary.json"))
	}
	if res.report.Verdict == nil {
		// No run of either side could be read: say so in the format
		// asked for, as the bucket's report does, and fail.
		if err := report.CompareNoRuns(e.stdout, res.report.Experiment, oldName, newName, *format, res.report.Meta); err != nil {
			return err
		}
		if res.rejected == 0 {
			return fmt.Errorf("compare: %s", report.NoRunsHeadline)
		}
		return errReported // each input said why on stderr
	}
	if err := report.Compare(e.stdout, res.report.Verdict, *format); err != nil {
		return err
	}
	return gateResult(e, res.report.Verdict, res.rejected, gate.junit)
}

// sideNames names the systems of OLD and NEW after their base names, or
// "old" and "new" when those are equal.
func sideNames(oldArg, newArg string) (string, string) {
	a, b := inputName(oldArg), inputName(newArg)
	if a == b || a == "" || b == "" {
		return "old", "new"
	}
	return a, b
}

// compareLocal analyses local OLD and NEW as two systems of one
// experiment, in dir (a temporary folder, removed, when dir is "").
func compareLocal(ctx context.Context, e *env, dir string, in *inputFlags,
	oldArg, newArg, oldName, newName string, m *pipeline.Manifest, g *gateFlags, figures plots.Format) (*localResult, error) {
	pl := &inputPlan{}
	oldFiles, err := pl.systemFiles(oldArg, "OLD "+oldArg)
	if err != nil {
		return nil, err
	}
	newFiles, err := pl.systemFiles(newArg, "NEW "+newArg)
	if err != nil {
		return nil, err
	}
	for _, f := range newFiles {
		if slices.Contains(oldFiles, f) {
			return nil, usagef("compare: %s is in both OLD and NEW", f)
		}
	}
	pl.rules = append(pl.rules,
		pipeline.SystemRule{Name: oldName, Sources: sourceNames(oldFiles), Flag: "OLD " + oldArg},
		pipeline.SystemRule{Name: newName, Sources: sourceNames(newFiles), Flag: "NEW " + newArg})
	if in.experiment == "" {
		in.experiment = store.SanitizeName(oldName + "-vs-" + newName)
	}
	exp, err := in.experimentFor("")
	if err != nil {
		return nil, err
	}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "loadverdict-compare-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	req := pipeline.Request{Experiment: exp, Manifest: m, Overrides: pipeline.Overrides{Systems: pl.rules, Baseline: oldName}, Figures: figures}
	g.apply(&req.Overrides)
	return analyzeLocal(ctx, e, dir, pl.files, req, in.window.Seconds())
}

// compareStore analyses experiments OLD and NEW of a store as two
// systems; nothing is written to the store.
func compareStore(ctx context.Context, sf *storeFlags, in *inputFlags, oldExp, newExp string, m *pipeline.Manifest, g *gateFlags, figures plots.Format) (*localResult, error) {
	for _, x := range []string{oldExp, newExp} {
		if err := store.CheckExperiment(x); err != nil {
			return nil, usagef("compare: %v", err)
		}
	}
	if oldExp == newExp {
		return nil, usagef("compare: OLD and NEW are the same experiment %s", oldExp)
	}
	if in.experiment == "" {
		in.experiment = store.SanitizeName(oldExp + "-vs-" + newExp)
	}
	exp, err := in.experimentFor("")
	if err != nil {
		return nil, err
	}
	p, err := sf.pipeline(ctx)
	if err != nil {
		return nil, err
	}
	req := pipeline.Request{Experiment: exp, From: []string{oldExp, newExp}, Manifest: m, Overrides: pipeline.Overrides{
		Systems: []pipeline.SystemRule{
			{Name: oldExp, Experiments: []string{oldExp}, Flag: "OLD " + oldExp},
			{Name: newExp, Experiments: []string{newExp}, Flag: "NEW " + newExp}},
		Baseline: oldExp,
	}, Figures: figures}
	g.apply(&req.Overrides)
	rep, err := p.Report(ctx, req)
	if err != nil {
		return nil, err
	}
	return &localResult{p: p, report: rep}, nil
}
