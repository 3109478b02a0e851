package plots

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// tpGroup is the runs of one group: x = seq, y = requests/s.
type tpGroup struct {
	System int // index into Verdict.Systems
	Level  int // index into tpData.Levels
	XY     plotter.XYs
	RunIDs []string
}

// tpBand is the steady-state band of a group: Lo..Hi over the seqs X0..X1
// of its steady runs, Mean the steady-state mean.
type tpBand struct {
	System         int
	X0, X1         float64
	Lo, Hi, Mean   float64
	CI             bool    // Lo..Hi is a confidence interval (else min..max of the steady runs)
	Level          float64 // confidence level of the CI
	FirstSeq, Runs int
}

// tpSent is a run whose requests sent per second differ from its
// throughput (an open model's successful responses) by more than 1 %:
// failed or unanswered requests make the gap.
type tpSent struct {
	System   int
	X        float64 // seq
	Sent, OK float64 // requests sent/s, throughput
}

// tpData is what the throughput figure shows.
type tpData struct {
	Systems []string
	Levels  []*int32 // concurrency levels, ascending, nil (unknown) last
	Groups  []tpGroup
	Bands   []tpBand
	Sent    []tpSent
	MinSeq  float64
	MaxSeq  float64
	MaxRPS  float64
	MinRPS  float64
}

// throughputData collects the points and bands of the throughput figure.
func throughputData(v *analyze.Verdict) tpData {
	d := tpData{MinSeq: math.Inf(1), MaxSeq: math.Inf(-1), MinRPS: math.Inf(1), MaxRPS: math.Inf(-1)}
	for _, s := range v.Systems {
		d.Systems = append(d.Systems, s.Label)
		for _, g := range s.Groups {
			if !slices.ContainsFunc(d.Levels, func(c *int32) bool { return eqOpt(c, g.Connections) }) {
				d.Levels = append(d.Levels, g.Connections)
			}
		}
	}
	slices.SortFunc(d.Levels, func(a, b *int32) int {
		switch {
		case a == nil && b == nil:
			return 0
		case a == nil:
			return 1
		case b == nil:
			return -1
		}
		return cmp.Compare(*a, *b)
	})
	for si, s := range v.Systems {
		for _, g := range s.Groups {
			tg := tpGroup{System: si, Level: slices.IndexFunc(d.Levels, func(c *int32) bool { return eqOpt(c, g.Connections) })}
			for _, r := range g.Runs {
				if !finite(r.RPS) {
					continue
				}
				tg.XY = append(tg.XY, plotter.XY{X: float64(r.Seq), Y: r.RPS})
				tg.RunIDs = append(tg.RunIDs, r.RunID)
				d.MinSeq, d.MaxSeq = math.Min(d.MinSeq, float64(r.Seq)), math.Max(d.MaxSeq, float64(r.Seq))
				d.MinRPS, d.MaxRPS = math.Min(d.MinRPS, r.RPS), math.Max(d.MaxRPS, r.RPS)
				if finiteP(r.SentRPS) && math.Abs(*r.SentRPS-r.RPS) > 0.01*math.Max(*r.SentRPS, r.RPS) {
					d.Sent = append(d.Sent, tpSent{System: si, X: float64(r.Seq), Sent: *r.SentRPS, OK: r.RPS})
					d.MinRPS, d.MaxRPS = math.Min(d.MinRPS, *r.SentRPS), math.Max(d.MaxRPS, *r.SentRPS)
				}
			}
			if len(tg.XY) > 0 {
				d.Groups = append(d.Groups, tg)
			}
			if b, ok := steadyBand(g); ok {
				b.System = si
				d.Bands = append(d.Bands, b)
				d.MinRPS, d.MaxRPS = math.Min(d.MinRPS, b.Lo), math.Max(d.MaxRPS, b.Hi)
			}
		}
	}
	return d
}

