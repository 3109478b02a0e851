package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/analyze"
)

// gridDir is the committed grid, from this package's folder.
var gridDir = filepath.Join("..", "..", "testdata", "conformance")

// wholeGrid is the whole grid's experiments, analysed once with the
// default gate too (evaluate's gateToo) and shared by the tests that
// need every one: TestConformanceFloors and TestAAGateRate under
// LOADVERDICT_CONFORMANCE=all.
var wholeGrid = sync.OnceValues(func() ([]Result, error) {
	dirs, err := experiments(gridDir, 0)
	if err != nil {
		return nil, err
	}
	return evaluate(context.Background(), dirs, 2, true), nil
})

// TestConformanceFloors analyses the grid's experiments (the analysis
// only; the load was run once, by gen) and fails when a family's
// accuracy falls below its committed floor (floors.json) or the A/A
// false positives or the steady states claimed over a trend grow. By
// default it analyses the sample docs measured the floors on (5 per
// family); LOADVERDICT_CONFORMANCE=all analyses the whole grid.
func TestConformanceFloors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(gridDir, "floors.json"))
	if err != nil {
		t.Fatalf("no committed floors (go run ./scripts/conformance docs writes them): %v", err)
	}
	var fl Floors
	if err := json.Unmarshal(b, &fl); err != nil {
		t.Fatal(err)
	}
	all := os.Getenv("LOADVERDICT_CONFORMANCE") == "all"
	sample := fl.Sample
	if all {
		sample = 0
	}
	var res []Result
	if all {
		res, err = wholeGrid()
	} else {
		var dirs []string
		if dirs, err = experiments(gridDir, sample); err == nil {
			res = evaluate(context.Background(), dirs, 2)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(res) == 0 {
		t.Fatal("no experiments under " + gridDir)
	}
	res = slices.Clone(res)
	series, err := seriesDirs(gridDir, sample)
	if err != nil {
		t.Fatal(err)
	}
	res = append(res, evaluateSeries(context.Background(), series)...)
	var sum strings.Builder
	writeSummary(&sum, res, "text")
	if bad := checkFloors(fl, res, all); len(bad) > 0 {
		t.Errorf("below the committed floors (analysis version %d; floors measured with %d):\n%s\n\n%s",
			analyze.AnalysisVersion, fl.AnalysisVersion, strings.Join(bad, "\n"), sum.String())
	} else {
		t.Logf("%d experiments:\n%s", len(res), sum.String())
	}
	for _, r := range res {
		if r.Err != "" {
			t.Errorf("%s: %s", r.ID, r.Err)
		}
	}
}

func TestGrade(t *testing.T) {
	tests := []struct {
		expect, observed, want string
	}{
		{"flat", "flat", gradeRight},
		{"flat", "warmup", gradeWrong},
		{"warmup", "slowdown", gradeWrong},
		{"same", "inconclusive", gradeRight},
		{"same", "no-difference", gradeRight},
		{"same", "A-faster", gradeWrong},
		{"A-faster", "A-faster", gradeRight},
		{"A-faster", "inconclusive", gradeUndecided},
		{"A-faster", "B-faster", gradeWrong},
		{"A-faster", "no-difference", gradeWrong},
		{"B-worse-p99", "inconclusive", gradeUndecided},
		{"B-worse-p99", "B-better-p99", gradeWrong},
		{"error-burst", "errors", gradeWrong},
		{"overload", "overload", gradeRight},
		{expectDuelSame, "undecided", gradeRight},
		{expectDuelSame, "equivalent", gradeRight},
		{expectDuelSame, "b-worse", gradeWrong},
		{"b-better", "undecided", gradeUndecided},
		{"b-better", "equivalent", gradeWrong},
		{"b-worse", "b-better", gradeWrong},
		{expectDuelBWorseSmall, "equivalent", gradeRight},
		{expectDuelBWorseSmall, "undecided", gradeRight},
		{expectDuelBWorseSmall, "b-better", gradeWrong},
		{expectDuelBBetterSmall, "b-better", gradeRight},
	}
	for _, tt := range tests {
		if got := grade(tt.expect, observation{Outcome: tt.observed}); got != tt.want {
			t.Errorf("grade(%s, %s) = %s, want %s", tt.expect, tt.observed, got, tt.want)
		}
	}
}

func TestMapClass(t *testing.T) {
	up := analyze.Warmup{Class: "level-shift", Shift: &analyze.Shift{Before: 100, After: 130}}
	down := analyze.Warmup{Class: "level-shift", Shift: &analyze.Shift{Before: 100, After: 70}}
	if got := mapClass("level-shift", up); got != "warmup" {
		t.Errorf("a throughput jump: %s, want warmup", got)
	}
	if got := mapClass("level-shift", down); got != "slowdown" {
		t.Errorf("a throughput drop: %s, want slowdown", got)
	}
	if got := mapClass("flat", down); got != "flat" {
		t.Errorf("flat: %s", got)
	}
	dir := map[string]any{"Basis": map[string]any{"Trend": map[string]any{"Direction": "worsening"}}}
	if got := direction(dir); got != "worse" {
		t.Errorf("direction %s, want worse", got)
	}
}

func TestOverlaps(t *testing.T) {
	var m any
	json.Unmarshal([]byte(`{"Windows":[{"FromS":4,"ToS":6,"Share":0.9}]}`), &m)
	if !overlaps(m, 5, 7) || overlaps(m, 7, 9) {
		t.Error("overlaps")
	}
}

func TestDrawDeterministic(t *testing.T) {
	for _, f := range families {
		if f.Series {
			// Drawn by drawSeries (TestSeriesTruth).
			a, b := drawSeries(19, 3), drawSeries(19, 3)
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if string(ja) != string(jb) {
				t.Errorf("%s: two draws of one series differ", f.Name)
			}
			continue
		}
		a, b := draw(f, 19, 3), draw(f, 19, 3)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%s: two draws of one experiment differ", f.Name)
		}
		if a.Truth.Expect == "" || len(a.Runs) == 0 || len(a.Servers) == 0 {
			t.Errorf("%s: incomplete scenario %+v", f.Name, a)
		}
	}
}

