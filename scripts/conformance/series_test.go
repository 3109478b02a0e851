package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// TestSeriesTruth checks the nightly series' truth as drawn, over many
// draws: 8-12 nights; the step night is the one "step-night", every
// night after it until the revert "fail", every other "pass"; svc's
// work is the control's times 1+step where a regression is in effect,
// the control's elsewhere; without the control, exactly the nights of
// an unchanged build on a slower machine and of a regression on a
// faster one are untellable; a normal night's hog is the series' base
// cycle of 10 ms. The open-model series (drawOpenSeries) the same, with
// vegeta at 30-45 % of the server's capacity and 2-3 runs a night.
func TestSeriesTruth(t *testing.T) {
	for _, open := range []bool{false, true} {
		t.Run(fmt.Sprint("open=", open), func(t *testing.T) { testSeriesTruth(t, open) })
	}
}

func testSeriesTruth(t *testing.T, open bool) {
	seen := map[string]int{}
	for i := range 400 {
		s := drawSeries(19, i)
		lo, hi := 1, 2
		if open {
			s, lo, hi = drawOpenSeries(19, i), 2, 3
			if rate := float64(s.RatePerS) * s.Params["work"] / openCapacity; s.Tool != toolVegeta || rate < 0.29 || rate > 0.46 {
				t.Fatalf("%s: %s at %d req/s: %.2f of capacity", s.ID, s.Tool, s.RatePerS, rate)
			}
		}
		seen[s.Variant]++
		n := len(s.Nights)
		if n < 8 || n > 12 || s.Runs < lo || s.Runs > hi {
			t.Fatalf("%s: %d nights, %d runs", s.ID, n, s.Runs)
		}
		step, at, rev := s.Params["step_pct"], int(s.Params["step_night"]), int(s.Params["revert_night"])
		steps := 0
		for e, nt := range s.Nights {
			night := e + 1
			in := step > 0 && night >= at && (rev == 0 || night < rev)
			want := "pass"
			switch {
			case in && night == at:
				want = "step-night"
				steps++
			case in:
				want = "fail"
			}
			if nt.Expect != want {
				t.Errorf("%s %s: expect %s, want %s (%s)", s.ID, nt.Name, nt.Expect, want, s.Note)
			}
			wantWork := nt.ControlWork
			if in {
				wantWork = int(float64(nt.ControlWork)*(1+step/100) + 0.5)
			}
			if nt.SvcWork != wantWork {
				t.Errorf("%s %s: svc work %d, want %d", s.ID, nt.Name, nt.SvcWork, wantWork)
			}
			hidden := nt.Machine == "slower" && !in || nt.Machine == "faster" && in
			if (nt.ExpectAlone == untellable) != hidden || !hidden && nt.ExpectAlone != nt.Expect {
				t.Errorf("%s %s: machine %s, in effect %v: expect alone %s", s.ID, nt.Name, nt.Machine, in, nt.ExpectAlone)
			}
			if nt.Machine == "normal" && (nt.HogSpinMs != s.Params["hog_spin_ms"] || nt.HogSpinMs+nt.HogSleepMs != 10) {
				t.Errorf("%s %s: normal night's hog %v/%v, want %v of 10 ms", s.ID, nt.Name, nt.HogSpinMs, nt.HogSleepMs, s.Params["hog_spin_ms"])
			}
			if (nt.Machine == "faster" || nt.Machine == "outlier-fast") != (nt.HogSpinMs == 0) {
				t.Errorf("%s %s: machine %s with hog %v ms", s.ID, nt.Name, nt.Machine, nt.HogSpinMs)
			}
		}
		if step > 0 && (steps != 1 || at < 4 || at > n-2) || step == 0 && steps != 0 {
			t.Errorf("%s: %d step nights at %d of %d (%s)", s.ID, steps, at, n, s.Note)
		}
		if rev > 0 && (rev < at+2 || rev > n) {
			t.Errorf("%s: revert at %d, step at %d, %d nights", s.ID, rev, at, n)
		}
	}
	for _, v := range []string{"stable", "step", "step-revert", "stable-faster", "step-faster", "stable-slower", "step-outlier"} {
		if seen[v] == 0 {
			t.Errorf("variant %s never drawn in 400: %v", v, seen)
		}
	}
}

