package plots

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func eqXYs(t *testing.T, what string, got, want plotter.XYs) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
		return
	}
	for i := range got {
		if !near(got[i].X, want[i].X) || !near(got[i].Y, want[i].Y) {
			t.Errorf("%s: got %v, want %v", what, got, want)
			return
		}
	}
}

func TestThroughputDataSeed(t *testing.T) {
	d := throughputData(seedInput(t).Verdict)
	if !slices.Equal(d.Systems, []string{"localhost:5555", "localhost:80"}) {
		t.Fatalf("systems %v", d.Systems)
	}
	if len(d.Levels) != 2 || *d.Levels[0] != 50 || *d.Levels[1] != 100 {
		t.Fatalf("levels %v", d.Levels)
	}
	want := []struct {
		system, level int
		xy            plotter.XYs
	}{
		{0, 0, plotter.XYs{{X: 0, Y: 2095.30}}},
		{0, 1, plotter.XYs{{X: 2, Y: 3107.57}, {X: 5, Y: 3737.35}}},
		{1, 0, plotter.XYs{{X: 1, Y: 1604.71}}},
		{1, 1, plotter.XYs{{X: 3, Y: 1619.00}, {X: 4, Y: 1617.40}}},
	}
	if len(d.Groups) != len(want) {
		t.Fatalf("%d groups, want %d", len(d.Groups), len(want))
	}
	for i, w := range want {
		g := d.Groups[i]
		if g.System != w.system || g.Level != w.level {
			t.Errorf("group %d: system %d level %d", i, g.System, g.Level)
		}
		eqXYs(t, "group", g.XY, w.xy)
	}
	// localhost:80 at 100 connections is flat over its two runs: a
	// min..max band over seqs 3 and 4 (no CI from two runs).
	if len(d.Bands) != 1 {
		t.Fatalf("bands %+v", d.Bands)
	}
	b := d.Bands[0]
	if b.System != 1 || b.CI || !near(b.X0, 2.7) || !near(b.X1, 4.3) || b.Lo != 1617.40 || b.Hi != 1619.00 || !near(b.Mean, 1618.2) {
		t.Errorf("band %+v", b)
	}
}

// Five replicated runs give a bootstrap CI; the band is that CI over the
// seqs of the steady runs.
func TestThroughputDataCI(t *testing.T) {
	var runs []results.Run
	rps := []float64{1000, 1010, 990, 1005, 995}
	for i, x := range rps {
		runs = append(runs, wrkRun("a:80", 2*i, 10, x, 10, 1, 30))
		runs = append(runs, wrkRun("b:80", 2*i+1, 10, 2*x, 5, 1, 15))
	}
	in := analyzed(t, analyze.Set{Runs: runs})
	d := throughputData(in.Verdict)
	if len(d.Bands) != 2 {
		t.Fatalf("bands %+v", d.Bands)
	}
	for _, b := range d.Bands {
		g := in.Verdict.Systems[b.System].Groups[0]
		ci := g.Steady.RPSCI
		if ci == nil || !b.CI || b.Lo != ci.Lo || b.Hi != ci.Hi || b.Level != 0.95 || b.Mean != *g.Steady.RPSMean {
			t.Errorf("band %+v, group steady %+v", b, g.Steady)
		}
		first := float64(*g.Warmup.SteadyFromSeq)
		if !near(b.X0, first-0.3) || !near(b.X1, float64(g.Seqs[len(g.Seqs)-1])+0.3) {
			t.Errorf("band x %v..%v, steady from %v", b.X0, b.X1, first)
		}
	}
	if d.MinRPS > 990 || d.MaxRPS < 2020 {
		t.Errorf("rps range %v..%v", d.MinRPS, d.MaxRPS)
	}
}

func TestLatencyDataSeed(t *testing.T) {
	d := latencyData(seedInput(t))
	// 599.09 ms max against a 24.52 ms mean: log scale.
	if !d.Log || d.HasP99 || !d.HasMax || d.N != 6 {
		t.Fatalf("log %v p99 %v max %v n %d", d.Log, d.HasP99, d.HasMax, d.N)
	}
	// The lowest plotted value is 29.35 - 22.16 ms (run 5's mean - stdev).
	if !near(d.YMin, (29.35-22.16)/1.25) || d.YMax != 599.09 {
		t.Errorf("y range %v..%v", d.YMin, d.YMax)
	}
	want := [][]latRun{
		{{0, 33.95, 43.06, math.NaN(), 599.09}, {2, 34.50, 23.16, math.NaN(), 335.87}, {5, 29.35, 22.16, math.NaN(), 367.66}},
		{{1, 24.52, 5.87, math.NaN(), 89.64}, {3, 41.88, 4.91, math.NaN(), 69.37}, {4, 42.36, 8.17, math.NaN(), 111.17}},
	}
	for si := range want {
		if len(d.Runs[si]) != len(want[si]) {
			t.Fatalf("system %d: %+v", si, d.Runs[si])
		}
		for i, w := range want[si] {
			g := d.Runs[si][i]
			if g.Seq != w.Seq || g.Mean != w.Mean || g.Stdev != w.Stdev || !math.IsNaN(g.P99) || g.Max != w.Max {
				t.Errorf("system %d run %d: %+v, want %+v", si, i, g, w)
			}
		}
	}
}

