package analyze

import (
	"testing"

	"github.com/loadverdict/loadverdict/stats"
)

// TestUnsettledSignificant: an unsettled comparison is marked Significant
// when its p is below alpha and its interval lies on one side of 1 (only
// the size of the difference unsettled), and not when the interval
// reaches across 1 or p is not below alpha.
func TestUnsettledSignificant(t *testing.T) {
	o := DefaultOptions()
	xa, xb := []float64{100, 101, 102, 103}, []float64{104, 105, 106, 107}
	for _, c := range []struct {
		p, lo, hi float64
		want      bool
	}{
		{0.00564, 0.9623, 0.9966, true},
		{0.00564, 1.0034, 1.0391, true},
		{0.04, 0.99, 1.05, false},       // across 1
		{0.0571, 0.9623, 0.9966, false}, // p not below alpha
	} {
		cmp := Comparison{Estimate: &stats.CI{Estimate: (c.lo + c.hi) / 2, Lo: c.lo, Hi: c.hi, Level: o.Level}}
		cmp.decide(xa, xb, c.p, o, true)
		if len(cmp.Reasons) != 1 || cmp.Reasons[0].Code != ReasonUnsettled {
			t.Fatalf("p %v, CI %v-%v: reasons %+v, want one unsettled", c.p, c.lo, c.hi, cmp.Reasons)
		}
		if got := cmp.Reasons[0].Significant; got != c.want {
			t.Errorf("p %v, CI %v-%v: Significant %v, want %v", c.p, c.lo, c.hi, got, c.want)
		}
	}
}
