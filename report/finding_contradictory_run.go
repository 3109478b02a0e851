package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordContradictoryRun words a contradictory-run finding.
func wordContradictoryRun(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.ContradictoryFacts)
	run := runSubject(s)
	why := fmt.Sprintf("its mean latency %s ms lies outside the %s-%s ms its own percentiles, minimum and maximum allow", num(x.MeanMs), num(x.LoMs), num(x.HiMs))
	if x.Disordered {
		why = fmt.Sprintf("its percentiles are out of order or outside its minimum and maximum (mean %s ms)", num(x.MeanMs))
	}
	if x.LittlesLawRatio != nil {
		why += fmt.Sprintf("; throughput x mean latency / connections is %s", rel(*x.LittlesLawRatio))
	}
	excl := "It is its group's only run, so it is kept, flagged."
	if x.Excluded {
		excl = "It is left out of its group's statistics (steady state, comparisons)."
	}
	return findingWords{run,
		fmt.Sprintf("%s reports figures that contradict each other: %s. %s", run, why, excl),
		"Check how the run was made (a script that pipelines or batches requests, a generator that records one latency per batch, a truncated or edited output) and re-run it plainly."}
}
