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
	var c Capacity
	c.LittlesLawRatio, c.LittlesLawRuns = littlesLaw(sys)
	c.Levels = closedLevels(sys)
	if s := v.concurrencySaturation(c.Levels); s != nil {
		c.Saturated, c.SaturatedAt, c.Saturation = true, results.Ptr(s.From.Connections), s
	} else if s, at := v.openShortfall(sys); s != nil {
		c.Saturated, c.SaturatedAt, c.Saturation = true, at, s
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

// littlesLaw returns the Little's law ratio of every whole-test
// closed-model run with a mean latency, connections and throughput, and
// the ids of those runs.
func littlesLaw(sys System) (ratios []float64, runs []string) {
	for _, g := range sys.Groups {
		for _, r := range g.Runs {
			if r.Endpoint != nil || r.LoadModel != results.LoadClosed || r.LatMeanMs == nil || r.Connections == nil || *r.Connections <= 0 || r.RPS <= 0 {
				continue
			}
			if ll, err := stats.LittlesLaw(r.RPS, *r.LatMeanMs/1000, float64(*r.Connections)); err == nil {
				ratios = append(ratios, ll.Ratio)
				runs = append(runs, r.RunID)
			}
		}
	}
	return ratios, runs
}

// closedLevels returns the closed-model concurrency levels in order: one
// representative point per level, from the group with the most runs there.
func closedLevels(sys System) []Level {
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
	var levels []Level
	for n, g := range best {
		levels = append(levels, Level{Connections: n, RPS: g.Rep.RPS, LatMeanMs: g.Rep.LatMeanMs, Runs: len(g.Runs)})
	}
	slices.SortFunc(levels, func(a, b Level) int { return cmp.Compare(a.Connections, b.Connections) })
	return levels
}

// concurrencySaturation returns the first step between two levels where
// throughput stopped growing while latency grew, or nil.
func (v *Verdict) concurrencySaturation(levels []Level) *Saturation {
	o := v.Options
	for i := 1; i < len(levels); i++ {
		lo, hi := levels[i-1], levels[i]
		if lo.RPS <= 0 || lo.LatMeanMs == nil || hi.LatMeanMs == nil || *lo.LatMeanMs <= 0 {
			continue
		}
		dx := hi.RPS/lo.RPS - 1
		dl := *hi.LatMeanMs / *lo.LatMeanMs - 1
		if dx < o.SaturationRPSGrowth && dl > o.SaturationLatGrowth {
			return &Saturation{Kind: SaturationConcurrency, From: lo, To: hi}
		}
	}
	return nil
}

// openShortfall returns the first open-model group whose achieved rate
// fell short of the requested one, and its connections, or nil.
func (v *Verdict) openShortfall(sys System) (*Saturation, *int32) {
	for _, g := range sys.Groups {
		if g.Endpoint != nil || g.LoadModel != results.LoadOpen || g.TargetRPS == nil || *g.TargetRPS <= 0 {
			continue
		}
		// Short of successful responses, and of answers at all: a system
		// that answers every request, if with errors, is not overloaded
		// but failing (the errors finding says so).
		floor := (1 - v.Options.OpenShortfall) * (*g.TargetRPS)
		rps := g.Rep.RPS
		if g.Steady.FromS != nil {
			// One run's steady windows: the shortfall is the run's own
			// (the same figure as its tool's summary gives).
			rps = g.Runs[0].RPS
		}
		last := g.Runs[len(g.Runs)-1]
		if rps < floor && answeredRPS(last) < floor {
			return &Saturation{Kind: SaturationOpenShortfall, TargetRPS: *g.TargetRPS, RPS: rps, SentRPS: last.SentRPS}, g.Connections
		}
	}
	return nil, nil
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
