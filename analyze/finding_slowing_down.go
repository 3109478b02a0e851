package analyze

import (
	"slices"

	"github.com/loadverdict/loadverdict/stats"
)

// SlowingDownFacts are the figures of a slowing-down finding.
type SlowingDownFacts struct {
	Metric string // MetricRPS across runs; within runs the windows' MetricLatP50Ms (or MetricLatMeanMs)
	// Change is the fitted change over the series (Theil-Sen) in the
	// metric's unit, ChangePct relative to its median; Over is the
	// number of runs, or the seconds of the run, it happened over.
	Change, ChangePct, Over float64
	// LastTwo is set across runs when no trend was fitted (2-4 runs, or
	// a step inside the last quarter of the series): Change and ChangePct
	// are then the change between the runs FromSeq and ToSeq.
	LastTwo        bool
	FromSeq, ToSeq int32
}

func (SlowingDownFacts) facts() {}

// checkSlowingDown adds, per group, a slowing-down finding across runs
// (no steady state, getting worse) and one per run of the group whose
// windows kept getting worse.
func checkSlowingDown(v *Verdict, fc *findingContext) {
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			if g.Warmup.Class == stats.ClassNoSteadyState && g.Warmup.Direction == stats.Worsening {
				v.add(SeverityWarning, CodeSlowingDown, Subject{Systems: []string{s.Label}, Settings: ptrTo(g.Settings)}, slowingAcross(&g))
			}
			for _, rw := range s.WithinRunWarmup {
				t := rw.Basis.Trend
				if !slices.Contains(g.RunIDs, rw.RunID) || t == nil || rw.Class != stats.ClassNoSteadyState || rw.Direction != stats.Worsening {
					continue
				}
				v.add(SeverityWarning, CodeSlowingDown,
					Subject{Systems: []string{s.Label}, Settings: ptrTo(g.Settings), Runs: []RunRef{refOf(fc.byID, rw.RunID)}, WithinRuns: true},
					SlowingDownFacts{Metric: rw.Basis.Metric, Change: t.Change, ChangePct: 100 * t.Change / t.Level, Over: rw.TrendOverS})
			}
		}
	}
}

// slowingAcross returns the figures of a group getting slower across its
// runs: its fitted trend, else the change between its last two runs.
func slowingAcross(g *Group) SlowingDownFacts {
	// The series the model classified: without the outlier round.
	modelled := withoutOutlier(g, g.Runs)
	f := SlowingDownFacts{Metric: MetricRPS, Over: float64(len(modelled))}
	if t := g.Warmup.Basis.Trend; t != nil {
		f.Change, f.ChangePct = t.Change, 100*t.Change/t.Level
	} else if n := len(modelled); n >= 2 && g.Warmup.ChangePct != nil {
		f.LastTwo, f.FromSeq, f.ToSeq = true, modelled[n-2].Seq, modelled[n-1].Seq
		f.Change, f.ChangePct = modelled[n-1].RPS-modelled[n-2].RPS, *g.Warmup.ChangePct
	}
	return f
}
