package analyze

import (
	"math"
	"slices"

	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// Comparison verdicts (SCHEMA.md).
const (
	AFaster      = "a-faster"
	BFaster      = "b-faster"
	NoDifference = "no-difference"
	Inconclusive = "inconclusive"
)

// Comparison compares two systems at the same settings on one metric.
type Comparison struct {
	A, B     string
	Settings Settings
	Metric   string // MetricRPS, MetricLatMeanMs, MetricLatP50Ms, MetricLatP99Ms, MetricLatMaxMs
	// HigherIsBetter is true for throughput, false for latency.
	HigherIsBetter bool
	// ARuns and BRuns are the runs the comparison rests on: the runs its
	// test compared when one ran (the steady runs that report Metric, or
	// every run of a side without a steady state), else the runs held
	// (AHeld, BHeld).
	ARuns, BRuns int
	// AHeld and BHeld are the runs of each side's group (contradictory
	// runs are not held: they are in LeftOut); LeftOut are the runs of
	// either side that the test did not use, and why (when no test ran,
	// only the contradictory runs, which no statistic uses).
	AHeld, BHeld int
	LeftOut      []LeftOut
	// Aggregate is how AMean and BMean sum up each side's runs
	// (AggregateOf(Metric)): the mean of the runs' values for
	// throughput and mean latency, their median for percentiles and the
	// maximum, everywhere the metric is shown.
	Aggregate    string
	AMean, BMean float64
	// Ratio is AMean/BMean, and CI the bootstrap interval of the ratio
	// of means over the steady runs (when a test ran and Aggregate is
	// the mean): shown, but not what decides.
	Ratio  float64
	CI     *stats.CI
	PValue *float64
	// MinP is the smallest two-sided p the exact Mann-Whitney test can
	// give for ARuns against BRuns (stats.MinAttainableP): at or above
	// Options.Alpha no data could decide the comparison.
	MinP float64
	// Estimate decides the verdict: the Hodges-Lehmann ratio a/b of the
	// tested runs with its distribution-free interval at Options.Level
	// (stats.HodgesLehmannRatio), which excludes 1 exactly when the
	// Mann-Whitney test rejects, and which one disturbed run cannot flip;
	// below the exact test's reach (MinP >= Alpha, e.g. 3 against 3), the
	// ratio of geometric means with Welch's t-interval
	// (stats.WelchLogRatio; Estimate.Method says which). nil when no test
	// ran.
	Estimate *stats.CI
	Verdict  string
	// Reasons explain the verdict, in order; a comparison with a reason
	// that is not a Note is inconclusive.
	Reasons []Reason
	// RunsNeeded is the runs per side that would settle the comparison
	// at alpha with the configured power: show the estimated ratio
	// outside the practical band, or inside it, from the runs' scatter
	// (see runsNeeded). It is never below the exact test's own minimum
	// (stats.MinRunsFor) nor below the runs either side holds, and above
	// them when the runs held did not settle it. It does not depend on
	// which side is a.
	RunsNeeded *int
	// Deciding is the ratio the verdict rests on, as report words it,
	// set once the comparison is decided (settle).
	Deciding Deciding
	// Leads is true when Metric is the one a comparison at Settings is
	// led with (LeadMetric).
	Leads bool
	// Pair numbers the pair of groups compared (eachPairedGroup): every
	// metric's comparison of A and B at Settings, and their
	// ErrorComparison, have the same.
	Pair int
}

// Deciding is a comparison's deciding ratio and what follows from it,
// each by its one rule (Comparison.DecidingRatio, DecidingCI, WorsePct,
// ratioFrom).
type Deciding struct {
	// Ratio is DecidingRatio, CI its interval (DecidingCI) and WorsePct
	// how much worse side a is (WorsePct).
	Ratio    float64
	CI       *stats.CI
	WorsePct float64
	// FromA and FromB are the comparison seen from either side
	// (ratioFrom).
	FromA, FromB SeenFrom
}

// SeenFrom is a comparison's deciding ratio as one side's value to the
// other's, and its interval (Comparison.ratioFrom).
type SeenFrom struct {
	Ratio float64
	CI    *stats.CI
}

// settle fills the values report words from the comparison's decided
// figures (Deciding, Leads).
func (c *Comparison) settle() {
	c.Deciding = Deciding{Ratio: c.DecidingRatio(), CI: c.DecidingCI(), WorsePct: c.WorsePct()}
	c.Deciding.FromA.Ratio, c.Deciding.FromA.CI = c.ratioFrom(true)
	c.Deciding.FromB.Ratio, c.Deciding.FromB.CI = c.ratioFrom(false)
	c.Leads = c.Metric == LeadMetric(c.Settings)
}

// The aggregates of a metric over runs (Comparison.Aggregate,
// summary.json "aggregate").
const (
	AggregateMean   = "mean-of-runs"
	AggregateMedian = "median-of-runs"
	// AggregatePooled: an error comparison's rates when its runs are
	// pooled (errors over attempted requests of all a side's runs;
	// ErrorTestFisherPooled, ErrorUntestedOverdispersed).
	AggregatePooled = "pooled-over-runs"
)

// AggregateOf returns how a metric's value over several runs is
// aggregated, the same in every comparison, table, headline, threshold
// and history: the mean of the runs' values for throughput, mean latency
// and the error rate, their median for latency percentiles and the
// maximum (a percentile of different runs is never averaged: one stalled
// run would move the mean of p99s by its whole stall).
func AggregateOf(metric string) string {
	switch metric {
	case MetricRPS, MetricLatMeanMs, "error_rate":
		return AggregateMean
	}
	return AggregateMedian
}

// aggregate sums up runs' values of a metric by AggregateOf.
func aggregate(metric string, x []float64) float64 {
	if AggregateOf(metric) == AggregateMedian {
		return stats.Median(x)
	}
	return stats.Mean(x)
}

// The reasons a run is left out of a comparison's test (LeftOut.Why).
const (
	// LeftOutWarmup: before its group's steady state (warm-up, or no
	// steady state at all).
	LeftOutWarmup = "warm-up"
	// LeftOutContradictory: its own latency figures contradict each
	// other (Contradiction).
	LeftOutContradictory = "contradictory"
	// LeftOutMetricMissing: it does not report the compared metric.
	LeftOutMetricMissing = "metric-missing"
)

// LeftOut is a run of a comparison's side that its test did not use.
type LeftOut struct {
	Side string // "a" or "b"
	Run  RunRef
	Why  string // LeftOutWarmup, LeftOutContradictory, LeftOutMetricMissing
}

// ReasonCode says why a comparison has its verdict.
type ReasonCode string

// The reason codes, with the Reason fields each one sets.
const (
	// ReasonTooFewRuns: no test can decide ARuns against BRuns, the runs
	// held, whatever they show: the exact test's smallest attainable p,
	// MinP = 2/C(ARuns+BRuns, ARuns), is at least Alpha, and a side has
	// fewer than WelchMinRuns runs for Welch's t-test (MinRuns is the
	// fewest equal runs per side the exact test needs at Alpha; history:
	// a side below Options.MinRuns).
	ReasonTooFewRuns ReasonCode = "too-few-runs"
	// ReasonSingleRun: one run of System cannot show a steady state.
	ReasonSingleRun ReasonCode = "single-run"
	// ReasonNotSteady: System has no steady state (Class, ChangePct
	// between its last two runs when known). Since analysis version 6 it
	// is a Note when System has several runs: they are all compared
	// (testedRuns), and the comparison says so.
	ReasonNotSteady ReasonCode = "not-steady"
	// ReasonInconsistent: System's runs behave inconsistently.
	ReasonInconsistent ReasonCode = "inconsistent"
	// ReasonFewSteadyRuns: System has only SteadyRuns runs after
	// warm-up: too few for the exact test to reach Alpha against the
	// other side's steady runs (MinP, ARuns, BRuns: the steady runs),
	// and for Welch's t-test (fewer than WelchMinRuns on a side). Since
	// analysis version 6 it is a Note: all of System's runs are compared
	// instead, when they can decide.
	ReasonFewSteadyRuns ReasonCode = "few-steady-runs"
	// ReasonMetricMissing: not every steady run reports Metric.
	ReasonMetricMissing ReasonCode = "metric-missing"
	// ReasonControlMissing: a history with a control (Options.Control):
	// the control (System) has no usable value of Metric in the
	// experiment at the track's settings, so nothing relative to it.
	ReasonControlMissing ReasonCode = "control-missing"
	// ReasonClosedModelTails (a note): tails measured by a closed-model
	// tool are lower bounds (coordinated omission).
	ReasonClosedModelTails ReasonCode = "closed-model-tails"
	// ReasonTestFailed: the test could not be computed (Err).
	ReasonTestFailed ReasonCode = "test-failed"
	// ReasonEquivalent (no-difference): the Level CI [Lo, Hi] of the
	// deciding ratio lies inside the practical band [1/(1+Band), 1+Band];
	// P is the test's p-value.
	ReasonEquivalent ReasonCode = "equivalent"
	// ReasonUnsettled (inconclusive): the Level CI [Lo, Hi] of the
	// deciding ratio reaches across an edge of the practical band: the
	// runs vary too much for a verdict; RunsNeeded per side would settle
	// it. P is the test's p-value.
	ReasonUnsettled ReasonCode = "unsettled"
	// ReasonInsideBand: significant (P) but the Level CI of the ratio
	// reaches into the ±Band practical band. Not produced since analysis
	// version 3 (ReasonUnsettled).
	ReasonInsideBand ReasonCode = "inside-practical-band"
	// ReasonNotSignificant: P >= Alpha. Not produced since analysis
	// version 3 (ReasonUnsettled or ReasonEquivalent).
	ReasonNotSignificant ReasonCode = "not-significant"
	// ReasonWelch (a note): ARuns against BRuns are below the exact
	// Mann-Whitney test's reach (its smallest attainable p, MinP, is at
	// least Alpha), so the comparison was decided by Welch's t-test on
	// the runs' logs (stats.WelchLogRatio), whose p is P and whose
	// interval is the Estimate.
	ReasonWelch ReasonCode = "welch-t"
	// ReasonErrors (history): System's error rate, Rate, is at least
	// Options.ErrorRateSevere, so its values are not used.
	ReasonErrors ReasonCode = "errors"
)

// Reason is one reason for a comparison's verdict: a code and its
// figures (see the codes for which fields each sets).
type Reason struct {
	Code ReasonCode
	// Note marks a reason that explains but does not by itself make the
	// comparison inconclusive.
	Note      bool
	System    string      // the side concerned
	Class     stats.Class // its warm-up class
	ChangePct *float64    // its change between the last two runs, percent
	MinRuns   int         // the fewest runs per side a comparison needs
	ARuns     int         // runs of side a
	BRuns     int         // runs of side b
	// SteadyRuns is the number of runs in System's steady state.
	SteadyRuns int
	Metric     string
	P          float64 // the p-value of the test
	Alpha      float64 // its significance level
	Level      float64 // the confidence level of the ratio's CI
	Band       float64 // the practical band, relative
	// Lo and Hi are the deciding ratio's CI (ReasonEquivalent,
	// ReasonUnsettled), RunsNeeded the runs per side that would settle
	// it (ReasonUnsettled; 0 when unknown).
	Lo, Hi     float64
	RunsNeeded int
	// Significant (ReasonUnsettled) is set when the difference itself is
	// shown, P < Alpha with Lo-Hi on one side of 1, and only its size is
	// not settled: the interval reaches into the practical band.
	Significant bool
	// Method is the method of the deciding interval Lo-Hi
	// (stats.MethodHodgesLehmann, or stats.MethodWelchLog below the
	// exact test's reach).
	Method string
	Rate   float64 // an error rate, a fraction (ReasonErrors)
	// MinP is the smallest p the exact test can give at the sizes
	// concerned (ReasonTooFewRuns, ReasonFewSteadyRuns).
	MinP float64
	Err  error
}

// metric is one compared quantity of a run.
type metric struct {
	name           string
	higherIsBetter bool
	get            func(results.Run) *float64
	rep            func(Rep) *float64
}

var metrics = []metric{
	{MetricRPS, true, func(r results.Run) *float64 { return &r.RPS }, func(r Rep) *float64 { return &r.RPS }},
	{MetricLatMeanMs, false, func(r results.Run) *float64 { return r.LatMeanMs }, func(r Rep) *float64 { return r.LatMeanMs }},
	// The median (p50 of each run): one disturbed run moves a run's mean
	// and tail far more than its median, so a per-request regression that
	// such a run hides from the mean shows here.
	{MetricLatP50Ms, false, func(r results.Run) *float64 { return r.LatP50Ms }, func(r Rep) *float64 { return r.LatP50Ms }},
	{MetricLatP99Ms, false, func(r results.Run) *float64 { return r.LatP99Ms }, func(r Rep) *float64 { return r.LatP99Ms }},
	{MetricLatMaxMs, false, func(r results.Run) *float64 { return r.LatMaxMs }, func(r Rep) *float64 { return r.LatMaxMs }},
}

// pairs returns the pairs of systems to compare: every other system
// against the baseline when there is one, else every pair in the order the
// systems first ran.
func (v *Verdict) pairs() [][2]*System {
	var out [][2]*System
	base := -1
	for i := range v.Systems {
		if v.Options.Baseline != "" && v.Systems[i].Label == v.Options.Baseline {
			base = i
		}
	}
	for i := range v.Systems {
		for j := i + 1; j < len(v.Systems); j++ {
			switch {
			case base < 0:
				out = append(out, [2]*System{&v.Systems[i], &v.Systems[j]})
			case j == base:
				out = append(out, [2]*System{&v.Systems[i], &v.Systems[j]})
			case i == base:
				out = append(out, [2]*System{&v.Systems[j], &v.Systems[i]})
			}
		}
	}
	return out
}

// compare compares every pair of systems in every group of settings they
// share, on throughput and on each latency figure both sides have.
func (v *Verdict) compare() {
	v.eachPairedGroup(func(pair int, a, b string, ga, gb *Group) {
		for _, m := range metrics {
			if c, ok := v.compareMetric(a, b, ga, gb, m); ok {
				c.Pair = pair
				c.settle()
				v.Comparisons = append(v.Comparisons, c)
			}
		}
	})
}

// eachPairedGroup calls f for every pair of systems to compare (pairs)
// and every group of settings the two share, in the order of the pairs
// and their groups, numbered from 0 (pair).
func (v *Verdict) eachPairedGroup(f func(pair int, a, b string, ga, gb *Group)) {
	pair := 0
	for _, p := range v.pairs() {
		a, b := p[0], p[1]
		for gi := range a.Groups {
			for gj := range b.Groups {
				if a.Groups[gi].key() == b.Groups[gj].key() {
					f(pair, a.Label, b.Label, &a.Groups[gi], &b.Groups[gj])
					pair++
				}
			}
		}
	}
}

// compareMetric compares one metric of two groups at equal settings; ok is
// false when a side lacks the metric.
func (v *Verdict) compareMetric(la, lb string, ga, gb *Group, m metric) (Comparison, bool) {
	o := v.Options
	ra, rb := m.rep(ga.Rep), m.rep(gb.Rep)
	if ra == nil || rb == nil || *rb == 0 {
		return Comparison{}, false
	}
	// The latencies of a side whose every request failed are those of its
	// failures: nothing to compare (its throughput, 0, still is).
	if m.name != MetricRPS && (ga.servedNothing() || gb.servedNothing()) {
		return Comparison{}, false
	}
	c := Comparison{A: la, B: lb, Settings: ga.Settings, Metric: m.name, HigherIsBetter: m.higherIsBetter,
		Aggregate: AggregateOf(m.name), AMean: *ra, BMean: *rb, Ratio: *ra / *rb}
	// The runs each side's test uses (testedRuns): its steady runs, or
	// all its runs when it has no steady state.
	sa, notA := testedRuns(ga)
	sb, notB := testedRuns(gb)
	cutA, cutB := widenCuts(o.Alpha, ga, gb, &sa, &sb)
	xa, xb := column(sa, m.get), column(sb, m.get)
	c.AHeld, c.BHeld = len(ga.Runs), len(gb.Runs)
	c.ARuns, c.BRuns = c.AHeld, c.BHeld
	c.MinP = stats.MinAttainableP(c.ARuns, c.BRuns)
	c.LeftOut = append(leftOut("a", ga, sa, xa == nil, m), leftOut("b", gb, sb, xb == nil, m)...)

	// Reasons that make the comparison inconclusive. Whether the runs
	// held can decide anything at alpha is the exact test's to say, and
	// below its reach Welch's (decidable).
	if !decidable(c.AHeld, c.BHeld, o.Alpha) {
		c.Reasons = append(c.Reasons, Reason{Code: ReasonTooFewRuns, MinRuns: stats.MinRunsFor(o.Alpha), Alpha: o.Alpha,
			ARuns: c.AHeld, BRuns: c.BHeld, MinP: c.MinP})
	}
	for _, s := range []testedSide{{la, ga, sa, notA, cutA}, {lb, gb, sb, notB, cutB}} {
		if r, ok := s.reason(o.Alpha); ok {
			c.Reasons = append(c.Reasons, r)
		}
	}
	if m.name != MetricRPS && len(c.Reasons) == 0 && (xa == nil || xb == nil) {
		c.Reasons = append(c.Reasons, Reason{Code: ReasonMetricMissing, Metric: m.name})
	}
	if (m.name == MetricLatP99Ms || m.name == MetricLatMaxMs) && ga.LoadModel == results.LoadClosed {
		c.Reasons = append(c.Reasons, Reason{Code: ReasonClosedModelTails, Note: true})
	}

	if blocked(c.Reasons) {
		c.inconclusive(o, column(ga.Runs, m.get), column(gb.Runs, m.get))
		return c, true
	}
	// Both sides tested with enough runs: test and estimate.
	c.ARuns, c.BRuns = len(xa), len(xb)
	c.MinP = stats.MinAttainableP(c.ARuns, c.BRuns)
	c.test(xa, xb, o)
	return c, true
}

// widenCuts handles a warm-up (or slowdown) cut that leaves too few steady
// runs for any test to reach alpha against the other side: that side's
// runs (*sa or *sb) are all compared instead, and its cut flag is set so
// that a note says so (the cut is chosen from the same few noisy runs;
// leaving the comparison untested would fail a gate closed on the
// classifier's reading of noise). Side a is widened first and side b
// decided with a's widened runs.
func widenCuts(alpha float64, ga, gb *Group, sa, sb *[]results.Run) (cutA, cutB bool) {
	for _, side := range []struct {
		s   *[]results.Run
		g   *Group
		cut *bool
	}{{sa, ga, &cutA}, {sb, gb, &cutB}} {
		if len(*sa) > 0 && len(*sb) > 0 && !decidable(len(*sa), len(*sb), alpha) && decidable(len(ga.Runs), len(gb.Runs), alpha) &&
			len(*side.s) < len(side.g.Runs) {
			*side.s, *side.cut = side.g.Runs, true
		}
	}
	return cutA, cutB
}

// testedSide is one side of a comparison: its label, its group, the runs
// its test uses, whether they are all its runs for want of a steady state
// (not) and whether a cut was widened to all of them (cut).
type testedSide struct {
	label  string
	g      *Group
	tested []results.Run
	not    bool
	cut    bool
}

// reason returns the side's reason, if any, that the comparison is
// inconclusive or needs a note.
func (s testedSide) reason(alpha float64) (Reason, bool) {
	w := s.g.Warmup
	switch {
	case len(s.tested) == 0 && w.Class == stats.ClassInsufficientData:
		return Reason{Code: ReasonSingleRun, System: s.label}, true
	case len(s.tested) == 0:
		return Reason{Code: ReasonNotSteady, System: s.label, Class: w.Class, ChangePct: w.ChangePct}, true
	case w.Class == stats.ClassInconsistent && w.Good != nil && !*w.Good:
		return Reason{Code: ReasonInconsistent, System: s.label}, true
	case s.not:
		// No steady state: every run is compared, and the comparison says
		// so (a note: it does not block the test).
		return Reason{Code: ReasonNotSteady, Note: true, System: s.label, Class: w.Class, ChangePct: w.ChangePct}, true
	case s.cut:
		// Its steady runs were too few to test: all compared (a note).
		return Reason{Code: ReasonFewSteadyRuns, Note: true, System: s.label, SteadyRuns: len(steadyRuns(s.g)), Alpha: alpha}, true
	}
	return Reason{}, false
}

// inconclusive finishes a comparison that is not tested: a side's missing
// steady state is again a reason (no runs were compared), only the runs
// no statistic uses are left out, and the runs needed are estimated from
// all runs (xa, xb) and the representative values.
func (c *Comparison) inconclusive(o Options, xa, xb []float64) {
	for i, r := range c.Reasons {
		if r.Note && (r.Code == ReasonNotSteady || r.Code == ReasonFewSteadyRuns) {
			c.Reasons[i].Note = false
		}
	}
	c.LeftOut = slices.DeleteFunc(c.LeftOut, func(l LeftOut) bool { return l.Why != LeftOutContradictory })
	c.RunsNeeded = runsNeeded(o, xa, xb, c.Ratio, c.AHeld, c.BHeld, true)
	c.Verdict = Inconclusive
}

// testedRuns returns the runs of a group that its comparisons test: its
// steady runs when it has a steady state; else, when it has several runs
// and its class is not insufficient-data, all of them, with notSteady
// set (the comparison then says that the side has no steady state and
// that every run was compared, instead of leaving the comparison
// untested: an untested comparison fails the gate closed, and 4-8 short
// runs on a busy machine are often not steady).
func testedRuns(g *Group) (runs []results.Run, notSteady bool) {
	if sr := steadyRuns(g); len(sr) > 0 {
		return sr, false
	}
	if len(g.Runs) < 2 || g.Warmup.Class == stats.ClassInsufficientData {
		return nil, false
	}
	return g.Runs, true
}

// WelchMinRuns is the fewest runs a side needs for Welch's t-test to
// decide a comparison below the exact Mann-Whitney test's reach: a
// variance from two values is one difference, and one disturbed run
// makes it anything.
const WelchMinRuns = 3

// decidable reports whether m runs against n can decide a comparison at
// alpha: the exact Mann-Whitney test can reach p < alpha
// (stats.MinAttainableP), or, below its reach, both sides have at least
// WelchMinRuns runs for Welch's t-test on the logs.
func decidable(m, n int, alpha float64) bool {
	return stats.MinAttainableP(m, n) < alpha || m >= WelchMinRuns && n >= WelchMinRuns
}

// leftOut lists the runs of a side's group that its test does not use:
// its contradictory runs, the runs before its steady state (steady), and,
// when missing, every steady run for want of the metric.
func leftOut(side string, g *Group, steady []results.Run, missing bool, m metric) []LeftOut {
	var out []LeftOut
	for _, e := range g.Excluded {
		out = append(out, LeftOut{Side: side, Run: e.Run, Why: LeftOutContradictory})
	}
	for _, r := range g.Runs[:len(g.Runs)-len(steady)] {
		out = append(out, LeftOut{Side: side, Run: runRef(r), Why: LeftOutWarmup})
	}
	if missing {
		for _, r := range steady {
			if p := m.get(r); p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) {
				out = append(out, LeftOut{Side: side, Run: runRef(r), Why: LeftOutMetricMissing})
			}
		}
	}
	return out
}

