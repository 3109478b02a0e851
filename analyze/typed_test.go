package analyze_test

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// The Verdict carries codes and figures: these tests check them where the
// old tests compared sentences (the sentences are tested in report).

func TestAcrossRunBasis(t *testing.T) {
	seq := func(rps ...float64) []results.Run {
		var runs []results.Run
		for i, x := range rps {
			runs = append(runs, run("a:80", i, 10, x, 10))
		}
		return runs
	}
	flat30 := make([]float64, 30)
	for i := range flat30 {
		flat30[i] = 1000 + float64(i%3)
	}
	cases := []struct {
		name   string
		runs   []results.Run
		class  stats.Class
		method string
		basis  analyze.Basis
		change *float64
	}{
		{"one run", seq(1000), stats.ClassInsufficientData, analyze.MethodSingleRun,
			analyze.Basis{Metric: "rps", N: 1}, nil},
		{"two runs, +20 %", seq(1000, 1200), stats.ClassNoSteadyState, analyze.MethodShortSeries,
			analyze.Basis{Metric: "rps", N: 2, BandPct: 3, Improving: true}, results.Ptr(20.0)},
		{"three runs, -1 %", seq(1000, 1000, 990), stats.ClassFlat, analyze.MethodShortSeries,
			analyze.Basis{Metric: "rps", N: 3, BandPct: 3}, results.Ptr(-1.0)},
		{"two zero runs", seq(0, 0), stats.ClassFlat, analyze.MethodShortSeries,
			analyze.Basis{Metric: "rps", N: 2, BandPct: 3, ZeroBase: true}, results.Ptr(0.0)},
		// Analysis version 5: one model of the series (stats.SelectModel)
		// from 5 runs on, instead of the step test and PELT.
		{"six flat runs", seq(1000, 1001, 999, 1000, 1002, 1000), stats.ClassFlat, analyze.MethodModel,
			analyze.Basis{Metric: "rps", N: 6, Segments: 1, Shape: stats.ShapeFlat, ThresholdPct: 5}, results.Ptr(100 * (1000.0 - 1002) / 1002)},
		{"thirty flat runs", seq(flat30...), stats.ClassFlat, analyze.MethodModelMSER,
			analyze.Basis{Metric: "rps", N: 30, Segments: 1, Shape: stats.ShapeFlat, ThresholdPct: 5, MSER: &analyze.MSERCut{Truncate: 0}}, results.Ptr(100 * (flat30[29] - flat30[28]) / flat30[28])},
	}
	for _, c := range cases {
		w := mustAnalyze(t, c.runs, nil).Systems[0].Groups[0].Warmup
		if w.Class != c.class || w.Method != c.method || !reflect.DeepEqual(w.Basis, c.basis) {
			t.Errorf("%s: %s %s %+v, want %s %s %+v", c.name, w.Class, w.Method, w.Basis, c.class, c.method, c.basis)
		}
		if (w.ChangePct == nil) != (c.change == nil) || c.change != nil && math.Abs(*w.ChangePct-*c.change) > 1e-9 {
			t.Errorf("%s: change %v, want %v", c.name, w.ChangePct, c.change)
		}
	}
}

// A failed classification is recorded in the basis and as a typed warning.
func TestWarningsTyped(t *testing.T) {
	v := mustAnalyze(t, []results.Run{run("z:80", 0, 10, 0, 10), run("z:80", 1, 10, 5, 10)}, nil)
	w := v.Systems[0].Groups[0].Warmup
	if w.Class != stats.ClassInsufficientData || !errors.Is(w.Basis.Err, stats.ErrZeroBase) {
		t.Errorf("warmup %+v", w)
	}
	if len(v.Warnings) != 1 || v.Warnings[0].Code != analyze.WarnAcrossRunWarmup || v.Warnings[0].System != "z:80" ||
		v.Warnings[0].Settings == nil || !v.Warnings[0].Settings.Equal(v.Systems[0].Groups[0].Settings) ||
		!errors.Is(v.Warnings[0].Err, stats.ErrZeroBase) {
		t.Errorf("warnings %+v", v.Warnings)
	}
}

