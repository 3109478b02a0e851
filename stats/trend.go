package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// maxTrendPoints bounds the observations TrendTest works on: longer series
// are reduced to batch means first.
const maxTrendPoints = 256

// mannKendallExactLimit is the largest series for which MannKendall
// computes the exact p-value (without ties).
const mannKendallExactLimit = 50

// MannKendall performs the two-sided Mann-Kendall test for a monotone trend
// in x against its order (Mann, "Nonparametric tests against trend",
// Econometrica 13(3), 1945; Kendall, "Rank Correlation Methods", 1975):
// S = Σ_{i<j} sign(x_j - x_i), and tau = S / (n(n-1)/2), Kendall's tau
// between the values and their positions.
//
// Without ties and for n <= 50 the p-value is exact: under "no trend" every
// order is equally likely, and the distribution of the number of
// inversions of a random permutation (the Mahonian numbers) gives that of
// S. Otherwise it uses the normal approximation with the tie correction of
// the variance, n(n-1)(2n+5)/18 - Σ t(t-1)(2t+5)/18, and a continuity
// correction of 1. Fewer than 3 values, or a constant series, give S = 0
// and p = 1. x must be finite (else ErrEmpty or ErrNotFinite).
func MannKendall(x []float64) (s int, tau, p float64, err error) {
	if err := checkFinite(x); err != nil {
		return 0, 0, 0, err
	}
	n := len(x)
	if n < 3 {
		return 0, 0, 1, nil
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			switch {
			case x[j] > x[i]:
				s++
			case x[j] < x[i]:
				s--
			}
		}
	}
	pairs := n * (n - 1) / 2
	tau = float64(s) / float64(pairs)
	sorted := slices.Clone(x)
	slices.Sort(sorted)
	var tieVar float64
	ties := false
	for i := 0; i < n; {
		j := i + 1
		for j < n && sorted[j] == sorted[i] {
			j++
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieVar += t * (t - 1) * (2*t + 5)
		}
		i = j
	}
	if ties && sorted[0] == sorted[n-1] {
		return 0, 0, 1, nil
	}
	if !ties && n <= mannKendallExactLimit {
		return s, tau, exactKendallP(n, s), nil
	}
	fn := float64(n)
	v := (fn*(fn-1)*(2*fn+5) - tieVar) / 18
	if v <= 0 {
		return s, tau, 1, nil
	}
	z := math.Max(math.Abs(float64(s))-1, 0) / math.Sqrt(v)
	return s, tau, math.Min(1, 2*distuv.UnitNormal.Survival(z)), nil
}

// exactKendallP returns P(|S| >= |s|) for a random permutation of n
// distinct values. S = pairs - 2·inversions, and the probabilities of the
// inversion counts follow the recursion P_n(k) = (1/n) Σ_{j<n} P_{n-1}(k-j).
func exactKendallP(n, s int) float64 {
	pairs := n * (n - 1) / 2
	prob := []float64{1}
	for m := 2; m <= n; m++ {
		next := make([]float64, len(prob)+m-1)
		for k, pk := range prob {
			for j := range m {
				next[k+j] += pk / float64(m)
			}
		}
		prob = next
	}
	abs := s
	if abs < 0 {
		abs = -abs
	}
	var p float64
	for inv, pk := range prob {
		si := pairs - 2*inv
		if si < 0 {
			si = -si
		}
		if si >= abs {
			p += pk
		}
	}
	return math.Min(1, p)
}

// TheilSen returns the Theil-Sen estimate of the slope of x against its
// position, the median of (x_j - x_i)/(j - i) over all pairs i < j (Theil,
// "A rank-invariant method of linear and polynomial regression analysis",
// 1950; Sen, "Estimates of the regression coefficient based on Kendall's
// tau", JASA 63(324), 1968), and the intercept median(x_i - slope·i). A
// single value gives slope 0 and intercept x[0]. x must be finite.
func TheilSen(x []float64) (slope, intercept float64, err error) {
	if err := checkFinite(x); err != nil {
		return 0, 0, err
	}
	n := len(x)
	if n == 1 {
		return 0, x[0], nil
	}
	slopes := make([]float64, 0, n*(n-1)/2)
	for i := range n {
		for j := i + 1; j < n; j++ {
			slopes = append(slopes, (x[j]-x[i])/float64(j-i))
		}
	}
	slope = Median(slopes)
	res := make([]float64, n)
	for i, v := range x {
		res[i] = v - slope*float64(i)
	}
	return slope, Median(res), nil
}

// Trend is the outcome of TrendTest.
type Trend struct {
	// N is the number of points tested, and Batch the number of
	// observations averaged into each (1 unless the series was longer
	// than 256 observations).
	N, Batch int
	// Slope is the Theil-Sen slope per observation, and Change the fitted
	// change over the series, Slope·(len(x)-1), in the units of x.
	Slope, Change float64
	// Level is the median of x; SD the standard deviation of the tested
	// points and ResidSD their standard deviation about the Theil-Sen
	// line.
	Level, SD, ResidSD float64
	// Tau and P are Kendall's tau and the Mann-Kendall p-value.
	Tau, P float64
	// Persistent is true when the trend is both significant (P < alpha)
	// and large: |Change| > 2·max(SD, delta·|Level|).
	Persistent bool
}

