package plots

import (
	"math"
	"testing"

	"gonum.org/v1/plot"
)

// An axis never magnifies a difference inside the practical band into
// separate levels: it spans at least twice the band of its centre; a
// wider one, or one from 0, stays as it is (issue 32: 200.00-200.04).
func TestMinSpan(t *testing.T) {
	for _, c := range []struct {
		name           string
		lo, hi, band   float64
		wantLo, wantHi float64
	}{
		{"fixed rate 200.00-200.04", 200, 200.04, 0.02, 196.0196, 204.0204},
		{"wide enough", 100, 200, 0.02, 100, 200},
		{"exactly 2 bands", 98, 102, 0.02, 98, 102},
		{"default band", 1000, 1001, 0, 980.49, 1020.51},
		{"near 0 keeps 0", 0, 0.001, 0.02, 0, 0.001},
		{"from 0, narrow", 0, 0.0001, 50, 0, 0.005},
		{"small positive stays positive", 0.0001, 0.0002, 0.9, 0.000015, 0.000285},
		{"negative centre", -101, -100, 0.02, -102.51, -98.49},
	} {
		a := plot.Axis{Min: c.lo, Max: c.hi}
		minSpan(&a, c.band)
		if math.Abs(a.Min-c.wantLo) > 1e-9*math.Max(1, math.Abs(c.wantLo)) || math.Abs(a.Max-c.wantHi) > 1e-9*math.Max(1, math.Abs(c.wantHi)) {
			t.Errorf("%s: %g-%g, want %g-%g", c.name, a.Min, a.Max, c.wantLo, c.wantHi)
		}
	}
}
