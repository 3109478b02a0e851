package plots

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// BoundSlack is how far (a fraction) a measured throughput may lie above
// the Little's-law line N/R0 before the line is no bound: with R0 the
// least mean latency, the run that has it lies on the line (every
// connection busy), give or take its measurement's rounding and noise;
// 2 % of the axis is within a marker's size.
const BoundSlack = 0.02

// scSystem is one system's capacity curve.
type scSystem struct {
	System int
	Label  string
	Levels plotter.XYs // (connections, representative requests/s), ascending
	Runs   plotter.XYs // every closed-model run: (connections, requests/s)
	// R0S is the smallest latency of the system's closed-model runs in
	// seconds: their least per-request minimum where every run reports
	// one, else their least mean (R0Mean); 0 when unknown. N/R0S bounds
	// the throughput at N connections by Little's law. When a measured
	// point lies above it anyway, by more than BoundSlack (the latency
	// figures under-report: a Little's law ratio above 1), Exceeded is set
	// and the line is not drawn: a "bound" below the data would mislead.
	R0S         float64
	R0Mean      bool
	Exceeded    bool
	USL         *stats.USLFit
	SaturatedAt *int32
}

// scData is what the scaling figure shows.
type scData struct {
	Systems    []scSystem // the systems with two or more levels
	XMin, XMax float64    // connections
	YMax       float64    // largest measured or fitted throughput
	Log        bool       // log connections axis
	RunsShown  bool       // some level has more than one run
}

// scalingData collects the systems that ran at two or more concurrency levels.
func scalingData(v *analyze.Verdict) scData {
	d := scData{XMin: math.Inf(1), XMax: math.Inf(-1)}
	for si, sys := range v.Systems {
		c := sys.Capacity
		if len(c.Levels) < 2 {
			continue
		}
		s := scSystem{System: si, Label: sys.Label}
		if u := c.USL; u != nil && finite(u.Sigma) && finite(u.Kappa) && finite(u.Lambda) {
			s.USL = u
		}
		d.addLevels(&s, c.Levels)
		if len(s.Levels) < 2 {
			continue
		}
		d.addRuns(&s, sys.Groups)
		s.Exceeded = s.exceedsBound()
		if c.Saturated && c.SaturatedAt != nil {
			s.SaturatedAt = c.SaturatedAt
		}
		d.Systems = append(d.Systems, s)
	}
	if len(d.Systems) == 0 {
		return d
	}
	d.Log = d.XMin > 0 && d.XMax/d.XMin >= 16
	for _, s := range d.Systems {
		if s.USL != nil {
			for _, xy := range s.Levels {
				d.YMax = math.Max(d.YMax, s.USL.Throughput(xy.X))
			}
		}
	}
	return d
}

// addLevels adds a system's levels with a finite throughput, widening the
// axes.
func (d *scData) addLevels(s *scSystem, levels []analyze.Level) {
	for _, l := range levels {
		if !finite(l.RPS) {
			continue
		}
		s.Levels = append(s.Levels, plotter.XY{X: float64(l.Connections), Y: l.RPS})
		d.XMin, d.XMax = math.Min(d.XMin, float64(l.Connections)), math.Max(d.XMax, float64(l.Connections))
		d.YMax = math.Max(d.YMax, l.RPS)
		d.RunsShown = d.RunsShown || l.Runs > 1
	}
}

// addRuns adds a system's closed-model runs and sets R0, the smallest
// latency of its runs: their minimum when every run has one, else their
// least mean.
func (d *scData) addRuns(s *scSystem, groups []analyze.Group) {
	minLat, minMean, allMin := math.Inf(1), math.Inf(1), true
	for _, g := range groups {
		for _, r := range g.Runs {
			if r.LoadModel != results.LoadClosed || r.Connections == nil || *r.Connections <= 0 || !finite(r.RPS) {
				continue
			}
			s.Runs = append(s.Runs, plotter.XY{X: float64(*r.Connections), Y: r.RPS})
			d.YMax = math.Max(d.YMax, r.RPS)
			if finiteP(r.LatMinMs) && *r.LatMinMs > 0 {
				minLat = math.Min(minLat, *r.LatMinMs)
			} else {
				allMin = false
			}
			if finiteP(r.LatMeanMs) && *r.LatMeanMs > 0 {
				minMean = math.Min(minMean, *r.LatMeanMs)
			}
		}
	}
	switch {
	case allMin && !math.IsInf(minLat, 1):
		s.R0S = minLat / 1000
	case !math.IsInf(minMean, 1):
		s.R0S, s.R0Mean = minMean/1000, true
	}
}

