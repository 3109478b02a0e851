package analyze_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// run makes a closed-model wrk run of label at conns connections.
func run(label string, seq int, conns int32, rps, latMs float64) results.Run {
	return results.Run{
		RunID: results.RunID("test", seq), Experiment: "t", Source: "test", Index: int32(seq), Seq: int32(seq),
		Tool: "wrk", LoadModel: results.LoadClosed, Label: label, Target: "http://" + label + "/x",
		DurationS: 60, PlannedDurationS: results.Ptr(60.0), Threads: results.Ptr(int32(4)), Connections: &conns,
		Requests: int64(rps * 60), RPS: rps, LatMeanMs: results.Ptr(latMs), LatMaxMs: results.Ptr(3 * latMs),
	}
}

func mustAnalyze(t *testing.T, runs []results.Run, series []results.Series) *analyze.Verdict {
	t.Helper()
	v, err := analyze.Analyze(analyze.Set{Experiment: "t", Runs: runs, Series: series}, analyze.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func comparison(t *testing.T, v *analyze.Verdict, metric string) analyze.Comparison {
	t.Helper()
	for _, c := range v.Comparisons {
		if c.Metric == metric {
			return c
		}
	}
	t.Fatalf("no %s comparison in %+v", metric, v.Comparisons)
	return analyze.Comparison{}
}

func hasFinding(v *analyze.Verdict, code analyze.Code) bool {
	for _, f := range v.Findings {
		if f.Code == code {
			return true
		}
	}
	return false
}

// Five interleaved runs per system, every B run several times faster:
// B is faster with the exact two-sided p = 2/252.
func TestFiveInterleavedRunsBFaster(t *testing.T) {
	var runs []results.Run
	aRPS := []float64{1000, 1012, 995, 1008, 1003}
	bRPS := []float64{4100, 4050, 4120, 4080, 4095}
	for i := range 5 {
		runs = append(runs, run("a:80", 2*i, 100, aRPS[i], 100000/aRPS[i]))
		runs = append(runs, run("b:80", 2*i+1, 100, bRPS[i], 100000/bRPS[i]))
	}
	v := mustAnalyze(t, runs, nil)
	c := comparison(t, v, "rps")
	if c.Verdict != analyze.BFaster || c.PValue == nil || math.Abs(*c.PValue-2.0/252) > 1e-12 {
		t.Fatalf("rps comparison: verdict %s p %v reasons %v", c.Verdict, c.PValue, c.Reasons)
	}
	if c.CI == nil || c.CI.Hi >= 0.98 || c.Ratio > 0.3 {
		t.Errorf("ratio %v CI %+v", c.Ratio, c.CI)
	}
	if l := comparison(t, v, "lat_mean_ms"); l.Verdict != analyze.BFaster {
		t.Errorf("latency comparison: %s", l.Verdict)
	}
	if h := v.Headline; h.Lead != analyze.LeadComparison || h.Comparison < 0 || v.Comparisons[h.Comparison].Metric != "rps" ||
		v.Comparisons[h.Comparison].Verdict != analyze.BFaster || len(h.Why) != 0 {
		t.Errorf("headline %+v", h)
	}
	if hasFinding(v, analyze.CodeNotInterleaved) || hasFinding(v, analyze.CodeNoReplication) {
		t.Errorf("unexpected findings: %+v", v.Findings)
	}
}

// STATISTICS.md check 5: two runs a side is inconclusive with the
// reason: the exact test's smallest p for 2 against 2 is 2/C(4,2) = 1/3,
// and Welch's t-test needs 3 runs a side (analysis version 6). Three runs
// a side are tested by Welch's t-test on the logs, with a note; here
// (1-3 against 4-6 req/s) its interval reaches back into the band.
func TestThreeRunsInconclusive(t *testing.T) {
	var runs []results.Run
	for i := range 3 {
		runs = append(runs, run("a:80", 2*i, 10, float64(1+i), 1000))
		runs = append(runs, run("b:80", 2*i+1, 10, float64(4+i), 1000))
	}
	v3 := mustAnalyze(t, runs, nil)
	c3 := comparison(t, v3, "rps")
	if c3.Verdict != analyze.Inconclusive || c3.PValue == nil || c3.Estimate == nil || c3.Estimate.Method != stats.MethodWelchLog ||
		!slices.ContainsFunc(c3.Reasons, func(r analyze.Reason) bool { return r.Code == analyze.ReasonWelch && r.Note && r.MinP == 0.1 }) ||
		!slices.ContainsFunc(c3.Reasons, func(r analyze.Reason) bool { return r.Code == analyze.ReasonUnsettled }) {
		t.Errorf("3 vs 3: %s p %v estimate %+v reasons %+v; want inconclusive by Welch, unsettled", c3.Verdict, c3.PValue, c3.Estimate, c3.Reasons)
	}
	v := mustAnalyze(t, runs[:4], nil)
	c := comparison(t, v, "rps")
	want := analyze.Reason{Code: analyze.ReasonTooFewRuns, MinRuns: 4, Alpha: 0.05, ARuns: 2, BRuns: 2, MinP: stats.MinAttainableP(2, 2)}
	if c.Verdict != analyze.Inconclusive || len(c.Reasons) == 0 || !reflect.DeepEqual(c.Reasons[0], want) {
		t.Fatalf("verdict %s reasons %+v", c.Verdict, c.Reasons)
	}
	if h := v.Headline; h.Lead != analyze.LeadComparison || len(h.Why) == 0 || !reflect.DeepEqual(h.Why[0], want) {
		t.Errorf("headline %+v", h)
	}
}

// Same distribution on both sides, runs varying 0.5 %: the Hodges-Lehmann
// ratio's interval lies inside the ±2 % band, so no difference.
func TestSameSystemsNoDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var runs []results.Run
	for i := range 8 {
		runs = append(runs, run("a:80", 2*i, 10, 1000+5*rng.NormFloat64(), 10))
		runs = append(runs, run("b:80", 2*i+1, 10, 1000+5*rng.NormFloat64(), 10))
	}
	v := mustAnalyze(t, runs, nil)
	c := comparison(t, v, "rps")
	if c.Verdict != analyze.NoDifference || c.PValue == nil || len(c.Reasons) != 1 || c.Estimate == nil ||
		c.Reasons[0].Code != analyze.ReasonEquivalent || c.Reasons[0].P != *c.PValue || c.Reasons[0].Lo != c.Estimate.Lo ||
		c.Reasons[0].Hi != c.Estimate.Hi || c.Estimate.Lo < 1/1.02 || c.Estimate.Hi > 1.02 {
		t.Fatalf("verdict %s estimate %+v reasons %+v", c.Verdict, c.Estimate, c.Reasons)
	}
	if h := v.Headline; h.Lead != analyze.LeadComparison || v.Comparisons[h.Comparison].Verdict != analyze.NoDifference {
		t.Errorf("headline %+v", h)
	}
}

// STATISTICS.md check 9: wrk gets coordinated-omission, wrk2 does not.
func TestCoordinatedOmission(t *testing.T) {
	wrk := []results.Run{run("a:80", 0, 10, 1000, 10)}
	if !hasFinding(mustAnalyze(t, wrk, nil), analyze.CodeCoordinatedOmission) {
		t.Error("wrk input lacks coordinated-omission")
	}
	w2 := wrk[0]
	w2.Tool, w2.LoadModel, w2.TargetRPS, w2.LatencyCorrected = "wrk2", results.LoadOpen, results.Ptr(1000.0), results.Ptr(true)
	if hasFinding(mustAnalyze(t, []results.Run{w2}, nil), analyze.CodeCoordinatedOmission) {
		t.Error("wrk2 input got coordinated-omission")
	}
}

// STATISTICS.md check 8 through Analyze.
func TestLittlesLawFinding(t *testing.T) {
	if v := mustAnalyze(t, []results.Run{run("a:80", 0, 100, 2000, 50)}, nil); hasFinding(v, analyze.CodeLittlesLaw) {
		t.Error("c=100, 2000 rps, 50 ms flagged")
	}
	if v := mustAnalyze(t, []results.Run{run("a:80", 0, 100, 2000, 0.5)}, nil); !hasFinding(v, analyze.CodeLittlesLaw) {
		t.Error("c=100, 2000 rps, 0.5 ms not flagged")
	}
}

func TestNotInterleaved(t *testing.T) {
	var runs []results.Run
	for i := range 4 {
		runs = append(runs, run("a:80", i, 10, 1000, 10))
		runs = append(runs, run("b:80", 4+i, 10, 1000, 10))
	}
	v := mustAnalyze(t, runs, nil)
	if !hasFinding(v, analyze.CodeNotInterleaved) {
		t.Errorf("A A A A B B B B not flagged: %+v", v.Findings)
	}
}

// TestInterleavingFromTime: the order runs ran in is their start times
// where every run has one, whatever the order of the inputs; the order
// of the inputs only where some run has none, and the finding says so.
func TestInterleavingFromTime(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name   string
		order  string // the systems in the order they ran (by time)
		timed  bool
		want   bool   // not-interleaved
		first  string // the system that ran first, when want
		source string
	}{
		{"interleaved by time, given in blocks", "ababab", true, false, "", ""},
		{"unequal, interleaved by time", "abbabbab", true, false, "", ""},
		{"blocks by time, b first", "bbbaaa", true, true, "b:80", analyze.OrderStartTime},
		{"blocks by time, a first, 2 and 5", "aabbbbb", true, true, "a:80", analyze.OrderStartTime},
		{"no times: input order", "aaabbb", false, true, "a:80", analyze.OrderArguments},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The inputs: every a first, then every b, each numbered
			// (seq) in that order; the start times say when they ran.
			var as, bs []results.Run
			for i, s := range c.order {
				label := "a:80"
				if s == 'b' {
					label = "b:80"
				}
				r := run(label, 0, 10, 1000, 10)
				if c.timed {
					r.StartedAt = results.Ptr(t0.Add(time.Duration(i) * 70 * time.Second))
				}
				if s == 'a' {
					as = append(as, r)
				} else {
					bs = append(bs, r)
				}
			}
			if !c.timed { // without times, the input order is the order they ran
				as, bs = nil, nil
				for _, s := range c.order {
					label := "a:80"
					if s == 'b' {
						label = "b:80"
					}
					as = append(as, run(label, 0, 10, 1000, 10))
				}
			}
			runs := append(as, bs...)
			for i := range runs {
				runs[i].Seq, runs[i].Index, runs[i].RunID = int32(i), int32(i), results.RunID("test", i)
			}
			v := mustAnalyze(t, runs, nil)
			var got *analyze.NotInterleavedFacts
			for _, f := range v.Findings {
				if f.Code == analyze.CodeNotInterleaved {
					x := f.Facts.(analyze.NotInterleavedFacts)
					got = &x
				}
			}
			switch {
			case c.want && got == nil:
				t.Errorf("not flagged: %+v", v.Findings)
			case !c.want && got != nil:
				t.Errorf("flagged %+v", *got)
			case c.want && (got.First != c.first || got.OrderFrom != c.source):
				t.Errorf("facts %+v, want first %s from %s", *got, c.first, c.source)
			}
		})
	}
}

