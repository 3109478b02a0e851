package stats

import (
	"math"
	"slices"
)

// DefaultPenaltyFactor is the factor of ln(n) in the default PELT penalty,
// 15 ln(n), as used by Barrett et al. (OOPSLA 2017).
const DefaultPenaltyFactor = 15

// DefaultMinSegment is the default minimum PELT segment length.
const DefaultMinSegment = 2

// DefaultOutlierWindow is the default width of the sliding outlier window.
const DefaultOutlierWindow = 200

// DefaultOutlierK is the default number of (P90-P10) spreads beyond the
// window median at which an observation is an outlier.
const DefaultOutlierK = 3

// relVarFloor is the variance floor of a PELT segment relative to the
// variance of the whole series (see PELT).
const relVarFloor = 1e-10

// Segment is a run x[Start:End] (half-open) of observations between two
// changepoints, with its sample mean and sample standard deviation (n-1
// denominator; 0 for a single observation).
type Segment struct {
	Start, End int
	Mean, SD   float64
}

// Len returns the number of observations in the segment.
func (s Segment) Len() int { return s.End - s.Start }

// DefaultPenalty returns the default PELT penalty 15*ln(n), or 0 for n < 2.
func DefaultPenalty(n int) float64 {
	if n < 2 {
		return 0
	}
	return DefaultPenaltyFactor * math.Log(float64(n))
}

