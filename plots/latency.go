package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// latRun is one run's latency figures in ms; NaN where not known.
type latRun struct {
	Seq                   float64
	Mean, Stdev, P99, Max float64
}

// latData is what the latency figure shows.
type latData struct {
	Systems []string
	Runs    [][]latRun // per system, in execution order
	Log     bool       // log y axis
	YMin    float64    // bottom of the y axis (log axis only)
	YMax    float64
	MinSeq  float64
	MaxSeq  float64
	HasP99  bool
	HasMax  bool
	N       int // runs with any latency figure
	// Clipped are the seqs of the runs whose mean - stdev lies below the
	// bottom of the log axis: their bars end there in an arrow.
	Clipped []float64
}

func nan(p *float64) float64 {
	if !finiteP(p) {
		return math.NaN()
	}
	return *p
}

// latencyData collects the latency figures of every run.
func latencyData(in Input) latData {
	v := in.Verdict
	idx := systemIndex(v)
	d := latData{Runs: make([][]latRun, len(v.Systems)), MinSeq: math.Inf(1), MaxSeq: math.Inf(-1)}
	for _, s := range v.Systems {
		d.Systems = append(d.Systems, s.Label)
	}
	ext := latExtent{lo: math.Inf(1), hi: math.Inf(-1), floor: math.Inf(1)}
	for _, r := range v.Runs {
		si, ok := idx[r.Label]
		if !ok {
			continue
		}
		lr := latRun{Seq: float64(r.Seq), Mean: nan(r.LatMeanMs), Stdev: nan(r.LatStdevMs), P99: nan(r.LatP99Ms), Max: nan(r.LatMaxMs)}
		if !ext.add(lr) {
			continue
		}
		d.HasP99 = d.HasP99 || lr.P99 >= 0
		d.HasMax = d.HasMax || lr.Max >= 0
		d.N++
		d.MinSeq, d.MaxSeq = math.Min(d.MinSeq, lr.Seq), math.Max(d.MaxSeq, lr.Seq)
		d.Runs[si] = append(d.Runs[si], lr)
	}
	if d.N == 0 {
		return d
	}
	if math.IsInf(ext.lo, 1) {
		ext.lo = ext.floor
	}
	d.YMax = ext.hi
	if ext.lo > 0 && ext.hi/ext.lo > LogSpan {
		d.Log = true
		d.YMin = ext.floor / 1.25
		d.Clipped = clippedBars(d.Runs, d.YMin)
	}
	return d
}

// latExtent is the range of the plotted latencies: the smallest mean, the
// largest value and the smallest positive value.
type latExtent struct {
	lo, hi, floor float64
}

// add widens the range by a run's mean (± stdev), p99 and max; false when
// the run has none of them.
func (e *latExtent) add(lr latRun) bool {
	any := false
	for _, x := range []float64{lr.Mean, lr.P99, lr.Max} {
		if x >= 0 && !math.IsInf(x, 0) {
			any = true
			e.hi = math.Max(e.hi, x)
			if x > 0 {
				e.floor = math.Min(e.floor, x)
			}
		}
	}
	if !any {
		return false
	}
	if lr.Mean >= 0 {
		e.lo = math.Min(e.lo, lr.Mean)
		if lr.Stdev > 0 {
			e.hi = math.Max(e.hi, lr.Mean+lr.Stdev)
			if lr.Mean-lr.Stdev > 0 {
				e.floor = math.Min(e.floor, lr.Mean-lr.Stdev)
			}
		}
	}
	return true
}

// clippedBars are the runs whose mean - stdev lies below the bottom of
// the axis, yMin.
func clippedBars(runs [][]latRun, yMin float64) []float64 {
	var clipped []float64
	for _, rs := range runs {
		for _, r := range rs {
			if r.Mean > 0 && r.Stdev > 0 && r.Mean-r.Stdev < yMin {
				clipped = append(clipped, r.Seq)
			}
		}
	}
	return clipped
}