// TestCommittedSeriesAsDrawn checks that every committed series is the
// one its draw gives (gen makes again any that is not): a change to the
// draws that moved a recorded series would leave its truth stale.
func TestCommittedSeriesAsDrawn(t *testing.T) {
	dirs, err := seriesDirs(gridDir, 0)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, dir := range dirs {
		rec, err := loadSeries(dir)
		if err != nil {
			t.Fatal(err)
		}
		var i int
		if _, err := fmt.Sscanf(filepath.Base(dir), "%d", &i); err != nil {
			t.Fatal(dir, err)
		}
		want := drawSeries(19, i)
		if rec.Family == openFolder {
			want = drawOpenSeries(19, i)
		}
		kinds[rec.Family]++
		if !equalSeries(rec.SeriesScenario, want) {
			t.Errorf("%s: the committed truth is not the series drawn (%s, drawn %s)", dir, rec.Note, want.Note)
		}
	}
	if kinds[seriesFolder] != seriesN {
		t.Errorf("committed series: %v, want %d of %s", kinds, seriesN, seriesFolder)
	}
}

// TestStepExpect checks a regression night's expectation against the
// step measured: below the allowed regression by two standard errors a
// pass, within two either way either, beyond it the drawn one; and, for
// the open-model series, over both latencies: either one beyond keeps
// the drawn expectation.
func TestStepExpect(t *testing.T) {
	for _, c := range []struct {
		drawn        string
		pct, se      float64
		want         string
		mean, p99    float64 // open model: the two latencies' steps, se 1
		wantOpen     string
		meanOK, p99K bool
	}{
		{drawn: expectFail, pct: 8, se: 1, want: expectFail, mean: 8, p99: 2, meanOK: true, p99K: true, wantOpen: expectFail},
		{drawn: expectFail, pct: 5.5, se: 1, want: expectEither, mean: 2, p99: 5.5, meanOK: true, p99K: true, wantOpen: expectEither},
		{drawn: expectFail, pct: 2, se: 1, want: expectPass, mean: 2, p99: 1, meanOK: true, p99K: true, wantOpen: expectPass},
		{drawn: expectStepNight, pct: 2, se: 1, want: expectPass, mean: 2, p99: 9, meanOK: true, p99K: true, wantOpen: expectStepNight},
		{drawn: expectPass, pct: 20, se: 1, want: expectPass, mean: 20, p99: 20, meanOK: true, p99K: true, wantOpen: expectPass},
		{drawn: expectFail, pct: 2, se: 1, want: expectPass, mean: 2, p99: 30, meanOK: true, wantOpen: expectPass},
		{drawn: expectFail, pct: 2, se: 1, want: expectPass, wantOpen: expectFail},
	} {
		if got := stepExpect(c.drawn, c.pct, c.se, 5); got != c.want {
			t.Errorf("stepExpect(%s, %v ± %v) = %s, want %s", c.drawn, c.pct, c.se, got, c.want)
		}
		s := nightStep{pct: [2]float64{c.mean, c.p99}, se: [2]float64{1, 1}, ok: [2]bool{c.meanOK, c.p99K}}
		if got := s.expect(c.drawn, 5); got != c.wantOpen {
			t.Errorf("%s with mean %+v, p99 %+v (ok %v %v) = %s, want %s", c.drawn, c.mean, c.p99, c.meanOK, c.p99K, got, c.wantOpen)
		}
	}
}

// TestRealizedLatencySteps checks the open-model series' measured steps
// on made-up nights: svc's latencies over the same night's control,
// against the nights without the change, whatever the machine did to
// both (night 4 twice as slow).
func TestRealizedLatencySteps(t *testing.T) {
	run := func(label string, mean, p99 float64) results.Run {
		return results.Run{Label: label, LatMeanMs: &mean, LatP99Ms: &p99}
	}
	night := func(machine, step float64) *analyze.Verdict {
		v := &analyze.Verdict{}
		for _, e := range []float64{0.99, 1.01} {
			v.Runs = append(v.Runs, run("svc", 2*machine*step*e, 9*machine*step*e), run("control", 2*machine*e, 9*machine*e))
		}
		return v
	}
	rec := SeriesRecord{SeriesScenario: SeriesScenario{Nights: []NightSpec{{}, {}, {RegressionPct: 20}, {RegressionPct: 20}}}}
	got := realizedLatencySteps(rec, []*analyze.Verdict{night(1, 1), night(1.1, 1), night(1, 1.2), night(2, 1.2)})
	for i, want := range []float64{0, 0, 20, 20} {
		for k := range 2 {
			if !got[i].ok[k] || math.Abs(got[i].pct[k]-want) > 1e-9 || got[i].se[k] <= 0 || got[i].se[k] > 2 {
				t.Errorf("night %d, latency %d: %+.3f ± %.3f %% (ok %v), want %+.0f", i+1, k, got[i].pct[k], got[i].se[k], got[i].ok[k], want)
			}
		}
	}
	// One run a night: nothing measured, the drawn expectation stands.
	one := &analyze.Verdict{Runs: []results.Run{run("svc", 2, 9), run("control", 2, 9)}}
	got = realizedLatencySteps(rec, []*analyze.Verdict{one, one, one, one})
	if got[2].ok[0] || got[2].expect(expectFail, 5) != expectFail {
		t.Errorf("one run a night: %+v", got[2])
	}
}

