// Package stats holds the statistical routines of loadverdict, as described
// in docs/STATISTICS.md: plain functions on float64 slices that know
// nothing of load-test runs, systems or report wording.
//
//   - Changepoints and warm-up: ReplaceOutliers and MarkOutliers (the
//     outlier rule of Barrett et al., OOPSLA 2017), PELT changepoints in
//     mean and variance (Killick, Fearnhead & Eckley 2012) and
//     SegmentSeries, which chains the two; Classify into flat, warmup,
//     slowdown or no-steady-state (Barrett et al.); CombineClasses for
//     several series; ClassifyShort for series of 2 to 4 values; MSER5
//     truncation (White 1997; Spratt 1998).
//   - Series of runs and steadiness: StepTest (a weighted CUSUM with its
//     Normal null simulated) and SegmentSteps (binary segmentation) for 5
//     to 19 runs; ClassifySeries and ClassifyRuns, which add the warm-up
//     rule (a warm-up or a level shift) and TrendTest (Mann-Kendall with
//     Theil-Sen: a trend that never levels off); Excursions (CAPA's
//     collective and point anomalies: recurring stalls and their period).
//   - Intervals: BootstrapMeanCI, BatchMeansCI and SteadyStateCI, which
//     picks between them by Lag1Autocorrelation; BootstrapRatioCI for a
//     ratio of means; MedianCI, the distribution-free interval of a
//     median from order statistics.
//   - Tests and power: MannWhitney (exact for up to 50 observations in
//     all), HodgesLehmannRatio (the ratio that agrees with it, with Moses'
//     interval), RunsPerSide for the replication a difference needs.
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
// constants (DefaultPenalty, DefaultDelta, DefaultResamples, ...).
// Everything is deterministic: resampling uses a math/rand/v2 PCG
// generator seeded by the caller (DefaultSeed is the seed the rest of
// loadverdict uses).
package stats
