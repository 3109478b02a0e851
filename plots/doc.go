// Package plots draws the figures of a loadverdict report, as PNG or SVG,
// from an analyze.Verdict and the rows of the results tables, with
// gonum/plot.
//
// It is pure: values in, PNG or SVG bytes out. RenderFormats
// (PNG unless told) and RenderSVG (SVG, and PNG only where the SVG is large)
// draw every figure the input supports, in a fixed order:
//
//   - throughput.png: requests per second of every run in execution order,
//     one colour and line dash per system, one marker shape per concurrency
//     level, the steady-state band of every group that has one;
//   - latency.png: per run the mean latency with ±1 standard deviation,
//     the p99 where known and the maximum, on a log scale when they span
//     more than LogSpan (a bar reaching below the axis ends in an arrow);
//   - percentiles.png: the latency percentile spectrum of every run with a
//     percentiles table, HdrHistogram style (x = 1/(1-q) on a log scale),
//     each run's maximum a marker at 99.999 %;
//   - scaling.png: throughput against connections for every system that ran
//     at two or more concurrency levels, with the Little's-law bound (where
//     the data stay below it), the USL fit and the saturation point;
//   - latency-time-<n>.png: per system and settings with a series (at
//     most MaxOverTimeFigures, 8: each system's in turn), p50
//     and p99 latency per window over time, one panel per run (small
//     multiples sharing their axes, at most 12 runs), the within-run
//     warm-up end the verdict found and the stalls shaded; the y axis is
//     log when the bulk of the values spans decades, otherwise linear
//     with a single spike clipped (and said in the legend);
//   - errors-<n>.png: per system and endpoint with per-request errors (at
//     most MaxErrorsFigures, 8: those with the most),
//     failed requests per second over time by cause (Verdict.Errors).
//
// Every figure is WidthPx x HeightPx pixels, uses the Liberation Sans font
// embedded in gonum/plot and a fixed palette whose colours also differ in
// lightness, line dash and marker shape, so the figures stay readable in
// grayscale. The same input gives the same bytes.
//
// One function per figure (Throughput, Latency, Percentiles, Scaling,
// LatencyOverTime, ErrorsOverTime) returns it unrendered, for tests and for callers that want
// another size or format. RenderHistory draws a series' trend figures
// (Trend: one metric of every system and settings across the experiments,
// with CIs over runs, change points and commits on the axis).
package plots
