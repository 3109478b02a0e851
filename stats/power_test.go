package stats

import (
	"errors"
	"math"
	"testing"
)

func TestRunsPerSide(t *testing.T) {
	cases := []struct {
		cv, delta float64
		want      int
	}{
		// 2·((1.959964+0.841621)·0.05/0.05)² = 15.70
		{0.05, 0.05, 16},
		{0.05, -0.05, 16},
		// 2·(2.801585·0.10/0.05)² = 62.79
		{0.10, 0.05, 63},
		// 2·(2.801585·0.02/0.10)² = 0.31: the floor
		{0.02, 0.10, MinRunsPerSide},
		{0, 0.10, MinRunsPerSide},
		{1, 1e-9, math.MaxInt32},
	}
	for _, c := range cases {
		got, err := RunsPerSide(c.cv, c.delta, 0, 0)
		if err != nil || got != c.want {
			t.Errorf("cv %v delta %v: %d %v, want %d", c.cv, c.delta, got, err, c.want)
		}
	}
	for _, bad := range [][4]float64{{0.05, 0, 0, 0}, {-1, 0.1, 0, 0}, {0.05, 0.1, 1.5, 0}, {0.05, 0.1, 0, 1}, {math.NaN(), 0.1, 0, 0}} {
		if _, err := RunsPerSide(bad[0], bad[1], bad[2], bad[3]); !errors.Is(err, ErrParameter) {
			t.Errorf("%v: err = %v, want ErrParameter", bad, err)
		}
	}
}

// TestMinRunsPerSide checks the reasoning behind the floor of 4 with the
// exact test itself: the most extreme outcome of 3 against 3 gives p = 0.1,
// of 4 against 4 p = 2/70 < 0.05.
func TestMinRunsPerSide(t *testing.T) {
	minP := func(k int) float64 {
		a, b := make([]float64, k), make([]float64, k)
		for i := range k {
			a[i], b[i] = float64(i), float64(k+i)
		}
		_, p, _ := MannWhitney(a, b)
		return p
	}
	if p := minP(MinRunsPerSide - 1); p < DefaultAlpha {
		t.Errorf("%d a side: min p = %v < alpha", MinRunsPerSide-1, p)
	}
	if p := minP(MinRunsPerSide); p >= DefaultAlpha {
		t.Errorf("%d a side: min p = %v >= alpha", MinRunsPerSide, p)
	}
}

// TestMinAttainableP checks 2/C(m+n, m) against the exact test's p for
// the most extreme outcome, at equal and unequal sizes.
func TestMinAttainableP(t *testing.T) {
	extreme := func(m, n int) float64 {
		a, b := make([]float64, m), make([]float64, n)
		for i := range m {
			a[i] = float64(i)
		}
		for i := range n {
			b[i] = float64(m + i)
		}
		_, p, _ := MannWhitney(a, b)
		return p
	}
	for _, c := range []struct {
		m, n int
		want float64
	}{{3, 8, 2.0 / 165}, {3, 3, 0.1}, {4, 4, 2.0 / 70}, {2, 10, 2.0 / 66}, {5, 3, 2.0 / 56}, {1, 1, 1}, {2, 2, 2.0 / 6}, {1, 40, 2.0 / 41}} {
		got := MinAttainableP(c.m, c.n)
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("MinAttainableP(%d, %d) = %v, want %v", c.m, c.n, got, c.want)
		}
		if ex := extreme(c.m, c.n); math.Abs(ex-c.want) > 1e-12 {
			t.Errorf("%d vs %d: exact test's smallest p %v, want %v", c.m, c.n, ex, c.want)
		}
	}
	if MinAttainableP(0, 5) != 1 {
		t.Error("an empty side must give 1")
	}
}

func TestMinRunsFor(t *testing.T) {
	for _, c := range []struct {
		alpha float64
		want  int
	}{{0.05, 4}, {0, 4}, {0.01, 5}, {0.1, 4}, {0.2, 3}, {0.001, 7}} {
		if got := MinRunsFor(c.alpha); got != c.want {
			t.Errorf("MinRunsFor(%v) = %d, want %d", c.alpha, got, c.want)
		}
	}
	if MinRunsFor(DefaultAlpha) != MinRunsPerSide {
		t.Error("MinRunsPerSide must be MinRunsFor(DefaultAlpha)")
	}
}
