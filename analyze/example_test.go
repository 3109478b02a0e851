package analyze_test

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

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
	for _, c := range v.Comparisons {
		fmt.Printf("%s: %s/%s = %.3f, %s, p = %.5f\n", c.Metric, c.A, c.B, c.Ratio, c.Verdict, *c.PValue)
	}
	fmt.Println("headline leads with:", v.Headline.Lead, v.Comparisons[v.Headline.Comparison].Metric)
	for _, f := range v.Findings {
		fmt.Println(f.Severity, f.Code)
	}
	// Output:
	// rps: old:80/new:80 = 0.667, b-faster, p = 0.00794
	// lat_mean_ms: old:80/new:80 = 1.499, b-faster, p = 0.00794
	// headline leads with: comparison rps
	// warning coordinated-omission
}
