package analyze

import (
	"math"
	"slices"

	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// acrossRunWarmup classifies the throughput of a group's runs in execution
// order: one run says nothing, 2-4 runs use the short-series rule, more
// use PELT and the Barrett et al. classifier (STATISTICS.md).
func (v *Verdict) acrossRunWarmup(g *Group) {
	o := v.Options
	x := make([]float64, len(g.Runs))
	for i, r := range g.Runs {
		x[i] = r.RPS
	}
	n := len(x)
	basis := Basis{Metric: MetricRPS, N: n}
	switch {
	case n < 2:
		g.Warmup = Warmup{Class: stats.ClassInsufficientData, Method: MethodSingleRun, Basis: basis}
	case n <= 4:
		// The noise band widens to the CV of the runs before the last
		// one when there are at least two of them (with only two runs in
		// all, their CV is just their difference again).
		cv := 0.0
		if n >= 3 {
			cv = stats.CoefVar(x[:n-1])
		}
		sc, err := stats.ClassifyShort(x, true, o.NoiseBand, cv)
		if err != nil {
			basis.Err = err
			g.Warmup = Warmup{Class: stats.ClassInsufficientData, Method: MethodShortSeries, Basis: basis}
			v.warn(Warning{Code: WarnAcrossRunWarmup, System: g.Runs[0].Label, Settings: &g.Settings, Err: err})
			return
		}
		basis.BandPct, basis.Improving, basis.ZeroBase = sc.BandPct, sc.Improving, sc.ZeroBase
		g.Warmup = Warmup{Class: sc.Class, ChangePct: results.Ptr(sc.ChangePct), Method: MethodShortSeries, Basis: basis}
		if sc.Class == stats.ClassFlat {
			g.Warmup.SteadyFromSeq = results.Ptr(g.Seqs[0])
		}
	default:
		seg, err := segmentRuns(x, o.PenaltyFactor, o.MinSegment)
		if err != nil {
			basis.Err = err
			g.Warmup = Warmup{Class: stats.ClassInsufficientData, Method: MethodPELT, Basis: basis}
			v.warn(Warning{Code: WarnAcrossRunWarmup, System: g.Runs[0].Label, Settings: &g.Settings, Err: err})
			return
		}
		c, err := stats.Classify(seg.Segments, true, o.Delta)
		if err != nil {
			basis.Err = err
			g.Warmup = Warmup{Class: stats.ClassInsufficientData, Method: MethodPELT, Basis: basis}
			return
		}
		basis.Segments = len(seg.Segments)
		g.Warmup = Warmup{Class: c.Class, Method: MethodPELT, Basis: basis}
		if c.SteadyStart >= 0 {
			g.Warmup.SteadyFromSeq = results.Ptr(g.Seqs[c.SteadyStart])
		}
		last2 := 100 * (x[n-1] - x[n-2]) / math.Abs(x[n-2])
		if !math.IsInf(last2, 0) && !math.IsNaN(last2) {
			g.Warmup.ChangePct = results.Ptr(last2)
		}
		if n >= 20 {
			if d, more, err := stats.MSER5(x); err == nil {
				g.Warmup.Basis.MSER = &MSERCut{Truncate: d, NeedsMoreData: more}
				g.Warmup.Method = MethodPELTMSER
			}
		}
	}
}

// maxSegmentRuns is the longest series of runs segmented run by run.
// PELT costs time in the square of the series' length when it holds no
// change (its pruning needs change points), so a group of 50,000 runs
// took over a minute; longer series are segmented as block means.
const maxSegmentRuns = 4096

// segmentRuns segments the runs' values x with PELT (penalty factor times
// ln of the series' length, minimum segment minSeg runs). Up to
// maxSegmentRuns values it is stats.SegmentSeries itself. Above, it
// segments the means of consecutive blocks of b = ceil(n/maxSegmentRuns)
// runs (the last block may be shorter), with the blocks' count in the
// penalty and minSeg/b blocks (rounded up) as the minimum segment, and
// maps the change points back to the first run of their block: a change
// can then only be placed to within b runs, and the segments' means and
// SDs are those of the runs themselves (outliers replaced as
// SegmentSeries does on the whole series). The cost is linear in n.
func segmentRuns(x []float64, penaltyFactor float64, minSeg int) (stats.Segmentation, error) {
	n := len(x)
	if n <= maxSegmentRuns {
		return stats.SegmentSeries(x, penaltyFactor*math.Log(float64(n)), minSeg)
	}
	b := (n + maxSegmentRuns - 1) / maxSegmentRuns
	clean, marks := stats.ReplaceOutliers(x, stats.DefaultOutlierWindow, stats.DefaultOutlierK)
	means := make([]float64, 0, (n+b-1)/b)
	for i := 0; i < n; i += b {
		means = append(means, stats.Mean(clean[i:min(i+b, n)]))
	}
	blockSeg, err := stats.SegmentSeries(means, penaltyFactor*math.Log(float64(len(means))), (minSeg+b-1)/b)
	if err != nil {
		return stats.Segmentation{}, err
	}
	seg := stats.Segmentation{Outliers: marks}
	for _, s := range blockSeg.Segments {
		start, end := s.Start*b, min(s.End*b, n)
		m, sd := meanSD(clean[start:end])
		seg.Segments = append(seg.Segments, stats.Segment{Start: start, End: end, Mean: m, SD: sd})
		if start > 0 {
			seg.Changepoints = append(seg.Changepoints, start)
		}
	}
	return seg, nil
}

// meanSD returns the mean and the sample standard deviation of x (0 for
// fewer than two values).
func meanSD(x []float64) (mean, sd float64) {
	mean = stats.Mean(x)
	if len(x) < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1))
}

