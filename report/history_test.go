package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
)

// TestHistoryEarlierAndEscaping: a history that left earlier experiments
// out says so in report.md and summary.json, and names taken from input
// (series, experiment, commit) cannot inject markdown.
func TestHistoryEarlierAndEscaping(t *testing.T) {
	h := &analyze.History{Series: "nightly *bold*", OrderBy: analyze.OrderAsGiven, Earlier: 5, Options: analyze.DefaultOptions(),
		Experiments: []analyze.SeriesExperiment{{Name: "[x](http://evil)", Meta: analyze.Meta{Commit: "abc`|"}}}}
	var md bytes.Buffer
	if err := HistoryMarkdown(&md, h, nil, "loadverdict test"); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	for _, want := range []string{"The 5 experiments before them are left out (at most 200, the latest, are analysed)",
		`# Series nightly \*bold\*`, `\[x\](http\://evil)`, "ordered as given"} {
		if !strings.Contains(out, want) {
			t.Errorf("report.md lacks %q:\n%s", want, out)
		}
	}
	var js bytes.Buffer
	if err := HistoryJSON(&js, h, "loadverdict test"); err != nil {
		t.Fatal(err)
	}
	var s SeriesSummary
	if err := json.Unmarshal(js.Bytes(), &s); err != nil || s.Earlier != 5 || s.Experiments[0].Meta.Commit != "abc`|" {
		t.Errorf("summary.json: %+v, %v", s, err)
	}
	var sm bytes.Buffer
	if err := HistorySummaryMarkdown(&sm, h, "report.md"); err != nil || strings.Count(sm.String(), "\n") > 25 {
		t.Errorf("summary.md: %v\n%s", err, sm.String())
	}
}
