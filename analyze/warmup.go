package analyze

import (
	"math"
	"slices"

	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// acrossRunWarmup classifies the throughput of a group's runs in execution
// order: one run says nothing, 2-4 runs use the short-series rule
// (stats.ClassifyShort), 5 or more the one model of a series
// (stats.SelectModel, STATISTICS.md).
//
// An outlier round (outlierRound) is left out of the series first: neither
// the class nor the noise allowance is taken from it.
func (v *Verdict) acrossRunWarmup(g *Group) {
	outlierRound(g)
	runs := withoutOutlier(g, g.Runs)
	seqs := make([]int32, len(runs))
	x := make([]float64, len(runs))
	for i, r := range runs {
		x[i] = r.RPS
		seqs[i] = r.Seq
	}
	basis := Basis{Metric: MetricRPS, N: len(x)}
	switch {
	case len(x) < 2:
		g.Warmup = Warmup{Class: stats.ClassInsufficientData, Method: MethodSingleRun, Basis: basis}
	case len(x) <= 4:
		v.shortSeriesWarmup(g, x, seqs, basis)
	default:
		v.modelWarmup(g, x, seqs, basis)
	}
}

// shortSeriesWarmup classifies 2-4 runs' throughput x with the short-series
// rule.
func (v *Verdict) shortSeriesWarmup(g *Group, x []float64, seqs []int32, basis Basis) {
	n := len(x)
	// The noise band widens to the CV of the runs before the last one
	// when there are at least two of them (with only two runs in all,
	// their CV is just their difference again).
	cv := 0.0
	if n >= 3 {
		cv = stats.CoefVar(x[:n-1])
	}
	sc, err := stats.ClassifyShort(x, true, v.Options.NoiseBand, cv)
	if err != nil {
		basis.Err = err
		g.Warmup = Warmup{Class: stats.ClassInsufficientData, Method: MethodShortSeries, Basis: basis}
		v.warn(Warning{Code: WarnAcrossRunWarmup, System: g.Runs[0].Label, Settings: &g.Settings, Err: err})
		return
	}
	basis.BandPct, basis.Improving, basis.ZeroBase = sc.BandPct, sc.Improving, sc.ZeroBase
	g.Warmup = Warmup{Class: sc.Class, ChangePct: results.Ptr(sc.ChangePct), Method: MethodShortSeries, Basis: basis}
	if sc.Class == stats.ClassNoSteadyState {
		g.Warmup.Direction = stats.Worsening
		if sc.Improving {
			g.Warmup.Direction = stats.Improving
		}
	}
	if sc.Class == stats.ClassFlat {
		g.Warmup.SteadyFromSeq = results.Ptr(seqs[0])
	}
}

// modelWarmup classifies 5 or more runs' throughput x with the one model
// of a series, MSER-5 added from 20 runs on.
func (v *Verdict) modelWarmup(g *Group, x []float64, seqs []int32, basis Basis) {
	o := v.Options
	n := len(x)
	m, err := stats.SelectModel(x, stats.ModelOptions{HigherIsBetter: true, Delta: o.Delta, Alpha: o.Alpha, SearchSteady: true})
	if err != nil {
		basis.Err = err
		g.Warmup = Warmup{Class: stats.ClassInsufficientData, Method: MethodModel, Basis: basis}
		v.warn(Warning{Code: WarnAcrossRunWarmup, System: g.Runs[0].Label, Settings: &g.Settings, Err: err})
		return
	}
	basis.Shape, basis.ThresholdPct, basis.Segments = m.Shape, m.ThresholdPct, m.Levels
	if m.Trend != nil && m.Trend.Persistent {
		basis.Trend = m.Trend
	}
	g.Warmup = Warmup{Class: m.Class, Direction: m.Direction, Method: MethodModel, Basis: basis}
	if m.SteadyStart >= 0 {
		g.Warmup.SteadyFromSeq = results.Ptr(seqs[m.SteadyStart])
	}
	// The last step is a level-shift finding when the series stayed at its
	// new level (a steady state follows) and the step is not the end of the
	// warm-up itself.
	if k := len(m.Steps); k > 0 && m.SteadyStart >= 0 && !(m.Class == stats.ClassWarmup && m.Steps[k-1].At == m.SteadyStart) {
		sh := m.Steps[k-1]
		g.Warmup.Shift = &Shift{AtSeq: seqs[sh.At], Before: sh.Before, After: sh.After, Direction: sh.Direction}
	}
	last2 := 100 * (x[n-1] - x[n-2]) / math.Abs(x[n-2])
	if !math.IsInf(last2, 0) && !math.IsNaN(last2) {
		g.Warmup.ChangePct = results.Ptr(last2)
	}
	if n >= 20 {
		if d, more, err := stats.MSER5(x); err == nil {
			g.Warmup.Basis.MSER = &MSERCut{Truncate: d, NeedsMoreData: more}
			g.Warmup.Method = MethodModelMSER
		}
	}
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
// representative values: over its steady runs; or, for a group of one run
// with per-request data, over the windows of that run from its within-run
// steady start on (the part of a run after its warm-up is steady data).
func (v *Verdict) steadyState(g *Group, rw []RunWarmup, series map[string][]results.Series) {
	o := v.Options
	sr := withoutOutlier(g, steadyRuns(g))
	if len(sr) == 0 && len(g.Runs) == 1 && len(rw) == 1 && rw[0].WarmupEndS != nil {
		v.steadyWindows(g, *rw[0].WarmupEndS, series[g.Runs[0].RunID])
		return
	}
	if len(sr) == 0 {
		rest := withoutOutlier(g, g.Runs)
		last := rest[len(rest)-1]
		g.Rep = Rep{RPS: last.RPS, LatMeanMs: last.LatMeanMs, LatP50Ms: last.LatP50Ms, LatP99Ms: last.LatP99Ms, LatMaxMs: last.LatMaxMs}
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
	if p50 := column(sr, func(r results.Run) *float64 { return r.LatP50Ms }); p50 != nil {
		g.Steady.LatP50Ms = results.Ptr(stats.Median(p50))
	}
	if p99 := column(sr, func(r results.Run) *float64 { return r.LatP99Ms }); p99 != nil {
		g.Steady.LatP99Ms = results.Ptr(stats.Median(p99))
	}
	if mx := column(sr, func(r results.Run) *float64 { return r.LatMaxMs }); mx != nil {
		g.Steady.LatMaxMs = results.Ptr(stats.Median(mx))
	}
	g.Rep = Rep{RPS: *g.Steady.RPSMean, LatMeanMs: g.Steady.LatMeanMs, LatP50Ms: g.Steady.LatP50Ms, LatP99Ms: g.Steady.LatP99Ms,
		LatMaxMs: g.Steady.LatMaxMs, FromSteady: true}
}

// steadyWindows fills a one-run group's steady figures from the run's
// windows from fromS on: throughput is their successful requests over
// their width (as a run's throughput counts successes),
// mean latency their request-weighted mean; p99 and max are the median of
// the windows' (as across runs, percentiles are never averaged).
func (v *Verdict) steadyWindows(g *Group, fromS float64, ws []results.Series) {
	var reqs, width, latSum, latN float64
	var p99, mx []float64
	for _, w := range ws {
		if w.TS < fromS {
			continue
		}
		reqs += float64(w.Requests - w.Errors)
		width += w.WindowS
		if w.LatMeanMs != nil && w.Requests > 0 {
			latSum += *w.LatMeanMs * float64(w.Requests)
			latN += float64(w.Requests)
		}
		if w.LatP99Ms != nil && w.Requests > 0 {
			p99 = append(p99, *w.LatP99Ms)
		}
		if w.LatMaxMs != nil && w.Requests > 0 {
			mx = append(mx, *w.LatMaxMs)
		}
	}
	r := g.Runs[0]
	if !(width > 0) {
		g.Rep = Rep{RPS: r.RPS, LatMeanMs: r.LatMeanMs, LatP99Ms: r.LatP99Ms, LatMaxMs: r.LatMaxMs}
		return
	}
	g.Steady = Steady{Runs: 1, FromS: results.Ptr(fromS), RPSMean: results.Ptr(reqs / width)}
	if latN > 0 {
		g.Steady.LatMeanMs = results.Ptr(latSum / latN)
	}
	if len(p99) > 0 {
		g.Steady.LatP99Ms = results.Ptr(stats.Median(p99))
	}
	if len(mx) > 0 {
		g.Steady.LatMaxMs = results.Ptr(stats.Median(mx))
	}
	g.Rep = Rep{RPS: *g.Steady.RPSMean, LatMeanMs: g.Steady.LatMeanMs, LatP99Ms: g.Steady.LatP99Ms,
		LatMaxMs: g.Steady.LatMaxMs, FromSteady: true}
}

// withinRunWarmup classifies the windows of every run of the group that
// has a series (built from per-request samples) with stats.SelectModel:
// their median latency where every window has one, else their mean.
// Windows in stall-like excursions of the mean (stats.Excursions: they
// left the run's level and came back) are set to the run's level first,
// as Barrett et al. replace outliers, so that recurring stalls neither
// hide a warm-up nor pose as one; they are reported as the run's
// Instability instead.
func (v *Verdict) withinRunWarmup(g *Group, series map[string][]results.Series) []RunWarmup {
	var out []RunWarmup
	for _, r := range g.Runs {
		ws := series[r.RunID]
		if len(ws) == 0 {
			continue
		}
		out = append(out, v.runWarmup(r, windowsOf(ws)))
	}
	return out
}

// runWindows are the columns of a run's windows that have a mean latency
// and requests, in order; allP50 says every one of them has a median.
type runWindows struct {
	x, p50, ts, width, reqs []float64
	allP50                  bool
}

// windowsOf keeps the windows with a mean latency and requests.
func windowsOf(ws []results.Series) runWindows {
	c := runWindows{allP50: true}
	for _, w := range ws {
		if w.LatMeanMs == nil || w.Requests <= 0 {
			continue
		}
		c.x = append(c.x, *w.LatMeanMs)
		if w.LatP50Ms != nil && *w.LatP50Ms > 0 {
			c.p50 = append(c.p50, *w.LatP50Ms)
		} else {
			c.allP50 = false
		}
		c.ts = append(c.ts, w.TS)
		c.width = append(c.width, w.WindowS)
		c.reqs = append(c.reqs, float64(w.Requests))
	}
	return c
}

// runWarmup classifies one run's windows.
func (v *Verdict) runWarmup(r results.Run, c runWindows) RunWarmup {
	o := v.Options
	// The shape is modelled on the windows' median latency where every
	// window has one: one slow moment of the machine (or of the client)
	// moves a window's mean and tail many times, its median little, while
	// a change of the server's cost moves them all (STATISTICS.md).
	metric, y := MetricLatMeanMs, c.x
	if c.allP50 && len(c.x) > 0 {
		metric, y = MetricLatP50Ms, c.p50
	}
	rw := RunWarmup{RunID: r.RunID, Seq: r.Seq, Windows: len(c.x), Method: MethodModelMSER,
		Basis: Basis{Metric: metric, N: len(c.x)}}
	if len(c.x) < o.MinWindows {
		rw.Class = stats.ClassInsufficientData
		rw.Basis.MinN = o.MinWindows
		return rw
	}
	inst, err := stats.Excursions(c.x, c.reqs, stats.InstabilityOptions{Factor: o.ExcursionFactor, StallFactor: o.StallFactor})
	if err != nil {
		inst.Excursions = nil
	}
	level := inst.Level
	if metric != MetricLatMeanMs {
		level = stats.Median(y)
	}
	clean := cleaned(y, inst.Excursions, level)
	if m, err := v.windowModel(clean); err == nil {
		v.applyRunModel(&rw, m, c, inst)
	} else {
		rw.Class = stats.ClassInsufficientData
		rw.Basis.Err = err
		v.warn(Warning{Code: WarnWithinRunWarmup, System: r.Label, RunID: r.RunID, Seq: r.Seq, Err: err})
	}
	if d, more, err := stats.MSER5(clean); err == nil {
		rw.Basis.MSER = &MSERCut{Truncate: d, NeedsMoreData: more}
		if !more && rw.WarmupEndS != nil {
			rw.MSEREndS = results.Ptr(c.ts[d])
		}
	}
	return rw
}

// cleaned is s with the windows of the excursions set to level.
func cleaned(s []float64, exc []stats.Excursion, level float64) []float64 {
	if len(exc) == 0 {
		return s
	}
	c := slices.Clone(s)
	for _, e := range exc {
		for i := e.Start; i < e.End; i++ {
			c[i] = level
		}
	}
	return c
}

// windowModel is the one model of a run's windows (latency: lower is better).
func (v *Verdict) windowModel(s []float64) (stats.SeriesModel, error) {
	o := v.Options
	return stats.SelectModel(s, stats.ModelOptions{Delta: o.Delta, Alpha: o.Alpha, SearchSteady: true, MinFirst: 2})
}

// applyRunModel fills rw from the model m of the run's windows c: class,
// the end of a warm-up and a persistent trend.
func (v *Verdict) applyRunModel(rw *RunWarmup, m stats.SeriesModel, c runWindows, inst stats.Instability) {
	rw.Class, rw.Direction = m.Class, m.Direction
	if m.SteadyStart >= 0 {
		at := m.SteadyStart
		// A warm-up on the median ends no earlier than on the mean (its
		// stall-like excursions set to the level), when the mean shows one
		// too: a JVM still compiling shows it in its slow requests, which
		// move the mean and not the median.
		if rw.Basis.Metric != MetricLatMeanMs && m.Class == stats.ClassWarmup {
			if mm, err := v.windowModel(cleaned(c.x, inst.Excursions, inst.Level)); err == nil && mm.Class == stats.ClassWarmup && mm.SteadyStart > at {
				at = mm.SteadyStart
			}
		}
		rw.WarmupEndS = results.Ptr(c.ts[at])
	}
	rw.Basis.Segments, rw.Basis.Shape, rw.Basis.ThresholdPct = m.Levels, m.Shape, m.ThresholdPct
	if t := m.Trend; t != nil && t.Persistent {
		from, last := m.TrendFrom, len(c.ts)-1
		rw.Basis.Trend = t
		rw.TrendFromS, rw.TrendOverS = c.ts[from], c.ts[last]+c.width[last]-c.ts[from]
	}
}

// instability converts the excursions of a run's windows to seconds and
// shares.
func instability(inst stats.Instability, x, ts, width, reqs []float64) *Instability {
	in := &Instability{Excursions: len(inst.Excursions), Periodic: inst.Periodic, ShareTime: inst.ShareN,
		ShareRequests: inst.ShareW, LevelMs: inst.Level}
	var lens []float64
	var sum, n float64
	for _, e := range inst.Excursions {
		from, to := ts[e.Start], ts[e.End-1]+width[e.End-1]
		in.Spans = append(in.Spans, Span{FromS: from, ToS: to})
		lens = append(lens, to-from)
		for i := e.Start; i < e.End; i++ {
			sum += x[i] * reqs[i]
			n += reqs[i]
			in.StallPeakMs = max(in.StallPeakMs, x[i])
		}
	}
	if n > 0 {
		in.StallMeanMs = sum / n
	}
	in.StallS = stats.Median(lens)
	if inst.Periodic && len(inst.Excursions) >= 3 {
		var gaps []float64
		for i := 1; i < len(inst.Excursions); i++ {
			gaps = append(gaps, ts[inst.Excursions[i].Start]-ts[inst.Excursions[i-1].Start])
		}
		in.PeriodS = results.Ptr(stats.Median(gaps))
	}
	in.Finding = in.Code()
	return in
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
