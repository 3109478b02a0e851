package analyze

// SaturatedFacts are the figures of a saturated finding.
type SaturatedFacts struct {
	At         *int32 // the concurrency from which throughput stops growing
	Saturation Saturation
}

func (SaturatedFacts) facts() {}

// checkSaturated adds a saturated finding per system whose throughput
// stopped growing with concurrency (an open-model shortfall is overload).
func checkSaturated(v *Verdict, _ *findingContext) {
	for _, s := range v.Systems {
		if c := s.Capacity; c.Saturated && c.Saturation.Kind != SaturationOpenShortfall {
			v.add(SeverityWarning, CodeSaturated, Subject{Systems: []string{s.Label}},
				SaturatedFacts{At: c.SaturatedAt, Saturation: *c.Saturation})
		}
	}
}
