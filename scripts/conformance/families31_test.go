package main

import (
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/results"
)

// TestGradeIssue31 grades the outcomes of the errors, pauses and
// outlier-round families.
func TestGradeIssue31(t *testing.T) {
	tests := []struct {
		expect, observed, want string
	}{
		{expectMoreErrors, "B-more-errors+fail", gradeRight},
		{expectMoreErrors, "B-more-errors+pass", gradeWrong},
		{expectMoreErrors, "inconclusive+fail", gradeUndecided},
		{expectMoreErrors, "inconclusive+pass", gradeWrong},
		{expectMoreErrors, "no-difference+pass", gradeWrong},
		{expectSameErrors, "no-difference+pass", gradeRight},
		{expectSameErrors, "inconclusive+pass", gradeRight},
		{expectSameErrors, "inconclusive+fail", gradeWrong},
		{expectSameErrors, "B-more-errors+fail", gradeWrong},
		{expectErrorsInBand, "B-more-errors+fail", gradeRight},
		{expectErrorsInBand, "no-difference+pass", gradeRight},
		{expectErrorsInBand, "A-more-errors+pass", gradeWrong},
		{expectPeriodicPauses, "periodic-pauses", gradeRight},
		{expectPeriodicPauses, "periodic-pauses-wrong-period", gradeWrong},
		{expectPeriodicPauses, "not-periodic", gradeWrong},
		{expectIrregularPauses, "not-periodic", gradeRight},
		{expectIrregularPauses, "periodic-pauses", gradeWrong},
		{expectIrregularPauses, "periodic-stalls", gradeWrong},
		{expectNoPauses, "not-periodic", gradeRight},
		{expectNoPauses, "stall", gradeWrong},
		{expectOutlierRound, "outlier-round", gradeRight},
		{expectOutlierRound, "warmup-left-out", gradeRight},
		{expectOutlierRound, "none", gradeWrong},
		{expectOutlierRound, "outlier-wrong-round", gradeWrong},
		{expectOutlierEither, "none", gradeRight},
		{expectOutlierEither, "outlier-round", gradeRight},
		{expectOutlierEither, "outlier-wrong-round", gradeWrong},
		{expectNoOutlier, "none", gradeRight},
		{expectNoOutlier, "outlier-flagged", gradeWrong},
	}
	for _, tt := range tests {
		if got := grade(tt.expect, observation{Outcome: tt.observed}); got != tt.want {
			t.Errorf("grade(%s, %s) = %s, want %s", tt.expect, tt.observed, got, tt.want)
		}
	}
}

// TestErrorsOutcome reads the error comparison of B against A whichever
// side the comparison names first, and the gate's condition errors.
func TestErrorsOutcome(t *testing.T) {
	p := 0.001
	v := &analyze.Verdict{
		ErrorComparisons: []analyze.ErrorComparison{{A: "B", B: "A", Verdict: analyze.AMoreErrors, PValue: &p}},
		Gate:             analyze.Gate{Reasons: []analyze.GateReason{{Condition: gate.Errors, Fails: true}}},
	}
	if o := errorsOutcome(v); o.Outcome != "B-more-errors+fail" {
		t.Errorf("B more errors, errors failing: %s", o.Outcome)
	}
	v.ErrorComparisons[0] = analyze.ErrorComparison{A: "A", B: "B", Verdict: analyze.AMoreErrors}
	v.Gate.Reasons = nil
	if o := errorsOutcome(v); o.Outcome != "A-more-errors+pass" {
		t.Errorf("A more errors, gate passing: %s", o.Outcome)
	}
	v.ErrorComparisons[0] = analyze.ErrorComparison{A: "B", B: "A", Verdict: analyze.Inconclusive, Untested: analyze.ErrorUntestedOverdispersed}
	v.Gate.Reasons = []analyze.GateReason{{Condition: gate.Errors, Fails: false, Allowed: true}}
	if o := errorsOutcome(v); o.Outcome != "untested-overdispersed+pass" {
		t.Errorf("untested, errors allowed: %s", o.Outcome)
	}
	if o := errorsOutcome(&analyze.Verdict{}); o.Outcome != "no-error-comparison" {
		t.Errorf("no comparison: %s", o.Outcome)
	}
}