// TrendTest asks whether a series that should be steady keeps moving: a
// monotone trend significant at alpha (MannKendall) whose Theil-Sen size
// over the series exceeds twice the larger of its standard deviation and
// delta·|median| (STATISTICS.md), so that neither negligible drift in a
// long series nor noise counts. Series over 256 observations are reduced
// to at most 256 batch means first. alpha <= 0 selects DefaultAlpha and
// delta <= 0 DefaultDelta. x must be finite (else ErrEmpty or
// ErrNotFinite); fewer than 3 points are never Persistent.
func TrendTest(x []float64, alpha, delta float64) (Trend, error) {
	if err := checkFinite(x); err != nil {
		return Trend{}, err
	}
	if !(alpha > 0) {
		alpha = DefaultAlpha
	}
	if !(delta > 0) {
		delta = DefaultDelta
	}
	b := (len(x) + maxTrendPoints - 1) / maxTrendPoints
	y := x
	if b > 1 {
		y = make([]float64, len(x)/b)
		for j := range y {
			y[j] = Mean(x[j*b : (j+1)*b])
		}
	}
	slope, icpt, err := TheilSen(y)
	if err != nil {
		return Trend{}, err
	}
	t := Trend{N: len(y), Batch: b, Slope: slope / float64(b), Level: Median(x)}
	t.Change = t.Slope * float64(len(x)-1)
	res := make([]float64, len(y))
	for i, v := range y {
		res[i] = v - (icpt + slope*float64(i))
	}
	t.ResidSD = sampleSD(res)
	t.SD = sampleSD(y)
	_, t.Tau, t.P, err = MannKendall(y)
	if err != nil {
		return Trend{}, err
	}
	t.Persistent = len(y) >= 3 && t.P < alpha && math.Abs(t.Change) > 2*max(t.SD, delta*math.Abs(t.Level))
	return t, nil
}

// MannKendallAR1 is Mann-Kendall's test with the variance of S corrected
// for lag-1 autocorrelation (Yue and Wang, "The Mann-Kendall test
// modified by effective sample size to detect trend in serially
// correlated hydrological series", Water Resources Management 18, 2004):
// the series is detrended by its Theil-Sen slope, r1 is the lag-1
// autocorrelation of the residuals, clamped to [0, 0.9] (only a positive
// one makes the plain test too liberal), and the variance of S is
// multiplied by n/n* = 1 + 2·Σ_{k=1}^{n-1} (1 - k/n)·r1^k (an AR(1)
// process). With r1 = 0 it is MannKendall's p (exact where that is);
// otherwise the normal approximation with the tie-corrected variance and
// a continuity correction of 1. It returns Kendall's tau, the two-sided
// p-value and r1. x must be finite (else ErrEmpty or ErrNotFinite).
func MannKendallAR1(x []float64) (tau, p, rho float64, err error) {
	s, tau, p, err := MannKendall(x)
	if err != nil || len(x) < 3 || p == 1 && s == 0 {
		return tau, p, 0, err
	}
	slope, icpt, err := TheilSen(x)
	if err != nil {
		return 0, 0, 0, err
	}
	n := len(x)
	res := make([]float64, n)
	for i, v := range x {
		res[i] = v - (icpt + slope*float64(i))
	}
	m := Mean(res)
	var num, den float64
	for i, v := range res {
		den += (v - m) * (v - m)
		if i > 0 {
			num += (v - m) * (res[i-1] - m)
		}
	}
	if den > 0 {
		rho = min(max(num/den, 0), 0.9)
	}
	if rho == 0 {
		return tau, p, 0, nil
	}
	fn := float64(n)
	f := 1.0
	for k := 1; k < n; k++ {
		f += 2 * (1 - float64(k)/fn) * math.Pow(rho, float64(k))
	}
	sorted := slices.Clone(x)
	slices.Sort(sorted)
	var tieVar float64
	for i := 0; i < n; {
		j := i + 1
		for j < n && sorted[j] == sorted[i] {
			j++
		}
		if t := float64(j - i); t > 1 {
			tieVar += t * (t - 1) * (2*t + 5)
		}
		i = j
	}
	v := (fn*(fn-1)*(2*fn+5) - tieVar) / 18 * f
	if v <= 0 {
		return tau, 1, rho, nil
	}
	z := math.Max(math.Abs(float64(s))-1, 0) / math.Sqrt(v)
	// Never more liberal than the plain test.
	return tau, math.Max(p, math.Min(1, 2*distuv.UnitNormal.Survival(z))), rho, nil
}
