package requests

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestExactLats checks exactLats.at against a sorted copy, at every rank
// of small sets and at many ranks of sets across block boundaries, with
// repeated values and zeros.
func TestExactLats(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 3, 1023, 1024, 1025, 5000, exactBlock - 1, exactBlock, exactBlock + 1, 3*exactBlock + 17} {
		for _, kind := range []string{"lognormal", "few values", "zeros"} {
			var e exactLats
			vals := make([]float64, n)
			for i := range vals {
				switch kind {
				case "lognormal":
					vals[i] = math.Exp(rng.NormFloat64())
				case "few values":
					vals[i] = float64(rng.IntN(7)) / 4
				default:
					vals[i] = 0
				}
				e.add(vals[i])
			}
			if e.len() != n {
				t.Fatalf("%d %s: len %d", n, kind, e.len())
			}
			sorted := slices.Clone(vals)
			slices.Sort(sorted)
			ranks := []int{0, n / 2, n - 1}
			if n <= 5000 {
				ranks = nil
				for i := range n {
					ranks = append(ranks, i)
				}
			} else {
				for range 300 {
					ranks = append(ranks, rng.IntN(n))
				}
			}
			for _, i := range ranks {
				if got := e.at(i); got != sorted[i] {
					t.Fatalf("%d %s: rank %d: %v, want %v", n, kind, i, got, sorted[i])
				}
			}
			// Values added after a query are counted.
			e.add(-0.0 + 1e9)
			if got := e.at(n); got != 1e9 {
				t.Fatalf("%d %s: the largest after an add: %v", n, kind, got)
			}
		}
	}
}

// TestSortLats: sortLats leaves what slices.Sort leaves, bit for bit, on
// non-negative values (radix) and on values with a sign bit or a NaN (the
// fallback), its scratch space reused from call to call.
func TestSortLats(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var keys, tmp []uint64
	for _, n := range []int{0, 1, 2, 255, 256, 1000, 70000} {
		for _, kind := range []string{"lognormal", "ms", "same", "huge", "negative", "nan"} {
			b := make([]float64, n)
			for i := range b {
				switch kind {
				case "lognormal":
					b[i] = math.Exp(3 * rng.NormFloat64())
				case "ms":
					b[i] = float64(rng.IntN(5000000)) / 1e6
				case "same":
					b[i] = 12.5
				case "huge":
					b[i] = []float64{0, math.Inf(1), math.MaxFloat64, math.SmallestNonzeroFloat64, 1}[rng.IntN(5)]
				case "negative":
					b[i] = []float64{math.Copysign(0, -1), 0, 1, -2}[rng.IntN(4)]
				default:
					b[i] = []float64{math.NaN(), 0, 1, 2}[rng.IntN(4)]
				}
			}
			want := slices.Clone(b)
			slices.Sort(want)
			keys, tmp = sortLats(b, keys, tmp)
			for i := range b {
				if math.Float64bits(b[i]) != math.Float64bits(want[i]) {
					t.Fatalf("%d %s: at %d: %v, want %v", n, kind, i, b[i], want[i])
				}
			}
		}
	}
}
