package report

import (
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/results"
)

// This file words the thresholds and the gate: their checks, values and
// the reasons the gate fails.

// metricWords names a compared or limited metric for people.
func metricWords(m string) string {
	switch m {
	case analyze.MetricRPS:
		return "throughput"
	case analyze.MetricLatMeanMs:
		return "mean latency"
	case analyze.MetricLatP99Ms:
		return "p99 latency"
	case analyze.MetricLatMaxMs:
		return "max latency"
	case string(gate.LatP50Ms):
		return "p50 latency"
	case string(gate.LatP90Ms):
		return "p90 latency"
	case string(gate.LatP999Ms):
		return "p99.9 latency"
	case string(gate.ErrorRate):
		return "error rate"
	}
	return m
}

// metricValue formats a value of a metric with its unit: "3544 req/s",
// "42.12 ms", "1.5 %".
func metricValue(m string, x float64) string {
	switch {
	case m == analyze.MetricRPS:
		return num(x) + " req/s"
	case m == string(gate.ErrorRate):
		return rel(100*x) + " %"
	}
	return num(x) + " ms"
}

// metricRange formats an interval of a metric with its unit.
func metricRange(m string, lo, hi float64) string {
	switch {
	case m == analyze.MetricRPS:
		return numRange(lo, hi) + " req/s"
	case m == string(gate.ErrorRate):
		return relRange(100*lo, 100*hi) + " %"
	}
	return numRange(lo, hi) + " ms"
}

// thresholdOf returns the threshold a check is of.
func thresholdOf(v *analyze.Verdict, c analyze.ThresholdCheck) gate.Threshold {
	return v.Options.SLO[c.Threshold]
}

// checkValue words a check's value and what it rests on: "42.12 ms over
// 2 steady runs (a CI needs 4)", "1000 req/s over 6 steady runs, 95 % CI
// 995-1005 req/s", "600 req/s in the last run (no steady state)", "not
// measured by 6 of 6 runs".
func checkValue(v *analyze.Verdict, c analyze.ThresholdCheck) string {
	m := string(thresholdOf(v, c).Metric)
	switch {
	case c.Status == analyze.ThresholdUnknown || c.Value == nil:
		return fmt.Sprintf("not measured by %d of %s", c.Missing, plural(c.Runs, "run"))
	case !c.Steady:
		return fmt.Sprintf("%s in the last run (no steady state)", metricValue(m, *c.Value))
	case c.CI != nil:
		return fmt.Sprintf("%s (%s of %s), %s %% CI %s", metricValue(m, *c.Value), aggregateWord(c.Aggregate), plural(c.Runs, "steady run"),
			rel(100*c.CI.Level), metricRange(m, c.CI.Lo, c.CI.Hi))
	case c.CINeed > 0:
		return fmt.Sprintf("%s (%s of %s; a CI needs %d)", metricValue(m, *c.Value), aggregateWord(c.Aggregate), plural(c.Runs, "steady run"), c.CINeed)
	}
	return fmt.Sprintf("%s (%s of %s)", metricValue(m, *c.Value), aggregateWord(c.Aggregate), plural(c.Runs, "steady run"))
}

// checkLine words a check in one line: "lat_mean_ms<30: localhost:80 at
// 100 connections, 10 threads, 10 s, wrk: fail, 42.12 ms over 2 steady
// runs (a CI needs 4)".
func checkLine(v *analyze.Verdict, c analyze.ThresholdCheck) string {
	return fmt.Sprintf("%s: %s at %s: %s, %s", thresholdOf(v, c).Expr, c.System, settingsText(c.Settings), c.Status, checkValue(v, c))
}

// GateReasons words the reasons the gate failed, one line each (none
// when it passed): what stderr shows and summary.json's gate.reasons
// with fails true.
func GateReasons(v *analyze.Verdict) []string {
	var out []string
	for _, r := range v.Gate.Reasons {
		if r.Fails {
			out = append(out, gateReasonText(v, r))
		}
	}
	return out
}

