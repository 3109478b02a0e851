package analyze

import (
	"testing"

	"github.com/loadverdict/loadverdict/results"
)

// windows makes a run's series of 1 s windows of n requests each, with
// errs[i] failed (status 500) in window i.
func windows(n int64, errs []int64) []results.Series {
	var out []results.Series
	for i, e := range errs {
		s := results.Series{TS: float64(i), WindowS: 1, Requests: n, Errors: e}
		if e > 0 {
			s.ErrorStatuses = results.Ptr("500:" + itoa(e))
		}
		out = append(out, s)
	}
	return out
}

func itoa(n int64) string {
	return string(rune('0'+n/100%10)) + string(rune('0'+n/10%10)) + string(rune('0'+n%10))
}

func TestErrorBurstRule(t *testing.T) {
	for _, c := range []struct {
		name     string
		errs     []int64
		want     bool
		from, to float64
	}{
		{"one window of 40", []int64{0, 0, 0, 0, 100, 0, 0, 0, 0, 0}, true, 4, 5},
		{"two adjacent windows", []int64{0, 0, 50, 100, 0, 0, 0, 0}, true, 2, 4},
		{"at the start", []int64{100, 0, 0, 0, 0, 0}, true, 0, 1},
		{"spread evenly", []int64{12, 13, 12, 13, 12, 13, 12, 13}, false, 0, 0},
		{"spread with noise", []int64{10, 15, 12, 9, 14, 13, 11, 16}, false, 0, 0},
		{"everything failed", []int64{100, 100, 100}, false, 0, 0},
		{"a single error", []int64{0, 0, 1, 0}, false, 0, 0},
		{"most of the run", []int64{100, 100, 100, 100, 100, 100, 0, 0}, false, 0, 0},
	} {
		f, ok := errorBurst(windows(100, c.errs), 0.05)
		if ok != c.want {
			t.Errorf("%s: burst %v, want %v (%+v)", c.name, ok, c.want, f)
			continue
		}
		if ok && (f.Bursts[0].FromS != c.from || f.Bursts[0].ToS != c.to || f.Bursts[0].Statuses[0].Status != 500) {
			t.Errorf("%s: %+v, want %v-%v s", c.name, f.Bursts, c.from, c.to)
		}
	}
}