// test decides a comparison from the two sides' run values, the same way
// for every comparison (report, compare, history): the exact Mann-Whitney
// test over runs, the bootstrap CI of the ratio of means, and the
// Hodges-Lehmann ratio with its CI, which decides: a-faster or b-faster
// when p < alpha and its CI clears the practical band, no-difference when
// its CI lies inside the band, inconclusive otherwise (or when a test
// cannot run). It sets PValue, AMean, BMean, Ratio, CI, Estimate,
// RunsNeeded, Verdict and appends to Reasons; c.HigherIsBetter says which
// direction is faster.
func (c *Comparison) test(xa, xb []float64, o Options) {
	if stats.MinAttainableP(len(xa), len(xb)) >= o.Alpha && len(xa) >= WelchMinRuns && len(xb) >= WelchMinRuns {
		c.testWelch(xa, xb, o)
		return
	}
	_, p, err := stats.MannWhitney(xa, xb)
	if err != nil {
		c.Verdict = Inconclusive
		c.Reasons = append(c.Reasons, Reason{Code: ReasonTestFailed, Err: err})
		return
	}
	c.PValue = &p
	if c.Aggregate == "" {
		c.Aggregate = AggregateOf(c.Metric)
	}
	c.ARuns, c.BRuns = len(xa), len(xb)
	c.MinP = stats.MinAttainableP(len(xa), len(xb))
	c.AMean, c.BMean = aggregate(c.Metric, xa), aggregate(c.Metric, xb)
	c.Ratio = c.AMean / c.BMean
	if c.Aggregate == AggregateMean {
		if ci, err := stats.BootstrapRatioCI(xa, xb, o.Resamples, o.Level, o.Seed); err == nil {
			c.CI = &ci
		}
	}
	est, err := stats.HodgesLehmannRatio(xa, xb, o.Level)
	if err != nil {
		c.Verdict = Inconclusive
		c.Reasons = append(c.Reasons, Reason{Code: ReasonTestFailed, Err: err})
		return
	}
	c.Estimate = &est
	c.decide(xa, xb, p, o, true)
}

