package stats

import (
	"math"
	"testing"
)

// Fisher's tea-tasting table (3 of 4 against 1 of 4): two-sided p =
// 34/70; all-equal tables give 1.
func TestFisherExact(t *testing.T) {
	p, err := FisherExact(3, 4, 1, 4)
	if err != nil || math.Abs(p-34.0/70) > 1e-9 {
		t.Errorf("tea: p %v %v, want %v", p, err, 34.0/70)
	}
	if p, _ := FisherExact(0, 1000, 0, 1000); p != 1 {
		t.Errorf("0 vs 0: p %v", p)
	}
	if p, _ := FisherExact(60, 3000, 0, 3000); p > 1e-15 {
		t.Errorf("60/3000 vs 0: p %v", p)
	}
}

// The permutation test: exact p 2/C(8,4) for separated 4 vs 4; with more
// relabellings than the limit (10 vs 10: 184756), Monte Carlo, seeded and
// near the exact value for separated samples (2/184756, floored at
// 1/20001).
func TestPermutationMeanDiff(t *testing.T) {
	p, ex, err := PermutationMeanDiff([]float64{0.02, 0.021, 0.019, 0.02}, []float64{0, 0, 0, 0}, 1)
	if err != nil || !ex || math.Abs(p-2.0/70) > 1e-12 {
		t.Errorf("4 vs 4: p %v exhaustive %v %v", p, ex, err)
	}
	var x, y []float64
	for i := range 10 {
		x, y = append(x, 1+float64(i)), append(y, -float64(i))
	}
	p, ex, err = PermutationMeanDiff(x, y, 1)
	if err != nil || ex || p < 1.0/float64(PermutationExactLimit+1) || p > 0.001 {
		t.Errorf("10 vs 10: p %v exhaustive %v %v", p, ex, err)
	}
	if p, _, _ := PermutationMeanDiff([]float64{0, 0, 0}, []float64{0, 0, 0}, 1); p != 1 {
		t.Errorf("all equal: p %v", p)
	}
}

// Binomial runs pass the dispersion test, runs at 0 % and 4 % of 1000
// fail it.
func TestBinomialDispersion(t *testing.T) {
	if _, p := BinomialDispersion([]int64{20, 21, 19}, []int64{1000, 1000, 1000}); p < 0.5 {
		t.Errorf("binomial: p %v", p)
	}
	if _, p := BinomialDispersion([]int64{0, 40, 20}, []int64{1000, 1000, 1000}); p > 1e-6 {
		t.Errorf("overdispersed: p %v", p)
	}
}
