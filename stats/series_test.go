package stats

import (
	"math"
	"testing"
)

func TestMannKendall(t *testing.T) {
	for _, c := range []struct {
		name string
		x    []float64
		s    int
		p    float64
	}{
		{"increasing 5", []float64{1, 2, 3, 4, 5}, 10, 2.0 / 120},
		{"decreasing 4", []float64{4, 3, 2, 1}, -6, 2.0 / 24},
		{"too short", []float64{1, 2}, 0, 1},
		{"constant", []float64{3, 3, 3, 3}, 0, 1},
	} {
		s, _, p, err := MannKendall(c.x)
		if err != nil || s != c.s || math.Abs(p-c.p) > 1e-12 {
			t.Errorf("%s: S %d p %v err %v, want %d %v", c.name, s, p, err, c.s, c.p)
		}
	}
	// Ties: the normal approximation, S = 2 of a possible 5 pairs.
	if s, _, p, _ := MannKendall([]float64{1, 1, 2, 3}); s != 5 || p <= 0 || p >= 1 {
		t.Errorf("ties: S %d p %v", s, p)
	}
}

func TestTheilSen(t *testing.T) {
	slope, icpt, err := TheilSen([]float64{1, 3, 5, 100, 9})
	if err != nil || slope != 2 || icpt != 1 {
		t.Errorf("slope %v intercept %v err %v, want 2 1", slope, icpt, err)
	}
}

func TestTrendTest(t *testing.T) {
	ramp := make([]float64, 30)
	flat := make([]float64, 30)
	noise := normals(3, 30, 0, 1)
	for i := range ramp {
		ramp[i] = 31 + float64(i) + noise[i]
		flat[i] = 31 + noise[i]
	}
	if tr, _ := TrendTest(ramp, 0, 0); !tr.Persistent || math.Abs(tr.Change-29) > 3 {
		t.Errorf("ramp: %+v", tr)
	}
	if tr, _ := TrendTest(flat, 0, 0); tr.Persistent {
		t.Errorf("flat: %+v", tr)
	}
	// A long series is reduced to batch means.
	long := make([]float64, 1000)
	for i := range long {
		long[i] = 100 + 0.1*float64(i)
	}
	if tr, _ := TrendTest(long, 0, 0); tr.Batch != 4 || tr.N != 250 || !tr.Persistent || math.Abs(tr.Change-99.9) > 0.5 {
		t.Errorf("long: %+v", tr)
	}
}

func TestClassifyRuns(t *testing.T) {
	for _, c := range []struct {
		name        string
		x           []float64
		class       Class
		steadyStart int
		shiftAt     int // -1 for none
	}{
		// testdata/truth/warmup-rounds: a server 3x slower for its first 30 s, 8 s rounds.
		{"warm-up rounds", []float64{1448.06, 1816.52, 2325.98, 3344.68, 3600.14, 3392.56, 3571.17, 3678.94, 3621.07, 3523.62}, ClassWarmup, 3, -1},
		{"flat", []float64{3000, 3050, 2980, 3020, 3010, 2990, 3040, 3005}, ClassFlat, 0, -1},
		// Old and new builds under one name: 5 runs at 3000, 5 at 3450.
		{"jump mid-series", []float64{3000, 3030, 2990, 3010, 3020, 3450, 3470, 3440, 3460, 3455}, ClassLevelShift, 5, 5},
		// A noisy neighbour arrives: a drop that stays.
		{"drop", []float64{3000, 3030, 2990, 3010, 3020, 3015, 2600, 2620, 2590, 2610}, ClassSlowdown, 6, 6},
		// Two cold runs, then steady: a warm-up however flat the start.
		{"cold start", []float64{2000, 2010, 3000, 3030, 2990, 3010, 3020, 3015, 3005}, ClassWarmup, 2, -1},
		// Improving all the way: no steady state.
		{"ramp up", []float64{1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900, 2000, 2100}, ClassNoSteadyState, -1, -1},
		// Worsening all the way: a slowdown without a steady state.
		{"ramp down", []float64{2100, 2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100, 1000}, ClassSlowdown, -1, -1},
	} {
		r, err := ClassifyRuns(c.x, RunsOptions{HigherIsBetter: true, Draws: 1999, Seed: DefaultSeed})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		shift := -1
		if r.Shift != nil {
			shift = r.Shift.At
		}
		if r.Class != c.class || r.SteadyStart != c.steadyStart || shift != c.shiftAt {
			t.Errorf("%s: %s from %d, shift at %d (segments %v), want %s from %d, shift at %d", c.name, r.Class, r.SteadyStart, shift, r.Segments, c.class, c.steadyStart, c.shiftAt)
		}
	}
	if _, err := ClassifyRuns([]float64{1, 2, 3, 4}, RunsOptions{}); err == nil {
		t.Error("4 runs: no error")
	}
}

// TestClassifySeriesWithinRunRamp is the ramp of testdata/truth/ramp in
// miniature: latency growing all along a run is a slowdown with no steady
// state, whatever PELT's segments.
func TestClassifySeriesWithinRunRamp(t *testing.T) {
	x := make([]float64, 60)
	noise := normals(11, 60, 0, 0.3)
	for i := range x {
		x[i] = 2 + float64(i) + noise[i]
	}
	seg, err := SegmentSeries(x, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ClassifySeries(seg.Segments, x, SeriesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Class != ClassSlowdown || c.SteadyStart != -1 || c.Trend == nil || !c.Trend.Persistent {
		t.Errorf("ramp: %+v (segments %d)", c, len(seg.Segments))
	}
}
