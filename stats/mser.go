package stats

import "math"

// MSERBatch is the batch size of MSER-5.
const MSERBatch = 5

// minMSERBatches is the fewest batches MSER works on.
const minMSERBatches = 4

// MSER5 is MSER with batches of 5 observations: MSER-5 of White, "An
// effective truncation heuristic for bias reduction in simulation output",
// Simulation 69(6), 1997, and Spratt, "An evaluation of contemporary
// heuristics for the startup problem", M.S. thesis, University of Virginia,
// 1998. See MSER for the details.
func MSER5(x []float64) (truncate int, needsMoreData bool, err error) {
	return MSER(x, MSERBatch)
}

// MSER returns the MSER truncation point of x over batch means of the
// given size (batch <= 0 selects MSERBatch; an incomplete last batch is
// dropped): d* minimising the standard error of the mean of the batches
// after d, searched over the first half only (the end artifact,
// STATISTICS.md). truncate is d* in observations: x[:truncate] is the
// warm-up; ties go to the smallest d. A minimum at the half means the
// series still changes there: needsMoreData. x must be finite with at
// least 4 batches (else ErrEmpty, ErrNotFinite or ErrTooFew).
func MSER(x []float64, batch int) (truncate int, needsMoreData bool, err error) {
	if err := checkFinite(x); err != nil {
		return 0, false, err
	}
	if batch <= 0 {
		batch = MSERBatch
	}
	m := len(x) / batch
	if m < minMSERBatches {
		return 0, false, tooFew("MSER", minMSERBatches*batch, len(x))
	}
	y := make([]float64, m)
	for j := range y {
		var s float64
		for _, v := range x[j*batch : (j+1)*batch] {
			s += v
		}
		y[j] = s / float64(batch)
	}

	half := m / 2
	// Welford's recurrence from the end: after adding Y_{d+1}, mean and ss
	// describe Y_{d+1..m} (0-based y[d:]).
	var mean, ss float64
	best, arg := math.Inf(1), 0
	stats := make([]float64, half+1)
	for d := m - 1; d >= 0; d-- {
		k := float64(m - d)
		delta := y[d] - mean
		mean += delta / k
		ss += delta * (y[d] - mean)
		if d <= half {
			stats[d] = ss / (k * k)
		}
	}
	for d, s := range stats {
		if s < best {
			best, arg = s, d
		}
	}
	return arg * batch, arg == half, nil
}