// steadyBand returns the steady-state band of g, when it has a steady state.
func steadyBand(g analyze.Group) (tpBand, bool) {
	if !finiteP(g.Steady.RPSMean) || g.Warmup.SteadyFromSeq == nil {
		return tpBand{}, false
	}
	i := slices.Index(g.Seqs, *g.Warmup.SteadyFromSeq)
	if i < 0 || slices.ContainsFunc(g.Runs[i:], func(r results.Run) bool { return !finite(r.RPS) }) {
		return tpBand{}, false
	}
	steady := g.Runs[i:]
	b := tpBand{Mean: *g.Steady.RPSMean, X0: math.Inf(1), X1: math.Inf(-1), Lo: math.Inf(1), Hi: math.Inf(-1),
		FirstSeq: int(steady[0].Seq), Runs: len(steady)}
	for _, r := range steady {
		b.X0, b.X1 = math.Min(b.X0, float64(r.Seq)), math.Max(b.X1, float64(r.Seq))
		b.Lo, b.Hi = math.Min(b.Lo, r.RPS), math.Max(b.Hi, r.RPS)
	}
	if ci := g.Steady.RPSCI; ci != nil && finite(ci.Lo) && finite(ci.Hi) {
		b.Lo, b.Hi, b.CI, b.Level = ci.Lo, ci.Hi, true, ci.Level
	}
	// Half a run either side, so that a band over one run is visible.
	b.X0 -= 0.3
	b.X1 += 0.3
	return b, true
}

func eqOpt(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func levelText(c *int32) string {
	if c == nil {
		return "connections not reported"
	}
	return plural(int(*c), "connection", "connections")
}

// Throughput returns the throughput figure: requests/s of every run in
// execution order, one colour and line per system (joining the runs of a
// group), one marker shape per concurrency level, and the steady-state
// band of each group that has one. Where a run sent more (or fewer)
// requests per second than it got answered successfully (an open model
// with errors or a shortfall), the requests sent are a bar (—) joined to
// its point by a dotted line: success and sent drawn apart.
func Throughput(in Input) (*plot.Plot, error) {
	if in.Verdict == nil || len(in.Verdict.Systems) == 0 {
		return nil, fmt.Errorf("throughput: %w", ErrNoData)
	}
	d := throughputData(in.Verdict)
	if len(d.Groups) == 0 {
		return nil, fmt.Errorf("throughput: %w", ErrNoData)
	}
	p := newPlot(titled(in.Verdict, "Throughput per run"), "run (execution order, seq)", "throughput (requests/s)")
	p.X.Tick.Marker = intTicks{}
	p.X.Min, p.X.Max = d.MinSeq-0.6, d.MaxSeq+0.6
	if d.MinRPS >= 0 && d.MinRPS <= 0.5*d.MaxRPS {
		p.Y.Min = 0
	}

	// Bands first, behind the points.
	kinds, err := addBands(p, d.Bands)
	if err != nil {
		return nil, err
	}
	if err := addGroups(p, d.Groups); err != nil {
		return nil, err
	}
	if err := addSent(p, d.Sent); err != nil {
		return nil, err
	}
	// Headroom above the highest point.
	p.Y.Max = math.Max(p.Y.Max, d.MaxRPS+0.06*(d.MaxRPS-math.Min(p.Y.Min, d.MinRPS)))
	minSpan(&p.Y, in.Verdict.Options.PracticalBand)
	throughputLegend(p, d, kinds)
	return p, nil
}

// bandKinds tells which steady-state bands a figure has: confidence
// intervals (at level), min–max ranges, or both.
type bandKinds struct {
	ci, rng bool
	level   float64
}

// bandDashes are the dashes of a band's mean.
var bandDashes = []vg.Length{vg.Points(3), vg.Points(2)}

// addBands draws the steady-state bands with their means.
func addBands(p *plot.Plot, bands []tpBand) (bandKinds, error) {
	var k bandKinds
	for _, b := range bands {
		st := styleOf(b.System)
		p.Add(band{X0: b.X0, X1: b.X1, Y0: b.Lo, Y1: b.Hi, Color: withAlpha(st.Color, 0x38)})
		mean, err := plotter.NewLine(plotter.XYs{{X: b.X0, Y: b.Mean}, {X: b.X1, Y: b.Mean}})
		if err != nil {
			return k, err
		}
		mean.LineStyle = draw.LineStyle{Color: withAlpha(st.Color, 0xb0), Width: thinWidth, Dashes: bandDashes}
		p.Add(mean)
		k.ci, k.rng = k.ci || b.CI, k.rng || !b.CI
		if b.CI {
			k.level = b.Level
		}
	}
	return k, nil
}

// addGroups draws each group's runs, joined, with its level's marker.
func addGroups(p *plot.Plot, groups []tpGroup) error {
	for _, g := range groups {
		st := styleOf(g.System)
		if len(g.XY) > 1 {
			l, err := newLine(g.XY)
			if err != nil {
				return err
			}
			l.LineStyle = st.line(thinWidth)
			p.Add(l)
		}
		sc, err := newScatter(g.XY)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: st.Color, Radius: glyphSize, Shape: levelGlyphs[g.Level%len(levelGlyphs)]}
		p.Add(sc)
	}
	return nil
}