func TestErrorsFinding(t *testing.T) {
	r := run("a:80", 0, 10, 1000, 10)
	r.Errors, r.ReadErrors = 5000, results.Ptr(int64(5000))
	v := mustAnalyze(t, []results.Run{r}, nil)
	for _, f := range v.Findings {
		if f.Code == analyze.CodeErrors {
			facts, ok := f.Facts.(analyze.ErrorsFacts)
			if f.Severity != analyze.SeverityError || !ok || facts.Errors != 5000 || facts.Read == nil || *facts.Read != 5000 ||
				facts.Connect != nil || len(f.Subject.Runs) != 1 || f.Subject.Runs[0].Seq != 0 {
				t.Errorf("errors finding %+v", f)
			}
			return
		}
	}
	t.Error("no errors finding")
}

// A system measured at eight concurrency levels gets a USL fit, and one
// whose throughput stops growing is saturated.
func TestCapacityUSLAndSaturation(t *testing.T) {
	usl := func(n float64) float64 { return 1000 * n / (1 + 0.05*(n-1) + 0.002*n*(n-1)) }
	var runs []results.Run
	for i, n := range []int32{1, 2, 4, 8, 16, 32, 64, 128} {
		x := usl(float64(n))
		runs = append(runs, run("a:80", i, n, x, 1000*float64(n)/x))
	}
	v := mustAnalyze(t, runs, nil)
	c := v.Systems[0].Capacity
	if c.USL == nil || math.Abs(c.USL.Sigma-0.05) > 1e-3 || math.Abs(c.USL.Kappa-0.002) > 1e-4 || c.USL.NMax != 21 {
		t.Fatalf("USL %+v", c.USL)
	}
	if !c.Saturated || c.SaturatedAt == nil || *c.SaturatedAt != 16 || c.Saturation == nil ||
		c.Saturation.Kind != analyze.SaturationConcurrency || c.Saturation.From.Connections != 16 || c.Saturation.To.Connections != 32 {
		t.Errorf("saturated %v at %v (%+v)", c.Saturated, c.SaturatedAt, c.Saturation)
	}
}

