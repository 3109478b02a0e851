package analyze_test

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// gammaDraw draws Gamma(shape, 1) (Marsaglia and Tsang, ACM TOMS 26, 2000).
func gammaDraw(rng *rand.Rand, shape float64) float64 {
	if shape < 1 {
		return gammaDraw(rng, shape+1) * math.Pow(rng.Float64(), 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if math.Log(u) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}

// errorRun is a run of n requests whose error rate is drawn from a beta of
// mean mu and intra-run correlation rho (variance rho·mu·(1-mu); 0:
// every run binomial at mu), its errors binomial at that rate.
func errorRun(rng *rand.Rand, seq, n int, mu, rho float64) results.Run {
	p := mu
	if rho > 0 {
		s := 1/rho - 1 // alpha + beta
		a, b := gammaDraw(rng, mu*s), gammaDraw(rng, (1-mu)*s)
		p = a / (a + b)
	}
	var errs int64
	for range n {
		if rng.Float64() < p {
			errs++
		}
	}
	return results.Run{RunID: results.RunID("mc", seq), Tool: "hey", Requests: int64(n), Errors: errs, RPS: float64(n)}
}

// TestErrorComparisonMonteCarlo is the check of the error comparison's
// rates (docs/STATISTICS.md, "Error rates: tested and gated"): pairs of
// sides with 2000 requests a run whose per-run error rates vary between
// runs by a beta (overdispersed: intra-class correlation rho up to 0.01,
// so that at 2 % the runs' rates have a standard deviation of 1.4 pts,
// 4.5 times the binomial), at 3-8 runs a side. Under A/A the share of
// pairs whose side a fails the gate condition errors (ErrorsWorse) must
// stay within alpha/2 = 2.5 % plus two standard errors wherever the
// permutation test over runs decides (4 runs a side and more). At 3 runs
// a side the rates are only logged: the pooled Fisher test assumes
// binomial runs (alone it met the condition in 35 % of the A/A pairs at
// rho 0.01), so a side whose runs fail the binomial dispersion test is
// left untested and fails closed when a's rate is beyond the band
// (STATISTICS.md states the rule). And a regression of +1 pt (0 % to 1 %, 2 % to 3 % with
// binomial runs) must be caught in >= 90 % of the pairs at 4 runs a side
// and more. 300 pairs a cell by default, 4000 with LOADVERDICT_LONG=1.
func TestErrorComparisonMonteCarlo(t *testing.T) {
	pairs := 300
	if os.Getenv("LOADVERDICT_LONG") == "1" {
		pairs = 4000
	}
	opts := analyze.DefaultOptions()
	for _, c := range []struct {
		name       string
		muA, muB   float64
		rho        float64
		runs       int
		null       bool
		checkRange bool
	}{
		{"A/A 0.5 %, binomial", 0.005, 0.005, 0, 5, true, true},
		{"A/A 2 %, binomial", 0.02, 0.02, 0, 4, true, true},
		{"A/A 2 %, rho 0.001", 0.02, 0.02, 0.001, 5, true, true},
		{"A/A 2 %, rho 0.01", 0.02, 0.02, 0.01, 4, true, true},
		{"A/A 2 %, rho 0.01, 8 runs", 0.02, 0.02, 0.01, 8, true, true},
		{"A/A 5 %, rho 0.01", 0.05, 0.05, 0.01, 6, true, true},
		{"A/A 2 %, binomial, 3 runs (Fisher)", 0.02, 0.02, 0, 3, true, false},
		{"A/A 2 %, rho 0.01, 3 runs (Fisher)", 0.02, 0.02, 0.01, 3, true, false},
		{"+1 pt from 0 %, binomial", 0.0, 0.01, 0, 4, false, true},
		{"+1 pt from 2 %, binomial", 0.02, 0.03, 0, 5, false, true},
		{"+1 pt from 2 %, rho 0.001", 0.02, 0.03, 0.001, 6, false, false},
		{"+2 pts from 2 %, rho 0.001", 0.02, 0.04, 0.001, 6, false, true},
	} {
		worse, sig := 0, 0
		for seed := range uint64(pairs) {
			rng := rand.New(rand.NewPCG(seed, 31))
			var ra, rb []results.Run
			for i := range c.runs {
				rb = append(rb, errorRun(rng, 2*i, 2000, c.muA, c.rho))
				ra = append(ra, errorRun(rng, 2*i+1, 2000, c.muB, c.rho))
			}
			e := analyze.CompareErrorRates("new", "old", ra, rb, opts)
			if e.ErrorsWorse(opts.Alpha) {
				worse++
			}
			if e.PValue != nil && *e.PValue < opts.Alpha {
				sig++
			}
		}
		frac := float64(worse) / float64(pairs)
		t.Logf("%s, %d runs a side: errors condition met in %.1f %% of %d pairs (p < alpha in %.1f %%)", c.name, c.runs, 100*frac, pairs,
			100*float64(sig)/float64(pairs))
		if !c.checkRange {
			continue
		}
		if c.null {
			if hi := 0.025 + 2*math.Sqrt(0.025*0.975/float64(pairs)); frac > hi {
				t.Errorf("%s: false positives %.1f %%, want <= %.1f %%", c.name, 100*frac, 100*hi)
			}
		} else if frac < 0.9 {
			t.Errorf("%s: caught in %.1f %%, want >= 90 %%", c.name, 100*frac)
		}
	}
}

// The permutation test over runs and its interval, on runs whose error
// rates are fully separated (0 % against 2 %, 4 runs a side): p is the
// exact 2/C(8,4), the estimate +2 pts, and the errors condition is met;
// A/A at equal rates is no difference.
func TestCompareErrorRates(t *testing.T) {
	opts := analyze.DefaultOptions()
	mk := func(errs ...int64) []results.Run {
		var out []results.Run
		for i, e := range errs {
			out = append(out, results.Run{RunID: results.RunID("e", i), Tool: "hey", Requests: 1000, Errors: e, RPS: 1000})
		}
		return out
	}
	e := analyze.CompareErrorRates("new", "old", mk(20, 19, 21, 20), mk(0, 0, 0, 0), opts)
	if e.Method != analyze.ErrorTestPermutation || e.PValue == nil || math.Abs(*e.PValue-2.0/70) > 1e-12 ||
		math.Abs(e.DiffPts-2) > 1e-9 || e.Verdict != analyze.AMoreErrors || !e.ErrorsWorse(opts.Alpha) {
		t.Errorf("0 %% vs 2 %%: %+v p %v", e, *e.PValue)
	}
	e = analyze.CompareErrorRates("new", "old", mk(20, 20, 20, 20), mk(20, 20, 20, 20), opts)
	if e.Verdict != analyze.NoDifference || e.ErrorsWorse(opts.Alpha) {
		t.Errorf("A/A: %+v", e)
	}
	// Three runs a side: Fisher's test of the pooled 60 of 3000 against 0.
	e = analyze.CompareErrorRates("new", "old", mk(20, 20, 20), mk(0, 0, 0), opts)
	if e.Method != analyze.ErrorTestFisherPooled || !e.ErrorsWorse(opts.Alpha) {
		t.Errorf("3 runs: %+v", e)
	}
	// +0.05 pts, significant but within the 0.1 pts band: not worse.
	e = analyze.CompareErrorRates("new", "old", mk(1, 1, 1, 1, 1), mk(0, 0, 0, 0, 0), opts)
	if e.ErrorsWorse(opts.Alpha) {
		t.Errorf("+0.1 pts: %+v", e)
	}
}