// exceedsBound tells whether a measured point lies above the Little's-law
// bound N/R0 (with BoundSlack).
func (s *scSystem) exceedsBound() bool {
	if !(s.R0S > 0) {
		return false
	}
	for _, xy := range append(slices.Clone(s.Levels), s.Runs...) {
		if xy.Y > xy.X/s.R0S*(1+BoundSlack) {
			return true
		}
	}
	return false
}

// Scaling returns the scaling figure: the representative throughput of
// every system at each concurrency level (closed model) with its single
// runs, the Little's-law bound X <= N/R0 (R0 the smallest latency of its
// runs: their minimum, else their least mean; left out, and said so in
// the legend, when a measured point lies above it), the USL fit
// X(N) = λN/(1+σ(N−1)+κN(N−1)) when there is one, and the saturation
// point. Only systems that ran at two or more levels are drawn.
func Scaling(in Input) (*plot.Plot, error) {
	if in.Verdict == nil {
		return nil, fmt.Errorf("scaling: %w", ErrNoData)
	}
	d := scalingData(in.Verdict)
	if len(d.Systems) == 0 {
		return nil, fmt.Errorf("scaling: %w", ErrNoData)
	}
	xlabel := "concurrency (connections)"
	p := newPlot(titled(in.Verdict, "Throughput against concurrency"), xlabel, "throughput (requests/s)")
	x0, x1 := 0.0, d.XMax*1.08
	if d.Log {
		x0, x1 = d.XMin/1.2, d.XMax*1.2
		logAxis(&p.X, x0, x1)
		p.X.Label.Text = xlabel + ", log scale"
	} else {
		p.X.Min, p.X.Max = x0, x1
	}
	// The bound may run far above the data: the y axis stops at 1.5 times
	// the largest throughput and the bound is cut there.
	p.Y.Min, p.Y.Max = 0, d.YMax*1.5

	fx0 := math.Max(x0, 1e-9)
	var models []LegendEntry // legend entries of the model lines, after the systems
	for k, s := range d.Systems {
		st := styleOf(s.System)
		if s.R0S > 0 {
			models = append(models, addBound(p, s, st, fx0, x1))
		}
		if s.USL != nil {
			e, err := addUSL(p, s, st, fx0, x0, x1)
			if err != nil {
				return nil, err
			}
			models = append(models, e...)
		}
		if s.SaturatedAt != nil {
			if err := addSaturation(p, s, st, k); err != nil {
				return nil, err
			}
		}
	}
	if err := addScalingPoints(p, d); err != nil {
		return nil, err
	}
	for _, s := range d.Systems {
		st := styleOf(s.System)
		g := st.glyph(glyphSize * 1.2)
		p.Legend.Add(short(s.Label), lineThumb{Line: st.line(lineWidth), Glyph: &g})
	}
	if d.RunsShown {
		g := runGlyph(style{Color: colors[2], Hollow: mark{circle, true}})
		p.Legend.Add("single runs", lineThumb{Glyph: &g})
	}
	for _, e := range models {
		if e.Thumb == nil {
			p.Legend.Add(e.Name)
			continue
		}
		p.Legend.Add(e.Name, e.Thumb)
	}
	return p, nil
}

// runGlyph is the marker of a single run.
func runGlyph(st style) draw.GlyphStyle {
	return draw.GlyphStyle{Color: withAlpha(st.Color, 0xc0), Radius: glyphSize * 0.8, Shape: st.Hollow}
}

// addBound draws a system's Little's-law bound N/R0 from x0 to x1, or,
// when a measured point lies above it, only says so in the legend.
func addBound(p *plot.Plot, s scSystem, st style, x0, x1 float64) LegendEntry {
	r0 := s.R0S
	what := "min"
	if s.R0Mean {
		what = "least mean"
	}
	if s.Exceeded {
		return LegendEntry{fmt.Sprintf("%s: runs above N/R0 (R0 = %s ms): no bound", short(s.Label), fmtNum(1000*r0)), nil}
	}
	f := plotter.NewFunction(func(n float64) float64 { return n / r0 })
	f.XMin, f.XMax, f.Samples = x0, x1, 100
	f.LineStyle = draw.LineStyle{Color: st.Color, Width: thinWidth, Dashes: []vg.Length{vg.Points(1.5), vg.Points(3)}}
	p.Add(f)
	return LegendEntry{fmt.Sprintf("%s: bound N/R0, R0 = %s ms (%s)", short(s.Label), fmtNum(1000*r0), what), f}
}

