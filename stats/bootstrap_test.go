package stats

import (
	"errors"
	"math"
	"testing"
)

// ar1 returns an AR(1) series x_i = mean + phi·(x_{i-1}-mean) + e_i with
// e_i ~ N(0, 1), started from its stationary distribution.
func ar1(seed uint64, n int, mean, phi float64) []float64 {
	e := normals(seed, n, 0, 1)
	x := make([]float64, n)
	prev := e[0] / math.Sqrt(1-phi*phi)
	for i := range x {
		if i > 0 {
			prev = phi*prev + e[i]
		}
		x[i] = mean + prev
	}
	return x
}

func TestBootstrapMeanCI(t *testing.T) {
	x := normals(1, 50, 10, 2)
	ci, err := BootstrapMeanCI(x, 0, 0, DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := meanVar(x)
	if ci.Estimate != m || !(ci.Lo < m && m < ci.Hi) || ci.Level != 0.95 || ci.Method != MethodBootstrap {
		t.Errorf("CI %+v around mean %v", ci, m)
	}
	// About ±1.96·σ/√n = ±0.55.
	if w := ci.Hi - ci.Lo; w < 0.8 || w > 1.4 {
		t.Errorf("width %v, want about 1.1", w)
	}
	again, _ := BootstrapMeanCI(x, 0, 0, DefaultSeed)
	if again != ci {
		t.Errorf("not deterministic: %+v vs %+v", again, ci)
	}
	other, _ := BootstrapMeanCI(x, 0, 0, DefaultSeed+1)
	if other == ci {
		t.Error("the seed has no effect")
	}
	if _, err := BootstrapMeanCI([]float64{1}, 0, 0, 1); !errors.Is(err, ErrTooFew) {
		t.Errorf("one value: %v", err)
	}
	if _, err := BootstrapMeanCI(x, 0, 1.5, 1); !errors.Is(err, ErrParameter) {
		t.Errorf("level 1.5: %v", err)
	}
}

// TestBootstrapCoverage checks that the 95 % interval covers the true mean
// of independent data about 95 % of the time (the percentile bootstrap is
// a little short for small n: about 93-94 % at n = 30).
func TestBootstrapCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo")
	}
	t.Parallel()
	const trials = 400
	covered := 0
	for seed := range uint64(trials) {
		ci, err := BootstrapMeanCI(normals(seed, 30, 0, 1), 2000, 0.95, seed)
		if err != nil {
			t.Fatal(err)
		}
		if ci.Lo <= 0 && 0 <= ci.Hi {
			covered++
		}
	}
	frac := float64(covered) / trials
	t.Logf("bootstrap coverage %.1f %%", 100*frac)
	if frac < 0.90 || frac > 0.98 {
		t.Errorf("coverage %.1f %%, want about 95 %%", 100*frac)
	}
}

// TestBatchMeansCoverage: on AR(1) data with phi = 0.8, the batch-means
// interval keeps roughly its level where the bootstrap, which assumes
// independence, falls far short.
func TestBatchMeansCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo")
	}
	t.Parallel()
	const trials = 300
	bm, bs, chosen := 0, 0, 0
	for seed := range uint64(trials) {
		x := ar1(seed, 2000, 5, 0.8)
		c1, err := BatchMeansCI(x, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if c1.Lo <= 5 && 5 <= c1.Hi {
			bm++
		}
		c2, _ := BootstrapMeanCI(x, 1000, 0, seed)
		if c2.Lo <= 5 && 5 <= c2.Hi {
			bs++
		}
		c3, _ := SteadyStateCI(x, 1000, 0, seed)
		if c3.Method == MethodBatchMeans {
			chosen++
		}
	}
	t.Logf("AR(1) 0.8: batch-means coverage %.1f %%, bootstrap %.1f %%, batch means chosen %d/%d",
		100*float64(bm)/trials, 100*float64(bs)/trials, chosen, trials)
	if f := float64(bm) / trials; f < 0.90 {
		t.Errorf("batch-means coverage %.1f %%, want about 95 %%", 100*f)
	}
	if f := float64(bs) / trials; f > 0.80 {
		t.Errorf("bootstrap coverage %.1f %% on AR(1) data: expected far below 95 %%", 100*f)
	}
	if chosen != trials {
		t.Errorf("SteadyStateCI chose batch means %d of %d times", chosen, trials)
	}
}

