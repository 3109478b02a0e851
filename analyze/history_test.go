package analyze_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/results"
)

const seriesDir = "../testdata/truth/series"

// truthSeries analyses experiments of testdata/truth/series (e.g.
// "exp01".."exp05") each on its own, with the meta of series.tsv.
func truthSeries(t *testing.T, names ...string) []analyze.SeriesExperiment {
	t.Helper()
	meta := map[string]analyze.Meta{}
	f, err := os.Open(filepath.Join(seriesDir, "series.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) == 5 && c[0] != "experiment" {
			meta[c[0]] = analyze.Meta{Commit: c[1], Date: c[2], Note: c[4]}
		}
	}
	var out []analyze.SeriesExperiment
	for _, name := range names {
		set := analyze.Set{Experiment: name}
		for i := 1; i <= 4; i++ {
			file := filepath.Join(seriesDir, name, fmt.Sprintf("run%d.txt", i))
			b, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := ingest.ParseAll(context.Background(), b, ingest.Options{Source: file, Experiment: name})
			b.Close()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range runs {
				r.Run.Seq = int32(len(set.Runs))
				set.Runs = append(set.Runs, r.Run)
				for _, p := range r.Percentiles {
					p.RunID = r.RunID
					set.Percentiles = append(set.Percentiles, p)
				}
			}
		}
		v, err := analyze.Analyze(set, analyze.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, analyze.SeriesExperiment{Name: name, Meta: meta[name], Verdict: v})
	}
	return out
}

func expNames(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, fmt.Sprintf("exp%02d", i))
	}
	return out
}

// TestHistoryTruthSeries: on the real series (testdata/truth/series:
// +12 % work per request from exp05, exp03 disturbed by foreign CPU
// load), the throughput change point is at exp05 with p < 0.05, exp03 is
// marked disturbed and is no change point on any metric, and the gate
// fails on regression only while exp05 is the latest experiment.
func TestHistoryTruthSeries(t *testing.T) {
	all := truthSeries(t, expNames(1, 8)...)
	opts := analyze.DefaultOptions()
	opts.FailOn = []gate.Condition{gate.Regression}
	for _, tc := range []struct {
		name    string
		exps    []analyze.SeriesExperiment
		changes []string // rps change points, by experiment
		failed  bool
	}{
		{"exp01..exp08", all, []string{"exp05"}, false},
		{"exp01..exp05", all[:5], nil, true},
		{"exp01..exp06", all[:6], []string{"exp05"}, false},
		{"exp01..exp04", all[:4], nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := analyze.AnalyzeHistory("truth", analyze.OrderAsGiven, tc.exps, opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(h.Tracks) != 1 {
				t.Fatalf("%d tracks, want 1", len(h.Tracks))
			}
			tr := h.Tracks[0]
			for _, p := range tr.Points {
				name := h.Experiments[p.Experiment].Name
				want := analyze.PointOK
				switch {
				case name == "exp03" && p.Experiment+1 < len(tc.exps):
					want = analyze.PointDisturbed
				case name == "exp05" || name == "exp07":
					// +8.5 % and +5.1 % between their last two runs:
					// the short-series rule finds no steady state.
					want = analyze.PointNotSteady
				}
				if p.Status != want {
					t.Errorf("%s: status %s, want %s", name, p.Status, want)
				}
			}
			for _, mt := range tr.Metrics {
				var got []string
				for _, c := range mt.Changes {
					got = append(got, h.Experiments[tr.Points[c.At].Experiment].Name)
					if c.P >= 0.05 || c.WelchP >= 0.05 {
						t.Errorf("%s: change at %s with p = %v, Welch p = %v", mt.Metric, got[len(got)-1], c.P, c.WelchP)
					}
				}
				want := []string(nil)
				if mt.Metric == analyze.MetricRPS {
					want = tc.changes
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s: change points %v, want %v", mt.Metric, got, want)
				}
				if mt.Metric == analyze.MetricRPS {
					for _, c := range mt.Changes {
						if !c.Regression || c.Comparison.Verdict != analyze.BFaster {
							t.Errorf("rps change at %d: not a regression: %+v", c.At, c.Comparison)
						}
					}
				}
			}
			if h.Failed != tc.failed {
				t.Errorf("gate failed = %v, want %v; reasons %+v", h.Failed, tc.failed, h.Reasons)
			}
		})
	}
}