func TestWithinRunBasis(t *testing.T) {
	r := run("a:80", 0, 10, 1000, 6)
	series := func(n int, f func(i int) float64) []results.Series {
		var s []results.Series
		for i := range n {
			s = append(s, results.Series{RunID: r.RunID, TS: float64(i), WindowS: 1, Requests: 1000, RPS: 1000, LatMeanMs: results.Ptr(f(i))})
		}
		return s
	}
	step := func(i int) float64 {
		if i < 12 {
			return 20 + 0.1*float64(i%3)
		}
		return 5 + 0.1*float64(i%3)
	}
	cases := []struct {
		name   string
		series []results.Series
		class  stats.Class
		basis  analyze.Basis
		warn   bool
	}{
		{"five windows", series(5, step), stats.ClassInsufficientData, analyze.Basis{Metric: "lat_mean_ms", N: 5, MinN: 10}, false},
		{"warm-up at 12 s", series(60, step), stats.ClassWarmup,
			analyze.Basis{Metric: "lat_mean_ms", N: 60, Segments: 2, Shape: stats.ShapeSteps, ThresholdPct: 5, MSER: &analyze.MSERCut{Truncate: 15}}, false},
		{"infinite", series(30, func(int) float64 { return math.Inf(1) }), stats.ClassInsufficientData,
			analyze.Basis{Metric: "lat_mean_ms", N: 30, Err: stats.ErrNotFinite}, true},
	}
	for _, c := range cases {
		v := mustAnalyze(t, []results.Run{r}, c.series)
		rw := v.Systems[0].WithinRunWarmup[0]
		if rw.Class != c.class || rw.Method != analyze.MethodModelMSER || !reflect.DeepEqual(rw.Basis, c.basis) {
			t.Errorf("%s: %s %s %+v, want %s %+v", c.name, rw.Class, rw.Method, rw.Basis, c.class, c.basis)
		}
		if got := len(v.Warnings) == 1 && v.Warnings[0].Code == analyze.WarnWithinRunWarmup && v.Warnings[0].RunID == r.RunID; got != c.warn {
			t.Errorf("%s: warnings %+v", c.name, v.Warnings)
		}
		g := v.Systems[0].Groups[0]
		if g.WithinRun == nil || g.WithinRun.Method != analyze.MethodPerRun ||
			!reflect.DeepEqual(g.WithinRun.Basis, analyze.Basis{Counts: []stats.ClassCount{{Class: c.class, N: 1}}}) {
			t.Errorf("%s: group within-run %+v", c.name, g.WithinRun)
		}
	}
}

// An open-model group that achieves 70 % of its rate is saturated, and the
// overload finding carries the evidence.
func TestOpenShortfallTyped(t *testing.T) {
	var runs []results.Run
	for i := range 3 {
		r := run("o:80", i, 50, 700, 20)
		r.Tool, r.LoadModel, r.TargetRPS = "wrk2", results.LoadOpen, results.Ptr(1000.0)
		runs = append(runs, r)
	}
	v := mustAnalyze(t, runs, nil)
	want := analyze.Saturation{Kind: analyze.SaturationOpenShortfall, TargetRPS: 1000, RPS: 700}
	c := v.Systems[0].Capacity
	if !c.Saturated || c.Saturation == nil || !reflect.DeepEqual(*c.Saturation, want) || c.SaturatedAt == nil || *c.SaturatedAt != 50 {
		t.Fatalf("capacity %+v", c)
	}
	f := finding(t, v, analyze.CodeOverload)
	if f.Severity != analyze.SeverityError || !reflect.DeepEqual(f.Facts, analyze.OverloadFacts{TargetRPS: 1000, RPS: 700, ErrorRate: results.Ptr(0.0)}) ||
		!reflect.DeepEqual(f.Subject, analyze.Subject{Systems: []string{"o:80"}, Settings: &v.Systems[0].Groups[0].Settings}) {
		t.Errorf("finding %+v", f)
	}
	if hasFinding(v, analyze.CodeSaturated) {
		t.Errorf("open-model shortfall is overload, not saturated: %+v", v.Findings)
	}
}

func finding(t *testing.T, v *analyze.Verdict, code analyze.Code) analyze.Finding {
	t.Helper()
	for _, f := range v.Findings {
		if f.Code == code {
			return f
		}
	}
	t.Fatalf("no %s finding in %+v", code, v.Findings)
	return analyze.Finding{}
}

