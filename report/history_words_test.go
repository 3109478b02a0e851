package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
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
		{testText(&analyze.NightTest{WorsePct: 12, PWorse: p, SD: 3, RefMean: 100, DF: 9}),
			" (one-sided p = 0.01 over the experiments' values, noise 3 % of the level between experiments with 9 degrees of freedom)"},
		{testText(&analyze.NightTest{WorsePct: 12, PWorse: p, SD: 3, RefMean: 100, DF: 40, Floor: true}),
			" (one-sided p = 0.01 over the experiments' values, noise 3 % of the level (the runs' own: the experiments varied less) with 40 degrees of freedom)"},
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

// A series' summary.md stays within 25 lines and SummaryMDBytes however
// long the names from the input (system, experiment, series).
func TestHistorySummaryBounded(t *testing.T) {
	exps := series(append(repeat(1000, 5), repeat(850, 3)...), nil, nil)
	long := strings.Repeat("s", 300<<10)
	for i := range exps {
		exps[i].Name += long
		exps[i].Verdict.Systems[0].Label = long
		for j := range exps[i].Verdict.Systems[0].Groups[0].Runs {
			exps[i].Verdict.Systems[0].Groups[0].Runs[j].Label = long
		}
	}
	o := analyze.DefaultOptions()
	o.MaxRegressionPct, o.FailOn = 5, []gate.Condition{gate.Regression}
	h, err := analyze.AnalyzeHistory(long, analyze.OrderAsGiven, exps, o)
	if err != nil {
		t.Fatal(err)
	}
	var sm bytes.Buffer
	if err := HistorySummaryMarkdown(&sm, h, "report.md"); err != nil {
		t.Fatal(err)
	}
	if sm.Len() > SummaryMDBytes || strings.Count(sm.String(), "\n") > 25 || !strings.Contains(sm.String(), "…#") ||
		!strings.Contains(sm.String(), "`report.md` beside this file") || strings.Contains(sm.String(), "](report.md)") {
		t.Errorf("summary.md: %d bytes, %d lines", sm.Len(), strings.Count(sm.String(), "\n"))
	}
}
