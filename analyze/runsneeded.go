package analyze

import "math"

// logChange is the size of the relative difference a ratio a/b stands
// for, as runs per side needs it: |ln(a/b)|. It is the same for a/b and
// b/a, so the runs needed do not depend on which side is the baseline
// (|a/b - 1| is not: 0.8 gives 0.2, its inverse 1.25 gives 0.25), and it
// matches the coefficient of variation the estimate pools, which is the
// standard deviation of ln x to first order. For small differences it is
// the relative difference itself. A ratio of 0 (a side measured nothing)
// is a difference as large as can be, math.MaxFloat64.
func logChange(ratio float64) float64 {
	d := math.Abs(math.Log(ratio))
	if math.IsInf(d, 0) {
		return math.MaxFloat64
	}
	return d
}
