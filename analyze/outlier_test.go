package analyze_test

import (
	"math"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// rounds returns one system's wrk rounds (seq 0..) at the throughputs given.
func rounds(rps ...float64) []results.Run {
	var out []results.Run
	for i, x := range rps {
		out = append(out, run("s", i, 8, x, 8000/x))
	}
	return out
}

// Six rounds of a flat server, one at half the others' throughput (issue
// 31: 1536 against 2677-3520 req/s): flagged by name, left out of the
// steady mean and CI and of the series model's noise allowance; kept in
// the runs a comparison tests.
func TestOutlierRoundLeftOut(t *testing.T) {
	for _, c := range []struct {
		name string
		rps  []float64
		at   int32
	}{
		{"issue-31", []float64{3520, 2677, 1536, 3100, 3050, 2990}, 2},
		{"second", []float64{3000, 1500, 3050, 2950, 3020, 2980}, 1},
		{"last", []float64{3000, 3050, 2950, 3020, 2980, 2240}, 5},
		{"faster", []float64{3000, 3050, 2950, 4400, 3020, 2980, 3010}, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := mustAnalyze(t, rounds(c.rps...), nil)
			g := v.Systems[0].Groups[0]
			if g.Outlier == nil || g.Outlier.Run.Seq != c.at {
				t.Fatalf("outlier %+v, want seq %d", g.Outlier, c.at)
			}
			var others []float64
			for i, x := range c.rps {
				if int32(i) != c.at {
					others = append(others, x)
				}
			}
			if g.Warmup.Class != stats.ClassFlat || g.Steady.Runs != len(others) || g.Steady.RPSMean == nil ||
				math.Abs(*g.Steady.RPSMean-stats.Mean(others)) > 1e-9 || g.Rep.RPS != *g.Steady.RPSMean {
				t.Errorf("warm-up %+v steady %+v (mean %v), want flat over %d runs at %.2f", g.Warmup, g.Steady, *g.Steady.RPSMean, len(others), stats.Mean(others))
			}
			if g.Warmup.Basis.N != len(others) || g.Warmup.Basis.ThresholdPct > 15 {
				t.Errorf("model basis %+v: the noise allowance is taken from the outlier", g.Warmup.Basis)
			}
			if g.Numbers.Runs != len(others) {
				t.Errorf("numbers over %d runs, want %d", g.Numbers.Runs, len(others))
			}
			fs := findings(v, analyze.CodeOutlierRun)
			if len(fs) != 1 || len(fs[0].Subject.Runs) != 1 || fs[0].Subject.Runs[0].Seq != c.at {
				t.Fatalf("findings %+v", v.Findings)
			}
			if x, ok := fs[0].Facts.(analyze.OutlierRunFacts); !ok || x.SteadyRuns != len(others) || x.RPS != c.rps[c.at] {
				t.Errorf("facts %+v", fs[0].Facts)
			}
		})
	}
}

// What is not one outlier round: a slow first round (a warm-up), two
// slow rounds at the end, a step, noisy flat rounds, and fewer than 6
// rounds. None is flagged; the warm-up stays a warm-up.
func TestOutlierRoundNotFlagged(t *testing.T) {
	for _, c := range []struct {
		name  string
		rps   []float64
		class stats.Class
	}{
		{"warmup-first", []float64{1500, 3000, 3050, 2950, 3020, 2980}, stats.ClassWarmup},
		{"warmup-two", []float64{1000, 2000, 3050, 2950, 3020, 2980, 3000}, stats.ClassWarmup},
		{"slow-end", []float64{3000, 3050, 2950, 3020, 2980, 3010, 2100, 2080}, ""},
		{"step", []float64{3000, 3050, 2950, 3020, 2400, 2380, 2420, 2390}, stats.ClassSlowdown},
		{"noisy-flat", []float64{3000, 2700, 3350, 2850, 3200, 2650}, stats.ClassFlat},
		{"five", []float64{3000, 1500, 3050, 2950, 3020}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := mustAnalyze(t, rounds(c.rps...), nil)
			g := v.Systems[0].Groups[0]
			if g.Outlier != nil || len(findings(v, analyze.CodeOutlierRun)) != 0 {
				t.Errorf("outlier %+v", g.Outlier)
			}
			if c.class != "" && g.Warmup.Class != c.class {
				t.Errorf("class %s, want %s", g.Warmup.Class, c.class)
			}
		})
	}
}

// A comparison keeps a side's outlier round in its test: leaving out a
// side's worst run must not make a regression vanish (fail closed). B's
// rounds are all slower than A's; B's outlier is its slowest.
func TestOutlierRoundKeptInComparison(t *testing.T) {
	var runs []results.Run
	a := []float64{3000, 3050, 2950, 3020, 2980, 3010}
	b := []float64{2900, 2920, 1450, 2880, 2910, 2890}
	for i := range a {
		runs = append(runs, run("a", 2*i, 8, a[i], 8000/a[i]), run("b", 2*i+1, 8, b[i], 8000/b[i]))
	}
	v := mustAnalyze(t, runs, nil)
	var gb analyze.Group
	for _, s := range v.Systems {
		if s.Label == "b" {
			gb = s.Groups[0]
		}
	}
	if gb.Outlier == nil || gb.Outlier.Run.Seq != 5 {
		t.Fatalf("b's outlier %+v", gb.Outlier)
	}
	c := comparison(t, v, analyze.MetricRPS)
	if c.BRuns != 6 || c.ARuns != 6 {
		t.Errorf("compared %d and %d runs, want 6 and 6", c.ARuns, c.BRuns)
	}
}
