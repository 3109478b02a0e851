package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/report"
)

// duelConditions are the conditions the duel's own decision gives: compare's
// reasons of these, over all the rounds at once, give way to it.
var duelConditions = []gate.Condition{gate.Regression, gate.Inconclusive, gate.NoComparison}

// duelGateRecord is duel.json's "gate": whether the duel's gate failed,
// why, and what was allowed (--allow).
type duelGateRecord struct {
	Failed  bool     `json:"failed"`
	Reasons []string `json:"reasons,omitempty"`
	Allowed []string `json:"allowed,omitempty"`
}

// duelGate is the duel's gate: compare's gate over the same rounds for
// what the rounds are checked against (thresholds, --threshold; error
// rates; --fail-on), with the duel's decision in place of compare's
// regression, inconclusive and no-comparison: b worse by more than the
// allowed regression fails (regression), undecided fails (inconclusive)
// unless its interval, valid at every look, rules out a regression
// beyond the allowed one; each is allowed by --allow as compare's.
func duelGate(v *analyze.Verdict, rec *duelRecord) report.GateOutcome {
	vd := *v
	vd.Gate.Reasons, vd.Gate.Failed = nil, false
	for _, r := range v.Gate.Reasons {
		if !slices.Contains(duelConditions, r.Condition) {
			vd.Gate.Reasons = append(vd.Gate.Reasons, r)
			vd.Gate.Failed = vd.Gate.Failed || r.Fails
		}
	}
	g := report.VerdictGate(&vd)
	c := report.JUnitCase{Class: "loadverdict.duel", Name: fmt.Sprintf("duel: %s of b vs a (the baseline)", report.MetricWords(rec.Metric)), Out: rec.Summary}
	if cond, reason := rec.gateCheck(v.Gate.AllowedPct); cond != "" {
		g, c = withDuelReason(g, c, cond, reason, v.Gate.Policy.Allowed(cond))
	}
	g.JUnit = func(w io.Writer) error { return report.JUnitWith(w, &vd, c) }
	rec.Gate = &duelGateRecord{Failed: g.Failed, Reasons: g.Reasons, Allowed: g.Allowed}
	return g
}

// withDuelReason adds the duel's reason to the gate's outcome and to its
// JUnit case: failing, or allowed.
func withDuelReason(g report.GateOutcome, c report.JUnitCase, cond gate.Condition, reason string, allowed bool) (report.GateOutcome, report.JUnitCase) {
	c.Condition = cond
	if allowed {
		g.Allowed, c.Allowed = append(g.Allowed, reason), []string{reason}
		return g, c
	}
	g.Failed = true
	g.Reasons, c.Fail = append(slices.Clone(g.Reasons), reason), []string{reason}
	return g, c
}

// noComparisonGate is the gate of a duel that completed no round within
// --max-time: nothing compared, which fails closed (no-comparison) unless
// --allow no-comparison.
func noComparisonGate(rec *duelRecord, allow []gate.Condition) report.GateOutcome {
	reason := fmt.Sprintf("no-comparison: no round completed within --max-time %s", time.Duration(rec.MaxTimeS*float64(time.Second)))
	g, c := withDuelReason(report.GateOutcome{}, report.JUnitCase{Class: "loadverdict.duel", Name: "duel: nothing compared"},
		gate.NoComparison, reason, slices.Contains(allow, gate.NoComparison))
	g.JUnit = func(w io.Writer) error { return report.JUnitWith(w, &analyze.Verdict{Experiment: "duel"}, c) }
	return g
}

// gateCheck is the condition the duel's decision meets and its reason
// ("" when none): b worse by more than allowedPct (the allowed
// regression, percent), or undecided with its interval reaching more
// than allowedPct to the worse side (or unbounded).
func (rec *duelRecord) gateCheck(allowedPct float64) (gate.Condition, string) {
	var last duelRound
	if k := len(rec.Rounds); k > 0 {
		last = rec.Rounds[k-1]
	}
	switch rec.Decision {
	case duelBWorse:
		if w := rec.worsePct(last.MeanPct); w != nil && *w <= allowedPct {
			return "", ""
		}
		return gate.Regression, fmt.Sprintf("regression: %s Beyond the allowed %.3g %%.", rec.Summary, allowedPct)
	case duelUndecided:
		far := last.HiPct
		if rec.higherIsBetter {
			far = last.LoPct
		}
		w := rec.worsePct(far)
		if w != nil && *w <= allowedPct {
			return "", ""
		}
		upTo := "a regression of any size cannot be ruled out yet"
		if w != nil {
			upTo = fmt.Sprintf("b could be up to %.1f %% worse, beyond the allowed %.3g %%", *w, allowedPct)
		}
		return gate.Inconclusive, fmt.Sprintf("inconclusive: %s %s.", rec.Summary, upTo)
	}
	return "", ""
}

// worsePct is how much worse b is at a change of pct percent of the
// metric (positive: worse); nil for nil.
func (rec *duelRecord) worsePct(pct *float64) *float64 {
	if pct == nil {
		return nil
	}
	w := *pct
	if rec.higherIsBetter {
		w = -w
	}
	return &w
}
