package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordUnstable words an unstable finding (and periodic-stalls).
func wordUnstable(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.InstabilityFacts)
	run := runSubject(s)
	what := "kept leaving its level"
	if f.Code == analyze.CodePeriodicStalls {
		what = "stalled periodically"
	}
	return findingWords{run,
		fmt.Sprintf("%s %s: %s. Its mean and percentiles mix two behaviours, so the run is not steady however flat its level between them.", run, what, instabilityText(&x.Instability)),
		"Find what recurs at that rhythm (garbage collection, a cron job, CPU throttling, log rotation, a connection pool being recycled) and fix or report it; quote the stalls with the steady latency, not averaged into it."}
}
