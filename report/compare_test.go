package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

func thresholds(t *testing.T, exprs ...string) []gate.Threshold {
	t.Helper()
	var out []gate.Threshold
	for _, e := range exprs {
		th, err := gate.ParseThreshold(e)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, th)
	}
	return out
}

func analyzeOpts(t *testing.T, runs []results.Run, set func(*analyze.Options)) *analyze.Verdict {
	t.Helper()
	o := analyze.DefaultOptions()
	if set != nil {
		set(&o)
	}
	v, err := analyze.Analyze(analyze.Set{Experiment: "t", Runs: runs}, o)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// pairs interleaves n runs of old:80 and new:80 at each of conns.
func pairs(n int, conns []int32, old, new func(i int, c int32) results.Run) []results.Run {
	var runs []results.Run
	seq := 0
	for _, c := range conns {
		for i := range n {
			o, w := old(i, c), new(i, c)
			o.Seq, w.Seq = int32(seq), int32(seq+1)
			o.RunID, w.RunID = results.RunID("t", seq), results.RunID("t", seq+1)
			runs = append(runs, o, w)
			seq += 2
		}
	}
	return runs
}

func withP99(r results.Run, p99 float64) results.Run { r.LatP99Ms = results.Ptr(p99); return r }

func TestHeadlineLeads(t *testing.T) {
	baseline := func(o *analyze.Options) { o.Baseline = "old:80" }
	slower := pairs(5, []int32{100}, func(i int, c int32) results.Run { return wrkRun("old:80", 0, c, 1000+float64(i), 100) },
		func(i int, c int32) results.Run { return wrkRun("new:80", 0, c, 900+float64(i), 111) })
	// new has 10 % more throughput but a worse p99.
	disagree := pairs(5, []int32{100}, func(i int, c int32) results.Run {
		return withP99(wrkRun("old:80", 0, c, 1000+float64(i), 100), 100+float64(i))
	}, func(i int, c int32) results.Run {
		return withP99(wrkRun("new:80", 0, c, 1100+float64(i), 91), 150+float64(i))
	})
	// Same throughput, new's p99 worse.
	sameRPS := pairs(5, []int32{100}, func(i int, c int32) results.Run {
		return withP99(wrkRun("old:80", 0, c, 1000+float64(i%2), 100), 100+float64(i))
	}, func(i int, c int32) results.Run {
		return withP99(wrkRun("new:80", 0, c, 1000+float64((i+1)%2), 100), 150+float64(i))
	})
	errs := pairs(5, []int32{100}, func(i int, c int32) results.Run { return wrkRun("old:80", 0, c, 1000+float64(i), 100) },
		func(i int, c int32) results.Run {
			r := wrkRun("new:80", 0, c, 900+float64(i), 111)
			r.Errors = r.Requests / 20
			return r
		})
	// An open model at one rate: both sides held it, new's mean latency
	// 10 % worse; the lead is the latency, not the rate asked for.
	vegetaRun := func(label string, lat float64) results.Run {
		return results.Run{Experiment: "t", Source: "test", Tool: "vegeta", LoadModel: results.LoadOpen, Label: label,
			Target: "http://" + label + "/x", TargetRPS: results.Ptr(200.0), DurationS: 10, PlannedDurationS: results.Ptr(10.0),
			Requests: 2000, RPS: 200, LatMeanMs: results.Ptr(lat), LatMaxMs: results.Ptr(3 * lat)}
	}
	openSlower := pairs(5, []int32{0}, func(i int, _ int32) results.Run { return vegetaRun("old:80", 4+0.01*float64(i)) },
		func(i int, _ int32) results.Run { return vegetaRun("new:80", 4.4+0.01*float64(i)) })
	over := results.Run{RunID: "o", Tool: "vegeta", LoadModel: results.LoadOpen, Label: "v:80", TargetRPS: results.Ptr(2000.0),
		DurationS: 20, RPS: 24.76, Requests: 39999, Errors: 39479, LatMeanMs: results.Ptr(995.0)}
	for _, tc := range []struct {
		name string
		runs []results.Run
		set  func(*analyze.Options)
		want string
	}{
		{"baseline: the other side is the subject", slower, baseline,
			"new:80 is slower than old:80 (the baseline) at 100 connections, 4 threads, 60 s, wrk: 0.9x the throughput (5 vs 5 runs, 95 % CI 0.897-0.903, p = 0.00794)."},
		{"baseline, not established", slower[:4], baseline,
			"Not established that new:80 is slower than old:80 (the baseline): it had 0.9x the throughput at 100 connections, 4 threads, 60 s, wrk, but with only 2 runs per system (smallest possible p 2/C(4,2) = 0.333) the difference is not shown to be real; 4 steady runs per system would settle it."},
		{"baseline, 3 runs a side: Welch's t-test", slower[:6], baseline,
			"new:80 is slower than old:80 (the baseline) at 100 connections, 4 threads, 60 s, wrk: 0.9x the throughput (3 vs 3 runs, Welch's t-test, 95 % CI 0.898-0.902, p = 3.18e-08)."},
		{"baseline, new not steady: all its runs compared, and said", pairs(5, []int32{100},
			func(i int, c int32) results.Run { return wrkRun("old:80", 0, c, 1000+float64(i%2), 100) },
			func(i int, c int32) results.Run { return wrkRun("new:80", 0, c, 900-30*float64(i), 111+4*float64(i)) }), baseline,
			"new:80 is slower than old:80 (the baseline) at 100 connections, 4 threads, 60 s, wrk: 0.84x the throughput (5 vs 5 runs, all of new:80's runs: not steady, 95 % CI 0.780-0.900, p = 0.00794)."},
		{"no baseline: the faster side is", slower, nil,
			"old:80 is faster than new:80 at 100 connections, 4 threads, 60 s, wrk: 1.11x the throughput (5 vs 5 runs, 95 % CI 1.107-1.114, p = 0.00794)."},
		{"latency disagrees", disagree, baseline,
			"new:80 is faster than old:80 (the baseline) by throughput at 100 connections, 4 threads, 60 s, wrk: 1.1x (5 vs 5 runs, 95 % CI 1.097-1.103, p = 0.00794), but slower by p99 latency: 1.49x old:80's (95 % CI 1.46-1.52, p = 0.00794)."},
		{"latency disagrees, no baseline", disagree, nil,
			"new:80 is faster than old:80 by throughput at 100 connections, 4 threads, 60 s, wrk: 1.1x (5 vs 5 runs, 95 % CI 1.097-1.103, p = 0.00794), but slower by p99 latency: 1.49x old:80's (95 % CI 1.46-1.52, p = 0.00794)."},
		{"same throughput, worse p99", sameRPS, nil,
			"No difference between old:80 and new:80 at 100 connections, 4 threads, 60 s, wrk: throughput ratio 1, 95 % CI 0.999-1.001, inside the ±2 % practical band (5 vs 5 runs, p = 1), but new:80 is slower by p99 latency: 1.49x old:80's (95 % CI 1.46-1.52, p = 0.00794)."},
		{"errors lead", errs, baseline,
			"new:80 failed 5 % of its requests at 100 connections, 4 threads, 60 s, wrk (5 runs). new:80 is slower than old:80 (the baseline) at 100 connections, 4 threads, 60 s, wrk: 0.9x the throughput (5 vs 5 runs, 95 % CI 0.897-0.903, p = 0.00794)."},
		{"open model: latency leads", openSlower, baseline,
			"new:80 is slower than old:80 (the baseline) at 200 req/s, 10 s, vegeta: 1.1x the mean latency (5 vs 5 runs, 95 % CI 1.09-1.11, p = 0.00794)."},
		{"errors, then overload", []results.Run{over}, nil,
			"v:80 failed 98.7 % of its requests at 2000 req/s, vegeta (1 run). v:80 is overloaded: at a requested 2000 req/s it achieved 24.76 successful responses per second (1.24 %). v:80 at 2000 req/s, vegeta (1 run): 24.76 req/s, 98.7 % errors; one run without per-request data, so warm-up cannot be told."},
	} {
		if got := report.Headline(analyzeOpts(t, tc.runs, tc.set)); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// compare's table: a row per metric and setting, `~` where no difference
// can be claimed, each reason once as a numbered footnote.
func TestCompareTable(t *testing.T) {
	// Two settings; at 10 connections the sides are the same (not
	// significant), at 100 new is 10 % slower.
	runs := pairs(5, []int32{10, 100}, func(i int, c int32) results.Run {
		return wrkRun("old:80", 0, c, float64(c)*10+float64(i), 100)
	}, func(i int, c int32) results.Run {
		if c == 10 {
			return wrkRun("new:80", 0, c, float64(c)*10+float64((i+2)%5), 100)
		}
		return wrkRun("new:80", 0, c, float64(c)*9+float64(i), 111)
	})
	v := analyzeOpts(t, runs, func(o *analyze.Options) {
		o.Baseline, o.FailOn, o.SLO = "old:80", []gate.Condition{gate.Regression}, thresholds(t, "rps{connections=100}>=950")
	})
	var out bytes.Buffer
	if err := report.Compare(&out, v, "text"); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		"new:80 vs old:80 (the baseline) at 10 connections, 4 threads, 60 s, wrk\n",
		"new:80 vs old:80 (the baseline) at 100 connections, 4 threads, 60 s, wrk\n",
		"(1) runs vary too much: the 95 % CI reaches across the edge of the ±2 % practical band; about 9 runs per side would settle it\n",
		"  ✗ rps{connections=100}>=950  new:80  902 req/s",
		"gate: failed (fails on regression, threshold, marginal, inconclusive, unknown, no-comparison, errors):\n  - regression: throughput of new:80 is 9.98 % worse than old:80 at 100 connections",
		"  - threshold failed: rps{connections=100}>=950 (new:80), above\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	if n := strings.Count(s, "runs vary too much"); n != 1 {
		t.Errorf("the unsettled footnote appears %d times:\n%s", n, s)
	}
	var rps []string
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "req/s ") {
			rps = append(rps, strings.Join(strings.Fields(line), " "))
		}
	}
	// 1000-1004 against 900-904 req/s: -9.98 %, fully separated (p = 2/252).
	want := []string{"req/s 102 102 ~ -2.88 to +2.97 % 1 5/5 (1)", "req/s 1002 902 -9.98 % worse -10.3 to -9.7 % 0.00794 5/5"}
	if fmt.Sprint(rps) != fmt.Sprint(want) {
		t.Errorf("throughput rows\n%q, want\n%q", rps, want)
	}
	// JSON: the comparisons, thresholds and gate as in summary.json.
	out.Reset()
	if err := report.Compare(&out, v, "json"); err != nil {
		t.Fatal(err)
	}
	var doc report.CompareDoc
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	sum := report.NewSummary(v, "")
	if doc.Old != "old:80" || doc.New != "new:80" || doc.Headline != sum.Headline || len(doc.Comparisons) != len(sum.Comparisons) ||
		len(doc.Thresholds) != 2 || doc.Thresholds[1].Status != "fail" || !doc.Gate.Failed || doc.Gate.Reasons[0].Condition != "regression" {
		t.Errorf("json %+v", doc)
	}
	if err := report.Compare(&out, v, "xml"); err == nil {
		t.Error("an unknown format is accepted")
	}
}

