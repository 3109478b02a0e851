package analyze_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// The tests in this file assert the verdict on real data whose truth is
// known: testdata/truth/<case>/, made with scripts/truth (a server on
// 127.0.0.1 written to behave a certain way, measured with wrk and vegeta;
// meta.txt in each folder says how, and the truth).

// truthSink collects what a parser reads.
type truthSink struct{ set *analyze.Set }

func (s truthSink) Run(r results.RunWithPercentiles) error {
	s.set.Runs = append(s.set.Runs, r.Run)
	s.set.Percentiles = append(s.set.Percentiles, r.Percentiles...)
	return nil
}
func (s truthSink) Sample(results.Sample) error   { return nil }
func (s truthSink) Series(r results.Series) error { s.set.Series = append(s.set.Series, r); return nil }

// truthSet reads files (paths under testdata/truth, folders read in name
// order) into one experiment, runs numbered in the order read; relabel,
// when given, names each run's system from its file.
func truthSet(t *testing.T, relabel func(file string) string, paths ...string) analyze.Set {
	t.Helper()
	set := analyze.Set{Experiment: "truth"}
	for _, p := range paths {
		full := filepath.Join("..", "testdata", "truth", p)
		files := []string{full}
		if fi, err := os.Stat(full); err != nil {
			t.Fatal(err)
		} else if fi.IsDir() {
			ents, err := os.ReadDir(full)
			if err != nil {
				t.Fatal(err)
			}
			files = nil
			for _, e := range ents {
				files = append(files, filepath.Join(full, e.Name()))
			}
		}
		for _, f := range files {
			fh, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			n := len(set.Runs)
			err = ingest.Parse(context.Background(), fh, ingest.Options{Source: f, Experiment: "truth"}, truthSink{&set})
			fh.Close()
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for i := n; i < len(set.Runs); i++ {
				set.Runs[i].Seq = int32(i)
				if relabel != nil {
					set.Runs[i].Label = relabel(f)
				}
			}
		}
	}
	return set
}

