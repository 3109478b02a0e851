package stats

import (
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// MethodOrderStatistics is the CI method of MedianCI.
const MethodOrderStatistics = "order-statistics"

// MedianCI returns the distribution-free confidence interval of the
// median of x from its order statistics (Conover, "Practical
// Nonparametric Statistics", 3rd ed. 1999, §3.2): [x(k), x(n+1-k)] with
// the largest k whose coverage 1 - 2·P(B <= k-1), B ~ Binomial(n, 1/2),
// is still at least level. The coverage is exact for any continuous
// distribution, and at least level, so the interval is conservative.
// Estimate is Median(x).
//
// level 0 selects DefaultLevel (0.95); other levels must lie in (0, 1).
// x must be finite; with too few observations for any k (fewer than 6 at
// 0.95: 1 - 2/2^5 = 0.9375) the error is a *TooFewError.
func MedianCI(x []float64, level float64) (CI, error) {
	if err := checkFinite(x); err != nil {
		return CI{}, err
	}
	_, level, err := ciDefaults(1, level)
	if err != nil {
		return CI{}, err
	}
	n := len(x)
	b := distuv.Binomial{N: float64(n), P: 0.5}
	k := 0
	for j := 1; 2*j <= n+1; j++ {
		if 1-2*b.CDF(float64(j-1)) < level {
			break
		}
		k = j
	}
	if k == 0 {
		need := n + 1
		for ; ; need++ {
			if nb := (distuv.Binomial{N: float64(need), P: 0.5}); 1-2*nb.CDF(0) >= level {
				break
			}
		}
		return CI{}, tooFew("median CI", need, n)
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return CI{Estimate: Median(x), Lo: s[k-1], Hi: s[n-k], Level: level, Method: MethodOrderStatistics}, nil
}
