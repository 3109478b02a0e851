package stats

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// TestClassifyAcceptance is acceptance check 4: n=2000, sd 0.005, latency
// (lower is better), PELT then Classify.
func TestClassifyAcceptance(t *testing.T) {
	level := func(early, late float64, at int) func(i int) float64 {
		return func(i int) float64 {
			if i < at {
				return early
			}
			return late
		}
	}
	cases := []struct {
		name        string
		mean        func(i int) float64
		class       Class
		steadyStart int
	}{
		{"warmup 1.2 -> 1.0 at 100", level(1.2, 1.0, 100), ClassWarmup, 100},
		{"slowdown 1.0 -> 1.2 at 100", level(1.0, 1.2, 100), ClassSlowdown, 100},
		{"late step up at 1800", level(1.0, 1.2, 1800), ClassNoSteadyState, -1},
		{"late step down at 1800", level(1.2, 1.0, 1800), ClassNoSteadyState, -1},
		{"noise", level(1.0, 1.0, 0), ClassFlat, 0},
	}
	const seeds = 20
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for seed := range uint64(seeds) {
				x := normals(100+seed, 2000, 0, 0.005)
				for i := range x {
					x[i] += c.mean(i)
				}
				seg, err := SegmentSeries(x, 0, 0)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Classify(seg.Segments, false, 0)
				if err != nil {
					t.Fatal(err)
				}
				if got.Class != c.class || got.SteadyStart != c.steadyStart {
					t.Errorf("seed %d: %s from %d (changepoints %v), want %s from %d",
						seed, got.Class, got.SteadyStart, seg.Changepoints, c.class, c.steadyStart)
				}
			}
		})
	}
}

