// Package analyze holds loadverdict's statistics and, built on them, the
// Verdict: warm-up and steady state, comparison of systems, capacity and
// methodology checks, as described in docs/STATISTICS.md.
//
// # Statistical primitives
//
// The primitives are plain functions on slices, in the style of gonum:
//
//   - Warm-up within a run: ReplaceOutliers and MarkOutliers (the outlier
//     rule of Barrett et al., OOPSLA 2017), PELT changepoints in mean and
//     variance (Killick, Fearnhead & Eckley 2012) and SegmentSeries, which
//     chains the two; Classify into flat, warmup, slowdown or
//     no-steady-state (Barrett et al.); CombineClasses for the runs of one
//     group; MSER5 truncation (White 1997; Spratt 1998) as a cross-check.
//   - Warm-up across runs: ClassifyShort for 2 to 4 runs.
//   - Steady state: BootstrapMeanCI, BatchMeansCI and SteadyStateCI, which
//     picks between them by Lag1Autocorrelation.
//   - Comparison: MannWhitney (exact for up to 50 runs in all),
//     BootstrapRatioCI for the ratio of means, RunsPerSide for the
//     replication a difference needs.
//   - Capacity: LittlesLaw and FitUSL (Gunther's Universal Scalability
//     Law, fitted with gonum/optimize).
//
// Preconditions are stated on each function. Bad input gives an error
// (ErrEmpty, ErrNotFinite, ErrTooFew, ErrParameter, possibly wrapped; test
// with errors.Is), never a panic. Numeric parameters left at zero (or
// negative, where that is meaningless) select the documented defaults,
// which are exported as constants (DefaultPenalty, DefaultDelta,
// DefaultResamples, ...). Everything is deterministic: resampling uses a
// math/rand/v2 PCG generator seeded by the caller (DefaultSeed is the
// seed the rest of loadverdict uses).
package analyze
