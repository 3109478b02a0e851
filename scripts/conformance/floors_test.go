package main

import (
	"fmt"
	"strings"
)

// checkFloors returns what falls below the floors: families whose
// accuracy in res is below their floor, and counts above theirs (all
// tells which count applies).
func checkFloors(f Floors, res []Result, all bool) []string {
	var bad []string
	for _, s := range tally(res) {
		ff, ok := f.Families[s.Name]
		if !ok {
			continue
		}
		floor := ff.SampleFloor
		if all {
			floor = ff.Floor
		}
		if s.Accuracy() < floor-1e-9 {
			bad = append(bad, fmt.Sprintf("%s: accuracy %.1f %% (%d of %d) below its floor %.0f %%", s.Name, 100*s.Accuracy(), s.Right, s.N, 100*floor))
		}
	}
	rt := computeRates(res)
	aa, sot := f.AASignificant.Sample, f.SteadyOverTrend.Sample
	if all {
		aa, sot = f.AASignificant.All, f.SteadyOverTrend.All
	}
	if rt.AASignificant > aa {
		bad = append(bad, fmt.Sprintf("A/A: %d significant differences between identical servers, more than the %d committed", rt.AASignificant, aa))
	}
	if rt.SteadyOverTrend > sot {
		bad = append(bad, fmt.Sprintf("trend: %d steady states claimed over a trend, more than the %d committed", rt.SteadyOverTrend, sot))
	}
	fu := f.FalseUnsteady.Sample
	if all {
		fu = f.FalseUnsteady.All
	}
	if n := len(rt.FalseUnsteady); n > fu {
		bad = append(bad, fmt.Sprintf("stall or error-burst findings on %d experiments without stalls or bursts, more than the %d committed: %s", n, fu, strings.Join(rt.FalseUnsteady, "; ")))
	}
	return bad
}
