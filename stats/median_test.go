package stats

import (
	"errors"
	"math"
	"testing"
)

func TestMedianCI(t *testing.T) {
	for _, tc := range []struct {
		name   string
		x      []float64
		level  float64
		lo, hi float64
		need   int // > 0: too few, needing this many
	}{
		// n = 6 at 95 %: only k = 1 covers (1 - 2/64 = 0.969); k = 2 gives 0.781.
		{"six at 95 %", []float64{5, 1, 4, 2, 6, 3}, 0, 1, 6, 0},
		// n = 10 at 95 %: k = 2 covers 1 - 2·11/1024 = 0.979, k = 3 only 0.891.
		{"ten at 95 %", []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 0.95, 2, 9, 0},
		// n = 5 at 80 %: k = 2 gives 1 - 2·6/32 = 0.625, k = 1 0.9375.
		{"five at 80 %", []float64{1, 2, 3, 4, 5}, 0.8, 1, 5, 0},
		{"five at 95 %", []float64{1, 2, 3, 4, 5}, 0.95, 0, 0, 6},
		{"one at 95 %", []float64{1}, 0, 0, 0, 6},
		{"two at 99 %", []float64{1, 2}, 0.99, 0, 0, 8},
	} {
		ci, err := MedianCI(tc.x, tc.level)
		if tc.need > 0 {
			var few *TooFewError
			if !errors.As(err, &few) || few.Need != tc.need || few.Have != len(tc.x) {
				t.Errorf("%s: %+v %v, want too few (need %d)", tc.name, ci, err, tc.need)
			}
			continue
		}
		if err != nil || ci.Lo != tc.lo || ci.Hi != tc.hi || ci.Estimate != Median(tc.x) || ci.Method != MethodOrderStatistics {
			t.Errorf("%s: %+v %v, want [%v, %v]", tc.name, ci, err, tc.lo, tc.hi)
		}
	}
	if _, err := MedianCI(nil, 0); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v", err)
	}
	if _, err := MedianCI([]float64{1, 2, 3, 4, 5, math.NaN()}, 0); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: %v", err)
	}
	if _, err := MedianCI([]float64{1, 2, 3, 4, 5, 6}, 1); !errors.Is(err, ErrParameter) {
		t.Errorf("level 1: %v", err)
	}
}

// The interval covers the true median at least as often as its level
// says: 2000 samples of 12 from a log-normal distribution (median 1).
func TestMedianCICoverage(t *testing.T) {
	const trials = 2000
	covered := 0
	for seed := range uint64(trials) {
		x := normals(seed+1, 12, 0, 1)
		for i := range x {
			x[i] = math.Exp(x[i]) // log-normal, median 1
		}
		ci, err := MedianCI(x, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if ci.Lo <= 1 && 1 <= ci.Hi {
			covered++
		}
	}
	// Exact coverage for n = 12, k = 3: 1 - 2·P(B <= 2) = 1 - 2·79/4096 = 0.9614.
	if got := float64(covered) / trials; got < 0.95 || got > 0.975 {
		t.Errorf("coverage %.3f, want about 0.961", got)
	}
}
