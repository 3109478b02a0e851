package analyze

// OutlierRunFacts are the figures of an outlier-run finding: the run and
// the rule's figures.
type OutlierRunFacts struct {
	OutlierRun
	// SteadyRuns is the number of runs the group's steady figures are
	// over without it (0 when the group has no steady state).
	SteadyRuns int
}

func (OutlierRunFacts) facts() {}

// checkOutlierRun adds an outlier-run finding for each group's outlier
// round (Group.Outlier).
func checkOutlierRun(v *Verdict, _ *findingContext) {
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			if g.Outlier != nil {
				v.add(SeverityWarning, CodeOutlierRun, Subject{Systems: []string{s.Label}, Settings: ptrTo(g.Settings), Runs: []RunRef{g.Outlier.Run}},
					OutlierRunFacts{OutlierRun: *g.Outlier, SteadyRuns: g.Steady.Runs})
			}
		}
	}
}
