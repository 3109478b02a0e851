package analyze

import (
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// RunWarmupOf is the within-run warm-up of one run from its windows, as
// Analyze finds it for a run alone in its group (withinRunWarmup):
// loadverdict watch asks it at every look, on the windows so far.
func RunWarmupOf(run results.Run, series []results.Series, o Options) RunWarmup {
	v := &Verdict{Options: o}
	g := &Group{Runs: []results.Run{run}}
	if rw := v.withinRunWarmup(g, map[string][]results.Series{run.RunID: series}); len(rw) == 1 {
		return rw[0]
	}
	return RunWarmup{RunID: run.RunID, Seq: run.Seq, Class: stats.ClassInsufficientData}
}
