package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"
)

// MinUSLPoints is the fewest (concurrency, throughput) points FitUSL fits.
const MinUSLPoints = 6

// USLFit is a Universal Scalability Law model fitted by FitUSL. Its JSON
// is summary.json's capacity.usl (docs/SCHEMA.md; figures rounded there).
type USLFit struct {
	Sigma  float64 `json:"sigma"`  // contention (serial fraction), σ
	Kappa  float64 `json:"kappa"`  // coherency (crosstalk), κ
	Lambda float64 `json:"lambda"` // throughput of one worker, λ
	// NMax is the concurrency of peak throughput, floor(sqrt((1-σ)/κ)),
	// and XMax the modelled throughput there; both are 0 when κ <= 0 or
	// σ >= 1 (no finite peak).
	NMax int     `json:"n_max"`
	XMax float64 `json:"x_max"`
	R2   float64 `json:"r2"` // coefficient of determination of the fit
	// NegativeSigma and NegativeKappa flag physically meaningless
	// negative coefficients (superlinear scaling, or too few or too noisy
	// points); the fit is then a curve, not a model of the system.
	NegativeSigma bool `json:"negative_sigma,omitempty"`
	NegativeKappa bool `json:"negative_kappa,omitempty"`
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
	if err := checkUSLInput(n, x); err != nil {
		return USLFit{}, err
	}
	u := newUSLProblem(n, x)
	p, err := u.minimize()
	if err != nil {
		return USLFit{}, err
	}
	s, k, l := u.unscale(p)
	fit := USLFit{Sigma: s, Kappa: k, Lambda: l, NegativeSigma: s < 0, NegativeKappa: k < 0}
	if k > 0 && s < 1 {
		fit.NMax = int(math.Floor(math.Sqrt((1 - s) / k)))
		fit.XMax = fit.Throughput(float64(fit.NMax))
	}
	fit.R2 = uslR2(fit, n, x)
	return fit, nil
}

// checkUSLInput demands as many finite concurrencies (> 0) as throughputs
// (>= 0), at least MinUSLPoints, of at least 3 distinct concurrencies.
func checkUSLInput(n, x []float64) error {
	if len(n) != len(x) {
		return fmt.Errorf("%w: %d concurrencies but %d throughputs", ErrParameter, len(n), len(x))
	}
	if len(n) < MinUSLPoints {
		return tooFew("USL fit", MinUSLPoints, len(n))
	}
	if err := checkFinite(n); err != nil {
		return err
	}
	if err := checkFinite(x); err != nil {
		return err
	}
	distinct := map[float64]bool{}
	for i := range n {
		if n[i] <= 0 || x[i] < 0 {
			return fmt.Errorf("%w: USL needs concurrency > 0 and throughput >= 0", ErrParameter)
		}
		distinct[n[i]] = true
	}
	if len(distinct) < 3 {
		return fmt.Errorf("%w: USL needs at least 3 distinct concurrencies", ErrParameter)
	}
	return nil
}

// uslProblem is the least-squares problem of a USL fit, on parameters
// p = (σ·N, κ·N², λ/λ0) with N the largest concurrency: every term of
// the denominator and the model is then of order 1. The objective is
// scaled by sxx, the sum of the squared throughputs.
type uslProblem struct {
	n, x               []float64
	nMax, lambda0, sxx float64
}

// newUSLProblem starts λ0 at the throughput per user at the smallest
// concurrency (1 when it or every throughput is 0).
func newUSLProblem(n, x []float64) *uslProblem {
	u := &uslProblem{n: n, x: x}
	nMin, i0 := math.Inf(1), 0
	for i := range n {
		if n[i] < nMin {
			nMin, i0 = n[i], i
		}
		u.nMax = max(u.nMax, n[i])
		u.sxx += x[i] * x[i]
	}
	u.lambda0 = x[i0] / n[i0]
	if u.sxx == 0 || u.lambda0 == 0 {
		u.lambda0 = 1
		if u.sxx == 0 {
			u.sxx = 1
		}
	}
	return u
}

func (u *uslProblem) unscale(p []float64) (s, k, l float64) {
	return p[0] / u.nMax, p[1] / (u.nMax * u.nMax), p[2] * u.lambda0
}

// obj is the scaled residual sum of squares (+Inf where a denominator is
// not positive).
func (u *uslProblem) obj(p []float64) float64 {
	s, k, l := u.unscale(p)
	var ss float64
	for i, ni := range u.n {
		d := 1 + s*(ni-1) + k*ni*(ni-1)
		if !(d > 0) {
			return math.Inf(1)
		}
		r := u.x[i] - l*ni/d
		ss += r * r
	}
	return ss / u.sxx
}

// grad is the analytic gradient of obj.
func (u *uslProblem) grad(g, p []float64) {
	s, k, l := u.unscale(p)
	g[0], g[1], g[2] = 0, 0, 0
	for i, ni := range u.n {
		d := 1 + s*(ni-1) + k*ni*(ni-1)
		r := u.x[i] - l*ni/d
		// d model / d (σ, κ, λ)
		ds := -l * ni * (ni - 1) / (d * d)
		dk := -l * ni * ni * (ni - 1) / (d * d)
		dl := ni / d
		g[0] += -2 * r * ds
		g[1] += -2 * r * dk
		g[2] += -2 * r * dl
	}
	g[0] /= u.nMax * u.sxx
	g[1] /= u.nMax * u.nMax * u.sxx
	g[2] *= u.lambda0 / u.sxx
}

// minimize runs Nelder-Mead from σ = κ = 0, λ = λ0, then polishes with
// BFGS; the error wraps ErrNoConvergence when no finite objective was
// reached.
func (u *uslProblem) minimize() ([]float64, error) {
	p := []float64{0, 0, 1}
	nm, err := optimize.Minimize(optimize.Problem{Func: u.obj}, p,
		&optimize.Settings{Converger: &optimize.FunctionConverge{Absolute: 1e-15, Iterations: 200}, FuncEvaluations: 20000},
		&optimize.NelderMead{})
	if err != nil && nm == nil {
		return nil, fmt.Errorf("%w: %w", ErrNoConvergence, err)
	}
	if nm != nil {
		p = nm.X
	}
	bf, err := optimize.Minimize(optimize.Problem{Func: u.obj, Grad: u.grad}, p,
		&optimize.Settings{GradientThreshold: 1e-14, Converger: &optimize.FunctionConverge{Absolute: 0, Relative: 1e-15, Iterations: 50}, MajorIterations: 10000},
		&optimize.BFGS{})
	if bf != nil && bf.F <= u.obj(p) {
		p = bf.X
	} else if err != nil && math.IsInf(u.obj(p), 1) {
		return nil, fmt.Errorf("%w: %w", ErrNoConvergence, err)
	}
	return p, nil
}

// uslR2 is the coefficient of determination of fit on the points (0 when
// the throughputs do not vary).
func uslR2(fit USLFit, n, x []float64) float64 {
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
		return 1 - ssr/sst
	}
	return 0
}
