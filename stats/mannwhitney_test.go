package stats

import (
	"errors"
	"math"
	"math/bits"
	"testing"
)

// TestMannWhitneyAcceptance is acceptance check 5.
func TestMannWhitneyAcceptance(t *testing.T) {
	u, p, err := MannWhitney([]float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10})
	if err != nil {
		t.Fatal(err)
	}
	if u != 0 || math.Abs(p-2.0/252) > 1e-12 {
		t.Errorf("[1..5] vs [6..10]: U = %v, p = %.15g, want 0, %.15g", u, p, 2.0/252)
	}
	// Symmetric: U of the other side is n1·n2 - U, same p.
	u, p2, _ := MannWhitney([]float64{6, 7, 8, 9, 10}, []float64{1, 2, 3, 4, 5})
	if u != 25 || p2 != p {
		t.Errorf("reversed: U = %v, p = %v, want 25, %v", u, p2, p)
	}
	// [1,2,3] vs [4,5,6]: the smallest p-value 3 runs a side can give is
	// 2/20 = 0.1, so no difference can be called (the comparison reports
	// inconclusive: "need >= 4 runs per system").
	_, p, _ = MannWhitney([]float64{1, 2, 3}, []float64{4, 5, 6})
	if math.Abs(p-0.1) > 1e-12 {
		t.Errorf("[1,2,3] vs [4,5,6]: p = %v, want 0.1", p)
	}
	_, p, _ = MannWhitney([]float64{1, 2, 3, 4}, []float64{5, 6, 7, 8})
	if math.Abs(p-2.0/70) > 1e-12 {
		t.Errorf("[1..4] vs [5..8]: p = %v, want 2/70", p)
	}
}

// TestMannWhitneyNull is acceptance check 6: 1000 pairs of 10 runs from
// one distribution, at most 5 % called different at alpha 0.05. The true
// rate is 0.0433 (TestMannWhitneySize), so the count of 1000 has a standard
// deviation of 0.64 %: about one seed in seven exceeds 5 % by chance.
func TestMannWhitneyNull(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo")
	}
	t.Parallel()
	const pairs = 1000
	rng := newRand(DefaultSeed)
	hits := 0
	a, b := make([]float64, 10), make([]float64, 10)
	for range pairs {
		for i := range a {
			a[i] = 1000 + 50*rng.NormFloat64()
			b[i] = 1000 + 50*rng.NormFloat64()
		}
		_, p, err := MannWhitney(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if p < 0.05 {
			hits++
		}
	}
	frac := float64(hits) / pairs
	t.Logf("%.1f %% of null pairs with p < 0.05", 100*frac)
	if frac > 0.05 {
		t.Errorf("%.1f %% of null pairs with p < 0.05, want <= 5 %%", 100*frac)
	}
}

// TestMannWhitneySize computes the size of the exact test for 10 against
// 10 at alpha 0.05 exactly: the null probability of all outcomes with
// p < 0.05, i.e. of U <= 23 or U >= 77, is 2·P(U <= 23) = 0.0433.
func TestMannWhitneySize(t *testing.T) {
	// Under the null every split of the ranks 1..20 is equally likely; the
	// p-value depends only on the split, so enumerate the splits' rank sums
	// with the same recursion and the test's own p-values.
	rank2 := make([]int, 20)
	for i := range rank2 {
		rank2[i] = 2 * (i + 1)
	}
	size := 0.0
	total := 184756.0 // C(20, 10)
	for u := 0; u <= 100; u++ {
		w2 := 2 * (u + 55)
		p := exactRankSumP(rank2, 10, w2)
		if p < 0.05 {
			size += uCount(10, 10, u) / total
		}
	}
	t.Logf("exact size at alpha 0.05, 10 vs 10: %.4f", size)
	if size > 0.05 || math.Abs(size-0.0433) > 0.0001 {
		t.Errorf("size = %v, want 0.0433", size)
	}
}

