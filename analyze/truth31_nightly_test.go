package analyze_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
)

// Issue 31's nightly sets (testdata/truth/nightly-outlier-first,
// nightly-swings, nightly-swings-step; scripts/truth/make-nightly-*.sh):
// real wrk runs of a system under test (svc) and of a same-night control
// (an unchanged build of the same server, interleaved run by run), the
// machine varied between nights by construction (a co-running hog on the
// server's CPU). Each test reads its set night by night as a nightly job
// sees it (the series up to that night through AnalyzeHistory with the
// nightly gate) and checks every night against one table: the "Right:"
// of the set's README.md.

// nightWant is what a night's nightly job must say.
type nightWant int

const (
	// wantPass: the gate passes; svc's latest verdict is no change.
	wantPass nightWant = iota
	// wantImproved: the gate passes; svc's latest verdict is improved,
	// and the reference is not moved (it still starts at night01 or
	// night02: an improvement nobody accepted).
	wantImproved
	// wantPassAny: the gate passes, whatever the verdict.
	wantPassAny
	// wantLands: the night a change lands: the gate fails with a change
	// open since this night, or passes once with the night suspect.
	wantLands
	// wantFails: the gate fails on a regression open since the table's
	// since night.
	wantFails
	// wantAtReference: back at the reference level after a regression
	// (recovered) or an improvement nobody accepted: the gate passes,
	// the verdict is no change, no change is open (Since -1) and the
	// reference is the level from before (night01 or night02).
	wantAtReference
	// wantAnything: whatever the data support (logged, not checked).
	wantAnything
)

// nightRow is one night of a set's table.
type nightRow struct {
	night int
	want  nightWant
	since int // wantFails: the night the regression began
}

// truth31Nights analyses nights 1..to of testdata/truth/<set>, each from
// the first runs wrk runs of svc and of control (labelled so, in the
// order they were made: svc1 control1 svc2 control2 ...).
func truth31Nights(t *testing.T, set string, runs, to int) []analyze.SeriesExperiment {
	t.Helper()
	return truthControlNights(t, set, "wrk", runs, to)
}

// svcNight is the latest night of svc's track in h: its worst gated
// verdict and the night of its first gated metric; ok false when h has
// no svc track with a latest night.
func svcNight(h *analyze.History) (v analyze.CheckVerdict, n analyze.Night, ok bool) {
	rank := map[analyze.CheckVerdict]int{analyze.CheckRegression: 0, analyze.CheckDrift: 1, analyze.CheckUndecided: 2, analyze.CheckImproved: 3, analyze.CheckNoChange: 4}
	v = analyze.CheckNoChange
	for _, tr := range h.Tracks {
		if tr.System != "svc" {
			continue
		}
		for _, mt := range tr.Metrics {
			if !mt.Gated || mt.Latest == nil {
				continue
			}
			if !ok {
				n, ok = mt.Latest.Night, true
			}
			if rank[mt.Latest.Verdict] < rank[v] {
				v = mt.Latest.Verdict
			}
		}
	}
	return v, n, ok
}

// svcPointNight is the night number (1 for night01) of point p of svc's
// track in h; 0 when p is not a point.
func svcPointNight(h *analyze.History, p int) int {
	for _, tr := range h.Tracks {
		if tr.System != "svc" {
			continue
		}
		if p < 0 || p >= len(tr.Points) {
			return 0
		}
		var n int
		fmt.Sscanf(h.Experiments[tr.Points[p].Experiment].Name, "night%d", &n)
		return n
	}
	return 0
}

