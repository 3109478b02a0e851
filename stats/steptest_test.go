package stats

import (
	"errors"
	"math"
	"testing"
)

// TestStepTestMonteCarlo is the acceptance check of the short-series
// method (docs/STATISTICS.md, check 11): on 10 runs with N(0,1) noise, a
// step of 3 noise SDs after 3, 4 or 5 runs (each equally often) is found,
// significant and within one run of its place, in >= 80 % of series; a
// flat series gets a changepoint in 5 % (alpha, up to simulation error).
func TestStepTestMonteCarlo(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo")
	}
	t.Parallel()
	const seeds = 400
	all := 0
	for _, at := range []int{3, 4, 5} {
		found := 0
		for seed := range uint64(seeds) {
			x := normals(31000+seed+uint64(at)*1000, 10, 0, 1)
			for i := at; i < len(x); i++ {
				x[i] += 3
			}
			st, err := SegmentSteps(x, 0, 0, 0, DefaultSeed)
			if err != nil {
				t.Fatal(err)
			}
			if st.First.P < DefaultAlpha && math.Abs(float64(st.First.K-at)) <= 1 {
				found++
			}
		}
		all += found
		t.Logf("step of 3 SD after %d of 10 runs: found in %.1f %%", at, 100*float64(found)/seeds)
	}
	if frac := float64(all) / (3 * seeds); frac < 0.80 {
		t.Errorf("step after 3-5 runs: found in %.1f %%, want >= 80 %%", 100*frac)
	} else {
		t.Logf("step after 3-5 runs: found in %.1f %%", 100*frac)
	}
	// The test is exact at its level, so the rate of a finite check
	// scatters about 5 %: 10,000 series, and 2 standard errors allowed.
	const flat = 10000
	fp := 0
	for seed := range uint64(flat) {
		st, err := SegmentSteps(normals(47000+seed, 10, 0, 1), 0, 0, 0, DefaultSeed)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Changepoints) > 0 {
			fp++
		}
	}
	frac := float64(fp) / flat
	limit := DefaultAlpha + 2*math.Sqrt(DefaultAlpha*(1-DefaultAlpha)/flat)
	t.Logf("flat series of 10 with a changepoint: %.2f %% (limit %.2f %%)", 100*frac, 100*limit)
	if frac > limit {
		t.Errorf("flat series with a changepoint: %.2f %%, want <= %.2f %%", 100*frac, 100*limit)
	}
}

func TestStepTest(t *testing.T) {
	for _, c := range []struct {
		name    string
		x       []float64
		wantK   int
		signif  bool
		wantErr error
	}{
		{"clear step", []float64{10, 11, 10, 11, 20, 21, 20, 21, 20, 21}, 4, true, nil},
		{"flat", []float64{10, 11, 10, 11, 10, 11, 10, 11, 10, 11}, -1, false, nil},
		{"constant", []float64{5, 5, 5, 5}, 0, false, nil},
		{"too few", []float64{1, 2, 3}, 0, false, ErrTooFew},
		{"nan", []float64{1, 2, math.NaN(), 4}, 0, false, ErrNotFinite},
		{"empty", nil, 0, false, ErrEmpty},
	} {
		r, err := StepTest(c.x, 0, 999, 1)
		if c.wantErr != nil {
			if !errors.Is(err, c.wantErr) {
				t.Errorf("%s: err %v, want %v", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if (r.P < 0.05) != c.signif || (c.wantK >= 0 && r.K != c.wantK) {
			t.Errorf("%s: K %d p %v, want K %d significant %v", c.name, r.K, r.P, c.wantK, c.signif)
		}
	}
}
