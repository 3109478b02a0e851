package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// MannWhitneyExactLimit is the largest total sample size n1+n2 for which
// MannWhitney computes the exact p-value.
const MannWhitneyExactLimit = 50

// MannWhitney performs the two-sided Mann-Whitney U test (1947) of the
// null hypothesis that x and y come from the same distribution. u is the
// U statistic of x: the pairs with x_i > y_j plus half the ties. For
// n1+n2 <= MannWhitneyExactLimit p is exact (the permutation distribution
// of the mid-rank sum, counted by dynamic programming: conditional on the
// ties); larger samples use the normal approximation with the tie-corrected
// variance and a continuity correction of 1/2. Both samples must be
// non-empty and finite (else ErrEmpty or ErrNotFinite); all observations
// equal give p = 1.
func MannWhitney(x, y []float64) (u, p float64, err error) {
	return mannWhitney(x, y, MannWhitneyExactLimit)
}

// mannWhitney is MannWhitney with the exact p-value up to n1+n2 <= limit.
func mannWhitney(x, y []float64, limit int) (u, p float64, err error) {
	if err := checkFinite(x); err != nil {
		return 0, 0, err
	}
	if err := checkFinite(y); err != nil {
		return 0, 0, err
	}
	n1, n2 := len(x), len(y)
	n := n1 + n2
	type obs struct {
		v   float64
		inX bool
	}
	pool := make([]obs, 0, n)
	for _, v := range x {
		pool = append(pool, obs{v, true})
	}
	for _, v := range y {
		pool = append(pool, obs{v, false})
	}
	slices.SortStableFunc(pool, func(a, b obs) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})

	// Doubled mid-ranks are integers: a tie group over positions i..j-1
	// (1-based ranks i+1..j) has mid-rank (i+1+j)/2.
	rank2 := make([]int, n)
	var w2 int         // doubled rank sum of x
	var tieSum float64 // Σ(t³-t) over tie groups
	for i := 0; i < n; {
		j := i + 1
		for j < n && pool[j].v == pool[i].v {
			j++
		}
		for k := i; k < j; k++ {
			rank2[k] = i + 1 + j
			if pool[k].inX {
				w2 += i + 1 + j
			}
		}
		t := float64(j - i)
		tieSum += t*t*t - t
		i = j
	}
	u = float64(w2)/2 - float64(n1*(n1+1))/2
	if tieSum == float64(n)*float64(n)*float64(n)-float64(n) {
		return u, 1, nil // all equal
	}

	if n <= limit {
		return u, exactRankSumP(rank2, n1, w2), nil
	}

	mu := float64(n1) * float64(n2) / 2
	fn := float64(n)
	sigma := math.Sqrt(float64(n1) * float64(n2) / 12 * ((fn + 1) - tieSum/(fn*(fn-1))))
	z := math.Max(math.Abs(u-mu)-0.5, 0) / sigma
	return u, math.Min(1, 2*distuv.UnitNormal.Survival(z)), nil
}

// exactRankSumP returns the exact two-sided p-value of the doubled rank
// sum w2 of a sample of size k, given the doubled ranks of the pooled
// sample: the fraction of size-k subsets whose doubled rank sum is at least
// as far from its mean as w2. Counts are exact in uint64 (at most
// C(50, 25) < 2^47).
func exactRankSumP(rank2 []int, k, w2 int) float64 {
	n := len(rank2)
	maxSum := n * (n + 1) // doubled sum of all ranks
	// count[j][s]: subsets of the items seen so far with j items and
	// doubled rank sum s; a 0/1 knapsack, j descending.
	count := make([][]uint64, k+1)
	for j := range count {
		count[j] = make([]uint64, maxSum+1)
	}
	count[0][0] = 1
	for i, r := range rank2 {
		for j := min(i+1, k); j >= 1; j-- {
			src, dst := count[j-1], count[j]
			for s := maxSum; s >= r; s-- {
				dst[s] += src[s-r]
			}
		}
	}
	mean2 := k * (n + 1) // doubled mean rank sum
	dev := w2 - mean2
	if dev < 0 {
		dev = -dev
	}
	var total, tail uint64
	for s, c := range count[k] {
		total += c
		d := s - mean2
		if d < 0 {
			d = -d
		}
		if d >= dev {
			tail += c
		}
	}
	return float64(tail) / float64(total)
}
