package stats

import (
	"errors"
	"math"
	"testing"
)

// cisco32 is the 32-point (concurrency, throughput) data set of
// github.com/codahale/usl (model_test.go, `measurements`), whose tests
// assert σ = 0.02671591, κ = 7.690945e-4, λ = 995.6486 (relative 1e-5)
// and a maximum concurrency of 35.
var cisco32 = [][2]float64{
	{1, 955.16}, {2, 1878.91}, {3, 2688.01}, {4, 3548.68},
	{5, 4315.54}, {6, 5130.43}, {7, 5931.37}, {8, 6531.08},
	{9, 7219.8}, {10, 7867.61}, {11, 8278.71}, {12, 8646.7},
	{13, 9047.84}, {14, 9426.55}, {15, 9645.37}, {16, 9897.24},
	{17, 10097.6}, {18, 10240.5}, {19, 10532.39}, {20, 10798.52},
	{21, 11151.43}, {22, 11518.63}, {23, 11806}, {24, 12089.37},
	{25, 12075.41}, {26, 12177.29}, {27, 12211.41}, {28, 12158.93},
	{29, 12155.27}, {30, 12118.04}, {31, 12140.4}, {32, 12074.39},
}

func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }

// TestUSLCodahale is acceptance check 7.
func TestUSLCodahale(t *testing.T) {
	n := make([]float64, len(cisco32))
	x := make([]float64, len(cisco32))
	for i, p := range cisco32 {
		n[i], x[i] = p[0], p[1]
	}
	fit, err := FitUSL(n, x)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fit: %+v", fit)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"sigma", fit.Sigma, 0.02671591},
		{"kappa", fit.Kappa, 7.690945e-4},
		{"lambda", fit.Lambda, 995.6486},
		{"XMax", fit.XMax, 12341.745415132369},
	} {
		if e := relErr(c.got, c.want); e > 1e-5 {
			t.Errorf("%s = %.10g, want %.10g (relative error %.2g > 1e-5)", c.name, c.got, c.want, e)
		} else {
			t.Logf("%s = %.10g, want %.10g, relative error %.2g", c.name, c.got, c.want, e)
		}
	}
	if fit.NMax != 35 {
		t.Errorf("NMax = %d, want 35", fit.NMax)
	}
	if fit.NegativeSigma || fit.NegativeKappa {
		t.Errorf("unexpected negative-coefficient flags: %+v", fit)
	}
	if fit.R2 < 0.99 {
		t.Errorf("R² = %v, want > 0.99", fit.R2)
	}
}

func TestUSLSynthetic(t *testing.T) {
	truth := USLFit{Sigma: 0.05, Kappa: 0.002, Lambda: 250}
	var n, x []float64
	for _, c := range []float64{1, 2, 4, 8, 16, 32, 64} {
		n = append(n, c)
		x = append(x, truth.Throughput(c))
	}
	fit, err := FitUSL(n, x)
	if err != nil {
		t.Fatal(err)
	}
	if relErr(fit.Sigma, 0.05) > 1e-6 || relErr(fit.Kappa, 0.002) > 1e-6 || relErr(fit.Lambda, 250) > 1e-6 || fit.NMax != 21 || fit.R2 < 0.999999 {
		t.Errorf("exact USL data: %+v", fit)
	}

	// Superlinear data: σ < 0 is flagged.
	x = x[:0]
	for _, c := range n {
		x = append(x, 100*c*c/(1+0.01*c))
	}
	fit, err = FitUSL(n, x)
	if err != nil {
		t.Fatal(err)
	}
	if !fit.NegativeSigma {
		t.Errorf("superlinear data: %+v, want NegativeSigma", fit)
	}
	t.Logf("superlinear: %+v", fit)

	// Linear data: no peak.
	x = x[:0]
	for _, c := range n {
		x = append(x, 100*c)
	}
	fit, err = FitUSL(n, x)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(fit.Sigma) > 1e-6 || math.Abs(fit.Kappa) > 1e-6 || relErr(fit.Lambda, 100) > 1e-6 {
		t.Errorf("linear data: %+v", fit)
	}
	t.Logf("linear: %+v", fit)
}

func TestUSLErrors(t *testing.T) {
	n := []float64{1, 2, 3, 4, 5, 6}
	x := []float64{10, 20, 30, 40, 50, 60}
	for _, c := range []struct {
		n, x []float64
		want error
	}{
		{n[:5], x[:5], ErrTooFew},
		{n, x[:5], ErrParameter},
		{[]float64{1, 1, 1, 2, 2, 2}, x, ErrParameter},
		{[]float64{0, 1, 2, 3, 4, 5}, x, ErrParameter},
		{n, []float64{1, 2, 3, 4, 5, math.NaN()}, ErrNotFinite},
	} {
		if _, err := FitUSL(c.n, c.x); !errors.Is(err, c.want) {
			t.Errorf("FitUSL(%v, %v): err = %v, want %v", c.n, c.x, err, c.want)
		}
	}
	// Degenerate but valid: all zero throughput does not panic.
	if _, err := FitUSL(n, make([]float64, 6)); err != nil {
		t.Errorf("zero throughput: %v", err)
	}
}
