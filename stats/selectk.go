package stats

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// selectK reorders s so that s[k] is what a sorted copy holds at index
// k (slices.Sort's order: NaNs first), none before it greater and none
// after it less: a quickselect with three-way partitions (repeated
// values cost one pass), which sorts what is left of s once it has
// partitioned about 2 log2(len(s)) times, so it never costs more than a
// sort. It costs O(len(s)) on average where a sort costs O(n log n).
func selectK[F float32 | float64](s []F, k int) {
	lo, hi := 0, len(s) // s[k] is among s[lo:hi]
	budget := 2 * bits.Len(uint(len(s)))
	for hi-lo > 16 {
		if budget == 0 {
			slices.Sort(s[lo:hi])
			return
		}
		budget--
		m := lo + (hi-lo)/2
		p := medianOf3(s[lo], s[m], s[hi-1])
		// s[lo:lt] < p, s[lt:i] == p, s[gt:hi] > p.
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch c := cmp.Compare(s[i], p); {
			case c < 0:
				s[lt], s[i] = s[i], s[lt]
				lt++
				i++
			case c > 0:
				gt--
				s[i], s[gt] = s[gt], s[i]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return // s[k] == p
		}
	}
	slices.Sort(s[lo:hi])
}

// medianOf3 returns the middle of a, b and c in cmp.Compare's order.
func medianOf3[F float32 | float64](a, b, c F) F {
	if cmp.Less(b, a) {
		a, b = b, a
	}
	if cmp.Less(c, b) {
		b = c
		if cmp.Less(b, a) {
			b = a
		}
	}
	return b
}

// minOf returns the least of s (not empty) in cmp.Compare's order.
func minOf[F float32 | float64](s []F) F {
	m := s[0]
	for _, v := range s[1:] {
		if cmp.Less(v, m) {
			m = v
		}
	}
	return m
}

// median is Median of x's values as float64 (a float32 converts to the
// float64 of the same value, in the same order).
func median[F float32 | float64](x []F) float64 {
	n := len(x)
	switch n {
	case 0:
		return math.NaN()
	case 1:
		return float64(x[0])
	}
	// The two values quantileSorted reads of a sorted copy, found by a
	// selection, in its very arithmetic: the same median, in linear time.
	s := slices.Clone(x)
	h := 0.5 * float64(n-1)
	lo := int(math.Floor(h))
	selectK(s, lo)
	a, b := float64(s[lo]), float64(minOf(s[lo+1:]))
	return a + (h-float64(lo))*(b-a)
}
