package analyze_test

import (
	"math"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// A single run's numbers are its own figures, labelled one-run; p95 comes
// from its percentiles table.
func TestNumbersOneRun(t *testing.T) {
	r := run("a:80", 0, 10, 1000, 10)
	r.LatMinMs, r.LatP50Ms, r.LatP90Ms, r.LatP99Ms = results.Ptr(2.0), results.Ptr(9.0), results.Ptr(14.0), results.Ptr(25.0)
	r.Errors = 600
	pcts := []results.Percentile{{RunID: r.RunID, Quantile: 0.95, LatencyMs: 19}}
	v, err := analyze.Analyze(analyze.Set{Experiment: "t", Runs: []results.Run{r}, Percentiles: pcts}, analyze.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	n := v.Systems[0].Groups[0].Numbers
	if n.Basis != analyze.NumbersOneRun || n.Runs != 1 || n.Requests != 60000 || n.Errors != 600 || n.DurationS != 60 {
		t.Fatalf("numbers %+v", n)
	}
	for name, c := range map[string]struct {
		f    *analyze.Figure
		want float64
	}{"rps": {&n.RPS, 1000}, "error rate": {n.ErrorRate, 0.01}, "min": {n.LatMinMs, 2}, "mean": {n.LatMeanMs, 10},
		"p50": {n.LatP50Ms, 9}, "p90": {n.LatP90Ms, 14}, "p95": {n.LatP95Ms, 19}, "p99": {n.LatP99Ms, 25}, "max": {n.LatMaxMs, 30}} {
		if c.f == nil || math.Abs(c.f.Value-c.want) > 1e-9 || c.f.Aggregate != analyze.AggregateOneRun {
			t.Errorf("%s: %+v, want %v over one run", name, c.f, c.want)
		}
	}
	if n.SentRPS != nil || n.SuccessRPS != nil {
		t.Errorf("a closed-model run has sent %v, successful %v", n.SentRPS, n.SuccessRPS)
	}
	if len(v.RunNumbers) != 1 || v.RunNumbers[0].LatP95Ms == nil || v.RunNumbers[0].LatP95Ms.Value != 19 {
		t.Errorf("run numbers %+v", v.RunNumbers)
	}
}

// A group's numbers are over its steady runs, each figure aggregated as
// the comparisons aggregate that metric (mean of throughputs, median of
// percentiles and maxima); a figure one run lacks is left out, not
// guessed from the others.
func TestNumbersSteadyRuns(t *testing.T) {
	var runs []results.Run
	p99 := []float64{20, 21, 90, 22, 23}
	for i := range 10 { // a and b alternate, 5 flat runs each
		label := "a:80"
		if i%2 == 1 {
			label = "b:80"
		}
		r := run(label, i, 10, 1000+float64(i), 10)
		r.LatP99Ms, r.LatMaxMs = results.Ptr(p99[i/2]), results.Ptr(200.0)
		if label == "b:80" && i == 5 {
			r.LatP99Ms = nil
		}
		runs = append(runs, r)
	}
	v := mustAnalyze(t, runs, nil)
	a := v.Systems[0].Groups[0]
	n := a.Numbers
	if n.Basis != analyze.NumbersSteadyRuns || n.Runs != len(a.Runs) || n.Runs != 5 || n.Requests != 5*60000+60*(0+2+4+6+8) {
		t.Fatalf("numbers %+v over %d runs", n, len(a.Runs))
	}
	if n.RPS.Aggregate != analyze.AggregateOf(analyze.MetricRPS) || math.Abs(n.RPS.Value-1004) > 1e-9 {
		t.Errorf("rps %+v, want the mean 1004", n.RPS)
	}
	if n.LatP99Ms == nil || n.LatP99Ms.Value != 22 || n.LatP99Ms.Aggregate != analyze.AggregateMedian {
		t.Errorf("p99 %+v, want the median 22 (one stalled run's 90 does not move it)", n.LatP99Ms)
	}
	// the comparison's figure for the metric is the same aggregate
	for _, c := range v.Comparisons {
		if c.Metric == analyze.MetricLatP99Ms && c.Aggregate != n.LatP99Ms.Aggregate {
			t.Errorf("comparison aggregates p99 by %s, numbers by %s", c.Aggregate, n.LatP99Ms.Aggregate)
		}
	}
	if b := v.Systems[1].Groups[0].Numbers; b.LatP99Ms != nil {
		t.Errorf("b's p99 %+v: one of its runs has none", b.LatP99Ms)
	}
}

// An open-model run gives its sending and success rates, and a group
// without a steady state its last run's figures.
func TestNumbersOpenAndLastRun(t *testing.T) {
	var runs []results.Run
	for i, rps := range []float64{100, 200, 300} { // still climbing: no steady state
		r := openRun("v:80", i, 500, false)
		r.RPS, r.SuccessRPS, r.SentRPS = rps, results.Ptr(rps), results.Ptr(500.0)
		runs = append(runs, r)
	}
	v := mustAnalyze(t, runs, nil)
	g := v.Systems[0].Groups[0]
	n := g.Numbers
	if _, steady := g.RepRuns(); steady {
		t.Fatalf("the climbing runs were found steady: %+v", g.Warmup)
	}
	if n.Basis != analyze.NumbersLastRun || n.Runs != 1 || n.RPS.Value != 300 || n.RPS.Aggregate != analyze.AggregateOneRun {
		t.Errorf("numbers %+v, want the last run's", n)
	}
	if n.SentRPS == nil || n.SentRPS.Value != 500 || n.SuccessRPS == nil || n.SuccessRPS.Value != 300 {
		t.Errorf("sent %+v, successful %+v", n.SentRPS, n.SuccessRPS)
	}
}