// steadyRuns returns the runs of a group from its steady state on, or nil
// when the group has none.
func steadyRuns(g *Group) []results.Run {
	if g.Warmup.SteadyFromSeq == nil {
		return nil
	}
	i := slices.Index(g.Seqs, *g.Warmup.SteadyFromSeq)
	if i < 0 {
		return nil
	}
	return g.Runs[i:]
}

// steadyState fills the group's steady-state figures and its
// representative values.
func (v *Verdict) steadyState(g *Group) {
	o := v.Options
	sr := steadyRuns(g)
	if len(sr) == 0 {
		last := g.Runs[len(g.Runs)-1]
		g.Rep = Rep{RPS: last.RPS, LatMeanMs: last.LatMeanMs, LatP99Ms: last.LatP99Ms, LatMaxMs: last.LatMaxMs}
		return
	}
	rps := column(sr, func(r results.Run) *float64 { return &r.RPS })
	g.Steady.Runs = len(sr)
	g.Steady.RPSMean = results.Ptr(stats.Mean(rps))
	if len(rps) >= o.MinRuns {
		if ci, err := stats.SteadyStateCI(rps, o.Resamples, o.Level, o.Seed); err == nil {
			g.Steady.RPSCI = &ci
		}
	}
	if lat := column(sr, func(r results.Run) *float64 { return r.LatMeanMs }); lat != nil {
		g.Steady.LatMeanMs = results.Ptr(stats.Mean(lat))
	}
	if p99 := column(sr, func(r results.Run) *float64 { return r.LatP99Ms }); p99 != nil {
		g.Steady.LatP99Ms = results.Ptr(stats.Median(p99))
	}
	if mx := column(sr, func(r results.Run) *float64 { return r.LatMaxMs }); mx != nil {
		g.Steady.LatMaxMs = results.Ptr(stats.Median(mx))
	}
	g.Rep = Rep{RPS: *g.Steady.RPSMean, LatMeanMs: g.Steady.LatMeanMs, LatP99Ms: g.Steady.LatP99Ms,
		LatMaxMs: g.Steady.LatMaxMs, FromSteady: true}
}

// withinRunWarmup classifies the per-window mean latency of every run of
// the group that has a series (built from per-request samples).
func (v *Verdict) withinRunWarmup(g *Group, series map[string][]results.Series) []RunWarmup {
	o := v.Options
	var out []RunWarmup
	for _, r := range g.Runs {
		ws := series[r.RunID]
		if len(ws) == 0 {
			continue
		}
		var x, ts []float64
		for _, w := range ws {
			if w.LatMeanMs != nil && w.Requests > 0 {
				x = append(x, *w.LatMeanMs)
				ts = append(ts, w.TS)
			}
		}
		rw := RunWarmup{RunID: r.RunID, Seq: r.Seq, Windows: len(x), Method: MethodWithinRun,
			Basis: Basis{Metric: MetricLatMeanMs, N: len(x)}}
		if len(x) < o.MinWindows {
			rw.Class = stats.ClassInsufficientData
			rw.Basis.MinN = o.MinWindows
			out = append(out, rw)
			continue
		}
		seg, err := stats.SegmentSeries(x, o.PenaltyFactor*math.Log(float64(len(x))), o.MinSegment)
		if err == nil {
			var c stats.Classification
			c, err = stats.Classify(seg.Segments, false, o.Delta)
			if err == nil {
				rw.Class = c.Class
				if c.SteadyStart >= 0 {
					rw.WarmupEndS = results.Ptr(ts[c.SteadyStart])
				}
				rw.Basis.Segments = len(seg.Segments)
			}
		}
		if err != nil {
			rw.Class = stats.ClassInsufficientData
			rw.Basis.Err = err
			v.warn(Warning{Code: WarnWithinRunWarmup, System: r.Label, RunID: r.RunID, Seq: r.Seq, Err: err})
		}
		if d, more, err := stats.MSER5(x); err == nil {
			rw.Basis.MSER = &MSERCut{Truncate: d, NeedsMoreData: more}
			if !more {
				rw.MSEREndS = results.Ptr(ts[d])
			}
		}
		out = append(out, rw)
	}
	return out
}

// column returns f of every run, or nil when any run lacks the value.
func column(runs []results.Run, f func(results.Run) *float64) []float64 {
	out := make([]float64, 0, len(runs))
	for _, r := range runs {
		p := f(r)
		if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) {
			return nil
		}
		out = append(out, *p)
	}
	return out
}

func (v *Verdict) warn(w Warning) { v.Warnings = append(v.Warnings, w) }