func TestLatencyDataLinear(t *testing.T) {
	r := wrkRun("a:80", 0, 10, 1000, 10, 2, 30)
	r.LatP99Ms = results.Ptr(25.0)
	d := latencyData(analyzed(t, analyze.Set{Runs: []results.Run{r}}))
	if d.Log || !d.HasP99 || d.N != 1 || d.YMax != 30 || d.Runs[0][0].P99 != 25 {
		t.Errorf("%+v", d)
	}
}

func TestPercentileData(t *testing.T) {
	a, b := wrkRun("a:80", 0, 10, 1000, 10, 2, 30), wrkRun("b:80", 1, 10, 1000, 10, 2, 300)
	pct := func(r results.Run, q, ms float64) results.Percentile {
		return results.Percentile{RunID: r.RunID, Quantile: q, LatencyMs: ms}
	}
	set := analyze.Set{Runs: []results.Run{b, a}, Percentiles: []results.Percentile{
		pct(b, 1, 300), pct(b, 0.5, 9),
		pct(a, 0.99, 20), pct(a, 0.5, 8), pct(a, 0, 1), pct(a, 0.9, 12), pct(a, 0.99999, 28), pct(a, 1, 30), pct(a, 0.999, 25),
		{RunID: "unknown", Quantile: 0.5, LatencyMs: 1}, pct(a, 1.5, 99), pct(a, -0.1, 99),
	}}
	d := percentileData(analyzed(t, set))
	if len(d.Runs) != 2 || d.Runs[0].RunID != a.RunID || d.Runs[1].RunID != b.RunID {
		t.Fatalf("runs %+v", d.Runs)
	}
	// x = 1/(1-q); q = 1, the maximum, is not on the line: a marker at
	// x = 1e5 beside 0.99999's point.
	eqXYs(t, "a", d.Runs[0].XY, plotter.XYs{{X: 1, Y: 1}, {X: 2, Y: 8}, {X: 10, Y: 12}, {X: 100, Y: 20}, {X: 1000, Y: 25}, {X: 1e5, Y: 28}})
	eqXYs(t, "b", d.Runs[1].XY, plotter.XYs{{X: 2, Y: 9}})
	if d.Runs[0].Max != 30 || d.Runs[1].Max != 300 || !d.HasMax {
		t.Errorf("maxima %v %v", d.Runs[0].Max, d.Runs[1].Max)
	}
	if d.XMin != 1 || d.XMax != 1e5 || d.YMin != 1 || d.YMax != 300 || !d.Log {
		t.Errorf("ranges x %v..%v y %v..%v log %v", d.XMin, d.XMax, d.YMin, d.YMax, d.Log)
	}
	var labels []string
	for _, tk := range percentileTicks.Ticks(1, 1e5) {
		if tk.Label != "" {
			labels = append(labels, tk.Label+"@"+fmtTick(tk.Value))
		}
	}
	if want := []string{"0%@1", "50%@2", "90%@10", "99%@100", "99.9%@1000", "99.99%@10000", "99.999%@100000"}; !slices.Equal(labels, want) {
		t.Errorf("ticks %v", labels)
	}
	if _, err := Percentiles(seedInput(t)); !errors.Is(err, ErrNoData) {
		t.Errorf("seed percentiles: %v", err)
	}
}