// TestOrderExperiments: by meta.date when every experiment has one, else
// by the runs' start times, else as given.
func TestOrderExperiments(t *testing.T) {
	at := func(s string) *analyze.Verdict {
		tm, _ := analyze.ParseDate(s)
		return &analyze.Verdict{Runs: []results.Run{{StartedAt: &tm}}}
	}
	for _, tc := range []struct {
		name string
		exps []analyze.SeriesExperiment
		by   string
		want string
	}{
		{"dates", []analyze.SeriesExperiment{
			{Name: "b", Meta: analyze.Meta{Date: "2026-11-02"}}, {Name: "a", Meta: analyze.Meta{Date: "2026-11-01T10:00:00Z"}}},
			analyze.OrderByDate, "a b"},
		{"start times", []analyze.SeriesExperiment{
			{Name: "b", Meta: analyze.Meta{Date: "2026-11-01"}, Verdict: at("2026-11-02")}, {Name: "a", Verdict: at("2026-11-01")}},
			analyze.OrderByStarted, "a b"},
		{"as given", []analyze.SeriesExperiment{{Name: "b", Verdict: at("2026-11-02")}, {Name: "a", Verdict: &analyze.Verdict{}}},
			analyze.OrderAsGiven, "b a"},
	} {
		by, err := analyze.OrderExperiments(tc.exps)
		var names []string
		for _, e := range tc.exps {
			names = append(names, e.Name)
		}
		if err != nil || by != tc.by || strings.Join(names, " ") != tc.want {
			t.Errorf("%s: %s %v, %v; want %s %s", tc.name, by, names, err, tc.by, tc.want)
		}
	}
	if _, err := analyze.OrderExperiments([]analyze.SeriesExperiment{{Name: "x", Meta: analyze.Meta{Date: "yesterday"}}}); err == nil {
		t.Error("a bad date is no error")
	}
}

// syntheticSeries is a series of experiments of one system at one
// setting, each with runs of throughput level(i)·(1 + cv·N(0,1)), every
// run steady.
func syntheticSeries(rng *rand.Rand, n, runs int, cv float64, level func(int) float64) []analyze.SeriesExperiment {
	conns, threads := int32(16), int32(2)
	var out []analyze.SeriesExperiment
	for i := range n {
		g := analyze.Group{Settings: analyze.Settings{Tool: "wrk", LoadModel: results.LoadClosed, Connections: &conns, Threads: &threads}}
		for j := range runs {
			seq := int32(j)
			g.Runs = append(g.Runs, results.Run{Label: "svc", Tool: "wrk", LoadModel: results.LoadClosed, Connections: &conns, Threads: &threads,
				Seq: seq, Requests: 10000, RPS: level(i) * (1 + cv*rng.NormFloat64())})
			g.Seqs = append(g.Seqs, seq)
		}
		zero := int32(0)
		g.Warmup.SteadyFromSeq = &zero
		v := &analyze.Verdict{Systems: []analyze.System{{Label: "svc", Groups: []analyze.Group{g}}}}
		out = append(out, analyze.SeriesExperiment{Name: fmt.Sprintf("e%02d", i), Verdict: v})
	}
	return out
}

// TestHistoryMonteCarlo is the acceptance check of docs/STATISTICS.md
// ("History"): series of 20 experiments of 4 runs, run-to-run CV 3 %.
// Without a change at most 5 % report a change point; with one step of
// 10 % at experiment 10 at least 90 % find it within ±1.
func TestHistoryMonteCarlo(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte-Carlo check (-short)")
	}
	const series = 200
	rng := rand.New(rand.NewPCG(12, 2014))
	opts := analyze.DefaultOptions()
	opts.Resamples = 2000 // the bootstrap's resolution does not matter here; time does
	falsePos, found := 0, 0
	for s := range series {
		flat := syntheticSeries(rng, 20, 4, 0.03, func(int) float64 { return 1000 })
		h, err := analyze.AnalyzeHistory("null", analyze.OrderAsGiven, flat, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(h.Tracks[0].Metrics[0].Changes) > 0 {
			falsePos++
		}
		step := syntheticSeries(rng, 20, 4, 0.03, func(i int) float64 {
			if i >= 10 {
				return 900
			}
			return 1000
		})
		opts.Seed = uint64(s) + 1
		if h, err = analyze.AnalyzeHistory("step", analyze.OrderAsGiven, step, opts); err != nil {
			t.Fatal(err)
		}
		tr := h.Tracks[0]
		for _, c := range tr.Metrics[0].Changes {
			if at := tr.Points[c.At].Experiment; at >= 9 && at <= 11 {
				found++
				break
			}
		}
	}
	t.Logf("no change: %d of %d series report a change point; a 10 %% step: %d of %d found within ±1", falsePos, series, found, series)
	if float64(falsePos) > 0.05*series {
		t.Errorf("no change: %d of %d series report a change point, want <= 5 %%", falsePos, series)
	}
	if float64(found) < 0.90*series {
		t.Errorf("a 10 %% step at 10: found within ±1 in %d of %d series, want >= 90 %%", found, series)
	}
}
