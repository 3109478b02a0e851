package analyze

// RatesMergedFacts are the figures of a rates-merged finding: the
// inferred rates, from Lo to Hi req/s, taken as one requested rate Rate
// within Tolerance (relative).
type RatesMergedFacts struct {
	Rate, Lo, Hi, Tolerance float64
}

func (RatesMergedFacts) facts() {}

// checkRatesMerged adds a rates-merged finding per cluster of inferred
// requested rates taken as one (mergeInferredRates, run before the
// groups were made).
func checkRatesMerged(v *Verdict, _ *findingContext) {
	for i, f := range v.mergedRates {
		v.add(SeverityInfo, CodeRatesMerged, Subject{Runs: v.mergedRuns[i]}, f)
	}
}