// TestResidualOverControl checks what the control leaves of the night:
// 4 unchanged nights whose mean log ratios over the control are 0,
// +0.02, -0.02 and 0 (variance 0.0008/3), each of 2 paired runs ±0.01
// about it (the runs' variance 0.0002, a night's 0.0001): the nights
// vary 8/3 times as much as the runs say, a residual variance of 5/3
// sigma_r² (a 2-run night's ratio varies by sigma_r²). A night with the
// change and one of unpaired runs are not read; with 2 nights left,
// nothing is measured.
func TestResidualOverControl(t *testing.T) {
	night := func(d float64, runs int) *analyze.Verdict {
		v := &analyze.Verdict{}
		for k := range runs {
			e := 0.01
			if k%2 == 1 {
				e = -e
			}
			v.Runs = append(v.Runs, results.Run{Label: "svc", RPS: 1000 * math.Exp(d+e)}, results.Run{Label: "control", RPS: 1000})
		}
		return v
	}
	rec := SeriesRecord{SeriesScenario: SeriesScenario{Nights: []NightSpec{{}, {}, {RegressionPct: 8}, {}, {}, {}}}}
	vs := []*analyze.Verdict{night(0, 2), night(0.02, 2), night(0.3, 2), night(-0.02, 2), night(0.5, 1), night(0, 2)}
	got := residualOverControl(rec, vs)
	if got == nil || math.Abs(got.Ratio2-8.0/3) > 1e-9 || got.Weight != 3 || math.Abs(got.Residual-5.0/3) > 1e-9 {
		t.Errorf("got %+v; want ratio² 2.6667, weight 3, residual 1.6667 sigma_r²", got)
	}
	if got := residualOverControl(rec, []*analyze.Verdict{night(0, 2), night(0.02, 2), night(0, 2), night(0, 1), night(0, 1), night(0, 1)}); got != nil {
		t.Errorf("2 nights of paired runs: measured %+v, want nothing", got)
	}
}

// TestWithTool checks gen -tool: the series drawn with another tool is
// the same series (nights, step, machine, seed) with only its tool and
// the note's tool changed, and -tool is refused where it cannot apply.
func TestWithTool(t *testing.T) {
	for i := range 6 {
		s := drawSeries(2032, i)
		for _, tool := range closedTools {
			w := withTool(s, tool)
			if w.Tool != tool {
				t.Fatalf("series %d with %s: tool %s", i, tool, w.Tool)
			}
			back := withTool(w, s.Tool)
			if !equalSeries(back, s) {
				t.Errorf("series %d: with %s and back is not the series drawn:\n%+v\n%+v", i, tool, back, s)
			}
			if want := tool + fmt.Sprintf(" x%d a night", s.Runs); !strings.Contains(w.Note, want) {
				t.Errorf("series %d with %s: note %q lacks %q", i, tool, w.Note, want)
			}
		}
	}
	if s := drawSeries(2032, 0); !equalSeries(withTool(s, ""), s) {
		t.Error("no -tool changed the series")
	}
	nightly := seriesKinds(seriesFolder)
	for _, c := range []struct {
		name string
		cfg  genConfig
		ok   bool
	}{
		{"none", genConfig{series: seriesKinds("")}, true},
		{"ab, nightly", genConfig{series: nightly, tool: toolAb}, true},
		{"bombardier, nightly", genConfig{series: nightly, tool: toolBombardier}, true},
		{"vegeta is open-model", genConfig{series: nightly, tool: toolVegeta}, false},
		{"unknown tool", genConfig{series: nightly, tool: "siege"}, false},
		{"with the open-model series", genConfig{series: seriesKinds(""), tool: toolAb}, false},
		{"open-model series only", genConfig{series: seriesKinds(openFolder), tool: toolAb}, false},
		{"with a family of experiments", genConfig{series: nightly, fams: families[:1], tool: toolAb}, false},
	} {
		if err := checkSeriesTool(c.cfg); (err == nil) != c.ok {
			t.Errorf("%s: checkSeriesTool = %v, want ok %v", c.name, err, c.ok)
		}
	}
}