func TestClassifySegments(t *testing.T) {
	seg := func(start, end int, mean, sd float64) Segment {
		return Segment{Start: start, End: end, Mean: mean, SD: sd}
	}
	cases := []struct {
		name   string
		segs   []Segment
		higher bool
		class  Class
		start  int
		dec    int
	}{
		{"one segment", []Segment{seg(0, 1000, 5, 1)}, true, ClassFlat, 0, -1},
		{"within sd", []Segment{seg(0, 100, 10.9, 0.1), seg(100, 1000, 10, 1)}, false, ClassFlat, 0, -1},
		{"within 2 %", []Segment{seg(0, 100, 101.9, 0.1), seg(100, 1000, 100, 0.1)}, false, ClassFlat, 0, -1},
		{"just outside 2 %", []Segment{seg(0, 100, 102.1, 0.1), seg(100, 1000, 100, 0.1)}, false, ClassWarmup, 100, 0},
		{"rps warm-up", []Segment{seg(0, 100, 800, 5), seg(100, 1000, 1000, 5)}, true, ClassWarmup, 100, 0},
		{"rps slowdown", []Segment{seg(0, 100, 1200, 5), seg(100, 1000, 1000, 5)}, true, ClassSlowdown, 100, 0},
		{"walk back over equivalent", []Segment{seg(0, 50, 2, 0.01), seg(50, 300, 1.005, 0.01), seg(300, 1000, 1, 0.01)}, false, ClassWarmup, 50, 0},
		{"tail: n/4 for short series", []Segment{seg(0, 80, 2, 0.01), seg(80, 100, 1, 0.01)}, false, ClassNoSteadyState, -1, 0},
		{"tail boundary: ends at n-w is outside", []Segment{seg(0, 75, 2, 0.01), seg(75, 100, 1, 0.01)}, false, ClassWarmup, 75, 0},
		{"tail capped at 500", []Segment{seg(0, 9400, 2, 0.01), seg(9400, 10000, 1, 0.01)}, false, ClassWarmup, 9400, 0},
	}
	for _, c := range cases {
		got, err := Classify(c.segs, c.higher, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.Class != c.class || got.SteadyStart != c.start || got.Decisive != c.dec {
			t.Errorf("%s: %+v, want %s from %d decided by %d", c.name, got, c.class, c.start, c.dec)
		}
	}
	if got, err := Classify(nil, true, 0); err != nil || got.Class != ClassInsufficientData {
		t.Errorf("nil: %+v %v", got, err)
	}
	if _, err := Classify([]Segment{seg(0, 10, 1, 0), seg(11, 20, 1, 0)}, true, 0); !errors.Is(err, ErrParameter) {
		t.Errorf("gap: err = %v, want ErrParameter", err)
	}
}

func TestCombineClasses(t *testing.T) {
	type cc = ClassCount
	cases := []struct {
		in     []Class
		class  Class
		good   bool
		counts []ClassCount
	}{
		{[]Class{"flat", "flat"}, ClassFlat, true, []cc{{ClassFlat, 2}}},
		{[]Class{"warmup"}, ClassWarmup, true, []cc{{ClassWarmup, 1}}},
		{[]Class{"slowdown", "slowdown"}, ClassSlowdown, false, []cc{{ClassSlowdown, 2}}},
		{[]Class{"warmup", "flat", "warmup"}, ClassInconsistent, true, []cc{{ClassFlat, 1}, {ClassWarmup, 2}}},
		{[]Class{"warmup", "slowdown", "flat", "warmup"}, ClassInconsistent, false, []cc{{ClassFlat, 1}, {ClassWarmup, 2}, {ClassSlowdown, 1}}},
		{[]Class{"no-steady-state", "flat"}, ClassInconsistent, false, []cc{{ClassFlat, 1}, {ClassNoSteadyState, 1}}},
		{[]Class{"zz", "insufficient-data", "aa", "zz"}, ClassInconsistent, false, []cc{{ClassInsufficientData, 1}, {"aa", 1}, {"zz", 2}}},
		{nil, ClassInsufficientData, false, nil},
	}
	for _, c := range cases {
		class, good, counts := CombineClasses(c.in)
		if class != c.class || good != c.good || !slices.Equal(counts, c.counts) {
			t.Errorf("%v: %q %v %v, want %q %v %v", c.in, class, good, counts, c.class, c.good, c.counts)
		}
	}
}

func TestClassifyShort(t *testing.T) {
	cases := []struct {
		x         []float64
		higher    bool
		cv        float64
		class     Class
		pct       float64
		band      float64
		improving bool
		zero      bool
	}{
		{[]float64{100}, true, 0, ClassInsufficientData, 0, 3, false, false},
		{[]float64{100, 102}, true, 0, ClassFlat, 2, 3, true, false},
		{[]float64{100, 103}, true, 0, ClassFlat, 3, 3, true, false},
		{[]float64{100, 110}, true, 0, ClassNoSteadyState, 10, 3, true, false},  // rps up: improving
		{[]float64{100, 90}, false, 0, ClassNoSteadyState, -10, 3, true, false}, // latency down: improving
		{[]float64{100, 90}, true, 0, ClassNoSteadyState, -10, 3, false, false}, // rps down: worsening
		{[]float64{100, 100}, true, 0, ClassFlat, 0, 3, false, false},           // no change: not improving
		{[]float64{80, 100, 105}, true, 0.08, ClassFlat, 5, 8, true, false},     // inside an observed 8 % CV
		{[]float64{50, 80, 100, 105}, true, 0, ClassNoSteadyState, 5, 3, true, false},
		{[]float64{0, 0}, true, 0, ClassFlat, 0, 3, false, true},
	}
	for _, c := range cases {
		got, err := ClassifyShort(c.x, c.higher, 0, c.cv)
		if err != nil {
			t.Fatalf("%v: %v", c.x, err)
		}
		if got.Class != c.class || relErr(got.ChangePct+1, c.pct+1) > 1e-12 || relErr(got.BandPct, c.band) > 1e-12 ||
			got.Improving != c.improving || got.ZeroBase != c.zero {
			t.Errorf("%v: %+v, want %s %+.1f %% band %v improving %v zero base %v", c.x, got, c.class, c.pct, c.band, c.improving, c.zero)
		}
	}
	if _, err := ClassifyShort([]float64{0, 1}, true, 0, 0); !errors.Is(err, ErrZeroBase) || !errors.Is(err, ErrParameter) {
		t.Errorf("0 -> 1: err = %v, want ErrZeroBase, an ErrParameter", err)
	}
	// A change past float64's range from a tiny base (FuzzDegenerate: a
	// run of 1e-300 req/s before one of 5e14) is as undefined as from 0.
	for _, x := range [][]float64{{1e-300, 5e14}, {-1e-300, -5e14}} {
		if got, err := ClassifyShort(x, true, 0, 0); !errors.Is(err, ErrZeroBase) || math.IsInf(got.ChangePct, 0) {
			t.Errorf("%v: %+v, err = %v, want ErrZeroBase and a finite ChangePct", x, got, err)
		}
	}
	if _, err := ClassifyShort(nil, true, 0, 0); !errors.Is(err, ErrEmpty) {
		t.Errorf("nil: err = %v, want ErrEmpty", err)
	}
}