// AllowedReasons words the conditions met that would have failed the
// gate but were allowed by name (--allow, gate.allow), one line each.
func AllowedReasons(v *analyze.Verdict) []string {
	var out []string
	for _, r := range v.Gate.Reasons {
		if r.Allowed {
			out = append(out, gateReasonText(v, r))
		}
	}
	return out
}

// gateReasonText words one condition the verdict meets.
func gateReasonText(v *analyze.Verdict, r analyze.GateReason) string {
	switch r.Condition {
	case gate.Regression:
		c := v.Comparisons[r.Comparison]
		return fmt.Sprintf("regression: %s of %s is %s %% worse than %s (the baseline) at %s (ratio %s%s, p = %s), beyond the allowed %s %%",
			metricWords(c.Metric), c.A, rel(r.WorsePct), c.B, settingsText(c.Settings), rel(c.Deciding.Ratio), ciText(c.Estimate, ", "), relP(c.PValue), rel(r.MaxPct))
	case gate.ThresholdFailed:
		return "threshold failed: " + checkLine(v, v.Thresholds[r.Check])
	case gate.Marginal:
		c := v.Thresholds[r.Check]
		return fmt.Sprintf("marginal: %s: the runs cannot show that %s holds", checkLine(v, c), thresholdOf(v, c).Expr)
	case gate.Unknown:
		return "unknown: threshold could not be evaluated: " + checkLine(v, v.Thresholds[r.Check])
	case gate.Inconclusive:
		c := v.Comparisons[r.Comparison]
		upTo := fmt.Sprintf("could be up to %s %% worse, beyond the allowed %s %%", rel(r.WorsePct), rel(r.MaxPct))
		if r.Unbounded {
			upTo = "untested, so a regression of any size cannot be ruled out"
		}
		return fmt.Sprintf("inconclusive: %s of %s vs %s at %s %s: %s", metricWords(c.Metric), c.A, c.B, settingsText(c.Settings), upTo,
			strings.Join(reasonLines(c.Reasons, true), "; "))
	case gate.NoComparison:
		return "no-comparison: " + verdictNoComparisonText(v, r)
	case gate.Errors:
		e := v.ErrorComparisons[r.Comparison]
		if e.Untested != "" {
			return fmt.Sprintf("errors: the error rate of %s is %s pts above %s (the baseline) at %s, beyond the ±%s pts band, and untested (too few runs, which vary beyond chance), so it cannot be ruled out",
				e.A, signed(e.DiffPts), e.B, settingsText(e.Settings), rel(e.BandPts))
		}
		return "errors: " + errorComparisonText(e, v.Options.Level)
	}
	return string(r.Condition)
}

// gateAsked reports whether the verdict's gate guards anything (or
// allowed something): only then is it shown.
func gateAsked(v *analyze.Verdict) bool { return policyAsked(v.Gate.Policy) }

// policyAsked reports whether a gate of policy p guards anything (or
// allows something).
func policyAsked(p gate.Policy) bool { return len(p.Failing()) > 0 || len(p.Allow) > 0 }

// gatePolicyText words what the gate fails on and what was allowed:
// "fails on regression, inconclusive, no-comparison; allows unknown".
// Drift, a history condition, is left out of a verdict's (history
// words its own gate).
func gatePolicyText(p gate.Policy) string {
	var on, allowed []string
	for _, c := range p.Failing() {
		if c != gate.Drift {
			on = append(on, string(c))
		}
	}
	for _, c := range p.Allow {
		allowed = append(allowed, string(c))
	}
	s := "fails on " + strings.Join(on, ", ")
	if len(on) == 0 {
		s = "fails on nothing"
	}
	if len(allowed) > 0 {
		s += "; allows " + strings.Join(allowed, ", ")
	}
	return s
}

