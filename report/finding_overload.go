package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordOverload words an overload finding.
func wordOverload(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.OverloadFacts)
	label := system(s, 0)
	at := ""
	if s.Settings != nil {
		at = " at " + settingsOf(s)
	}
	msg := fmt.Sprintf("%s was overloaded%s: requested %s req/s, it answered %s successfully per second (%s %% of the requested rate)",
		label, at, num(x.TargetRPS), num(x.RPS), rel(100*x.RPS/x.TargetRPS))
	if x.ErrorRate != nil && *x.ErrorRate > 0 {
		msg += fmt.Sprintf(", and %s of the requests failed", pct(*x.ErrorRate))
	}
	if x.SentRPS != nil && *x.SentRPS < 0.9*x.TargetRPS {
		msg += fmt.Sprintf("; the generator itself sent only %s req/s", num(*x.SentRPS))
	}
	return findingWords{label, msg + ". Its latencies are those of an overloaded system (queues, timeouts), not of its normal work.",
		"Find the rate the system sustains (step the requested rate up until successful throughput stops following it) and measure latency below it; compare systems at a rate both sustain."}
}
