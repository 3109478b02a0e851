package plots

import (
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// texts draws p and returns every text it writes.
func texts(t *testing.T, p *plot.Plot) []string {
	t.Helper()
	var c recorder.Canvas
	p.Draw(draw.NewCanvas(&c, figWidth, figHeight))
	var out []string
	for _, a := range c.Actions {
		if f, ok := a.(*recorder.FillString); ok {
			out = append(out, f.String)
		}
	}
	return out
}

// A log axis cannot show mean - stdev <= 0 (the seed's run 0: 33.95 -
// 43.06 ms): the bar is cut at the bottom of the axis, and the figure
// says so, with an arrow and a legend entry, instead of ending it there
// silently.
func TestLatencyShowsClippedBars(t *testing.T) {
	for name, in := range map[string]Input{"seed": seedInput(t), "rich": richInput(t)} {
		p, err := Latency(in)
		if err != nil {
			t.Fatal(err)
		}
		var cut []float64
		for _, r := range in.Verdict.Runs {
			if finiteP(r.LatMeanMs) && finiteP(r.LatStdevMs) && p.Y.Scale != nil && *r.LatMeanMs-*r.LatStdevMs < p.Y.Min {
				if _, log := p.Y.Scale.(plot.LogScale); log {
					cut = append(cut, float64(r.Seq))
				}
			}
		}
		said := slices.Contains(texts(t, p), "mean − stdev below axis")
		if len(cut) > 0 != said {
			t.Errorf("%s: bars of seqs %v reach below the axis at %v ms; the legend says so: %v", name, cut, p.Y.Min, said)
		}
		if name == "seed" && !slices.Equal(cut, []float64{0}) {
			t.Errorf("seed: cut bars %v, want run 0's", cut)
		}
	}
}

// The arrows are drawn where the bars are cut.
func TestLatencyDataClipped(t *testing.T) {
	if got := latencyData(seedInput(t)).Clipped; !slices.Equal(got, []float64{0}) {
		t.Errorf("arrows at seqs %v, want run 0's", got)
	}
	if got := latencyData(richInput(t)).Clipped; len(got) != 0 {
		t.Errorf("arrows at seqs %v on a linear axis", got)
	}
}

// Little's law bounds throughput by N / R0: a line drawn as the bound
// never lies below a measured point (by more than BoundSlack, the
// rounding of a point that lies on it). wrk gives no minimum latency, and
// its runs can show a ratio X R / N above 1 (the seed's Zuul: 1.42): then
// there is no bound to draw, and the legend says why.
func TestScalingBoundAboveData(t *testing.T) {
	for name, in := range map[string]Input{"seed": seedInput(t), "rich": richInput(t)} {
		p, err := Scaling(in)
		if err != nil {
			t.Fatal(err)
		}
		legend := strings.Join(texts(t, p), "\n")
		for _, s := range scalingData(in.Verdict).Systems {
			if !strings.Contains(legend, short(s.Label)+": bound N/R0") {
				continue
			}
			for _, xy := range append(slices.Clone(s.Levels), s.Runs...) {
				if bound := xy.X / s.R0S; xy.Y > bound*(1+BoundSlack) {
					t.Errorf("%s: %s at N = %v: %v req/s above its drawn bound %v", name, s.Label, xy.X, xy.Y, bound)
				}
			}
		}
		if name == "seed" && !strings.Contains(legend, "localhost:80: bound N/R0") {
			t.Errorf("seed: no bound for localhost:80, whose runs lie below N/R0:\n%s", legend)
		}
	}
}

// R0 is the least minimum latency where the runs report one, else the
// least mean; a bound exceeded by a run is not drawn.
func TestScalingDataR0(t *testing.T) {
	closed := func(label string, seq int, conns int32, rps, mean, min float64) results.Run {
		r := wrkRun(label, seq, conns, rps, mean, 1, 10*mean)
		r.LatMinMs = results.Ptr(min)
		return r
	}
	in := analyzed(t, analyze.Set{Runs: []results.Run{
		closed("a:80", 0, 10, 900, 11, 2), closed("a:80", 1, 20, 1500, 13, 2.5), closed("a:80", 2, 40, 1600, 25, 3)}})
	if s := scalingData(in.Verdict).Systems[0]; !near(s.R0S, 0.002) || s.R0Mean || s.Exceeded {
		t.Errorf("R0 %v (from means %v, exceeded %v), want 2 ms from the minima", s.R0S, s.R0Mean, s.Exceeded)
	}
}

// The percentile axis says where the maximum is drawn only when it is
// drawn, and reaches it: wrk --latency gives 50 % to 99 % and the
// maximum apart.
func TestPercentilesMaximumOnAxis(t *testing.T) {
	var runs []results.Run
	var pcts []results.Percentile
	for i := range 4 {
		r := wrkRun("a:80", i, 16, 3000, 5, 2, 80+float64(i))
		runs = append(runs, r)
		for _, qv := range [][2]float64{{0.5, 4}, {0.75, 6}, {0.9, 8}, {0.99, 20}} {
			pcts = append(pcts, results.Percentile{RunID: r.RunID, Quantile: qv[0], LatencyMs: qv[1] + float64(i)})
		}
	}
	noMax := slices.Clone(runs)
	for i := range noMax {
		noMax[i].LatMaxMs = nil
	}
	for name, in := range map[string]Input{
		"wrk":    analyzed(t, analyze.Set{Runs: runs, Percentiles: pcts}),
		"no max": analyzed(t, analyze.Set{Runs: noMax, Percentiles: pcts}),
		"rich":   richInput(t),
	} {
		p, err := Percentiles(in)
		if err != nil {
			t.Fatal(err)
		}
		says := strings.Contains(p.X.Label.Text, "maximum")
		maxX := percentileX(MaxQuantile)
		if says && p.X.Max < maxX {
			t.Errorf("%s: the axis says the maximum is drawn at 99.999%% but stops at %v", name, p.X.Max)
		}
		known := false
		for _, r := range in.Verdict.Runs {
			if finiteP(r.LatMaxMs) {
				known = true
				if *r.LatMaxMs > p.Y.Max || p.X.Max < maxX {
					t.Errorf("%s: run %d's maximum %v ms is off the axes (x to %v, y to %v)", name, r.Seq, *r.LatMaxMs, p.X.Max, p.Y.Max)
				}
			}
		}
		if known != says {
			t.Errorf("%s: maxima known %v, the axis label %q", name, known, p.X.Label.Text)
		}
		if name == "wrk" && !slices.Contains(texts(t, p), "max (×)") {
			t.Errorf("wrk: no legend entry for the maximum")
		}
	}
}

// An open-model run whose successful responses fall short of the
// requests it sent shows both: the point is the successful ones, a bar
// the requests sent; runs where they agree show one point.
func TestThroughputSentApart(t *testing.T) {
	var runs []results.Run
	for i, ok := range []float64{1000, 1000, 700, 995} {
		r := wrkRun("a:80", i, 10, ok, 5, 1, 20)
		r.Tool, r.LoadModel, r.Connections, r.TargetRPS, r.SentRPS, r.SuccessRPS = "vegeta", results.LoadOpen, nil, results.Ptr(1000.0), results.Ptr(1000.0), results.Ptr(ok)
		runs = append(runs, r)
	}
	in := analyzed(t, analyze.Set{Runs: runs})
	d := throughputData(in.Verdict)
	if len(d.Sent) != 1 || d.Sent[0].X != 2 || d.Sent[0].Sent != 1000 || d.Sent[0].OK != 700 {
		t.Errorf("sent apart %+v, want run 2's 1000 sent against 700 successful", d.Sent)
	}
	p, err := Throughput(in)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(texts(t, p), "requests sent/s (—)") || p.Y.Max < 1000 {
		t.Errorf("legend %q, y to %v", texts(t, p), p.Y.Max)
	}
	if !strings.Contains(throughputAlt(in), "requests sent are marked apart for 1 run") {
		t.Errorf("alt %q", throughputAlt(in))
	}
}
