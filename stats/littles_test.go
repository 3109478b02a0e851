package stats

import (
	"errors"
	"math"
	"testing"
)

// TestLittlesLaw is acceptance check 8.
func TestLittlesLaw(t *testing.T) {
	cases := []struct {
		rps, lat, conns float64
		ratio           float64
		status          string
	}{
		{2000, 0.050, 100, 1.0, LittleConsistent},
		{2000, 0.0005, 100, 0.01, LittleIdle},
		{2000, 0.060, 100, 1.2, LittleHiddenQueueing},
		{1800, 0.050, 100, 0.9, LittleConsistent}, // bounds are inclusive
	}
	for _, c := range cases {
		got, err := LittlesLaw(c.rps, c.lat, c.conns)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Ratio-c.ratio) > 1e-12 || got.Status != c.status {
			t.Errorf("%v rps, %v s, %v connections: %+v, want %v %s", c.rps, c.lat, c.conns, got, c.ratio, c.status)
		}
	}
	for _, bad := range [][3]float64{{1, 1, 0}, {-1, 1, 1}, {math.NaN(), 1, 1}, {1, math.Inf(1), 1}} {
		if _, err := LittlesLaw(bad[0], bad[1], bad[2]); !errors.Is(err, ErrParameter) {
			t.Errorf("%v: err = %v, want ErrParameter", bad, err)
		}
	}
}