func TestTimelineData(t *testing.T) {
	in := richInput(t)
	groups := OverTimeGroups(in)
	if len(groups) != 1 || len(groups[0].Runs) != 1 {
		t.Fatalf("latency-over-time groups %+v", groups)
	}
	runs := groups[0].Runs
	d, err := timelineData(in, runs[0].RunID)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.P50) != 60 || len(d.P99) != 60 || d.Mean != nil || d.Window != 1 || d.XMin != 0 || d.XMax != 60 {
		t.Fatalf("p50 %d p99 %d mean %d window %v x %v..%v", len(d.P50), len(d.P99), len(d.Mean), d.Window, d.XMin, d.XMax)
	}
	var rows []results.Series
	for _, s := range in.Series {
		if s.RunID == runs[0].RunID {
			rows = append(rows, s)
		}
	}
	for i, s := range rows { // x is the middle of the window
		if d.P50[i] != (plotter.XY{X: s.TS + 0.5, Y: *s.LatP50Ms}) || d.P99[i].Y != *s.LatP99Ms {
			t.Fatalf("window %d: %v %v, row %+v", i, d.P50[i], d.P99[i], s)
		}
	}
	if d.Warmup == nil || d.Warmup.WarmupEndS == nil {
		t.Fatalf("warmup %+v", d.Warmup)
	}
	// The synthetic run ramps for about 12 s; the series model (analysis
	// version 5) fits it as a trend that levels off, whose end lies within
	// a few windows of the ramp's.
	if e := *d.Warmup.WarmupEndS; e < 8 || e > 20 {
		t.Errorf("warm-up end %v s, want about 12 s", e)
	}
	m, err := LatencyOverTime(in, groups[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Panels) != 1 || m.Panels[0].X.Min != 0 || m.Panels[0].X.Max != 60 || !slices.ContainsFunc(m.Legend, func(e LegendEntry) bool {
		return strings.HasPrefix(e.Name, "warm-up end")
	}) {
		t.Errorf("panels %d, x %v..%v, legend %+v", len(m.Panels), m.Panels[0].X.Min, m.Panels[0].X.Max, m.Legend)
	}
	if _, err := LatencyOverTime(in, OverTimeGroup{}); !errors.Is(err, ErrNoData) {
		t.Errorf("no runs: %v", err)
	}
}

