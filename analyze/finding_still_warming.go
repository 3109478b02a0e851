package analyze

import (
	"slices"

	"github.com/loadverdict/loadverdict/stats"
)

// StillWarmingFacts are the figures of a still-warming finding.
type StillWarmingFacts struct {
	// ChangePct is the throughput change between the group's last two
	// runs, percent, FromSeq and ToSeq those runs (across runs).
	ChangePct      *float64
	FromSeq, ToSeq int32
	// Counts are the within-run classes of the group's runs (WithinRuns).
	Counts []stats.ClassCount
}

func (StillWarmingFacts) facts() {}

// checkStillWarming adds, per group, a still-warming finding across runs
// (no steady state, not getting worse) and one within runs (a run still
// improving at its end).
func checkStillWarming(v *Verdict, _ *findingContext) {
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			if g.Warmup.Class == stats.ClassNoSteadyState && g.Warmup.Direction != stats.Worsening {
				f := StillWarmingFacts{ChangePct: g.Warmup.ChangePct}
				// The series the model classified: without the outlier round.
				if modelled := withoutOutlier(&g, g.Runs); len(modelled) >= 2 {
					n := len(modelled)
					f.FromSeq, f.ToSeq = modelled[n-2].Seq, modelled[n-1].Seq
				}
				v.add(SeverityWarning, CodeStillWarming, Subject{Systems: []string{s.Label}, Settings: ptrTo(g.Settings)}, f)
			}
			if g.WithinRun != nil && warmingWithin(s, g) {
				v.add(SeverityWarning, CodeStillWarming, Subject{Systems: []string{s.Label}, Settings: ptrTo(g.Settings), WithinRuns: true},
					StillWarmingFacts{Counts: g.WithinRun.Basis.Counts})
			}
		}
	}
}

// warmingWithin reports whether a run of group g of s was still improving
// at its end.
func warmingWithin(s System, g Group) bool {
	for _, rw := range s.WithinRunWarmup {
		if slices.Contains(g.RunIDs, rw.RunID) && rw.Class == stats.ClassNoSteadyState && rw.Direction != stats.Worsening {
			return true
		}
	}
	return false
}
