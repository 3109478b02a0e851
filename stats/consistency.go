package stats

import (
	"cmp"
	"math"
	"slices"
)

// DefaultBoundsSlack is the relative slack of CheckMean: printed figures
// are rounded and histogram percentiles approximate, so only a mean more
// than 10 % (and 0.01 units) outside its bounds is a contradiction.
const DefaultBoundsSlack = 0.10

// boundsAbsSlack is CheckMean's absolute slack, in the units of the data
// (0.01 ms for latencies: the last digit tools print).
const boundsAbsSlack = 0.01

// Quantile is one point of a distribution: the value at quantile Q.
type Quantile struct {
	Q, Value float64
}

// MeanCheck is the result of CheckMean.
type MeanCheck struct {
	// Lo and Hi bound the mean of any distribution with the given
	// quantiles, minimum and maximum.
	Lo, Hi float64
	// Possible is false when the mean lies outside [Lo, Hi] by more than
	// the slack, or the quantiles decrease, or lie outside [min, max]:
	// the figures cannot all describe one distribution.
	Possible bool
	// Disordered is true when the quantiles decrease with Q or lie
	// outside [min, max] (beyond the slack).
	Disordered bool
}

// CheckMean asks whether a distribution's reported mean, minimum, maximum
// and quantiles can describe one distribution (e.g. a run's latencies as
// its load generator printed them). At least a share q of the
// observations lie at or below the q-quantile v and the rest at or below
// the maximum, so the mean is at most q·v + (1-q)·max; at least 1-q lie
// at or above v and the rest at or above the minimum, so it is at least
// (1-q)·v + q·min. Lo and Hi are the tightest of these bounds over the
// quantiles given (the Markov and "reverse Markov" bounds of an
// elementary probability text, e.g. Feller, vol. II, §V.7).
//
// min and max may be NaN when unknown (0 and +Inf are used: the data are
// non-negative). slack <= 0 selects DefaultBoundsSlack; a mean outside
// [Lo·(1-slack) - 0.01, Hi·(1+slack) + 0.01] is impossible. Quantiles with
// Q outside [0, 1] or a non-finite value are ignored.
func CheckMean(mean, min, max float64, qs []Quantile, slack float64) MeanCheck {
	if !(slack > 0) {
		slack = DefaultBoundsSlack
	}
	if math.IsNaN(min) || min < 0 {
		min = 0
	}
	if math.IsNaN(max) {
		max = math.Inf(1)
	}
	c := MeanCheck{Lo: min, Hi: max, Possible: true}
	pts := slices.Clone(qs)
	slices.SortFunc(pts, func(a, b Quantile) int { return cmp.Compare(a.Q, b.Q) })
	prev := math.Inf(-1)
	for _, p := range pts {
		if p.Q < 0 || p.Q > 1 || !finite(p.Value) {
			continue
		}
		v := p.Value
		if v < prev*(1-slack)-boundsAbsSlack || v < min*(1-slack)-boundsAbsSlack || v > max*(1+slack)+boundsAbsSlack {
			c.Disordered = true
		}
		prev = math.Max(prev, v)
		c.Lo = math.Max(c.Lo, (1-p.Q)*v+p.Q*min)
		if hi := p.Q*v + (1-p.Q)*max; hi < c.Hi {
			c.Hi = hi
		}
	}
	if finite(mean) && (mean > c.Hi*(1+slack)+boundsAbsSlack || mean < c.Lo*(1-slack)-boundsAbsSlack) {
		c.Possible = false
	}
	if c.Disordered {
		c.Possible = false
	}
	return c
}