// addUSL draws a system's USL fit from max(fx0, 1) to x1 and its peak
// when it lies within [x0, x1].
func addUSL(p *plot.Plot, s scSystem, st style, fx0, x0, x1 float64) ([]LegendEntry, error) {
	fit := *s.USL
	f := plotter.NewFunction(fit.Throughput)
	f.XMin, f.XMax, f.Samples = math.Max(fx0, 1), x1, 200
	f.LineStyle = draw.LineStyle{Color: st.Color, Width: lineWidth, Dashes: dashes[3]}
	p.Add(f)
	note := ""
	if fit.NegativeSigma || fit.NegativeKappa {
		note = ", not physical"
	}
	e := []LegendEntry{{fmt.Sprintf("%s: USL σ=%.3g κ=%.3g R²=%.2f%s", short(s.Label), fit.Sigma, fit.Kappa, fit.R2, note), f}}
	if fit.NMax <= 0 || float64(fit.NMax) < x0 || float64(fit.NMax) > x1 {
		return e, nil
	}
	pk, err := plotter.NewScatter(plotter.XYs{{X: float64(fit.NMax), Y: fit.XMax}})
	if err != nil {
		return nil, err
	}
	pk.GlyphStyle = draw.GlyphStyle{Color: st.Color, Radius: glyphSize * 1.5, Shape: mark{Shape: plus}}
	p.Add(pk)
	return append(e, LegendEntry{fmt.Sprintf("%s: USL peak at N = %d", short(s.Label), fit.NMax), pk}), nil
}

// addSaturation marks where the k-th system saturated: a labelled line,
// and a ring around its level there.
func addSaturation(p *plot.Plot, s scSystem, st style, k int) error {
	n := float64(*s.SaturatedAt)
	p.Add(vline{X: n, Line: draw.LineStyle{Color: st.Color, Width: thinWidth, Dashes: dashes[2]}, Row: k,
		Text: fmt.Sprintf("%s saturated from %s", short(s.Label), levelText(s.SaturatedAt))})
	for _, xy := range s.Levels {
		if xy.X != n {
			continue
		}
		ring, err := plotter.NewScatter(plotter.XYs{xy})
		if err != nil {
			return err
		}
		ring.GlyphStyle = draw.GlyphStyle{Color: st.Color, Radius: glyphSize * 2.2, Shape: mark{circle, true}}
		p.Add(ring)
	}
	return nil
}

// addScalingPoints draws every system's levels, over its single runs when
// some level has more than one.
func addScalingPoints(p *plot.Plot, d scData) error {
	for _, s := range d.Systems {
		st := styleOf(s.System)
		if d.RunsShown {
			r, err := newScatter(s.Runs)
			if err != nil {
				return err
			}
			r.GlyphStyle = runGlyph(st)
			p.Add(r)
		}
		l, sc, err := plotter.NewLinePoints(s.Levels)
		if err != nil {
			return err
		}
		l.LineStyle = st.line(lineWidth)
		sc.GlyphStyle = st.glyph(glyphSize * 1.2)
		p.Add(l, sc)
	}
	return nil
}

func scalingAlt(in Input) string {
	d := scalingData(in.Verdict)
	s := fmt.Sprintf("Throughput against connections for %s", plural(len(d.Systems), "system", "systems"))
	var extra []string
	bounds := 0
	for _, sy := range d.Systems {
		if sy.R0S > 0 && !sy.Exceeded {
			bounds++
		}
	}
	switch {
	case bounds == 1:
		extra = append(extra, "a Little's-law bound")
	case bounds > 1:
		extra = append(extra, "Little's-law bounds")
	}
	for _, sy := range d.Systems {
		if sy.USL != nil {
			extra = append(extra, "USL fits")
			break
		}
	}
	for _, sy := range d.Systems {
		if sy.SaturatedAt != nil {
			extra = append(extra, fmt.Sprintf("saturation of %s from %s", sy.Label, levelText(sy.SaturatedAt)))
		}
	}
	if len(extra) > 0 {
		s += " with " + joinWords(extra)
	}
	return s + "."
}

func joinWords(w []string) string {
	switch len(w) {
	case 0:
		return ""
	case 1:
		return w[0]
	}
	out := ""
	for i, x := range w[:len(w)-1] {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out + " and " + w[len(w)-1]
}