// gateSummary words the gate's outcome in one line, for people: "passed
// (fails on regression, ...)", "failed (fails on regression, ...): ..."
// with at most limit reasons (none and a colon for 0, the reasons to
// follow), then what was allowed that would have failed it.
func gateSummary(v *analyze.Verdict, limit int) string {
	pol := gatePolicyText(v.Gate.Policy)
	allowed := AllowedReasons(v)
	tail := ""
	if n := len(allowed); n > 0 && limit != 0 {
		tail = fmt.Sprintf("; allowed (%d): %s", n, strings.Join(allowed[:min(n, max(limit, 1))], "; "))
		if n > limit && limit > 0 {
			tail += fmt.Sprintf("; and %d more allowed", n-limit)
		}
	}
	if !v.Gate.Failed {
		if len(allowed) > 0 && limit == 0 {
			return fmt.Sprintf("passed (%s), with %d allowed:", pol, len(allowed))
		}
		return fmt.Sprintf("passed (%s)%s", pol, tail)
	}
	reasons := GateReasons(v)
	if limit == 0 {
		return fmt.Sprintf("failed (%s):", pol)
	}
	more := ""
	if len(reasons) > limit {
		more = fmt.Sprintf("; and %d more", len(reasons)-limit)
		reasons = reasons[:limit]
	}
	return fmt.Sprintf("failed (%s): %s%s%s", pol, strings.Join(reasons, "; "), more, tail)
}

// verdictNoComparisonText words what a regression check could not compare.
func verdictNoComparisonText(v *analyze.Verdict, r analyze.GateReason) string {
	base := v.Options.Baseline
	switch {
	case r.Why == analyze.NotComparedOnlyBaseline:
		return fmt.Sprintf("%s (the baseline) is the only system, so nothing was compared with it", base)
	case r.Why == analyze.NotComparedBaselineFailed:
		return fmt.Sprintf("every request of %s (the baseline) failed where it ran with %s, so %s was not compared with it", base, r.System, r.System)
	case r.Why == analyze.NotComparedUngated:
		return fmt.Sprintf("%s was compared with %s (the baseline) on no metric the gate reads (%s), so it was not checked", r.System, base, gatedMetricsText(v))
	case r.System != "":
		return fmt.Sprintf("%s shares no settings with %s (the baseline), so it was not compared", r.System, base)
	case len(v.Systems) < 2:
		return "only one system ran, so nothing was compared"
	case len(v.Comparisons) > 0:
		return fmt.Sprintf("no two systems were compared on a metric the gate reads (%s), so nothing was checked", gatedMetricsText(v))
	}
	return "no two systems ran at the same settings, so nothing was compared"
}

// gatedMetricsText names the metrics a comparison is gated on, by the
// load models of the verdict's comparisons.
func gatedMetricsText(v *analyze.Verdict) string {
	for _, c := range v.Comparisons {
		if c.Settings.LoadModel != results.LoadClosed {
			return "throughput, mean, p50 or p99 latency, none of which both sides measured"
		}
	}
	return "throughput, which a side did not measure: under a closed model only throughput gates"
}

// errorComparisonText words an error comparison whose side a has more
// errors: "the error rate of new is +2.00 pts above old (the baseline)
// at ...: 0 % -> 2.00 % (95 % CI +1.98 to +2.02 pts, p = 0.0079,
// permutation test over 5 and 5 runs), beyond the ±0.1 pts band".
func errorComparisonText(e analyze.ErrorComparison, level float64) string {
	ci := ""
	if e.Lo != nil && e.Hi != nil {
		ci = fmt.Sprintf("%s %% CI %s to %s pts, ", rel(100*level), signed(*e.Lo), signed(*e.Hi))
	}
	return fmt.Sprintf("the error rate of %s is %s pts above %s (the baseline) at %s: %s -> %s (%sp = %s, %s over %d and %d runs), beyond the ±%s pts band",
		e.A, signed(e.DiffPts), e.B, settingsText(e.Settings), metricValue(string(gate.ErrorRate), e.BRate), metricValue(string(gate.ErrorRate), e.ARate),
		ci, relP(e.PValue), errorTestWords(e.Method), e.BRuns, e.ARuns, rel(e.BandPts))
}

// errorTestWords names an error comparison's test.
func errorTestWords(m string) string {
	switch m {
	case analyze.ErrorTestPermutation:
		return "exact permutation test"
	case analyze.ErrorTestPermutationMC:
		return "permutation test (random relabellings)"
	case analyze.ErrorTestFisherPooled:
		return "Fisher's exact test of the pooled requests"
	}
	return "untested"
}
