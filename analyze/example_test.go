package analyze_test

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

func ExampleMannWhitney() {
	a := []float64{1, 2, 3, 4, 5}
	b := []float64{6, 7, 8, 9, 10}
	u, p, err := analyze.MannWhitney(a, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("U = %v, p = %.5f (2/252)\n", u, p)
	// Output:
	// U = 0, p = 0.00794 (2/252)
}

func ExamplePELT() {
	// Forty windows of latency (ms) around 12, then forty around 10: a
	// warm-up of 40 windows.
	wiggle := []float64{-0.2, 0.1, 0.3, -0.1, 0, 0.2, -0.3, 0.1, -0.1, 0}
	x := make([]float64, 80)
	for i := range x {
		level := 10.0
		if i < 40 {
			level = 12
		}
		x[i] = level + wiggle[i%len(wiggle)]
	}
	changepoints, segments, err := analyze.PELT(x, 0, 0) // 15 ln(n), min. length 2
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("changepoints:", changepoints)
	for _, s := range segments {
		fmt.Printf("[%d, %d): mean %.2f, sd %.2f\n", s.Start, s.End, s.Mean, s.SD)
	}
	c, _ := analyze.Classify(segments, false, 0) // latency: lower is better
	fmt.Println(c.Class, "from", c.SteadyStart)
	// Output:
	// changepoints: [40]
	// [0, 40): mean 12.00, sd 0.18
	// [40, 80): mean 10.00, sd 0.18
	// warmup from 40
}

// Analyze compares two systems run alternately, five times each.
func ExampleAnalyze() {
	var runs []results.Run
	for i := range 10 {
		label, rps := "old:80", 1000.0+float64(i)
		if i%2 == 1 {
			label, rps = "new:80", 1500.0+float64(i)
		}
		conns := int32(64)
		runs = append(runs, results.Run{RunID: results.RunID("bench.txt", i), Seq: int32(i), Tool: "wrk",
			LoadModel: results.LoadClosed, Label: label, Target: "http://" + label + "/", DurationS: 60,
			Connections: &conns, RPS: rps, Requests: int64(60 * rps), LatMeanMs: results.Ptr(64000 / rps)})
	}
	v, err := analyze.Analyze(analyze.Set{Experiment: "bench", Runs: runs}, analyze.DefaultOptions())
	if err != nil {
		panic(err)
	}
	fmt.Println(v.Headline)
	for _, c := range v.Comparisons {
		fmt.Printf("%s: %s/%s = %.3f, %s\n", c.Metric, c.A, c.B, c.Ratio, c.Verdict)
	}
	// Output:
	// new:80 is faster than old:80 at 64 connections, wrk: 1.50x the throughput (5 vs 5 runs, 95 % CI 1.49-1.50, p = 0.00794).
	// rps: old:80/new:80 = 0.667, b-faster
	// lat_mean_ms: old:80/new:80 = 1.499, b-faster
}
