package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestSequentialLook(t *testing.T) {
	noisy := []float64{0.101, 0.095, 0.104, 0.098, 0.102, 0.099}
	flat := []float64{0.001, -0.002, 0.0005, 0.0015, -0.001, 0, 0.0005, -0.0005}
	for _, tc := range []struct {
		name string
		s    Sequential
		d    []float64
		want string
		open bool // the interval unbounded
	}{
		{"no data", Sequential{Alpha: 0.05}, nil, SeqContinue, true},
		{"one look", Sequential{Alpha: 0.05}, []float64{0.1}, SeqContinue, true},
		{"three looks: unbounded at c 0.25", Sequential{Alpha: 0.05}, noisy[:3], SeqContinue, true},
		{"B 10 % higher", Sequential{Alpha: 0.05, Band: 0.02}, noisy, SeqPositive, false},
		{"B 10 % lower", Sequential{Alpha: 0.05, Band: 0.02}, negate(noisy), SeqNegative, false},
		{"equal within the band", Sequential{Alpha: 0.05, Band: 0.02}, flat, SeqEquivalent, false},
		{"equal, no band: continue", Sequential{Alpha: 0.05}, flat, SeqContinue, false},
		{"equal, no band, last look", Sequential{Alpha: 0.05, MaxLooks: 8}, flat, SeqUndecided, false},
		{"past the last look", Sequential{Alpha: 0.05, MaxLooks: 3}, flat, SeqUndecided, false},
		{"decided at the last look", Sequential{Alpha: 0.05, MaxLooks: 6}, noisy, SeqPositive, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := tc.s.Look(tc.d)
			if err != nil {
				t.Fatal(err)
			}
			if l.Decision != tc.want || l.N != len(tc.d) {
				t.Errorf("decision %s at n %d, want %s at %d (%+v)", l.Decision, l.N, tc.want, len(tc.d), l)
			}
			if open := math.IsInf(l.Hi, 1); open != tc.open {
				t.Errorf("interval [%v, %v], unbounded %v, want %v", l.Lo, l.Hi, open, tc.open)
			}
		})
	}
}

func negate(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = -v
	}
	return out
}

// TestSequentialBoundary: at the interval's edges the mixture martingale
// equals 1/alpha, and inside it is below (the closed form inverts M_n).
func TestSequentialBoundary(t *testing.T) {
	d := []float64{0.03, -0.01, 0.02, 0.05, 0.00, 0.01, 0.04}
	l, err := Sequential{Alpha: 0.05}.Look(d)
	if err != nil {
		t.Fatal(err)
	}
	m := func(mu float64) float64 {
		c, n := DefaultSeqMixture, float64(len(d))
		var v, s float64
		for _, x := range d {
			v += (x - mu) * (x - mu)
			s += x - mu
		}
		return math.Sqrt(c/(n+c)) * math.Pow(v/(v-s*s/(n+c)), n/2)
	}
	for _, mu := range []float64{l.Lo, l.Hi} {
		if got := m(mu); math.Abs(got-20) > 1e-6 {
			t.Errorf("M_n(%v) = %v, want 1/alpha = 20", mu, got)
		}
	}
	if got := m(l.Mean); got >= 20 {
		t.Errorf("M_n(mean) = %v, want below 20", got)
	}
}

// TestSequentialCoverage: over 2,000 normal sequences of 30 looks, the
// share whose interval ever misses the true mean stays at or below alpha
// (a binomial margin of 3 standard errors), for a mean of 0 and not.
func TestSequentialCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 1))
	const draws, looks, alpha = 2000, 30, 0.05
	for _, mu := range []float64{0, 0.1} {
		miss := 0
		for range draws {
			d := make([]float64, 0, looks)
			for range looks {
				d = append(d, mu+0.03*rng.NormFloat64())
				l, err := Sequential{Alpha: alpha}.Look(d)
				if err != nil {
					t.Fatal(err)
				}
				if mu < l.Lo || mu > l.Hi {
					miss++
					break
				}
			}
		}
		limit := alpha + 3*math.Sqrt(alpha*(1-alpha)/draws)
		if rate := float64(miss) / draws; rate > limit {
			t.Errorf("mean %v: the interval missed it at some look in %.3f of the sequences, want <= %.3f", mu, rate, limit)
		}
	}
}

func TestSequentialErrors(t *testing.T) {
	for _, s := range []Sequential{{Alpha: 0}, {Alpha: 1}, {Alpha: 0.05, Band: -1}, {Alpha: 0.05, Mixture: -1}, {Alpha: 0.05, MaxLooks: -1}, {Alpha: math.NaN()}} {
		if _, err := s.Look([]float64{1, 2, 3}); !errors.Is(err, ErrParameter) {
			t.Errorf("%+v: err %v, want ErrParameter", s, err)
		}
	}
	if _, err := (Sequential{Alpha: 0.05}).Look([]float64{1, math.NaN()}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: err %v, want ErrNotFinite", err)
	}
}

func TestOneSampleT(t *testing.T) {
	// mean 3.2, sd √3.7: t = 3.2/√(3.7/5) = 3.71992 on 4 df, p = 0.020476 (R: t.test(c(1, 2, 3, 4, 6))).
	tt, p, err := OneSampleT([]float64{1, 2, 3, 4, 6})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(tt-3.71992) > 1e-5 || math.Abs(p-0.020476) > 1e-6 {
		t.Errorf("t %v p %v, want 3.71992 0.020476", tt, p)
	}
	if _, p, _ := OneSampleT([]float64{2, 2}); p != 0 {
		t.Errorf("constant non-zero: p %v, want 0", p)
	}
	if _, p, _ := OneSampleT([]float64{0, 0}); p != 1 {
		t.Errorf("constant zero: p %v, want 1", p)
	}
	if _, _, err := OneSampleT([]float64{1}); !errors.Is(err, ErrTooFew) {
		t.Errorf("one value: err %v, want ErrTooFew", err)
	}
}
