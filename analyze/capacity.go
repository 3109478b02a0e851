package analyze

import (
	"cmp"
	"slices"

	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// capacity derives a system's capacity figures: Little's law per
// closed-model run, saturation between concurrency levels (or an open-model
// rate not achieved), and a USL fit over six or more levels. Runs of one
// endpoint of a test (runs.endpoint) are left out: the connections and the
// requested rate were the whole test's, not the endpoint's.
func (v *Verdict) capacity(sys System) Capacity {
	o := v.Options
	var c Capacity
	for _, g := range sys.Groups {
		for _, r := range g.Runs {
			if r.Endpoint != nil || r.LoadModel != results.LoadClosed || r.LatMeanMs == nil || r.Connections == nil || *r.Connections <= 0 || r.RPS <= 0 {
				continue
			}
			if ll, err := stats.LittlesLaw(r.RPS, *r.LatMeanMs/1000, float64(*r.Connections)); err == nil {
				c.LittlesLawRatio = append(c.LittlesLawRatio, ll.Ratio)
				c.LittlesLawRuns = append(c.LittlesLawRuns, r.RunID)
			}
		}
	}
	// Closed-model concurrency levels: one representative point per
	// level, from the group with the most runs there.
	best := map[int32]*Group{}
	for gi := range sys.Groups {
		g := &sys.Groups[gi]
		if g.Endpoint != nil || g.LoadModel != results.LoadClosed || g.Connections == nil {
			continue
		}
		n := *g.Connections
		if cur, ok := best[n]; !ok || len(g.Runs) > len(cur.Runs) {
			best[n] = g
		}
	}
	for n, g := range best {
		c.Levels = append(c.Levels, Level{Connections: n, RPS: g.Rep.RPS, LatMeanMs: g.Rep.LatMeanMs, Runs: len(g.Runs)})
	}
	slices.SortFunc(c.Levels, func(a, b Level) int { return cmp.Compare(a.Connections, b.Connections) })
	for i := 1; i < len(c.Levels); i++ {
		lo, hi := c.Levels[i-1], c.Levels[i]
		if lo.RPS <= 0 || lo.LatMeanMs == nil || hi.LatMeanMs == nil || *lo.LatMeanMs <= 0 {
			continue
		}
		dx := hi.RPS/lo.RPS - 1
		dl := *hi.LatMeanMs / *lo.LatMeanMs - 1
		if dx < o.SaturationRPSGrowth && dl > o.SaturationLatGrowth {
			c.Saturated = true
			c.SaturatedAt = results.Ptr(lo.Connections)
			c.Saturation = &Saturation{Kind: SaturationConcurrency, From: lo, To: hi}
			break
		}
	}
	// Open model: the achieved rate falls short of the requested one.
	if !c.Saturated {
		for _, g := range sys.Groups {
			if g.Endpoint != nil || g.LoadModel != results.LoadOpen || g.TargetRPS == nil || *g.TargetRPS <= 0 {
				continue
			}
			// Short of successful responses, and of answers at all: a
			// system that answers every request, if with errors, is not
			// overloaded but failing (the errors finding says so).
			floor := (1 - o.OpenShortfall) * (*g.TargetRPS)
			rps := g.Rep.RPS
			if g.Steady.FromS != nil {
				// One run's steady windows: the shortfall is the run's
				// own (the same figure as its tool's summary gives).
				rps = g.Runs[0].RPS
			}
			if rps < floor && answeredRPS(g.Runs[len(g.Runs)-1]) < floor {
				c.Saturated = true
				c.Saturation = &Saturation{Kind: SaturationOpenShortfall, TargetRPS: *g.TargetRPS, RPS: rps,
					SentRPS: g.Runs[len(g.Runs)-1].SentRPS}
				if g.Connections != nil {
					c.SaturatedAt = g.Connections
				}
				break
			}
		}
	}
	if len(c.Levels) >= stats.MinUSLPoints {
		n := make([]float64, len(c.Levels))
		x := make([]float64, len(c.Levels))
		for i, l := range c.Levels {
			n[i], x[i] = float64(l.Connections), l.RPS
		}
		if fit, err := stats.FitUSL(n, x); err == nil {
			c.USL = &fit
		} else {
			v.warn(Warning{Code: WarnUSLFit, System: sys.Label, Err: err})
		}
	}
	return c
}

// answeredRPS returns the rate at which a run's requests got an answer: its
// successful responses per second (RPS) plus its error responses
// (non-2xx/3xx) over its duration. Requests that timed out or failed on
// the socket got none; when the run does not say how many of its errors
// were error responses, none are counted as answers.
func answeredRPS(r results.Run) float64 {
	if r.Non2xx == nil || *r.Non2xx <= 0 || r.DurationS <= 0 {
		return r.RPS
	}
	return r.RPS + float64(*r.Non2xx)/r.DurationS
}
