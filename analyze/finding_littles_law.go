package analyze

import "github.com/loadverdict/loadverdict/stats"

// LittlesLawFacts are the figures of a littles-law finding.
type LittlesLawFacts struct {
	Ratios []float64 // rps*mean latency/connections, one per Subject.Runs
}

func (LittlesLawFacts) facts() {}

// checkLittlesLaw adds a littles-law finding per system whose runs'
// Little's law ratio lies outside [stats.LittleLow, stats.LittleHigh].
func checkLittlesLaw(v *Verdict, fc *findingContext) {
	for _, s := range v.Systems {
		c := s.Capacity
		var off []RunRef
		var ratios []float64
		for i, ratio := range c.LittlesLawRatio {
			if ratio < stats.LittleLow || ratio > stats.LittleHigh {
				off = append(off, refOf(fc.byID, c.LittlesLawRuns[i]))
				ratios = append(ratios, ratio)
			}
		}
		if len(off) > 0 {
			v.add(SeverityInfo, CodeLittlesLaw, Subject{Systems: []string{s.Label}, Runs: off}, LittlesLawFacts{Ratios: ratios})
		}
	}
}
