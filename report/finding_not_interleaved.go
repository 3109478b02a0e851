package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordNotInterleaved words a not-interleaved finding.
func wordNotInterleaved(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.NotInterleavedFacts)
	at := settingsOf(s)
	return findingWords{fmt.Sprintf("%s vs %s at %s", system(s, 0), system(s, 1), at),
		fmt.Sprintf("Every run of %s at %s came before every run of %s (%s): any drift of the machine (thermal throttling, caches, background jobs, the JIT of a shared process) is confounded with the difference between the systems.", x.First, at, x.Second, orderFromText(x.OrderFrom)),
		"Alternate the systems run by run (A B A B ... or a randomized order) so that drift affects both equally."}
}

// orderFromText says what a run order was read from.
func orderFromText(from string) string {
	if from == analyze.OrderStartTime {
		return "by the runs' start times"
	}
	return "in the order the inputs were given: some runs have no start time, so the order they ran in is assumed to be that"
}
