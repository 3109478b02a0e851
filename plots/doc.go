// Package plots draws the figures of a loadverdict report, as PNG or SVG,
// from an analyze.Verdict and the rows of the results tables, with
// gonum/plot.
//
// It is pure: values in, PNG or SVG bytes out, the same bytes for the
// same input. RenderFormats (PNG unless told) and RenderSVG (SVG, and PNG
// only where the SVG is large) draw every figure the input supports, in a
// fixed order: throughput.png, latency.png, percentiles.png, scaling.png,
// latency-time-<n>.png (at most MaxOverTimeFigures) and errors-<n>.png (at
// most MaxErrorsFigures). Every figure is WidthPx x HeightPx pixels, in a
// palette that stays readable in grayscale. What each figure shows:
// docs/REPORT.md, "Figures".
//
// One function per figure (Throughput, Latency, Percentiles, Scaling,
// LatencyOverTime, ErrorsOverTime) returns it unrendered, for tests and
// for callers that want another size or format. RenderHistory draws a
// series' trend figures (Trend: one metric of every system and settings
// across the experiments, with CIs over runs, change points and commits on
// the axis).
package plots
