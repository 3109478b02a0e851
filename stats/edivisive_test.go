package stats

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// bruteQ is Q̂ of X = z[s:t], Y = z[t:k] straight from the definition of
// Matteson & James (2014): every pair summed, C(m,2) and C(n,2) over the
// pairs i < k.
func bruteQ(z []float64, s, t, k int, alpha float64) float64 {
	x, y := z[s:t], z[t:k]
	m, n := float64(len(x)), float64(len(y))
	var between, wx, wy float64
	for _, a := range x {
		for _, b := range y {
			between += math.Pow(math.Abs(a-b), alpha)
		}
	}
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			wx += math.Pow(math.Abs(x[i]-x[j]), alpha)
		}
	}
	for i := range y {
		for j := i + 1; j < len(y); j++ {
			wy += math.Pow(math.Abs(y[i]-y[j]), alpha)
		}
	}
	e := 2*between/(m*n) - wx/(m*(m-1)/2) - wy/(n*(n-1)/2)
	return m * n / (m + n) * e
}

// bruteBest is the best split (τ, κ) of the whole series over the allowed
// boundaries, each side at least minBlocks blocks and 2 observations.
func bruteBest(z []float64, bounds []int, minBlocks int, alpha float64) (t, k int, q float64) {
	q = math.Inf(-1)
	for ti := minBlocks; ti < len(bounds); ti++ {
		for ki := ti + minBlocks; ki < len(bounds); ki++ {
			tt, kk := bounds[ti], bounds[ki]
			if tt < 2 || kk-tt < 2 {
				continue
			}
			if v := bruteQ(z, 0, tt, kk, alpha); v > q {
				t, k, q = tt, kk, v
			}
		}
	}
	return t, k, q
}

// firstCandidate returns the first split EDivisive tested.
func firstCandidate(t *testing.T, z []float64, o EDivisiveOptions) EChange {
	t.Helper()
	r, err := EDivisive(z, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changes) > 0 {
		return r.Changes[0]
	}
	if r.Rejected == nil {
		t.Fatal("no candidate tested")
	}
	return *r.Rejected
}

// TestEDivisiveMatchesDefinition checks the statistic and the chosen
// split against the brute-force definition, with and without blocks and
// for several moment indices.
func TestEDivisiveMatchesDefinition(t *testing.T) {
	series := []float64{10.2, 9.7, 10.4, 9.9, 10.1, 13.8, 14.3, 13.6, 14.1, 9.8, 10.3, 10.0}
	for _, tc := range []struct {
		name   string
		blocks []int
		minB   int
		alpha  float64
	}{
		{"observations, alpha 1", nil, 2, 1},
		{"observations, alpha 0.5", nil, 2, 0.5},
		{"observations, alpha 2", nil, 3, 2},
		{"blocks of 3, alpha 1", []int{3, 3, 3, 3}, 1, 1},
		{"uneven blocks", []int{2, 3, 4, 3}, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bounds := []int{0}
			if tc.blocks == nil {
				for i := range series {
					bounds = append(bounds, i+1)
				}
			} else {
				for _, b := range tc.blocks {
					bounds = append(bounds, bounds[len(bounds)-1]+b)
				}
			}
			wt, wk, wq := bruteBest(series, bounds, tc.minB, tc.alpha)
			got := firstCandidate(t, series, EDivisiveOptions{Alpha: tc.alpha, Blocks: tc.blocks, MinBlocks: tc.minB, Permutations: 19, Seed: 1})
			if got.Index != wt || got.End != wk || math.Abs(got.Q-wq) > 1e-9*math.Abs(wq) {
				t.Errorf("first split (τ=%d, κ=%d, Q=%.12g), brute force (τ=%d, κ=%d, Q=%.12g)", got.Index, got.End, got.Q, wt, wk, wq)
			}
		})
	}
}

// permutations calls fn with every permutation of 0..n-1 (Heap's algorithm).
func permutations(n int, fn func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	c := make([]int, n)
	fn(p)
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				p[0], p[i] = p[i], p[0]
			} else {
				p[c[i]], p[i] = p[i], p[c[i]]
			}
			fn(p)
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
}

// TestEDivisivePermutationP compares the Monte-Carlo p-value of the first
// test with the exact permutation p-value, counted over all 7! orders of
// a small series by brute force.
func TestEDivisivePermutationP(t *testing.T) {
	for _, z := range [][]float64{
		{5.1, 4.8, 5.3, 6.0, 6.4, 6.1, 5.9},  // a modest shift: p near 0.05
		{1, 2, 3, 4, 5, 6, 7},                // a trend
		{3.2, 2.9, 3.1, 3.0, 2.8, 3.3, 3.05}, // noise
	} {
		bounds := []int{0, 1, 2, 3, 4, 5, 6, 7}
		_, _, obs := bruteBest(z, bounds, 2, 1)
		exceed, total := 0, 0
		zz := make([]float64, len(z))
		permutations(len(z), func(p []int) {
			for i, j := range p {
				zz[i] = z[j]
			}
			if _, _, q := bruteBest(zz, bounds, 2, 1); q >= obs-1e-9 {
				exceed++
			}
			total++
		})
		exact := float64(exceed) / float64(total)
		got := firstCandidate(t, z, EDivisiveOptions{Permutations: 9999, Seed: 7, SigLevel: 0.999})
		// Monte-Carlo error: sd sqrt(p(1-p)/R) <= 0.005.
		if math.Abs(got.P-exact) > 0.015 {
			t.Errorf("%v: p = %.4f, exact permutation p = %.4f", z, got.P, exact)
		}
	}
}

