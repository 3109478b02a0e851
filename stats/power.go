package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultAlpha is the default significance level of comparisons.
const DefaultAlpha = 0.05

// DefaultPower is the default power of RunsPerSide.
const DefaultPower = 0.80

// MinRunsPerSide is the fewest runs per system with which the exact
// two-sided Mann-Whitney test can reach p < 0.05: with 3 against 3 the
// smallest p-value is 2/C(6,3) = 0.1, with 4 against 4 it is 2/C(8,4) =
// 0.029.
const MinRunsPerSide = 4

// MinAttainableP returns the smallest two-sided p-value the exact
// Mann-Whitney test (MannWhitney) can give for samples of m and n without
// ties: 2/C(m+n, m), the probability of the two most extreme rank
// assignments, capped at 1 (Mann & Whitney 1947; Hollander & Wolfe,
// "Nonparametric Statistical Methods", 1999, §4.1). A comparison of m
// against n runs can be decided at alpha only when this is below alpha:
// 3 against 3 gives 2/20 = 0.1, 4 against 4 2/70 = 0.029, 3 against 8
// 2/165 = 0.012. Sizes below 1 give 1.
func MinAttainableP(m, n int) float64 {
	if m < 1 || n < 1 {
		return 1
	}
	// C(m+n, m) as a product in floating point: exact for the sizes of
	// interest, and its size only matters against alpha.
	c := 1.0
	k := min(m, n)
	for i := 1; i <= k; i++ {
		c = c * float64(m+n-k+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// MinRunsFor returns the fewest runs per side with which the exact
// two-sided Mann-Whitney test of equal sizes can reach p < alpha: the
// smallest n with MinAttainableP(n, n) < alpha (4 at alpha 0.05, 5 at
// 0.01). alpha <= 0 or NaN selects DefaultAlpha; the result is at most
// maxRuns.
func MinRunsFor(alpha float64) int {
	if !(alpha > 0) {
		alpha = DefaultAlpha
	}
	for n := 1; n < 64; n++ {
		if MinAttainableP(n, n) < alpha {
			return n
		}
	}
	return 64 // 2/C(128, 64) is about 1e-37: no alpha of use is smaller
}

// maxRuns caps RunsPerSide when the difference is tiny against the noise.
const maxRuns = math.MaxInt32

// RunsPerSide returns the runs per system needed to detect a relative
// difference delta between two means at level alpha with the given power
// when runs vary with coefficient of variation cv (fractions):
// n = ceil(2·((z_{1-α/2} + z_{power})·cv/δ)²), the normal-approximation
// size of a two-sample comparison (Chow, Shao & Wang 2008, §3.2), at least
// MinRunsFor(alpha), below which the exact Mann-Whitney test cannot reach
// p < alpha. alpha <= 0 and power <= 0 select DefaultAlpha and
// DefaultPower; both must be below 1, cv >= 0 and finite, delta non-zero
// and finite (sign ignored), else ErrParameter. Capped at math.MaxInt32.
func RunsPerSide(cv, delta, alpha, power float64) (int, error) {
	if alpha == 0 || math.IsNaN(alpha) {
		alpha = DefaultAlpha
	}
	if power == 0 || math.IsNaN(power) {
		power = DefaultPower
	}
	switch {
	case alpha <= 0 || alpha >= 1:
		return 0, fmt.Errorf("%w: alpha %v not in (0, 1)", ErrParameter, alpha)
	case power <= 0 || power >= 1:
		return 0, fmt.Errorf("%w: power %v not in (0, 1)", ErrParameter, power)
	case !(cv >= 0) || math.IsInf(cv, 0):
		return 0, fmt.Errorf("%w: cv %v must be finite and >= 0", ErrParameter, cv)
	case delta == 0 || math.IsNaN(delta) || math.IsInf(delta, 0):
		return 0, fmt.Errorf("%w: difference %v must be finite and non-zero", ErrParameter, delta)
	}
	z := distuv.UnitNormal.Quantile(1-alpha/2) + distuv.UnitNormal.Quantile(power)
	r := z * cv / math.Abs(delta)
	n := math.Ceil(2 * r * r)
	if n >= maxRuns {
		return maxRuns, nil
	}
	return max(int(n), MinRunsFor(alpha)), nil
}
