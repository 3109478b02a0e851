package stats_test

import (
	"fmt"
	"math"

	"github.com/loadverdict/loadverdict/stats"
)

func ExampleMannWhitney() {
	a := []float64{1, 2, 3, 4, 5}
	b := []float64{6, 7, 8, 9, 10}
	u, p, err := stats.MannWhitney(a, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("U = %v, p = %.5f (2/252)\n", u, p)
	// Output:
	// U = 0, p = 0.00794 (2/252)
}

func ExampleClassifyShort() {
	// Throughput of three rounds: the last improved by 20 %, outside the
	// 3 % noise band, so the system is still warming up.
	c, err := stats.ClassifyShort([]float64{1500, 1600, 1920}, true, 0, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %+.1f %% (band ±%.1f %%), improving %v\n", c.Class, c.ChangePct, c.BandPct, c.Improving)
	// Output:
	// no-steady-state: +20.0 % (band ±3.0 %), improving true
}

func ExampleCombineClasses() {
	class, good, counts := stats.CombineClasses([]stats.Class{stats.ClassWarmup, stats.ClassFlat, stats.ClassWarmup})
	fmt.Println(class, good, counts)
	// Output:
	// inconsistent true [{flat 1} {warmup 2}]
}

func ExampleMSER5() {
	// 100 observations: 20 at 3, then 80 at 1, with a small wiggle.
	x := make([]float64, 100)
	for i := range x {
		x[i] = 1 + 0.1*float64(i%2)
		if i < 20 {
			x[i] += 2
		}
	}
	d, more, err := stats.MSER5(x)
	fmt.Println(d, more, err)
	// Output:
	// 20 false <nil>
}

func ExampleBootstrapMeanCI() {
	x := []float64{10, 12, 11, 13, 9, 10, 12, 11}
	ci, err := stats.BootstrapMeanCI(x, 0, 0, stats.DefaultSeed)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("mean %.3f, %.0f %% CI [%.3f, %.3f] (%s)\n", ci.Estimate, 100*ci.Level, ci.Lo, ci.Hi, ci.Method)
	// Output:
	// mean 11.000, 95 % CI [10.125, 11.875] (bootstrap-percentile)
}

func ExampleRunsPerSide() {
	// Runs vary by 5 % (CV); to detect a 5 % difference at alpha 0.05 with
	// 80 % power takes 2·((1.96+0.84)·0.05/0.05)² = 15.7, so 16 runs a side.
	n, err := stats.RunsPerSide(0.05, 0.05, 0, 0)
	fmt.Println(n, err)
	// Output:
	// 16 <nil>
}

func ExampleLittlesLaw() {
	// 100 connections, 2000 req/s at 50 ms: 100 requests in flight.
	c, _ := stats.LittlesLaw(2000, 0.050, 100)
	fmt.Printf("%.2f %s\n", c.Ratio, c.Status)
	// At 0.5 ms only one connection in a hundred was busy.
	c, _ = stats.LittlesLaw(2000, 0.0005, 100)
	fmt.Printf("%.2f %s\n", c.Ratio, c.Status)
	// Output:
	// 1.00 consistent
	// 0.01 idle-connections
}

func ExampleFitUSL() {
	// Throughput measured at seven concurrencies, made with σ = 0.05,
	// κ = 0.002, λ = 250 req/s.
	truth := stats.USLFit{Sigma: 0.05, Kappa: 0.002, Lambda: 250}
	var n, x []float64
	for _, c := range []float64{1, 2, 4, 8, 16, 32, 64} {
		n, x = append(n, c), append(x, truth.Throughput(c))
	}
	fit, err := stats.FitUSL(n, x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("sigma %.4f, kappa %.5f, lambda %.2f, peak at N = %d\n", fit.Sigma, fit.Kappa, fit.Lambda, fit.NMax)
	// Output:
	// sigma 0.0500, kappa 0.00200, lambda 250.00, peak at N = 21
}

func ExampleExcursions() {
	// Mean latency per 1 s window (ms): about 1.4, with a stall of 1.5 s
	// every 10 s from 5 s on (testdata/truth/stalls in miniature).
	x := make([]float64, 60)
	for i := range x {
		x[i] = 1.4 + 0.05*float64(i%3)
		switch i % 10 {
		case 5:
			x[i] = 700
		case 6:
			x[i] = 120
		}
	}
	r, err := stats.Excursions(x, nil, stats.InstabilityOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d excursions, unstable %v, periodic %v, every %v windows, %.0f %% of the windows\n",
		len(r.Excursions), r.Unstable, r.Periodic, r.Period, 100*r.ShareN)
	// Output:
	// 6 excursions, unstable true, periodic true, every 10 windows, 20 % of the windows
}

func ExampleHodgesLehmannRatio() {
	// Throughput of 8 interleaved runs each (testdata/truth/disturbed-pair):
	// A's fifth run was hit by foreign load.
	a := []float64{3581.29, 3318.20, 3171.31, 3345.38, 1894.38, 3196.98, 3161.31, 3309.66}
	b := []float64{3024.44, 3112.95, 3090.59, 3238.50, 2660.26, 2849.17, 2968.12, 3004.03}
	ci, err := stats.HodgesLehmannRatio(a, b, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("A/B %.3f, 95 %% CI [%.3f, %.3f]; ratio of means %.3f\n", ci.Estimate, ci.Lo, ci.Hi, stats.Mean(a)/stats.Mean(b))
	// Output:
	// A/B 1.074, 95 % CI [1.022, 1.162]; ratio of means 1.043
}

func ExampleCheckMean() {
	// wrk with a pipelining script (testdata/truth/contradictory run 3):
	// mean 10.12 ms, max 83.53 ms, every percentile 0.
	c := stats.CheckMean(10.12, math.NaN(), 83.53, []stats.Quantile{{Q: 0.5}, {Q: 0.75}, {Q: 0.9}, {Q: 0.99}}, 0)
	fmt.Printf("possible %v: the mean must lie in [%.3f, %.4f] ms\n", c.Possible, c.Lo, c.Hi)
	// Output:
	// possible false: the mean must lie in [0.000, 0.8353] ms
}

func ExampleTrendTest() {
	// Latency rising 1 ms per window for 30 windows: it never levels off.
	x := make([]float64, 30)
	for i := range x {
		x[i] = 31 + float64(i) + 0.2*float64(i%4)
	}
	t, err := stats.TrendTest(x, 0, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("change %.1f over the series, p = %.2g, persistent %v\n", t.Change, t.P, t.Persistent)
	// Output:
	// change 29.0 over the series, p = 7.5e-33, persistent true
}

// EDivisive over the runs of six nightly experiments (three runs each):
// a change may only fall between experiments, at least two a side. The
// throughput drops by about 10 % from the fourth experiment on.
func ExampleEDivisive() {
	runs := []float64{
		1002, 998, 1005, // night 1
		995, 1001, 999, // night 2
		1003, 997, 1000, // night 3
		902, 897, 905, // night 4: the change
		899, 903, 896, // night 5
		901, 898, 904, // night 6
	}
	r, err := stats.EDivisive(runs, stats.EDivisiveOptions{Blocks: []int{3, 3, 3, 3, 3, 3}, MinBlocks: 2, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range r.Changes {
		fmt.Printf("change at run %d (night %d), p = %.3f\n", c.Index, c.Index/3+1, c.P)
	}
	// Output:
	// change at run 9 (night 4), p = 0.002
}

func ExampleSequential() {
	// ln(B/A) of six interleaved rounds: B about 10 % faster. The
	// interval is valid at every look, so the duel may stop here.
	d := []float64{0.101, 0.095, 0.104, 0.098, 0.102, 0.099}
	s := stats.Sequential{Alpha: 0.05, Band: math.Log1p(0.02), MaxLooks: 30}
	for n := 2; n <= len(d); n++ {
		l, err := s.Look(d[:n])
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("round %d: %+.1f %% [%+.1f, %+.1f] %s\n", n, 100*math.Expm1(l.Mean), 100*math.Expm1(l.Lo), 100*math.Expm1(l.Hi), l.Decision)
		if l.Decision != stats.SeqContinue {
			break
		}
	}
	// Output:
	// round 2: +10.3 % [-100.0, +Inf] continue
	// round 3: +10.5 % [-100.0, +Inf] continue
	// round 4: +10.5 % [+8.9, +12.0] positive
}
