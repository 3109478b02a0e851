package analyze

import (
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// OutlierRun is a round of a group whose throughput lies far outside all
// the others' (stats.OutlierRound: one round beyond the prediction
// interval of the others at alpha 1 % over the series, and more than
// 10 % off, its neighbours not): a neighbour took the machine during it.
// It is left out of the group's series model (its class and the noise
// allowance) and of its steady figures (Steady, Rep, Numbers); it stays
// in what gates, which fails closed: the comparisons' tests, thresholds,
// the error rate and the history's values.
type OutlierRun struct {
	Run RunRef
	RPS float64
	stats.Outlier
}

// outlierRound finds the group's outlier round (at most one, never its
// first run, from 6 runs on) and sets g.Outlier.
func outlierRound(g *Group) {
	x := make([]float64, len(g.Runs))
	for i, r := range g.Runs {
		x[i] = r.RPS
	}
	if o, ok := stats.OutlierRound(x, 0, 0); ok {
		r := g.Runs[o.Index]
		g.Outlier = &OutlierRun{Run: runRef(r), RPS: r.RPS, Outlier: o}
	}
}

// withoutOutlier returns runs without the group's outlier round.
func withoutOutlier(g *Group, runs []results.Run) []results.Run {
	if g.Outlier == nil {
		return runs
	}
	out := make([]results.Run, 0, len(runs))
	for _, r := range runs {
		if r.RunID != g.Outlier.Run.RunID || r.Seq != g.Outlier.Run.Seq {
			out = append(out, r)
		}
	}
	return out
}
