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
	"github.com/loadverdict/loadverdict/stats"
)

// Stack is a figure of plots stacked vertically, top first, whose data
// areas are aligned; it is how gonum/plot shows two y scales over one x.
type Stack struct {
	Plots []*plot.Plot
}

// Draw implements Drawer: the plots share the canvas height equally.
func (s *Stack) Draw(c draw.Canvas) {
	if len(s.Plots) == 0 {
		return
	}
	rows := make([][]*plot.Plot, len(s.Plots))
	for i, p := range s.Plots {
		rows[i] = []*plot.Plot{p}
	}
	t := draw.Tiles{Rows: len(rows), Cols: 1, PadY: vg.Points(10), PadTop: vg.Points(4), PadBottom: vg.Points(2), PadLeft: vg.Points(2)}
	cs := plot.Align(rows, t, c)
	for i, p := range s.Plots {
		p.Draw(cs[i][0])
	}
}

// tlData is what the timeline figure of one run shows; x is the middle of
// each window, in seconds since the run's start.
type tlData struct {
	Run    results.Run
	System int
	Window float64 // the most common window length, seconds
	RPS    plotter.XYs
	// Sent, OK and Errors are requests sent, successful responses and
	// failed requests per second per window, when the run is open-model or
	// had errors (then RPS is not drawn): the three differ only there.
	Sent, OK, Errors plotter.XYs
	P50, P99         plotter.XYs
	Mean             plotter.XYs // only when there is no p50
	XMin, XMax       float64
	Warmup           *analyze.RunWarmup
}

// timelineRuns returns the runs with a series, in execution order.
func timelineRuns(in Input) []results.Run {
	has := map[string]bool{}
	for _, s := range in.Series {
		has[s.RunID] = true
	}
	var out []results.Run
	for _, r := range in.Verdict.Runs {
		if has[r.RunID] {
			out = append(out, r)
			delete(has, r.RunID) // a run id that occurs twice gets one figure
		}
	}
	return out
}

