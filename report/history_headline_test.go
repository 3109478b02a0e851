package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// series makes a history of nightly experiments of one wrk service, 2
// runs a night at levels[i] requests a second (±0.1 %), errors[i] failed
// requests of 10,000; conns[i], when given, its connections.
func series(levels []float64, errors []int64, conns []int32) []analyze.SeriesExperiment {
	var out []analyze.SeriesExperiment
	for i, lv := range levels {
		c, threads := int32(16), int32(2)
		if conns != nil {
			c = conns[i]
		}
		g := analyze.Group{Settings: analyze.Settings{Tool: "wrk", LoadModel: results.LoadClosed, Connections: &c, Threads: &threads}}
		for j := range 2 {
			seq := int32(j)
			var e int64
			if errors != nil {
				e = errors[i]
			}
			g.Runs = append(g.Runs, results.Run{Label: "svc", Tool: "wrk", LoadModel: results.LoadClosed, Connections: &c, Threads: &threads,
				Seq: seq, Requests: 10000, Errors: e, RPS: lv * (1 + 0.001*float64(2*j-1))})
			g.Seqs = append(g.Seqs, seq)
		}
		zero := int32(0)
		g.Warmup.SteadyFromSeq = &zero
		v := &analyze.Verdict{Systems: []analyze.System{{Label: "svc", Groups: []analyze.Group{g}}}}
		out = append(out, analyze.SeriesExperiment{Name: fmt.Sprintf("night%02d", i+1), Verdict: v})
	}
	return out
}

func repeat(v float64, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = v * (1 + 0.004*float64(i%3-1)) // a little noise between nights
	}
	return x
}

// TestHistoryHeadlinePaths: every way the history headline can go says
// exactly one of regression (since when, how much), drift, undecided
// (why), improved, no change shown, or not guarded yet (the reference
// forming), never "no regression", and the
// gate (history guards its check by default, --max-regression 5) fails
// exactly on regression, drift and undecided.
func TestHistoryHeadlinePaths(t *testing.T) {
	drift := make([]float64, 10)
	for i := range drift {
		drift[i] = 1000 * (1 - 0.03*float64(i))
	}
	for _, tc := range []struct {
		name   string
		exps   []analyze.SeriesExperiment
		prefix string // the headline starts so
		has    string // and says this
		fails  bool
	}{
		{"stable", series(repeat(1000, 8), nil, nil), "No change shown in the latest experiment, night08", "within the allowed regression (5 %)", false},
		{"first", series([]float64{1000}, nil, nil), "Not guarded yet at night01", "nothing before it", false},
		{"step", series(append(repeat(1000, 5), repeat(850, 3)...), nil, nil), "Regression: ", "% worse since night06 (3 experiments, not accepted)", true},
		{"drift", series(drift, nil, nil), "Drift: ", "% worse over the 10 experiments since night01", true},
		{"improved", series(append(repeat(1000, 6), repeat(1150, 2)...), nil, nil), "Improved: ", "% better at night08 than the reference level (6 experiments since night01)", false},
		{"forming", series([]float64{1000, 880}, nil, nil), "Not guarded yet at night02", "the reference level is forming (2 experiments of 2 since night01)", false},
		{"within the noise", series([]float64{1000, 1040, 960, 1030, 970, 935}, nil, nil), "No change shown in the latest experiment, night06", "beyond the allowed 5 % but within the noise between experiments", false},
		{"suspect", series(append(repeat(1000, 5), 900), nil, nil), "No change shown in the latest experiment, night06", "suspect since night06, not yet shown to hold", false},
		{"suspect, held the next night", series(append(repeat(1000, 5), 900, 900), nil, nil), "Regression: ", "worse since night06 (2 experiments", true},
		{"recovered", series(append(append(repeat(1000, 5), repeat(850, 3)...), repeat(1000, 2)...), nil, nil), "No change shown in the latest experiment, night10", "Recovered: the regression since night06 ended at night09", false},
		{"errors", series(repeat(1000, 5), []int64{0, 0, 0, 0, 500}, nil), "Errors rose: ", "5 pts higher at night05", true},
		{"no-comparison", series(repeat(1000, 4), nil, []int32{16, 16, 16, 64}), "Undecided: nothing of the latest experiment, night04, could be checked", "3 experiments before it", true},
	} {
		o := analyze.DefaultOptions()
		o.MaxRegressionPct = 5
		h, err := analyze.AnalyzeHistory(tc.name, analyze.OrderAsGiven, tc.exps, o)
		if err != nil {
			t.Fatal(err)
		}
		s := HistoryHeadline(h)
		t.Logf("%s: %s", tc.name, s)
		kinds := 0
		for _, k := range []string{"Regression: ", "Drift: ", "Errors rose: ", "Undecided: ", "Improved: ", "No change shown ", "Not guarded yet "} {
			if strings.HasPrefix(s, k) {
				kinds++
			}
		}
		if kinds != 1 || !strings.HasPrefix(s, tc.prefix) || !strings.Contains(s, tc.has) || strings.Contains(strings.ToLower(s), "no regression") {
			t.Errorf("%s: %s", tc.name, s)
		}
		if h.Failed != tc.fails {
			t.Errorf("%s: gate failed %v, want %v: %s", tc.name, h.Failed, tc.fails, s)
		}
		if tc.fails && len(HistoryGateReasons(h)) == 0 {
			t.Errorf("%s: the gate fails without a reason", tc.name)
		}
		var ju bytes.Buffer
		if err := HistoryJUnit(&ju, h); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(ju.String(), "<failure "); got != tc.fails {
			t.Errorf("%s: JUnit has a failure %v, want %v:\n%s", tc.name, got, tc.fails, ju.String())
		}
		if tc.name == "no-comparison" && !strings.Contains(ju.String(), `type="no-comparison"`) {
			t.Errorf("no-comparison: JUnit lacks its case:\n%s", ju.String())
		}
	}
}