// checkNightTable runs the set night by night (nights 2..the table's
// last), with the control when control is set, and checks every night
// against the table.
func checkNightTable(t *testing.T, set string, runs int, control string, table []nightRow) {
	t.Helper()
	last := table[len(table)-1].night
	all := truth31Nights(t, set, runs, last)
	o := nightlyGate()
	o.Control = control
	var got strings.Builder
	for _, row := range table {
		to := row.night
		h, err := analyze.AnalyzeHistory("nightly", analyze.OrderAsGiven, all[:to], o)
		if err != nil {
			t.Fatal(err)
		}
		v, n, ok := svcNight(h)
		got.WriteString(verdictLetter(v, h.Failed))
		where := fmt.Sprintf("%s, %d runs, control %q, nights 1..%d", set, runs, control, to)
		if !ok {
			t.Errorf("%s: no svc track with a latest night", where)
			continue
		}
		since, from := svcPointNight(h, n.Since), svcPointNight(h, n.From)
		if n.Since < 0 {
			since = -1
		}
		state := fmt.Sprintf("%s (gate failed %v, since night %d, reference from night %d, suspect %v)", v, h.Failed, since, from, n.Suspect)
		switch row.want {
		case wantPass:
			// No change, or nothing decided yet (the reference forming),
			// or better (reported, the reference not moved): the gate passes.
			if h.Failed || v != analyze.CheckNoChange && v != analyze.CheckForming && v != analyze.CheckImproved {
				t.Errorf("%s: %s, want the gate passed, no change", where, state)
			}
		case wantImproved:
			if h.Failed || v != analyze.CheckImproved || from < 1 || from > 2 {
				t.Errorf("%s: %s, want the gate passed, improved, the reference still from night01 or night02", where, state)
			}
		case wantPassAny:
			if h.Failed {
				t.Errorf("%s: %s, want the gate passed", where, state)
			}
		case wantLands:
			if h.Failed && since != to || !h.Failed && !n.Suspect {
				t.Errorf("%s: %s, want the gate failed since night %d, or passed with the night suspect", where, state, to)
			}
		case wantFails:
			if !h.Failed || v != analyze.CheckRegression || since != row.since {
				t.Errorf("%s: %s, want the gate failed, a regression since night %d", where, state, row.since)
			}
		case wantAtReference:
			if h.Failed || v != analyze.CheckNoChange || n.Since >= 0 || from < 1 || from > 2 {
				t.Errorf("%s: %s, want the gate passed, no change, none open, the reference from night01 or night02", where, state)
			}
		case wantAnything:
			t.Logf("%s: %s", where, state)
		}
	}
	t.Logf("%s, %d runs, control %q: nights %d-%d %s", set, runs, control, table[0].night, last, got.String())
}

// TestTruth31NightlyOutlierFirst is issue 31's case 1 on
// testdata/truth/nightly-outlier-first: the same build on nights 1-7,
// night 1 measured 17 % faster (the machine without the hog the other
// nights run under); a real regression (8 % more work a request: -7 %
// of svc's throughput, -9 % of its ratio to the control) on nights
// 8-11; reverted on nights 12-14. Nights 2-7 pass; the regression lands
// on night 8 (fails since night08 or passes once suspect); nights 9-11
// fail "since night08"; nights 12-14 pass, the regression recovered,
// against the level of nights 1(2)-7. Without the control at 2 runs a
// night (one run a night without the control is left out: run 1 alone
// spans 763-938 req/s on the unchanged nights 2-7 of this recording,
// README.md); with it (Options.Control, which the history does not act
// on before issue 31's model: those cases fail until it does) at 1 and
// 2 runs a night.
func TestTruth31NightlyOutlierFirst(t *testing.T) {
	table := []nightRow{
		{2, wantPass, 0}, {3, wantPass, 0}, {4, wantPass, 0}, {5, wantPass, 0}, {6, wantPass, 0}, {7, wantPass, 0},
		{8, wantLands, 0},
		{9, wantFails, 8}, {10, wantFails, 8}, {11, wantFails, 8},
		{12, wantAtReference, 0}, {13, wantAtReference, 0}, {14, wantAtReference, 0},
	}
	// Without the control the recording cannot support the verdicts: the
	// machine alone moved svc's throughput night to night by 10-13 %
	// (767-874 req/s on the unchanged nights 2-7, night 1 at 1006), more
	// than the 7 % regression; the check there is logged, not held (it
	// fails night 5 as a drift and misses the regression: a known miss,
	// the reason the control exists).
	loose := make([]nightRow, len(table))
	for i, r := range table {
		loose[i] = nightRow{r.night, wantAnything, 0}
	}
	checkNightTable(t, "nightly-outlier-first", 2, "", loose)
	for _, runs := range []int{1, 2} {
		checkNightTable(t, "nightly-outlier-first", runs, "control", table)
	}
}

// TestTruth31NightlySwings is issue 31's case 2 on
// testdata/truth/nightly-swings: one build (svc and control alike) on
// 12 nights, the machine changed between nights by construction (a
// light hog on nights 1-3 and 10-12, varied a little on 4-6, none on
// 7-9: ~10-15 % faster). Without the control: no night fails; nights 8-9
// are reported improved (night 7, the first faster night, may also
// say no change yet) with the reference not moved; nights 10-12 pass
// with no change, against the level of nights 1-3. With the control:
// every night passes with no change (the ratio is flat).
func TestTruth31NightlySwings(t *testing.T) {
	alone := []nightRow{
		{2, wantPass, 0}, {3, wantPass, 0}, {4, wantPass, 0}, {5, wantPass, 0}, {6, wantPass, 0},
		{7, wantPassAny, 0}, {8, wantImproved, 0}, {9, wantImproved, 0},
		{10, wantAtReference, 0}, {11, wantAtReference, 0}, {12, wantAtReference, 0},
	}
	withControl := []nightRow{
		{2, wantPass, 0}, {3, wantPass, 0}, {4, wantPass, 0}, {5, wantPass, 0}, {6, wantPass, 0},
		{7, wantPass, 0}, {8, wantPass, 0}, {9, wantPass, 0},
		{10, wantPass, 0}, {11, wantPass, 0}, {12, wantPass, 0},
	}
	for _, runs := range []int{1, 2} {
		checkNightTable(t, "nightly-swings", runs, "", alone)
		checkNightTable(t, "nightly-swings", runs, "control", withControl)
	}
}