// Latency returns the latency figure: per run the mean latency with ±1
// standard deviation error bars (filled marker), the p99 where known (open
// marker) and the maximum (×), one colour and marker shape per system,
// x = seq. The y axis is logarithmic when the largest value is more than
// LogSpan times the smallest mean; an error bar whose mean - stdev lies
// below the axis (0 or less, or under its bottom) then ends in an arrow at
// the bottom, and the legend says so.
func Latency(in Input) (*plot.Plot, error) {
	if in.Verdict == nil {
		return nil, fmt.Errorf("latency: %w", ErrNoData)
	}
	d := latencyData(in)
	if d.N == 0 {
		return nil, fmt.Errorf("latency: %w", ErrNoData)
	}
	ylabel := "latency (ms)"
	if d.Log {
		ylabel = "latency (ms, log scale)"
	}
	p := newPlot(titled(in.Verdict, "Latency per run"), "run (execution order, seq)", ylabel)
	p.X.Tick.Marker = intTicks{}
	p.X.Min, p.X.Max = d.MinSeq-0.6, d.MaxSeq+0.6
	if d.Log {
		logAxis(&p.Y, d.YMin, d.YMax*1.15)
	} else {
		p.Y.Min, p.Y.Max = 0, d.YMax*1.06
	}
	for si, runs := range d.Runs {
		if err := addLatencyRuns(p, d, styleOf(si), runs); err != nil {
			return nil, err
		}
	}
	latencyLegend(p, d)
	return p, nil
}

// latMaxGlyph marks a run's maximum latency.
var latMaxGlyph = mark{Shape: cross}

// addLatencyRuns draws a system's runs: the mean with its error bar, the
// p99 and the maximum. A log axis cannot show 0 (wrk prints 0 percentiles
// for a pipelined run): such points are left out.
func addLatencyRuns(p *plot.Plot, d latData, st style, runs []latRun) error {
	var mean, p99, mx plotter.XYs
	bars := errBars{Line: draw.LineStyle{Color: st.Color, Width: lineWidth}, Cap: vg.Points(9)}
	shown := func(x float64) bool { return x >= 0 && !(d.Log && x <= 0) }
	for _, r := range runs {
		if shown(r.Mean) {
			mean = append(mean, plotter.XY{X: r.Seq, Y: r.Mean})
			bars.add(r, d)
		}
		if shown(r.P99) {
			p99 = append(p99, plotter.XY{X: r.Seq, Y: r.P99})
		}
		if shown(r.Max) {
			mx = append(mx, plotter.XY{X: r.Seq, Y: r.Max})
		}
	}
	if len(mean) > 0 {
		bars.X = make([]float64, len(mean))
		for i, xy := range mean {
			bars.X[i] = xy.X
		}
		sc, err := newScatter(mean)
		if err != nil {
			return err
		}
		sc.GlyphStyle = st.glyph(glyphSize)
		p.Add(bars, sc)
	}
	if err := addScatter(p, p99, draw.GlyphStyle{Color: st.Color, Radius: glyphSize, Shape: st.Hollow}); err != nil {
		return err
	}
	return addScatter(p, mx, draw.GlyphStyle{Color: st.Color, Radius: glyphSize, Shape: latMaxGlyph})
}

// add appends the error bar of a run's mean ± stdev, cut at the bottom of
// a log axis.
func (b *errBars) add(r latRun, d latData) {
	sd := r.Stdev
	if !(sd >= 0) {
		sd = 0
	}
	lo, cut := r.Mean-sd, false
	if d.Log && lo < d.YMin {
		lo, cut = d.YMin, true
	}
	b.Lo, b.Hi, b.Cut = append(b.Lo, lo), append(b.Hi, r.Mean+sd), append(b.Cut, cut)
}

// addScatter draws the points xy, when there are any, with glyph.
func addScatter(p *plot.Plot, xy plotter.XYs, glyph draw.GlyphStyle) error {
	if len(xy) == 0 {
		return nil
	}
	sc, err := newScatter(xy)
	if err != nil {
		return err
	}
	sc.GlyphStyle = glyph
	p.Add(sc)
	return nil
}

