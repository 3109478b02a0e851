package stats

import (
	"math/rand/v2"
	"slices"
)

// normals returns n draws from N(mean, sd²) from a generator seeded by seed.
func normals(seed uint64, n int, mean, sd float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, n)
	for i := range x {
		x[i] = mean + sd*rng.NormFloat64()
	}
	return x
}

// intMedian returns the median of integers (the lower middle for an even
// count), and p95 the 95th percentile (nearest rank).
func intMedian(v []int) int {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

func intPercentile(v []int, p float64) int {
	s := slices.Clone(v)
	slices.Sort(s)
	k := int(p*float64(len(s))+0.999999) - 1
	return s[max(0, min(k, len(s)-1))]
}
