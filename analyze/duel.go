package analyze

import "github.com/loadverdict/loadverdict/results"

// FixedRunsNeeded is the runs per side a fixed design (the runs set in
// advance, tested once) needs to settle a comparison of these runs'
// values xa and xb whose ratio a/b is estimated at ratio, at o's alpha
// and power: the runs needed a comparison states (runsNeeded), without
// its floor at the runs already held. loadverdict duel sets its rounds
// beside it. nil when the values have no scatter to go by.
func FixedRunsNeeded(o Options, xa, xb []float64, ratio float64) *int {
	return runsNeeded(o, xa, xb, ratio, 0, 0, false)
}

// RunValue returns a run's value of a compared metric (MetricRPS,
// MetricLatMeanMs, ...) as comparisons take it; nil when the run lacks
// it or the metric is not one comparisons compare.
func RunValue(r results.Run, metric string) *float64 {
	for _, m := range metrics {
		if m.name == metric {
			return m.get(r)
		}
	}
	return nil
}
