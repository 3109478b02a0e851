package main

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
)

// TestNightlyTally: the nightly Monte-Carlo's rates per their
// definitions on hand-made nights: a stable night is one with no change
// before it, night 1 left out; a step is caught within k nights when the
// gate fails on one of the k nights from the step night; a gate already
// failing the night before the step is counted (red) and still a catch.
func TestNightlyTally(t *testing.T) {
	F, P := true, false
	var tl nightlyTally
	r, d, u, n := analyze.CheckRegression, analyze.CheckDrift, analyze.CheckUndecided, analyze.CheckNoChange
	tl.tally([]bool{F, P, F, P, P}, []analyze.CheckVerdict{n, n, r, n, n}, -1, -1)       // stable: nights 2-5, one failed (night 1 never counts)
	tl.tally([]bool{P, P, P, P, P, F}, []analyze.CheckVerdict{n, n, n, n, n, u}, -1, -1) // stable: nights 2-6, one failed
	tl.tally([]bool{P, F, P, P, F, F}, []analyze.CheckVerdict{n, d, n, n, r, r}, 3, -1)  // step at night 4: nights 2-3 stable (one failed); caught on its 2nd night
	tl.tally([]bool{P, P, P, P, P, P}, []analyze.CheckVerdict{n, n, n, n, n, n}, 2, -1)  // never caught
	tl.tally([]bool{P, P, F, P, P}, []analyze.CheckVerdict{n, n, u, n, n}, 3, -1)        // red the night before the step, which is never caught
	tl.tally([]bool{P, P, F, F, P}, []analyze.CheckVerdict{n, n, r, r, n}, 3, -1)        // red before, caught on the step night
	want := nightlyTally{Series: 6, Stable: 4 + 5 + 2 + 1 + 2 + 2, Failed: 1 + 1 + 1 + 0 + 1 + 1, FailedAs: [3]int{2, 1, 2}, StableSeries: 2, FailedSeries: 2,
		Steps: 4, Caught: 2, Within: [3]int{1, 2, 2}, RedBefore: 2, GreenWithin: [3]int{0, 1, 1},
		Held: 2, HeldPassed: 1} // the nights after the first fail: series 3's night 6 (failed), series 6's night 5 (passed)
	if tl != want {
		t.Errorf("tally\n got %+v\nwant %+v", tl, want)
	}
	// A step at night 4 reverted at night 7: caught on night 4, held on
	// night 6 but not 5; of nights 7-8 after the revert, 8 failed.
	var rv nightlyTally
	rv.tally([]bool{P, P, P, F, P, F, P, F}, []analyze.CheckVerdict{n, n, n, r, n, r, n, r}, 3, 6)
	if rv.Caught != 1 || rv.Within[0] != 1 || rv.Held != 2 || rv.HeldPassed != 1 || rv.AfterRevert != 2 || rv.AfterRevertFailed != 1 {
		t.Errorf("revert: %+v", rv)
	}
	// Never caught before its revert: a fail after it is no catch.
	var late nightlyTally
	late.tally([]bool{P, P, P, P, P, P, F}, []analyze.CheckVerdict{n, n, n, n, n, n, r}, 3, 5)
	if late.Caught != 0 || late.AfterRevert != 2 || late.AfterRevertFailed != 1 {
		t.Errorf("caught after its revert: %+v", late)
	}
	var sum nightlyTally
	sum.add(tl)
	sum.add(tl)
	sum.add(rv)
	if sum.Stable != 2*want.Stable+2 || sum.Within[1] != 5 || sum.RedBefore != 4 || sum.Held != 6 || sum.HeldPassed != 3 || sum.AfterRevert != 2 || sum.AfterRevertFailed != 1 {
		t.Errorf("add: %+v", sum)
	}
}