// testWelch decides a comparison whose sizes are below the exact
// Mann-Whitney test's reach (its smallest attainable p is at least
// alpha, e.g. 3 against 3) by Welch's t-test on the runs' logs
// (stats.WelchLogRatio): its p and its t-interval of the ratio of
// geometric means take the places of the rank test's p and the
// Hodges-Lehmann interval, by the same rule (decide). A note says so.
func (c *Comparison) testWelch(xa, xb []float64, o Options) {
	c.ARuns, c.BRuns = len(xa), len(xb)
	c.MinP = stats.MinAttainableP(len(xa), len(xb))
	if c.Aggregate == "" {
		c.Aggregate = AggregateOf(c.Metric)
	}
	c.AMean, c.BMean = aggregate(c.Metric, xa), aggregate(c.Metric, xb)
	c.Ratio = c.AMean / c.BMean
	if c.Aggregate == AggregateMean {
		if ci, err := stats.BootstrapRatioCI(xa, xb, o.Resamples, o.Level, o.Seed); err == nil {
			c.CI = &ci
		}
	}
	est, p, err := stats.WelchLogRatio(xa, xb, o.Level)
	if err != nil {
		c.Verdict = Inconclusive
		c.Reasons = append(c.Reasons, Reason{Code: ReasonTestFailed, Err: err})
		return
	}
	if est.Lo == est.Hi {
		// A side without spread (three equal values, as a coarse
		// percentile gives): Welch's t has no variance to rest on, and
		// the exact test cannot reach alpha. Nothing bounds the ratio.
		c.Verdict = Inconclusive
		c.Reasons = append(c.Reasons, Reason{Code: ReasonTooFewRuns, MinRuns: stats.MinRunsFor(o.Alpha), Alpha: o.Alpha,
			ARuns: len(xa), BRuns: len(xb), MinP: c.MinP})
		c.RunsNeeded = runsNeeded(o, xa, xb, c.Ratio, max(len(xa), c.AHeld), max(len(xb), c.BHeld), true)
		return
	}
	c.PValue = &p
	c.Estimate = &est
	c.Reasons = append(c.Reasons, Reason{Code: ReasonWelch, Note: true, Alpha: o.Alpha, ARuns: len(xa), BRuns: len(xb),
		MinP: c.MinP, P: p})
	// A difference is decided only when the ranks agree as far as they
	// can: every run of one side beyond every run of the other (the
	// exact test at its smallest attainable p), so that a variance
	// understated by chance in three runs cannot decide alone.
	_, pmw, err := stats.MannWhitney(xa, xb)
	c.decide(xa, xb, p, o, err == nil && pmw <= c.MinP*(1+1e-9))
}

