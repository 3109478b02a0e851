package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MethodWelchLog is the CI method of WelchLogRatio.
const MethodWelchLog = "welch-t-log"

// WelchLogRatio estimates how many times larger x is than y as the ratio
// of their geometric means, with Welch's t-interval of the difference of
// the log means at level and the two-sided p of Welch's t-test on the logs
// (scatter between runs is multiplicative). It is the test below the
// exact Mann-Whitney test's reach only, as it rests on the normality of
// the logs (STATISTICS.md). Both samples must be finite and positive with
// at least 2 observations each (else ErrNotFinite, ErrParameter or a
// *TooFewError); level 0 selects DefaultLevel. Without spread on both
// sides the interval is the estimate and p is 0 (different) or 1 (equal).
func WelchLogRatio(x, y []float64, level float64) (ci CI, p float64, err error) {
	lx, ly := make([]float64, len(x)), make([]float64, len(y))
	for i, s := range [][]float64{x, y} {
		if err := checkFinite(s); err != nil {
			return CI{}, 0, err
		}
		if len(s) < 2 {
			return CI{}, 0, tooFew("Welch t-test", 2, len(s))
		}
		l := [][]float64{lx, ly}[i]
		for j, v := range s {
			if v <= 0 {
				return CI{}, 0, fmt.Errorf("%w: a ratio needs positive values, have %v", ErrParameter, v)
			}
			l[j] = math.Log(v)
		}
	}
	_, level, err = ciDefaults(1, level)
	if err != nil {
		return CI{}, 0, err
	}
	_, df, p, err := WelchT(lx, ly)
	if err != nil {
		return CI{}, 0, err
	}
	d := Mean(lx) - Mean(ly)
	ci = CI{Estimate: math.Exp(d), Lo: math.Exp(d), Hi: math.Exp(d), Level: level, Method: MethodWelchLog}
	if math.IsNaN(df) { // no spread on either side
		return ci, p, nil
	}
	se := math.Sqrt(stat.Variance(lx, nil)/float64(len(lx)) + stat.Variance(ly, nil)/float64(len(ly)))
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1 - (1-level)/2)
	ci.Lo, ci.Hi = math.Exp(d-q*se), math.Exp(d+q*se)
	return ci, p, nil
}