// addSent draws the requests sent where they differ from the successful
// ones: a bar joined to the point by a dotted line.
func addSent(p *plot.Plot, sent []tpSent) error {
	for _, x := range sent {
		st := styleOf(x.System)
		gap, err := plotter.NewLine(plotter.XYs{{X: x.X, Y: x.OK}, {X: x.X, Y: x.Sent}})
		if err != nil {
			return err
		}
		gap.LineStyle = draw.LineStyle{Color: st.Color, Width: thinWidth, Dashes: dashes[2]}
		s, err := plotter.NewScatter(plotter.XYs{{X: x.X, Y: x.Sent}})
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: st.Color, Radius: glyphSize * 1.4, Shape: sentBar{}}
		p.Add(gap, s)
	}
	return nil
}

// throughputLegend names the systems, the levels, the requests sent and
// the bands.
func throughputLegend(p *plot.Plot, d tpData, k bandKinds) {
	for i, s := range d.Systems {
		st := styleOf(i)
		p.Legend.Add(short(s), lineThumb{Line: st.line(lineWidth)})
	}
	for i, c := range d.Levels {
		g := draw.GlyphStyle{Color: black, Radius: glyphSize, Shape: levelGlyphs[i%len(levelGlyphs)]}
		p.Legend.Add(levelText(c), lineThumb{Glyph: &g})
	}
	if len(d.Sent) > 0 {
		g := draw.GlyphStyle{Color: black, Radius: glyphSize * 1.4, Shape: sentBar{}}
		p.Legend.Add("requests sent/s (—)", lineThumb{Glyph: &g})
	}
	if len(d.Bands) == 0 {
		return
	}
	var text string
	switch {
	case k.ci && k.rng:
		text = fmt.Sprintf("steady state: %.0f%% CI or min–max", 100*k.level)
	case k.ci:
		text = fmt.Sprintf("steady state: %.0f%% CI of mean", 100*k.level)
	default:
		text = "steady state: min–max"
	}
	p.Legend.Add(text, band{Color: withAlpha(colors[2], 0x38)},
		lineThumb{Line: draw.LineStyle{Color: colors[2], Width: thinWidth, Dashes: bandDashes}})
}

// sentBar is the marker of requests sent per second: a horizontal bar.
type sentBar struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (sentBar) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: markStroke * 1.4})
	var p vg.Path
	p.Move(vg.Point{X: pt.X - sty.Radius, Y: pt.Y})
	p.Line(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	c.Stroke(p)
}

func throughputAlt(in Input) string {
	v := in.Verdict
	d := throughputData(v)
	s := fmt.Sprintf("Requests per second of %s in execution order for %s, one marker shape per concurrency level",
		plural(len(v.Runs), "run", "runs"), joinLabels(v))
	if len(d.Bands) > 0 {
		s += ", with the steady-state band of " + plural(len(d.Bands), "group", "groups") + " shaded"
	}
	if len(d.Sent) > 0 {
		s += "; the requests sent are marked apart for " + plural(len(d.Sent), "run", "runs") + " whose successful responses per second differ from them"
	}
	return s + "."
}
