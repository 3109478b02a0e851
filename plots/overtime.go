package plots

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// maxPanels is the most runs a latency-over-time figure draws: beyond it,
// the first and the last maxPanels/2 runs of the group.
const maxPanels = 12

// clipFactor sets the robust top of a latency-over-time figure's y axis:
// clipFactor times the 95th percentile of its plotted values; values
// above it are drawn at the top edge as markers, and the figure says so.
const clipFactor = 2.5

// OverTimeGroup is a system's group of runs (settings) with per-window
// latencies: one latency-over-time figure.
type OverTimeGroup struct {
	System, Group int // indices into Verdict.Systems and its Groups
	// Runs are the group's runs with a series, in seq order.
	Runs []results.Run
}

// OverTimeGroups lists the groups with at least one run with a series,
// system by system, in the verdict's order; the k-th is drawn as
// OverTimeName(k).
func OverTimeGroups(in Input) []OverTimeGroup {
	has := map[string]bool{}
	for _, s := range in.Series {
		has[s.RunID] = true
	}
	var out []OverTimeGroup
	for si, sys := range in.Verdict.Systems {
		for gi, g := range sys.Groups {
			og := OverTimeGroup{System: si, Group: gi}
			for _, r := range g.Runs {
				if has[r.RunID] {
					og.Runs = append(og.Runs, r)
				}
			}
			if len(og.Runs) > 0 {
				out = append(out, og)
			}
		}
	}
	return out
}

// MaxOverTimeFigures is the most latency-over-time figures a report
// draws: one a system and settings, so 100 JMeter labels on two sides
// would make 200 figures (5 s of the report's 5.6 s) that nobody reads
// one by one; the tables hold every window.
const MaxOverTimeFigures = 8

// DrawnOverTimeGroups returns the groups of OverTimeGroups that get a
// figure, at most MaxOverTimeFigures: each system's groups in turn (the
// first group of every system, then the second, ...), so that a
// comparison's two sides stay side by side; total is how many groups have
// a series.
func DrawnOverTimeGroups(in Input) (drawn []OverTimeGroup, total int) {
	all := OverTimeGroups(in)
	if len(all) <= MaxOverTimeFigures {
		return all, len(all)
	}
	bySystem := map[int][]OverTimeGroup{}
	var systems []int
	for _, og := range all {
		if len(bySystem[og.System]) == 0 {
			systems = append(systems, og.System)
		}
		bySystem[og.System] = append(bySystem[og.System], og)
	}
	for k := 0; len(drawn) < MaxOverTimeFigures; k++ {
		for _, s := range systems {
			if k < len(bySystem[s]) && len(drawn) < MaxOverTimeFigures {
				drawn = append(drawn, bySystem[s][k])
			}
		}
	}
	return drawn, len(all)
}

// OverTimeName is the name (without extension) of the k-th
// latency-over-time figure ("latency-time-1", ...).
func OverTimeName(k int) string { return "latency-time-" + strconv.Itoa(k+1) }