// TestNightlyDraw: the generator is the model: the between-night
// innovations have sd sigma_b and the AR(1) coefficient phi, 1 in 10
// nights (within 1 point) is an outlier shifted by 3-5 sigma_b, the runs scatter by
// sigma_r about their night; the step starts on a night in 7..18 and
// stays; and the control cancels the shared night effect: the ratio
// series of a draw is the same at every sigma_b (only the runs' noise
// and the step are left in it).
func TestNightlyDraw(t *testing.T) {
	m := nightlyModel{SigmaR: 0.02, OutlierProb: 0.1, Opts: nightlyOpts(5)}
	c := nightlyCell{Ratio: 3, Phi: 0.5, Runs: 3, Step: 0.10}
	r := rand.New(rand.NewPCG(1, 2))
	var innov, within []float64
	var lag0, lag1 float64
	outliers, nights := 0, 0
	for range 2000 {
		s := drawNightly(r, c, m)
		if s.At < nightlyFirstAt || s.At > nightlyNights-3 {
			t.Fatalf("step at night %d", s.At+1)
		}
		sb := c.Ratio * m.SigmaR
		for i := range nightlyNights {
			nights++
			if d := math.Abs(s.O[i]) / sb; s.Outlier[i] && (d < 3 || d > 5) || !s.Outlier[i] && s.O[i] != 0 {
				t.Fatalf("night %d: outlier %v shifted by %.2f sigma_b", i+1, s.Outlier[i], d)
			}
			if s.Outlier[i] {
				outliers++
			}
			step := 1.0
			if i >= s.At {
				step = 1.1
			}
			for _, x := range s.Treat[i] {
				within = append(within, -math.Log(x/1000*step)-s.B[i]-s.O[i])
			}
			if i > 0 {
				innov = append(innov, s.B[i]-c.Phi*s.B[i-1])
				lag0 += s.B[i-1] * s.B[i-1]
				lag1 += s.B[i] * s.B[i-1]
			}
		}
	}
	sd := func(x []float64) float64 {
		var s, ss float64
		for _, v := range x {
			s += v
			ss += v * v
		}
		n := float64(len(x))
		return math.Sqrt(ss/n - (s/n)*(s/n))
	}
	if f := float64(outliers) / float64(nights); math.Abs(f-0.1) > 0.01 {
		t.Errorf("outlier nights %.3f, want 0.10", f)
	}
	if got := sd(innov); math.Abs(got/(c.Ratio*m.SigmaR)-1) > 0.05 {
		t.Errorf("innovation sd %.4f, want %.4f", got, c.Ratio*m.SigmaR)
	}
	if got := lag1 / lag0; math.Abs(got-c.Phi) > 0.03 {
		t.Errorf("AR(1) coefficient %.3f, want %.2f", got, c.Phi)
	}
	if got := sd(within); math.Abs(got/m.SigmaR-1) > 0.05 {
		t.Errorf("run-to-run sd %.4f, want %.4f", got, m.SigmaR)
	}
	// The control: the same draws at sigma_b 1x and 10x give the same
	// ratio series.
	for _, phi := range []float64{0, 0.5} {
		a := drawNightly(rand.New(rand.NewPCG(5, 5)), nightlyCell{Ratio: 1, Phi: phi, Runs: 2, Step: 0.1}, m)
		b := drawNightly(rand.New(rand.NewPCG(5, 5)), nightlyCell{Ratio: 10, Phi: phi, Runs: 2, Step: 0.1}, m)
		if a.At != b.At || slices.Equal(a.B, b.B) {
			t.Fatalf("phi %g: draws differ in the step (%d, %d) or share the night effects", phi, a.At, b.At)
		}
		for i := range a.Ratio {
			for j := range a.Ratio[i] {
				if math.Abs(a.Ratio[i][j]/b.Ratio[i][j]-1) > 1e-9 {
					t.Fatalf("phi %g, night %d: the ratio to the control depends on sigma_b: %v vs %v", phi, i+1, a.Ratio[i], b.Ratio[i])
				}
			}
		}
	}
}

