package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// noisyLevel returns n windows of a latency level 10 with log-normal noise
// of the given relative size; with ar > 0 the noise is AR(1) with that
// coefficient (and the same marginal spread).
func noisyLevel(rng *rand.Rand, n int, cv, ar float64) []float64 {
	x := make([]float64, n)
	e := 0.0
	for i := range x {
		e = ar*e + math.Sqrt(1-ar*ar)*rng.NormFloat64()
		x[i] = 10 * math.Exp(cv*e)
	}
	return x
}

// TestExcursionsMonteCarlo is the acceptance check of the instability
// detector (docs/STATISTICS.md, check 12): series with recurring stalls
// (5 % of the windows, at random places, at 20x the level) are flagged
// unstable in >= 90 % of cases; flat noisy series in <= 5 %.
func TestExcursionsMonteCarlo(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo")
	}
	t.Parallel()
	for _, c := range []struct {
		n      int
		cv, ar float64
	}{{60, 0.1, 0}, {300, 0.1, 0}, {300, 0.3, 0}, {1000, 0.1, 0}, {300, 0.1, 0.5}, {300, 0.3, 0.8}, {2000, 0.3, 0.9}} {
		seeds := 300
		if c.n > 300 {
			seeds = 100 // slower, and rarer in the checks above
		}
		hit, fp := 0, 0
		for seed := range uint64(seeds) {
			rng := rand.New(rand.NewPCG(seed, uint64(c.n)))
			flat := noisyLevel(rng, c.n, c.cv, c.ar)
			r, err := Excursions(flat, nil, InstabilityOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Unstable {
				fp++
			}
			stalled := noisyLevel(rng, c.n, c.cv, c.ar)
			for _, i := range rng.Perm(c.n)[:c.n/20] {
				stalled[i] *= 20
			}
			r, err = Excursions(stalled, nil, InstabilityOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Unstable {
				hit++
			}
		}
		h, f := float64(hit)/float64(seeds), float64(fp)/float64(seeds)
		t.Logf("n %d, noise %.0f %%, AR %.1f: stalls flagged %.1f %%, flat flagged %.1f %%", c.n, 100*c.cv, c.ar, 100*h, 100*f)
		if h < 0.90 || f > 0.05 {
			t.Errorf("n %d, noise %.0f %%, AR %.1f: stalls flagged %.1f %% (want >= 90), flat %.1f %% (want <= 5)", c.n, 100*c.cv, c.ar, 100*h, 100*f)
		}
	}
}

// TestExcursionsPeriodic: stalls of 2 windows every 10 windows are found
// with their period.
func TestExcursionsPeriodic(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	x := noisyLevel(rng, 60, 0.05, 0)
	w := make([]float64, len(x))
	for i := range x {
		w[i] = 300
		if i%10 == 5 {
			x[i] *= 400
		}
		if i%10 == 6 {
			x[i] *= 60
		}
	}
	r, err := Excursions(x, w, InstabilityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Excursions) != 6 || !r.Unstable || !r.Periodic || r.Period != 10 || math.Abs(r.ShareN-0.2) > 1e-9 || math.Abs(r.ShareW-0.2) > 1e-9 {
		t.Errorf("got %d excursions, unstable %v periodic %v period %v share %v/%v", len(r.Excursions), r.Unstable, r.Periodic, r.Period, r.ShareN, r.ShareW)
	}
	for i, e := range r.Excursions {
		if e.Start != 10*i+5 || e.End != 10*i+7 {
			t.Errorf("excursion %d: [%d, %d), want [%d, %d)", i, e.Start, e.End, 10*i+5, 10*i+7)
		}
	}
	// From skips a warm-up; a single stall is not instability.
	r, err = Excursions(x, nil, InstabilityOptions{From: 50})
	if err != nil || r.Unstable || len(r.Excursions) != 1 || r.Excursions[0].Start != 55 {
		t.Errorf("from 50: %+v, %v", r, err)
	}
	// A slow start and a slow end are edges, not excursions.
	x[0], x[1], x[58], x[59] = 300, 300, 300, 300
	r, err = Excursions(x, nil, InstabilityOptions{})
	if err != nil || len(r.Excursions) != 6 || len(r.Edges) != 2 || r.Edges[0] != (Excursion{Start: 0, End: 2, Mean: x[0], Peak: x[0]}) || r.Edges[1].End != 60 {
		t.Errorf("edges: %+v, %v", r.Edges, err)
	}
}

func TestExcursionsErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		x, w []float64
		o    InstabilityOptions
		want error
	}{
		{"empty", nil, nil, InstabilityOptions{}, ErrEmpty},
		{"nan", []float64{1, math.NaN(), 1, 1}, nil, InstabilityOptions{}, ErrNotFinite},
		{"zero", []float64{1, 0, 1, 1}, nil, InstabilityOptions{}, ErrParameter},
		{"weights", []float64{1, 1, 1, 1}, []float64{1}, InstabilityOptions{}, ErrParameter},
		{"negative weight", []float64{1, 1, 1, 1}, []float64{1, -1, 1, 1}, InstabilityOptions{}, ErrParameter},
		{"from", []float64{1, 1, 1, 1}, nil, InstabilityOptions{From: 5}, ErrParameter},
		{"too few", []float64{1, 1, 1, 1, 1}, nil, InstabilityOptions{From: 2}, ErrTooFew},
	} {
		if _, err := Excursions(c.x, c.w, c.o); !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
		}
	}
}

