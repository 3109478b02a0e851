package report

import (
	"bytes"
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
// value over the control's, while the change points stay over the
// system's own values; the report says so in that section, and only
// then.
func TestHistoryChangePointsWithControl(t *testing.T) {
	const words = "The change points are over each system's own values, as measured"
	for _, control := range []string{"", "control"} {
		exps := series(append(repeat(1000, 5), repeat(850, 3)...), nil, nil)
		if control != "" {
			for _, e := range exps {
				c := e.Verdict.Systems[0]
				c.Label = "control"
				e.Verdict.Systems = append(e.Verdict.Systems, c)
			}
		}
		o := analyze.DefaultOptions()
		o.MaxRegressionPct, o.Control = 5, control
		h, err := analyze.AnalyzeHistory("cp", analyze.OrderAsGiven, exps, o)
		if err != nil {
			t.Fatal(err)
		}
		var md, page bytes.Buffer
		if err := HistoryMarkdownAndHTML(&md, &page, h, nil, "test"); err != nil {
			t.Fatal(err)
		}
		s := md.String()
		cp := strings.Index(s, "## Change points")
		if cp < 0 {
			t.Fatalf("control %q: no change points section:\n%s", control, s)
		}
		next := strings.Index(s[cp+1:], "\n## ")
		if next < 0 {
			next = len(s) - cp - 1
		}
		if got := strings.Contains(s[cp:cp+1+next], words); got != (control != "") {
			t.Errorf("control %q: the change points say they are over the systems' own values: %v, want %v:\n%s", control, got, control != "", s[cp:cp+1+next])
		}
	}
}