// decide sets the verdict from p and the deciding interval (Estimate):
// a-faster or b-faster when p < alpha and the interval clears the
// practical band (and separated: testWelch's rank condition), no-difference
// when it lies inside the band, inconclusive otherwise; and the runs
// needed.
func (c *Comparison) decide(xa, xb []float64, p float64, o Options, separated bool) {
	est := *c.Estimate
	// Runs needed are never below the runs held, tested or not.
	ha, hb := max(len(xa), c.AHeld), max(len(xb), c.BHeld)
	c.RunsNeeded = runsNeeded(o, xa, xb, est.Estimate, ha, hb, false)
	hi, lo := 1+o.PracticalBand, 1/(1+o.PracticalBand)
	switch {
	case separated && p < o.Alpha && (est.Lo > hi || est.Hi < lo):
		c.Verdict = BFaster
		if (est.Estimate > 1) == c.HigherIsBetter {
			c.Verdict = AFaster
		}
	case est.Lo >= lo && est.Hi <= hi:
		c.Verdict = NoDifference
		c.Reasons = append(c.Reasons, Reason{Code: ReasonEquivalent, P: p, Alpha: o.Alpha, Level: o.Level,
			Band: o.PracticalBand, Lo: est.Lo, Hi: est.Hi, Method: est.Method})
	default:
		c.Verdict = Inconclusive
		c.RunsNeeded = runsNeeded(o, xa, xb, est.Estimate, ha, hb, true)
		r := Reason{Code: ReasonUnsettled, P: p, Alpha: o.Alpha, Level: o.Level, Band: o.PracticalBand, Lo: est.Lo, Hi: est.Hi,
			Method: est.Method, Significant: p < o.Alpha && (est.Hi < 1 || est.Lo > 1)}
		if c.RunsNeeded != nil {
			r.RunsNeeded = *c.RunsNeeded
		}
		c.Reasons = append(c.Reasons, r)
	}
}

