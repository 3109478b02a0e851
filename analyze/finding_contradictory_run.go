package analyze

// ContradictoryFacts are the figures of a contradictory-run finding.
type ContradictoryFacts struct {
	Contradiction
}

func (ContradictoryFacts) facts() {}

// checkContradictoryRun adds a contradictory-run finding for every run
// whose own latency figures contradict each other (found as the groups
// were made).
func checkContradictoryRun(v *Verdict, _ *findingContext) {
	for _, c := range v.contradictions {
		v.add(SeverityWarning, CodeContradictoryRun, Subject{Systems: []string{c.Run.Label}, Runs: []RunRef{c.Run}}, ContradictoryFacts{c})
	}
}