func TestCheckFloors(t *testing.T) {
	res := func(grades ...string) []Result {
		var out []Result
		for _, g := range grades {
			out = append(out, Result{Family: "step", Expect: "slowdown", Grade: g, observation: observation{Outcome: "x"}})
		}
		return out
	}
	fl := Floors{Families: map[string]FamilyFloor{"step": {Floor: 0.5, SampleFloor: 0.25}}}
	if bad := checkFloors(fl, res(gradeRight, gradeWrong), true); len(bad) != 0 {
		t.Errorf("at the floor: %v", bad)
	}
	if bad := checkFloors(fl, res(gradeRight, gradeWrong, gradeWrong), true); len(bad) != 1 {
		t.Errorf("below the whole grid's floor: %v", bad)
	}
	if bad := checkFloors(fl, res(gradeRight, gradeWrong, gradeWrong), false); len(bad) != 0 {
		t.Errorf("above the sample's floor: %v", bad)
	}
	trend := []Result{{Family: "trend", Expect: "no-steady-state", Grade: gradeWrong, observation: observation{Outcome: "flat", SteadyClaimed: true}}}
	if bad := checkFloors(Floors{SteadyOverTrend: Count{All: 0}}, trend, true); len(bad) != 1 {
		t.Errorf("a steady state claimed over a trend: %v", bad)
	}
}

