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
