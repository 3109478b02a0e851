package report

import (
	"fmt"
	"strconv"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordOutlierRun words an outlier-run finding.
func wordOutlierRun(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.OutlierRunFacts)
	run := runSubject(s)
	dir := "slower"
	if x.DeviationPct > 0 {
		dir = "faster"
	}
	left := fmt.Sprintf("It is left out of the group's steady figures (now over %s) and of its warm-up model, so neither the steady mean nor the noise allowance is taken from it", plural(x.SteadyRuns, "run"))
	if x.SteadyRuns == 0 {
		left = "It is left out of the group's warm-up model and representative figures, so neither is taken from it"
	}
	return findingWords{fmt.Sprintf("%s at %s", run, settingsOf(s)),
		fmt.Sprintf("%s at %s measured %s req/s, %s %% (%s) against the geometric mean %s req/s of the group's %s other runs (SD %s %%): t = %s, beyond the bound %s (the prediction interval of one more run at %s over the series), and its neighbours are not. One round far from all the others is a disturbance of the machine (another process, a noisy neighbour), not the system. %s; it stays in the comparisons, thresholds and error rates, which never pass by leaving a run out.",
			run, settingsOf(s), num(x.RPS), signed(x.DeviationPct), dir, num(x.Mean), strconv.Itoa(x.Reference), rel(x.SDPct), signed(x.T), rel(x.Critical), pct(x.Alpha), left),
		"Find what else ran on the machine then (the load average, a CI neighbour, a backup), and repeat the round on a quiet machine; a round that is slow again is the system's."}
}
