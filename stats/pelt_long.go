package stats

import "math"

// MaxSegmentPoints is the longest series SegmentLongSeries segments point
// by point. PELT costs time in the square of the series' length when it
// holds no change (its pruning needs change points), so a group of 50,000
// runs took over a minute; longer series are segmented as block means.
const MaxSegmentPoints = 4096

// SegmentLongSeries segments x with PELT (penalty factor times ln of the
// series' length, minimum segment minSeg). Up to MaxSegmentPoints values
// it is SegmentSeries itself. Above, it
// segments the means of consecutive blocks of b = ceil(n/MaxSegmentPoints)
// values (the last block may be shorter), with the blocks' count in the
// penalty and minSeg/b blocks (rounded up) as the minimum segment, and
// maps the change points back to the first run of their block: a change
// can then only be placed to within b runs, and the segments' means and
// SDs are those of the runs themselves (outliers replaced as
// SegmentSeries does on the whole series). The cost is linear in n.
func SegmentLongSeries(x []float64, penaltyFactor float64, minSeg int) (Segmentation, error) {
	n := len(x)
	if n <= MaxSegmentPoints {
		return SegmentSeries(x, penaltyFactor*math.Log(float64(n)), minSeg)
	}
	b := (n + MaxSegmentPoints - 1) / MaxSegmentPoints
	clean, marks := ReplaceOutliers(x, DefaultOutlierWindow, DefaultOutlierK)
	means := make([]float64, 0, (n+b-1)/b)
	for i := 0; i < n; i += b {
		means = append(means, Mean(clean[i:min(i+b, n)]))
	}
	blockSeg, err := SegmentSeries(means, penaltyFactor*math.Log(float64(len(means))), (minSeg+b-1)/b)
	if err != nil {
		return Segmentation{}, err
	}
	seg := Segmentation{Outliers: marks}
	for _, s := range blockSeg.Segments {
		start, end := s.Start*b, min(s.End*b, n)
		m, sd := meanSD(clean[start:end])
		seg.Segments = append(seg.Segments, Segment{Start: start, End: end, Mean: m, SD: sd})
		if start > 0 {
			seg.Changepoints = append(seg.Changepoints, start)
		}
	}
	return seg, nil
}

// meanSD returns the mean and the sample standard deviation of x (0 for
// fewer than two values).
func meanSD(x []float64) (mean, sd float64) {
	mean = Mean(x)
	if len(x) < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1))
}
