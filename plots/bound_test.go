package plots

import (
	"fmt"
	"slices"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// TestDrawnOverTimeGroups: at most MaxOverTimeFigures latency-over-time
// figures, each system's groups in turn, whatever the number of systems
// and groups; all of them when they fit.
func TestDrawnOverTimeGroups(t *testing.T) {
	for _, tc := range []struct {
		groups []int // groups with a series, per system
		want   []string
	}{
		{[]int{3}, []string{"0/0", "0/1", "0/2"}},
		{[]int{4, 4}, []string{"0/0", "0/1", "0/2", "0/3", "1/0", "1/1", "1/2", "1/3"}},
		{[]int{100, 100}, []string{"0/0", "1/0", "0/1", "1/1", "0/2", "1/2", "0/3", "1/3"}},
		{[]int{1, 10, 2}, []string{"0/0", "1/0", "2/0", "1/1", "2/1", "1/2", "1/3", "1/4"}},
		{[]int{0, 20}, []string{"1/0", "1/1", "1/2", "1/3", "1/4", "1/5", "1/6", "1/7"}},
		{[]int{9}, []string{"0/0", "0/1", "0/2", "0/3", "0/4", "0/5", "0/6", "0/7"}},
	} {
		v := &analyze.Verdict{}
		var series []results.Series
		total := 0
		for si, n := range tc.groups {
			sys := analyze.System{Label: fmt.Sprint("s", si)}
			for gi := range n {
				id := fmt.Sprintf("r%d-%d", si, gi)
				sys.Groups = append(sys.Groups, analyze.Group{Runs: []results.Run{{RunID: id}}})
				series = append(series, results.Series{RunID: id})
				total++
			}
			// A group without a series is never drawn nor counted.
			sys.Groups = append(sys.Groups, analyze.Group{Runs: []results.Run{{RunID: "none"}}})
			v.Systems = append(v.Systems, sys)
		}
		drawn, n := DrawnOverTimeGroups(Input{Verdict: v, Series: series})
		var got []string
		for _, og := range drawn {
			got = append(got, fmt.Sprintf("%d/%d", og.System, og.Group))
		}
		if !slices.Equal(got, tc.want) || n != total {
			t.Errorf("%v: drew %v of %d, want %v of %d", tc.groups, got, n, tc.want, total)
		}
	}
}

// TestDrawnErrorsFigures: at most MaxErrorsFigures errors-over-time
// figures, those with the most failed requests, in the breakdowns' order.
func TestDrawnErrorsFigures(t *testing.T) {
	v := &analyze.Verdict{}
	for i := range 12 {
		v.Errors = append(v.Errors, analyze.ErrorBreakdown{PerRequestRuns: 1, BucketS: 1, PerRequestError: int64(100 + i%4*10 + i)})
	}
	v.Errors = append(v.Errors, analyze.ErrorBreakdown{PerRequestRuns: 0, BucketS: 1, PerRequestError: 1e6}) // counters only
	drawn, total := DrawnErrorsFigures(v)
	// Errors: 100 111 122 133 104 115 126 137 108 119 130 141.
	if want := []int{2, 3, 5, 6, 7, 9, 10, 11}; !slices.Equal(drawn, want) || total != 12 {
		t.Errorf("drew %v of %d, want %v of 12 (the 8 most: 141 ... 115)", drawn, total, want)
	}
}
