package analyze

import (
	"slices"

	"github.com/loadverdict/loadverdict/gate"
)

// Gate is the decision of the CI gate: the conditions the verdict meets,
// and whether one of them is among those asked for (Options.FailOn). It
// is made once, here, so the command line's exit status and a bucket's
// summary.json say the same.
type Gate struct {
	// Failed is true when a reason Fails.
	Failed bool
	// Reasons are the conditions met, in the order regression,
	// threshold, inconclusive, each in the order of the comparisons or
	// checks; also those not asked for (Fails false), for the reader.
	Reasons []GateReason
}

// GateReason is one condition a verdict meets.
type GateReason struct {
	Condition gate.Condition
	// Fails is true when Condition is one of Options.FailOn.
	Fails bool
	// Comparison is the index in Verdict.Comparisons of the comparison
	// that regressed (gate.Regression) or is inconclusive
	// (gate.Inconclusive); -1 for none: for gate.Inconclusive, no two
	// systems could be compared at all.
	Comparison int
	// Check is the index in Verdict.Thresholds of a failed check
	// (gate.ThresholdFailed), else -1.
	Check int
	// WorsePct is how much worse side a is than the baseline, percent,
	// and MaxPct the regression allowed (gate.Regression).
	WorsePct, MaxPct float64
}

// WorsePct returns how much worse side a is than side b, in percent of
// b's value, by the ratio that decides the comparison (Estimate, else
// Ratio): for throughput 100·(1 - a/b), for
// latency 100·(a/b - 1). It is negative when a is better.
func (c Comparison) WorsePct() float64 {
	r := c.Ratio
	if c.Estimate != nil { // the ratio that decided the verdict
		r = c.Estimate.Estimate
	}
	if c.HigherIsBetter {
		return 100 * (1 - r)
	}
	return 100 * (r - 1)
}

// gate finds the conditions the verdict meets:
//
//   - gate.Regression: a comparison against the baseline (Options.Baseline;
//     without one nothing is a regression) whose verdict is that the
//     baseline is better (significant at alpha, outside the practical
//     band), with side a worse by more than Options.MaxRegressionPct;
//   - gate.ThresholdFailed: a threshold check that failed;
//   - gate.Inconclusive: an inconclusive comparison, or several systems
//     of which no two could be compared.
func (v *Verdict) gate() Gate {
	var g Gate
	add := func(r GateReason) {
		r.Fails = slices.Contains(v.Options.FailOn, r.Condition)
		g.Failed = g.Failed || r.Fails
		g.Reasons = append(g.Reasons, r)
	}
	base := v.Options.Baseline
	for i, c := range v.Comparisons {
		if base != "" && c.B == base && c.Verdict == BFaster && c.WorsePct() > v.Options.MaxRegressionPct {
			add(GateReason{Condition: gate.Regression, Comparison: i, Check: -1, WorsePct: c.WorsePct(), MaxPct: v.Options.MaxRegressionPct})
		}
	}
	for i, c := range v.Thresholds {
		if c.Status == ThresholdFail {
			add(GateReason{Condition: gate.ThresholdFailed, Comparison: -1, Check: i})
		}
	}
	for i, c := range v.Comparisons {
		if c.Verdict == Inconclusive {
			add(GateReason{Condition: gate.Inconclusive, Comparison: i, Check: -1})
		}
	}
	if len(v.Comparisons) == 0 && len(v.Systems) > 1 {
		add(GateReason{Condition: gate.Inconclusive, Comparison: -1, Check: -1})
	}
	return g
}
