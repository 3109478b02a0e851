package analyze

import (
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// runStalls sets the Instability of every run in rw from its windows
// (series): where its mean latency per window kept leaving its level,
// or stalled once: a window at Options.StallFactor times the run's
// level (its lower quartile, which stalls touching most windows, one
// every 2-3 s and the queue each leaves, do not move) is a stall whatever
// the run's noise, and the period of periodic stalls is the slope of
// their onsets (stats.OnsetPeriod) (docs/STATISTICS.md, "Stalls and
// instability"). A run has an Instability when it has at least one stall
// or keeps leaving its level (stats.Instability.Unstable); runs with too
// few windows keep none.
func (v *Verdict) runStalls(rw []RunWarmup, series map[string][]results.Series) {
	o := v.Options
	for i := range rw {
		ws := series[rw[i].RunID]
		var x, ts, width, reqs []float64
		for _, w := range ws {
			if w.LatMeanMs != nil && w.Requests > 0 {
				x = append(x, *w.LatMeanMs)
				ts = append(ts, w.TS)
				width = append(width, w.WindowS)
				reqs = append(reqs, float64(w.Requests))
			}
		}
		rw[i].Instability = nil
		if len(x) < o.MinWindows {
			continue
		}
		inst, err := stats.Excursions(x, reqs, stats.InstabilityOptions{Factor: o.ExcursionFactor, StallFactor: o.StallFactor})
		if err != nil || !inst.Unstable && inst.Stalls == 0 {
			continue
		}
		in := instability(inst, x, ts, width, reqs)
		in.Stalls = inst.Stalls
		if in.PeriodS != nil {
			starts := make([]float64, len(inst.Excursions))
			for k, e := range inst.Excursions {
				starts[k] = ts[e.Start]
			}
			in.PeriodS = results.Ptr(stats.OnsetPeriod(starts))
		}
		rw[i].Instability = in
	}
}
