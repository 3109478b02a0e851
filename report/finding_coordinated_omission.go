package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordCoordinatedOmission words a coordinated-omission finding.
func wordCoordinatedOmission(f analyze.Finding) findingWords {
	s := f.Subject
	return findingWords{fmt.Sprintf("%s (%s)", s.Tool, plural(len(s.Runs), "run")),
		fmt.Sprintf("%s is a closed-model load generator: each connection waits for a response before it sends the next request, so a stalled server also stalls the requests that would have measured the stall. Its latency percentiles and maximum are lower bounds, optimistic by up to orders of magnitude in the tail.", s.Tool),
		"Measure latency with an open-model generator at a fixed rate below capacity (wrk2 -R, vegeta attack -rate, k6 constant-arrival-rate) and compare the systems at equal throughput; use closed-model runs only for peak throughput."}
}
