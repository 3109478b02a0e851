package analyze

import (
	"math"

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
	Metric   string // MetricRPS, MetricLatMeanMs, MetricLatP99Ms, MetricLatMaxMs
	// HigherIsBetter is true for throughput, false for latency.
	HigherIsBetter bool
	ARuns, BRuns   int
	AMean, BMean   float64
	// Ratio is AMean/BMean.
	Ratio   float64
	CI      *stats.CI
	PValue  *float64
	Verdict string
	// Reasons explain the verdict, in order; a comparison with a reason
	// that is not a Note is inconclusive.
	Reasons []Reason
	// RunsNeeded is the runs per side that would detect the observed
	// difference at alpha with the configured power, from the observed CV.
	RunsNeeded *int
}

// ReasonCode says why a comparison has its verdict.
type ReasonCode string

// The reason codes, with the Reason fields each one sets.
const (
	// ReasonTooFewRuns: a side has fewer than MinRuns runs (MinRuns,
	// Alpha, ARuns, BRuns).
	ReasonTooFewRuns ReasonCode = "too-few-runs"
	// ReasonSingleRun: one run of System cannot show a steady state.
	ReasonSingleRun ReasonCode = "single-run"
	// ReasonNotSteady: System has no steady state (Class, ChangePct
	// between its last two runs when known).
	ReasonNotSteady ReasonCode = "not-steady"
	// ReasonInconsistent: System's runs behave inconsistently.
	ReasonInconsistent ReasonCode = "inconsistent"
	// ReasonFewSteadyRuns: System has only SteadyRuns runs after warm-up.
	ReasonFewSteadyRuns ReasonCode = "few-steady-runs"
	// ReasonMetricMissing: not every steady run reports Metric.
	ReasonMetricMissing ReasonCode = "metric-missing"
	// ReasonClosedModelTails (a note): tails measured by a closed-model
	// tool are lower bounds (coordinated omission).
	ReasonClosedModelTails ReasonCode = "closed-model-tails"
	// ReasonTestFailed: the test could not be computed (Err).
	ReasonTestFailed ReasonCode = "test-failed"
	// ReasonInsideBand: significant (P) but the Level CI of the ratio
	// reaches into the ±Band practical band.
	ReasonInsideBand ReasonCode = "inside-practical-band"
	// ReasonNotSignificant: P >= Alpha.
	ReasonNotSignificant ReasonCode = "not-significant"
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
	Rate       float64 // an error rate, a fraction (ReasonErrors)
	Err        error
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
	for _, p := range v.pairs() {
		a, b := p[0], p[1]
		for gi := range a.Groups {
			ga := &a.Groups[gi]
			for gj := range b.Groups {
				gb := &b.Groups[gj]
				if ga.key() != gb.key() {
					continue
				}
				for _, m := range metrics {
					if c, ok := v.compareMetric(a.Label, b.Label, ga, gb, m); ok {
						v.Comparisons = append(v.Comparisons, c)
					}
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
	c := Comparison{A: la, B: lb, Settings: ga.Settings, Metric: m.name, HigherIsBetter: m.higherIsBetter,
		AMean: *ra, BMean: *rb, Ratio: *ra / *rb}
	sa, sb := steadyRuns(ga), steadyRuns(gb)
	xa, xb := column(sa, m.get), column(sb, m.get)
	c.ARuns, c.BRuns = len(ga.Runs), len(gb.Runs)

	// Reasons that make the comparison inconclusive.
	if len(ga.Runs) < o.MinRuns || len(gb.Runs) < o.MinRuns {
		c.Reasons = append(c.Reasons, Reason{Code: ReasonTooFewRuns, MinRuns: o.MinRuns, Alpha: o.Alpha,
			ARuns: len(ga.Runs), BRuns: len(gb.Runs)})
	}
	for _, s := range []struct {
		label string
		g     *Group
	}{{la, ga}, {lb, gb}} {
		switch {
		case len(steadyRuns(s.g)) == 0 && s.g.Warmup.Class == stats.ClassInsufficientData:
			c.Reasons = append(c.Reasons, Reason{Code: ReasonSingleRun, System: s.label})
		case len(steadyRuns(s.g)) == 0:
			c.Reasons = append(c.Reasons, Reason{Code: ReasonNotSteady, System: s.label, Class: s.g.Warmup.Class,
				ChangePct: s.g.Warmup.ChangePct})
		case s.g.Warmup.Class == stats.ClassInconsistent && s.g.Warmup.Good != nil && !*s.g.Warmup.Good:
			c.Reasons = append(c.Reasons, Reason{Code: ReasonInconsistent, System: s.label})
		case len(steadyRuns(s.g)) < o.MinRuns && len(s.g.Runs) >= o.MinRuns:
			c.Reasons = append(c.Reasons, Reason{Code: ReasonFewSteadyRuns, System: s.label, SteadyRuns: len(steadyRuns(s.g))})
		}
	}
	if m.name != MetricRPS && len(c.Reasons) == 0 && (xa == nil || xb == nil) {
		c.Reasons = append(c.Reasons, Reason{Code: ReasonMetricMissing, Metric: m.name})
	}
	if (m.name == MetricLatP99Ms || m.name == MetricLatMaxMs) && ga.LoadModel == results.LoadClosed {
		c.Reasons = append(c.Reasons, Reason{Code: ReasonClosedModelTails, Note: true})
	}

	c.runsNeeded(column(ga.Runs, m.get), column(gb.Runs, m.get), o)
	if blocked(c.Reasons) {
		c.Verdict = Inconclusive
		return c, true
	}
	// Both sides steady with enough runs: test and estimate.
	c.test(xa, xb, o)
	return c, true
}

// runsNeeded sets RunsNeeded from the observed CV of both sides' runs
// (xa, xb; a side with fewer than 2 values is left out) and the observed
// difference c.Ratio (at least the practical band).
func (c *Comparison) runsNeeded(xa, xb []float64, o Options) {
	cvs := []float64{}
	for _, x := range [][]float64{xa, xb} {
		if len(x) >= 2 {
			cvs = append(cvs, stats.CoefVar(x))
		}
	}
	if len(cvs) == 0 {
		return
	}
	s := 0.0
	for _, cv := range cvs {
		s += cv * cv
	}
	cv := math.Sqrt(s / float64(len(cvs)))
	delta := math.Max(logChange(c.Ratio), o.PracticalBand)
	if n, err := stats.RunsPerSide(cv, delta, o.Alpha, o.Power); err == nil {
		c.RunsNeeded = &n
	}
}

// test decides a comparison from the two sides' run values, the same
// way for every comparison (compare, report, history): the exact
// Mann-Whitney test over runs, the bootstrap CI of the ratio of means,
// and a verdict a-faster or b-faster only when p < alpha and the CI lies
// outside the practical band; no-difference (with the reason) otherwise,
// inconclusive when the test cannot run. It sets PValue, AMean, BMean,
// Ratio, CI, Verdict and appends to Reasons; c.HigherIsBetter says which
// direction is faster.
func (c *Comparison) test(xa, xb []float64, o Options) {
	_, p, err := stats.MannWhitney(xa, xb)
	if err != nil {
		c.Verdict = Inconclusive
		c.Reasons = append(c.Reasons, Reason{Code: ReasonTestFailed, Err: err})
		return
	}
	c.PValue = &p
	c.AMean, c.BMean = stats.Mean(xa), stats.Mean(xb)
	c.Ratio = c.AMean / c.BMean
	if ci, err := stats.BootstrapRatioCI(xa, xb, o.Resamples, o.Level, o.Seed); err == nil {
		c.CI = &ci
	}
	outside := c.CI != nil && (c.CI.Lo > 1+o.PracticalBand || c.CI.Hi < 1-o.PracticalBand)
	switch {
	case p < o.Alpha && outside:
		aBetter := (c.Ratio > 1) == c.HigherIsBetter
		c.Verdict = BFaster
		if aBetter {
			c.Verdict = AFaster
		}
	case p < o.Alpha:
		c.Verdict = NoDifference
		c.Reasons = append(c.Reasons, Reason{Code: ReasonInsideBand, P: p, Level: o.Level, Band: o.PracticalBand})
	default:
		c.Verdict = NoDifference
		c.Reasons = append(c.Reasons, Reason{Code: ReasonNotSignificant, P: p, Alpha: o.Alpha})
	}
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