// overTimeTitle names a group: its system and what sets its settings apart.
func overTimeTitle(in Input, og OverTimeGroup) string {
	sys := in.Verdict.Systems[og.System]
	g := sys.Groups[og.Group]
	s := "Latency over time: " + short(sys.Label)
	var parts []string
	if l := settingsLabel(g.Settings); l != "" {
		parts = append(parts, l)
	}
	if g.Endpoint != nil {
		parts = append(parts, short(*g.Endpoint))
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// Multiples is a figure of small multiples: a title, one compact legend
// row under it, and panels in a grid (row-major) whose data areas are
// aligned and equal.
type Multiples struct {
	Title  string
	Legend []LegendEntry
	Cols   int
	Panels []*plot.Plot
}

// LegendEntry is one entry of a Multiples' legend row.
type LegendEntry struct {
	Name  string
	Thumb plot.Thumbnailer
}

// Draw implements Drawer.
func (m *Multiples) Draw(c draw.Canvas) {
	if len(m.Panels) == 0 {
		return
	}
	title := draw.TextStyle{Color: black, Font: font.From(sansBold, titleSize), XAlign: draw.XCenter, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
	leg := draw.TextStyle{Color: black, Font: font.From(sans, legendSize), YAlign: draw.YCenter, Handler: plot.DefaultTextHandler}
	pad := vg.Points(8)
	y := c.Max.Y - pad
	c.FillText(title, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: y}, m.Title)
	y -= title.Height(m.Title) + pad
	if len(m.Legend) > 0 {
		thumb, gap := vg.Points(24), vg.Points(16)
		var w vg.Length
		for i, e := range m.Legend {
			if i > 0 {
				w += gap
			}
			w += thumb + vg.Points(4) + leg.Width(e.Name)
		}
		x := (c.Min.X + c.Max.X - w) / 2
		h := leg.Height("M")
		for _, e := range m.Legend {
			tc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: x, Y: y - h}, Max: vg.Point{X: x + thumb, Y: y}}}
			e.Thumb.Thumbnail(&tc)
			x += thumb + vg.Points(4)
			c.FillText(leg, vg.Point{X: x, Y: y - h/2}, e.Name)
			x += leg.Width(e.Name) + gap
		}
		y -= h + pad
	}
	cols := max(1, min(m.Cols, len(m.Panels)))
	rows := (len(m.Panels) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, cols)
		for k := range cols {
			if i := r*cols + k; i < len(m.Panels) {
				grid[r][k] = m.Panels[i]
			}
		}
	}
	area := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Min: c.Min, Max: vg.Point{X: c.Max.X, Y: y}}}
	t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(12), PadY: vg.Points(8), PadLeft: vg.Points(2), PadRight: vg.Points(10), PadBottom: vg.Points(2)}
	cs := plot.Align(grid, t, area)
	for r := range grid {
		for k, p := range grid[r] {
			if p != nil {
				p.Draw(cs[r][k])
			}
		}
	}
}

// overTimePanel is one run's panel data.
type overTimePanel struct {
	run  results.Run
	d    tlData
	name string
}

// LatencyOverTime returns the latency-over-time figure of a system's group
// of runs: one panel per run (small multiples sharing their axes, x the
// time since the run's start), each with the p50, p90 and p99 latency per
// window (the mean when the series has no p50), the run's within-run
// warm-up end (from the verdict) and its stalls shaded. The y axis is
// chosen from the data (overTimeYScale). At most maxPanels runs are drawn.
func LatencyOverTime(in Input, og OverTimeGroup) (*Multiples, error) {
	if in.Verdict == nil || len(og.Runs) == 0 {
		return nil, fmt.Errorf("latency over time: %w", ErrNoData)
	}
	runs := og.Runs
	if len(runs) > maxPanels {
		runs = slices.Concat(runs[:maxPanels/2], runs[len(runs)-maxPanels/2:])
	}
	f := collectOverTime(in, runs)
	if len(f.panels) == 0 || len(f.values) == 0 {
		return nil, fmt.Errorf("latency over time: %w", ErrNoData)
	}
	f.scale = overTimeYScale(f.values)
	f.styles = newOverTimeStyles()
	m := &Multiples{Title: titled(in.Verdict, overTimeTitle(in, og)), Cols: gridCols(len(f.panels))}
	for i, pn := range f.panels {
		f.win = math.Max(f.win, pn.d.Window)
		p, err := f.panel(i, m.Cols, pn)
		if err != nil {
			return nil, err
		}
		m.Panels = append(m.Panels, p)
	}
	m.Legend = f.legend()
	if len(og.Runs) > maxPanels {
		m.Title += fmt.Sprintf(" (first and last %d of %d runs)", maxPanels/2, len(og.Runs))
	}
	return m, nil
}

// overTimeFig is a latency-over-time figure being drawn: its panels, all
// their plotted values (sorted once the panels are collected), the
// longest time and window, and what the legend must show.
type overTimeFig struct {
	panels         []overTimePanel
	values         []float64
	xmax, win      float64
	hasP50, hasP90 bool
	marked, shaded bool
	scale          overTimeScale
	styles         overTimeStyles
}

