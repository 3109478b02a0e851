package report

import "testing"

// TestToolNum: parse's table rounds figures as the load generators print
// theirs (wrk's Requests/sec has two decimals; five significant digits
// below 100).
func TestToolNum(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{2597.158938622353, "2597.16"}, {748868.53, "748868.53"}, {0.63591, "0.63591"}, {33.95, "33.95"}, {0, "0"}, {1.2345678, "1.2346"}, {-0.5, "-0.5"}} {
		if got := toolNum(c.v); got != c.want {
			t.Errorf("toolNum(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