// TestPausesOutcome checks the period (within 10 %) and the share of
// held requests (within a factor of 2) of a periodic-pauses finding.
func TestPausesOutcome(t *testing.T) {
	rec := Record{Scenario: Scenario{Truth: Truth{Expect: expectPeriodicPauses, PeriodS: 1, SharePct: 4}}}
	finding := func(period, share float64) *analyze.Verdict {
		return &analyze.Verdict{Findings: []analyze.Finding{{Code: analyze.CodePeriodicPauses, Facts: analyze.PeriodicPausesFacts{PeriodS: period, ShareRequests: share}}}}
	}
	for _, tt := range []struct {
		period, share float64
		want          string
	}{
		{1.05, 0.035, "periodic-pauses"},
		{0.91, 0.021, "periodic-pauses"},
		{1.11, 0.04, "periodic-pauses-wrong-period"},
		{0.5, 0.04, "periodic-pauses-wrong-period"},
		{1, 0.019, "periodic-pauses-wrong-share"},
		{1, 0.081, "periodic-pauses-wrong-share"},
	} {
		if o := pausesOutcome(rec, finding(tt.period, tt.share)); o.Outcome != tt.want {
			t.Errorf("period %.2f s, share %.3f: %s, want %s", tt.period, tt.share, o.Outcome, tt.want)
		}
	}
	if o := pausesOutcome(rec, &analyze.Verdict{}); o.Outcome != "not-periodic" {
		t.Errorf("no finding: %s", o.Outcome)
	}
	stalls := &analyze.Verdict{Findings: []analyze.Finding{{Code: analyze.CodePeriodicStalls}}}
	if o := pausesOutcome(rec, stalls); o.Outcome != "periodic-stalls" {
		t.Errorf("periodic stalls: %s", o.Outcome)
	}
	none := Record{Scenario: Scenario{Truth: Truth{Expect: expectNoPauses}}}
	if o := pausesOutcome(none, &analyze.Verdict{Findings: []analyze.Finding{{Code: analyze.CodeStall}}}); o.Outcome != string(analyze.CodeStall) {
		t.Errorf("a stall on a control: %s", o.Outcome)
	}
}

// TestOutlierOutcome checks that the flagged round is the disturbed one
// and that the steady figures leave it out.
func TestOutlierOutcome(t *testing.T) {
	rps := []float64{100, 101, 99, 50, 100, 102}
	group := func(outlier int, steadyFrom int32, steadyMean float64, steadyRuns int) analyze.Group {
		g := analyze.Group{Warmup: analyze.Warmup{SteadyFromSeq: &steadyFrom}, Steady: analyze.Steady{Runs: steadyRuns, RPSMean: &steadyMean}}
		for i, x := range rps {
			g.Runs = append(g.Runs, results.Run{RunID: string(rune('a' + i)), Seq: int32(i), RPS: x})
		}
		if outlier >= 0 {
			g.Outlier = &analyze.OutlierRun{Run: analyze.RunRef{RunID: g.Runs[outlier].RunID, Seq: int32(outlier)}}
		}
		return g
	}
	verdict := func(g analyze.Group) *analyze.Verdict {
		return &analyze.Verdict{Systems: []analyze.System{{Label: "S", Groups: []analyze.Group{g}}}}
	}
	rec := func(round int) Record { return Record{Scenario: Scenario{Truth: Truth{OutlierRound: round}}} }
	left := (100 + 101 + 99 + 100 + 102) / 5.0
	all := (100 + 101 + 99 + 50 + 100 + 102) / 6.0
	for _, tt := range []struct {
		name  string
		round int
		g     analyze.Group
		want  string
	}{
		{"flagged and left out", 4, group(3, 0, left, 5), "outlier-round"},
		{"flagged, steady figures with it", 4, group(3, 0, all, 6), "outlier-in-steady"},
		{"another round flagged", 4, group(5, 0, left, 5), "outlier-wrong-round"},
		{"none flagged", 4, group(-1, 0, all, 6), "none"},
		{"control flagged", 0, group(3, 0, left, 5), "outlier-flagged"},
		{"control", 0, group(-1, 0, all, 6), "none"},
		{"first round: a warm-up", 1, group(-1, 1, 100, 5), "warmup-left-out"},
		{"first round in the steady state", 1, group(-1, 0, all, 6), "none"},
	} {
		if o := outlierOutcome(rec(tt.round), verdict(tt.g)); o.Outcome != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, o.Outcome, tt.want)
		}
	}
}

