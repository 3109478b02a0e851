package gate

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Condition is something that fails the gate when asked for (--fail-on).
type Condition string

// The conditions.
const (
	// Regression: a comparison against the baseline found the other
	// system worse, significantly at alpha and outside the practical
	// band, by more than the allowed regression.
	Regression Condition = "regression"
	// ThresholdFailed: a threshold failed (its CI, or its value where
	// there is no CI, on the wrong side of the limit).
	ThresholdFailed Condition = "threshold"
	// Inconclusive: a comparison could not be decided, or no two systems
	// could be compared at all.
	Inconclusive Condition = "inconclusive"
	// Drift: a history's gradual trend whose cumulative change passes
	// the allowed regression.
	Drift Condition = "drift"
)

// Conditions lists the conditions in the order they are documented.
var Conditions = []Condition{Regression, ThresholdFailed, Inconclusive, Drift}

// ParseConditions reads a comma-separated subset of the conditions
// ("regression,threshold"); duplicates are dropped. An empty element or
// an unknown name is an error.
func ParseConditions(s string) ([]Condition, error) {
	var out []Condition
	for _, part := range strings.Split(s, ",") {
		c := Condition(strings.TrimSpace(part))
		if !slices.Contains(Conditions, c) {
			return nil, fmt.Errorf("unknown condition %q: want a comma-separated subset of %s", c, strings.Join(
				[]string{string(Regression), string(ThresholdFailed), string(Inconclusive), string(Drift)}, ","))
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
