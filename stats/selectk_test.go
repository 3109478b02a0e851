package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMedianAsSorted: Median (a selection) returns what quantileSorted
// returns of a sorted copy (the same value; of two equal zeros a sort
// and a selection may place either sign first), on inputs with repeats, ties,
// NaNs, infinities and both zeros, of every small length and some large
// ones, and leaves its input as it was.
func TestMedianAsSorted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gens := map[string]func(i int) float64{
		"uniform":   func(int) float64 { return r.Float64() },
		"repeats":   func(int) float64 { return float64(r.IntN(4)) },
		"constant":  func(int) float64 { return 3 },
		"ascending": func(i int) float64 { return float64(i) },
		"desc":      func(i int) float64 { return -float64(i) },
		"lognormal": func(int) float64 { return math.Exp(r.NormFloat64()) },
		"special": func(int) float64 {
			return []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, 1}[r.IntN(7)]
		},
		"inf-top": func(i int) float64 {
			if i%2 == 0 {
				return math.Inf(1)
			}
			return 1
		},
	}
	for name, gen := range gens {
		for _, n := range append([]int{1, 2, 3, 4, 5, 16, 17, 18, 33, 100, 101}, 1000, 1001, 65537) {
			x := make([]float64, n)
			for i := range x {
				x[i] = gen(i)
			}
			orig := slices.Clone(x)
			s := slices.Clone(x)
			slices.Sort(s)
			want, got := quantileSorted(s, 0.5), Median(x)
			if want != got && !(math.IsNaN(want) && math.IsNaN(got)) {
				t.Errorf("%s, n=%d: Median %v, sorted %v", name, n, got, want)
			}
			if !slices.EqualFunc(x, orig, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
				t.Errorf("%s, n=%d: input modified", name, n)
			}
		}
	}
}

// TestSelectK: s[k] after selectK is the sorted copy's, nothing before
// it greater, nothing after it less.
func TestSelectK(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 17, 100, 5000} {
		for range 20 {
			x := make([]float64, n)
			for i := range x {
				x[i] = float64(r.IntN(n/3 + 1))
			}
			s := slices.Sorted(slices.Values(x))
			k := r.IntN(n)
			selectK(x, k)
			if x[k] != s[k] || slices.Max(x[:k+1]) != x[k] || slices.Min(x[k:]) != x[k] {
				t.Fatalf("n=%d k=%d: s[k]=%v, want %v", n, k, x[k], s[k])
			}
		}
	}
}
