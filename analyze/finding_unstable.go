package analyze

import "slices"

// InstabilityFacts are the figures of an unstable, stall or
// periodic-stalls finding: the run's Instability.
type InstabilityFacts struct {
	Instability
}

func (InstabilityFacts) facts() {}

// Code returns the code of the finding that reports in: periodic-stalls
// when its excursions recur at a regular period, stall for one
// excursion (a stall), unstable otherwise.
func (in *Instability) Code() Code {
	switch {
	case in.Periodic:
		return CodePeriodicStalls
	case in.Excursions == 1:
		return CodeStall
	}
	return CodeUnstable
}

// checkUnstable adds an unstable, stall or periodic-stalls finding
// (Instability.Code) for each run of a group whose windows left their
// level.
func checkUnstable(v *Verdict, fc *findingContext) {
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			for _, rw := range s.WithinRunWarmup {
				if in := rw.Instability; in != nil && slices.Contains(g.RunIDs, rw.RunID) {
					v.add(SeverityWarning, in.Code(), Subject{Systems: []string{s.Label}, Runs: []RunRef{refOf(fc.byID, rw.RunID)}}, InstabilityFacts{*in})
				}
			}
		}
	}
}