// TestTruth31NightlySwingsStep is issue 31's swings with a real step on
// testdata/truth/nightly-swings-step: the machine swinging as in
// nightly-swings (faster on nights 7-9) and svc doing 10 % more work a
// request from night 8 on, the control unchanged: without the control
// the faster machine hides the step on nights 8-9. With the control
// (Options.Control, not acted on before issue 31's model: failing until
// it is), at 1 and 2 runs a night: nights 2-7 pass with no change; the
// step lands on night 8 (fails since night08, or passes once suspect);
// nights 9-12 fail, a regression since night08. Without it, at 2 runs a
// night: nights 2-7 pass (night 7 may say improved); from night 8
// whatever the data support (logged). (One run a night without the
// control is left out: night06's run 1 measured 846 req/s, 9 % under
// nights 1-5, on svc and control alike: only the control tells.)
func TestTruth31NightlySwingsStep(t *testing.T) {
	withControl := []nightRow{
		{2, wantPass, 0}, {3, wantPass, 0}, {4, wantPass, 0}, {5, wantPass, 0}, {6, wantPass, 0}, {7, wantPass, 0},
		{8, wantLands, 0},
		{9, wantFails, 8}, {10, wantFails, 8}, {11, wantFails, 8}, {12, wantFails, 8},
	}
	alone := []nightRow{
		{2, wantPass, 0}, {3, wantPass, 0}, {4, wantPass, 0}, {5, wantPass, 0}, {6, wantPass, 0}, {7, wantPassAny, 0},
		{8, wantAnything, 0}, {9, wantAnything, 0}, {10, wantAnything, 0}, {11, wantAnything, 0}, {12, wantAnything, 0},
	}
	checkNightTable(t, "nightly-swings-step", 2, "", alone)
	for _, runs := range []int{1, 2} {
		checkNightTable(t, "nightly-swings-step", runs, "control", withControl)
	}
}

// TestTruth31NightlyOddRatio is the level look-back (analysis version
// 14) on testdata/truth/nightly-odd-ratio: the machine's usual hog on
// every night, a second hog on svc's runs only on night 2 (a neighbour on
// one system's part of the job, which the control cannot cancel: svc/
// control 0.925 against 0.985 and 1.002), and svc doing 10 % more work a
// request from night 4 on (svc/control 0.916-0.930). Against the 3
// reference nights, odd one in, the step is inside the allowed 5 % and
// joins the reference, as does every night after it; looking back over
// the level (night 2 left out as odd, beyond 5 robust standard
// deviations held to the runs' noise) finds it, dated at night 4. With
// the control at 2 runs a night: nights 2-5 pass (a split needs 3 nights
// a side); nights 6-10 fail, a regression since night04. Before the
// look-back no night failed. Logged, not held: at 1 run a night (no
// runs' noise, so the look-back leaves no night out, and against the
// reference with night 2 in it the step is inside the allowed 5 %: a
// known miss, docs/STATISTICS.md) and without the control (the level is
// not looked back over).
func TestTruth31NightlyOddRatio(t *testing.T) {
	table := []nightRow{{2, wantPass, 0}, {3, wantPass, 0}, {4, wantPass, 0}, {5, wantPass, 0}}
	for n := 6; n <= 10; n++ {
		table = append(table, nightRow{n, wantFails, 4})
	}
	checkNightTable(t, "nightly-odd-ratio", 2, "control", table)
	loose := make([]nightRow, len(table))
	for i, r := range table {
		loose[i] = nightRow{r.night, wantAnything, 0}
	}
	checkNightTable(t, "nightly-odd-ratio", 1, "control", loose)
	checkNightTable(t, "nightly-odd-ratio", 2, "", loose)
}

