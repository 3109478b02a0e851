package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordLongTail words a long-tail finding.
func wordLongTail(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.LongTailFacts)
	run := runSubject(s)
	return findingWords{run,
		fmt.Sprintf("%s: max latency %s ms is %sx its mean %s ms: rare stalls (GC pauses, JIT compilation, connection setup) dominate the tail.",
			run, num(x.MaxMs), rel(x.MaxMs/x.MeanMs), num(x.MeanMs)),
		"Record the full latency distribution (wrk --latency, or better wrk2 or vegeta with HdrHistogram output) and report p99/p99.9 with the max; correlate stalls with GC logs."}
}
