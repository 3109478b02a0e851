package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/local"
	"github.com/loadverdict/loadverdict/results"
)

func runParse(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "parse", "[--json] [--label host:port=name]... FILE...",
		"Parse load-generator output (detected by content) and print one row per run.\n"+
			"With --json, print JSON Lines: one object per run with the columns of the runs\n"+
			"table (SCHEMA.md) and its \"percentiles\". FILE \"-\" reads standard input.")
	asJSON := fs.Bool("json", false, "print JSON Lines (one object per run) instead of a table")
	labels := labelFlag{}
	fs.Var(labels, "label", "show a target under a name: `host:port=name`, or a file name for logs without a target (repeatable)")
	r := addInputFlags(fs, e)
	in, exp, err := parseInputs(fs, r, args, &local.Files{})
	if err != nil {
		return err
	}
	runs, failed := r.Parse(ctx, in, ingest.Options{Experiment: exp, Labels: labels, WindowS: r.Window.Seconds()})
	if err := ctx.Err(); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		for _, r := range runs {
			if r.Percentiles == nil {
				r.Percentiles = []results.Percentile{}
			}
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	} else if len(runs) == 0 {
		// No table header without rows: the errors on stderr say why.
	} else if err := printRunTable(e, runs); err != nil {
		return err
	}
	if failed {
		return errReported
	}
	return nil
}

// printRunTable prints the runs as an aligned, human-readable table,
// with an endpoint column when a run has one.
func printRunTable(e *env, runs []results.RunWithPercentiles) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	endpoints := slices.ContainsFunc(runs, func(r results.RunWithPercentiles) bool { return r.Endpoint != nil })
	head := "seq\tlabel\t"
	if endpoints {
		head += "endpoint\t"
	}
	fmt.Fprintln(tw, head+"tool\tmodel\tthreads\tconns\tduration_s\trequests\terrors\trps\tmean_ms\tp99_ms\tmax_ms\tsource:line\t")
	for _, r := range runs {
		fmt.Fprintf(tw, "%d\t%s\t", r.Seq, r.Label)
		if endpoints {
			ep := "-"
			if r.Endpoint != nil {
				ep = *r.Endpoint
			}
			fmt.Fprintf(tw, "%s\t", ep)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s:%d\t\n",
			r.Tool, r.LoadModel, optInt(r.Threads), optInt(r.Connections),
			num(r.DurationS), r.Requests, r.Errors, num(r.RPS),
			opt(r.LatMeanMs), opt(r.LatP99Ms), opt(r.LatMaxMs), r.Source, r.SourceLine)
	}
	return tw.Flush()
}

// num formats a figure of the table as the load generators print theirs:
// two decimals from 100 up (wrk's "Requests/sec: 748868.53"), five
// significant digits below (0.63591 ms for wrk's "635.91us"), no trailing
// zeros. Computed figures (a rate from a per-request log) are rounded
// alike; --json keeps every digit.
func num(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', -1, 64)
	case a >= 100:
		return trimZeros(strconv.FormatFloat(v, 'f', 2, 64))
	case a == 0:
		return "0"
	default: // 5 significant digits, in plain decimals
		return trimZeros(strconv.FormatFloat(v, 'f', max(0, 4-int(math.Floor(math.Log10(a)))), 64))
	}
}

// trimZeros drops the trailing zeros of a decimal and a trailing point.
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

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