// TestTruth31ChangePointsOverControl: with a control the change points
// are also sought over each night's svc/control (MetricTrack.
// RelativeChanges): on testdata/truth/nightly-swings-step (the machine
// faster on nights 7-9, svc 10 % more work a request from night 8) the
// step is a regression over the control dated night08 at 1 and 2 runs a
// night, while svc's own values, where the faster machine hides it on
// nights 8-9, have no change point there; on nightly-swings (the same
// machine, no step) nothing is found over the control, and the machine's
// moves are in the control's own track.
func TestTruth31ChangePointsOverControl(t *testing.T) {
	for _, tc := range []struct {
		set  string
		runs int
		want []string // svc throughput's change points over the control: "night08 regressed"
	}{
		{"nightly-swings-step", 1, []string{"night08 regressed"}},
		{"nightly-swings-step", 2, []string{"night08 regressed"}},
		{"nightly-swings", 1, nil},
		{"nightly-swings", 2, nil},
	} {
		o := nightlyGate()
		o.Control = "control"
		h, err := analyze.AnalyzeHistory("nightly", analyze.OrderAsGiven, truth31Nights(t, tc.set, tc.runs, 12), o)
		if err != nil {
			t.Fatal(err)
		}
		word := func(h *analyze.History, tr analyze.Track, cs []analyze.Change) []string {
			var out []string
			for _, c := range cs {
				w := "improved"
				if c.Regression {
					w = "regressed"
				}
				out = append(out, h.Experiments[tr.Points[c.At].Experiment].Name+" "+w)
			}
			return out
		}
		var machine []string
		for _, tr := range h.Tracks {
			for _, mt := range tr.Metrics {
				if mt.Metric != analyze.MetricRPS {
					continue
				}
				raw, rel := word(h, tr, mt.Changes), word(h, tr, mt.RelativeChanges)
				switch tr.System {
				case "control":
					machine = raw
					if mt.RelativeChanges != nil {
						t.Errorf("%s, %d runs: the control's own track has change points over itself: %v", tc.set, tc.runs, rel)
					}
				case "svc":
					if !slices.Equal(rel, tc.want) {
						t.Errorf("%s, %d runs: svc's change points over the control %v, want %v", tc.set, tc.runs, rel, tc.want)
					}
					if slices.ContainsFunc(raw, func(s string) bool { return strings.HasPrefix(s, "night08") || strings.HasPrefix(s, "night09") }) {
						t.Errorf("%s, %d runs: svc's own values show a change at night08-09 (%v), which the faster machine hides", tc.set, tc.runs, raw)
					}
					t.Logf("%s, %d runs: svc over the control %v, as measured %v", tc.set, tc.runs, rel, raw)
				}
			}
		}
		t.Logf("%s, %d runs: the control's own (the machine) %v", tc.set, tc.runs, machine)
	}
}

// TestTruth31ControlMissingNights: nights without the control's runs (a
// job whose control step failed) on testdata/truth/nightly-swings-step,
// 2 runs a night, the control dropped from night 5 and from the latest
// night 12. The latest night cannot be checked over the control: svc's
// verdict is undecided (control missing), and the gate fails closed. The
// nights with the control still date the step over it (night08), night
// 5 left out of the ratios; the control's own track is as measured.
func TestTruth31ControlMissingNights(t *testing.T) {
	exps := truth31Nights(t, "nightly-swings-step", 2, 12)
	for _, i := range []int{4, 11} {
		v := *exps[i].Verdict
		v.Systems = slices.DeleteFunc(slices.Clone(v.Systems), func(s analyze.System) bool { return s.Label == "control" })
		exps[i].Verdict = &v
	}
	o := nightlyGate()
	o.Control = "control"
	h, err := analyze.AnalyzeHistory("nightly", analyze.OrderAsGiven, exps, o)
	if err != nil {
		t.Fatal(err)
	}
	if !h.Failed {
		t.Errorf("the gate passed on a latest night without the control")
	}
	for _, tr := range h.Tracks {
		if tr.System != "svc" {
			continue
		}
		for _, mt := range tr.Metrics {
			if mt.Metric != analyze.MetricRPS {
				continue
			}
			if l := mt.Latest; l == nil || l.Verdict != analyze.CheckUndecided || l.Unusable == nil || l.Unusable.Code != analyze.ReasonControlMissing {
				t.Errorf("svc's latest night without the control: %+v, want undecided, control missing", l)
			}
			if mt.Ratios[4] != nil || mt.Ratios[11] != nil {
				t.Errorf("ratios on the nights without the control: %v, %v", mt.Ratios[4], mt.Ratios[11])
			}
			var at []string
			for _, c := range mt.RelativeChanges {
				at = append(at, h.Experiments[tr.Points[c.At].Experiment].Name)
				for _, p := range append(slices.Clone(c.Before), c.After...) {
					if p == 4 || p == 11 {
						t.Errorf("a change point over the control uses night %d, which has no control", p+1)
					}
				}
			}
			if !slices.Equal(at, []string{"night08"}) {
				t.Errorf("svc's change points over the control at %v, want night08", at)
			}
		}
	}
}

