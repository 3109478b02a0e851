package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/results"
)

// The Monte-Carlo layer: rates that need thousands of draws (the A/A
// false-positive rate, power per effect size and run count) from synthetic
// comparisons whose runs are real runs of the grid, resampled with their
// residuals and scaled to a common level (times 1+effect for B), then
// analysed by analyze.Analyze and graded as the grid is. The pools and the
// draws: docs/CONFORMANCE.md, "Monte-Carlo layer".

// pooled is one real run in a pool.
type pooled struct {
	run    results.RunWithPercentiles
	series []results.Series
	// resid is the run's metric over its side's median.
	resid float64
}

// pool is the pooled runs of one model.
type pool struct {
	name   string // "closed" or "open"
	metric string
	runs   []pooled
}

// collectSink gathers what a parser reads.
type collectSink struct {
	runs   []results.RunWithPercentiles
	series []results.Series
}

func (s *collectSink) Run(r results.RunWithPercentiles) error {
	s.runs = append(s.runs, r)
	return nil
}
func (s *collectSink) Sample(results.Sample) error { return nil }
func (s *collectSink) Series(x results.Series) error {
	s.series = append(s.series, x)
	return nil
}

// metricOf is a run's value of metric, ok false when missing.
func metricOf(r results.Run, metric string) (float64, bool) {
	switch metric {
	case analyze.MetricRPS:
		return r.RPS, r.RPS > 0
	case analyze.MetricLatMeanMs:
		if r.LatMeanMs != nil && *r.LatMeanMs > 0 {
			return *r.LatMeanMs, true
		}
	}
	return 0, false
}

// loadPools reads the A/A experiments' runs (and the flat wrk rounds)
// into the closed and open pools.
func loadPools(root string) ([]*pool, error) {
	closed := &pool{name: "closed (wrk, throughput)", metric: analyze.MetricRPS}
	open := &pool{name: "open (vegeta, hey; mean latency)", metric: analyze.MetricLatMeanMs}
	dirs, err := experiments(root, 0)
	if err != nil {
		return nil, err
	}
	for _, dir := range dirs {
		rec, err := loadRecord(dir)
		if err != nil || rec.Family != "aa" && !(rec.Family == "flat" && rec.Variant == "wrk-rounds") {
			continue
		}
		p := closed
		if primaryMetric(rec.Scenario) != analyze.MetricRPS {
			p = open
		}
		sides := map[string][]pooled{}
		for _, rs := range rec.Runs {
			f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rs.File)))
			if err != nil {
				return nil, err
			}
			var sink collectSink
			err = ingest.Parse(context.Background(), f, ingest.Options{Source: rs.File, Experiment: "mc"}, &sink)
			f.Close()
			if err != nil || len(sink.runs) != 1 {
				continue
			}
			if _, ok := metricOf(sink.runs[0].Run, p.metric); !ok {
				continue
			}
			sides[rs.System] = append(sides[rs.System], pooled{run: sink.runs[0], series: sink.series})
		}
		for _, sys := range slices.Sorted(maps.Keys(sides)) { // in name order: the draws must not depend on map order
			side := sides[sys]
			var xs []float64
			for _, r := range side {
				x, _ := metricOf(r.run.Run, p.metric)
				xs = append(xs, x)
			}
			m := median(xs)
			for i := range side {
				side[i].resid = xs[i] / m
				p.runs = append(p.runs, side[i])
			}
		}
	}
	var out []*pool
	for _, p := range []*pool{closed, open} {
		if len(p.runs) > 0 {
			out = append(out, p)
		}
	}
	return out, nil
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// scaled returns a copy of pooled run p whose cost is multiplied by k:
// latencies times k; for a closed model throughput, requests and
// transfer divided by k (an open model's rate is the rate asked for).
func scaled(p pooled, k float64, id, label string, seq int32, tmpl results.Run) (results.RunWithPercentiles, []results.Series) {
	r := p.run
	run := r.Run
	mul := func(x *float64) *float64 {
		if x == nil {
			return nil
		}
		v := *x * k
		return &v
	}
	run.LatMeanMs, run.LatStdevMs, run.LatMinMs, run.LatMaxMs = mul(run.LatMeanMs), mul(run.LatStdevMs), mul(run.LatMinMs), mul(run.LatMaxMs)
	run.LatP50Ms, run.LatP90Ms, run.LatP99Ms, run.LatP999Ms = mul(run.LatP50Ms), mul(run.LatP90Ms), mul(run.LatP99Ms), mul(run.LatP999Ms)
	closed := run.LoadModel == results.LoadClosed
	if closed {
		run.RPS /= k
		run.Requests = int64(float64(run.Requests)/k + 0.5)
		div := func(x *float64) *float64 {
			if x == nil {
				return nil
			}
			v := *x / k
			return &v
		}
		run.TransferBPS, run.ThreadRPSMean, run.ThreadRPSStdev, run.ThreadRPSMax = div(run.TransferBPS), div(run.ThreadRPSMean), div(run.ThreadRPSStdev), div(run.ThreadRPSMax)
		run.SuccessRPS, run.SentRPS = div(run.SuccessRPS), div(run.SentRPS)
	}
	// One experiment's settings and target for every synthetic run.
	run.RunID, run.Label, run.Seq, run.Index = id, label, seq, seq
	run.Source, run.Target, run.Experiment = label+"/"+id, tmpl.Target, "mc"
	run.Threads, run.Connections, run.TargetRPS, run.PlannedDurationS = tmpl.Threads, tmpl.Connections, tmpl.TargetRPS, tmpl.PlannedDurationS
	run.Tool, run.LoadModel, run.Endpoint, run.StartedAt = tmpl.Tool, tmpl.LoadModel, nil, nil
	out := results.RunWithPercentiles{Run: run}
	for _, pc := range r.Percentiles {
		pc.RunID, pc.LatencyMs = id, pc.LatencyMs*k
		out.Percentiles = append(out.Percentiles, pc)
	}
	var ser []results.Series
	for _, w := range p.series {
		w.RunID = id
		w.LatMeanMs, w.LatP50Ms, w.LatP99Ms, w.LatMaxMs = mul(w.LatMeanMs), mul(w.LatP50Ms), mul(w.LatP99Ms), mul(w.LatMaxMs)
		ser = append(ser, w)
	}
	return out, ser
}

