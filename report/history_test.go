package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
)

// TestHistoryEarlierAndEscaping: a history that left earlier experiments
// out says so in report.md and summary.json, and names taken from input
// (series, experiment, commit) cannot inject markdown.
func TestHistoryEarlierAndEscaping(t *testing.T) {
	h := &analyze.History{Series: "nightly *bold*", OrderBy: analyze.OrderAsGiven, Earlier: 5, Options: analyze.DefaultOptions(),
		Experiments: []analyze.SeriesExperiment{{Name: "[x](http://evil)", Meta: analyze.Meta{Commit: "abc`|"}}}}
	var md bytes.Buffer
	if err := HistoryMarkdownAndHTML(&md, io.Discard, h, nil, "loadverdict test"); err != nil {
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

// TestHistorySummaryGate (issue 30 #6): summary.json states history's gate
// as applied, whatever the allowed regression and the conditions allowed:
// fail_on the conditions that fail it (the five guarded by default, errors
// included since the history checks error rates, less
// those allowed), allow those allowed, allowed_regression_pct the
// regression allowed (never less than the practical band), each reason
// allowed exactly when allowed; every sentence names that same allowed
// regression, and report.md and summary.md say the gate's decision
// without --fail-on.
func TestHistorySummaryGate(t *testing.T) {
	drift := make([]float64, 10)
	for i := range drift {
		drift[i] = 1000 * (1 - 0.03*float64(i))
	}
	scenarios := []struct {
		name string
		exps []analyze.SeriesExperiment
		met  gate.Condition
	}{
		{"step", series(append(repeat(1000, 5), repeat(850, 3)...), nil, nil), gate.Regression},
		{"drift", series(drift, nil, nil), gate.Drift},
		{"undecided", series([]float64{1000, 880}, nil, nil), gate.Inconclusive},
		{"no-comparison", series(repeat(1000, 4), nil, []int32{16, 16, 16, 64}), gate.NoComparison},
		{"stable", series(repeat(1000, 8), nil, nil), ""},
	}
	guarded := []gate.Condition{gate.Regression, gate.Inconclusive, gate.NoComparison, gate.Drift, gate.Errors}
	allowedRe := regexp.MustCompile(`(?:allowed (?:regression \()?|worse by more than |passes )([0-9.]+) %`)
	said := map[string]bool{} // the sentences that name the allowed regression
	for _, sc := range scenarios {
		for _, o := range []struct {
			maxPct float64
			allow  []gate.Condition
		}{
			{0, nil}, {1, nil}, {5, nil}, {12, nil}, {5, []gate.Condition{sc.met}}, {0, guarded},
		} {
			name := fmt.Sprintf("%s, max %g, allow %v", sc.name, o.maxPct, o.allow)
			opts := analyze.DefaultOptions()
			opts.MaxRegressionPct, opts.Allow = o.maxPct, slices.DeleteFunc(slices.Clone(o.allow), func(c gate.Condition) bool { return c == "" })
			h, err := analyze.AnalyzeHistory(sc.name, analyze.OrderAsGiven, sc.exps, opts)
			if err != nil {
				t.Fatal(err)
			}
			s := NewSeriesSummary(h, "loadverdict test")
			g := s.Gate
			var failOn, allow []string
			for _, c := range guarded {
				if !slices.Contains(opts.Allow, c) {
					failOn = append(failOn, string(c))
				}
			}
			for _, c := range opts.Allow {
				allow = append(allow, string(c))
			}
			allowed := max(o.maxPct, 2)
			if !slices.Equal(g.FailOn, failOn) || !slices.Equal(g.Allow, allow) || !slices.Equal(s.Allow, allow) ||
				g.MaxRegressionPct != o.maxPct || g.AllowedRegressionPct != allowed {
				t.Errorf("%s: gate fail_on %v allow %v (top %v) max %g allowed %g; want %v %v %g %g", name, g.FailOn, g.Allow, s.Allow,
					g.MaxRegressionPct, g.AllowedRegressionPct, failOn, allow, o.maxPct, allowed)
			}
			failed := false
			for _, r := range g.Reasons {
				isAllowed := slices.Contains(allow, r.Condition)
				if r.Allowed != isAllowed || r.Fails == isAllowed || strings.HasSuffix(r.Message, "(allowed)") != isAllowed {
					t.Errorf("%s: reason %+v: want allowed %v", name, r, isAllowed)
				}
				failed = failed || r.Fails
			}
			if g.Failed != failed || g.Failed != h.Failed {
				t.Errorf("%s: failed %v, reasons say %v, history %v", name, g.Failed, failed, h.Failed)
			}
			var md, sm bytes.Buffer
			if err := HistoryMarkdownAndHTML(&md, io.Discard, h, nil, ""); err != nil {
				t.Fatal(err)
			}
			if err := HistorySummaryMarkdown(&sm, h, "report.md"); err != nil {
				t.Fatal(err)
			}
			word := map[bool]string{true: "Gate: **failed**.", false: "Gate: passed."}[h.Failed]
			if !strings.Contains(md.String(), word) || !strings.Contains(sm.String(), word) {
				t.Errorf("%s: report.md or summary.md lacks %q:\n%s\n%s", name, word, md.String(), sm.String())
			}
			texts := []string{s.Headline, md.String()}
			for _, r := range g.Reasons {
				texts = append(texts, r.Message)
			}
			for _, x := range texts {
				for _, m := range allowedRe.FindAllStringSubmatch(x, -1) {
					said[sc.name] = true
					if m[1] != rel(allowed) {
						t.Errorf("%s: %q says the allowed regression is %s %%, the gate applied %g %%", name, m[0], m[1], allowed)
					}
				}
			}
		}
	}
	for _, sc := range []string{"step", "drift", "undecided", "stable"} {
		if !said[sc] {
			t.Errorf("%s: no sentence names the allowed regression: the check above checked nothing", sc)
		}
	}
}
