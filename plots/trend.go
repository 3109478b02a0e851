package plots

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/loadverdict/loadverdict/analyze"
)

// trendMetrics are the metrics with a trend figure, with their axis
// labels and titles.
var trendMetrics = []struct{ metric, axis, title string }{
	{analyze.MetricRPS, "throughput (requests/s)", "Throughput"},
	{analyze.MetricLatMeanMs, "mean latency (ms)", "Mean latency"},
	{analyze.MetricLatP99Ms, "p99 latency (ms)", "p99 latency"},
}

// ExperimentLabel is how an experiment is named on a trend figure's axis:
// its commit (8 characters at most), else its version, else its name.
func ExperimentLabel(e analyze.SeriesExperiment) string {
	switch {
	case e.Meta.Commit != "":
		return short8(e.Meta.Commit)
	case e.Meta.Version != "":
		return e.Meta.Version
	}
	return e.Name
}

func short8(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	return s
}

// RenderHistory draws one trend figure per metric that some experiment
// of the series measured (trend-rps.png, trend-lat_mean_ms.png,
// trend-lat_p99_ms.png), deterministically.
func RenderHistory(h *analyze.History) ([]Figure, error) {
	var figs []Figure
	for _, tm := range trendMetrics {
		p, err := Trend(h, tm.metric)
		if errors.Is(err, ErrNoData) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("plots: trend %s: %w", tm.metric, err)
		}
		b, err := PNG(p)
		if err != nil {
			return nil, fmt.Errorf("plots: trend %s: %w", tm.metric, err)
		}
		svg, err := SVG(p)
		if err != nil {
			return nil, fmt.Errorf("plots: trend %s.svg: %w", tm.metric, err)
		}
		figs = append(figs, Figure{Name: "trend-" + tm.metric + ".png", Title: tm.title + " across the series",
			Alt: trendAlt(h, tm.metric, tm.title), PNG: b, SVG: svg})
		if h.Options.Control == "" {
			continue
		}
		p, err = TrendOverControl(h, tm.metric)
		if errors.Is(err, ErrNoData) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("plots: trend %s over the control: %w", tm.metric, err)
		}
		if b, err = PNG(p); err != nil {
			return nil, fmt.Errorf("plots: trend %s over the control: %w", tm.metric, err)
		}
		if svg, err = SVG(p); err != nil {
			return nil, fmt.Errorf("plots: trend %s over the control (svg): %w", tm.metric, err)
		}
		figs = append(figs, Figure{Name: "trend-" + tm.metric + "-over-control.png", Title: tm.title + " over the control across the series",
			Alt: trendOverControlAlt(h, tm.metric, tm.title), PNG: b, SVG: svg})
	}
	return figs, nil
}

// TrendOverControl draws one metric of every track checked relative to
// the control (MetricTrack.Relative): each experiment's value over the
// control's in the same experiment (a filled marker when the check used
// it, a cross when left out), the level 1 (as the control) as a dotted
// line, and the change points found over the control as vertical lines.
// ErrNoData without a control or a ratio.
func TrendOverControl(h *analyze.History, metric string) (*plot.Plot, error) {
	var title string
	for _, tm := range trendMetrics {
		if tm.metric == metric {
			title = tm.title
		}
	}
	if title == "" {
		return nil, fmt.Errorf("trend over the control: unknown metric %q", metric)
	}
	if h.Options.Control == "" {
		return nil, fmt.Errorf("trend %s over the control: %w", metric, ErrNoData)
	}
	p := newPlot(title+" over the control ("+h.Options.Control+") across series "+h.Series,
		"experiment (commit or version), in order ("+h.OrderBy+")", strings.ToLower(title[:1])+title[1:]+" over the control's (ratio)")
	experimentAxis(p, h)
	ext := trendRange{lo: 1, hi: 1}
	drawn := false
	for ti, t := range h.Tracks {
		mt := trackMetric(t, metric)
		if mt == nil || !mt.Relative {
			continue
		}
		var used, excluded plotter.XYs
		for pi, pt := range t.Points {
			if pi >= len(mt.Ratios) || !finiteP(mt.Ratios[pi]) {
				continue
			}
			y := *mt.Ratios[pi]
			ext.lo, ext.hi = math.Min(ext.lo, y), math.Max(ext.hi, y)
			xy := plotter.XY{X: float64(pt.Experiment), Y: y}
			if pt.Status == analyze.PointOK || pt.Status == analyze.PointNotSteady {
				used = append(used, xy)
			} else {
				excluded = append(excluded, xy)
			}
		}
		if len(used)+len(excluded) == 0 {
			continue
		}
		drawn = true
		if err := drawTrack(p, ti, t, used, []markSet{{used, mark{Shape: circle}}, {excluded, mark{Shape: cross}}}, mt.RelativeChanges); err != nil {
			return nil, err
		}
	}
	if !drawn {
		return nil, fmt.Errorf("trend %s over the control: %w", metric, ErrNoData)
	}
	one, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: 1}, {X: p.X.Max, Y: 1}})
	if err != nil {
		return nil, err
	}
	one.LineStyle = draw.LineStyle{Color: black, Width: thinWidth, Dashes: []vg.Length{vg.Points(1), vg.Points(3)}}
	p.Add(one)
	p.Legend.Add("as the control (1)", lineThumb{Line: one.LineStyle})
	p.Y.Max = math.Max(p.Y.Max, ext.hi+0.12*(ext.hi-ext.lo))
	minSpan(&p.Y, h.Options.PracticalBand)
	x := draw.GlyphStyle{Color: black, Radius: glyphSize, Shape: mark{Shape: cross}}
	p.Legend.Add("disturbed or errors (not used)", lineThumb{Glyph: &x})
	return p, nil
}

