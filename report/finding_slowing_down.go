package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordSlowingDown words a slowing-down finding.
func wordSlowingDown(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.SlowingDownFacts)
	label, at := system(s, 0), settingsOf(s)
	if s.WithinRuns {
		run := runSubject(s)
		return findingWords{fmt.Sprintf("%s (within the run)", run),
			fmt.Sprintf("%s: %s rose by %s ms (%s %%) over its last %s s and never levelled off: no steady state, so no warm-up end and no steady figures are given.",
				run, windowMetricWords(x.Metric), num(x.Change), signed(x.ChangePct), num(x.Over)),
			"Look for what accumulates (queues, memory, connections, caches that grow); run long enough to see whether it levels off, and do not report a steady-state latency for this run."}
	}
	msg := fmt.Sprintf("%s at %s: throughput kept falling across its %s runs (%s req/s, %s %%) and never levelled off: no steady state.",
		label, at, num(x.Over), signed(x.Change), signed(x.ChangePct))
	if x.LastTwo {
		msg = fmt.Sprintf("%s at %s: throughput fell %s %% (%s req/s) between its last two runs (seq %d -> %d): it is still getting slower, no steady state.",
			label, at, signed(x.ChangePct), signed(x.Change), x.FromSeq, x.ToSeq)
	}
	return findingWords{fmt.Sprintf("%s at %s", label, at), msg,
		"Look for what degrades from run to run (leaks, growing data, thermal throttling); restart the system between runs if each run should start alike, and do not compare it until its runs agree."}
}

// windowMetricWords names the metric of a run's windows that a within-run
// finding was measured on.
func windowMetricWords(m string) string {
	if m == analyze.MetricLatP50Ms {
		return "the median latency of its windows"
	}
	return "mean latency"
}