// TestNightlyFastIsWhole: the Monte-Carlo gates each night by the
// sequential check over the nights' values (seqNights); a nightly job
// runs the whole path (each night's runs through analyze.Analyze, the
// series so far through analyze.AnalyzeHistory, the gate read). At 1-3
// runs a night the two must agree on every night: verdict and gate,
// without and with a control, on series that fail and pass (stable,
// between-night sd 0-10x, a 10 % step). A few series by default (each
// costs the whole path about a second); more with LOADVERDICT_LONG=1.
func TestNightlyFastIsWhole(t *testing.T) {
	m := nightlyModel{SigmaR: 0.02, OutlierProb: 0.1, Opts: nightlyOpts(5)}
	per := 1
	if os.Getenv("LOADVERDICT_LONG") == "1" {
		per = 5
	}
	r := rand.New(rand.NewPCG(31, 1))
	compared, failedNights := 0, 0
	for _, c := range []nightlyCell{{0, 0, 3, 0.1}, {3, 0.5, 1, 0}, {3, 0, 2, 0.1}, {10, 0.5, 2, 0.05}} {
		for range per {
			s := drawNightly(r, c, m)
			for k, control := range [][][]float64{nil, s.Control} {
				wf, wv, err := gateNights(s.Treat, control, m.Opts)
				if err != nil {
					t.Fatal(err)
				}
				ff, fv := seqNights(s.Treat, control, m.Opts)
				if !slices.Equal(wf, ff) || !slices.Equal(wv, fv) {
					t.Errorf("%+v, control %v: the whole path %v %v, the sequential check %v %v", c, k == 1, wf, wv, ff, fv)
				}
				compared += len(s.Treat)
				for _, f := range wf {
					if f {
						failedNights++
					}
				}
			}
		}
	}
	t.Logf("%d nights compared, %d failed", compared, failedNights)
	if failedNights == 0 {
		t.Error("no night failed: the comparison says nothing of the gate")
	}
}

