package analyze

import (
	"math"

	"github.com/loadverdict/loadverdict/results"
)

// ShortRunFacts are the figures of a short-run finding.
type ShortRunFacts struct {
	Runs       int     // all runs of the experiment
	MinS, MaxS float64 // the shortest and the longest short run, seconds
	ThresholdS float64 // runs shorter than this are short
}

func (ShortRunFacts) facts() {}

// shortRunSlack: a run that lasted its planned duration within 1 %
// (29.999 s of a planned 30 s) is not "under" it.
const shortRunSlack = 0.01

// checkShortRun adds one short-run finding for the runs shorter than
// Options.ShortRunS (their duration, else their planned duration).
func checkShortRun(v *Verdict, _ *findingContext) {
	var short []results.Run
	for _, r := range v.Runs {
		d := r.DurationS
		if d <= 0 && r.PlannedDurationS != nil {
			d = *r.PlannedDurationS
		}
		if d > 0 && d < v.Options.ShortRunS*(1-shortRunSlack) {
			short = append(short, r)
		}
	}
	if len(short) == 0 {
		return
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	var refs []RunRef
	for _, r := range short {
		lo, hi = math.Min(lo, r.DurationS), math.Max(hi, r.DurationS)
		refs = append(refs, runRef(r))
	}
	v.add(SeverityWarning, CodeShortRun, Subject{Runs: refs},
		ShortRunFacts{Runs: len(v.Runs), MinS: lo, MaxS: hi, ThresholdS: v.Options.ShortRunS})
}
