package stats

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestCombineClasses(t *testing.T) {
	type cc = ClassCount
	cases := []struct {
		in     []Class
		class  Class
		good   bool
		counts []ClassCount
	}{
		{[]Class{"flat", "flat"}, ClassFlat, true, []cc{{ClassFlat, 2}}},
		{[]Class{"warmup"}, ClassWarmup, true, []cc{{ClassWarmup, 1}}},
		{[]Class{"slowdown", "slowdown"}, ClassSlowdown, false, []cc{{ClassSlowdown, 2}}},
		{[]Class{"warmup", "flat", "warmup"}, ClassInconsistent, true, []cc{{ClassFlat, 1}, {ClassWarmup, 2}}},
		{[]Class{"warmup", "slowdown", "flat", "warmup"}, ClassInconsistent, false, []cc{{ClassFlat, 1}, {ClassWarmup, 2}, {ClassSlowdown, 1}}},
		{[]Class{"no-steady-state", "flat"}, ClassInconsistent, false, []cc{{ClassFlat, 1}, {ClassNoSteadyState, 1}}},
		{[]Class{"zz", "insufficient-data", "aa", "zz"}, ClassInconsistent, false, []cc{{ClassInsufficientData, 1}, {"aa", 1}, {"zz", 2}}},
		{nil, ClassInsufficientData, false, nil},
	}
	for _, c := range cases {
		class, good, counts := CombineClasses(c.in)
		if class != c.class || good != c.good || !slices.Equal(counts, c.counts) {
			t.Errorf("%v: %q %v %v, want %q %v %v", c.in, class, good, counts, c.class, c.good, c.counts)
		}
	}
}

func TestClassifyShort(t *testing.T) {
	cases := []struct {
		x         []float64
		higher    bool
		cv        float64
		class     Class
		pct       float64
		band      float64
		improving bool
		zero      bool
	}{
		{[]float64{100}, true, 0, ClassInsufficientData, 0, 3, false, false},
		{[]float64{100, 102}, true, 0, ClassFlat, 2, 3, true, false},
		{[]float64{100, 103}, true, 0, ClassFlat, 3, 3, true, false},
		{[]float64{100, 110}, true, 0, ClassNoSteadyState, 10, 3, true, false},  // rps up: improving
		{[]float64{100, 90}, false, 0, ClassNoSteadyState, -10, 3, true, false}, // latency down: improving
		{[]float64{100, 90}, true, 0, ClassNoSteadyState, -10, 3, false, false}, // rps down: worsening
		{[]float64{100, 100}, true, 0, ClassFlat, 0, 3, false, false},           // no change: not improving
		{[]float64{80, 100, 105}, true, 0.08, ClassFlat, 5, 8, true, false},     // inside an observed 8 % CV
		{[]float64{50, 80, 100, 105}, true, 0, ClassNoSteadyState, 5, 3, true, false},
		{[]float64{0, 0}, true, 0, ClassFlat, 0, 3, false, true},
	}
	for _, c := range cases {
		got, err := ClassifyShort(c.x, c.higher, 0, c.cv)
		if err != nil {
			t.Fatalf("%v: %v", c.x, err)
		}
		if got.Class != c.class || relErr(got.ChangePct+1, c.pct+1) > 1e-12 || relErr(got.BandPct, c.band) > 1e-12 ||
			got.Improving != c.improving || got.ZeroBase != c.zero {
			t.Errorf("%v: %+v, want %s %+.1f %% band %v improving %v zero base %v", c.x, got, c.class, c.pct, c.band, c.improving, c.zero)
		}
	}
	if _, err := ClassifyShort([]float64{0, 1}, true, 0, 0); !errors.Is(err, ErrZeroBase) || !errors.Is(err, ErrParameter) {
		t.Errorf("0 -> 1: err = %v, want ErrZeroBase, an ErrParameter", err)
	}
	// A change past float64's range from a tiny base (FuzzDegenerate: a
	// run of 1e-300 req/s before one of 5e14) is as undefined as from 0.
	for _, x := range [][]float64{{1e-300, 5e14}, {-1e-300, -5e14}} {
		if got, err := ClassifyShort(x, true, 0, 0); !errors.Is(err, ErrZeroBase) || math.IsInf(got.ChangePct, 0) {
			t.Errorf("%v: %+v, err = %v, want ErrZeroBase and a finite ChangePct", x, got, err)
		}
	}
	if _, err := ClassifyShort(nil, true, 0, 0); !errors.Is(err, ErrEmpty) {
		t.Errorf("nil: err = %v, want ErrEmpty", err)
	}
}
