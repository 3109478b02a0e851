package analyze

import (
	"slices"

	"github.com/loadverdict/loadverdict/stats"
)

// checkGeneratorBound adds a generator-bound finding per saturated system
// that kept connections idle (a Little's law ratio below
// stats.LittleLow) with the generator on its machine (same-host).
func checkGeneratorBound(v *Verdict, _ *findingContext) {
	local := loopbackSystems(v)
	for _, s := range v.Systems {
		c := s.Capacity
		if !c.Saturated || c.Saturation.Kind == SaturationOpenShortfall || !slices.Contains(local, s.Label) {
			continue
		}
		if slices.ContainsFunc(c.LittlesLawRatio, func(r float64) bool { return r < stats.LittleLow }) {
			v.add(SeverityWarning, CodeGeneratorBound, Subject{Systems: []string{s.Label}}, nil)
		}
	}
}