// synth draws and analyses one synthetic A/B experiment: na runs of A,
// nb of B whose cost is 1+effect times A's, interleaved; it returns the
// observed outcome of the comparison on the pool's metric.
func synth(r *rand.Rand, p *pool, na, nb int, effect float64) string {
	tmpl := p.runs[r.IntN(len(p.runs))].run.Run
	level := 1.0
	set := analyze.Set{Experiment: "mc"}
	var seq int32
	add := func(label string, cost float64) {
		x := p.runs[r.IntN(len(p.runs))]
		v, _ := metricOf(x.run.Run, p.metric)
		// The side's level: the metric at median residual.
		base := v / x.resid
		var k float64
		if p.metric == analyze.MetricRPS {
			k = base / (level * 1000) * cost // throughput level 1000 req/s
		} else {
			k = level * cost / base // latency level 1 ms
		}
		id := fmt.Sprintf("%s%02d", strings.ToLower(label), seq)
		run, ser := scaled(x, k, id, label, seq, tmpl)
		set.Runs = append(set.Runs, run.Run)
		set.Percentiles = append(set.Percentiles, run.Percentiles...)
		set.Series = append(set.Series, ser...)
		seq++
	}
	a, b := na, nb
	for a+b > 0 {
		if a > 0 {
			add("A", 1)
			a--
		}
		if b > 0 {
			add("B", 1+effect)
			b--
		}
	}
	v, err := analyze.Analyze(set, analyze.DefaultOptions())
	if err != nil {
		return "error"
	}
	return compareOutcome(v, p.metric).Outcome
}

// mcResult is the Monte-Carlo layer's figures for one pool.
type mcResult struct {
	Pool       string
	PoolRuns   int
	AADraws    int
	AASig      int
	AANoDiff   int
	Effects    []float64
	Runs       []int
	Power      map[[2]int][3]int // (effect index, runs) -> detected, undecided, draws
	PowerDraws int
}