// timelineData collects the series of one run.
func timelineData(in Input, runID string) (tlData, error) {
	v := in.Verdict
	i := slices.IndexFunc(v.Runs, func(r results.Run) bool { return r.RunID == runID })
	if i < 0 {
		return tlData{}, fmt.Errorf("timeline: run %q: %w", runID, ErrNoData)
	}
	d := tlData{Run: v.Runs[i], System: systemIndex(v)[v.Runs[i].Label], XMin: math.Inf(1), XMax: math.Inf(-1)}
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
	split := (d.Run.LoadModel == results.LoadOpen || slices.ContainsFunc(rows, func(s results.Series) bool { return s.Errors > 0 })) &&
		!slices.ContainsFunc(rows, func(s results.Series) bool { return s.WindowS <= 0 || s.Requests < s.Errors })
	for _, s := range rows {
		x := s.TS + s.WindowS/2
		d.XMin, d.XMax = math.Min(d.XMin, s.TS), math.Max(d.XMax, s.TS+s.WindowS)
		windows[s.WindowS]++
		if split {
			d.Sent = append(d.Sent, plotter.XY{X: x, Y: float64(s.Requests) / s.WindowS})
			d.OK = append(d.OK, plotter.XY{X: x, Y: float64(s.Requests-s.Errors) / s.WindowS})
			d.Errors = append(d.Errors, plotter.XY{X: x, Y: float64(s.Errors) / s.WindowS})
		} else if finite(s.RPS) {
			d.RPS = append(d.RPS, plotter.XY{X: x, Y: s.RPS})
		}
		if finiteP(s.LatP50Ms) {
			d.P50 = append(d.P50, plotter.XY{X: x, Y: *s.LatP50Ms})
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

func timelineTitle(in Input, r results.Run) string {
	s := fmt.Sprintf("Run %d (%s", r.Seq, short(r.Label))
	if r.Connections != nil {
		s += ", " + levelText(r.Connections)
	}
	return s + "): throughput and latency over time"
}

// Timeline returns the timeline figure of the run with id runID: its
// throughput per window (top) and p50/p99 latency per window (bottom; the
// mean when the series has no p50), with the end of its within-run warm-up
// marked in both panels when it has a steady state, and its stalls shaded
// when it kept leaving its level. For an open-model run, or one with
// errors, the top panel shows requests sent, successful responses and
// errors per second apart: under overload they part ways.
func Timeline(in Input, runID string) (*Stack, error) {
	if in.Verdict == nil {
		return nil, fmt.Errorf("timeline: %w", ErrNoData)
	}
	d, err := timelineData(in, runID)
	if err != nil {
		return nil, err
	}
	win := fmt.Sprintf("per %s s window", fmtNum(d.Window))
	top := newPlot(titled(in.Verdict, timelineTitle(in, d.Run)), "", "throughput (requests/s)")
	bottom := newPlot("", "time since the run's start (s)", "latency (ms)")
	for _, p := range []*plot.Plot{top, bottom} {
		p.X.Min, p.X.Max = d.XMin, d.XMax
	}
	top.Y.Min = 0

	blue, orange := styleOf(0), styleOf(1)
	if err := addLine(top, d.RPS, blue.line(lineWidth), "requests/s "+win); err != nil {
		return nil, err
	}
	for _, l := range []struct {
		xy   plotter.XYs
		st   draw.LineStyle
		name string
	}{
		{d.Sent, styleOf(2).line(thinWidth), "sent/s"},
		{d.OK, blue.line(lineWidth), "successful/s"},
		{d.Errors, orange.line(lineWidth), "errors/s"},
	} {
		if err := addLine(top, l.xy, l.st, l.name+" "+win); err != nil {
			return nil, err
		}
	}
	type series struct {
		xy   plotter.XYs
		st   draw.LineStyle
		name string
	}
	lat := []series{
		{d.P50, blue.line(lineWidth), "p50 " + win},
		{d.Mean, blue.line(lineWidth), "mean " + win},
		{d.P99, orange.line(lineWidth), "p99 " + win},
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range lat {
		for _, xy := range l.xy {
			hi = math.Max(hi, xy.Y)
			if xy.Y > 0 {
				lo = math.Min(lo, xy.Y)
			}
		}
	}
	if lo > 0 && hi/lo > LogSpan && !slices.ContainsFunc(lat, func(l series) bool {
		return slices.ContainsFunc(l.xy, func(xy plotter.XY) bool { return xy.Y <= 0 })
	}) {
		logAxis(&bottom.Y, lo/1.25, hi*1.15)
		bottom.Y.Label.Text = "latency (ms, log scale)"
	} else {
		bottom.Y.Min = 0
	}
	for _, l := range lat {
		if err := addLine(bottom, l.xy, l.st, l.name); err != nil {
			return nil, err
		}
	}
	if len(d.P50)+len(d.P99)+len(d.Mean) == 0 {
		bottom.Y.Min, bottom.Y.Max = 0, 1
		bottom.Legend.Add("no latency per window")
	}

	// Headroom for the warm-up label above the throughput.
	top.Y.Max *= 1.15
	if !(top.Y.Max > 0) {
		top.Y.Max = 1
	}

	if w := d.Warmup; w != nil && w.Instability != nil {
		shade := withAlpha(colors[1], 0x40)
		for i, sp := range w.Instability.Spans {
			top.Add(band{X0: sp.FromS, X1: sp.ToS, Y0: 0, Y1: top.Y.Max, Color: shade})
			bottom.Add(band{X0: sp.FromS, X1: sp.ToS, Y0: bottom.Y.Min, Y1: bottom.Y.Max, Color: shade})
			if i == 0 {
				top.Legend.Add(fmt.Sprintf("stalls (%d)", len(w.Instability.Spans)), band{Color: shade})
			}
		}
	}
	if w := d.Warmup; w != nil {
		grey := draw.LineStyle{Color: colors[2], Width: lineWidth, Dashes: dashes[3]}
		if w.WarmupEndS != nil && *w.WarmupEndS > d.XMin {
			text, name := fmt.Sprintf("warm-up ends at %s s", fmtNum(*w.WarmupEndS)), "warm-up end"
			if w.Class != stats.ClassWarmup { // a slowdown: steady after getting worse
				text, name = fmt.Sprintf("steady from %s s", fmtNum(*w.WarmupEndS)), "steady from"
			}
			top.Add(vline{X: *w.WarmupEndS, Line: grey, Text: text})
			bottom.Add(vline{X: *w.WarmupEndS, Line: grey})
			top.Legend.Add(name+" ("+string(w.Class)+")", lineThumb{Line: grey})
		} else if w.Class == stats.ClassFlat {
			top.Legend.Add("no warm-up (flat)", lineThumb{})
		} else if w.Class != "" {
			top.Legend.Add("no steady state ("+string(w.Class)+")", lineThumb{})
		}
		if w.MSEREndS != nil && *w.MSEREndS > d.XMin {
			dot := draw.LineStyle{Color: colors[2], Width: thinWidth, Dashes: dashes[2]}
			top.Add(vline{X: *w.MSEREndS, Line: dot})
			bottom.Add(vline{X: *w.MSEREndS, Line: dot})
			top.Legend.Add("MSER-5 cut (cross-check)", lineThumb{Line: dot})
		}
	}
	return &Stack{Plots: []*plot.Plot{top, bottom}}, nil
}

// addLine adds a line (with markers when there are few points) and its
// legend entry; an empty xy adds nothing.
func addLine(p *plot.Plot, xy plotter.XYs, sty draw.LineStyle, name string) error {
	if len(xy) == 0 {
		return nil
	}
	l, err := newLine(xy)
	if err != nil {
		return err
	}
	l.LineStyle = sty
	p.Add(l)
	th := lineThumb{Line: sty}
	if len(xy) <= 40 {
		s, err := plotter.NewScatter(xy)
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: sty.Color, Radius: vg.Points(2.5), Shape: mark{Shape: circle}}
		p.Add(s)
		th.Glyph = &s.GlyphStyle
	}
	p.Legend.Add(name, th)
	return nil
}

func timelineAlt(in Input, r results.Run) string {
	d, err := timelineData(in, r.RunID)
	if err != nil {
		return ""
	}
	s := fmt.Sprintf("Throughput and latency per %s s window of run %d (%s) over %s s", fmtNum(d.Window), r.Seq, r.Label, fmtNum(d.XMax-d.XMin))
	if len(d.Errors) > 0 {
		s += ", requests sent, successful and failed shown apart"
	}
	if w := d.Warmup; w != nil && w.WarmupEndS != nil && *w.WarmupEndS > d.XMin {
		s += fmt.Sprintf(", warm-up ending at %s s", fmtNum(*w.WarmupEndS))
	}
	if w := d.Warmup; w != nil && w.Instability != nil {
		s += fmt.Sprintf(", %d stalls shaded", len(w.Instability.Spans))
	}
	return s + "."
}
