package report

import (
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/stats"
)

// An experiment's name and a night test's evidence read as words after
// "since", "at" and "not yet known": no "since on", no "known95 % CI".
func TestHistoryPhrases(t *testing.T) {
	p := 0.01
	for _, tc := range []struct{ got, want string }{
		{expWhere(analyze.SeriesExperiment{Name: "exp05", Meta: analyze.Meta{Date: "2026-11-06"}}), "2026-11-06 (exp05)"},
		{expWhere(analyze.SeriesExperiment{Name: "exp05", Meta: analyze.Meta{Commit: "abc123", Date: "2026-11-06"}}), "commit abc123 on 2026-11-06 (exp05)"},
		{expWhere(analyze.SeriesExperiment{Name: "exp05", Meta: analyze.Meta{Version: "v2"}}), "version v2 (exp05)"},
		{expWhere(analyze.SeriesExperiment{Name: "exp05"}), "exp05"},
		{testText(&analyze.NightTest{ByRuns: true, RunLevel: &analyze.Comparison{CI: &stats.CI{Lo: 0.8, Hi: 0.9, Level: 0.95}, PValue: &p}}),
			" (by compare's tests over the runs, the experiments' noise not yet known: 95 % CI -20 to -10 %, p = 0.01)"},
		{testText(&analyze.NightTest{ByRuns: true, RunLevel: &analyze.Comparison{}}),
			" (by compare's tests over the runs, the experiments' noise not yet known)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
		for _, bad := range []string{"since on", "known9", "known (", "  "} {
			if strings.Contains("since "+strings.TrimPrefix(tc.got, " "), bad) {
				t.Errorf("%q says %q", tc.got, bad)
			}
		}
	}
}