// TestHistoryChangePointsWithControl: with a control the check reads each
// value over the control's, and so do the change points listed first
// (the machine's moves cancelled); the change points as measured follow,
// said to hold the machine's moves. A step that svc and the control share
// (the machine) is a change point as measured and none over the control;
// a step of svc alone is both. summary.md lists svc's over the control,
// summary.json has them in relative_changes (null without a control).
func TestHistoryChangePointsWithControl(t *testing.T) {
	const measured = "As measured: each system's own values, a move of the machine in them"
	const overWords = "Over the control (control): each experiment's value over the control's"
	svc := append(repeat(1000, 5), repeat(850, 4)...)
	flat := repeat(1000, 9)
	for i := range flat {
		flat[i] *= 1 + 0.003*float64((7*i)%5-2) // its own noise
	}
	for _, tc := range []struct {
		name        string
		control     []float64 // nil: no control
		relative    int       // svc throughput's change points over the control (-1: none asked)
		summaryWord string    // in summary.md's change points
		summaryNot  string    // not in them
	}{
		{"no control", nil, -1, "svc at 16 connections, 2 threads, wrk: throughput regressed", "over the control"},
		{"the machine", svc, 0, "control at 16 connections", "svc at 16 connections, 2 threads, wrk: throughput regressed"},
		{"the code", flat, 1, "svc at 16 connections, 2 threads, wrk: throughput over the control regressed", "svc at 16 connections, 2 threads, wrk: throughput regressed"},
	} {
		exps := series(svc, nil, nil)
		control := ""
		if tc.control != nil {
			control = "control"
			for i, e := range series(tc.control, nil, nil) {
				c := e.Verdict.Systems[0]
				c.Label = control
				for j := range c.Groups[0].Runs {
					c.Groups[0].Runs[j].Label = control
				}
				exps[i].Verdict.Systems = append(exps[i].Verdict.Systems, c)
			}
		}
		o := analyze.DefaultOptions()
		o.MaxRegressionPct, o.Control = 5, control
		h, err := analyze.AnalyzeHistory("cp", analyze.OrderAsGiven, exps, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range h.Tracks {
			for _, mt := range tr.Metrics {
				if tr.System != "svc" || mt.Metric != analyze.MetricRPS {
					continue
				}
				if len(mt.Changes) != 1 || tr.Points[mt.Changes[0].At].Experiment != 5 {
					t.Errorf("%s: svc's change points as measured %+v, want one at night06", tc.name, mt.Changes)
				}
				switch {
				case tc.relative < 0 && mt.RelativeChanges != nil:
					t.Errorf("%s: change points over a control without one: %+v", tc.name, mt.RelativeChanges)
				case tc.relative >= 0 && len(mt.RelativeChanges) != tc.relative:
					t.Errorf("%s: %d change points over the control, want %d: %+v", tc.name, len(mt.RelativeChanges), tc.relative, mt.RelativeChanges)
				case tc.relative == 1 && tr.Points[mt.RelativeChanges[0].At].Experiment != 5:
					t.Errorf("%s: the change over the control at %d, want night06", tc.name, mt.RelativeChanges[0].At)
				}
			}
		}
		var md, page bytes.Buffer
		if err := HistoryMarkdownAndHTML(&md, &page, h, nil, "test"); err != nil {
			t.Fatal(err)
		}
		s := md.String()
		// The latest experiment's table gives svc's values over the
		// control's as ratios, not in the metric's unit.
		if lt := strings.Index(s, "| svc at 16 connections, 2 threads, wrk | throughput |"); lt < 0 {
			t.Errorf("%s: no latest row of svc's throughput:\n%s", tc.name, s)
		} else if row := s[lt : lt+strings.Index(s[lt:], "\n")]; strings.Contains(row, "× control") != (control != "") || strings.Contains(row, "req/s") == (control != "") {
			t.Errorf("%s: svc's latest row %q: want its values over the control as ratios exactly when there is one", tc.name, row)
		}
		cp := strings.Index(s, "## Change points")
		if cp < 0 {
			t.Fatalf("%s: no change points section:\n%s", tc.name, s)
		}
		next := strings.Index(s[cp+1:], "\n## ")
		if next < 0 {
			next = len(s) - cp - 1
		}
		sec := s[cp : cp+1+next]
		for _, w := range []string{measured, overWords} {
			if got := strings.Contains(sec, w); got != (control != "") {
				t.Errorf("%s: the section says %q: %v, want %v:\n%s", tc.name, w, got, control != "", sec)
			}
		}
		if tc.relative == 0 && !strings.Contains(sec, "None found over the control.") {
			t.Errorf("%s: the section does not say none was found over the control:\n%s", tc.name, sec)
		}
		var sum bytes.Buffer
		if err := HistorySummaryMarkdown(&sum, h, ""); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(sum.String(), tc.summaryWord) || strings.Contains(sum.String(), tc.summaryNot) {
			t.Errorf("%s: summary.md's change points, want %q and not %q:\n%s", tc.name, tc.summaryWord, tc.summaryNot, sum.String())
		}
		var js bytes.Buffer
		if err := HistoryJSON(&js, h, "test"); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Tracks []struct {
				System  string `json:"system"`
				Metrics []struct {
					Metric   string            `json:"metric"`
					Relative []json.RawMessage `json:"relative_changes"`
					Unconf   *int              `json:"relative_unconfirmed"`
				} `json:"metrics"`
			} `json:"tracks"`
		}
		if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		for _, tr := range doc.Tracks {
			for _, m := range tr.Metrics {
				want := tr.System == "svc" && control != ""
				if (m.Relative != nil) != want || (m.Unconf != nil) != want {
					t.Errorf("%s: summary.json %s %s: relative_changes %s, relative_unconfirmed %v; want them only for svc with a control", tc.name, tr.System, m.Metric, m.Relative, m.Unconf)
				}
				if tr.System == "svc" && m.Metric == analyze.MetricRPS && tc.relative >= 0 && len(m.Relative) != tc.relative {
					t.Errorf("%s: summary.json: %d relative_changes, want %d", tc.name, len(m.Relative), tc.relative)
				}
			}
		}
	}
}