// TestNightlyMC runs the Monte-Carlo on a sample of the grid (the whole
// grid at 200 series a cell with LOADVERDICT_LONG=1) and checks what the
// current check holds and the redesign must keep: with no between-night
// noise (sigma_b 0), at 2 and 3 runs a night, at most 5 % of stable
// nights fail (issue 20's bound) and a 20 % step is caught within 3
// nights in >= 90 %; and with a control the stable tallies are the same
// at every sigma_b (the cells share their draws, and the ratio cancels
// the night). Issue 31's targets are reported
// (docs/STATISTICS.md), not asserted: the current check misses them.
func TestNightlyMC(t *testing.T) {
	draws, ratios, runs := 30, []float64{0, 10}, []int{2, 3}
	long := os.Getenv("LOADVERDICT_LONG") == "1"
	if long {
		draws, ratios, runs = 200, []float64{0, 1, 3, 10}, []int{1, 2, 3}
	}
	m := nightlyModel{SigmaR: 0.02, OutlierProb: 0.1, Opts: nightlyOpts(5)}
	res, err := nightlyMC(m, draws, 31, ratios, []float64{0, 0.5}, runs, []float64{0, 0.2}, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	writeNightly(&out, res)
	t.Log("\n" + out.String())
	for _, n := range []int{2, 3} {
		for _, ph := range res.Phis {
			flat := res.sum(0, func(x nightlyCell) bool { return x.Ratio == 0 && x.Phi == ph && x.Runs == n })
			if flat.Stable == 0 || float64(flat.Failed) > 0.05*float64(flat.Stable) {
				t.Errorf("sigma_b 0, phi %g, %d runs: %d of %d stable nights fail, want <= 5 %%", ph, n, flat.Failed, flat.Stable)
			}
			st := res.Cells[nightlyCell{Ratio: 0, Phi: ph, Runs: n, Step: 0.2}][0]
			if st.Steps == 0 || float64(st.Within[2]) < 0.9*float64(st.Steps) {
				t.Errorf("sigma_b 0, phi %g, %d runs: a 20 %% step caught within 3 nights in %d of %d", ph, n, st.Within[2], st.Steps)
			}
		}
	}
	for _, ph := range res.Phis {
		for _, n := range res.Runs {
			var prev *nightlyTally
			for _, ra := range res.Ratios {
				for _, st := range res.Steps {
					tl := res.Cells[nightlyCell{Ratio: ra, Phi: ph, Runs: n, Step: st}][1]
					if prev != nil && st == 0 && tl != *prev {
						t.Errorf("phi %g, %d runs: with a control the tallies differ between sigma_b's: %+v vs %+v", ph, n, tl, *prev)
					}
					if st == 0 {
						prev = &tl
					}
				}
			}
		}
	}
}

// TestOracleCatch: the oracle's bound is whole where the step is many
// times the noise (no noise between nights: a 10 % step against 2 %
// runs), and far under the 90 % target at a between-night sd 3 times
// the runs' (sd 6 %, an outlier night in 10 at 3-5 times it): the
// figure that shows the target out of any detector's reach there. With
// a control, which cancels the night, it is whole again.
func TestOracleCatch(t *testing.T) {
	m := nightlyModel{SigmaR: 0.02, OutlierProb: 0.1, Opts: nightlyOpts(5)}
	for _, tc := range []struct {
		ratio        float64
		minNo, maxNo float64
		minCtl       float64
	}{{0, 0.97, 1, 0.97}, {1, 0.85, 1, 0.97}, {3, 0.05, 0.45, 0.97}} {
		got := oracleCatch(nightlyCell{Ratio: tc.ratio, Runs: 2, Step: 0.10}, m, 400, 5, 0.01)
		if got[0] < tc.minNo || got[0] > tc.maxNo || got[1] < tc.minCtl {
			t.Errorf("sigma_b %gx sigma_r: oracle catches %.2f without a control, %.2f with one; want %.2f-%.2f and >= %.2f", tc.ratio, got[0], got[1], tc.minNo, tc.maxNo, tc.minCtl)
		}
	}
}

// TestNightlyDrawOddAndWindow checks the model's options of stop 46:
// odd nights (3-5 sigma_r on the system's runs only, not the control's:
// the mean |log(system/control)| of a 1-run night near 4 sigma_r with
// every night odd, near 1.1 sigma_r, the runs' own, with none) and the
// step's window (-step-nights); and stop 48's residual (a between-night
// sd of 2 sigma_r on the system's runs only: the log ratio's sd √6
// sigma_r, its mean absolute value √6·√(2/π) = 1.95 sigma_r).
func TestNightlyDrawOddAndWindow(t *testing.T) {
	for _, tc := range []struct {
		odd, residual float64
		min, max      float64 // bounds of the mean |log ratio| in sigma_r
	}{{0, 0, 0.9, 1.4}, {1, 0, 3.6, 4.4}, {0, 2, 1.7, 2.2}} {
		m := nightlyModel{SigmaR: 0.02, OddProb: tc.odd, Residual: tc.residual, StepFirst: 3, StepLast: 5, Opts: nightlyOpts(5)}
		r := rand.New(rand.NewPCG(3, 4))
		var sum float64
		n := 0
		for range 200 {
			s := drawNightly(r, nightlyCell{Ratio: 3, Runs: 1, Step: 0.1}, m)
			if s.At < 3 || s.At > 5 {
				t.Fatalf("odd %g, residual %g: step at night %d, want 4-6", tc.odd, tc.residual, s.At+1)
			}
			for i := range s.At {
				sum += math.Abs(math.Log(s.Ratio[i][0] / 1000))
				n++
			}
		}
		if got := sum / float64(n) / m.SigmaR; got < tc.min || got > tc.max {
			t.Errorf("odd %g, residual %g: mean |log(system/control)| %.2f sigma_r, want %.1f-%.1f", tc.odd, tc.residual, got, tc.min, tc.max)
		}
	}
}
