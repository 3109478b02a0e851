package plots

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/loadverdict/loadverdict/results"
)

// MaxQuantile is where quantiles are clipped on the percentile axis:
// q = 1 (the maximum) would be at infinity, so quantiles above it are
// drawn at 1/(1-MaxQuantile), labelled "99.999%"; the maximum is drawn
// there as a marker, not joined to the line.
const MaxQuantile = 0.99999

// pctRun is one run's spectrum: x = 1/(1-q), y = latency in ms, ascending
// x, for q < 1; Max is its maximum (q = 1 in the table, else the run's
// lat_max_ms), NaN when unknown.
type pctRun struct {
	System int
	RunID  string
	Seq    int32
	XY     plotter.XYs
	Max    float64
}

// pctData is what the percentile figure shows.
type pctData struct {
	Systems    []string
	Runs       []pctRun // in execution order
	RunsPerSys []int
	XMin, XMax float64
	YMin, YMax float64
	Log        bool
	HasMax     bool // some run's maximum is drawn, at percentileX(1)
}

// percentileX maps a quantile to the percentile axis: 1/(1-q), with q
// clipped to MaxQuantile.
func percentileX(q float64) float64 {
	// Rounded to 6 significant digits, so that 0.999 gives 1000 exactly
	// and the percent ticks fall on the data.
	return roundSig(1 / (1 - math.Min(q, MaxQuantile)))
}

// percentileData collects the spectrum of every run with percentiles.
func percentileData(in Input) pctData {
	v := in.Verdict
	idx := systemIndex(v)
	d := pctData{XMin: math.Inf(1), XMax: math.Inf(-1), YMin: math.Inf(1), YMax: math.Inf(-1), RunsPerSys: make([]int, len(v.Systems))}
	for _, s := range v.Systems {
		d.Systems = append(d.Systems, s.Label)
	}
	byRun := map[string][]results.Percentile{}
	for _, p := range in.Percentiles {
		if p.Quantile >= 0 && p.Quantile <= 1 && p.LatencyMs >= 0 && !math.IsInf(p.LatencyMs, 0) {
			byRun[p.RunID] = append(byRun[p.RunID], p)
		}
	}
	for _, r := range v.Runs {
		ps := byRun[r.RunID]
		si, ok := idx[r.Label]
		if len(ps) == 0 || !ok {
			continue
		}
		pr := spectrum(si, r, ps)
		d.extend(pr)
		d.Runs = append(d.Runs, pr)
		d.RunsPerSys[si]++
	}
	d.Log = d.YMin > 0 && d.YMax/d.YMin > LogSpan
	if d.Log {
		// A log axis cannot show 0 ms (tools that round to whole ms, like
		// ab -g, report it): such points are left out.
		for i := range d.Runs {
			d.Runs[i].XY = slices.DeleteFunc(d.Runs[i].XY, func(xy plotter.XY) bool { return xy.Y <= 0 })
			if d.Runs[i].Max <= 0 {
				d.Runs[i].Max = math.NaN()
			}
		}
	}
	return d
}

// spectrum is the percentile spectrum of the run r of the si-th system,
// from its points ps: in quantile order, quantiles clipped to the same x
// keeping the largest latency, the maximum (q = 1, else the run's) apart.
func spectrum(si int, r results.Run, ps []results.Percentile) pctRun {
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b results.Percentile) int {
		return cmp.Or(cmp.Compare(a.Quantile, b.Quantile), cmp.Compare(a.LatencyMs, b.LatencyMs))
	})
	pr := pctRun{System: si, RunID: r.RunID, Seq: r.Seq, Max: math.NaN()}
	if finiteP(r.LatMaxMs) && *r.LatMaxMs >= 0 {
		pr.Max = *r.LatMaxMs
	}
	for _, p := range ps {
		if p.Quantile == 1 {
			pr.Max = p.LatencyMs
			continue
		}
		x := percentileX(p.Quantile)
		if n := len(pr.XY); n > 0 && pr.XY[n-1].X == x {
			pr.XY[n-1].Y = math.Max(pr.XY[n-1].Y, p.LatencyMs)
		} else {
			pr.XY = append(pr.XY, plotter.XY{X: x, Y: p.LatencyMs})
		}
	}
	return pr
}

// extend widens the axes to a run's spectrum and its maximum.
func (d *pctData) extend(pr pctRun) {
	pts := pr.XY
	if pr.Max >= 0 {
		pts = append(slices.Clone(pts), plotter.XY{X: percentileX(1), Y: pr.Max})
		d.HasMax = true
	}
	for _, xy := range pts {
		d.XMin, d.XMax = math.Min(d.XMin, xy.X), math.Max(d.XMax, xy.X)
		d.YMax = math.Max(d.YMax, xy.Y)
		if xy.Y > 0 {
			d.YMin = math.Min(d.YMin, xy.Y)
		}
	}
}