// uCount is the number of arrangements of m and n observations with
// statistic U = u, by the recursion of Mann & Whitney (1947):
// c(m, n, u) = c(m-1, n, u-n) + c(m, n-1, u).
func uCount(m, n, u int) float64 {
	if u < 0 || u > m*n {
		return 0
	}
	if m == 0 || n == 0 {
		return 1 // u == 0 here
	}
	return uCount(m-1, n, u-n) + uCount(m, n-1, u)
}

// bruteForceP enumerates all splits of the pooled sample: the reference
// for the exact p-value, with or without ties.
func bruteForceP(x, y []float64) float64 {
	pool := append(append([]float64{}, x...), y...)
	n, k := len(pool), len(x)
	// Rank sum by counting: rank of v = #less + (#equal+1)/2.
	rank := make([]float64, n)
	for i, v := range pool {
		var less, eq float64
		for _, w := range pool {
			if w < v {
				less++
			} else if w == v {
				eq++
			}
		}
		rank[i] = less + (eq+1)/2
	}
	var w float64
	for i := range k {
		w += rank[i]
	}
	mean := float64(k) * float64(n+1) / 2
	var tail, total float64
	for mask := uint(0); mask < 1<<n; mask++ {
		if bits.OnesCount(mask) != k {
			continue
		}
		var s float64
		for i := range n {
			if mask&(1<<i) != 0 {
				s += rank[i]
			}
		}
		total++
		if math.Abs(s-mean) >= math.Abs(w-mean)-1e-9 {
			tail++
		}
	}
	return tail / total
}

func TestMannWhitneyExactMatchesEnumeration(t *testing.T) {
	cases := [][2][]float64{
		{{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}},
		{{1, 3, 5, 7}, {2, 4, 6, 8, 10, 12}},
		{{1, 2, 2, 3, 3, 3}, {2, 3, 4, 4, 5}},       // ties across samples
		{{10, 10, 10, 11}, {10, 10, 12, 12, 12, 9}}, // heavy ties
		{{5}, {1, 2, 3, 4, 6, 7}},
		{{1.5, 2.5, 0.5, 3.5, 2.5, 7}, {2.5, 9, 8, 7, 6, 0.5, 4}},
	}
	for _, c := range cases {
		_, p, err := MannWhitney(c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteForceP(c[0], c[1]); math.Abs(p-want) > 1e-12 {
			t.Errorf("%v vs %v: p = %.15g, enumeration %.15g", c[0], c[1], p, want)
		}
	}
}

func TestMannWhitneyNormalApproximation(t *testing.T) {
	// The approximation is close to the exact p-value on the same data.
	for seed := range uint64(5) {
		x := normals(2*seed, 26, 0, 1)
		y := normals(2*seed+1, 25, 0.5, 1)
		_, pa, _ := MannWhitney(x, y) // 51 in all: normal approximation
		_, pe, _ := mannWhitney(x, y, 1000)
		if math.Abs(pa-pe) > 0.005 {
			t.Errorf("seed %d: approximate p %v vs exact p %v", seed, pa, pe)
		}
	}
	// Complete separation of 30 and 30: U = 0, z ≈ 6.65, p ≈ 3e-11.
	a, b := make([]float64, 30), make([]float64, 30)
	for i := range a {
		a[i], b[i] = float64(i), float64(100+i)
	}
	u, p, _ := MannWhitney(a, b)
	if u != 0 || p > 1e-10 || p <= 0 {
		t.Errorf("separated 30 vs 30: U = %v, p = %v", u, p)
	}
	// All tied: p = 1.
	if _, p, _ := MannWhitney(make([]float64, 40), make([]float64, 40)); p != 1 {
		t.Errorf("all tied: p = %v, want 1", p)
	}
	if _, p, _ := MannWhitney([]float64{3, 3}, []float64{3}); p != 1 {
		t.Errorf("all tied, small: p = %v, want 1", p)
	}
}

func TestMannWhitneyErrors(t *testing.T) {
	if _, _, err := MannWhitney(nil, []float64{1}); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v", err)
	}
	if _, _, err := MannWhitney([]float64{1}, []float64{math.NaN()}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: %v", err)
	}
}
