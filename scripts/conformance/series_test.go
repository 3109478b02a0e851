package main

import (
	"testing"
)

// TestSeriesTruth checks the nightly series' truth as drawn, over many
// draws: 8-12 nights; the step night is the one "step-night", every
// night after it until the revert "fail", every other "pass"; svc's
// work is the control's times 1+step where a regression is in effect,
// the control's elsewhere; without the control, exactly the nights of
// an unchanged build on a slower machine and of a regression on a
// faster one are untellable; a normal night's hog is the series' base
// cycle of 10 ms.
func TestSeriesTruth(t *testing.T) {
	seen := map[string]int{}
	for i := range 400 {
		s := drawSeries(19, i)
		seen[s.Variant]++
		n := len(s.Nights)
		if n < 8 || n > 12 || s.Runs < 1 || s.Runs > 2 {
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