// Every finding code with its subject and facts.
func TestFindingsTyped(t *testing.T) {
	// Four runs of a (seq 0-3) before four of b (seq 4-7), 20 s each, on
	// loopback; b is measured at another path, a's last run has errors
	// and a long tail, b's Little's-law ratio is off.
	var runs []results.Run
	for i := range 8 {
		r := run("a:80", i, 10, 1000, 10)
		r.DurationS, r.Target = 20, "http://127.0.0.1:80/x"
		if i >= 4 {
			r = run("b:80", i, 10, 1000, 5)
			r.DurationS, r.Target = 25, "http://localhost:81/y"
		}
		runs = append(runs, r)
	}
	runs[3].Errors, runs[3].Timeouts, runs[3].Requests = 30, results.Ptr(int64(30)), 1000
	runs[3].LatMaxMs = results.Ptr(200.0)
	v := mustAnalyze(t, runs, nil)
	ref := func(i int) analyze.RunRef {
		return analyze.RunRef{RunID: runs[i].RunID, Seq: runs[i].Seq, Label: runs[i].Label}
	}
	settings := v.Systems[0].Groups[0].Settings
	want := []analyze.Finding{
		{analyze.SeverityError, analyze.CodeErrors, analyze.Subject{Systems: []string{"a:80"}, Runs: []analyze.RunRef{ref(3)}},
			analyze.ErrorsFacts{Errors: 30, Attempted: 1000, Rate: 0.03, Timeouts: results.Ptr(int64(30))}},
		{analyze.SeverityWarning, analyze.CodeCoordinatedOmission, analyze.Subject{Tool: "wrk",
			Runs: []analyze.RunRef{ref(0), ref(1), ref(2), ref(3), ref(4), ref(5), ref(6), ref(7)}}, nil},
		{analyze.SeverityWarning, analyze.CodeNotInterleaved, analyze.Subject{Systems: []string{"a:80", "b:80"}, Settings: &settings},
			analyze.NotInterleavedFacts{First: "a:80", Second: "b:80", OrderFrom: analyze.OrderArguments}},
		{analyze.SeverityWarning, analyze.CodeSameHost, analyze.Subject{Systems: []string{"a:80", "b:80"}}, nil},
		{analyze.SeverityWarning, analyze.CodeShortRun, analyze.Subject{Runs: []analyze.RunRef{ref(0), ref(1), ref(2), ref(3), ref(4), ref(5), ref(6), ref(7)}},
			analyze.ShortRunFacts{Runs: 8, MinS: 20, MaxS: 25, ThresholdS: 30}},
		{analyze.SeverityWarning, analyze.CodeTargetsDiffer, analyze.Subject{Systems: []string{"a:80", "b:80"}},
			analyze.TargetsDifferFacts{PathsA: []string{"/x"}, PathsB: []string{"/y"}}},
		{analyze.SeverityInfo, analyze.CodeLittlesLaw, analyze.Subject{Systems: []string{"b:80"}, Runs: []analyze.RunRef{ref(4), ref(5), ref(6), ref(7)}},
			analyze.LittlesLawFacts{Ratios: []float64{0.5, 0.5, 0.5, 0.5}}},
		{analyze.SeverityInfo, analyze.CodeLongTail, analyze.Subject{Systems: []string{"a:80"}, Runs: []analyze.RunRef{ref(3)}},
			analyze.LongTailFacts{MaxMs: 200, MeanMs: 10}},
	}
	if !reflect.DeepEqual(v.Findings, want) {
		t.Errorf("findings:\n%+v\nwant\n%+v", v.Findings, want)
	}
}

// no-replication and still-warming (across and within runs).
func TestFindingsReplicationWarming(t *testing.T) {
	r0, r1 := run("a:80", 0, 10, 1000, 10), run("a:80", 1, 10, 1300, 10)
	var series []results.Series
	for _, r := range []results.Run{r0, r1} {
		for i := range 60 {
			// Still improving at the end (analysis version 5: a run
			// still getting worse at its end is slowing down, not
			// still warming).
			lat := 5.0 + 0.1*float64(i%3)
			if i >= 55 {
				lat = 1.5
			}
			series = append(series, results.Series{RunID: r.RunID, TS: float64(i), WindowS: 1, Requests: 100, RPS: 100, LatMeanMs: results.Ptr(lat)})
		}
	}
	v := mustAnalyze(t, []results.Run{r0, r1}, series)
	settings := v.Systems[0].Groups[0].Settings
	var warming []analyze.Finding
	for _, f := range v.Findings {
		if f.Code == analyze.CodeStillWarming {
			warming = append(warming, f)
		}
	}
	want := []analyze.Finding{
		{analyze.SeverityWarning, analyze.CodeStillWarming, analyze.Subject{Systems: []string{"a:80"}, Settings: &settings},
			analyze.StillWarmingFacts{ChangePct: results.Ptr(30.0), FromSeq: 0, ToSeq: 1}},
		{analyze.SeverityWarning, analyze.CodeStillWarming, analyze.Subject{Systems: []string{"a:80"}, Settings: &settings, WithinRuns: true},
			analyze.StillWarmingFacts{Counts: []stats.ClassCount{{Class: stats.ClassNoSteadyState, N: 2}}}},
	}
	if !reflect.DeepEqual(warming, want) {
		t.Errorf("still-warming:\n%+v\nwant\n%+v", warming, want)
	}
	f := finding(t, v, analyze.CodeNoReplication)
	if !reflect.DeepEqual(f.Subject, analyze.Subject{Groups: []analyze.GroupRef{{Label: "a:80", Settings: settings, Runs: 2}}}) ||
		!reflect.DeepEqual(f.Facts, analyze.NoReplicationFacts{MinRuns: 4}) {
		t.Errorf("no-replication %+v", f)
	}
}

