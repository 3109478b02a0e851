package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/loadverdict/loadverdict/results"
)

func runParse(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "parse", "[--json] [--label host:port=name]... FILE...",
		"Parse load-generator output (detected by content) and print one row per run.\n"+
			"With --json, print JSON Lines: one object per run with the columns of the runs\n"+
			"table (SCHEMA.md) and its \"percentiles\". FILE \"-\" reads standard input.")
	asJSON := fs.Bool("json", false, "print JSON Lines (one object per run) instead of a table")
	in := addInputFlags(fs)
	files, opts, err := in.parse(fs, args)
	if err != nil {
		return err
	}
	sources, _, loadErr := loadSources(ctx, files, opts, "", e)
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		for _, s := range sources {
			for i := range s.runs {
				r := s.runs[i]
				if r.Percentiles == nil {
					r.Percentiles = []results.Percentile{}
				}
				if err := enc.Encode(r); err != nil {
					return err
				}
			}
		}
		return loadErr
	}
	if err := printRunTable(e, sources); err != nil {
		return err
	}
	return loadErr
}

// printRunTable prints the runs as an aligned, human-readable table.
func printRunTable(e *env, sources []source) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "seq\tlabel\ttool\tmodel\tthreads\tconns\tduration_s\trequests\terrors\trps\tmean_ms\tp99_ms\tmax_ms\tsource:line\t")
	for _, s := range sources {
		for _, r := range s.runs {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s:%d\t\n",
				r.Seq, r.Label, r.Tool, r.LoadModel, optInt(r.Threads), optInt(r.Connections),
				num(r.DurationS), r.Requests, r.Errors, num(r.RPS),
				opt(r.LatMeanMs), opt(r.LatP99Ms), opt(r.LatMaxMs), r.Source, r.SourceLine)
		}
	}
	return tw.Flush()
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func opt(v *float64) string {
	if v == nil {
		return "-"
	}
	return num(*v)
}

func optInt(v *int32) string {
	if v == nil {
		return "-"
	}
	return strconv.Itoa(int(*v))
}