func TestBatchMeansCI(t *testing.T) {
	// Batch means 1..4 (batches of 2): mean 2.5, sd 1.29, t(0.975, 3) =
	// 3.182, half-width 3.182·1.29/2 = 2.054.
	x := []float64{1, 1, 2, 2, 3, 3, 4, 4, 99}
	ci, err := BatchMeansCI(x, 4, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	half := 3.182446305284263 * math.Sqrt(5.0/3) / 2
	if ci.Estimate != 2.5 || math.Abs(ci.Lo-(2.5-half)) > 1e-9 || math.Abs(ci.Hi-(2.5+half)) > 1e-9 {
		t.Errorf("%+v, want 2.5 ± %v", ci, half)
	}
	if _, err := BatchMeansCI(x, 1, 0); !errors.Is(err, ErrParameter) {
		t.Errorf("one batch: %v", err)
	}
	if _, err := BatchMeansCI(x[:3], 4, 0); !errors.Is(err, ErrTooFew) {
		t.Errorf("3 values, 4 batches: %v", err)
	}
}

func TestLag1Autocorrelation(t *testing.T) {
	if r := Lag1Autocorrelation(ar1(3, 5000, 0, 0.8)); math.Abs(r-0.8) > 0.03 {
		t.Errorf("AR(1) 0.8: r1 = %v", r)
	}
	if r := Lag1Autocorrelation([]float64{1, -1, 1, -1, 1, -1}); r >= -0.8 {
		t.Errorf("alternating: r1 = %v, want about -1", r)
	}
	for _, x := range [][]float64{nil, {1, 2}, {3, 3, 3, 3}} {
		if r := Lag1Autocorrelation(x); r != 0 {
			t.Errorf("%v: r1 = %v, want 0", x, r)
		}
	}
	if Autocorrelated(normals(4, 2000, 0, 1)) {
		t.Error("white noise flagged as autocorrelated")
	}
	if !Autocorrelated(ar1(4, 2000, 0, 0.3)) {
		t.Error("AR(1) 0.3 not flagged as autocorrelated")
	}
	ci, err := SteadyStateCI(normals(5, 2000, 0, 1), 1000, 0, 1)
	if err != nil || ci.Method != MethodBootstrap {
		t.Errorf("white noise: %+v %v, want the bootstrap", ci, err)
	}
}

func TestBootstrapRatioCI(t *testing.T) {
	a := normals(1, 10, 1100, 30) // B is 10 % faster than A
	b := normals(2, 10, 1000, 30)
	ci, err := BootstrapRatioCI(a, b, 0, 0, DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	ma, _ := meanVar(a)
	mb, _ := meanVar(b)
	if ci.Estimate != ma/mb || !(ci.Lo < ci.Estimate && ci.Estimate < ci.Hi) || !(ci.Lo < 1.1 && 1.1 < ci.Hi) || ci.Lo < 1.02 {
		t.Errorf("ratio CI %+v, want around 1.1 and above 1.02", ci)
	}
	if _, err := BootstrapRatioCI(a, []float64{1, -1, 2}, 0, 0, 1); !errors.Is(err, ErrParameter) {
		t.Errorf("mixed-sign denominator: %v", err)
	}
	if _, err := BootstrapRatioCI(a, []float64{1}, 0, 0, 1); !errors.Is(err, ErrTooFew) {
		t.Errorf("one-value denominator: %v", err)
	}
}