// monteCarlo runs the layer: aa A/A draws with 3-10 runs a side (equal
// or not), and per effect and runs a side, pw draws of A/B (B slower).
func monteCarlo(root string, aa, pw int, seed uint64) ([]mcResult, error) {
	pools, err := loadPools(root)
	if err != nil {
		return nil, err
	}
	var out []mcResult
	for pi, p := range pools {
		r := rand.New(rand.NewPCG(seed, uint64(pi)))
		res := mcResult{Pool: p.name, PoolRuns: len(p.runs), AADraws: aa, Effects: []float64{0.03, 0.05, 0.10, 0.20, 0.30},
			Runs: []int{3, 5, 8, 10}, Power: map[[2]int][3]int{}, PowerDraws: pw}
		for range aa {
			na := between(r, 3, 10)
			nb := na
			if r.IntN(2) == 0 {
				nb = between(r, 3, 10)
			}
			switch synth(r, p, na, nb, 0) {
			case "A-faster", "B-faster":
				res.AASig++
			case "no-difference":
				res.AANoDiff++
			}
		}
		for ei, e := range res.Effects {
			for _, n := range res.Runs {
				c := res.Power[[2]int{ei, n}]
				for range pw {
					switch synth(r, p, n, n, e) {
					case "A-faster":
						c[0]++
					case "inconclusive":
						c[1]++
					}
					c[2]++
				}
				res.Power[[2]int{ei, n}] = c
			}
		}
		out = append(out, res)
	}
	return out, nil
}

// writeMC writes the Monte-Carlo figures as text or markdown.
func writeMC(w io.Writer, res []mcResult, md bool) {
	for _, m := range res {
		if md {
			fmt.Fprintf(w, "**%s**: %d pooled runs.\n\n", m.Pool, m.PoolRuns)
			fmt.Fprintf(w, "- A/A, %d draws of 3-10 runs a side: significant %d (%.1f %%), no difference %d (%.1f %%)\n\n", m.AADraws, m.AASig, 100*float64(m.AASig)/float64(m.AADraws), m.AANoDiff, 100*float64(m.AANoDiff)/float64(m.AADraws))
			fmt.Fprintf(w, "Power (B slower detected, %d draws per cell), by B's extra cost and runs a side:\n\n| effect |", m.PowerDraws)
			for _, n := range m.Runs {
				fmt.Fprintf(w, " %d runs |", n)
			}
			fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---:|", len(m.Runs)))
		} else {
			fmt.Fprintf(w, "%s: %d pooled runs\n  A/A %d draws: significant %d (%.1f %%), no difference %d (%.1f %%)\n  power (%d draws a cell):\n  %-7s", m.Pool, m.PoolRuns, m.AADraws, m.AASig, 100*float64(m.AASig)/float64(m.AADraws), m.AANoDiff, 100*float64(m.AANoDiff)/float64(m.AADraws), m.PowerDraws, "effect")
			for _, n := range m.Runs {
				fmt.Fprintf(w, " %7s", fmt.Sprintf("%d runs", n))
			}
			fmt.Fprintln(w)
		}
		for ei, e := range m.Effects {
			if md {
				fmt.Fprintf(w, "| %.0f %% |", 100*e)
			} else {
				fmt.Fprintf(w, "  %-7s", fmt.Sprintf("%.0f %%", 100*e))
			}
			for _, n := range m.Runs {
				c := m.Power[[2]int{ei, n}]
				cell := fmt.Sprintf("%.0f %%", 100*float64(c[0])/float64(max(c[2], 1)))
				if md {
					fmt.Fprintf(w, " %s |", cell)
				} else {
					fmt.Fprintf(w, " %7s", cell)
				}
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
	}
}

func runMC(args []string) error {
	fs := flag.NewFlagSet("mc", flag.ContinueOnError)
	dir := fs.String("dir", "testdata/conformance", "the grid's `folder`")
	aa := fs.Int("aa", 2000, "A/A draws per pool")
	pw := fs.Int("power", 100, "A/B draws per effect and run count, per pool")
	seed := fs.Uint64("seed", 19, "the draws' seed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	res, err := monteCarlo(*dir, *aa, *pw, *seed)
	if err != nil {
		return err
	}
	writeMC(os.Stdout, res, false)
	return nil
}