// collectOverTime gathers the runs' series (a run without one is left
// out) and their values.
func collectOverTime(in Input, runs []results.Run) *overTimeFig {
	f := &overTimeFig{}
	for _, r := range runs {
		d, err := timelineData(in, r.RunID)
		if err != nil {
			continue
		}
		f.panels = append(f.panels, overTimePanel{run: r, d: d})
		for _, l := range []plotter.XYs{d.P50, d.P90, d.P99, d.Mean} {
			for _, xy := range l {
				f.values = append(f.values, xy.Y)
			}
		}
		f.xmax = math.Max(f.xmax, d.XMax)
		f.hasP50 = f.hasP50 || len(d.P50) > 0
		f.hasP90 = f.hasP90 || len(d.P90) > 0
	}
	return f
}

// overTimeScale is the y axis of a latency-over-time figure: log from
// below the least value to above the greatest, or linear up to top with
// clipped values above it.
type overTimeScale struct {
	log       bool
	least, hi float64
	top       float64
	clipped   int
	bandLo    float64 // the bottom of a shaded stall
}

// overTimeYScale chooses the y axis from the sorted values: a log scale
// when the bulk of them (5th to 95th percentile) spans more than LogSpan,
// otherwise linear up to clipFactor times their 95th percentile, the
// values above it (a spike) drawn as markers at the top edge. The bulk
// decides, so that a single spike neither forces a log scale nor
// flattens the rest.
func overTimeYScale(values []float64) overTimeScale {
	slices.Sort(values)
	lo, hi := values[0], values[len(values)-1]
	s := overTimeScale{least: lo, hi: hi, top: hi * 1.08}
	q95 := stat.Quantile(0.95, stat.Empirical, values, nil)
	if pos := slices.IndexFunc(values, func(x float64) bool { return x > 0 }); lo > 0 && pos >= 0 &&
		q95/stat.Quantile(0.05, stat.Empirical, values[pos:], nil) > LogSpan {
		s.log = true
		s.bandLo = lo / 1.25
	} else if q95 > 0 && hi > clipFactor*q95 {
		s.top = clipFactor * q95
		for _, x := range values {
			if x > s.top {
				s.clipped++
			}
		}
	}
	if !(s.top > 0) {
		s.top = 1
	}
	return s
}

// overTimeStyles are the figure's lines and markers: p50 (or the mean) in
// blue, p90 light blue with long dashes (told apart from p50 without
// colour), p99 orange, the warm-up end grey, a clipped value a triangle.
type overTimeStyles struct {
	p50, p90, p99, grey draw.LineStyle
	spike               draw.GlyphStyle
}

func newOverTimeStyles() overTimeStyles {
	return overTimeStyles{
		p50:   styleOf(0).line(lineWidth),
		p90:   draw.LineStyle{Color: colors[3], Width: lineWidth, Dashes: dashes[1]},
		p99:   styleOf(1).line(lineWidth),
		grey:  draw.LineStyle{Color: colors[2], Width: lineWidth, Dashes: dashes[3]},
		spike: draw.GlyphStyle{Color: colors[1], Radius: vg.Points(3), Shape: draw.TriangleGlyph{}},
	}
}

// panel draws the i-th run's panel of a grid of cols columns: axis labels
// on the bottom row and the first column only.
func (f *overTimeFig) panel(i, cols int, pn overTimePanel) (*plot.Plot, error) {
	d := pn.d
	xl, yl := "", ""
	if i/cols == (len(f.panels)-1)/cols || i+cols >= len(f.panels) {
		xl = "s since the run's start"
	}
	if i%cols == 0 {
		yl = "latency (ms)"
		if f.scale.log {
			yl = "latency (ms, log)"
		}
	}
	p := newPlot("", xl, yl)
	p.Title.Text = fmt.Sprintf("run %d", pn.run.Seq)
	p.Title.TextStyle.Font = font.From(sans, labelSize)
	p.Title.Padding = vg.Points(2)
	st := f.styles
	for _, l := range []struct {
		xy plotter.XYs
		st draw.LineStyle
	}{{d.P50, st.p50}, {d.Mean, st.p50}, {d.P90, st.p90}, {d.P99, st.p99}} {
		if err := f.addSeries(p, l.xy, l.st); err != nil {
			return nil, err
		}
	}
	f.addMarks(p, d)
	p.X.Min, p.X.Max = 0, f.xmax
	if f.scale.log {
		logAxis(&p.Y, f.scale.least/1.25, f.scale.hi*1.15)
	} else {
		p.Y.Min, p.Y.Max = 0, f.scale.top
	}
	return p, nil
}

