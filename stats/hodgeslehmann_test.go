package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestMannWhitneyCritical(t *testing.T) {
	// Two-sided 5 % critical values of U from the published tables
	// (e.g. Hollander & Wolfe, Table A.6): reject when U <= c.
	for _, c := range []struct{ m, n, want int }{
		{3, 3, -1}, {4, 4, 0}, {5, 5, 2}, {6, 6, 5}, {7, 7, 8}, {8, 8, 13}, {10, 10, 23}, {4, 6, 2}, {5, 8, 6},
	} {
		if got := mannWhitneyCritical(c.m, c.n, 0.025); got != c.want {
			t.Errorf("%d vs %d: c = %d, want %d", c.m, c.n, got, c.want)
		}
	}
	// The normal approximation beyond the exact limit is close to exact.
	if ex, ap := mannWhitneyCritical(25, 25, 0.025), int(math.Floor(625.0/2-1.959964*math.Sqrt(625.0*51/12))); ex < ap-1 || ex > ap+1 {
		t.Errorf("25 vs 25: exact %d, approximation %d", ex, ap)
	}
}

// TestHodgesLehmannAgreesWithTest: without ties, the 95 % interval
// excludes 1 exactly when the exact Mann-Whitney p is below 0.05.
func TestHodgesLehmannAgreesWithTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 500 {
		m, n := 4+rng.IntN(7), 4+rng.IntN(7)
		shift := 0.1 * rng.Float64()
		x, y := make([]float64, m), make([]float64, n)
		for j := range x {
			x[j] = 100 * math.Exp(shift+0.05*rng.NormFloat64())
		}
		for j := range y {
			y[j] = 100 * math.Exp(0.05*rng.NormFloat64())
		}
		ci, err := HodgesLehmannRatio(x, y, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		_, p, _ := MannWhitney(x, y)
		if excl := ci.Lo > 1 || ci.Hi < 1; excl != (p < 0.05) {
			t.Fatalf("case %d (%d vs %d): CI [%v, %v], p %v", i, m, n, ci.Lo, ci.Hi, p)
		}
		if !(ci.Lo <= ci.Estimate && ci.Estimate <= ci.Hi) {
			t.Fatalf("case %d: estimate %v outside [%v, %v]", i, ci.Estimate, ci.Lo, ci.Hi)
		}
	}
}

// TestHodgesLehmannRobust: one disturbed run moves the estimate little and
// the interval by at most one order statistic, unlike the ratio of means.
func TestHodgesLehmannRobust(t *testing.T) {
	a := []float64{110, 111, 109, 112, 110, 108, 111, 110}
	b := []float64{100, 101, 99, 100, 102, 100, 98, 101}
	clean, _ := HodgesLehmannRatio(a, b, 0)
	a[4] = 50 // a run hit by foreign load
	hit, _ := HodgesLehmannRatio(a, b, 0)
	if math.Abs(hit.Estimate/clean.Estimate-1) > 0.01 || hit.Lo < 1.05 {
		t.Errorf("clean %+v, disturbed %+v", clean, hit)
	}
	if r := Mean(a) / Mean(b); math.Abs(r/clean.Estimate-1) < 0.05 {
		t.Errorf("ratio of means %v should move by > 5 %%", r)
	}
}

func TestHodgesLehmannErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		x, y []float64
		want error
	}{
		{"empty", nil, []float64{1, 2}, ErrEmpty},
		{"one", []float64{1}, []float64{1, 2}, ErrTooFew},
		{"zero", []float64{0, 1}, []float64{1, 2}, ErrParameter},
		{"nan", []float64{1, math.NaN()}, []float64{1, 2}, ErrNotFinite},
	} {
		if _, err := HodgesLehmannRatio(c.x, c.y, 0); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	ci, err := HodgesLehmannRatio([]float64{1, 2, 3}, []float64{4, 5, 6}, 0)
	if err != nil || ci.Lo != 0 || !math.IsInf(ci.Hi, 1) {
		t.Errorf("3 vs 3: %+v %v, want no interval", ci, err)
	}
}