func analyzeTruth(t *testing.T, set analyze.Set) *analyze.Verdict {
	t.Helper()
	v, err := analyze.Analyze(set, analyze.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func findings(v *analyze.Verdict, code analyze.Code) []analyze.Finding {
	var out []analyze.Finding
	for _, f := range v.Findings {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

// testdata/truth/stalls: the server freezes all handling for 1.5 s every
// 10 s from 5 s on; vegeta at 300 req/s for 60 s. The run is not "flat":
// six periodic stalls, every 10 s, in about 20 % of its windows.
func TestTruthStalls(t *testing.T) {
	v := analyzeTruth(t, truthSet(t, nil, "stalls/vegeta/results.json.gz"))
	rw := v.Systems[0].WithinRunWarmup[0]
	in := rw.Instability
	if in == nil || !in.Periodic || in.PeriodS == nil || math.Abs(*in.PeriodS-10) > 1 || in.Excursions != 6 ||
		in.ShareTime < 0.15 || in.ShareTime > 0.25 || in.StallPeakMs < 500 || in.LevelMs > 5 {
		t.Fatalf("instability %+v (class %s)", in, rw.Class)
	}
	for i, sp := range in.Spans { // the stalls start at 5, 15, ... 55 s
		if start := 5 + 10*float64(i); sp.FromS > start || sp.ToS < start+1.5 {
			t.Errorf("stall %d: %+v, want it to cover [%v, %v]", i, sp, start, start+1.5)
		}
	}
	if len(findings(v, analyze.CodePeriodicStalls)) != 1 || len(findings(v, analyze.CodeLongTail)) != 0 {
		t.Errorf("findings %+v", v.Findings)
	}
	if g := v.Systems[0].Groups[0]; g.WithinRun == nil || g.WithinRun.UnstableRuns != 1 {
		t.Errorf("group within-run %+v", g.WithinRun)
	}
}

// testdata/truth/ramp: latency grows by 1 ms per second for the whole
// 60 s run (vegeta, 100 req/s). No steady state and no warm-up end.
// (Analysis version 5: class no-steady-state, worsening; it was slowdown,
// which now means "got worse, then stayed level".)
func TestTruthRamp(t *testing.T) {
	v := analyzeTruth(t, truthSet(t, nil, "ramp/vegeta/results.json.gz"))
	rw := v.Systems[0].WithinRunWarmup[0]
	if rw.Class != stats.ClassNoSteadyState || rw.Direction != stats.Worsening || rw.WarmupEndS != nil || rw.MSEREndS != nil || rw.Basis.Trend == nil || !rw.Basis.Trend.Persistent ||
		rw.Basis.Trend.Change/rw.TrendOverS < 0.8 || rw.Basis.Trend.Change/rw.TrendOverS > 1.2 {
		t.Fatalf("within-run %+v trend %+v", rw, rw.Basis.Trend)
	}
	if len(findings(v, analyze.CodeSlowingDown)) != 1 || rw.Instability != nil {
		t.Errorf("findings %+v", v.Findings)
	}
}

// testdata/truth/overload: vegeta at 2000 req/s for 20 s against a server
// that answers about 400 req/s (4 workers, 10 ms each), with a 1 s
// timeout: 98.7 % time out. The JSON log and vegeta's report text of the
// same attack say the same: overloaded, 24.76 successful responses per
// second of 2000 requested, and the same error rate.
func TestTruthOverload(t *testing.T) {
	type got struct {
		target, rps, errRate float64
	}
	var both []got
	for _, f := range []string{"overload/vegeta/results.json.gz", "overload/vegeta/results-report.txt", "overload/vegeta/results-report.json"} {
		v := analyzeTruth(t, truthSet(t, nil, f))
		c := v.Systems[0].Capacity
		ov := findings(v, analyze.CodeOverload)
		er := findings(v, analyze.CodeErrors)
		if !c.Saturated || c.Saturation.Kind != analyze.SaturationOpenShortfall || len(ov) != 1 || ov[0].Severity != analyze.SeverityError ||
			len(er) != 1 || er[0].Severity != analyze.SeverityError || len(findings(v, analyze.CodeSaturated)) != 0 {
			t.Fatalf("%s: capacity %+v findings %+v", f, c, v.Findings)
		}
		both = append(both, got{c.Saturation.TargetRPS, c.Saturation.RPS, er[0].Facts.(analyze.ErrorsFacts).Rate})
	}
	for _, g := range both {
		if math.Abs(g.target/2000-1) > 0.001 || math.Abs(g.rps/24.76-1) > 0.001 || math.Abs(g.errRate-39479.0/39999) > 1e-9 {
			t.Errorf("%+v, want 2000 requested, 24.76 achieved, 98.7 %% errors (all: %+v)", g, both)
		}
	}
}

// testdata/truth/warmup-rounds: ten 8 s wrk rounds against a server 3x
// slower for its first 30 s. Warm-up across runs, steady from the fourth
// round (seq 3, 24-32 s: mostly warm) or the fifth, and a steady-state CI
// above every warm-up round.
func TestTruthWarmupRounds(t *testing.T) {
	v := analyzeTruth(t, truthSet(t, nil, "warmup-rounds/wrk"))
	g := v.Systems[0].Groups[0]
	if g.Warmup.Class != stats.ClassWarmup || g.Warmup.Method != analyze.MethodModel || g.Warmup.SteadyFromSeq == nil ||
		*g.Warmup.SteadyFromSeq < 3 || *g.Warmup.SteadyFromSeq > 4 || g.Warmup.Shift != nil {
		t.Fatalf("warm-up %+v", g.Warmup)
	}
	if g.Steady.RPSCI == nil || g.Steady.RPSCI.Lo <= 2325.98 {
		t.Errorf("steady %+v CI %+v", g.Steady, g.Steady.RPSCI)
	}
	if len(findings(v, analyze.CodeLevelShift))+len(findings(v, analyze.CodeStillWarming)) != 0 {
		t.Errorf("findings %+v", v.Findings)
	}
}

// testdata/truth/disturbed-pair: 8+8 interleaved wrk runs, B doing 10 %
// more work per request, pair 5 under foreign CPU load (A's run there
// lost 40 %). The ratio of means and its bootstrap CI reach below 1; the
// Hodges-Lehmann ratio, which decides, shows A faster, as 7 of the 8
// pairs do.
func TestTruthDisturbedPair(t *testing.T) {
	v := analyzeTruth(t, truthSet(t, nil, "disturbed-pair/runs"))
	var c analyze.Comparison
	for _, x := range v.Comparisons {
		if x.Metric == analyze.MetricRPS {
			c = x
		}
	}
	if c.A != "127.0.0.1:19111" || c.Verdict != analyze.AFaster || c.Estimate == nil || c.Estimate.Estimate < 1.03 || c.Estimate.Estimate > 1.12 ||
		c.Estimate.Lo <= 1.02 || c.PValue == nil || *c.PValue >= 0.05 {
		t.Fatalf("rps comparison %+v estimate %+v", c, c.Estimate)
	}
	if c.CI == nil || c.CI.Lo >= 1 {
		t.Errorf("the ratio of means' CI %+v was expected to reach below 1 (the disturbed run)", c.CI)
	}
}

// testdata/truth/contradictory: four wrk runs at equal settings, the third
// pipelined (10 requests per write): wrk prints every percentile as 0
// beside a mean of 10 ms. That run is flagged and left out of its group.
func TestTruthContradictory(t *testing.T) {
	v := analyzeTruth(t, truthSet(t, nil, "contradictory/wrk"))
	g := v.Systems[0].Groups[0]
	if len(g.Runs) != 3 || len(g.Excluded) != 1 || g.Excluded[0].Run.Seq != 2 || !g.Excluded[0].Excluded ||
		g.Excluded[0].LittlesLawRatio == nil || *g.Excluded[0].LittlesLawRatio < 4 || slices.Contains(g.Seqs, 2) {
		t.Fatalf("group runs %v excluded %+v", g.Seqs, g.Excluded)
	}
	f := findings(v, analyze.CodeContradictoryRun)
	if len(f) != 1 || f[0].Subject.Runs[0].Seq != 2 {
		t.Errorf("findings %+v", v.Findings)
	}
}

// testdata/truth/before-after: one server, 6 wrk runs of the old build,
// 6 of a build doing ~15 % more work per request, 6 more of the old. As
// one system (one address), old then new is a level shift down at the
// seventh run (seq 6) that stays: a slowdown, not a warm-up; old then
// the old again is flat. Named apart, old is faster than new with every
// run of one above every run of the other (p = 2/924).
func TestTruthBeforeAfter(t *testing.T) {
	v := analyzeTruth(t, truthSet(t, nil, "before-after/old", "before-after/new"))
	g := v.Systems[0].Groups[0]
	if g.Warmup.Class != stats.ClassSlowdown || g.Warmup.Shift == nil || g.Warmup.Shift.AtSeq != 6 ||
		g.Warmup.Shift.After/g.Warmup.Shift.Before > 0.92 || g.Warmup.SteadyFromSeq == nil || *g.Warmup.SteadyFromSeq != 6 {
		t.Fatalf("old+new warm-up %+v shift %+v", g.Warmup, g.Warmup.Shift)
	}
	if f := findings(v, analyze.CodeLevelShift); len(f) != 1 || f[0].Facts.(analyze.LevelShiftFacts).AtSeq != 6 || len(findings(v, analyze.CodeStillWarming)) != 0 {
		t.Errorf("findings %+v", v.Findings)
	}

	v = analyzeTruth(t, truthSet(t, nil, "before-after/old", "before-after/same"))
	if g := v.Systems[0].Groups[0]; g.Warmup.Class != stats.ClassFlat || g.Warmup.Shift != nil || len(findings(v, analyze.CodeLevelShift)) != 0 {
		t.Errorf("old+same warm-up %+v", g.Warmup)
	}

	side := func(f string) string { return filepath.Base(filepath.Dir(f)) }
	v = analyzeTruth(t, truthSet(t, side, "before-after/old", "before-after/new"))
	if !slices.ContainsFunc(v.Comparisons, func(c analyze.Comparison) bool { return c.Metric == analyze.MetricRPS }) {
		t.Fatalf("no throughput comparison: %+v", v.Comparisons)
	}
	for _, c := range v.Comparisons {
		if c.Metric != analyze.MetricRPS {
			continue
		}
		if c.A != "old" || c.Verdict != analyze.AFaster || c.PValue == nil || math.Abs(*c.PValue-2.0/924) > 1e-12 ||
			c.Estimate == nil || c.Estimate.Lo <= 1.02 {
			t.Errorf("old vs new: %+v estimate %+v", c, c.Estimate)
		}
	}
	// Old against the old build again: no difference can be claimed.
	v = analyzeTruth(t, truthSet(t, side, "before-after/old", "before-after/same"))
	for _, c := range v.Comparisons {
		if c.Metric == analyze.MetricRPS && (c.Verdict == analyze.AFaster || c.Verdict == analyze.BFaster) {
			t.Errorf("old vs same: %+v estimate %+v", c, c.Estimate)
		}
	}
}

// testdata/truth/errors: every 20th request answered 500 (5 %), or all but
// every 20th (95 %), each as fast as a success, with wrk and vegeta. The
// error rate is exact, an error (not a warning), and a system that
// answers every request, if with 500, is failing, not overloaded.
func TestTruthErrors(t *testing.T) {
	for _, c := range []struct {
		file string
		rate float64
	}{
		{"errors/wrk/errors-5pct.txt", 4394.0 / 87874},
		{"errors/wrk/errors-95pct.txt", 69610.0 / 73274},
		{"errors/vegeta/errors-5pct.json.gz", 0.05},
		{"errors/vegeta/errors-95pct.json.gz", 0.95},
		{"errors/vegeta/errors-5pct-report.txt", 0.05},
		{"errors/vegeta/errors-95pct-report.txt", 0.95},
	} {
		v := analyzeTruth(t, truthSet(t, nil, c.file))
		f := findings(v, analyze.CodeErrors)
		if len(f) != 1 || f[0].Severity != analyze.SeverityError || math.Abs(f[0].Facts.(analyze.ErrorsFacts).Rate-c.rate) > 1e-9 {
			t.Errorf("%s: errors findings %+v, want one error at %v", c.file, f, c.rate)
		}
		if len(findings(v, analyze.CodeOverload)) != 0 || v.Systems[0].Capacity.Saturated {
			t.Errorf("%s: overload or saturation found: %+v", c.file, v.Findings)
		}
	}
}

// testdata/truth/hey-capped: hey -n 1100000 -c 50; hey keeps 1,000,000
// results and prints an Average inflated 1.1x. Requests 1,100,000 and the
// mean corrected to about 2.27 ms (Little's law: 50 / 22272 req/s =
// 2.245 ms).
func TestTruthHeyCapped(t *testing.T) {
	v := analyzeTruth(t, truthSet(t, nil, "hey-capped/hey/capped.txt"))
	r := v.Runs[0]
	if r.Requests != 1_100_000 || r.LatMeanMs == nil || math.Abs(*r.LatMeanMs-2.5/1.1) > 1e-9 {
		t.Fatalf("requests %d mean %v", r.Requests, r.LatMeanMs)
	}
	if ll := r.RPS * *r.LatMeanMs / 1000 / 50; ll < 0.98 || ll > 1.03 {
		t.Errorf("Little's law ratio %v with the corrected mean", ll)
	}
}

// testdata/truth/repeated-warmup: a 5 s slow phase (3x falling to 1x)
// every 60 s for 5 minutes, vegeta at 50 req/s, per-second means varying
// ±30 % outside the phases. Not "flat" any more: the run is unstable, its
// excursions lie inside the slow phases. (Found: 2 of the 5 phases, and
// the first as the run's start; the other three, 1.7x on average over
// their 5 s, stay within the noise at CAPA's penalty, so the period is
// not found: see docs/STATISTICS.md.)
func TestTruthRepeatedWarmup(t *testing.T) {
	v := analyzeTruth(t, truthSet(t, nil, "repeated-warmup/vegeta/results.json.gz"))
	rw := v.Systems[0].WithinRunWarmup[0]
	in := rw.Instability
	if in == nil || in.Excursions < 2 {
		t.Fatalf("instability %+v (class %s)", in, rw.Class)
	}
	for _, sp := range in.Spans {
		if phase := math.Floor(sp.FromS/60) * 60; sp.FromS > phase+5 || sp.ToS > phase+6 {
			t.Errorf("excursion %+v outside the slow phase at %v s", sp, phase)
		}
	}
	if len(findings(v, analyze.CodeUnstable))+len(findings(v, analyze.CodePeriodicStalls)) != 1 {
		t.Errorf("findings %+v", v.Findings)
	}
}
