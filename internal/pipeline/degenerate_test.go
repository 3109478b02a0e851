package pipeline

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/internal/testguard"
	"github.com/loadverdict/loadverdict/plots"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

// Degenerate data after parsing (issue 21: ten identical wrk runs made a
// figure's tick loop step a float counter forever). degenerateSet builds
// an experiment from random values drawn from one of the shapes below,
// each a family a real input can produce; driveDegenerate runs the
// analysis, every figure in both formats and every report format on it
// with a time and memory bound.

// degenerateShapes are the families of values.
var degenerateShapes = []string{
	"identical",      // every run the same figures (a rate-limited test)
	"single-request", // one request a run
	"zero-latency",   // latency 0 (a clock too coarse)
	"constant",       // latency and throughput the same in every window
	"all-errors",     // every request failed
	"one-window",     // a series of one window a run
	"huge",           // results.MaxValue, the largest a table holds
	"tiny",           // 1e-300
	"refused",        // NaN, ±Inf, 1e300: ingest refuses them (results.CheckValues)
	"missing",        // every optional field absent
	"mixed",          // each value from any admissible shape above
}

// degenerateValue draws a value of shape from r around base.
func degenerateValue(r *rand.Rand, shape string, base float64) float64 {
	switch shape {
	case "identical", "constant":
		return base
	case "zero-latency":
		return 0
	case "huge":
		return results.MaxValue * (0.5 + r.Float64()/2)
	case "tiny":
		return 1e-300 * (1 + r.Float64())
	case "refused":
		return []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, base, 0}[r.IntN(6)]
	case "mixed": // any admissible shape's value
		for {
			if s := degenerateShapes[r.IntN(len(degenerateShapes))]; s != "mixed" && s != "refused" {
				return degenerateValue(r, s, base)
			}
		}
	}
	return base * (0.5 + r.Float64())
}

// degenerateSet builds an experiment of n runs of shape,
// from seed.
func degenerateSet(seed uint64, n int, shape string) analyze.Set {
	r := rand.New(rand.NewPCG(seed, uint64(len(shape))))
	set := analyze.Set{Experiment: "degenerate"}
	opt := func(v float64) *float64 {
		if shape == "missing" {
			return nil
		}
		return &v
	}
	t0 := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	for i := range n {
		id := fmt.Sprintf("r%03d", i)
		lat := degenerateValue(r, shape, 1.5)
		rps := degenerateValue(r, shape, 20000)
		dur := degenerateValue(r, shape, 10)
		requests := int64(200000)
		switch shape {
		case "single-request":
			requests, dur = 1, lat/1000
		case "huge":
			requests = math.MaxInt64 / 2
		}
		errs := int64(0)
		if shape == "all-errors" {
			errs = requests
		}
		conns := int32([]int{16, 64, 256}[i%3])
		started := t0.Add(time.Duration(i) * time.Minute)
		run := results.Run{RunID: id, Experiment: set.Experiment, Source: fmt.Sprintf("s%d.txt", i%4), Index: int32(i), Seq: int32(i),
			Tool: "wrk", LoadModel: results.LoadClosed, Label: []string{"a:80", "b:80", "c:80"}[i%3%max(1, n%3+1)],
			Target: "http://a/", DurationS: dur, Requests: requests, Errors: errs, RPS: rps,
			LatMeanMs: opt(lat), LatStdevMs: opt(degenerateValue(r, shape, 0.3)), LatMaxMs: opt(lat * 10),
			LatP50Ms: opt(lat), LatP90Ms: opt(lat * 2), LatP99Ms: opt(lat * 4)}
		if shape != "missing" {
			run.StartedAt, run.Connections = &started, &conns
		}
		set.Runs = append(set.Runs, run)
		if shape != "missing" {
			for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
				set.Percentiles = append(set.Percentiles, results.Percentile{RunID: id, Quantile: q, LatencyMs: degenerateValue(r, shape, lat*(1+10*q))})
			}
		}
		windows := 1 + r.IntN(30)
		if shape == "one-window" || shape == "single-request" {
			windows = 1
		}
		if i%2 == 0 && shape != "missing" {
			for w := range windows {
				set.Series = append(set.Series, results.Series{RunID: id, TS: degenerateValue(r, shape, float64(w)), WindowS: 1,
					Requests: requests / int64(windows), Errors: errs / int64(windows), RPS: degenerateValue(r, shape, rps),
					LatMeanMs: opt(degenerateValue(r, shape, lat)), LatP50Ms: opt(degenerateValue(r, shape, lat)),
					LatP99Ms: opt(degenerateValue(r, shape, lat*4)), LatMaxMs: opt(degenerateValue(r, shape, lat*10))})
			}
		}
	}
	return set
}

// driveDegenerate analyses set and renders every figure (PNG and SVG) and
// every report file; it fails on a panic, an error of the rendering, a
// case that hangs or a heap past testguard.Heap (testguard.Run). Analyze
// may refuse the set with an error.
func driveDegenerate(t *testing.T, set analyze.Set) {
	t.Helper()
	if !admissible(set) {
		return // refused at ingest (TestCheckValues), never analysed
	}
	testguard.Run(t, func() error {
		v, err := analyze.Analyze(set, analyze.DefaultOptions())
		if err != nil {
			return nil
		}
		// Render draws every figure as PNG and as SVG, then every report file.
		files, err := Render(v, set, report.Meta{GeneratedBy: "degenerate"}, plots.FormatPNG)
		if err != nil {
			return fmt.Errorf("render: %w", err)
		}
		if len(files) < 4 {
			return fmt.Errorf("render: %d files", len(files))
		}
		return nil
	})
}

// TestDegenerateData: every shape at 1, 2, 3, 10 and 40 runs, a fixed seed
// each, through analysis, figures and reports, each case bounded. By
// default a sample: every shape at 1, 2 and 3 runs and at 10 or 40 in
// turn (so every count and every shape is drawn); whole with
// LOADVERDICT_LONG=all, as .ci/run sets it.
func TestDegenerateData(t *testing.T) {
	for i, shape := range degenerateShapes {
		for _, n := range []int{1, 2, 3, 10, 40} {
			if !wholeTests() && n >= 10 && (n == 10) != (i%2 == 0) {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", shape, n), func(t *testing.T) {
				driveDegenerate(t, degenerateSet(uint64(n), n, shape))
			})
		}
	}
}

// FuzzDegenerate draws the shape, the run count and the values from the
// fuzzer's inputs. Run briefly: go test ./internal/pipeline -run '^$'
// -fuzz FuzzDegenerate -fuzztime 20s.
func FuzzDegenerate(f *testing.F) {
	for i := range degenerateShapes {
		f.Add(uint64(i), uint8(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, n, shape uint8) {
		// At most 12 runs: the fuzzer takes an input running past 10 s for
		// a hang, and a loaded machine draws a dozen runs' figures in seconds.
		driveDegenerate(t, degenerateSet(seed, 1+int(n)%12, degenerateShapes[int(shape)%len(degenerateShapes)]))
	})
}

// admissible reports whether every value of set is one ingest lets into
// the tables (results.CheckValues).
func admissible(set analyze.Set) bool {
	for i := range set.Runs {
		if results.CheckValues(&set.Runs[i]) != nil {
			return false
		}
	}
	for i := range set.Percentiles {
		if results.CheckValues(&set.Percentiles[i]) != nil {
			return false
		}
	}
	for i := range set.Series {
		if results.CheckValues(&set.Series[i]) != nil {
			return false
		}
	}
	return true
}