// TestHistoryHeadlineBeyondAllowedLeads: when no check fails, a metric
// worse than the reference by more than the allowed regression (within
// the noise) leads the headline over one within it, whichever system
// comes first; the headline says "on every metric checked" only when
// every one is within (nightly-open/007's night 6 said so of the
// control's throughput while svc's mean latency was 9.2 % worse).
func TestHistoryHeadlineBeyondAllowedLeads(t *testing.T) {
	a := series(repeat(1000, 6), nil, nil)
	b := series([]float64{1000, 1040, 960, 1030, 970, 935}, nil, nil)
	for i := range a {
		sb := b[i].Verdict.Systems[0]
		sb.Label = "svc-b"
		for j := range sb.Groups[0].Runs {
			sb.Groups[0].Runs[j].Label = "svc-b"
		}
		a[i].Verdict.Systems = append(a[i].Verdict.Systems, sb)
	}
	o := analyze.DefaultOptions()
	o.MaxRegressionPct = 5
	h, err := analyze.AnalyzeHistory("two", analyze.OrderAsGiven, a, o)
	if err != nil {
		t.Fatal(err)
	}
	s := HistoryHeadline(h)
	if !strings.Contains(s, "svc-b") || !strings.Contains(s, "beyond the allowed 5 % but within the noise") || strings.Contains(s, "every metric checked") || h.Failed {
		t.Errorf("headline: %s (gate failed %v)", s, h.Failed)
	}
	// Both within: the headline says so of every metric.
	h, err = analyze.AnalyzeHistory("two", analyze.OrderAsGiven, series(repeat(1000, 6), nil, nil), o)
	if err != nil {
		t.Fatal(err)
	}
	if s := HistoryHeadline(h); !strings.Contains(s, "within the allowed regression (5 %) of the reference level") {
		t.Errorf("stable: %s", s)
	}
}