// TestIssue31Draws checks the families' draws against their truth: every
// expected outcome drawn, the hog on a round of the series and the
// server pinned, the error shares in the servers' flags, the pauses'
// period in the server's, runs long enough for 6 periods.
func TestIssue31Draws(t *testing.T) {
	seen := map[string]int{}
	for _, name := range []string{"errors", "pauses", "outlier-round"} {
		f, ok := familyByName(name)
		if !ok {
			t.Fatalf("no family %s", name)
		}
		for i := range 60 {
			s := draw(f, 19, i)
			seen[s.Truth.Expect]++
			switch name {
			case "errors":
				if s.Truth.RunsA < 2 || s.Truth.RunsB < 2 || len(s.Runs) != s.Truth.RunsA+s.Truth.RunsB {
					t.Errorf("%s: %d+%d runs, %d run specs", s.ID, s.Truth.RunsA, s.Truth.RunsB, len(s.Runs))
				}
				if (s.Truth.Expect == expectSameErrors) != (s.Truth.ErrorPctA == s.Truth.ErrorPctB) {
					t.Errorf("%s: %s with %.2f %% and %.2f %%", s.ID, s.Truth.Expect, s.Truth.ErrorPctA, s.Truth.ErrorPctB)
				}
				if s.Truth.Expect == expectMoreErrors && s.Truth.ErrorPctB-s.Truth.ErrorPctA <= analyze.DefaultErrorBandPts {
					t.Errorf("%s: a rise of %.2f points expected beyond the band", s.ID, s.Truth.ErrorPctB-s.Truth.ErrorPctA)
				}
			case "pauses":
				d := s.Runs[0].DurationS
				if s.Truth.PeriodS > 0 && (d < 6*s.Truth.PeriodS || d > 30 || s.Truth.StallS > s.Truth.PeriodS/4+1e-9) {
					t.Errorf("%s: %.0f s run, period %.2f s, stall %.3f s", s.ID, d, s.Truth.PeriodS, s.Truth.StallS)
				}
			case "outlier-round":
				hogs := 0
				for j, r := range s.Runs {
					if r.Hog != nil {
						hogs++
						if j+1 != s.Truth.OutlierRound {
							t.Errorf("%s: the hog on round %d, the truth says %d", s.ID, j+1, s.Truth.OutlierRound)
						}
					}
				}
				if s.Pin == nil || (hogs == 1) != (s.Truth.Expect != expectNoOutlier) || len(s.Runs) < 6 {
					t.Errorf("%s: %d hogs, %d rounds, pin %v, expect %s", s.ID, hogs, len(s.Runs), s.Pin, s.Truth.Expect)
				}
			}
		}
	}
	for _, e := range []string{expectMoreErrors, expectSameErrors, expectPeriodicPauses, expectIrregularPauses, expectNoPauses, expectOutlierRound, expectOutlierEither, expectNoOutlier} {
		if seen[e] == 0 {
			t.Errorf("no draw expects %s in 60 a family", e)
		}
	}
	if hogShare(0) != 50 || hogShare(5) != 24.7 || hogShare(13) < 5 || hogShare(13) > 6 {
		t.Errorf("hog shares: nice 0 %.1f, 5 %.1f, 13 %.1f", hogShare(0), hogShare(5), hogShare(13))
	}
}
