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
// chosen from the data: a log scale when the bulk of the values (5th to
// 95th percentile) spans more than LogSpan, otherwise linear up to
// clipFactor times their 95th percentile,
// the values above it (a spike) drawn as markers at the top edge and
// counted in the legend. At most maxPanels runs are drawn.
func LatencyOverTime(in Input, og OverTimeGroup) (*Multiples, error) {
	if in.Verdict == nil || len(og.Runs) == 0 {
		return nil, fmt.Errorf("latency over time: %w", ErrNoData)
	}
	runs := og.Runs
	skipped := 0
	if len(runs) > maxPanels {
		skipped = len(runs) - maxPanels
		runs = slices.Concat(runs[:maxPanels/2], runs[len(runs)-maxPanels/2:])
	}
	var panels []overTimePanel
	var values []float64
	xmax := 0.0
	hasP50, hasP90 := false, false
	for _, r := range runs {
		d, err := timelineData(in, r.RunID)
		if err != nil {
			continue
		}
		panels = append(panels, overTimePanel{run: r, d: d})
		for _, l := range []plotter.XYs{d.P50, d.P90, d.P99, d.Mean} {
			for _, xy := range l {
				values = append(values, xy.Y)
			}
		}
		xmax = math.Max(xmax, d.XMax)
		hasP50 = hasP50 || len(d.P50) > 0
		hasP90 = hasP90 || len(d.P90) > 0
	}
	if len(panels) == 0 || len(values) == 0 {
		return nil, fmt.Errorf("latency over time: %w", ErrNoData)
	}
	slices.Sort(values)
	lo, hi := values[0], values[len(values)-1]
	logScale := false
	top := hi * 1.08
	clipped := 0
	// The bulk of the values (5th to 95th percentile) decides the scale,
	// so that a single spike neither forces a log scale nor flattens
	// the rest: it is clipped instead.
	q95 := stat.Quantile(0.95, stat.Empirical, values, nil)
	if pos := slices.IndexFunc(values, func(x float64) bool { return x > 0 }); lo > 0 && pos >= 0 &&
		q95/stat.Quantile(0.05, stat.Empirical, values[pos:], nil) > LogSpan {
		logScale = true
	} else if q95 > 0 && hi > clipFactor*q95 {
		top = clipFactor * q95
		for _, x := range values {
			if x > top {
				clipped++
			}
		}
	}
	if !(top > 0) {
		top = 1
	}
	blue, orange := styleOf(0), styleOf(1)
	// p90 between the two: light blue, long dashes (told apart from p50
	// without colour).
	p90Line := draw.LineStyle{Color: colors[3], Width: lineWidth, Dashes: dashes[1]}
	grey := draw.LineStyle{Color: colors[2], Width: lineWidth, Dashes: dashes[3]}
	spike := draw.GlyphStyle{Color: colors[1], Radius: vg.Points(3), Shape: draw.TriangleGlyph{}}
	win := 0.0
	marked, shaded := false, false
	m := &Multiples{Title: titled(in.Verdict, overTimeTitle(in, og)), Cols: gridCols(len(panels))}
	for i, pn := range panels {
		d := pn.d
		win = math.Max(win, d.Window)
		xl, yl := "", ""
		if i/m.Cols == (len(panels)-1)/m.Cols || i+m.Cols >= len(panels) {
			xl = "s since the run's start"
		}
		if i%m.Cols == 0 {
			yl = "latency (ms)"
			if logScale {
				yl = "latency (ms, log)"
			}
		}
		p := newPlot("", xl, yl)
		p.Title.Text = fmt.Sprintf("run %d", pn.run.Seq)
		p.Title.TextStyle.Font = font.From(sans, labelSize)
		p.Title.Padding = vg.Points(2)
		for _, l := range []struct {
			xy plotter.XYs
			st draw.LineStyle
		}{{d.P50, blue.line(lineWidth)}, {d.Mean, blue.line(lineWidth)}, {d.P90, p90Line}, {d.P99, orange.line(lineWidth)}} {
			if len(l.xy) == 0 {
				continue
			}
			ln, err := newLine(l.xy)
			if err != nil {
				return nil, err
			}
			ln.LineStyle = l.st
			p.Add(ln)
			if len(l.xy) <= 40 { // few windows: each one marked
				sc, err := plotter.NewScatter(l.xy)
				if err != nil {
					return nil, err
				}
				sc.GlyphStyle = draw.GlyphStyle{Color: l.st.Color, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
				p.Add(sc)
			}
			if clipped > 0 {
				var over plotter.XYs
				for _, xy := range l.xy {
					if xy.Y > top {
						over = append(over, plotter.XY{X: xy.X, Y: top})
					}
				}
				if len(over) > 0 {
					s, err := plotter.NewScatter(over)
					if err != nil {
						return nil, err
					}
					s.GlyphStyle = spike
					p.Add(s)
				}
			}
		}
		if w := d.Warmup; w != nil && w.Instability != nil {
			shade := withAlpha(colors[1], 0x40)
			lo := 0.0
			if logScale {
				lo = values[0] / 1.25
			}
			for _, sp := range w.Instability.Spans {
				p.Add(band{X0: sp.FromS, X1: sp.ToS, Y0: lo, Y1: top, Color: shade})
				shaded = true
			}
		}
		if w := d.Warmup; w != nil && w.WarmupEndS != nil && *w.WarmupEndS > d.XMin {
			text := "warm-up end"
			if w.Class != stats.ClassWarmup {
				text = "steady from"
			}
			p.Add(vline{X: *w.WarmupEndS, Line: grey, Text: text})
			marked = true
		}
		p.X.Min, p.X.Max = 0, xmax
		if logScale {
			logAxis(&p.Y, values[0]/1.25, hi*1.15)
		} else {
			p.Y.Min, p.Y.Max = 0, top
		}
		m.Panels = append(m.Panels, p)
	}
	per := fmt.Sprintf(" per %s s", fmtNum(win))
	if hasP50 {
		m.Legend = append(m.Legend, LegendEntry{"p50" + per, lineThumb{Line: blue.line(lineWidth)}})
	} else {
		m.Legend = append(m.Legend, LegendEntry{"mean" + per, lineThumb{Line: blue.line(lineWidth)}})
	}
	if hasP90 {
		m.Legend = append(m.Legend, LegendEntry{"p90", lineThumb{Line: p90Line}})
	}
	m.Legend = append(m.Legend, LegendEntry{"p99", lineThumb{Line: orange.line(lineWidth)}})
	if marked {
		m.Legend = append(m.Legend, LegendEntry{"warm-up end (verdict)", lineThumb{Line: grey}})
	}
	if shaded {
		m.Legend = append(m.Legend, LegendEntry{"stalls", band{Color: withAlpha(colors[1], 0x40)}})
	}
	if clipped > 0 {
		m.Legend = append(m.Legend, LegendEntry{fmt.Sprintf("%d windows above %s ms (clipped)", clipped, fmtNum(top)), lineThumb{Glyph: &spike}})
	}
	if skipped > 0 {
		m.Title += fmt.Sprintf(" (first and last %d of %d runs)", maxPanels/2, len(og.Runs))
	}
	return m, nil
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
