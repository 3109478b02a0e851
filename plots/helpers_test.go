package plots

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// wrkRun makes a closed-model wrk run, 10 threads, 10 s planned.
func wrkRun(label string, seq int, conns int32, rps, mean, stdev, max float64) results.Run {
	return results.Run{
		RunID: results.RunID("seed", seq), Experiment: "seed", Source: "seed", Index: int32(seq), Seq: int32(seq),
		Tool: "wrk", LoadModel: results.LoadClosed, Label: label, Target: "http://" + label + "/api/test/hello",
		DurationS: 10, PlannedDurationS: results.Ptr(10.0), Threads: results.Ptr(int32(10)), Connections: &conns,
		Requests: int64(rps * 10), RPS: rps, LatMeanMs: results.Ptr(mean), LatStdevMs: results.Ptr(stdev), LatMaxMs: results.Ptr(max),
	}
}

// seedRuns are the six runs of examples/zuul-vs-openresty.txt.
func seedRuns() []results.Run {
	labels := []string{"localhost:5555", "localhost:80", "localhost:5555", "localhost:80", "localhost:80", "localhost:5555"}
	rps := []float64{2095.30, 1604.71, 3107.57, 1619.00, 1617.40, 3737.35}
	conns := []int32{50, 50, 100, 100, 100, 100}
	mean := []float64{33.95, 24.52, 34.50, 41.88, 42.36, 29.35}
	sd := []float64{43.06, 5.87, 23.16, 4.91, 8.17, 22.16}
	max := []float64{599.09, 89.64, 335.87, 69.37, 111.17, 367.66}
	runs := make([]results.Run, len(labels))
	for i := range runs {
		runs[i] = wrkRun(labels[i], i, conns[i], rps[i], mean[i], sd[i], max[i])
	}
	return runs
}

func analyzed(t testing.TB, set analyze.Set) Input {
	t.Helper()
	v, err := analyze.Analyze(set, analyze.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return Input{Verdict: v, Percentiles: set.Percentiles, Series: set.Series}
}

// seedInput is the input of the seed experiment.
func seedInput(t testing.TB) Input {
	return analyzed(t, analyze.Set{Experiment: "zuul-vs-openresty", Runs: seedRuns()})
}

// richInput exercises every figure: two systems at six concurrency levels
// (USL fits), five replicated runs at 64 connections (steady-state CIs),
// percentiles for the replicated runs and a series with a 12 s warm-up.
func richInput(t testing.TB) Input {
	rng := rand.New(rand.NewPCG(1, 2))
	var runs []results.Run
	seq := 0
	add := func(label string, n int32, x, r float64) results.Run {
		x *= 1 + 0.01*rng.NormFloat64()
		run := wrkRun(label, seq, n, x, r, r/3, 8*r)
		run.Experiment, run.Source, run.RunID = "rich", "rich", results.RunID("rich", seq)
		run.DurationS, run.PlannedDurationS = 60, results.Ptr(60.0)
		seq++
		runs = append(runs, run)
		return run
	}
	usl := func(n, lambda, sigma, kappa float64) float64 {
		return lambda * n / (1 + sigma*(n-1) + kappa*n*(n-1))
	}
	type system struct {
		label                string
		lambda, sigma, kappa float64
	}
	systems := []system{{"a:8080", 900, 0.05, 0.0004}, {"b:8080", 700, 0.02, 0.0001}}
	for _, n := range []int32{1, 2, 4, 8, 16, 32} {
		for _, s := range systems {
			x := usl(float64(n), s.lambda, s.sigma, s.kappa)
			add(s.label, n, x, 1000*float64(n)/x)
		}
	}
	var pcts []results.Percentile
	var series []results.Series
	for i := range 5 {
		for _, s := range systems {
			// The first two runs of a:8080 are warming up.
			x := usl(64, s.lambda, s.sigma, s.kappa)
			if s.label == "a:8080" && i < 2 {
				x *= 0.8 + 0.1*float64(i)
			}
			r := add(s.label, 64, x, 64000/x)
			for _, q := range []float64{0, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 1} {
				lat := *r.LatMeanMs * (0.3 + 0.9*math.Log1p(1/(1-math.Min(q, 0.999999))))
				pcts = append(pcts, results.Percentile{RunID: r.RunID, Quantile: q, LatencyMs: lat})
			}
			if i == 4 && s.label == "a:8080" {
				for w := range 60 {
					lat := 5.0
					if w < 12 {
						lat = 9 - 0.3*float64(w)
					}
					lat *= 1 + 0.03*rng.NormFloat64()
					series = append(series, results.Series{RunID: r.RunID, TS: float64(w), WindowS: 1,
						Requests: int64(x), RPS: x * 5 / lat, LatMeanMs: results.Ptr(lat),
						LatP50Ms: results.Ptr(0.8 * lat), LatP99Ms: results.Ptr(4 * lat * (1 + 0.1*rng.NormFloat64()))})
				}
			}
		}
	}
	return analyzed(t, analyze.Set{Experiment: "rich", Runs: runs, Percentiles: pcts, Series: series})
}