// addSeries draws one latency line: each window marked when there are
// few, the values above a linear axis's top as markers on it.
func (f *overTimeFig) addSeries(p *plot.Plot, xy plotter.XYs, st draw.LineStyle) error {
	if len(xy) == 0 {
		return nil
	}
	ln, err := newLine(xy)
	if err != nil {
		return err
	}
	ln.LineStyle = st
	p.Add(ln)
	if len(xy) <= 40 { // few windows: each one marked
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: st.Color, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
		p.Add(sc)
	}
	if f.scale.clipped == 0 {
		return nil
	}
	var over plotter.XYs
	for _, v := range xy {
		if v.Y > f.scale.top {
			over = append(over, plotter.XY{X: v.X, Y: f.scale.top})
		}
	}
	if len(over) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(over)
	if err != nil {
		return err
	}
	s.GlyphStyle = f.styles.spike
	p.Add(s)
	return nil
}

// addMarks shades the run's stalls and marks its warm-up end (or where
// its steady state starts).
func (f *overTimeFig) addMarks(p *plot.Plot, d tlData) {
	w := d.Warmup
	if w == nil {
		return
	}
	if w.Instability != nil {
		shade := withAlpha(colors[1], 0x40)
		for _, sp := range w.Instability.Spans {
			p.Add(band{X0: sp.FromS, X1: sp.ToS, Y0: f.scale.bandLo, Y1: f.scale.top, Color: shade})
			f.shaded = true
		}
	}
	if w.WarmupEndS != nil && *w.WarmupEndS > d.XMin {
		text := "warm-up end"
		if w.Class != stats.ClassWarmup {
			text = "steady from"
		}
		p.Add(vline{X: *w.WarmupEndS, Line: f.styles.grey, Text: text})
		f.marked = true
	}
}

// legend names the lines and marks the figure drew.
func (f *overTimeFig) legend() []LegendEntry {
	st := f.styles
	per := fmt.Sprintf(" per %s s", fmtNum(f.win))
	center := "mean" + per
	if f.hasP50 {
		center = "p50" + per
	}
	l := []LegendEntry{{center, lineThumb{Line: st.p50}}}
	if f.hasP90 {
		l = append(l, LegendEntry{"p90", lineThumb{Line: st.p90}})
	}
	l = append(l, LegendEntry{"p99", lineThumb{Line: st.p99}})
	if f.marked {
		l = append(l, LegendEntry{"warm-up end (verdict)", lineThumb{Line: st.grey}})
	}
	if f.shaded {
		l = append(l, LegendEntry{"stalls", band{Color: withAlpha(colors[1], 0x40)}})
	}
	if f.scale.clipped > 0 {
		l = append(l, LegendEntry{fmt.Sprintf("%d windows above %s ms (clipped)", f.scale.clipped, fmtNum(f.scale.top)), lineThumb{Glyph: &st.spike}})
	}
	return l
}

// gridCols is the number of columns of n panels: one row up to 3, then
// about twice as wide as high.
func gridCols(n int) int {
	switch {
	case n <= 3:
		return n
	case n <= 4:
		return 2
	case n <= 6:
		return 3
	}
	return 4
}

func overTimeAlt(in Input, og OverTimeGroup) string {
	sys := in.Verdict.Systems[og.System]
	s := fmt.Sprintf("p50, p90 and p99 latency per window over time of %s, one panel per run (%d)", sys.Label, len(og.Runs))
	var ends []string
	for _, r := range og.Runs {
		for _, w := range sys.WithinRunWarmup {
			if w.RunID == r.RunID && w.WarmupEndS != nil && *w.WarmupEndS > 0 {
				ends = append(ends, fmt.Sprintf("run %d at %s s", r.Seq, fmtNum(*w.WarmupEndS)))
			}
		}
	}
	if len(ends) > 0 {
		s += ", warm-up ending in " + strings.Join(ends, ", ")
	}
	return s + "."
}
