package stats

import (
	"math"
	"testing"
)

func TestWelchLogRatio(t *testing.T) {
	// 3 against 3, B 20 % slower with 2 % scatter: below the exact
	// test's reach (2/C(6,3) = 0.1), decided by Welch on the logs.
	a := []float64{10, 10.2, 9.9}
	b := []float64{12, 12.3, 11.8}
	ci, p, err := WelchLogRatio(b, a, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if !(p < 0.01) || !(ci.Lo > 1.1) || !(ci.Hi < 1.3) || math.Abs(ci.Estimate-1.2) > 0.02 || ci.Method != MethodWelchLog {
		t.Errorf("b/a = %+v p %v, want about 1.2 with a CI inside (1.1, 1.3), p < 0.01", ci, p)
	}
	// The interval excludes 1 exactly when p < 1-level.
	for _, tc := range [][2][]float64{
		{{1, 1.1, 0.9}, {1.05, 1.2, 1.0}},
		{{5, 6, 7, 8}, {5.5, 6.1, 7.3}},
		{{3, 3.2, 3.1}, {3.5, 3.6, 3.4, 3.7}},
	} {
		ci, p, err := WelchLogRatio(tc[0], tc[1], 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if excl := ci.Lo > 1 || ci.Hi < 1; excl != (p < 0.05) {
			t.Errorf("%v vs %v: CI [%v, %v] excludes 1: %v, p %v", tc[0], tc[1], ci.Lo, ci.Hi, excl, p)
		}
	}
	if _, _, err := WelchLogRatio([]float64{1}, a, 0.95); err == nil {
		t.Error("1 value: want an error")
	}
	if _, _, err := WelchLogRatio([]float64{1, -1}, a, 0.95); err == nil {
		t.Error("a negative value: want an error")
	}
	if ci, p, err := WelchLogRatio([]float64{2, 2}, []float64{2, 2}, 0.95); err != nil || p != 1 || ci.Lo != 1 || ci.Hi != 1 {
		t.Errorf("no spread, equal: %+v p %v err %v", ci, p, err)
	}
}
