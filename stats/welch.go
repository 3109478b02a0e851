package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// WelchT performs Welch's two-sided t-test (Welch, "The generalization of
// 'Student's' problem when several different population variances are
// involved", Biometrika 34, 1947) of equal means of x and y without
// assuming equal variances: t = (x̄ - ȳ) / √(s²x/nx + s²y/ny) with the
// Welch-Satterthwaite degrees of freedom, and p from Student's t.
//
// Both samples need at least 2 finite observations (else *TooFewError or
// ErrNotFinite). When both have zero variance, p is 0 when the means
// differ and 1 when they are equal (t is then ±Inf or 0, df NaN).
func WelchT(x, y []float64) (t, df, p float64, err error) {
	for _, s := range [][]float64{x, y} {
		if err := checkFinite(s); err != nil {
			return 0, 0, 0, err
		}
		if len(s) < 2 {
			return 0, 0, 0, tooFew("Welch t-test", 2, len(s))
		}
	}
	mx, vx := stat.MeanVariance(x, nil) // unbiased variances
	my, vy := stat.MeanVariance(y, nil)
	nx, ny := float64(len(x)), float64(len(y))
	ax, ay := vx/nx, vy/ny
	se := math.Sqrt(ax + ay)
	if se == 0 {
		if mx == my {
			return 0, math.NaN(), 1, nil
		}
		return math.Copysign(math.Inf(1), mx-my), math.NaN(), 0, nil
	}
	t = (mx - my) / se
	df = (ax + ay) * (ax + ay) / (ax*ax/(nx-1) + ay*ay/(ny-1))
	p = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.CDF(-math.Abs(t))
	return t, df, p, nil
}
