package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordStall words a stall finding.
func wordStall(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.InstabilityFacts)
	run := runSubject(s)
	in := &x.Instability
	when := "once"
	if len(in.Spans) > 0 {
		when = fmt.Sprintf("once, from %s s to %s s", num(in.Spans[0].FromS), num(in.Spans[0].ToS))
	}
	return findingWords{run,
		fmt.Sprintf("%s stalled %s: mean latency %s ms in that time against %s ms otherwise (worst window %s ms); %s of the requests. Its mean and tail include the stall, so quote them with it, not as the run's steady figures.",
			run, when, num(in.StallMeanMs), num(in.LevelMs), num(in.StallPeakMs), pct(in.ShareRequests)),
		"Find what froze the system then (garbage collection, a lock, a disk flush, the host itself: another process, a noisy neighbour) and whether it recurs in a longer run."}
}