// A group of runs is one figure, a panel per run sharing the axes; a
// single spike is clipped (and said) instead of flattening the rest; more
// than maxPanels runs show the first and the last.
func TestLatencyOverTimeGroup(t *testing.T) {
	var runs []results.Run
	var series []results.Series
	for k := range 14 {
		r := wrkRun("g:80", k, 10, 1000, 10, 2, 30)
		runs = append(runs, r)
		for i := range 20 {
			p50 := 2 + 0.1*float64(i%4)
			if k == 3 && i == 7 {
				p50 = 400 // one spike in one run
			}
			series = append(series, results.Series{RunID: r.RunID, TS: float64(i), WindowS: 1, Requests: 100, RPS: 100,
				LatP50Ms: results.Ptr(p50), LatP99Ms: results.Ptr(p50 * 2)})
		}
	}
	in := analyzed(t, analyze.Set{Runs: runs, Series: series})
	groups := OverTimeGroups(in)
	if len(groups) != 1 || len(groups[0].Runs) != 14 {
		t.Fatalf("groups %+v", groups)
	}
	m, err := LatencyOverTime(in, groups[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Panels) != maxPanels || m.Cols != 4 || !strings.Contains(m.Title, "first and last 6 of 14 runs") {
		t.Errorf("%d panels in %d columns, title %q", len(m.Panels), m.Cols, m.Title)
	}
	for _, p := range m.Panels {
		if p.Y.Max != m.Panels[0].Y.Max || p.Y.Max > 20 || p.Y.Min != 0 || p.X.Max != 20 {
			t.Errorf("panel %q: y %v..%v x ..%v, want shared, clipped below 20 ms", p.Title.Text, p.Y.Min, p.Y.Max, p.X.Max)
		}
	}
	if !slices.ContainsFunc(m.Legend, func(e LegendEntry) bool { return strings.Contains(e.Name, "2 windows above") }) {
		t.Errorf("legend %+v: the clipped windows (p50 and p99 of one) not said", m.Legend)
	}
	if _, err := PNG(m); err != nil {
		t.Fatal(err)
	}
}

// Without p50 per window, the latency panel shows the mean.
func TestTimelineDataMean(t *testing.T) {
	r := wrkRun("a:80", 0, 10, 1000, 10, 2, 30)
	var series []results.Series
	for i := range 4 {
		series = append(series, results.Series{RunID: r.RunID, TS: 2 * float64(3-i), WindowS: 2, Requests: 10, RPS: 5, LatMeanMs: results.Ptr(float64(i))})
	}
	d, err := timelineData(analyzed(t, analyze.Set{Runs: []results.Run{r}, Series: series}), r.RunID)
	if err != nil {
		t.Fatal(err)
	}
	eqXYs(t, "mean", d.Mean, plotter.XYs{{X: 1, Y: 3}, {X: 3, Y: 2}, {X: 5, Y: 1}, {X: 7, Y: 0}})
	if d.P50 != nil || d.Window != 2 || d.XMax != 8 {
		t.Errorf("%+v", d)
	}
}

func TestScalingDataSeed(t *testing.T) {
	d := scalingData(seedInput(t).Verdict)
	if len(d.Systems) != 2 || d.Log || d.XMin != 50 || d.XMax != 100 {
		t.Fatalf("%+v", d)
	}
	z, o := d.Systems[0], d.Systems[1]
	// Zuul has no steady state at 100 connections: its last run represents it.
	eqXYs(t, "zuul levels", z.Levels, plotter.XYs{{X: 50, Y: 2095.30}, {X: 100, Y: 3737.35}})
	eqXYs(t, "zuul runs", z.Runs, plotter.XYs{{X: 50, Y: 2095.30}, {X: 100, Y: 3107.57}, {X: 100, Y: 3737.35}})
	eqXYs(t, "openresty levels", o.Levels, plotter.XYs{{X: 50, Y: 1604.71}, {X: 100, Y: 1618.2}})
	// wrk reports no minimum: R0 is each system's least mean latency.
	// Zuul's runs reach above 100/0.02935 s (its Little's law ratio is
	// above 1): it gets no bound.
	if !near(z.R0S, 0.02935) || !near(o.R0S, 0.02452) || !z.R0Mean || !o.R0Mean || !z.Exceeded || o.Exceeded || z.USL != nil || o.USL != nil {
		t.Errorf("R0 %v %v (from means %v %v, exceeded %v %v) USL %v %v", z.R0S, o.R0S, z.R0Mean, o.R0Mean, z.Exceeded, o.Exceeded, z.USL, o.USL)
	}
	// OpenResty: +0.8 % throughput for +73 % latency from 50 to 100.
	if z.SaturatedAt != nil || o.SaturatedAt == nil || *o.SaturatedAt != 50 {
		t.Errorf("saturation %v %v", z.SaturatedAt, o.SaturatedAt)
	}
	if !d.RunsShown || d.YMax != 3737.35 {
		t.Errorf("runs shown %v ymax %v", d.RunsShown, d.YMax)
	}
}

func TestScalingDataUSL(t *testing.T) {
	in := richInput(t)
	d := scalingData(in.Verdict)
	if len(d.Systems) != 2 || !d.Log || d.XMin != 1 || d.XMax != 64 {
		t.Fatalf("%+v", d)
	}
	for _, s := range d.Systems {
		if s.USL == nil || len(s.Levels) != 7 {
			t.Fatalf("%s: USL %v levels %v", s.Label, s.USL, s.Levels)
		}
		if s.USL.Sigma <= 0 || s.USL.Kappa <= 0 || s.USL.R2 < 0.99 {
			t.Errorf("%s: %+v", s.Label, *s.USL)
		}
	}
	// A single level draws no scaling figure.
	one := analyzed(t, analyze.Set{Runs: []results.Run{wrkRun("a:80", 0, 10, 1000, 10, 2, 30)}})
	if _, err := Scaling(one); !errors.Is(err, ErrNoData) {
		t.Errorf("one level: %v", err)
	}
}

// An open-model run with errors and stalls: the stalls are shaded, and no
// warm-up end is drawn.
func TestTimelineDataOpenModelStalls(t *testing.T) {
	r := wrkRun("o:80", 0, 10, 300, 2, 1, 900)
	r.Tool, r.LoadModel, r.TargetRPS = "vegeta", results.LoadOpen, results.Ptr(300.0)
	var series []results.Series
	for i := range 60 {
		lat, errs := 1.4+0.05*float64(i%3), int64(0)
		if i%10 == 5 {
			lat, errs = 700, 30
		}
		series = append(series, results.Series{RunID: r.RunID, TS: float64(i), WindowS: 1, Requests: 300, Errors: errs, RPS: 300,
			LatMeanMs: results.Ptr(lat), LatP50Ms: results.Ptr(lat), LatP99Ms: results.Ptr(2 * lat)})
	}
	in := analyzed(t, analyze.Set{Runs: []results.Run{r}, Series: series})
	d, err := timelineData(in, r.RunID)
	if err != nil {
		t.Fatal(err)
	}
	w := d.Warmup
	if w == nil || w.Instability == nil || len(w.Instability.Spans) != 6 || w.Instability.Spans[0] != (analyze.Span{FromS: 5, ToS: 6}) {
		t.Fatalf("warm-up %+v", w)
	}
	m, err := LatencyOverTime(in, OverTimeGroups(in)[0])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(m.Legend, func(e LegendEntry) bool { return e.Name == "stalls" }) ||
		slices.ContainsFunc(m.Legend, func(e LegendEntry) bool { return strings.HasPrefix(e.Name, "warm-up end") }) {
		t.Errorf("legend %+v: want stalls, no warm-up end", m.Legend)
	}
}
