package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordShortRun words a short-run finding.
func wordShortRun(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.ShortRunFacts)
	of := fmt.Sprintf("%d of %s", len(s.Runs), plural(x.Runs, "run"))
	return findingWords{of,
		fmt.Sprintf("%s lasted %s (under %s s): too short for a JIT-compiled server to settle, and too few requests in the tail for p99 or max to mean much.",
			of, durRange(x.MinS, x.MaxS), num(x.ThresholdS)),
		"Run each measurement for at least 60 s after a separate, discarded warm-up phase, and record per-request or per-second data (vegeta, hey -o csv, k6 --out json) so warm-up inside a run can be seen."}
}
