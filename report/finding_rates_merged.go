package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordRatesMerged words a rates-merged finding.
func wordRatesMerged(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.RatesMergedFacts)
	runs := plural(len(s.Runs), "run")
	return findingWords{runs,
		fmt.Sprintf("The requested rate of %s is not in their output, so it was inferred from what the tool measured: %s-%s req/s. Within %s %% of each other, these are one requested rate, taken as %s req/s: one setting.",
			runs, num(x.Lo), num(x.Hi), rel(100*x.Tolerance), num(x.Rate)),
		"Keep the command line with the output (vegeta's report after `$ vegeta attack -rate ...`, or the attack's flags in the manifest) so the requested rate is read, not inferred."}
}
