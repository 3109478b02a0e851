// Package stats holds the statistical routines of loadverdict, as described
// in docs/STATISTICS.md: plain functions on float64 slices that know
// nothing of load-test runs, systems or report wording.
//
//   - Warm-up and steadiness: SelectModel, the one model of a series
//     (flat, steps, line, hinges, ramp by a penalised likelihood);
//     CombineClasses for several series; ClassifyShort for series of 2 to
//     4 values; MSER5 truncation (White 1997; Spratt 1998); TrendTest
//     (Mann-Kendall with Theil-Sen: a trend that never levels off);
//     Excursions (CAPA's collective and point anomalies: recurring stalls
//     and their period).
//   - Intervals: BootstrapMeanCI, BatchMeansCI and SteadyStateCI, which
//     picks between them by Lag1Autocorrelation; BootstrapRatioCI for a
//     ratio of means; MedianCI, the distribution-free interval of a
//     median from order statistics.
//   - Tests and power: MannWhitney (exact for up to 50 observations in
//     all), HodgesLehmannRatio (the ratio that agrees with it, with Moses'
//     interval), WelchT, RunsPerSide for the replication a difference needs.
//   - Change points across a history: EDivisive (Matteson & James 2014,
//     with ecp's permutation test), optionally only between blocks.
//   - Consistency: CheckMean, whether a mean, its percentiles, minimum and
//     maximum can describe one distribution.
//   - Capacity: LittlesLaw and FitUSL (Gunther's Universal Scalability
//     Law, fitted with gonum/optimize).
//   - Helpers: Mean, Median, CoefVar.
//
// Results are numbers and codes (Class, the LittlesLaw statuses, the CI
// methods), never sentences: wording is the business of package report.
// Preconditions are stated on each function. Bad input gives an error,
// never a panic: the sentinels ErrEmpty, ErrNotFinite, ErrParameter (with
// ErrZeroBase), ErrNoConvergence, and *TooFewError, which matches
// ErrTooFew; test with errors.Is or errors.As. Their messages are for
// programmers. Numeric parameters left at zero (or negative, where that is
// meaningless) select the documented defaults, which are exported as
// constants (DefaultDelta, DefaultResamples, ...).
// Everything is deterministic: resampling uses a math/rand/v2 PCG
// generator seeded by the caller (DefaultSeed is the seed the rest of
// loadverdict uses).
package stats