// summary.md stays within SummaryMDLines (32) lines however many settings and thresholds
// there are, says where the full report is (no link), and never shows a
// table header without rows.
func TestSummaryMarkdownFits(t *testing.T) {
	conns := []int32{1, 2, 4, 8, 16, 32, 64, 128, 256, 512}
	runs := pairs(4, conns, func(i int, c int32) results.Run {
		return withP99(wrkRun("old:80", 0, c, float64(c)*10+float64(i), 100), 200)
	}, func(i int, c int32) results.Run {
		return withP99(wrkRun("new:80", 0, c, float64(c)*9+float64(i), 111), 300)
	})
	for _, n := range []int{0, 1, 3, 12} {
		var exprs []string
		for i := range n {
			exprs = append(exprs, fmt.Sprintf("lat_mean_ms{connections=%d}<105", conns[i%len(conns)]))
		}
		v := analyzeOpts(t, runs, func(o *analyze.Options) {
			o.Baseline, o.SLO, o.FailOn = "old:80", thresholds(t, exprs...), []gate.Condition{gate.Regression}
		})
		var out bytes.Buffer
		if err := report.SummaryMarkdown(&out, v, "report.md"); err != nil {
			t.Fatal(err)
		}
		s := out.String()
		lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
		if len(lines) > report.SummaryMDLines {
			t.Errorf("%d thresholds: %d lines:\n%s", n, len(lines), s)
		}
		for _, want := range []string{"**Verdict:** ", "**Gate: failed**", "| req/s", "in the full report |", "**Findings** (",
			"`report.md` beside this file"} {
			if !strings.Contains(s, want) {
				t.Errorf("%d thresholds: no %q in\n%s", n, want, s)
			}
		}
		// No link a pull request's comment cannot resolve; no table
		// that is a header and "… more" without a row.
		if strings.Contains(s, "](report.md)") || strings.Contains(s, "|---|\n| … ") {
			t.Errorf("%d thresholds: a dangling link or an empty table:\n%s", n, s)
		}
		if n > 0 && !strings.Contains(s, "| threshold |") && !strings.Contains(s, "\nThresholds: ") {
			t.Errorf("%d thresholds: none shown:\n%s", n, s)
		}
	}
}

