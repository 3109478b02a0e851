package analyze

import (
	"math"
	"slices"

	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/stats"
)

// Gate is the decision of the CI gate: the conditions the verdict meets,
// and whether one of them fails it under the policy (gate.Policy, built
// by Options.GatePolicy). It is made once, here, so the command line's
// exit status and a bucket's summary.json say the same.
type Gate struct {
	// Failed is true when a reason Fails.
	Failed bool
	// Policy is the rule that was applied.
	Policy gate.Policy
	// AllowedPct is the regression allowed, percent
	// (Options.AllowedRegressionPct).
	AllowedPct float64
	// Reasons are the conditions met, in the order regression, errors,
	// threshold, unknown, inconclusive, no-comparison (history adds
	// its own), each in the order of the comparisons or checks; also
	// those not guarded (Fails false, Allowed false), for the reader.
	Reasons []GateReason
}

// GateReason is one condition a verdict (or a history check) meets.
type GateReason struct {
	Condition gate.Condition
	// Fails is true when the policy fails the gate on Condition.
	Fails bool
	// Allowed is true when the policy would fail the gate on Condition
	// but the user allowed it by name (--allow, gate.allow).
	Allowed bool
	// Comparison is the index in Verdict.Comparisons of the comparison
	// that regressed (gate.Regression) or is undecided
	// (gate.Inconclusive), and for gate.Errors the index in
	// Verdict.ErrorComparisons of the error comparison whose side a has
	// more errors; -1 for none.
	Comparison int
	// Check is the index in Verdict.Thresholds of a failed or unknown
	// check (gate.ThresholdFailed, gate.Unknown), else -1.
	Check int
	// System is, for gate.NoComparison, the system that has no gated
	// comparison against the baseline; "" when nothing could be compared
	// at all. Why says why, with a baseline (NotCompared...).
	System string
	Why    string
	// WorsePct is how much worse side a is than the baseline, percent
	// (gate.Regression), or could be, at the far end of its CI
	// (gate.Inconclusive, unless Unbounded); MaxPct is the regression
	// allowed.
	WorsePct, MaxPct float64
	// Unbounded (gate.Inconclusive) is true when no test ran, so nothing
	// bounds how much worse side a could be.
	Unbounded bool
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

// AllowedRegressionPct returns the regression, in percent, that does not
// fail the gate: MaxRegressionPct, never less than the practical band
// (100·PracticalBand), so that noise alone, which the band absorbs, does
// not fail it.
func (o Options) AllowedRegressionPct() float64 {
	return math.Max(o.MaxRegressionPct, 100*o.PracticalBand)
}

// GatePolicy returns the gate's policy for these options: thresholds
// guard when Options.SLO has any; a regression check is asked for when
// regressionCheck is true (history's gate), there is a baseline, or
// FailOn has gate.Regression; FailOn adds, Allow removes.
func (o Options) GatePolicy(regressionCheck bool) gate.Policy {
	return gate.Policy{
		Thresholds:      len(o.SLO) > 0,
		RegressionCheck: regressionCheck || o.Baseline != "" || slices.Contains(o.FailOn, gate.Regression),
		FailOn:          o.FailOn,
		Allow:           o.Allow,
	}
}

// DecideGate applies policy p to the conditions met, in order: each
// reason's Fails and Allowed are set from p, and the gate fails when a
// reason Fails. It is the one place the policy is applied: the verdict's
// gate and history's both call it.
func DecideGate(p gate.Policy, allowedPct float64, reasons []GateReason) Gate {
	g := Gate{Policy: p, AllowedPct: allowedPct, Reasons: reasons}
	for i := range g.Reasons {
		r := &g.Reasons[i]
		r.Fails = p.Fails(r.Condition)
		r.Allowed = p.Guards(r.Condition) && p.Allowed(r.Condition)
		g.Failed = g.Failed || r.Fails
	}
	return g
}

// gate finds the conditions the verdict meets and decides them by
// Options.GatePolicy:
//
//   - gate.Regression: a comparison of a gated metric (Comparison.Gated)
//     against the baseline (Options.Baseline;
//     without one nothing is a regression) whose verdict is that the
//     baseline is better (significant at alpha, outside the practical
//     band), with side a worse by more than the allowed regression
//     (Options.AllowedRegressionPct);
//   - gate.Errors: an error comparison against the baseline whose side a
//     has more errors (ErrorComparison.ErrorsWorse: p < alpha, estimate
//     beyond Options.ErrorBandPts); an untested one is no reason of its
//     own (its comparisons' throughput is untested too, and fails closed
//     as gate.Inconclusive);
//   - gate.ThresholdFailed: a threshold check that failed;
//   - gate.Unknown: a threshold check that could not be evaluated;
//   - gate.Inconclusive: an inconclusive comparison of a gated metric
//     (Comparison.GatedUndecided) that cannot rule out a regression beyond the
//     allowed one: no test ran (too few runs, no steady state, ...), or
//     its estimate lies beyond the allowed regression and its test shows
//     the difference (two-sided p < alpha) while its CI reaches back into
//     the practical band; it "could be up to" the far end of its CI
//     (Comparison.UpToWorsePct; without a baseline, either side's) worse;
//   - gate.Marginal: a threshold check whose value meets the limit but
//     whose CI reaches past it;
//   - gate.NoComparison: a regression check that compared nothing it
//     gates on (noComparison).
func (v *Verdict) gate() Gate {
	allowed := v.Options.AllowedRegressionPct()
	rs := v.regressionReasons(allowed)
	rs = append(rs, v.thresholdReasons()...)
	rs = append(rs, v.inconclusiveReasons(allowed)...)
	policy := v.Options.GatePolicy(false)
	rs = append(rs, v.noComparison(policy)...)
	return DecideGate(policy, allowed, rs)
}

// regressionReasons: the decided regressions against the baseline beyond
// the allowed one (gate.Regression), then the error comparisons whose side
// a has more errors (gate.Errors).
func (v *Verdict) regressionReasons(allowed float64) []GateReason {
	var rs []GateReason
	base := v.Options.Baseline
	if base == "" {
		return nil
	}
	for i, c := range v.Comparisons {
		if c.B == base && c.Gated() && c.Verdict == BFaster && c.WorsePct() > allowed {
			rs = append(rs, GateReason{Condition: gate.Regression, Comparison: i, Check: -1, WorsePct: c.WorsePct(), MaxPct: allowed})
		}
	}
	for i, c := range v.ErrorComparisons {
		if c.B == base && c.ErrorsWorse(v.Options.Alpha) {
			rs = append(rs, GateReason{Condition: gate.Errors, Comparison: i, Check: -1})
		}
	}
	return rs
}

// thresholdReasons: a reason for each threshold check that failed, was
// marginal or could not be evaluated.
func (v *Verdict) thresholdReasons() []GateReason {
	var rs []GateReason
	for i, c := range v.Thresholds {
		switch c.Status {
		case ThresholdFail:
			rs = append(rs, GateReason{Condition: gate.ThresholdFailed, Comparison: -1, Check: i})
		case ThresholdMarginal:
			rs = append(rs, GateReason{Condition: gate.Marginal, Comparison: -1, Check: i})
		case ThresholdUnknown:
			rs = append(rs, GateReason{Condition: gate.Unknown, Comparison: -1, Check: i})
		}
	}
	return rs
}

// inconclusiveReasons: the undecided comparisons of gated metrics that
// cannot rule out a regression beyond the allowed one (gate.Inconclusive).
func (v *Verdict) inconclusiveReasons(allowed float64) []GateReason {
	var rs []GateReason
	base := v.Options.Baseline
	for i, c := range v.Comparisons {
		if c.Verdict != Inconclusive || !c.GatedUndecided() {
			continue
		}
		up, ok := c.UpToWorsePct()
		est := c.WorsePct()
		if ok && base == "" {
			if b, okb := c.UpToBetterPct(); okb {
				up = math.Max(up, b)
			}
			est = math.Abs(est)
		}
		// A test that ran fails when its estimate lies beyond the allowed
		// regression and its test shows the difference (two-sided
		// p < alpha) while its interval reaches back into the practical
		// band; noise alone does not fail the gate (STATISTICS.md: at most
		// alpha/2 of A/A comparisons). The lean is judged at alpha, never
		// below the default: a smaller alpha must not let an undecided
		// regression pass.
		lean := c.PValue != nil && *c.PValue < math.Max(v.Options.Alpha, stats.DefaultAlpha)
		if ok && (up <= allowed || est <= allowed || !lean) {
			continue
		}
		rs = append(rs, GateReason{Condition: gate.Inconclusive, Comparison: i, Check: -1, WorsePct: up, MaxPct: allowed, Unbounded: !ok})
	}
	return rs
}

// noComparison finds what a regression check could not compare. Only a
// comparison of a gated metric (Comparison.Gated) checks anything: rows
// of ungated metrics alone (a closed model's latencies when throughput
// could not be compared, a baseline of no requests) compare nothing the
// gate reads. With a baseline, each other system without a gated
// comparison against it is a reason, and so is a baseline with no other
// system at all; without one, a set with no gated comparison is, when
// several systems ran or when the policy guards the condition (a
// regression check of one system has nothing to check).
func (v *Verdict) noComparison(p gate.Policy) []GateReason {
	gated := func(a, b string) bool {
		for _, c := range v.Comparisons {
			if c.Gated() && (a == "" || c.A == a) && (b == "" || c.B == b) {
				return true
			}
		}
		return false
	}
	var rs []GateReason
	base := v.Options.Baseline
	if base == "" {
		if !gated("", "") && (len(v.Systems) > 1 || p.Guards(gate.NoComparison)) {
			rs = append(rs, GateReason{Condition: gate.NoComparison, Comparison: -1, Check: -1})
		}
		return rs
	}
	others := 0
	for _, s := range v.Systems {
		if s.Label == base {
			continue
		}
		others++
		if !gated(s.Label, base) {
			rs = append(rs, GateReason{Condition: gate.NoComparison, Comparison: -1, Check: -1, System: s.Label,
				Why: v.whyNotCompared(s.Label, base)})
		}
	}
	if others == 0 {
		rs = append(rs, GateReason{Condition: gate.NoComparison, Comparison: -1, Check: -1, Why: NotComparedOnlyBaseline})
	}
	return rs
}

// Why a system was not compared with the baseline (GateReason.Why).
const (
	// NotComparedNoSettings: it shares no settings with the baseline.
	NotComparedNoSettings = "no-shared-settings"
	// NotComparedBaselineFailed: at the settings they share, every
	// request of the baseline failed.
	NotComparedBaselineFailed = "baseline-served-nothing"
	// NotComparedUngated: compared on metrics that do not gate only.
	NotComparedUngated = "ungated-only"
	// NotComparedOnlyBaseline: the baseline is the only system.
	NotComparedOnlyBaseline = "only-baseline"
	// NotComparedNoRuns: no run of the experiment could be read.
	NotComparedNoRuns = "no-runs"
)

// NoRunsGate is the gate of an experiment of which no run could be read,
// decided by o's policy: nothing it guards was checked, so a regression
// check meets gate.NoComparison (NotComparedNoRuns) and thresholds meet
// gate.Unknown (Check -1: no check was made). Where either is guarded the
// gate fails; the command fails on the unreadable inputs too.
func NoRunsGate(o Options) Gate {
	p := o.GatePolicy(false)
	var rs []GateReason
	if p.Guards(gate.NoComparison) {
		rs = append(rs, GateReason{Condition: gate.NoComparison, Comparison: -1, Check: -1, Why: NotComparedNoRuns})
	}
	if len(o.SLO) > 0 {
		rs = append(rs, GateReason{Condition: gate.Unknown, Comparison: -1, Check: -1, Why: NotComparedNoRuns})
	}
	return DecideGate(p, o.AllowedRegressionPct(), rs)
}

// whyNotCompared says why system a has no gated comparison against b.
func (v *Verdict) whyNotCompared(a, b string) string {
	shared := false
	for _, s := range v.Systems {
		if s.Label != a {
			continue
		}
		for _, g := range s.Groups {
			gb := v.Group(b, g.Settings)
			if gb != nil && gb.servedNothing() {
				return NotComparedBaselineFailed
			}
			shared = shared || gb != nil
		}
	}
	if shared {
		return NotComparedUngated
	}
	return NotComparedNoSettings
}
