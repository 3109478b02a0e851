package report

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

func TestReasonText(t *testing.T) {
	cases := []struct {
		r    analyze.Reason
		want string
	}{
		{analyze.Reason{Code: analyze.ReasonTooFewRuns, MinRuns: 4, Alpha: 0.05, ARuns: 3, BRuns: 3, MinP: 0.1},
			"3 vs 3 runs cannot show a difference at alpha 0.05: the exact test's smallest attainable p is 2/C(6,3) = 0.1"},
		{analyze.Reason{Code: analyze.ReasonSingleRun, System: "a:80"}, "a:80: a single run cannot show a steady state"},
		{analyze.Reason{Code: analyze.ReasonNotSteady, System: "a:80", Class: stats.ClassNoSteadyState, ChangePct: results.Ptr(20.34)},
			"a:80 not steady (+20.3 % between its last two runs)"},
		{analyze.Reason{Code: analyze.ReasonNotSteady, System: "a:80", Class: stats.ClassSlowdown}, "a:80 not steady: slowing down"},
		{analyze.Reason{Code: analyze.ReasonInconsistent, System: "b:80"}, "b:80: runs behave inconsistently"},
		{analyze.Reason{Code: analyze.ReasonFewSteadyRuns, System: "b:80", SteadyRuns: 2}, "b:80: only 2 steady runs after warm-up"},
		{analyze.Reason{Code: analyze.ReasonMetricMissing, Metric: "lat_p99_ms"}, "not every steady run reports lat_p99_ms"},
		{analyze.Reason{Code: analyze.ReasonClosedModelTails, Note: true}, "note: closed-model tails are lower bounds (coordinated omission)"},
		{analyze.Reason{Code: analyze.ReasonTestFailed, Err: stats.ErrEmpty}, "the test could not be computed: no observations"},
		{analyze.Reason{Code: analyze.ReasonInsideBand, P: 2.0 / 252, Level: 0.95, Band: 0.02},
			"significant (p = 0.00794) but the 95 % CI of the ratio reaches into the ±2 % practical band"},
		{analyze.Reason{Code: analyze.ReasonNotSignificant, P: 0.4421, Alpha: 0.05}, "p = 0.442 >= alpha 0.05"},
		{analyze.Reason{Code: analyze.ReasonEquivalent, P: 0.959, Level: 0.95, Band: 0.02, Lo: 0.99599, Hi: 1.00365},
			"the 95 % CI of the Hodges-Lehmann ratio, 0.996-1.004, lies inside the ±2 % practical band (p = 0.959)"},
		{analyze.Reason{Code: analyze.ReasonUnsettled, P: 0.699, Level: 0.95, Band: 0.02, Lo: 0.9538, Hi: 1.0337, RunsNeeded: 57},
			"runs vary too much: the 95 % CI of the Hodges-Lehmann ratio, 0.95-1.03, reaches across the edge of the ±2 % practical band (p = 0.699); about 57 runs per side would settle it"},
		// Significant, on one side of 1, its size unsettled (ab/017 of the
		// conformance grid): a difference is shown, not "runs vary too much".
		{analyze.Reason{Code: analyze.ReasonUnsettled, P: 0.00564, Alpha: 0.05, Level: 0.95, Band: 0.02, Lo: 0.9623, Hi: 0.9966, RunsNeeded: 147, Significant: true},
			"a difference significant at p = 0.00564, but not shown to pass the ±2 % practical band: the 95 % CI of the Hodges-Lehmann ratio, 0.962-0.997, reaches into it; about 147 runs per side would settle it"},
		// Its bound near 1 keeps the figures that say which side: 1.003, not 1.00.
		{analyze.Reason{Code: analyze.ReasonUnsettled, P: 0.00564, Alpha: 0.05, Level: 0.95, Band: 0.02, Lo: 1.0034, Hi: 1.0391, Significant: true},
			"a difference significant at p = 0.00564, but not shown to pass the ±2 % practical band: the 95 % CI of the Hodges-Lehmann ratio, 1.003-1.039, reaches into it"},
		// Significant but across 1 (Welch's p and the Hodges-Lehmann
		// interval can disagree; analyze leaves Significant unset): runs
		// vary too much.
		{analyze.Reason{Code: analyze.ReasonUnsettled, P: 0.04, Alpha: 0.05, Level: 0.95, Band: 0.02, Lo: 0.99, Hi: 1.05},
			"runs vary too much: the 95 % CI of the Hodges-Lehmann ratio, 0.99-1.05, reaches across the edge of the ±2 % practical band (p = 0.04)"},
	}
	for _, c := range cases {
		if got := reasonLine(c.r); got != c.want {
			t.Errorf("%s: %q, want %q", c.r.Code, got, c.want)
		}
	}
	rs := []analyze.Reason{cases[0].r, cases[7].r}
	if got := reasonLines(rs, true); len(got) != 1 || got[0] != cases[0].want {
		t.Errorf("deciding reasons %q", got)
	}
	if got := reasonLines(nil, false); got == nil || len(got) != 0 {
		t.Errorf("no reasons: %#v, want an empty list (summary.json writes [])", got)
	}
}

