// Package stats holds the statistical routines of loadverdict, as described
// in docs/STATISTICS.md: plain functions on float64 slices that know
// nothing of load-test runs, systems or report wording.
//
//   - Warm-up and steadiness: SelectModel (the one model of a series),
//     CombineClasses, ClassifyShort (2 to 4 values), MSER5, TrendTest
//     (Mann-Kendall with Theil-Sen), Excursions (recurring stalls).
//   - Intervals: BootstrapMeanCI, BatchMeansCI and SteadyStateCI (which
//     picks between them by Lag1Autocorrelation), BootstrapRatioCI,
//     MedianCI.
//   - Tests and power: MannWhitney, HodgesLehmannRatio, WelchT,
//     RunsPerSide.
//   - Change points across a history: EDivisive.
//   - Consistency: CheckMean. Capacity: LittlesLaw and FitUSL.
//   - Helpers: Mean, Median, CoefVar.
//
// Results are numbers and codes (Class, the LittlesLaw statuses, the CI
// methods), never sentences: wording is the business of package report.
// Preconditions are stated on each function. Bad input gives an error,
// never a panic: the sentinels ErrEmpty, ErrNotFinite, ErrParameter (with
// ErrZeroBase), ErrNoConvergence, and *TooFewError, which matches
// ErrTooFew (errors.Is, errors.As). Numeric parameters left at zero (or
// negative, where that is meaningless) select the documented defaults,
// exported as constants (DefaultDelta, DefaultResamples, ...). Everything
// is deterministic: resampling uses a math/rand/v2 PCG generator seeded by
// the caller (DefaultSeed is the one the rest of loadverdict uses).
package stats
