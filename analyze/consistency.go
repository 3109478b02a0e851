package analyze

import (
	"math"

	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// Contradiction is a run whose own latency figures cannot all describe
// one distribution (stats.CheckMean): its mean lies outside what its
// percentiles, minimum and maximum allow, or its percentiles are out of
// order. wrk with a pipelining script is one way to get there: it records
// one latency per batch of requests, and prints every percentile as 0
// beside a mean of 10 ms (testdata/truth/contradictory).
type Contradiction struct {
	Run RunRef
	// MeanMs is the run's mean latency; LoMs and HiMs the bounds its
	// other figures allow; Disordered that its percentiles are out of
	// order or outside [min, max].
	MeanMs, LoMs, HiMs float64
	Disordered         bool
	// LittlesLawRatio is rps·mean latency/connections for a closed-model
	// run (1 when every connection is busy): a figure to look at, not the
	// ground of the exclusion (wrk's coordinated-omission correction puts
	// ordinary runs on a busy machine anywhere from 1 to 5).
	LittlesLawRatio *float64
	// Excluded is true when the run was left out of its group's
	// statistics: always, unless it was the group's only run.
	Excluded bool
}

// contradiction checks a run's latency figures; ok is false when they are
// consistent or too few to check.
func contradiction(r results.Run, pcts []results.Percentile) (Contradiction, bool) {
	if r.LatMeanMs == nil || !finiteF(*r.LatMeanMs) {
		return Contradiction{}, false
	}
	lo, hi := math.NaN(), math.NaN()
	if r.LatMinMs != nil {
		lo = *r.LatMinMs
	}
	if r.LatMaxMs != nil {
		hi = *r.LatMaxMs
	}
	var qs []stats.Quantile
	seen := map[float64]bool{}
	for _, p := range pcts {
		// The extremes are the minimum and maximum, checked as such.
		if p.Quantile > 0 && p.Quantile < 1 && !seen[p.Quantile] {
			seen[p.Quantile] = true
			qs = append(qs, stats.Quantile{Q: p.Quantile, Value: p.LatencyMs})
		}
	}
	for _, c := range []struct {
		q float64
		v *float64
	}{{0.5, r.LatP50Ms}, {0.9, r.LatP90Ms}, {0.99, r.LatP99Ms}, {0.999, r.LatP999Ms}} {
		if c.v != nil && !seen[c.q] {
			seen[c.q] = true
			qs = append(qs, stats.Quantile{Q: c.q, Value: *c.v})
		}
	}
	if len(qs) == 0 && r.LatMaxMs == nil {
		return Contradiction{}, false
	}
	chk := stats.CheckMean(*r.LatMeanMs, lo, hi, qs, 0)
	if chk.Possible {
		return Contradiction{}, false
	}
	c := Contradiction{Run: runRef(r), MeanMs: *r.LatMeanMs, LoMs: chk.Lo, HiMs: chk.Hi, Disordered: chk.Disordered}
	if r.LoadModel == results.LoadClosed && r.Connections != nil && *r.Connections > 0 && r.RPS > 0 {
		if ll, err := stats.LittlesLaw(r.RPS, *r.LatMeanMs/1000, float64(*r.Connections)); err == nil {
			c.LittlesLawRatio = results.Ptr(ll.Ratio)
		}
	}
	return c, true
}

func finiteF(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
