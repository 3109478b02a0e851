package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// OutlierMinRounds is the fewest rounds OutlierRound looks at: the
// candidate is judged against at least 5 others, and leaving one out of
// 6 or more leaves out at most 1/6 of them.
const OutlierMinRounds = 6

// DefaultOutlierAlpha is the chance that OutlierRound flags a round of
// a flat series of Normal noise, whatever its size and noise: each
// round is tested at DefaultOutlierAlpha/(n-1) (Bonferroni).
const DefaultOutlierAlpha = 0.02

// DefaultOutlierMinDev is the smallest deviation of an outlier round, as
// a fraction of the other rounds' geometric mean: twice DefaultShiftDelta. A
// round closer than that moves the mean of 6 rounds by less than 2 %
// (the comparisons' practical band): not worth leaving out.
const DefaultOutlierMinDev = 2 * DefaultShiftDelta

// outlierSDFloor is the floor of the reference SD, in log units (0.5 %):
// rounds that agree to a fraction of a percent do not make a 10 %
// round 20 SDs away on their own.
const outlierSDFloor = 0.005

// Outlier is the round OutlierRound found: one round far from all the
// others (a neighbour took the machine during it).
type Outlier struct {
	// Index is the round's position in the series.
	Index int
	// Mean is the geometric mean of the reference rounds (all but the
	// outlier), in the series' units; SDPct the SD of their
	// logs (floored at 0.5 %), percent.
	Mean, SDPct float64
	// DeviationPct is the round relative to Mean, percent; T its
	// prediction t statistic (signed) and Critical the bound it passed,
	// the t quantile at 1 - alpha/(2(n-1)) with Reference-1 degrees of
	// freedom.
	DeviationPct, T, Critical float64
	// Reference is the number of reference rounds; Alpha the level the
	// bound was taken at (over the whole series).
	Reference int
	Alpha     float64
}

// OutlierRound finds at most one outlier round in x, a positive series
// (rounds' throughput in execution order), on the logs: a round other
// than the first outside the Bonferroni prediction interval of the others
// (SD floored at 0.5 %) and more than minDev from their mean, while its
// neighbours are not and no other round is (two or more are a pattern,
// not an outlier: none). The first round is never judged but is part of
// the reference (STATISTICS.md). Fewer than OutlierMinRounds rounds, or a
// value not finite and positive, return none. alpha <= 0 selects
// DefaultOutlierAlpha, minDev <= 0 DefaultOutlierMinDev.
func OutlierRound(x []float64, alpha, minDev float64) (Outlier, bool) {
	n := len(x)
	if n < OutlierMinRounds {
		return Outlier{}, false
	}
	if !(alpha > 0 && alpha < 1) {
		alpha = DefaultOutlierAlpha
	}
	if !(minDev > 0) {
		minDev = DefaultOutlierMinDev
	}
	y := make([]float64, n)
	for i, v := range x {
		if !(v > 0) || math.IsInf(v, 0) {
			return Outlier{}, false
		}
		y[i] = math.Log(v)
	}
	minLog := math.Log1p(minDev)
	m := n - 1
	crit := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m - 1)}.Quantile(1 - alpha/(2*float64(n-1)))
	var found Outlier
	count := 0
	ref := make([]float64, 0, n)
	for i := 1; i < n; i++ {
		ref = ref[:0]
		for j := range n {
			if j != i {
				ref = append(ref, y[j])
			}
		}
		mean := Mean(ref)
		var ss float64
		for _, v := range ref {
			ss += (v - mean) * (v - mean)
		}
		sd := max(math.Sqrt(ss/float64(m-1)), outlierSDFloor)
		scale := sd * math.Sqrt(1+1/float64(m))
		beyond := func(j int) bool {
			d := math.Abs(y[j] - mean)
			return d > crit*scale && d > minLog
		}
		if !beyond(i) {
			continue
		}
		// Isolated: each neighbour within half the round's distance of
		// the mean, and not beyond the bound itself.
		near := func(j int) bool {
			return j >= n || !beyond(j) && math.Abs(y[j]-mean) <= math.Abs(y[i]-mean)/2
		}
		if !near(i-1) || !near(i+1) {
			continue
		}
		count++
		found = Outlier{Index: i, Mean: math.Exp(mean), SDPct: 100 * math.Expm1(sd),
			DeviationPct: 100 * math.Expm1(y[i]-mean), T: (y[i] - mean) / scale, Critical: crit, Reference: m, Alpha: alpha}
	}
	if count != 1 {
		return Outlier{}, false
	}
	return found, true
}