// PELT finds changepoints in the mean and variance of x by the Pruned Exact
// Linear Time method of Killick, Fearnhead & Eckley, "Optimal detection of
// changepoints with a linear computational cost", JASA 107(500), 2012.
//
// The cost of a segment of m observations is twice its negative maximised
// Normal log-likelihood, m*(ln(2π) + ln(σ̂²) + 1) with σ̂² the maximum
// likelihood (1/m) variance of the segment: the "Normal" test statistic of
// cpt.meanvar in R's changepoint package, which Barrett et al., "Virtual
// Machine Warmup Blows Hot and Cold" (OOPSLA 2017) use. Segment costs come
// from prefix sums of the standardised series, so memory is O(n).
//
// A segment with σ̂² = 0 (a run of identical values) would have cost -∞,
// so the likelihood is maximised over σ² >= floor instead, which gives the
// cost m*(ln(2π) + ln(floor) + σ̂²/floor) when σ̂² < floor. The floor is
// max(1e-10·s², q²/12), where s² is the variance of the whole series and q
// is the smallest positive gap between two distinct values of x: q²/12 is
// the variance of rounding to a grid of step q (Sheppard), so quantised
// data (integer counts, microsecond latencies) does not produce spurious
// segments out of short runs of repeated values. (R's changepoint floors
// σ̂² at a small absolute constant instead, which depends on the units.)
//
// penalty is added per changepoint; penalty <= 0 (or NaN) selects
// DefaultPenalty(len(x)). minSeg is the minimum segment length; values
// below 2 select DefaultMinSegment (a segment of one observation has no
// variance). Pruning uses K = 0, valid for this likelihood cost, and a
// candidate is only dropped once a segment of minSeg could follow the
// point that pruned it, so the result equals that of exhaustive optimal
// partitioning.
//
// PELT returns the changepoints, the indices where new segments start in
// increasing order, and the segments covering x. x must be non-empty and
// finite (else ErrEmpty or ErrNotFinite). A constant series, or one shorter
// than 2*minSeg, is a single segment with no changepoints.
//
// Note that pruning only works when changepoints are present: on a series
// without any change the candidate set grows and the run time is O(n²).
func PELT(x []float64, penalty float64, minSeg int) (changepoints []int, segments []Segment, err error) {
	if err := checkFinite(x); err != nil {
		return nil, nil, err
	}
	n := len(x)
	if !(penalty > 0) {
		penalty = DefaultPenalty(n)
	}
	if minSeg < DefaultMinSegment {
		minSeg = DefaultMinSegment
	}
	mean, variance := meanVar(x)
	if variance <= 0 || n < 2*minSeg {
		return nil, []Segment{newSegment(x, 0, n)}, nil
	}

	// Standardise: segmentations do not change, every total cost shifts by
	// n*ln(variance), and the prefix sums lose less to cancellation.
	scale := math.Sqrt(variance)
	s1 := make([]float64, n+1)
	s2 := make([]float64, n+1)
	for i, v := range x {
		z := (v - mean) / scale
		s1[i+1] = s1[i] + z
		s2[i+1] = s2[i] + z*z
	}
	floor := relVarFloor
	if q := minGap(x) / scale; q*q/12 > floor {
		floor = q * q / 12
	}
	const log2pi = 1.8378770664093453 // ln(2π)
	cost := func(s, t int) float64 {
		m := float64(t - s)
		a := s1[t] - s1[s]
		v := (s2[t] - s2[s] - a*a/m) / m
		if v < floor {
			// The likelihood maximised over σ² >= floor: still a
			// maximum, so the cost stays subadditive and pruning exact.
			return m * (log2pi + math.Log(floor) + max(v, 0)/floor)
		}
		return m * (log2pi + math.Log(v) + 1)
	}

	f := make([]float64, n+1) // f[t]: optimal penalised cost of x[:t]
	last := make([]int, n+1)  // last[t]: start of the last segment of x[:t]
	f[0] = -penalty
	for t := 1; t < minSeg; t++ {
		f[t] = math.Inf(1)
	}
	// cands are the candidate starts of the last segment, in increasing
	// order; pruneAt[i] is the time from which cands[i] is pruned.
	cands := make([]int, 0, 64)
	pruneAt := make([]int, 0, 64)
	vals := make([]float64, 0, 64)
	for t := minSeg; t <= n; t++ {
		k := 0
		for i, tau := range cands {
			if pruneAt[i] > t {
				cands[k], pruneAt[k] = tau, pruneAt[i]
				k++
			}
		}
		cands, pruneAt = cands[:k], pruneAt[:k]
		// A segment ending at t-minSeg is feasible only from 0 or >= minSeg.
		if tn := t - minSeg; tn == 0 || tn >= minSeg {
			cands = append(cands, tn)
			pruneAt = append(pruneAt, math.MaxInt)
		}
		vals = vals[:0]
		best, arg := math.Inf(1), 0
		for _, tau := range cands {
			v := f[tau] + cost(tau, t)
			vals = append(vals, v)
			if v+penalty < best {
				best, arg = v+penalty, tau
			}
		}
		f[t], last[t] = best, arg
		// Prune (K = 0): if f[tau]+C(tau,t) > f[t], then for every T that
		// can end a segment starting at t (T >= t+minSeg), tau does worse
		// than a changepoint at t, and can be dropped from then on. Until
		// then it stays, or the minimum segment length makes PELT inexact.
		for i := range cands {
			if vals[i] > best && pruneAt[i] == math.MaxInt {
				pruneAt[i] = t + minSeg
			}
		}
	}

	for t := n; t > 0; t = last[t] {
		if last[t] > 0 {
			changepoints = append(changepoints, last[t])
		}
	}
	slices.Reverse(changepoints)
	return changepoints, segmentsFrom(x, changepoints), nil
}

// minGap returns the smallest positive difference between two values of x,
// or 0 when all values are equal.
func minGap(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	g := math.Inf(1)
	for i := 1; i < len(s); i++ {
		if d := s[i] - s[i-1]; d > 0 && d < g {
			g = d
		}
	}
	if math.IsInf(g, 1) {
		return 0
	}
	return g
}

// newSegment describes x[start:end].
func newSegment(x []float64, start, end int) Segment {
	m, _ := meanVar(x[start:end])
	return Segment{Start: start, End: end, Mean: m, SD: sampleSD(x[start:end])}
}

// segmentsFrom splits x at the changepoints cps (increasing, in (0, len(x))).
func segmentsFrom(x []float64, cps []int) []Segment {
	segs := make([]Segment, 0, len(cps)+1)
	start := 0
	for _, c := range cps {
		segs = append(segs, newSegment(x, start, c))
		start = c
	}
	return append(segs, newSegment(x, start, len(x)))
}