// Compare prints what `loadverdict compare` shows: the headline, a table
// per setting with the reasons as footnotes, the thresholds and the gate.
func ExampleCompare() {
	var runs []results.Run
	for i := range 8 {
		label, rps := "old:80", 1000.0+float64(i)
		if i%2 == 1 {
			label, rps = "new:80", 900.0+float64(i)
		}
		runs = append(runs, wrkRun(label, i, 64, rps, 64000/rps))
	}
	opts := analyze.DefaultOptions()
	opts.Baseline, opts.FailOn = "old:80", []gate.Condition{gate.Regression}
	opts.MaxRegressionPct = 5
	th, _ := gate.ParseThreshold("rps>=950")
	opts.SLO = []gate.Threshold{th}
	v, err := analyze.Analyze(analyze.Set{Experiment: "bench", Runs: runs}, opts)
	if err != nil {
		panic(err)
	}
	if err := report.Compare(os.Stdout, v, "text"); err != nil {
		panic(err)
	}
	// Output:
	// new:80 is slower than old:80 (the baseline) at 64 connections, 4 threads, 60 s, wrk: 0.901x the throughput (4 vs 4 runs, 95 % CI 0.896-0.907, p = 0.0286).
	//
	// new:80 vs old:80 (the baseline) at 64 connections, 4 threads, 60 s, wrk
	//               old:80    new:80    delta          95 % CI           p       runs
	// req/s         1003      904       -9.87 % worse  -10.4 to -9.3 %   0.0286  4/4
	// mean latency  63.81 ms  70.8 ms   +11 % worse    +10.3 to +11.7 %  0.0286  4/4
	// max latency   191.4 ms  212.4 ms  +11 % worse    +10.3 to +11.7 %  0.0286  4/4   (1)
	// error rate    0 %       0 %       ~              +0 to +0 pts      1       4/4
	//
	// (1) note: closed-model tails are lower bounds (coordinated omission)
	// values: mean of runs (req/s, mean latency, error rate); median of runs (max latency)
	//
	// thresholds
	//   ✓ rps>=950  old:80  1003 req/s (mean of 4 steady runs), 95 % CI 1001-1005 req/s
	//   ✗ rps>=950  new:80  904 req/s (mean of 4 steady runs), 95 % CI 902.0-906.0 req/s
	//
	// gate: failed (fails on regression, threshold, marginal, inconclusive, unknown, no-comparison, errors):
	//   - regression: throughput of new:80 is 9.87 % worse than old:80 at 64 connections, 4 threads, 60 s, wrk, beyond the allowed 5 %
	//   - threshold failed: rps>=950 (new:80), above
}
