package stats

// The parameters of the method of analysis versions up to 4 (PELT with the
// outlier rule of Barrett et al., the step test and binary segmentation
// for 5 to 19 runs). Their code is gone (issue 33: nothing called it since
// analysis version 5, SelectModel); analyze.DefaultOptions still records
// these values in every summary's options (penalty_factor, min_segment,
// null_draws), so they stay as the values that summary reports.

// DefaultPenaltyFactor was the factor of ln(n) in the PELT penalty,
// 15 ln(n), as used by Barrett et al. (OOPSLA 2017).
const DefaultPenaltyFactor = 15

// DefaultMinSegment was the minimum PELT segment length.
const DefaultMinSegment = 2

// DefaultNullDraws was the number of simulated Normal series of the step
// test's null distribution.
const DefaultNullDraws = 9999
