package stats

import (
	"math"
	"testing"
)

func TestCheckMean(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name           string
		mean, min, max float64
		qs             []Quantile
		possible       bool
		lo, hi         float64
	}{
		// wrk, an ordinary run: mean 11.32 ms, max 111.98, p50 8.95 ... p99 64.77.
		{"wrk ordinary", 11.32, nan, 111.98, []Quantile{{0.5, 8.95}, {0.75, 15.51}, {0.9, 26.12}, {0.99, 64.77}}, true, 4.475, 34.706},
		// wrk pipelined (testdata/truth/contradictory run 3): percentiles 0, mean 10.12, max 83.53.
		{"wrk pipelined", 10.12, nan, 83.53, []Quantile{{0.5, 0}, {0.75, 0}, {0.9, 0}, {0.99, 0}}, false, 0, 0.8353},
		{"mean below p50's bound", 1, 0, 100, []Quantile{{0.5, 10}}, false, 5, 55},
		{"decreasing quantiles", 5, 0, 100, []Quantile{{0.5, 10}, {0.9, 2}}, false, 5, 11.8},
		{"nothing known", 5, nan, nan, nil, true, 0, math.Inf(1)},
		{"slack", 0.9, 0, 10, []Quantile{{0.99, 0.8}}, true, 0.008, 0.892},
	} {
		got := CheckMean(c.mean, c.min, c.max, c.qs, 0)
		if got.Possible != c.possible || math.Abs(got.Lo-c.lo) > 1e-9 || (math.Abs(got.Hi-c.hi) > 1e-9 && !math.IsInf(c.hi, 1)) {
			t.Errorf("%s: %+v, want possible %v, [%v, %v]", c.name, got, c.possible, c.lo, c.hi)
		}
	}
}