// latencyLegend names the systems and the marks.
func latencyLegend(p *plot.Plot, d latData) {
	for si, s := range d.Systems {
		if len(d.Runs[si]) == 0 {
			continue
		}
		st := styleOf(si)
		g := st.glyph(glyphSize)
		p.Legend.Add(short(s), lineThumb{Glyph: &g})
	}
	meanG := draw.GlyphStyle{Color: black, Radius: glyphSize, Shape: mark{Shape: circle}}
	p.Legend.Add("mean ± stdev (filled)", errThumb{}, lineThumb{Glyph: &meanG})
	if d.HasP99 {
		g := draw.GlyphStyle{Color: black, Radius: glyphSize, Shape: mark{circle, true}}
		p.Legend.Add("p99 (open)", lineThumb{Glyph: &g})
	}
	if d.HasMax {
		g := draw.GlyphStyle{Color: black, Radius: glyphSize, Shape: latMaxGlyph}
		p.Legend.Add("max (×)", lineThumb{Glyph: &g})
	}
	if len(d.Clipped) > 0 {
		p.Legend.Add("mean − stdev below axis", arrowThumb{})
	}
}

// arrowSize is the height of the arrow that ends an error bar cut at the
// bottom of a log axis.
var arrowSize = vg.Points(7)

// downArrow draws an arrow head pointing down with its tip at (x, y).
func downArrow(c *draw.Canvas, col color.Color, x, y vg.Length) {
	w := arrowSize * 0.6
	c.FillPolygon(col, []vg.Point{{X: x, Y: y}, {X: x - w, Y: y + arrowSize}, {X: x + w, Y: y + arrowSize}})
}

// arrowThumb is the legend thumbnail of a cut error bar.
type arrowThumb struct{}

// Thumbnail implements plot.Thumbnailer.
func (arrowThumb) Thumbnail(c *draw.Canvas) {
	x := c.Center().X
	c.StrokeLine2(draw.LineStyle{Color: black, Width: lineWidth}, x, c.Max.Y, x, c.Min.Y+arrowSize/2)
	downArrow(c, black, x, c.Min.Y)
}

// errBars are vertical error bars from Lo to Hi at X, with caps; a bar
// cut at the bottom of a log axis (Cut) ends in an arrow there instead.
type errBars struct {
	X, Lo, Hi []float64
	Cut       []bool
	Line      draw.LineStyle
	Cap       vg.Length
}

// Plot implements plot.Plotter.
func (e errBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range e.X {
		x, lo, hi := trX(e.X[i]), trY(e.Lo[i]), trY(e.Hi[i])
		c.StrokeLines(e.Line, c.ClipLinesY([]vg.Point{{X: x, Y: lo}, {X: x, Y: hi}})...)
		c.StrokeLine2(e.Line, x-e.Cap/2, hi, x+e.Cap/2, hi)
		if e.Cut[i] {
			downArrow(&c, e.Line.Color, x, c.Min.Y)
		} else {
			c.StrokeLine2(e.Line, x-e.Cap/2, lo, x+e.Cap/2, lo)
		}
	}
}

// DataRange implements plot.DataRanger.
func (e errBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i := range e.X {
		xmin, xmax = math.Min(xmin, e.X[i]), math.Max(xmax, e.X[i])
		ymin, ymax = math.Min(ymin, e.Lo[i]), math.Max(ymax, e.Hi[i])
	}
	return
}

// errThumb is the legend thumbnail of an error bar.
type errThumb struct{}

// Thumbnail implements plot.Thumbnailer.
func (errThumb) Thumbnail(c *draw.Canvas) {
	x := c.Center().X
	sty := draw.LineStyle{Color: black, Width: lineWidth}
	c.StrokeLine2(sty, x, c.Min.Y, x, c.Max.Y)
	c.StrokeLine2(sty, x-vg.Points(4), c.Min.Y, x+vg.Points(4), c.Min.Y)
	c.StrokeLine2(sty, x-vg.Points(4), c.Max.Y, x+vg.Points(4), c.Max.Y)
}

func latencyAlt(in Input) string {
	d := latencyData(in)
	what := "mean latency with ±1 standard deviation"
	switch {
	case d.HasP99 && d.HasMax:
		what += ", p99 and maximum"
	case d.HasP99:
		what += " and p99"
	case d.HasMax:
		what += " and maximum"
	}
	scale := ""
	if d.Log {
		scale = " on a log scale"
		if n := len(d.Clipped); n > 0 {
			scale += fmt.Sprintf(" (%s below the axis, marked by an arrow)", plural(n, "error bar reaches", "error bars reach"))
		}
	}
	return fmt.Sprintf("The %s of %s in execution order for %s%s.", what, plural(d.N, "run", "runs"), joinLabels(in.Verdict), scale)
}
