package gate

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Condition is something that fails the gate (see Policy).
type Condition string

// The conditions.
const (
	// Regression: a comparison against the baseline found the other
	// system worse, significantly at alpha and outside the practical
	// band, by more than the allowed regression.
	Regression Condition = "regression"
	// ThresholdFailed: a threshold failed: its value (the mean or median
	// over the steady runs) lies on the wrong side of the limit, whatever
	// its CI (as k6 fails on the value).
	ThresholdFailed Condition = "threshold"
	// Marginal: a threshold whose value meets the limit but whose CI over
	// the runs reaches past it: the runs cannot show that it holds.
	Marginal Condition = "marginal"
	// Inconclusive: a comparison (or history check) could not be decided
	// and cannot rule out a regression beyond the allowed one: it "could
	// be up to X % worse".
	Inconclusive Condition = "inconclusive"
	// Unknown: a threshold that could not be evaluated (no run measured
	// its metric).
	Unknown Condition = "unknown"
	// NoComparison: a comparison or regression check was asked for and
	// nothing could be compared (no two systems at equal settings, or a
	// system without a comparison against the baseline).
	NoComparison Condition = "no-comparison"
	// Errors: a comparison against the baseline found the other
	// system's error rate higher: its test over runs shows the
	// difference at alpha and its estimate lies beyond the error band
	// (in points), decided or not (analyze.ErrorComparison.ErrorsWorse).
	Errors Condition = "errors"
	// Drift: history: a gradual trend over the experiments whose
	// cumulative change passes the allowed regression.
	Drift Condition = "drift"
)

// Conditions lists the conditions in the order they are documented.
var Conditions = []Condition{Regression, ThresholdFailed, Marginal, Inconclusive, Unknown, NoComparison, Drift, Errors}

// ThresholdConditions fail the gate whenever thresholds are given, and
// RegressionConditions whenever a regression check is asked for (see
// Policy).
var (
	ThresholdConditions  = []Condition{ThresholdFailed, Marginal, Unknown}
	RegressionConditions = []Condition{Regression, Inconclusive, NoComparison, Drift, Errors}
)

// Policy is the gate's one rule of what fails it, shared by report,
// compare and history (analyze builds it from the options). It fails
// closed: given thresholds guard ThresholdConditions, a regression check
// asked for (--fail-on regression, a baseline, history's gate) guards
// RegressionConditions; FailOn (--fail-on, gate.fail_on) adds conditions,
// Allow (--allow, gate.allow) removes them by name and beats the rest (a
// condition met but allowed is still reported, as allowed). The table of
// conditions: docs/GATE.md.
type Policy struct {
	// Thresholds is true when thresholds are given.
	Thresholds bool
	// RegressionCheck is true when a regression check is asked for.
	RegressionCheck bool
	// FailOn are conditions added explicitly.
	FailOn []Condition
	// Allow are conditions removed by name.
	Allow []Condition
}

// Guards reports whether condition c fails the gate unless allowed: it
// is asked for, by the thresholds, the regression check or FailOn.
func (p Policy) Guards(c Condition) bool {
	return p.Thresholds && slices.Contains(ThresholdConditions, c) ||
		p.RegressionCheck && slices.Contains(RegressionConditions, c) ||
		slices.Contains(p.FailOn, c)
}

// Fails reports whether condition c, when met, fails the gate: it is
// guarded and not allowed.
func (p Policy) Fails(c Condition) bool { return p.Guards(c) && !p.Allowed(c) }

// Allowed reports whether c is allowed by name: met, it does not fail.
func (p Policy) Allowed(c Condition) bool { return slices.Contains(p.Allow, c) }

// Failing returns the conditions that fail the gate, in the documented
// order (empty when nothing is guarded).
func (p Policy) Failing() []Condition {
	var out []Condition
	for _, c := range Conditions {
		if p.Fails(c) {
			out = append(out, c)
		}
	}
	return out
}

// ParseConditions reads a comma-separated subset of the conditions
// ("regression,threshold"); duplicates are dropped. An empty element or
// an unknown name is an error.
func ParseConditions(s string) ([]Condition, error) {
	var out []Condition
	for _, part := range strings.Split(s, ",") {
		c := Condition(strings.TrimSpace(part))
		if !slices.Contains(Conditions, c) {
			names := make([]string, len(Conditions))
			for i, k := range Conditions {
				names[i] = string(k)
			}
			return nil, fmt.Errorf("unknown condition %q: want a comma-separated subset of %s", c, strings.Join(names, ","))
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// ParsePercent reads a percentage >= 0, "5" or "5%".
func ParsePercent(s string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%")), 64)
	if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("want a percentage >= 0 such as 5 or 5%%, got %q", s)
	}
	return x, nil
}