// Gated reports whether this comparison can fail the gate as a
// regression: never the maximum latency, which is one request of a run
// (the machine's worst stall), not its performance; under a closed
// workload model only throughput, as history's gate does (gatedMetric):
// a closed-loop client's latency follows from its throughput by Little's
// law and carries the client's own scheduling (wrk's p50 on loopback
// flips between about 0.15 and 1.1 ms from one run to the next at equal
// throughput, conformance aa/001), and its percentiles are lower bounds
// (coordinated omission). The latencies are still compared and shown.
func (c Comparison) Gated() bool {
	if c.Metric == MetricLatMaxMs {
		return false
	}
	return c.Settings.LoadModel != results.LoadClosed || c.Metric == MetricRPS
}

// GatedUndecided reports whether an undecided comparison of this metric
// can fail the gate (gate.Inconclusive): throughput and the per-request
// central latencies (mean, median). The tails (p99, max) rest on a few
// requests per run and move with the machine's stalls, so an undecided
// tail is shown but does not fail the gate; a decided p99 regression
// does.
func (c Comparison) GatedUndecided() bool {
	return c.Gated() && (c.Metric == MetricRPS || c.Metric == MetricLatMeanMs || c.Metric == MetricLatP50Ms)
}

// UpToWorsePct returns how much worse side a could be than side b, in
// percent, at the far end of the deciding ratio's CI (Estimate): for
// latency 100·(Hi - 1), for throughput 100·(1 - Lo). An undecided
// comparison "could be up to" this much worse. ok is false when no test
// ran (too few runs, no steady state, ...): then nothing bounds it.
func (c Comparison) UpToWorsePct() (pct float64, ok bool) {
	if c.Estimate == nil {
		return 0, false
	}
	if c.HigherIsBetter {
		return 100 * (1 - c.Estimate.Lo), true
	}
	return 100 * (c.Estimate.Hi - 1), true
}

