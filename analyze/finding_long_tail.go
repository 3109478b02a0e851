package analyze

// LongTailFacts are the figures of a long-tail finding.
type LongTailFacts struct {
	MaxMs, MeanMs float64
}

func (LongTailFacts) facts() {}

// checkLongTail adds a long-tail finding for every run whose maximum
// latency exceeds Options.LongTailFactor times its mean, unless its
// stalls or pauses are a finding of their own (fc.stalled).
func checkLongTail(v *Verdict, fc *findingContext) {
	for _, r := range v.Runs {
		if fc.stalled[r.RunID] {
			continue
		}
		if r.LatMaxMs != nil && r.LatMeanMs != nil && *r.LatMeanMs > 0 && *r.LatMaxMs > v.Options.LongTailFactor**r.LatMeanMs {
			v.add(SeverityInfo, CodeLongTail, Subject{Systems: []string{r.Label}, Runs: []RunRef{runRef(r)}},
				LongTailFacts{MaxMs: *r.LatMaxMs, MeanMs: *r.LatMeanMs})
		}
	}
}
