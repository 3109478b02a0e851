package stats

import (
	"errors"
	"testing"
)

// TestMSERShift is acceptance check 1: n=1000, N(0,1) plus +2σ for i<200.
func TestMSERShift(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo")
	}
	t.Parallel()
	const seeds = 200
	devs := make([]int, 0, seeds)
	within := 0
	for seed := range uint64(seeds) {
		x := normals(seed, 1000, 0, 1)
		for i := range 200 {
			x[i] += 2
		}
		d, more, err := MSER5(x)
		if err != nil {
			t.Fatal(err)
		}
		if more {
			t.Errorf("seed %d: needsMoreData", seed)
		}
		dev := max(d-200, 200-d)
		devs = append(devs, dev)
		if dev <= 10 {
			within++
		}
	}
	med := intMedian(devs)
	frac := float64(within) / seeds
	t.Logf("median |d*-200| = %d, %.1f %% within ±10", med, 100*frac)
	if med > 5 {
		t.Errorf("median |d*-200| = %d, want <= 5", med)
	}
	if frac < 0.80 {
		t.Errorf("%.1f %% within ±10, want >= 80 %%", 100*frac)
	}
}

// TestMSERFlat is acceptance check 2: flat N(0,1), n=1000.
func TestMSERFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo")
	}
	t.Parallel()
	const seeds = 200
	ds := make([]int, 0, seeds)
	for seed := range uint64(seeds) {
		d, _, err := MSER5(normals(1000+seed, 1000, 0, 1))
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	med, p95 := intMedian(ds), intPercentile(ds, 0.95)
	t.Logf("median d* = %d, 95th percentile = %d", med, p95)
	if med != 0 {
		t.Errorf("median d* = %d, want 0", med)
	}
	if p95 > 50 {
		t.Errorf("95th percentile d* = %d, want <= 50", p95)
	}
}

func TestMSEREdges(t *testing.T) {
	if _, _, err := MSER5(nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("nil: err = %v, want ErrEmpty", err)
	}
	if _, _, err := MSER5(make([]float64, 19)); !errors.Is(err, ErrTooFew) {
		t.Errorf("19 values: err = %v, want ErrTooFew", err)
	}
	if _, _, err := MSER5([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 1 / zero()}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("Inf: err = %v, want ErrNotFinite", err)
	}
	// A constant series has no warm-up.
	if d, more, err := MSER5(make([]float64, 100)); d != 0 || more || err != nil {
		t.Errorf("constant: %d %v %v, want 0 false nil", d, more, err)
	}
	// A trend over the whole series: the truncation point is at the edge
	// of the search, so more data are needed.
	x := make([]float64, 1000)
	for i := range x {
		x[i] = -float64(i)
	}
	if d, more, err := MSER5(x); !more || err != nil {
		t.Errorf("trend: d*=%d more=%v err=%v, want more", d, more, err)
	}
	// The end artifact (the last batches coinciding) does not pull d* to
	// the end: only the first half of the batches is searched.
	x = normals(7, 500, 0, 1)
	for i := 490; i < 500; i++ {
		x[i] = 0
	}
	if d, more, err := MSER5(x); d >= 250 || more || err != nil {
		t.Errorf("end artifact: d*=%d more=%v err=%v", d, more, err)
	}
}

// zero returns 0 in a way the compiler cannot fold.
func zero() float64 { return float64(len([]int{})) }
