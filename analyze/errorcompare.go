package analyze

import (
	"math"

	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// The verdicts of an error comparison (ErrorComparison.Verdict) besides
// NoDifference and Inconclusive.
const (
	// AMoreErrors: side a's error rate is higher than b's, significantly
	// at alpha and by more than the error band over the whole CI.
	AMoreErrors = "a-more-errors"
	// BMoreErrors: side b's error rate is higher, likewise.
	BMoreErrors = "b-more-errors"
)

// The tests of an error comparison (ErrorComparison.Method).
const (
	// ErrorTestPermutation: the exact permutation test over runs of the
	// difference of the mean per-run error rates, every relabelling
	// enumerated (stats.PermutationMeanDiff), with Welch's interval of
	// the difference (stats.MeanDiffCI).
	ErrorTestPermutation = "permutation"
	// ErrorTestPermutationMC: the same, estimated from
	// stats.PermutationExactLimit random relabellings drawn with
	// Options.Seed (more runs than the enumeration's limit).
	ErrorTestPermutationMC = "permutation-monte-carlo"
	// ErrorTestFisherPooled: too few runs for the test over runs to
	// reach alpha (stats.MinAttainableP >= Alpha): Fisher's exact test
	// of the pooled counts (stats.FisherExact) and the Wald interval of
	// the difference of the pooled rates. It treats every request of a
	// side as one trial of one probability: honest only when the runs of
	// a side do not differ by more than binomial noise, which so few
	// runs cannot show (STATISTICS.md).
	ErrorTestFisherPooled = "fisher-pooled"
)

// Why an error comparison was not tested (ErrorComparison.Untested).
const (
	// ErrorUntestedNoRequests: a tested run of a side attempted no
	// request, so it has no error rate.
	ErrorUntestedNoRequests = "no-requests"
	// ErrorUntestedOverdispersed: too few runs for the test over runs,
	// and a side's runs vary beyond binomial noise
	// (stats.BinomialDispersion p < Alpha), so the pooled counts cannot
	// be tested either.
	ErrorUntestedOverdispersed = "overdispersed"
)

// ErrorComparison compares the error rates of two systems at the same
// settings (the error-rate row of a comparison table): the per-run error
// rates (ErrorRate: errors over attempted requests) of each side's
// tested runs (those its throughput comparison tests: the steady runs,
// or all runs without a steady state, or all runs when the steady ones
// are too few to reach alpha), tested for a difference and estimated in
// points (percentage points) with a CI at Options.Level.
type ErrorComparison struct {
	A, B     string
	Settings Settings
	// Pair numbers the pair of groups compared, as Comparison.Pair does.
	Pair int
	// Aggregate is how the sides' rates sum up their runs: the mean of
	// the per-run rates (AggregateOf of the error rate), or
	// AggregatePooled when the runs are pooled.
	Aggregate string
	// ARuns and BRuns are the runs compared, AErrors/AAttempted and
	// BErrors/BAttempted their pooled counts.
	ARuns, BRuns           int
	AErrors, BErrors       int64
	AAttempted, BAttempted int64
	// ARate and BRate are the sides' error rates, fractions: the mean
	// of their runs' rates (ErrorTestFisherPooled: the pooled rates).
	ARate, BRate float64
	// DiffPts is 100·(ARate - BRate): positive when a has more errors.
	DiffPts float64
	// Lo and Hi are the CI of DiffPts at Options.Level, in points; nil
	// when untested.
	Lo, Hi *float64
	// PValue is the two-sided p of Method's test; nil when untested.
	PValue *float64
	// Method is the test (ErrorTestPermutation, ...); "" when untested,
	// and Untested says why (ARate, BRate and DiffPts are still set when
	// every run attempted requests).
	Method   string
	Untested string
	// BandPts is the practical band in points (Options.ErrorBandPts):
	// a difference within it is too small to matter.
	BandPts float64
	// Verdict is AMoreErrors, BMoreErrors, NoDifference (the CI lies
	// within ±BandPts) or Inconclusive.
	Verdict string
}

// DefaultErrorBandPts is the default practical band of error rates, in
// percentage points (Options.ErrorBandPts, STATISTICS.md).
const DefaultErrorBandPts = 0.1

// compareErrors compares the error rates of every pair of systems (the
// pairs of compare) in every group of settings they share.
func (v *Verdict) compareErrors() {
	v.eachPairedGroup(func(pair int, a, b string, ga, gb *Group) {
		e := v.compareErrorRates(a, b, ga, gb)
		e.Pair = pair
		v.ErrorComparisons = append(v.ErrorComparisons, e)
	})
}

// errorRuns returns the per-run error rates and pooled counts of runs;
// ok is false when a run attempted no request.
func errorRuns(runs []results.Run) (rates []float64, errs, attempted int64, ok bool) {
	for _, r := range runs {
		x, okr := ErrorRate(r)
		if !okr {
			return nil, 0, 0, false
		}
		rates = append(rates, x)
		errs += max(r.Errors, 0)
		attempted += Attempted(r)
	}
	return rates, errs, attempted, len(rates) > 0
}

// compareErrorRates compares the error rates of two groups at equal
// settings. The test over runs is exact under exchangeability of the
// runs, whatever their rates' distribution (overdispersion between runs
// included); below its reach the pooled counts are tested (Method).
func (v *Verdict) compareErrorRates(la, lb string, ga, gb *Group) ErrorComparison {
	o := v.Options
	sa, _ := testedRuns(ga)
	sb, _ := testedRuns(gb)
	if len(sa) == 0 {
		sa = ga.Runs
	}
	if len(sb) == 0 {
		sb = gb.Runs
	}
	// Steady runs too few to decide, all runs enough: the side cut short
	// is compared over all its runs, by the rule compareMetric follows,
	// so that the error rate is over the runs the other metrics are
	// (never 3/1 runs in a table whose other rows say 3/3).
	short := !decidable(len(sa), len(sb), o.Alpha) && decidable(len(ga.Runs), len(gb.Runs), o.Alpha)
	if short && len(sa) < len(ga.Runs) {
		sa = ga.Runs
	}
	if short && len(sb) < len(gb.Runs) {
		sb = gb.Runs
	}
	c := CompareErrorRates(la, lb, sa, sb, o)
	c.Settings = ga.Settings
	return c
}

// CompareErrorRates compares the error rates of runs a against runs b:
// by the exact permutation test over runs of the difference of their
// mean per-run rates when it can reach Options.Alpha
// (stats.MinAttainableP), else by Fisher's exact test of the pooled
// counts; the verdict at Options.ErrorBandPts (ErrorComparison). Labels
// la and lb name the sides; Settings is left zero.
func CompareErrorRates(la, lb string, sa, sb []results.Run, o Options) ErrorComparison {
	c := ErrorComparison{A: la, B: lb, BandPts: o.ErrorBandPts, Verdict: Inconclusive, Aggregate: AggregateOf(MetricErrorRate)}
	xa, ea, na, okA := errorRuns(sa)
	xb, eb, nb, okB := errorRuns(sb)
	c.ARuns, c.BRuns = len(sa), len(sb)
	c.AErrors, c.BErrors, c.AAttempted, c.BAttempted = ea, eb, na, nb
	if !okA || !okB {
		c.Untested = ErrorUntestedNoRequests
		return c
	}
	c.ARate, c.BRate = stats.Mean(xa), stats.Mean(xb)
	var p, lo, hi float64
	if stats.MinAttainableP(len(xa), len(xb)) < o.Alpha && len(xa) >= 2 && len(xb) >= 2 {
		var exhaustive bool
		var err error
		p, exhaustive, err = stats.PermutationMeanDiff(xa, xb, o.Seed)
		if err == nil {
			lo, hi, err = stats.MeanDiffCI(xa, xb, o.Level)
		}
		if err != nil {
			return c
		}
		c.Method = ErrorTestPermutationMC
		if exhaustive {
			c.Method = ErrorTestPermutation
		}
	} else {
		c.Aggregate = AggregatePooled
		c.ARate, c.BRate = float64(ea)/float64(na), float64(eb)/float64(nb)
		c.DiffPts = 100 * (c.ARate - c.BRate)
		// The pooled test assumes binomial runs: a side whose runs vary
		// beyond binomial noise at alpha leaves it untested.
		for _, side := range [][]results.Run{sa, sb} {
			var k, n []int64
			for _, r := range side {
				k, n = append(k, max(r.Errors, 0)), append(n, Attempted(r))
			}
			if _, pd := stats.BinomialDispersion(k, n); pd < o.Alpha {
				c.Untested = ErrorUntestedOverdispersed
				return c
			}
		}
		var err error
		if p, err = stats.FisherExact(ea, na, eb, nb); err != nil {
			return c
		}
		c.Method = ErrorTestFisherPooled
		c.ARate, c.BRate = float64(ea)/float64(na), float64(eb)/float64(nb)
		lo, hi = stats.DiffProportionsCI(ea, na, eb, nb, o.Level)
	}
	c.DiffPts = 100 * (c.ARate - c.BRate)
	lo, hi = 100*lo, 100*hi
	c.Lo, c.Hi, c.PValue = &lo, &hi, &p
	band := c.BandPts
	switch {
	case lo >= -band && hi <= band:
		c.Verdict = NoDifference
	case p < o.Alpha && lo > band:
		c.Verdict = AMoreErrors
	case p < o.Alpha && hi < -band:
		c.Verdict = BMoreErrors
	}
	return c
}

// ErrorsWorse reports whether the error comparison shows side a's error
// rate above b's in the way that fails the gate condition errors: its
// test shows the difference (two-sided p below alpha, never judged below
// the default alpha, as the lean of an undecided comparison in gate) and
// its estimate lies beyond the band. A decided AMoreErrors always does;
// an undecided one does when its test leans and its estimate is beyond
// the band although its CI reaches back into it (fail closed, as the
// other metrics' inconclusive comparisons); one whose test shows nothing
// does not.
// An untested one (ErrorUntestedOverdispersed) whose side a shows more
// errors than b by more than the band does too: nothing bounds it.
func (c ErrorComparison) ErrorsWorse(alpha float64) bool {
	if c.Untested == ErrorUntestedOverdispersed {
		return c.DiffPts > c.BandPts
	}
	return c.PValue != nil && *c.PValue < math.Max(alpha, stats.DefaultAlpha) && c.DiffPts > c.BandPts
}
