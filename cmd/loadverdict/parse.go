package main

import (
	"context"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/local"
	"github.com/loadverdict/loadverdict/report"
)

func runParse(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "parse", "[--json] [--label host:port=name]... FILE...",
		"Parse load-generator output (detected by content) and print one row per run.\n"+
			"With --json, print JSON Lines: one object per run with the columns of the runs\n"+
			"table (SCHEMA.md) and its \"percentiles\". FILE \"-\" reads standard input.")
	asJSON := fs.Bool("json", false, "print JSON Lines (one object per run) instead of a table")
	labels := experiment.Labels{}
	fs.Var(&labels, "label", "show a target under a name: `host:port=name`, or a file name for logs without a target (repeatable)")
	r := addInputFlags(fs, e)
	in, exp, err := parseInputs(fs, r, args, &local.Files{})
	if err != nil {
		return err
	}
	runs, failed := r.Parse(ctx, in, ingest.Options{Experiment: exp, Labels: labels, WindowS: r.Window.Seconds()})
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := report.Runs(e.stdout, runs, *asJSON); err != nil {
		return err
	}
	if failed {
		return errReported
	}
	return nil
}
