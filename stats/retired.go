package stats

// The parameters of the method of analysis versions up to 4 (PELT, the
// step test), which has no code now: analyze.DefaultOptions records them
// in every summary's options (penalty_factor, min_segment, null_draws).

// DefaultPenaltyFactor was the factor of ln(n) in the PELT penalty,
// 15 ln(n), as used by Barrett et al. (OOPSLA 2017).
const DefaultPenaltyFactor = 15

// DefaultMinSegment was the minimum PELT segment length.
const DefaultMinSegment = 2

// DefaultNullDraws was the number of simulated Normal series of the step
// test's null distribution.
const DefaultNullDraws = 9999
