package stats

import (
	"math/rand/v2"
	"os"
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

// draws is the number of Monte-Carlo draws a test makes: n by default,
// whole when CI asks for the long checks (LOADVERDICT_LONG set, as
// .ci/run does). The draws are seeded, so either count gives the same
// result every run; the figures docs/STATISTICS.md quotes are whole's.
func draws(n, whole int) int {
	if os.Getenv("LOADVERDICT_LONG") != "" {
		return whole
	}
	return n
}
