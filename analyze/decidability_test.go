package analyze_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// TestDecidabilityFamily draws the named cases of issue 19 items 3 and 5
// again as a family: 300 comparisons of 1-10 runs of A against 1-10 of B
// (B 15-40 % slower, run-to-run scatter 0.5-3.5 %, interleaved or in
// blocks, A sometimes starting with 1-2 slow warm-up runs) and holds on
// every draw:
//   - a comparison is blocked for too few runs exactly when no test can
//     decide the sizes held: the exact test's smallest attainable p
//     2/C(m+n, m) is at least alpha and a side has fewer than 3 runs for
//     Welch's t-test;
//   - "runs needed" is never below the runs either side holds;
//   - the counts are those tested: tested + left out = held, the p is the
//     one of the runs counted (exact Mann-Whitney, or Welch's below its
//     reach), and the headline prints those counts;
//   - nothing is decided in the wrong direction, and at least 90 % of the
//     decidable draws are decided (B slower).
func TestDecidabilityFamily(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 19))
	decidable, decided := 0, 0
	for i := range 300 {
		na, nb := 1+r.IntN(10), 1+r.IntN(10)
		cv := 0.005 + 0.03*r.Float64()
		effect := 0.15 + 0.25*r.Float64()
		warm := 0
		if na >= 6 && r.IntN(3) == 0 {
			warm = 1 + r.IntN(2)
		}
		blocks := r.IntN(2) == 0
		var runs []results.Run
		seq := 0
		add := func(label string, k int, level float64, slow bool) {
			x := level * math.Exp(cv*r.NormFloat64())
			if slow {
				x /= 2
			}
			runs = append(runs, run(label, seq, 10, x, 10000/x))
			seq++
		}
		if blocks {
			for k := range na {
				add("a:80", k, 2000, k < warm)
			}
			for k := range nb {
				add("b:80", k, 2000/(1+effect), false)
			}
		} else {
			for k := range max(na, nb) {
				if k < na {
					add("a:80", k, 2000, k < warm)
				}
				if k < nb {
					add("b:80", k, 2000/(1+effect), false)
				}
			}
		}
		name := fmt.Sprintf("draw %d: %d vs %d runs, B %.0f %% slower, cv %.1f %%, warm-up %d, blocks %v", i, na, nb, 100*effect, 100*cv, warm, blocks)
		v := mustAnalyze(t, runs, nil)
		c := comparison(t, v, analyze.MetricRPS)
		canDecide := stats.MinAttainableP(na, nb) < 0.05 || min(na, nb) >= analyze.WelchMinRuns
		tooFew := slices.ContainsFunc(c.Reasons, func(x analyze.Reason) bool { return x.Code == analyze.ReasonTooFewRuns && !x.Note })
		if c.AHeld != na || c.BHeld != nb {
			t.Fatalf("%s: held %d/%d", name, c.AHeld, c.BHeld)
		}
		if tooFew != !canDecide && !(tooFew && canDecide && c.Estimate == nil) {
			t.Errorf("%s: too-few-runs %v, decidable %v (%+v)", name, tooFew, canDecide, c.Reasons)
		}
		if c.RunsNeeded != nil && *c.RunsNeeded < max(na, nb) {
			t.Errorf("%s: runs needed %d below the runs held", name, *c.RunsNeeded)
		}
		if c.Verdict == analyze.BFaster || c.Verdict == analyze.NoDifference {
			t.Errorf("%s: %s, but B is %.0f %% slower (%+v)", name, c.Verdict, 100*effect, c.Reasons)
		}
		if c.PValue == nil {
			continue
		}
		// The counts shown are the counts tested.
		if c.ARuns+c.BRuns+len(c.LeftOut) != c.AHeld+c.BHeld {
			t.Errorf("%s: %d + %d tested and %d left out of %d + %d held", name, c.ARuns, c.BRuns, len(c.LeftOut), c.AHeld, c.BHeld)
		}
		ga, gb := v.Group(c.A, c.Settings), v.Group(c.B, c.Settings)
		xa, xb := tested(ga, c, "a"), tested(gb, c, "b")
		if len(xa) != c.ARuns || len(xb) != c.BRuns {
			t.Fatalf("%s: %d/%d runs left after the left-out ones, counted %d/%d", name, len(xa), len(xb), c.ARuns, c.BRuns)
		}
		var p float64
		if c.Estimate != nil && c.Estimate.Method == stats.MethodWelchLog {
			_, p, _ = stats.WelchLogRatio(xa, xb, 0.95)
		} else {
			_, p, _ = stats.MannWhitney(xa, xb)
		}
		if math.Abs(p-*c.PValue) > 1e-12 {
			t.Errorf("%s: p %v, but the %d vs %d runs counted give %v", name, *c.PValue, len(xa), len(xb), p)
		}
		if canDecide {
			decidable++
			if c.Verdict == analyze.AFaster {
				decided++
				if h := report.Headline(v); !strings.Contains(h, fmt.Sprintf("%d vs %d runs", c.ARuns, c.BRuns)) {
					t.Errorf("%s: headline %q does not show the %d vs %d runs tested", name, h, c.ARuns, c.BRuns)
				}
			}
		}
	}
	t.Logf("decided %d of %d decidable draws", decided, decidable)
	if decided*10 < decidable*9 {
		t.Errorf("decided %d of %d decidable draws, want >= 90 %%", decided, decidable)
	}
}