// UpToBetterPct is UpToWorsePct for side b: how much worse b could be
// than a, percent of a's value.
func (c Comparison) UpToBetterPct() (pct float64, ok bool) {
	if c.Estimate == nil || !(c.Estimate.Lo > 0) || !(c.Estimate.Hi > 0) {
		return 0, false
	}
	if c.HigherIsBetter {
		return 100 * (1 - 1/c.Estimate.Hi), true
	}
	return 100 * (1/c.Estimate.Lo - 1), true
}

// runsNeeded returns the runs per side that would settle a comparison
// whose ratio a/b is estimated at ratio, from the scatter of the runs'
// log values: 1.4826·MAD of ln x on each side (robust to a disturbed
// run), pooled as the root mean square. The distance to settle is that
// of ln ratio from the nearer edge of the practical band, at least a
// quarter of the band: outside the band the interval must clear the edge,
// inside it must stay within. Both the scatter and the distance are the
// same with a and b swapped. A side with fewer than 2 values has no
// scatter and is left out of the pool; nil when both are, or a value or
// the ratio is not positive.
//
// The answer is never below the exact test's own minimum of equal runs
// per side (stats.MinRunsFor(Alpha), through stats.RunsPerSide), nor
// below the runs a side already holds (heldA, heldB); when those did not
// settle it (unsettled), it exceeds the harmonic mean of the two, the
// effective size per side of the runs held: as many again cannot be
// promised to (4 against 4 unsettled needs at least 5 per side).
func runsNeeded(o Options, xa, xb []float64, ratio float64, heldA, heldB int, unsettled bool) *int {
	var ss float64
	sides := 0
	for _, x := range [][]float64{xa, xb} {
		if len(x) < 2 {
			continue
		}
		l := make([]float64, len(x))
		for i, e := range x {
			if !(e > 0) {
				return nil
			}
			l[i] = math.Log(e)
		}
		med := stats.Median(l)
		for i := range l {
			l[i] = math.Abs(l[i] - med)
		}
		s := 1.4826 * stats.Median(l)
		ss += s * s
		sides++
	}
	if sides == 0 || !(ratio > 0) {
		return nil
	}
	edge := math.Log1p(o.PracticalBand)
	dist := math.Max(math.Abs(math.Abs(math.Log(ratio))-edge), edge/4)
	n, err := stats.RunsPerSide(math.Sqrt(ss/float64(sides)), dist, o.Alpha, o.Power)
	if err != nil {
		return nil
	}
	n = max(n, heldA, heldB)
	if unsettled && heldA > 0 && heldB > 0 {
		eff := 2 * float64(heldA) * float64(heldB) / float64(heldA+heldB)
		n = max(n, int(math.Floor(eff))+1)
	}
	return &n
}