// ReplaceOutliers marks the outliers of x and returns a copy of x in which
// each outlier is replaced by the median of its window, with the marks.
//
// An observation is an outlier when it lies outside median ± k*(P90-P10),
// the median and percentiles (linear interpolation, R type 7) taken over a
// sliding window of width window centred on it; near the ends the window is
// shifted to stay inside x, and a series shorter than the window uses the
// whole series. window <= 0 selects DefaultOutlierWindow and k <= 0 (or NaN)
// selects DefaultOutlierK. NaN and ±Inf are always outliers and are
// excluded from the window statistics; if a window holds no finite value,
// they are kept as they are.
//
// This is the outlier rule of Barrett et al. (OOPSLA 2017). Outliers are
// marked, never dropped: reports keep the raw series. Changepoint detection
// runs on the replaced copy rather than on x with the outliers deleted, so
// that indices (windows, seconds) keep their meaning and a lone spike
// cannot open a segment of its own; the window median is the value the
// spike's neighbourhood says the series had there.
func ReplaceOutliers(x []float64, window int, k float64) (clean []float64, outliers []bool) {
	n := len(x)
	clean = slices.Clone(x)
	outliers = make([]bool, n)
	if n == 0 {
		return clean, outliers
	}
	if window <= 0 {
		window = DefaultOutlierWindow
	}
	if !(k > 0) {
		k = DefaultOutlierK
	}
	w := min(window, n)
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

	// sorted holds the finite values of x[start:start+w], in order.
	sorted := make([]float64, 0, w)
	for _, v := range x[:w] {
		if finite(v) {
			sorted = append(sorted, v)
		}
	}
	slices.Sort(sorted)
	start := 0
	for i, v := range x {
		want := min(max(i-w/2, 0), n-w)
		for start < want { // slide by one: drop x[start], add x[start+w]
			if old := x[start]; finite(old) {
				j, _ := slices.BinarySearch(sorted, old)
				sorted = slices.Delete(sorted, j, j+1)
			}
			if nv := x[start+w]; finite(nv) {
				j, _ := slices.BinarySearch(sorted, nv)
				sorted = slices.Insert(sorted, j, nv)
			}
			start++
		}
		if !finite(v) {
			outliers[i] = true
			if len(sorted) > 0 {
				clean[i] = quantileSorted(sorted, 0.5)
			}
			continue
		}
		med := quantileSorted(sorted, 0.5)
		spread := quantileSorted(sorted, 0.9) - quantileSorted(sorted, 0.1)
		if math.Abs(v-med) > k*spread {
			outliers[i] = true
			clean[i] = med
		}
	}
	return clean, outliers
}

// MarkOutliers reports which observations of x are outliers by the rule of
// ReplaceOutliers: outside median ± k*(P90-P10) in a sliding window.
func MarkOutliers(x []float64, window int, k float64) []bool {
	_, marks := ReplaceOutliers(x, window, k)
	return marks
}

// Segmentation is the result of SegmentSeries.
type Segmentation struct {
	Changepoints []int     // indices where new segments start
	Segments     []Segment // statistics of the outlier-replaced series
	Outliers     []bool    // outlier marks, one per observation
}

// SegmentSeries marks outliers with the default rule (window 200, k 3),
// replaces them by their window medians (see ReplaceOutliers) and runs PELT
// with the given penalty and minimum segment length (<= 0 for the
// defaults) on the replaced series. NaN and ±Inf in x count as outliers
// and are replaced too, as long as their window holds a finite value;
// otherwise PELT's ErrNotFinite is returned. An empty x gives ErrEmpty.
// A series shorter than the outlier window (200) is marked but not
// replaced: there the window is the whole series and would take a short
// warm-up for outliers.
func SegmentSeries(x []float64, penalty float64, minSeg int) (Segmentation, error) {
	if len(x) == 0 {
		return Segmentation{}, ErrEmpty
	}
	clean, marks := ReplaceOutliers(x, DefaultOutlierWindow, DefaultOutlierK)
	if len(x) < DefaultOutlierWindow {
		// In a series shorter than the outlier window, the window is the
		// whole series, and a short warm-up at its start looks like a run
		// of outliers: they are marked but kept, so PELT can see the
		// warm-up (e.g. 20 one-second windows of a cold JVM).
		clean = x
	}
	cps, segs, err := PELT(clean, penalty, minSeg)
	if err != nil {
		return Segmentation{}, err
	}
	return Segmentation{Changepoints: cps, Segments: segs, Outliers: marks}, nil
}
