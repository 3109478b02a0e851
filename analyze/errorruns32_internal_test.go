package analyze

import (
	"testing"

	"github.com/loadverdict/loadverdict/results"
)

// The error rate is compared over the runs the other metrics are: a side
// whose warm-up cut leaves too few steady runs to decide is compared over
// all its runs, by compareMetric's rule (issue 32: an error-rate row of
// 3/1 runs where the others said 3/3).
func TestErrorRunsAsMetrics(t *testing.T) {
	group := func(label string, n, steadyFrom int) *Group {
		g := &Group{}
		for i := range n {
			r := results.Run{RunID: label + string(rune('a'+i)), Label: label, Seq: int32(i), Requests: 1000, Errors: int64(i)}
			g.Runs = append(g.Runs, r)
			g.Seqs = append(g.Seqs, int32(i))
		}
		if steadyFrom >= 0 {
			s := int32(steadyFrom)
			g.Warmup.SteadyFromSeq = &s
		}
		return g
	}
	for _, c := range []struct {
		name         string
		a, b         *Group
		wantA, wantB int
	}{
		{"3 vs 1 steady of 3", group("a", 3, 0), group("b", 3, 2), 3, 3},
		{"1 steady of 3 vs 3", group("a", 3, 2), group("b", 3, 0), 3, 3},
		{"2 steady of 3 vs 3", group("a", 3, 1), group("b", 3, 0), 3, 3},
		{"6 vs 4 steady of 6: decidable as cut", group("a", 6, 0), group("b", 6, 2), 6, 4},
		{"no steady state: all", group("a", 3, -1), group("b", 3, -1), 3, 3},
		{"2 vs 2: nothing decides, as cut", group("a", 2, 1), group("b", 2, 0), 1, 2},
	} {
		v := &Verdict{Options: DefaultOptions()}
		e := v.compareErrorRates("a", "b", c.a, c.b)
		if e.ARuns != c.wantA || e.BRuns != c.wantB {
			t.Errorf("%s: error rates over %d/%d runs, want %d/%d", c.name, e.ARuns, e.BRuns, c.wantA, c.wantB)
		}
	}
}