// blocked reports whether a reason that is not a note stands in the way
// of a verdict.
func blocked(reasons []Reason) bool {
	for _, r := range reasons {
		if !r.Note {
			return true
		}
	}
	return false
}

// DecidingRatio is the ratio a/b the comparison's verdict rests on: the
// estimate of the test that decided (Hodges-Lehmann, or Welch's ratio of
// geometric means), else the ratio of the sides' aggregates.
func (c Comparison) DecidingRatio() float64 {
	if c.Estimate != nil {
		return c.Estimate.Estimate
	}
	return c.Ratio
}

// DecidingCI is the interval of DecidingRatio: the deciding estimate's
// when it is bounded, else the bootstrap CI of the ratio of the
// aggregates (nil when there is neither).
func (c Comparison) DecidingCI() *stats.CI {
	if c.Estimate != nil && !math.IsInf(c.Estimate.Hi, 0) {
		return &stats.CI{Estimate: c.Estimate.Estimate, Lo: c.Estimate.Lo, Hi: c.Estimate.Hi, Level: c.Estimate.Level}
	}
	return c.CI
}

// ratioFrom is the comparison seen from one side (Deciding.FromA,
// FromB): the deciding ratio (DecidingRatio) as that side's value to the
// other side's, and its interval, the Estimate (else the CI of the ratio
// of means; nil when neither). Side a's view is the comparison's own
// (a/b); b's is b/a, the ratio and the interval inverted.
func (c Comparison) ratioFrom(fromA bool) (ratio float64, ci *stats.CI) {
	ratio, ci = c.DecidingRatio(), c.Estimate
	if ci == nil {
		ci = c.CI
	}
	if fromA {
		return ratio, ci
	}
	if ci != nil {
		inv := ci.Inverse()
		ci = &inv
	}
	return 1 / ratio, ci
}

// servedNothing reports whether every request of the group's
// representative runs failed (an error rate of 1).
func (g *Group) servedNothing() bool {
	rate, ok := g.ErrorRate()
	return ok && rate >= 1
}
