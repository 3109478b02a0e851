package plots

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot/plotter"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// tlData is what a run's panel of the latency-over-time figure shows; x
// is the middle of each window, in seconds since the run's start.
type tlData struct {
	Run        results.Run
	Window     float64 // the most common window length, seconds
	P50, P90   plotter.XYs
	P99        plotter.XYs
	Mean       plotter.XYs // only when there is no p50
	XMin, XMax float64
	Warmup     *analyze.RunWarmup
}

// timelineData collects the series of one run.
func timelineData(in Input, runID string) (tlData, error) {
	v := in.Verdict
	i := slices.IndexFunc(v.Runs, func(r results.Run) bool { return r.RunID == runID })
	if i < 0 {
		return tlData{}, fmt.Errorf("timeline: run %q: %w", runID, ErrNoData)
	}
	d := tlData{Run: v.Runs[i], XMin: math.Inf(1), XMax: math.Inf(-1)}
	var rows []results.Series
	for _, s := range in.Series {
		if s.RunID == runID && finite(s.TS) && finite(s.WindowS) && s.WindowS >= 0 {
			rows = append(rows, s)
		}
	}
	if len(rows) == 0 {
		return tlData{}, fmt.Errorf("timeline: run %q: %w", runID, ErrNoData)
	}
	slices.SortStableFunc(rows, func(a, b results.Series) int { return cmp.Compare(a.TS, b.TS) })
	windows := map[float64]int{}
	hasP50 := slices.ContainsFunc(rows, func(s results.Series) bool { return finiteP(s.LatP50Ms) })
	for _, s := range rows {
		x := s.TS + s.WindowS/2
		d.XMin, d.XMax = math.Min(d.XMin, s.TS), math.Max(d.XMax, s.TS+s.WindowS)
		windows[s.WindowS]++
		if finiteP(s.LatP50Ms) {
			d.P50 = append(d.P50, plotter.XY{X: x, Y: *s.LatP50Ms})
		}
		if finiteP(s.LatP90Ms) {
			d.P90 = append(d.P90, plotter.XY{X: x, Y: *s.LatP90Ms})
		}
		if finiteP(s.LatP99Ms) {
			d.P99 = append(d.P99, plotter.XY{X: x, Y: *s.LatP99Ms})
		}
		if !hasP50 && finiteP(s.LatMeanMs) {
			d.Mean = append(d.Mean, plotter.XY{X: x, Y: *s.LatMeanMs})
		}
	}
	for _, s := range rows { // first most common window length, deterministic
		if windows[s.WindowS] > windows[d.Window] {
			d.Window = s.WindowS
		}
	}
	for _, sys := range v.Systems {
		for j := range sys.WithinRunWarmup {
			if w := sys.WithinRunWarmup[j]; w.RunID == runID {
				d.Warmup = &w
			}
		}
	}
	return d, nil
}