// TestAAGateRate: issue 20's "fail-closed does not cry wolf" on the
// grid: the A/A experiments with 4-8 runs a side, each analysed as
// `compare A B` (A the baseline: the default gate's regression check),
// fail the gate in at most 5 % of cases; and the comparisons of the
// aa and ab families hold their rates (issue 19): no A/B decided in the
// wrong direction (nor "no difference") but one, and A/A significant in at
// most 4 of 50 (8 %: the committed grid's four are real shifts between
// two server processes, three of them between blocks; the <= 5 % of
// the acceptance is not met on this grid, docs/STATISTICS.md).
func TestAAGateRate(t *testing.T) {
	// Its rates need every A/A and A/B experiment, each analysed twice
	// (the second time as compare A B): run when the whole grid is asked
	// for, as .ci/run does, on the analyses TestConformanceFloors shares
	// (wholeGrid).
	if testing.Short() || os.Getenv("LOADVERDICT_CONFORMANCE") != "all" {
		t.Skip("analyses the grid's 130 A/A and A/B experiments twice: LOADVERDICT_CONFORMANCE=all")
	}
	res, err := wholeGrid()
	if err != nil {
		t.Fatal(err)
	}
	var aa48, aa48Failed, aa, aaSig, ab, abWrong int
	for _, r := range res {
		if r.Err != "" {
			t.Errorf("%s: %s", r.ID, r.Err)
			continue
		}
		switch r.Family {
		case "aa":
			aa++
			if r.Grade == gradeWrong {
				aaSig++
			}
			if lo, hi := min(r.rec.Truth.RunsA, r.rec.Truth.RunsB), max(r.rec.Truth.RunsA, r.rec.Truth.RunsB); lo >= 4 && hi <= 8 {
				aa48++
				if r.Gate != "pass" {
					aa48Failed++
					t.Logf("%s (%d vs %d runs) fails the gate: %s", r.ID, r.rec.Truth.RunsA, r.rec.Truth.RunsB, r.Gate)
				}
			}
		case "ab":
			ab++
			if r.Grade == gradeWrong {
				abWrong++
				t.Logf("%s: %s, want %s", r.ID, r.Outcome, r.Expect)
			}
		}
	}
	t.Logf("A/A 4-8 runs a side failing the default gate: %d of %d; A/A significant %d of %d; A/B wrong %d of %d", aa48Failed, aa48, aaSig, aa, abWrong, ab)
	if aa48 < 20 || aa < 50 || ab < 80 {
		t.Fatalf("%d A/A (4-8 runs: %d) and %d A/B experiments, want the committed grid's 50 (29) and 80", aa, aa48, ab)
	}
	if aa48Failed*20 > aa48 {
		t.Errorf("%d of %d A/A experiments (4-8 runs a side) fail the default gate, want <= 5 %%", aa48Failed, aa48)
	}
	if aaSig > 4 {
		t.Errorf("A/A: %d of %d significant, want at most 4", aaSig, aa)
	}
	// One A/B is decided the wrong way on the re-recorded grid: ab/045,
	// a 4.2 % effect measured in blocks (A's six runs, then B's) while
	// the machine's load fell between them (p50 3.8-6.4 ms against 3.2);
	// the verdict names the blocks beside it. No more may be.
	if abWrong > 1 {
		t.Errorf("A/B: %d of %d decided the wrong way, want at most 1", abWrong, ab)
	}
}

// TestOthersCPU checks the account of other processes' CPU use: a busy
// loop in this process is the experiment's own time, not others'.
func TestOthersCPU(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc")
	}
	if got := othersPct(cpuMark{busyS: 10, oursS: 4}, cpuMark{busyS: 12, oursS: 5}, 1); got != 100*1/float64(runtime.NumCPU()) {
		t.Errorf("othersPct = %v, want %v", got, 100/float64(runtime.NumCPU()))
	}
	if got := othersPct(cpuMark{busyS: 10, oursS: 4}, cpuMark{busyS: 10.5, oursS: 5}, 1); got != 0 {
		t.Errorf("othersPct with the own account ahead = %v, want 0", got)
	}
	a, ok := markCPU(nil)
	if !ok {
		t.Fatal("markCPU: /proc/stat not read")
	}
	// Spin until both accounts (getrusage and /proc/<pid>/stat) show
	// 0.1 s of our own CPU: on a busy machine that takes longer, never
	// fails. The bound only ends a loop whose account never moves (the
	// defect this test looks for); it is a hang guard, not a speed check.
	x := 0.0
	var b cpuMark
	var proc float64
	for start := time.Now(); time.Since(start) < 5*time.Minute; {
		for range 1_000_000 {
			x += math.Sqrt(x + 1)
		}
		b, _ = markCPU(nil)
		if proc = procCPU(os.Getpid()); b.oursS-a.oursS >= 0.1 && proc >= 0.1 {
			break
		}
	}
	if b.oursS-a.oursS < 0.1 {
		t.Errorf("own CPU after 5 minutes of a busy loop: %.3f s, want >= 0.1 (x %v)", b.oursS-a.oursS, x)
	}
	if proc < 0.1 {
		t.Errorf("procCPU of this process after 5 minutes of a busy loop is %v, want >= 0.1", proc)
	}
}
