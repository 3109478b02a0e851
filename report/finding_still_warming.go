package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordStillWarming words a still-warming finding.
func wordStillWarming(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.StillWarmingFacts)
	label, at := system(s, 0), settingsOf(s)
	if s.WithinRuns {
		return findingWords{fmt.Sprintf("%s at %s (within runs)", label, at),
			fmt.Sprintf("%s at %s: mean latency was still changing near the end of its runs (%s).", label, at, classCounts(x.Counts)),
			"Run longer: the steady state must cover most of the run; discard the warm-up part explicitly."}
	}
	msg := fmt.Sprintf("%s at %s has not reached a steady state across runs", label, at)
	if x.ChangePct != nil {
		msg += fmt.Sprintf(": throughput changed %s %% between its last two runs (seq %d -> %d), outside the noise band",
			signed(*x.ChangePct), x.FromSeq, x.ToSeq)
	}
	return findingWords{fmt.Sprintf("%s at %s", label, at), msg + ".",
		"Keep running rounds (discard them as warm-up) until consecutive runs agree within the noise band (3 %), then take at least 4 measured runs; or run one long run with per-second data and let loadverdict find the warm-up end."}
}
