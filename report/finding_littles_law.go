package report

import (
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/stats"
)

// wordLittlesLaw words a littles-law finding.
func wordLittlesLaw(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.LittlesLawFacts)
	label := system(s, 0)
	var off []string
	for i, r := range s.Runs {
		if i < len(x.Ratios) {
			off = append(off, fmt.Sprintf("%s (seq %d)", rel(x.Ratios[i]), r.Seq))
		}
	}
	return findingWords{label,
		fmt.Sprintf("%s: throughput x mean latency / connections is %s, not about 1. Below %s the generator kept connections idle (generator-bound, think time, or reconnects outside the latency figure); above %s the latency figure hides queueing (e.g. time spent connecting).",
			label, strings.Join(off, ", "), rel(stats.LittleLow), rel(stats.LittleHigh)),
		"Check that every connection is kept busy (keep-alive on, enough generator threads, no rate cap) and that the generator's latency covers the whole request; monitor the generator's CPU."}
}
