package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordErrorBurst words an error-burst finding.
func wordErrorBurst(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.ErrorBurstFacts)
	run := runSubject(s)
	var spans []string
	for _, b := range x.Bursts {
		// "0-2 s, 75 of 151 requests failed": no ": " inside a span,
		// which the findings' list would cut at (dedupeSentences).
		sp := fmt.Sprintf("%s-%s s, %d of %d requests failed", num(b.FromS), num(b.ToS), b.Errors, b.Requests)
		if len(b.Statuses) > 0 {
			var st []string
			for _, c := range b.Statuses {
				code := strconv.Itoa(int(c.Status))
				switch c.Status {
				case 0:
					code = "no response"
				case -1:
					code = "other statuses"
				}
				st = append(st, fmt.Sprintf("%s x%d", code, c.N))
			}
			sp += " (" + strings.Join(st, ", ") + ")"
		}
		spans = append(spans, sp)
	}
	return findingWords{run,
		fmt.Sprintf("%s: %s of its %d failed requests fell within %s of its %s s (%s of the time): %s. A window counts when its errors are too many for the run's error rate outside its bursts (%s) by a one-sided exact binomial test at %s/%d windows.",
			run, pct(x.Share), x.Errors, plural(len(x.Bursts), "burst"), num(x.DurationS), pct(x.TimeShare), strings.Join(spans, "; "),
			pct(x.BaseRate), rel(x.Alpha), x.Windows),
		"Look at what happened at those times (server and proxy logs, deploys, restarts, connection or rate limits, GC): a burst is an event, not a steady error rate; re-run once it is understood, and compare runs without it."}
}