// TestStallsMonteCarlo checks the stall rule (InstabilityOptions
// StallFactor) where CAPA alone fails: stalls every period windows, each
// followed by a window of the queue it leaves (3x), so that more than
// half of the windows are touched (the median and MAD are then the
// stalls' own); the stall level (the lower quartile) still finds each
// stall and the period. Flat noisy series (even at 30 % noise) have no
// stall, and regular-looking excursions that are not stalls are periodic
// in <= 5 % of random placements (the Monte-Carlo regularity test).
func TestStallsMonteCarlo(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo")
	}
	t.Parallel()
	opts := InstabilityOptions{StallFactor: DefaultStallFactor}
	for _, period := range []int{2, 3, 5} {
		for seed := range uint64(50) {
			rng := rand.New(rand.NewPCG(seed, uint64(period)))
			x := noisyLevel(rng, 18, 0.1, 0)
			var want []int
			for i := 1; i < len(x); i += period {
				x[i] *= 20 + 30*rng.Float64()
				if i+1 < len(x) && period > 2 {
					x[i+1] *= 3
				}
				want = append(want, i)
			}
			r, err := Excursions(x, nil, opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.Stalls != len(want) || len(r.Excursions) != len(want) || !r.Periodic || math.Abs(r.Period-float64(period)) > 0.01 {
				t.Fatalf("period %d seed %d: stalls %d of %d, excursions %+v, periodic %v period %v", period, seed, r.Stalls, len(want), r.Excursions, r.Periodic, r.Period)
			}
			for k, e := range r.Excursions {
				if e.Start != want[k] {
					t.Errorf("period %d seed %d: stall %d starts at %d, want %d", period, seed, k, e.Start, want[k])
				}
			}
		}
	}
	for _, cv := range []float64{0.1, 0.3} {
		for seed := range uint64(300) {
			rng := rand.New(rand.NewPCG(seed, 99))
			r, err := Excursions(noisyLevel(rng, 60, cv, 0.3), nil, opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.Stalls > 0 {
				t.Fatalf("noise %.0f %% seed %d: %d stalls in a flat series", 100*cv, seed, r.Stalls)
			}
		}
	}
	// Onsets at random, as excursions: the regularity test's level.
	rng := rand.New(rand.NewPCG(5, 5))
	periodic := 0
	const draws = 400
	for range draws {
		n, k := 40, 3+rng.IntN(4)
		pick := rng.Perm(n - k + 1)[:k]
		starts := make([]float64, k)
		for i, v := range sortedInts(pick) {
			starts[i] = float64(v + i)
		}
		if regularityP(starts, n, 400) <= RegularityAlpha {
			periodic++
		}
	}
	rate := float64(periodic) / draws
	t.Logf("random onsets called periodic: %.1f %%", 100*rate)
	if rate > 0.08 {
		t.Errorf("random onsets called periodic in %.1f %% (want about 5 %%)", 100*rate)
	}
}

// TestStallAtEnd: a stall in the last window is a stall (not an edge);
// one in the first window stays an edge (a warm-up's business).
func TestStallAtEnd(t *testing.T) {
	x := []float64{10, 10.5, 9.8, 10.2, 10, 9.9, 10.1, 10.3, 9.7, 300}
	r, err := Excursions(x, nil, InstabilityOptions{StallFactor: DefaultStallFactor})
	if err != nil || r.Stalls != 1 || len(r.Excursions) != 1 || r.Excursions[0].Start != 9 {
		t.Fatalf("%+v %v", r, err)
	}
	x[0], x[9] = 300, 10
	r, err = Excursions(x, nil, InstabilityOptions{StallFactor: DefaultStallFactor})
	if err != nil || r.Stalls != 0 || len(r.Excursions) != 0 || len(r.Edges) != 1 {
		t.Fatalf("%+v %v", r, err)
	}
}

func sortedInts(x []int) []int { return slices.Sorted(slices.Values(x)) }
