package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// checkFinite returns ErrEmpty for an empty slice and ErrNotFinite if any
// element is NaN or infinite.
func checkFinite(x []float64) error {
	if len(x) == 0 {
		return ErrEmpty
	}
	for _, v := range x {
		if !finite(v) {
			return ErrNotFinite
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// meanVar returns the mean and the population (1/n) variance of x, by two
// passes for accuracy. It returns 0, 0 for an empty slice.
func meanVar(x []float64) (mean, variance float64) {
	if len(x) == 0 {
		return 0, 0
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss, comp float64
	for _, v := range x {
		d := v - mean
		ss += d * d
		comp += d
	}
	n := float64(len(x))
	return mean, (ss - comp*comp/n) / n
}

// sampleSD returns the sample standard deviation (n-1 denominator) of x, or
// 0 when len(x) < 2.
func sampleSD(x []float64) float64 {
	n := len(x)
	if n < 2 {
		return 0
	}
	_, v := meanVar(x)
	return math.Sqrt(v * float64(n) / float64(n-1))
}

// quantileSorted returns the p-quantile of the sorted slice s by linear
// interpolation between order statistics (Hyndman & Fan type 7, the R
// default). It returns NaN for an empty slice.
func quantileSorted(s []float64, p float64) float64 {
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if p <= 0 {
		return s[0]
	}
	if p >= 1 {
		return s[n-1]
	}
	h := p * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return s[n-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// Mean returns the arithmetic mean of x (gonum's stat.Mean), NaN for an
// empty slice.
func Mean(x []float64) float64 { return stat.Mean(x, nil) }

// Median returns the median of x by linear interpolation between the two
// middle order statistics (R type 7), without modifying x; NaN for an
// empty slice.
func Median(x []float64) float64 { return median(x) }

// CoefVar returns the sample coefficient of variation of x, the sample
// standard deviation (n-1 denominator) over |mean|, as a fraction; 0 for
// fewer than two values or a zero mean.
func CoefVar(x []float64) float64 {
	if len(x) < 2 {
		return 0
	}
	m := stat.Mean(x, nil)
	if m == 0 {
		return 0
	}
	return stat.StdDev(x, nil) / math.Abs(m)
}