// percentileTicks label the percentile axis at 0 %, 50 %, 90 %, 99 %, ...
var percentileTicks = func() plot.ConstantTicks {
	var t plot.ConstantTicks
	for _, c := range []struct {
		q     float64
		label string
	}{{0, "0%"}, {0.5, "50%"}, {0.9, "90%"}, {0.99, "99%"}, {0.999, "99.9%"}, {0.9999, "99.99%"}, {MaxQuantile, "99.999%"}} {
		t = append(t, plot.Tick{Value: percentileX(c.q), Label: c.label})
	}
	// Minor ticks at 2..9 times the decades.
	for k := 0; k < 5; k++ {
		for m := 2; m <= 9; m++ {
			if k == 0 && m == 2 {
				continue // 50 %
			}
			t = append(t, plot.Tick{Value: float64(m) * math.Pow10(k)})
		}
	}
	return t
}()

// Percentiles returns the latency percentile spectrum of every run with
// percentiles, HdrHistogram style: x = 1/(1-q) on a log axis labelled in
// percent, with q clipped to MaxQuantile; one colour and dash per system.
// Each run's maximum, where known, is a × at 99.999 %, not joined to its
// line (the axis reaches it, and its label says so only then). The
// latency axis is logarithmic when the values span more than LogSpan.
func Percentiles(in Input) (*plot.Plot, error) {
	if in.Verdict == nil {
		return nil, fmt.Errorf("percentiles: %w", ErrNoData)
	}
	d := percentileData(in)
	if len(d.Runs) == 0 {
		return nil, fmt.Errorf("percentiles: %w", ErrNoData)
	}
	ylabel := "latency (ms)"
	if d.Log {
		ylabel = "latency (ms, log scale)"
	}
	xlabel := "percentile (log scale of 1/(1-q))"
	if d.HasMax {
		xlabel = "percentile (log scale of 1/(1-q)); × the maximum, drawn at 99.999%"
	}
	p := newPlot(titled(in.Verdict, "Latency by percentile"), xlabel, ylabel)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = percentileTicks
	p.X.Min, p.X.Max = d.XMin, d.XMax
	if d.XMax <= d.XMin {
		p.X.Min, p.X.Max = 1, percentileX(MaxQuantile)
	}
	if d.HasMax {
		p.X.Max *= 1.6 // the maxima's markers clear of the edge
	}
	if d.Log {
		logAxis(&p.Y, d.YMin/1.25, d.YMax*1.15)
	} else {
		p.Y.Min = 0
	}
	for _, r := range d.Runs {
		st := styleOf(r.System)
		l, s, err := plotter.NewLinePoints(r.XY)
		if err != nil {
			return nil, err
		}
		l.LineStyle = st.line(lineWidth)
		s.GlyphStyle = st.glyph(glyphSize * 0.6)
		p.Add(l, s)
		if r.Max >= 0 {
			m, err := plotter.NewScatter(plotter.XYs{{X: percentileX(1), Y: r.Max}})
			if err != nil {
				return nil, err
			}
			m.GlyphStyle = draw.GlyphStyle{Color: st.Color, Radius: glyphSize, Shape: mark{Shape: cross}}
			p.Add(m)
		}
	}
	for si, s := range d.Systems {
		if d.RunsPerSys[si] == 0 {
			continue
		}
		st := styleOf(si)
		g := st.glyph(glyphSize * 0.6)
		p.Legend.Add(fmt.Sprintf("%s (%s)", short(s), plural(d.RunsPerSys[si], "run", "runs")), lineThumb{Line: st.line(lineWidth), Glyph: &g})
	}
	if d.HasMax {
		g := draw.GlyphStyle{Color: black, Radius: glyphSize, Shape: mark{Shape: cross}}
		p.Legend.Add("max (×)", lineThumb{Glyph: &g})
	}
	return p, nil
}

func percentilesAlt(in Input) string {
	d := percentileData(in)
	upTo := ""
	if d.XMax > d.XMin {
		upTo = ", up to " + percentLabel(d.XMax)
	}
	max := ""
	if d.HasMax {
		max = ", with each run's maximum marked apart"
	}
	return fmt.Sprintf("Latency against percentile (on a log axis of 1/(1-q)%s) for %s of %s%s.",
		upTo, plural(len(d.Runs), "run", "runs"), joinLabels(in.Verdict), max)
}

// percentLabel words a position x = 1/(1-q) of the percentile axis as a
// percentile, "99%" for 100.
func percentLabel(x float64) string {
	return strconv.FormatFloat(roundSig(100*(1-1/x)), 'f', -1, 64) + "%"
}
