// Package analyze builds the Verdict of an experiment from its runs, with
// the statistical routines of package stats, as described in
// docs/STATISTICS.md: per system its groups of runs at equal settings with
// warm-up (across and within runs) and steady state, the comparisons
// between systems, capacity (Little's law, saturation, USL), the
// methodology findings, the SLO thresholds checked on each group's steady
// values (Verdict.Thresholds), the CI gate's decision (Verdict.Gate) and
// the choice of what the headline leads with (errors, overload, then the
// comparison or a system's state).
//
// The Verdict carries codes and figures, never sentences: a Finding has a
// Severity, a stable Code, a typed Subject and Facts (one type per code);
// a Comparison has typed Reasons (a ReasonCode with its figures, and Note
// for reasons that explain without deciding); warm-up classifications
// have a Basis, saturation its evidence, Warnings a WarningCode, and the
// Headline says which comparison or system leads and why. Package report
// words all of them.
package analyze