// experimentAxis makes p's x axis the series' experiments, in order,
// each named by ExperimentLabel.
func experimentAxis(p *plot.Plot, h *analyze.History) {
	labels := make([]string, len(h.Experiments))
	for i, e := range h.Experiments {
		labels[i] = ExperimentLabel(e)
	}
	p.X.Tick.Marker = labelTicks(labels)
	p.X.Min, p.X.Max = -0.6, float64(len(labels))-0.4
}

// labelTicks labels the integer positions 0..n-1 with names.
type labelTicks []string

// Ticks implements plot.Ticker.
func (l labelTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	step := 1 + len(l)/16 // at most ~16 labels
	for i, s := range l {
		t := plot.Tick{Value: float64(i)}
		if i%step == 0 || i == len(l)-1 {
			t.Label = s
		}
		if float64(i) >= lo && float64(i) <= hi {
			out = append(out, t)
		}
	}
	return out
}

// Trend draws one metric of every track of a series: each experiment's
// value (a filled marker when used, open when not steady, a cross when
// left out as disturbed or with errors) with its CI over runs as a band, and each
// change point as a vertical line; the x axis names the experiments by
// commit or version.
func Trend(h *analyze.History, metric string) (*plot.Plot, error) {
	var axis, title string
	for _, tm := range trendMetrics {
		if tm.metric == metric {
			axis, title = tm.axis, tm.title
		}
	}
	if axis == "" {
		return nil, fmt.Errorf("trend: unknown metric %q", metric)
	}
	p := newPlot(title+" across series "+h.Series, "experiment (commit or version), in order ("+h.OrderBy+")", axis)
	experimentAxis(p, h)
	drawn := false
	ext := trendRange{lo: math.Inf(1), hi: math.Inf(-1)}
	for ti, t := range h.Tracks {
		mt := trackMetric(t, metric)
		if mt == nil {
			continue
		}
		ok, err := addTrack(p, ti, t, mt, &ext)
		if err != nil {
			return nil, err
		}
		drawn = drawn || ok
	}
	lo, hi := ext.lo, ext.hi
	if !drawn {
		return nil, fmt.Errorf("trend %s: %w", metric, ErrNoData)
	}
	if lo >= 0 && lo <= 0.5*hi {
		p.Y.Min = 0
	}
	p.Y.Max = math.Max(p.Y.Max, hi+0.12*(hi-math.Min(p.Y.Min, lo)))
	minSpan(&p.Y, h.Options.PracticalBand)
	open := draw.GlyphStyle{Color: black, Radius: glyphSize, Shape: mark{Shape: circle, Open: true}}
	p.Legend.Add("not steady (used)", lineThumb{Glyph: &open})
	x := draw.GlyphStyle{Color: black, Radius: glyphSize, Shape: mark{Shape: cross}}
	p.Legend.Add("disturbed or errors (not used)", lineThumb{Glyph: &x})
	p.Legend.Add("95% CI over runs", band{Color: withAlpha(colors[2], 0x38)})
	return p, nil
}

// trendRange is the range of the values (and CIs) drawn.
type trendRange struct{ lo, hi float64 }

// trackMetric is a track's series of metric, or nil.
func trackMetric(t analyze.Track, metric string) *analyze.MetricTrack {
	var mt *analyze.MetricTrack
	for i := range t.Metrics {
		if t.Metrics[i].Metric == metric {
			mt = &t.Metrics[i]
		}
	}
	return mt
}

// addTrack draws the ti-th track's values of one metric (its CIs as
// bands, the used and not-steady values joined) and its change points;
// false when it has no value.
func addTrack(p *plot.Plot, ti int, t analyze.Track, mt *analyze.MetricTrack, ext *trendRange) (bool, error) {
	st := styleOf(ti)
	used, notSteady, excluded := trackPoints(p, st, t, mt, ext)
	if len(used)+len(notSteady)+len(excluded) == 0 {
		return false, nil
	}
	line := append(append(plotter.XYs{}, used...), notSteady...)
	sortXY(line)
	return true, drawTrack(p, ti, t, line, []markSet{{used, mark{Shape: circle}}, {notSteady, mark{Shape: circle, Open: true}}, {excluded, mark{Shape: cross}}}, mt.Changes)
}