// TestEDivisiveFindsSteps: two steps in N(0,1) noise of 3 sd each are
// found where they are, and nothing in noise alone.
func TestEDivisiveFindsSteps(t *testing.T) {
	z := slices.Concat(normals(1, 40, 0, 1), normals(2, 40, 3, 1), normals(3, 40, 0, 1))
	r, err := EDivisive(z, EDivisiveOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := changeIndices(r)
	if len(got) != 2 || absInt(got[0]-40) > 2 || absInt(got[1]-80) > 2 {
		t.Errorf("change points %v, want about [40 80]", got)
	}
	for _, c := range r.Changes {
		if c.P > 0.05 {
			t.Errorf("change at %d accepted with p = %v", c.Index, c.P)
		}
	}
	if r.Rejected == nil || r.Rejected.P <= 0.05 {
		t.Errorf("the search did not end on a non-significant candidate: %+v", r.Rejected)
	}
	flat, err := EDivisive(normals(4, 120, 0, 1), EDivisiveOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(flat.Changes) != 0 {
		t.Errorf("noise: change points %v", changeIndices(flat))
	}
}

// TestEDivisiveBlocks: with blocks, change points fall between blocks,
// and the same seed gives the same result.
func TestEDivisiveBlocks(t *testing.T) {
	var z []float64
	var blocks []int
	for b := range 10 {
		level := 100.0
		if b >= 6 {
			level = 90
		}
		z = append(z, normals(uint64(b+10), 4, level, 3)...)
		blocks = append(blocks, 4)
	}
	o := EDivisiveOptions{Blocks: blocks, MinBlocks: 2, Seed: 3}
	r, err := EDivisive(z, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := changeIndices(r); !slices.Equal(got, []int{24}) {
		t.Errorf("change points %v, want [24] (block 6)", got)
	}
	again, _ := EDivisive(z, o)
	if !slices.Equal(again.Changes, r.Changes) {
		t.Errorf("not deterministic: %v then %v", r.Changes, again.Changes)
	}
}

func TestEDivisiveErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    []float64
		o    EDivisiveOptions
		want error
	}{
		{"NaN", []float64{1, math.NaN(), 3, 4}, EDivisiveOptions{}, ErrNotFinite},
		{"alpha", []float64{1, 2, 3, 4}, EDivisiveOptions{Alpha: 3}, ErrParameter},
		{"level", []float64{1, 2, 3, 4}, EDivisiveOptions{SigLevel: 1.5}, ErrParameter},
		{"blocks sum", []float64{1, 2, 3, 4}, EDivisiveOptions{Blocks: []int{2, 1}}, ErrParameter},
		{"empty block", []float64{1, 2, 3, 4}, EDivisiveOptions{Blocks: []int{2, 0, 2}}, ErrParameter},
	} {
		if _, err := EDivisive(tc.x, tc.o); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
	r, err := EDivisive([]float64{1, 2, 3}, EDivisiveOptions{})
	if err != nil || len(r.Changes) != 0 || r.Rejected != nil {
		t.Errorf("3 observations: %+v, %v; want nothing tested", r, err)
	}
}

func TestWelchT(t *testing.T) {
	// R: t.test(1:5, c(2,4,6,8,10)): t = -1.8974, df = 5.8824, p = 0.1075.
	tt, df, p, err := WelchT([]float64{1, 2, 3, 4, 5}, []float64{2, 4, 6, 8, 10})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(tt+1.897366596) > 1e-6 || math.Abs(df-5.882352941) > 1e-6 || math.Abs(p-0.1075312) > 1e-5 {
		t.Errorf("t = %v, df = %v, p = %v", tt, df, p)
	}
	if _, _, p, _ := WelchT([]float64{1, 1}, []float64{2, 2}); p != 0 {
		t.Errorf("constant, different: p = %v, want 0", p)
	}
	if _, _, p, _ := WelchT([]float64{1, 1}, []float64{1, 1}); p != 1 {
		t.Errorf("constant, equal: p = %v, want 1", p)
	}
	if _, _, _, err := WelchT([]float64{1}, []float64{1, 2}); !errors.Is(err, ErrTooFew) {
		t.Errorf("one observation: err = %v", err)
	}
}

// changeIndices returns r's change points' indices in ascending order.
func changeIndices(r EDivisiveResult) []int {
	out := make([]int, len(r.Changes))
	for i, c := range r.Changes {
		out[i] = c.Index
	}
	slices.Sort(out)
	return out
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