func TestBasisText(t *testing.T) {
	change := func(x float64) *float64 { return &x }
	cases := []struct {
		name string
		w    analyze.Warmup
		want string
	}{
		{"single", analyze.Warmup{Method: analyze.MethodSingleRun, Basis: analyze.Basis{Metric: "rps", N: 1}},
			"one run: whether it had warmed up cannot be told"},
		{"improving", analyze.Warmup{Method: analyze.MethodShortSeries, ChangePct: change(20.3),
			Basis: analyze.Basis{Metric: "rps", N: 2, BandPct: 3, Improving: true}},
			"throughput: improving by 20.3 % between the last two runs (noise band ±3 %): still warming up"},
		{"worsening", analyze.Warmup{Method: analyze.MethodShortSeries, ChangePct: change(-10),
			Basis: analyze.Basis{Metric: "rps", N: 2, BandPct: 3}},
			"throughput: worsening by 10 % between the last two runs (noise band ±3 %): getting slower"},
		{"inside", analyze.Warmup{Method: analyze.MethodShortSeries, ChangePct: change(-0.1),
			Basis: analyze.Basis{Metric: "rps", N: 2, BandPct: 3}},
			"throughput: last two runs differ by -0.1 %, inside the ±3 % noise band"},
		{"zero", analyze.Warmup{Method: analyze.MethodShortSeries, ChangePct: change(0),
			Basis: analyze.Basis{Metric: "rps", N: 2, BandPct: 3, ZeroBase: true}},
			"throughput: no change between the last two runs"},
		{"failed", analyze.Warmup{Method: analyze.MethodShortSeries, Basis: analyze.Basis{Metric: "rps", N: 2, Err: stats.ErrZeroBase}},
			"the relative change from 0 is undefined"},
		{"pelt", analyze.Warmup{Method: analyze.MethodPELT, Basis: analyze.Basis{Metric: "rps", N: 6, Segments: 1}},
			"throughput of 6 runs: 1 segment(s)"},
		{"pelt mser", analyze.Warmup{Method: analyze.MethodPELTMSER, Basis: analyze.Basis{Metric: "rps", N: 30, Segments: 2,
			MSER: &analyze.MSERCut{Truncate: 10}}}, "throughput of 30 runs: 2 segment(s); MSER-5 truncates the first 10 runs"},
		{"pelt mser more", analyze.Warmup{Method: analyze.MethodPELTMSER, Basis: analyze.Basis{Metric: "rps", N: 30, Segments: 3,
			MSER: &analyze.MSERCut{Truncate: 15, NeedsMoreData: true}}}, "throughput of 30 runs: 3 segment(s); MSER-5 says more runs are needed"},
		{"per run", analyze.Warmup{Method: analyze.MethodPerRun, Basis: analyze.Basis{Counts: []stats.ClassCount{{Class: "flat", N: 1}, {Class: "warmup", N: 2}}}},
			"1 flat, 2 warmup"},
		{"per run, none", analyze.Warmup{Method: analyze.MethodPerRun}, "no runs"},
	}
	for _, c := range cases {
		if got := warmupDetail(c.w); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	runs := []struct {
		name string
		b    analyze.Basis
		want string
	}{
		{"too few", analyze.Basis{Metric: "lat_mean_ms", N: 5, MinN: 10}, "5 windows with requests, need 10"},
		{"segments", analyze.Basis{Metric: "lat_mean_ms", N: 60, Segments: 2, MSER: &analyze.MSERCut{Truncate: 15}}, "mean latency per window: 2 segment(s)"},
		{"mser more", analyze.Basis{Metric: "lat_mean_ms", N: 60, Segments: 3, MSER: &analyze.MSERCut{Truncate: 30, NeedsMoreData: true}},
			"mean latency per window: 3 segment(s); MSER-5: needs more data"},
		{"failed", analyze.Basis{Metric: "lat_mean_ms", N: 30, Err: stats.ErrNotFinite, MSER: &analyze.MSERCut{NeedsMoreData: true}},
			"the values include NaN or infinity; MSER-5: needs more data"},
	}
	for _, c := range runs {
		if got := runWarmupDetail(analyze.RunWarmup{Method: analyze.MethodWithinRun, Basis: c.b}); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSaturationText(t *testing.T) {
	lat := func(x float64) *float64 { return &x }
	cases := []struct {
		s    *analyze.Saturation
		want string
	}{
		{&analyze.Saturation{Kind: analyze.SaturationConcurrency, From: analyze.Level{Connections: 50, RPS: 1604.711, LatMeanMs: lat(24.5249)},
			To: analyze.Level{Connections: 100, RPS: 1618.2, LatMeanMs: lat(42.1249)}},
			"from 50 to 100 connections throughput changed +0.841 % (1605 -> 1618 req/s) while mean latency rose +71.8 % (24.52 -> 42.12 ms)"},
		{&analyze.Saturation{Kind: analyze.SaturationOpenShortfall, TargetRPS: 1000, RPS: 701.004}, "at a requested 1000 req/s it achieved 701 successful responses per second (70.1 %)"},
		{nil, ""},
	}
	for _, c := range cases {
		if got := saturationText(c.s); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}

func TestWarningAndErrorText(t *testing.T) {
	conns := int32(10)
	s := analyze.Settings{Tool: "wrk", Connections: &conns}
	cases := []struct {
		w    analyze.Warning
		want string
	}{
		{analyze.Warning{Code: analyze.WarnAcrossRunWarmup, System: "a:80", Settings: &s, Err: stats.ErrZeroBase},
			"10 connections, wrk: the relative change from 0 is undefined"},
		{analyze.Warning{Code: analyze.WarnWithinRunWarmup, RunID: "abc", Err: stats.ErrNotFinite}, "run abc: the values include NaN or infinity"},
		{analyze.Warning{Code: analyze.WarnUSLFit, System: "a:80", Err: fmt.Errorf("%w: %w", stats.ErrNoConvergence, errors.New("optimize: boom"))},
			"a:80: USL fit failed: the fit did not converge"},
	}
	for _, c := range cases {
		if got := warningText(c.w); got != c.want {
			t.Errorf("%s: %q, want %q", c.w.Code, got, c.want)
		}
	}
	_, _, err := stats.MSER5(make([]float64, 7))
	for _, c := range []struct {
		err  error
		want string
	}{
		{err, "too few observations: MSER needs at least 20, has 7"},
		{stats.ErrEmpty, "no observations"},
		{fmt.Errorf("%w: level 2", stats.ErrParameter), "a parameter is out of range"},
		{errors.New("other"), "other"},
	} {
		if got := errorText(c.err); got != c.want {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
	}
}

// Every finding code has a subject, a message and a fix, and the figures
// appear in the words.
func TestWordFinding(t *testing.T) {
	conns := int32(100)
	s := analyze.Settings{Tool: "wrk", Connections: &conns}
	ref := func(label string, seq int32) analyze.RunRef {
		return analyze.RunRef{RunID: "id", Seq: seq, Label: label}
	}
	two := []analyze.RunRef{ref("a:80", 0), ref("b:80", 1)}
	cases := []struct {
		f       analyze.Finding
		subject string
		has     []string
	}{
		{analyze.Finding{Code: analyze.CodeCoordinatedOmission, Subject: analyze.Subject{Tool: "wrk", Runs: two}}, "wrk (2 runs)",
			[]string{"wrk is a closed-model load generator"}},
		{analyze.Finding{Code: analyze.CodeShortRun, Subject: analyze.Subject{Runs: two}, Facts: analyze.ShortRunFacts{Runs: 6, MinS: 10.01, MaxS: 10.05, ThresholdS: 30}},
			"2 of 6 runs", []string{"2 of 6 runs lasted 10.01-10.05 s (under 30 s)"}},
		{analyze.Finding{Code: analyze.CodeNoReplication, Subject: analyze.Subject{Groups: []analyze.GroupRef{{Label: "a:80", Settings: s, Runs: 1}, {Label: "b:80", Settings: s, Runs: 2}}},
			Facts: analyze.NoReplicationFacts{MinRuns: 4}}, "2 groups",
			[]string{"fewer than 4 runs (1-2)", "a:80 at 100 connections, wrk: 1 run; b:80 at 100 connections, wrk: 2 runs.", "at least 4 times"}},
		{analyze.Finding{Code: analyze.CodeNotInterleaved, Subject: analyze.Subject{Systems: []string{"a:80", "b:80"}, Settings: &s},
			Facts: analyze.NotInterleavedFacts{First: "b:80", Second: "a:80"}}, "a:80 vs b:80 at 100 connections, wrk",
			[]string{"Every run of b:80 at 100 connections, wrk came before every run of a:80"}},
		{analyze.Finding{Code: analyze.CodeStillWarming, Subject: analyze.Subject{Systems: []string{"a:80"}, Settings: &s},
			Facts: analyze.StillWarmingFacts{ChangePct: results.Ptr(20.3), FromSeq: 2, ToSeq: 5}}, "a:80 at 100 connections, wrk",
			[]string{"throughput changed +20.3 % between its last two runs (seq 2 -> 5), outside the noise band."}},
		{analyze.Finding{Code: analyze.CodeStillWarming, Subject: analyze.Subject{Systems: []string{"a:80"}, Settings: &s, WithinRuns: true},
			Facts: analyze.StillWarmingFacts{Counts: []stats.ClassCount{{Class: "no-steady-state", N: 2}}}}, "a:80 at 100 connections, wrk (within runs)",
			[]string{"still changing near the end of its runs (2 no-steady-state)."}},
		{analyze.Finding{Code: analyze.CodeErrors, Subject: analyze.Subject{Systems: []string{"a:80"}, Runs: two[:1]},
			Facts: analyze.ErrorsFacts{Errors: 5000, Attempted: 65000, Rate: 5000.0 / 65000, Read: results.Ptr(int64(5000))}}, "a:80 run seq 0",
			[]string{"a:80 run seq 0 had 5000 errors in 65000 requests attempted (7.69 %): read 5000."}},
		{analyze.Finding{Code: analyze.CodeTargetsDiffer, Subject: analyze.Subject{Systems: []string{"a:80", "b:80"}},
			Facts: analyze.TargetsDifferFacts{PathsA: []string{"/api/test/hello"}, PathsB: []string{"/test/hello"}}}, "a:80 vs b:80",
			[]string{"a:80 was measured at /api/test/hello and b:80 at /test/hello"}},
		{analyze.Finding{Code: analyze.CodeSameHost, Subject: analyze.Subject{Systems: []string{"a:80", "b:80"}}}, "a:80, b:80",
			[]string{"loopback address (a:80, b:80)"}},
		{analyze.Finding{Code: analyze.CodeLittlesLaw, Subject: analyze.Subject{Systems: []string{"b:80"}, Runs: two[1:]},
			Facts: analyze.LittlesLawFacts{Ratios: []float64{0.791}}}, "b:80", []string{"is 0.791 (seq 1), not about 1. Below 0.9", "above 1.1"}},
		{analyze.Finding{Code: analyze.CodeSaturated, Subject: analyze.Subject{Systems: []string{"o:80"}},
			Facts: analyze.SaturatedFacts{At: &conns, Saturation: analyze.Saturation{Kind: analyze.SaturationOpenShortfall, TargetRPS: 1000, RPS: 700}}},
			"o:80", []string{"o:80 is saturated at 100 connections or fewer: at a requested 1000 req/s it achieved 700 successful responses per second (70 %). More load"}},
		{analyze.Finding{Code: analyze.CodeGeneratorBound, Subject: analyze.Subject{Systems: []string{"a:80"}}}, "a:80",
			[]string{"Little's law ratio below 0.9"}},
		{analyze.Finding{Code: analyze.CodeSplitRun, Subject: analyze.Subject{Systems: []string{"a:80"}, Settings: &analyze.Settings{Tool: "vegeta"}, Runs: two},
			Facts: analyze.SplitRunFacts{Sources: []string{"x.bin", "y.bin"}, OverlapPct: 87.5}}, "a:80 at vegeta",
			[]string{"runs 0, 1 come from 2 inputs (x.bin, y.bin) and overlap in time (by at least 87.5 % of the shorter)", "--merge PATH,PATH"}},
		{analyze.Finding{Code: analyze.CodeOverload, Subject: analyze.Subject{Systems: []string{"o:80"}, Settings: &s},
			Facts: analyze.OverloadFacts{TargetRPS: 2000, RPS: 24.76, SentRPS: results.Ptr(1500.0), ErrorRate: results.Ptr(0.987)}}, "o:80",
			[]string{"o:80 was overloaded at 100 connections, wrk: requested 2000 req/s, it answered 24.76 successfully per second (1.24 % of the requested rate), and 98.7 % of the requests failed; the generator itself sent only 1500 req/s."}},
		{analyze.Finding{Code: analyze.CodeLevelShift, Subject: analyze.Subject{Systems: []string{"a:80"}, Settings: &s},
			Facts: analyze.LevelShiftFacts{Metric: "rps", AtSeq: 6, Before: 3544, After: 3145, ChangePct: -11.26}}, "a:80 at 100 connections, wrk",
			[]string{"throughput dropped from 3544 to 3145 req/s (-11.3 %) at run seq 6 and stayed there", "--system NAME=PATH"}},
		{analyze.Finding{Code: analyze.CodeSlowingDown, Subject: analyze.Subject{Systems: []string{"a:80"}, Settings: &s, Runs: two[:1], WithinRuns: true},
			Facts: analyze.SlowingDownFacts{Metric: "lat_mean_ms", Change: 28.82, ChangePct: 60.7, Over: 30}}, "a:80 run seq 0 (within the run)",
			[]string{"mean latency rose by 28.82 ms (+60.7 %) over its last 30 s and never levelled off"}},
		{analyze.Finding{Code: analyze.CodeSlowingDown, Subject: analyze.Subject{Systems: []string{"a:80"}, Settings: &s},
			Facts: analyze.SlowingDownFacts{Metric: "rps", Change: -1100, ChangePct: -55, Over: 12}}, "a:80 at 100 connections, wrk",
			[]string{"throughput kept falling across its 12 runs (-1100 req/s, -55 %)"}},
		{analyze.Finding{Code: analyze.CodePeriodicStalls, Subject: analyze.Subject{Systems: []string{"a:80"}, Runs: two[:1]},
			Facts: analyze.InstabilityFacts{Instability: analyze.Instability{Excursions: 6, Periodic: true, PeriodS: results.Ptr(10.0), ShareTime: 0.2,
				ShareRequests: 0.2, LevelMs: 1.532, StallMeanMs: 570.6, StallPeakMs: 1017, StallS: 2}}}, "a:80 run seq 0",
			[]string{"a:80 run seq 0 stalled periodically: 6 stalls every 10 s, each about 2 s long: mean latency 570.6 ms in them against 1.532 ms otherwise (worst window 1017 ms); 20 % of the time and 20 % of the requests."}},
		{analyze.Finding{Code: analyze.CodePeriodicPauses, Subject: analyze.Subject{Systems: []string{"a:80"}, Runs: two[:1]},
			Facts: analyze.PeriodicPausesFacts{Pauses: 28, Others: 2, PeriodS: 1.06, JitterMs: 3.1, MinMs: 40.2, MedianMs: 55, MaxMs: 76.1, ShareRequests: 0.06, LevelMs: 1.2}},
			"a:80 run seq 0", []string{"a:80 run seq 0 paused periodically: 28 pauses every 1.06 s (their starts 3.1 ms RMS off that rhythm) (and 2 other pauses off that rhythm), each 55 ms long (40.2-76.1 ms), against a median latency of 1.2 ms; 6 % of its successful requests were held by one."}},
		{analyze.Finding{Code: analyze.CodeOutlierRun, Subject: analyze.Subject{Systems: []string{"a:80"}, Settings: &s, Runs: two[:1]},
			Facts: analyze.OutlierRunFacts{OutlierRun: analyze.OutlierRun{Run: two[0], RPS: 1536, Outlier: stats.Outlier{Index: 2, Mean: 3074, SDPct: 9.8,
				DeviationPct: -50.03, T: -6.61, Critical: 5.6, Reference: 5, Alpha: 0.02}}, SteadyRuns: 5}}, "a:80 run seq 0 at 100 connections, wrk",
			[]string{"a:80 run seq 0 at 100 connections, wrk measured 1536 req/s, -50 % (slower) against the geometric mean 3074 req/s of the group's 5 other runs (SD 9.8 %): t = -6.61, beyond the bound 5.6 (the prediction interval of one more run at 2 % over the series)",
				"left out of the group's steady figures (now over 5 runs) and of its warm-up model", "stays in the comparisons, thresholds and error rates"}},
		{analyze.Finding{Code: analyze.CodeUnstable, Subject: analyze.Subject{Systems: []string{"a:80"}, Runs: two[:1]},
			Facts: analyze.InstabilityFacts{Instability: analyze.Instability{Excursions: 3, ShareTime: 0.05, ShareRequests: 0.04, LevelMs: 2, StallMeanMs: 40, StallPeakMs: 50, StallS: 1}}},
			"a:80 run seq 0", []string{"kept leaving its level: 3 stalls at irregular times"}},
		{analyze.Finding{Code: analyze.CodeStall, Subject: analyze.Subject{Systems: []string{"a:80"}, Runs: two[:1]},
			Facts: analyze.InstabilityFacts{Instability: analyze.Instability{Excursions: 1, Stalls: 1, ShareTime: 0.13, ShareRequests: 0.13, LevelMs: 2.62,
				StallMeanMs: 26.9, StallPeakMs: 49.9, StallS: 2, Spans: []analyze.Span{{FromS: 5, ToS: 7}}}}},
			"a:80 run seq 0", []string{"a:80 run seq 0 stalled once, from 5 s to 7 s: mean latency 26.9 ms in that time against 2.62 ms otherwise (worst window 49.9 ms); 13 % of the requests."}},
		{analyze.Finding{Code: analyze.CodeContradictoryRun, Subject: analyze.Subject{Systems: []string{"a:80"}, Runs: two[:1]},
			Facts: analyze.ContradictoryFacts{Contradiction: analyze.Contradiction{MeanMs: 10.12, LoMs: 0, HiMs: 0.8353, LittlesLawRatio: results.Ptr(5.18), Excluded: true}}},
			"a:80 run seq 0", []string{"its mean latency 10.12 ms lies outside the 0-0.8353 ms its own percentiles, minimum and maximum allow; throughput x mean latency / connections is 5.18. It is left out"}},
		{analyze.Finding{Code: analyze.CodeLongTail, Subject: analyze.Subject{Systems: []string{"a:80"}, Runs: two[:1]},
			Facts: analyze.LongTailFacts{MaxMs: 599.09, MeanMs: 33.95}}, "a:80 run seq 0",
			[]string{"max latency 599.1 ms is 17.6x its mean 33.95 ms"}},
	}
	for _, c := range cases {
		w := wordFinding(c.f)
		if w.Subject != c.subject || w.Message == "" || w.Fix == "" {
			t.Errorf("%s: %+v, want subject %q, a message and a fix", c.f.Code, w, c.subject)
		}
		for _, h := range c.has {
			if !strings.Contains(w.Message+" "+w.Fix, h) {
				t.Errorf("%s: %q lacks %q", c.f.Code, w.Message+" "+w.Fix, h)
			}
		}
	}
}

func TestSigFig(t *testing.T) {
	cases := []struct {
		x    float64
		n    int
		want string
	}{
		{116.50997925777772, 4, "116.5"},
		{23.000285266, 4, "23"},
		{1604.711, 4, "1605"},
		{12345.6, 4, "12346"}, // integer digits are kept
		{9999999.4, 4, "9999999"},
		{861917977711348, 4, "8.619e+14"},
		{0.0079365, 3, "0.00794"},
		{2.0 / 252, 3, "0.00794"},
		{99.996, 4, "100"}, // rounding carries into a new digit
		{0.99996, 3, "1"},
		{-0.04, 3, "-0.04"},
		{-0.00001, 3, "-1e-05"},
		{3.1e-11, 3, "3.1e-11"},
		{-0.0000000000001, 4, "-1e-13"},
		{0, 3, "0"},
		{math.Copysign(0, -1), 3, "0"},
		{1, 3, "1"},
		{4.0999, 3, "4.1"},
		{math.NaN(), 3, "-"},
		{math.Inf(-1), 4, "-∞"},
		{math.Inf(1), 3, "∞"},
	}
	for _, c := range cases {
		if got := sigFig(c.x, c.n); got != c.want {
			t.Errorf("sigFig(%v, %d) = %q, want %q", c.x, c.n, got, c.want)
		}
	}
	for _, c := range []struct {
		lo, hi float64
		n      int
		want   string
	}{
		{2.994, 3.0001, 3, "2.99-3.00"},
		{4.04, 4.0999, 3, "4.04-4.10"},
		{10.01, 10.05, 4, "10.01-10.05"},
		{23.000285266, 23.000285266, 4, "23"},
		{0.5, 2.47, 3, "0.50-2.47"},
		{1480.2, 1512.7, 3, "1480-1513"},
		{0, 1, 3, "0.00-1.00"},
		{0.00001, 0.2, 3, "1e-05-0.2"},
		{1, 2e7, 3, "1-2e+07"},
	} {
		if got := sigRange(c.lo, c.hi, c.n); got != c.want {
			t.Errorf("sigRange(%v, %v, %d) = %q, want %q", c.lo, c.hi, c.n, got, c.want)
		}
	}
	for x, want := range map[float64]string{20.34: "+20.3", -0.1: "-0.1", 0: "+0", 0.00004: "+4e-05"} {
		if got := signed(x); got != want {
			t.Errorf("signed(%v) = %q, want %q", x, got, want)
		}
	}
}

// Words for a reader (issue 32): no internal labels, numbers with their
// singular, ratios that round to 1 with the figures that tell them apart.
func TestReaderWords(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{classWords(stats.ClassInsufficientData, "within the run"), "too short within the run to tell a warm-up"},
		{classWords(stats.ClassInsufficientData, "across runs"), "too few runs to tell a warm-up"},
		{classWords(stats.ClassInconsistent, "within its runs"), "uneven within its runs (no one level)"},
		{classWords(stats.ClassNoSteadyState, "within its runs"), "never steady within its runs"},
		{classWords(stats.ClassWarmup, "across runs"), "warming up across runs"},
		{classWords(stats.ClassFlat, "within the run"), "flat within the run"},
		{timesText(1.00021), "1.0002x"},
		{timesText(0.99996), "0.99996x"},
		{timesText(1), "1x"},
		{timesText(1.234), "1.23x"},
		{unitsText(1, "thread"), "1 thread"},
		{unitsText(8, "thread"), "8 threads"},
		{unitsText(0, "connection"), "0 connections"},
		{settingsText(analyze.Settings{Connections: ptr[int32](1), Threads: ptr[int32](1), Tool: "wrk"}), "1 connection, 1 thread, wrk"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
		for _, label := range []string{"insufficient-data", "no-steady-state", "1 threads", "1 connections", "1x the"} {
			if strings.Contains(c.got, label) {
				t.Errorf("%q says %q", c.got, label)
			}
		}
	}
}

// A reason shared by rows is one footnote, whatever its rows' figures:
// the runs that would settle each are gathered after it.
func TestFootnotesOnce(t *testing.T) {
	vary := "runs vary too much"
	welch := "3 vs 3 runs are below the exact test's reach"
	for _, c := range []struct {
		name  string
		rows  []row
		marks []string
		notes []string
	}{
		{"one row", []row{{metric: "p99 latency", notes: []note{{vary, 15}}}}, []string{"(1)"},
			[]string{vary + "; about 15 runs per side would settle it"}},
		{"same need", []row{{metric: "a", notes: []note{{vary, 7}}}, {metric: "b", notes: []note{{vary, 7}}}}, []string{"(1)", "(1)"},
			[]string{vary + "; about 7 runs per side would settle them"}},
		{"needs differ", []row{{metric: "mean latency", notes: []note{{vary, 85}}}, {metric: "p50 latency", notes: []note{{vary, 7}}},
			{metric: "p99 latency", notes: []note{{welch, 0}, {vary, 406}}}}, []string{"(1)", "(1)", "(1,2)"},
			[]string{vary + "; about 85 (mean latency), 7 (p50 latency) and 406 (p99 latency) runs per side would settle them", welch}},
		{"one note on every row", []row{{notes: []note{{welch, 0}}}, {notes: []note{{welch, 0}}}, {notes: []note{{welch, 0}}}, {}},
			[]string{"(1)", "(1)", "(1)", ""}, []string{welch}},
		{"none", []row{{}, {}}, []string{"", ""}, nil},
	} {
		marks, notes := footnotes(c.rows)
		if fmt.Sprint(marks) != fmt.Sprint(c.marks) || fmt.Sprintf("%q", notes) != fmt.Sprintf("%q", c.notes) {
			t.Errorf("%s: marks %q notes %q, want %q %q", c.name, marks, notes, c.marks, c.notes)
		}
	}
}

// "max" over several runs is the median of their maxima: named so, with
// the highest when it is higher; one run's max is its max.
func TestNumbersSentenceMax(t *testing.T) {
	fig := func(x float64) *analyze.Figure { return &analyze.Figure{Value: x, Aggregate: "median-of-runs"} }
	for _, c := range []struct {
		runs          int
		max, highest  float64
		want, notWant string
	}{
		{6, 25.57, 107.24, "median max 25.57, highest max 107.2 ms", "latency p99 30, max"},
		{6, 25.57, 25.57, "median max 25.57 ms", "highest"},
		{1, 25.57, 25.57, "max 25.57 ms", "median max"},
		{3, 25.57, 0, "median max 25.57 ms", "highest"},
	} {
		n := analyze.Numbers{Runs: c.runs, RPS: analyze.Figure{Value: 100, Aggregate: "mean-of-runs"}, LatP99Ms: fig(30), LatMaxMs: fig(c.max)}
		got := numbersSentence(n, c.highest)
		if !strings.Contains(got, c.want) || strings.Contains(got, c.notWant) {
			t.Errorf("%d runs, max %g, highest %g: %q, want %q and no %q", c.runs, c.max, c.highest, got, c.want, c.notWant)
		}
	}
}
