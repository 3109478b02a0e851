package report_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// wrkRun makes a closed-model wrk run of label at conns connections.
func wrkRun(label string, seq int, conns int32, rps, latMs float64) results.Run {
	return results.Run{
		RunID: results.RunID("test", seq), Experiment: "t", Source: "test", Index: int32(seq), Seq: int32(seq),
		Tool: "wrk", LoadModel: results.LoadClosed, Label: label, Target: "http://" + label + "/x",
		DurationS: 60, PlannedDurationS: results.Ptr(60.0), Threads: results.Ptr(int32(4)), Connections: &conns,
		Requests: int64(rps * 60), RPS: rps, LatMeanMs: results.Ptr(latMs), LatMaxMs: results.Ptr(3 * latMs),
	}
}

func TestHeadline(t *testing.T) {
	interleave := func(n int, a, b func(i int) float64) []results.Run {
		var runs []results.Run
		for i := range n {
			runs = append(runs, wrkRun("a:80", 2*i, 100, a(i), 10), wrkRun("b:80", 2*i+1, 100, b(i), 10))
		}
		return runs
	}
	aRPS := []float64{1000, 1012, 995, 1008, 1003}
	bRPS := []float64{4100, 4050, 4120, 4080, 4095}
	// Equal systems: the p-value the headline must show (3 significant
	// digits) is the exact Mann-Whitney p of the runs.
	rng := rand.New(rand.NewPCG(3, 4))
	var na, nb []float64
	for range 8 {
		na, nb = append(na, 1000+5*rng.NormFloat64()), append(nb, 1000+5*rng.NormFloat64())
	}
	_, pSame, _ := stats.MannWhitney(na, nb)
	cases := []struct {
		name string
		runs []results.Run
		want string
	}{
		{"b faster", interleave(5, func(i int) float64 { return aRPS[i] }, func(i int) float64 { return bRPS[i] }),
			"b:80 is faster than a:80 at 100 connections, 4 threads, 60 s, wrk: 4.07x the throughput (5 vs 5 runs, 95 % CI 4.03-4.12, p = 0.00794)."},
		{"a faster", interleave(5, func(i int) float64 { return bRPS[i] }, func(i int) float64 { return aRPS[i] }),
			"a:80 is faster than b:80 at 100 connections, 4 threads, 60 s, wrk: 4.07x the throughput (5 vs 5 runs, 95 % CI 4.03-4.12, p = 0.00794)."},
		{"no difference", interleave(8, func(i int) float64 { return na[i] }, func(i int) float64 { return nb[i] }),
			fmt.Sprintf("No difference between a:80 and b:80 at 100 connections, 4 threads, 60 s, wrk: throughput ratio 0.999, 95 %% CI 0.996-1.004, inside the ±2 %% practical band (8 vs 8 runs, p = %.3g).", pSame)},
		{"not established", []results.Run{wrkRun("a:80", 0, 100, 1000, 10), wrkRun("b:80", 1, 100, 2000, 5), wrkRun("b:80", 2, 100, 3000, 5)},
			"Not established that b:80 is faster than a:80: it had 3x the throughput at 100 connections, 4 threads, 60 s, wrk, but with only 1 and 2 runs (smallest possible p 2/C(3,1) = 0.667) and a single run of a:80 and b:80 not warmed up (still +50 % between its last two runs) the difference is not shown to be real; 4 steady runs per system would settle it."},
		// Significant, its interval on one side of 1 but into the band
		// (the ab family of the conformance grid): the difference is
		// said, and what is not shown is its size.
		{"significant, size unsettled", interleave(8, func(i int) float64 { return 1000 + 6*float64(i%3) }, func(i int) float64 { return 1018 + 9*float64(i%4) - 12 }),
			"Not established that b:80 is faster than a:80 by more than the ±2 % practical band: it had 1.02x the throughput at 100 connections, 4 threads, 60 s, wrk, a difference significant at p = 0.00482 whose 95 % CI (1.003-1.024) reaches into the band; about 80 runs per side would settle it."},
		{"one system", []results.Run{wrkRun("a:80", 0, 100, 1000, 10), wrkRun("a:80", 1, 100, 1010, 10), wrkRun("a:80", 2, 10, 500, 10)},
			"a:80: 3 runs of wrk analysed; at 10 connections: one run without per-request data, so warm-up cannot be told; at 100 connections: flat across runs."},
		// a class is said once, for every settings it holds at
		{"one system, one class", []results.Run{wrkRun("a:80", 0, 10, 1000, 10), wrkRun("a:80", 1, 20, 1010, 10), wrkRun("a:80", 2, 30, 500, 10)},
			"a:80: 3 runs of wrk analysed; at 10 connections, 20 connections and 30 connections: one run without per-request data, so warm-up cannot be told."},
		{"no comparison", []results.Run{wrkRun("a:80", 0, 10, 1000, 10), wrkRun("b:80", 1, 20, 1000, 10)},
			"No comparison possible: a:80 and b:80 never ran at the same settings (tool, connections, threads, rate, duration)."},
	}
	for _, c := range cases {
		v, err := analyze.Analyze(analyze.Set{Experiment: "t", Runs: c.runs}, analyze.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if got := report.Headline(v); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// Headline words what the verdict leads with: here the throughput
// comparison of two systems run alternately, four times each.
func ExampleHeadline() {
	rps := map[string][]float64{"old:80": {1000, 1010, 990, 1005}, "new:80": {1480, 1500, 1510, 1490}}
	var runs []results.Run
	for i := range 8 {
		label := []string{"old:80", "new:80"}[i%2]
		runs = append(runs, wrkRun(label, i, 64, rps[label][i/2], 64000/rps[label][i/2]))
	}
	v, err := analyze.Analyze(analyze.Set{Experiment: "bench", Runs: runs}, analyze.DefaultOptions())
	if err != nil {
		panic(err)
	}
	fmt.Println(report.Headline(v))
	// Output:
	// new:80 is faster than old:80 at 64 connections, 4 threads, 60 s, wrk: 1.49x the throughput (4 vs 4 runs, 95 % CI 1.47-1.53, p = 0.0286).
}