// markSet is a set of values drawn with one mark.
type markSet struct {
	xy plotter.XYs
	m  mark
}

// drawTrack draws the ti-th track t on p: its line through line, its
// values by sets, its legend entry and its change points as vertical
// lines.
func drawTrack(p *plot.Plot, ti int, t analyze.Track, line plotter.XYs, sets []markSet, changes []analyze.Change) error {
	st := styleOf(ti)
	if len(line) > 1 {
		l, err := plotter.NewLine(line)
		if err != nil {
			return err
		}
		l.LineStyle = st.line(thinWidth)
		p.Add(l)
	}
	for _, set := range sets {
		if len(set.xy) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(set.xy)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: st.Color, Radius: glyphSize, Shape: set.m}
		p.Add(sc)
	}
	p.Legend.Add(short(t.System)+" "+settingsLabel(t.Settings), lineThumb{Line: st.line(lineWidth)})
	for ci, c := range changes {
		word := "improved"
		if c.Regression {
			word = "regressed"
		}
		p.Add(vline{X: float64(t.Points[c.At].Experiment) - 0.5, Line: draw.LineStyle{Color: st.Color, Width: lineWidth, Dashes: []vg.Length{vg.Points(6), vg.Points(3)}},
			Text: fmt.Sprintf("%s %s (p = %s)", word, fmtPct(c.Comparison.DecidingRatio()), fmtP(c.P)), Row: ti + ci})
	}
	return nil
}

// trackPoints sorts a track's finite values by their status (used, not
// steady, left out), drawing their CIs as bands and widening ext.
func trackPoints(p *plot.Plot, st style, t analyze.Track, mt *analyze.MetricTrack, ext *trendRange) (used, notSteady, excluded plotter.XYs) {
	for pi, pt := range t.Points {
		v := mt.Values[pi]
		if !finiteP(v.Value) {
			continue
		}
		x := float64(pt.Experiment)
		if v.CI != nil {
			p.Add(band{X0: x - 0.25, X1: x + 0.25, Y0: v.CI.Lo, Y1: v.CI.Hi, Color: withAlpha(st.Color, 0x38)})
			ext.lo, ext.hi = math.Min(ext.lo, v.CI.Lo), math.Max(ext.hi, v.CI.Hi)
		}
		ext.lo, ext.hi = math.Min(ext.lo, *v.Value), math.Max(ext.hi, *v.Value)
		xy := plotter.XY{X: x, Y: *v.Value}
		switch pt.Status {
		case analyze.PointOK:
			used = append(used, xy)
		case analyze.PointNotSteady:
			notSteady = append(notSteady, xy)
		default:
			excluded = append(excluded, xy)
		}
	}
	return used, notSteady, excluded
}

// settingsLabel is a short form of a track's settings.
func settingsLabel(s analyze.Settings) string {
	var parts []string
	if s.TargetRPS != nil {
		parts = append(parts, fmtNum(*s.TargetRPS)+" req/s")
	}
	if s.Connections != nil {
		parts = append(parts, fmt.Sprintf("c%d", *s.Connections))
	}
	if s.Threads != nil {
		parts = append(parts, fmt.Sprintf("t%d", *s.Threads))
	}
	return strings.Join(parts, " ")
}

func fmtPct(ratio float64) string {
	return fmt.Sprintf("%+.1f%%", 100*(ratio-1))
}

func fmtP(p float64) string {
	return fmt.Sprintf("%.3g", p)
}

func sortXY(xy plotter.XYs) {
	slices.SortStableFunc(xy, func(a, b plotter.XY) int { return cmp.Compare(a.X, b.X) })
}

// trendAlt describes a trend figure in one sentence.
func trendAlt(h *analyze.History, metric, title string) string {
	n := 0
	for _, t := range h.Tracks {
		for _, mt := range t.Metrics {
			if mt.Metric == metric {
				n += len(mt.Changes)
			}
		}
	}
	return fmt.Sprintf("%s of %s over %s of series %s, with 95%% CIs over runs; %s marked.",
		title, plural(len(h.Tracks), "system and setting", "systems and settings"),
		plural(len(h.Experiments), "experiment", "experiments"), h.Series, plural(n, "change point", "change points"))
}

// trendOverControlAlt describes a trend figure over the control in one
// sentence.
func trendOverControlAlt(h *analyze.History, metric, title string) string {
	n, tracks := 0, 0
	for _, t := range h.Tracks {
		for _, mt := range t.Metrics {
			if mt.Metric == metric && mt.Relative {
				n += len(mt.RelativeChanges)
				tracks++
			}
		}
	}
	return fmt.Sprintf("%s of %s over the control's (%s) in the same experiment, over %s of series %s; %s over the control marked.",
		title, plural(tracks, "system and setting", "systems and settings"), h.Options.Control,
		plural(len(h.Experiments), "experiment", "experiments"), h.Series, plural(n, "change point", "change points"))
}
