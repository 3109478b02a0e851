package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"
)

// MinUSLPoints is the fewest (concurrency, throughput) points FitUSL fits.
const MinUSLPoints = 6

// USLFit is a Universal Scalability Law model fitted by FitUSL.
type USLFit struct {
	Sigma  float64 // contention (serial fraction), σ
	Kappa  float64 // coherency (crosstalk), κ
	Lambda float64 // throughput of one worker, λ
	// NMax is the concurrency of peak throughput, floor(sqrt((1-σ)/κ)),
	// and XMax the modelled throughput there; both are 0 when κ <= 0 or
	// σ >= 1 (no finite peak).
	NMax int
	XMax float64
	R2   float64 // coefficient of determination of the fit
	// NegativeSigma and NegativeKappa flag physically meaningless
	// negative coefficients (superlinear scaling, or too few or too noisy
	// points); the fit is then a curve, not a model of the system.
	NegativeSigma, NegativeKappa bool
}

// Throughput returns the modelled throughput at concurrency n,
// λn/(1+σ(n-1)+κn(n-1)).
func (f USLFit) Throughput(n float64) float64 {
	return f.Lambda * n / (1 + f.Sigma*(n-1) + f.Kappa*n*(n-1))
}

// FitUSL fits Gunther's Universal Scalability Law, X(N) = λN / (1 + σ(N-1)
// + κN(N-1)) (Gunther, "Guerrilla Capacity Planning", Springer 2007, ch.
// 4), to throughputs x measured at concurrencies n by non-linear least
// squares: it minimises Σ(x_i - X(n_i))² with gonum's optimize package
// (Nelder-Mead from λ = x/n at the smallest n, σ = κ = 0, then BFGS with
// the analytic gradient to polish), on parameters scaled to be of order 1.
//
// n and x must have the same length, at least MinUSLPoints, be finite, with
// n > 0 and x >= 0, and hold at least 3 distinct concurrencies (else
// ErrParameter, ErrNotFinite or a *TooFewError). When the optimiser fails
// before it has a finite objective the error wraps ErrNoConvergence.
func FitUSL(n, x []float64) (USLFit, error) {
	if len(n) != len(x) {
		return USLFit{}, fmt.Errorf("%w: %d concurrencies but %d throughputs", ErrParameter, len(n), len(x))
	}
	if len(n) < MinUSLPoints {
		return USLFit{}, tooFew("USL fit", MinUSLPoints, len(n))
	}
	if err := checkFinite(n); err != nil {
		return USLFit{}, err
	}
	if err := checkFinite(x); err != nil {
		return USLFit{}, err
	}
	distinct := map[float64]bool{}
	nMin, nMax, i0 := math.Inf(1), 0.0, 0
	var sxx float64
	for i := range n {
		if n[i] <= 0 || x[i] < 0 {
			return USLFit{}, fmt.Errorf("%w: USL needs concurrency > 0 and throughput >= 0", ErrParameter)
		}
		distinct[n[i]] = true
		if n[i] < nMin {
			nMin, i0 = n[i], i
		}
		nMax = max(nMax, n[i])
		sxx += x[i] * x[i]
	}
	if len(distinct) < 3 {
		return USLFit{}, fmt.Errorf("%w: USL needs at least 3 distinct concurrencies", ErrParameter)
	}
	lambda0 := x[i0] / n[i0]
	if sxx == 0 || lambda0 == 0 {
		lambda0 = 1
		if sxx == 0 {
			sxx = 1
		}
	}

	// p = (σ·N, κ·N², λ/λ0) with N the largest concurrency: every term of
	// the denominator and the model is then of order 1.
	unscale := func(p []float64) (s, k, l float64) {
		return p[0] / nMax, p[1] / (nMax * nMax), p[2] * lambda0
	}
	obj := func(p []float64) float64 {
		s, k, l := unscale(p)
		var ss float64
		for i, ni := range n {
			d := 1 + s*(ni-1) + k*ni*(ni-1)
			if !(d > 0) {
				return math.Inf(1)
			}
			r := x[i] - l*ni/d
			ss += r * r
		}
		return ss / sxx
	}
	grad := func(g, p []float64) {
		s, k, l := unscale(p)
		g[0], g[1], g[2] = 0, 0, 0
		for i, ni := range n {
			d := 1 + s*(ni-1) + k*ni*(ni-1)
			r := x[i] - l*ni/d
			// d model / d (σ, κ, λ)
			ds := -l * ni * (ni - 1) / (d * d)
			dk := -l * ni * ni * (ni - 1) / (d * d)
			dl := ni / d
			g[0] += -2 * r * ds
			g[1] += -2 * r * dk
			g[2] += -2 * r * dl
		}
		g[0] /= nMax * sxx
		g[1] /= nMax * nMax * sxx
		g[2] *= lambda0 / sxx
	}

	p := []float64{0, 0, 1}
	nm, err := optimize.Minimize(optimize.Problem{Func: obj}, p,
		&optimize.Settings{Converger: &optimize.FunctionConverge{Absolute: 1e-15, Iterations: 200}, FuncEvaluations: 20000},
		&optimize.NelderMead{})
	if err != nil && nm == nil {
		return USLFit{}, fmt.Errorf("%w: %w", ErrNoConvergence, err)
	}
	if nm != nil {
		p = nm.X
	}
	bf, err := optimize.Minimize(optimize.Problem{Func: obj, Grad: grad}, p,
		&optimize.Settings{GradientThreshold: 1e-14, Converger: &optimize.FunctionConverge{Absolute: 0, Relative: 1e-15, Iterations: 50}, MajorIterations: 10000},
		&optimize.BFGS{})
	if bf != nil && bf.F <= obj(p) {
		p = bf.X
	} else if err != nil && math.IsInf(obj(p), 1) {
		return USLFit{}, fmt.Errorf("%w: %w", ErrNoConvergence, err)
	}

	s, k, l := unscale(p)
	fit := USLFit{Sigma: s, Kappa: k, Lambda: l, NegativeSigma: s < 0, NegativeKappa: k < 0}
	if k > 0 && s < 1 {
		fit.NMax = int(math.Floor(math.Sqrt((1 - s) / k)))
		fit.XMax = fit.Throughput(float64(fit.NMax))
	}
	var mean float64
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ssr, sst float64
	for i, ni := range n {
		r := x[i] - fit.Throughput(ni)
		ssr += r * r
		sst += (x[i] - mean) * (x[i] - mean)
	}
	if sst > 0 {
		fit.R2 = 1 - ssr/sst
	}
	return fit, nil
}