// The headline of an inconclusive comparison names its obstacles.
func TestHeadlineWhy(t *testing.T) {
	runs := []results.Run{run("a:80", 0, 10, 1000, 10), run("b:80", 1, 10, 2000, 5), run("b:80", 2, 10, 3000, 5)}
	v := mustAnalyze(t, runs, nil)
	h := v.Headline
	want := []analyze.Reason{
		{Code: analyze.ReasonTooFewRuns, MinRuns: 4, Alpha: 0.05, ARuns: 1, BRuns: 2, MinP: stats.MinAttainableP(1, 2)},
		{Code: analyze.ReasonSingleRun, System: "a:80"},
		{Code: analyze.ReasonNotSteady, System: "b:80", Class: stats.ClassNoSteadyState, ChangePct: v.Systems[1].Groups[0].Warmup.ChangePct},
	}
	if h.Lead != analyze.LeadComparison || v.Comparisons[h.Comparison].Metric != "rps" || !reflect.DeepEqual(h.Why, want) {
		t.Errorf("headline %+v, want why %+v", h, want)
	}
	if p := v.Systems[1].Groups[0].Warmup.ChangePct; p == nil || math.Abs(*p-50) > 1e-9 {
		t.Errorf("change %v, want +50 %%", p)
	}
	one := mustAnalyze(t, runs[:1], nil).Headline
	if one.Lead != analyze.LeadSystem || one.System != 0 || one.Comparison != -1 {
		t.Errorf("one system: %+v", one)
	}
	none := mustAnalyze(t, []results.Run{run("a:80", 0, 10, 1, 1), run("b:80", 1, 20, 1, 1)}, nil).Headline
	if none.Lead != analyze.LeadNoComparison || none.System != -1 || none.Comparison != -1 {
		t.Errorf("no comparison: %+v", none)
	}
}

// Closed-model tails carry a note, which does not by itself make a
// comparison inconclusive.
func TestReasonNote(t *testing.T) {
	var runs []results.Run
	for i := range 5 {
		a, b := run("a:80", 2*i, 10, 1000+float64(i), 10), run("b:80", 2*i+1, 10, 3000+float64(i), 3)
		runs = append(runs, a, b)
	}
	c := comparison(t, mustAnalyze(t, runs, nil), "lat_max_ms")
	if c.Verdict != analyze.BFaster || len(c.Reasons) != 1 || !reflect.DeepEqual(c.Reasons[0], analyze.Reason{Code: analyze.ReasonClosedModelTails, Note: true}) {
		t.Errorf("verdict %s reasons %+v", c.Verdict, c.Reasons)
	}
}

// A run that lasted its planned duration within rounding (29.999 s of
// 30 s) is not short; one clearly under the threshold is.
func TestShortRunRounding(t *testing.T) {
	for _, c := range []struct {
		durs  []float64
		short int // runs flagged, 0: no finding
	}{
		{[]float64{29.999, 30.001, 29.9995}, 0},
		{[]float64{29.8, 30, 30}, 0},
		{[]float64{29.999, 20, 30}, 1},
		{[]float64{10, 12, 29}, 3},
		{[]float64{60, 60, 60}, 0},
	} {
		var runs []results.Run
		for i, d := range c.durs {
			r := run("a:80", i, 10, 1000, 10)
			r.DurationS = d
			runs = append(runs, r)
		}
		v := mustAnalyze(t, runs, nil)
		got := 0
		for _, f := range v.Findings {
			if f.Code == analyze.CodeShortRun {
				got = len(f.Subject.Runs)
			}
		}
		if got != c.short {
			t.Errorf("durations %v: %d short runs, want %d", c.durs, got, c.short)
		}
	}
}
