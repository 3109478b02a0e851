package report

import (
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
)

// A finding of each of a system's runs is said once, with the range of
// its figures; findings of other systems, codes or words stay apart.
func TestFoldFindings(t *testing.T) {
	tail := func(label string, seq int, maxMs, meanMs float64) analyze.Finding {
		return analyze.Finding{Severity: analyze.SeverityInfo, Code: analyze.CodeLongTail,
			Subject: analyze.Subject{Systems: []string{label}, Runs: []analyze.RunRef{{RunID: label + string(rune('0'+seq)), Seq: int32(seq), Label: label}}},
			Facts:   analyze.LongTailFacts{MaxMs: maxMs, MeanMs: meanMs}}
	}
	errs := func(label string, seq int) analyze.Finding {
		return analyze.Finding{Severity: analyze.SeverityError, Code: analyze.CodeErrors,
			Subject: analyze.Subject{Systems: []string{label}, Runs: []analyze.RunRef{{RunID: label + string(rune('0'+seq)), Seq: int32(seq), Label: label}}},
			Facts:   analyze.ErrorsFacts{Errors: int64(20 + 10*seq), Attempted: 1000, Rate: float64(20+10*seq) / 1000}}
	}
	six := []analyze.Finding{tail("a", 0, 25.57, 5), tail("a", 1, 107.24, 5), tail("a", 2, 30, 5), tail("a", 3, 40, 5), tail("a", 4, 50, 5), tail("a", 5, 60, 5)}
	v := &analyze.Verdict{Systems: []analyze.System{{Label: "a", Runs: 6}, {Label: "b", Runs: 4}}}
	for _, c := range []struct {
		name string
		fs   []analyze.Finding
		want []string // the messages' starts
	}{
		{"six rounds", six, []string{"a, in 6 of 6 runs: max latency 25.57-107.2 ms is 5.11-21.4x its mean 5 ms"}},
		{"one run", six[:1], []string{"a run seq 0: max latency 25.57 ms is 5.11x its mean 5 ms"}},
		{"two systems", []analyze.Finding{six[0], tail("b", 7, 30, 5), six[1], tail("b", 8, 31, 5)},
			[]string{"a, in 2 of 6 runs: max latency 25.57-107.2 ms", "b, in 2 of 4 runs: max latency 30-31 ms is 6-6.2x"}},
		{"same figures", []analyze.Finding{tail("a", 0, 30, 5), tail("a", 1, 30, 5)}, []string{"a, in 2 of 6 runs: max latency 30 ms is 6x its mean 5 ms"}},
		{"another code between", []analyze.Finding{six[0], {Severity: analyze.SeverityWarning, Code: analyze.CodeSameHost,
			Subject: analyze.Subject{Systems: []string{"a", "b"}}}, six[1]}, []string{"a, in 2 of 6 runs", ""}},
		{"a verb after the subject", []analyze.Finding{errs("a", 0), errs("a", 1)}, []string{"a, in 2 of 6 runs, had 20-30 errors in 1000 requests attempted"}},
	} {
		got := foldFindings(v, c.fs)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d findings, want %d: %+v", c.name, len(got), len(c.want), got)
			continue
		}
		n := 0
		for i, w := range got {
			n += w.Of
			if !strings.HasPrefix(w.Message, c.want[i]) {
				t.Errorf("%s: %q, want it to start %q", c.name, w.Message, c.want[i])
			}
		}
		if n != len(c.fs) {
			t.Errorf("%s: folds %d findings of %d", c.name, n, len(c.fs))
		}
	}
}
