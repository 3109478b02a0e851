package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordPeriodicPauses words a periodic-pauses finding.
func wordPeriodicPauses(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.PeriodicPausesFacts)
	run := runSubject(s)
	others := ""
	if x.Others > 0 {
		others = fmt.Sprintf(" (and %s off that rhythm)", plural(x.Others, "other pause"))
	}
	return findingWords{run,
		fmt.Sprintf("%s paused periodically: %d pauses every %s s (their starts %s ms RMS off that rhythm)%s, each %s ms long (%s-%s ms), against a median latency of %s ms; %s of its successful requests were held by one. A pause shorter than the %s s interval shows in the requests it held (sent during it, all answered at its end), not in the run's one-second windows, each of which may hold one: its mean and tail include them.",
			run, x.Pauses, num(x.PeriodS), num(x.JitterMs), others, num(x.MedianMs), num(x.MinMs), num(x.MaxMs), num(x.LevelMs), pct(x.ShareRequests), num(x.PeriodS)),
		"Find what stops the process at that rhythm (a garbage collector's stop-the-world pauses, a timer flushing a buffer or rotating a log, CPU throttling of a container quota every period); quote the pauses with the steady latency, not averaged into it."}
}
