package plots

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// The errors-over-time figure: one step line per cause, the five largest
// apart and the rest as one, over the whole run, in failed requests per
// second; a breakdown without per-request data has none.
func TestErrorsOverTime(t *testing.T) {
	r := wrkRun("e:80", 0, 10, 100, 2, 1, 30)
	r.Errors, r.HasSamples, r.Non2xx = 80, true, results.Ptr[int64](80)
	summary := wrkRun("s:80", 1, 10, 100, 2, 1, 30)
	summary.Label, summary.Errors, summary.Non2xx = "s:80", 5, results.Ptr[int64](5)
	tl := analyze.NewErrorTally(r)
	for c := range 8 { // cause c: 10 requests from c s on, 0.1 s apart
		for i := range 10 {
			tl.Add(results.Sample{RunID: r.RunID, TS: float64(c) + float64(i)/10, Status: int32(500 + c)})
		}
	}
	in := analyzed(t, analyze.Set{Runs: []results.Run{r, summary}, Errors: []analyze.RunErrors{tl.Result()}})
	if got := errorsFigures(in.Verdict); !slices.Equal(got, []int{0}) {
		t.Fatalf("figures of breakdowns %v, want [0] (s:80 has only counters)", got)
	}
	p, err := ErrorsOverTime(in, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min != 0 || p.X.Max != 10 || p.Y.Min != 0 || p.Y.Max < 10 || p.Y.Max > 12 {
		t.Errorf("x %v..%v y %v..%v, want the run's 10 s, up to 10/s", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	var names []string
	for _, r := range errorsLines(in.Verdict.Errors[0]) {
		names = append(names, errorsCauseName(r))
	}
	want := []string{"status 500", "status 501", "status 502", "status 503", "4 other causes"}
	if !slices.Equal(names[:4], want[:4]) || len(names) != 5 || !strings.HasSuffix(names[4], want[4]) {
		t.Errorf("legend %q, want %q", names, want)
	}
	if _, err := ErrorsOverTime(in, 1); !errors.Is(err, ErrNoData) {
		t.Errorf("counters only: %v", err)
	}
	if _, err := PNG(p); err != nil {
		t.Fatal(err)
	}
	if alt := errorsAlt(in, 0); alt != "Failed requests per second of e:80 over time, per 0.5 s, by cause (8 causes)." {
		t.Errorf("alt %q", alt)
	}
}