// TestTruth31NightlyOpenSwings is the control under an open model on
// testdata/truth/nightly-open-swings (vegeta at 500 req/s, 2 runs a night;
// svc 15 % more work a request from night 5; the machine faster on nights
// 4-6 and slower on 9-10): with the control, nights 2-4 pass with no
// change, no regression is dated before night 5, nights 7-10 fail, a
// regression since night 5 or 6 (night 8, 7.7 % worse over the control,
// beyond the allowed 5 % but within the noise, does not end it: analysis
// version 15; before, it passed as recovered and night 10 was dated at
// night 9), and over all 10 nights
// svc's mean latency has one change point over the control, a regression
// within a night of night 5 (its own values' are logged: night 7, the
// step and the machine's return together). Logged: nights 5-6 with the
// control, and every night without it: under an
// open model the latency's ratio to the control moves with the machine
// (+3 % to +41 % for the same step), README.md.
func TestTruth31NightlyOpenSwings(t *testing.T) {
	exps := truthControlNights(t, "nightly-open-swings", "vegeta", 2, 10)
	for _, control := range []string{"control", ""} {
		o := nightlyGate()
		o.Control = control
		for to := 2; to <= 10; to++ {
			h, err := analyze.AnalyzeHistory("nightly", analyze.OrderAsGiven, exps[:to], o)
			if err != nil {
				t.Fatal(err)
			}
			v, n, ok := svcNight(h)
			if !ok {
				t.Fatalf("nights 1..%d: no svc track", to)
			}
			since := svcPointNight(h, n.Since)
			state := fmt.Sprintf("control %q, nights 1..%d: %s (gate failed %v, since night %d)", control, to, v, h.Failed, since)
			switch {
			case control != "" && to <= 4 && (h.Failed || v != analyze.CheckNoChange && v != analyze.CheckForming):
				t.Errorf("%s, want the gate passed, no change", state)
			case control != "" && n.Since >= 0 && since < 5:
				t.Errorf("%s, want no regression dated before night 5", state)
			case control != "" && to >= 7 && (!h.Failed || v != analyze.CheckRegression || since > 6):
				// A night still beyond the allowed regression does not end
				// it with a control (night 8: 1.051 x control, 7.7 % worse).
				t.Errorf("%s, want the gate failed, a regression since night 5 or 6", state)
			default:
				t.Log(state)
			}
		}
	}
	o := nightlyGate()
	o.Control = "control"
	h, err := analyze.AnalyzeHistory("nightly", analyze.OrderAsGiven, exps, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range h.Tracks {
		for _, mt := range tr.Metrics {
			if tr.System != "svc" || mt.Metric != analyze.MetricLatMeanMs {
				continue
			}
			for _, c := range mt.Changes {
				t.Logf("svc's own mean latency: a change point at night %d (regression %v)", svcPointNight(h, c.At), c.Regression)
			}
			if len(mt.RelativeChanges) != 1 {
				t.Fatalf("svc's mean latency over the control has %d change points, want 1", len(mt.RelativeChanges))
			}
			c := mt.RelativeChanges[0]
			if at := svcPointNight(h, c.At); at < 4 || at > 6 || !c.Regression {
				t.Errorf("svc's change point over the control at night %d (regression %v), want a regression within a night of night 5", at, c.Regression)
			}
		}
	}
}

// truthControlNights analyses nights 1..to of testdata/truth/<set>, a
// series with a control: each night's runs of svc and control by tool
// (svc/<tool>1.txt, control/<tool>1.txt, ...), interleaved as made.
func truthControlNights(t *testing.T, set, tool string, runs, to int) []analyze.SeriesExperiment {
	t.Helper()
	var out []analyze.SeriesExperiment
	for n := 1; n <= to; n++ {
		name := fmt.Sprintf("night%02d", n)
		st := analyze.Set{Experiment: name}
		for i := 1; i <= runs; i++ {
			for _, sys := range []string{"svc", "control"} {
				addRuns(t, &st, filepath.Join("../testdata/truth", set, name, sys, fmt.Sprintf("%s%d.txt", tool, i)), sys)
			}
		}
		v, err := analyze.Analyze(st, analyze.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, analyze.SeriesExperiment{Name: name, Verdict: v})
	}
	return out
}
