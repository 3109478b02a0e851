package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/loadverdict/loadverdict/results"
)

// Runs writes what `loadverdict parse` prints of runs: an aligned table
// (none without runs: the errors say why), or with asJSON JSON Lines, one
// object per run with the columns of the runs table and its
// "percentiles" (an empty list for none).
func Runs(w io.Writer, runs []results.RunWithPercentiles, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, r := range runs {
			if r.Percentiles == nil {
				r.Percentiles = []results.Percentile{}
			}
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	if len(runs) == 0 {
		return nil
	}
	return runTable(w, runs)
}

// runTable prints the runs as an aligned, human-readable table,
// with an endpoint column when a run has one.
func runTable(w io.Writer, runs []results.RunWithPercentiles) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
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
			r.Tool, r.LoadModel, optI(r.Threads), optI(r.Connections),
			toolNum(r.DurationS), r.Requests, r.Errors, toolNum(r.RPS),
			optNum(r.LatMeanMs), optNum(r.LatP99Ms), optNum(r.LatMaxMs), r.Source, r.SourceLine)
	}
	return tw.Flush()
}

// toolNum formats a figure of the table as the load generators print theirs:
// two decimals from 100 up (wrk's "Requests/sec: 748868.53"), five
// significant digits below (0.63591 ms for wrk's "635.91us"), no trailing
// zeros. Computed figures (a rate from a per-request log) are rounded
// alike; --json keeps every digit.
func toolNum(v float64) string {
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

func optNum(v *float64) string {
	if v == nil {
		return "-"
	}
	return toolNum(*v)
}
