package analyze

import "github.com/loadverdict/loadverdict/stats"

// LevelShiftFacts are the figures of a level-shift finding: the
// throughput of the group's runs moved from Before to After at AtSeq.
type LevelShiftFacts struct {
	Metric        string // MetricRPS
	AtSeq         int32
	Before, After float64
	// ChangePct is After relative to Before, percent.
	ChangePct float64
	// Direction is improving for a jump in throughput, worsening for a drop.
	Direction stats.Direction
}

func (LevelShiftFacts) facts() {}

// checkLevelShift adds a level-shift finding for each group whose runs
// moved to another level that stayed (Warmup.Shift).
func checkLevelShift(v *Verdict, _ *findingContext) {
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			if sh := g.Warmup.Shift; sh != nil {
				v.add(SeverityWarning, CodeLevelShift, Subject{Systems: []string{s.Label}, Settings: ptrTo(g.Settings)},
					LevelShiftFacts{Metric: MetricRPS, AtSeq: sh.AtSeq, Before: sh.Before, After: sh.After,
						ChangePct: 100 * (sh.After - sh.Before) / sh.Before, Direction: sh.Direction})
			}
		}
	}
}