// Thirty runs of which the first ten are slower: warmup across runs, steady
// from the eleventh.
func TestAcrossRunWarmupPELT(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var runs []results.Run
	for i := range 30 {
		rps := 2000.0
		if i < 10 {
			rps = 1500
		}
		runs = append(runs, run("a:80", i, 10, rps+10*rng.NormFloat64(), 5))
	}
	g := mustAnalyze(t, runs, nil).Systems[0].Groups[0]
	if g.Warmup.Class != stats.ClassWarmup || g.Warmup.SteadyFromSeq == nil || *g.Warmup.SteadyFromSeq != 10 {
		t.Fatalf("warmup %+v", g.Warmup)
	}
	if g.Steady.Runs != 20 || g.Steady.RPSCI == nil || math.Abs(*g.Steady.RPSMean-2000) > 10 {
		t.Errorf("steady %+v", g.Steady)
	}
}

// Within a run: 1 s windows whose mean latency falls from 20 ms to 5 ms at
// 12 s give a warmup ending at 12 s.
func TestWithinRunWarmup(t *testing.T) {
	r := run("a:80", 0, 10, 1000, 6)
	r.HasSamples = true
	rng := rand.New(rand.NewPCG(5, 6))
	var series []results.Series
	for i := range 60 {
		lat := 5.0
		if i < 12 {
			lat = 20
		}
		series = append(series, results.Series{RunID: r.RunID, TS: float64(i), WindowS: 1, Requests: 1000, RPS: 1000,
			LatMeanMs: results.Ptr(lat + 0.2*rng.NormFloat64())})
	}
	v := mustAnalyze(t, []results.Run{r}, series)
	w := v.Systems[0].WithinRunWarmup
	if len(w) != 1 || w[0].Class != stats.ClassWarmup || w[0].WarmupEndS == nil || *w[0].WarmupEndS != 12 {
		t.Fatalf("within-run warmup %+v", w)
	}
}

func TestDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var runs []results.Run
	for i := range 12 {
		runs = append(runs, run([]string{"a:80", "b:80"}[i%2], i, 10, 1000+50*rng.NormFloat64(), 10))
	}
	v1, v2 := mustAnalyze(t, runs, nil), mustAnalyze(t, runs, nil)
	if !reflect.DeepEqual(v1, v2) {
		t.Error("two analyses of the same input differ")
	}
}

func TestNoRuns(t *testing.T) {
	if _, err := analyze.Analyze(analyze.Set{Experiment: "x"}, analyze.DefaultOptions()); err == nil {
		t.Error("no error for an empty experiment")
	}
}

// TestDecidableUnequalRuns: what can be decided follows from the exact
// test's smallest attainable p at the sizes held, 2/C(m+n, m): 3 runs of
// A against 8 of B, every B slower, is decided (p = 2/165 = 0.012); so
// are 2 against 10 (2/66), 5 against 3 (2/56) and 4 against 4 (2/70).
// Below the exact test's reach, 3 against 3 (0.1) and 3 against 4
// (2/35) are decided by Welch's t-test on the logs (analysis version 6,
// a note says so); 2 against 4 (1/15), 2 against 7 (2/36) and 1 against
// 12 (2/13) by neither, and their runs needed exceed the runs held.
func TestDecidableUnequalRuns(t *testing.T) {
	const exact, welch, none = "exact", "welch", "none"
	for _, c := range []struct {
		na, nb int
		by     string
	}{{3, 8, exact}, {8, 3, exact}, {2, 10, exact}, {5, 3, exact}, {4, 4, exact}, {3, 3, welch}, {4, 3, welch},
		{2, 4, none}, {2, 7, none}, {1, 12, none}} {
		decided := c.by != none
		var runs []results.Run
		seq := 0
		for i := range max(c.na, c.nb) {
			if i < c.na {
				runs = append(runs, run("a:80", seq, 10, 2000*(1+0.001*float64(i)), 5))
				seq++
			}
			if i < c.nb {
				runs = append(runs, run("b:80", seq, 10, 1500*(1+0.001*float64(i)), 6.6))
				seq++
			}
		}
		v := mustAnalyze(t, runs, nil)
		cmp := comparison(t, v, "rps")
		minP := stats.MinAttainableP(c.na, c.nb)
		// The few runs of a side are no-replication only when they are
		// an obstacle: when nothing could be decided with them.
		if hasFinding(v, analyze.CodeNoReplication) == decided {
			t.Errorf("%d vs %d: no-replication %v, want %v", c.na, c.nb, !decided, !decided)
		}
		switch c.by {
		case none:
			if cmp.Verdict != analyze.Inconclusive || len(cmp.Reasons) == 0 || cmp.Reasons[0].Code != analyze.ReasonTooFewRuns ||
				cmp.Reasons[0].MinP != minP {
				t.Errorf("%d vs %d: %s %+v, want too-few-runs with min p %v", c.na, c.nb, cmp.Verdict, cmp.Reasons, minP)
			}
			if cmp.RunsNeeded == nil || *cmp.RunsNeeded <= min(c.na, c.nb) || *cmp.RunsNeeded < max(c.na, c.nb) {
				t.Errorf("%d vs %d: runs needed %v, want above the runs held", c.na, c.nb, cmp.RunsNeeded)
			}
		case exact:
			if cmp.Verdict != analyze.AFaster || cmp.PValue == nil || math.Abs(*cmp.PValue-minP) > 1e-12 ||
				cmp.ARuns != c.na || cmp.BRuns != c.nb || cmp.MinP != minP || cmp.Estimate.Method != stats.MethodHodgesLehmann {
				t.Errorf("%d vs %d: %s p %v runs %d/%d %+v, want a-faster at p = %v", c.na, c.nb, cmp.Verdict, cmp.PValue, cmp.ARuns, cmp.BRuns, cmp.Reasons, minP)
			}
		case welch:
			if cmp.Verdict != analyze.AFaster || cmp.PValue == nil || !(*cmp.PValue < 0.05) || cmp.ARuns != c.na || cmp.BRuns != c.nb ||
				cmp.MinP != minP || cmp.Estimate.Method != stats.MethodWelchLog ||
				!slices.ContainsFunc(cmp.Reasons, func(r analyze.Reason) bool { return r.Code == analyze.ReasonWelch && r.Note }) {
				t.Errorf("%d vs %d: %s p %v runs %d/%d %+v, want a-faster by Welch", c.na, c.nb, cmp.Verdict, cmp.PValue, cmp.ARuns, cmp.BRuns, cmp.Reasons)
			}
		}
		if cmp.RunsNeeded != nil && *cmp.RunsNeeded < max(c.na, c.nb) {
			t.Errorf("%d vs %d: runs needed %d below the runs held", c.na, c.nb, *cmp.RunsNeeded)
		}
	}
}
