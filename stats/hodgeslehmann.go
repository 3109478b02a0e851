package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// MethodHodgesLehmann is the CI method of HodgesLehmannRatio.
const MethodHodgesLehmann = "hodges-lehmann"

// HodgesLehmannRatio estimates how many times larger x is than y: exp of
// the Hodges-Lehmann shift of ln x against ln y (the median of the m·n
// pairwise differences), with Moses' distribution-free interval, the set of
// shifts the two-sided Mann-Whitney test at 1-level does not reject, so
// estimate and test agree (STATISTICS.md). U's null distribution is exact
// for m+n <= MannWhitneyExactLimit, else normal. level 0 selects
// DefaultLevel. Both samples must be finite and positive with at least 2
// observations each (else ErrEmpty, ErrNotFinite, ErrParameter or a
// *TooFewError); too small for any interval at the level (3 against 3 at
// 95 %), Lo and Hi are 0 and +Inf.
func HodgesLehmannRatio(x, y []float64, level float64) (CI, error) {
	for _, s := range [][]float64{x, y} {
		if err := checkFinite(s); err != nil {
			return CI{}, err
		}
		if len(s) < 2 {
			return CI{}, tooFew("Hodges-Lehmann", 2, len(s))
		}
		for _, v := range s {
			if v <= 0 {
				return CI{}, fmt.Errorf("%w: a ratio needs positive values, have %v", ErrParameter, v)
			}
		}
	}
	_, level, err := ciDefaults(1, level)
	if err != nil {
		return CI{}, err
	}
	m, n := len(x), len(y)
	d := make([]float64, 0, m*n)
	for _, a := range x {
		for _, b := range y {
			d = append(d, math.Log(a)-math.Log(b))
		}
	}
	slices.Sort(d)
	out := CI{Estimate: math.Exp(quantileSorted(d, 0.5)), Lo: 0, Hi: math.Inf(1), Level: level, Method: MethodHodgesLehmann}
	c := mannWhitneyCritical(m, n, (1-level)/2)
	if c >= 0 {
		out.Lo, out.Hi = math.Exp(d[c]), math.Exp(d[m*n-1-c])
	}
	return out, nil
}

// mannWhitneyCritical returns the largest c with P(U <= c) <= tail under
// the null distribution of U for samples of m and n without ties, or -1
// when even P(U <= 0) exceeds tail.
func mannWhitneyCritical(m, n int, tail float64) int {
	if m+n > MannWhitneyExactLimit {
		z := distuv.UnitNormal.Quantile(1 - tail)
		fm, fn := float64(m), float64(n)
		return int(math.Floor(fm*fn/2 - z*math.Sqrt(fm*fn*(fm+fn+1)/12)))
	}
	// count[j][u]: ways to pick j of the first i pooled items (ranks
	// 1..i) so that the picked items' U is u; U of a subset of size j
	// with rank sum s is s - j(j+1)/2. Build counts over rank sums.
	maxSum := m * (m + n + 1)
	count := make([][]float64, m+1)
	for j := range count {
		count[j] = make([]float64, maxSum+1)
	}
	count[0][0] = 1
	for r := 1; r <= m+n; r++ {
		for j := min(r, m); j >= 1; j-- {
			src, dst := count[j-1], count[j]
			for s := maxSum; s >= r; s-- {
				dst[s] += src[s-r]
			}
		}
	}
	base := m * (m + 1) / 2
	var total float64
	for _, c := range count[m] {
		total += c
	}
	c, cum := -1, 0.0
	for u := 0; u+base <= maxSum; u++ {
		cum += count[m][u+base]
		if cum/total > tail*(1+1e-12) {
			break
		}
		c = u
	}
	return c
}
