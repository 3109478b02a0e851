package stats

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// TestPELTFlat is acceptance check 3, first half: flat n=2000 series
// (60 by default, the 200 of the check with LOADVERDICT_LONG set).
func TestPELTFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo")
	}
	t.Parallel()
	seeds := draws(60, 200)
	clean := 0
	for seed := range uint64(seeds) {
		cps, _, err := PELT(normals(5000+seed, 2000, 0, 1), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(cps) == 0 {
			clean++
		}
	}
	frac := float64(clean) / float64(seeds)
	t.Logf("%.1f %% of flat series without a changepoint", 100*frac)
	if frac < 0.99 {
		t.Errorf("%.1f %% of flat series without a changepoint, want >= 99 %%", 100*frac)
	}
}

// TestPELTStep is acceptance check 3, second half: +1σ step at 200 of 1000.
func TestPELTStep(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo")
	}
	t.Parallel()
	const seeds = 200 // cheap (n = 1000), and 91.5 % is near the bound
	good := 0
	for seed := range uint64(seeds) {
		x := normals(9000+seed, 1000, 0, 1)
		for i := 200; i < len(x); i++ {
			x[i]++
		}
		cps, _, err := PELT(x, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(cps) == 1 && cps[0] >= 190 && cps[0] <= 210 {
			good++
		}
	}
	frac := float64(good) / seeds
	t.Logf("%.1f %% with exactly one changepoint within ±10 of 200", 100*frac)
	if frac < 0.90 {
		t.Errorf("%.1f %% with exactly one changepoint within ±10, want >= 90 %%", 100*frac)
	}
}

// optimalPartitioning is PELT without pruning (Jackson et al. 2005), the
// exact O(n²) reference (with costs computed directly, not from prefix
// sums): the pruned result must be identical, or tie with it.
func optimalPartitioning(x []float64, penalty float64, minSeg int) ([]int, float64) {
	n := len(x)
	cost := segmentCost(x)
	f := make([]float64, n+1)
	last := make([]int, n+1)
	f[0] = -penalty
	for t := 1; t <= n; t++ {
		f[t] = math.Inf(1)
		for tau := 0; tau <= t-minSeg; tau++ {
			if tau != 0 && tau < minSeg {
				continue
			}
			if v := f[tau] + cost(tau, t) + penalty; v < f[t] {
				f[t], last[t] = v, tau
			}
		}
	}
	var cps []int
	for t := n; t > 0; t = last[t] {
		if last[t] > 0 {
			cps = append(cps, last[t])
		}
	}
	slices.Reverse(cps)
	return cps, f[n]
}

// partitionCost is the penalised cost of splitting x at cps.
func partitionCost(x []float64, cps []int, penalty float64) float64 {
	cost := segmentCost(x)
	total, start := 0.0, 0
	for _, c := range append(slices.Clone(cps), len(x)) {
		total += cost(start, c) + penalty
		start = c
	}
	return total - penalty
}

// segmentCost returns the PELT segment cost of x, computed directly.
func segmentCost(x []float64) func(s, t int) float64 {
	mean, variance := meanVar(x)
	scale := math.Sqrt(variance)
	floor := relVarFloor
	if q := minGap(x) / scale; q*q/12 > floor {
		floor = q * q / 12
	}
	return func(s, t int) float64 {
		z := make([]float64, 0, t-s)
		for _, v := range x[s:t] {
			z = append(z, (v-mean)/scale)
		}
		_, v := meanVar(z)
		m := float64(t - s)
		if v < floor {
			return m * (math.Log(2*math.Pi) + math.Log(floor) + max(v, 0)/floor)
		}
		return m * (math.Log(2*math.Pi) + math.Log(v) + 1)
	}
}

func TestPELTMatchesOptimalPartitioning(t *testing.T) {
	t.Parallel() // a pure function of fixed seeds
	for seed := range uint64(60) {
		x := normals(seed, 150, 0, 1)
		for i := 40; i < 90; i++ {
			x[i] += 1.5
		}
		for i := 120; i < 150; i++ {
			x[i] *= 3
		}
		if seed%3 == 0 { // quantised, with runs of repeated values
			for i := range x {
				x[i] = math.Round(2 * x[i])
			}
			for i := 60; i < 70; i++ {
				x[i] = 3
			}
		}
		for _, c := range []struct {
			pen    float64
			minSeg int
		}{{0, 0}, {5, 2}, {3, 5}, {1, 3}} {
			pen := c.pen
			if pen == 0 {
				pen = DefaultPenalty(len(x))
			}
			got, segs, err := PELT(x, c.pen, c.minSeg)
			if err != nil {
				t.Fatal(err)
			}
			want, wantCost := optimalPartitioning(x, pen, max(c.minSeg, 2))
			// Different changepoints are fine only for a tie in the cost
			// (quantised data), up to rounding.
			if gotCost := partitionCost(x, got, pen); !slices.Equal(got, want) && math.Abs(gotCost-wantCost) > 1e-9*math.Abs(wantCost) {
				t.Errorf("seed %d pen %v minSeg %d: PELT %v, optimal partitioning %v", seed, c.pen, c.minSeg, got, want)
			}
			for _, s := range segs {
				if s.Len() < max(c.minSeg, 2) {
					t.Errorf("segment %+v shorter than %d", s, max(c.minSeg, 2))
				}
			}
		}
	}
}

func TestPELTEdges(t *testing.T) {
	if _, _, err := PELT(nil, 0, 0); !errors.Is(err, ErrEmpty) {
		t.Errorf("nil: err = %v, want ErrEmpty", err)
	}
	if _, _, err := PELT([]float64{1, math.NaN(), 2}, 0, 0); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: err = %v, want ErrNotFinite", err)
	}
	for _, x := range [][]float64{{7}, {1, 2, 3}, {5, 5, 5, 5, 5, 5, 5, 5}} {
		cps, segs, err := PELT(x, 0, 0)
		if err != nil || len(cps) != 0 || len(segs) != 1 || segs[0].Start != 0 || segs[0].End != len(x) {
			t.Errorf("%v: %v %v %v, want one segment", x, cps, segs, err)
		}
	}
	// A clean step between two constant levels is found even though both
	// segments have zero variance (the floor keeps the costs finite).
	x := append(slices.Repeat([]float64{1}, 20), slices.Repeat([]float64{3}, 20)...)
	cps, segs, err := PELT(x, 0, 0)
	if err != nil || !slices.Equal(cps, []int{20}) || segs[1].Mean != 3 || segs[1].SD != 0 {
		t.Errorf("two levels: %v %+v %v, want [20]", cps, segs, err)
	}
	// Quantised noise (integer counts) does not fall apart into runs of
	// repeated values.
	q := normals(3, 2000, 0, 1)
	for i := range q {
		q[i] = math.Round(1000 + 2*q[i])
	}
	if cps, _, err := PELT(q, 0, 0); err != nil || len(cps) != 0 {
		t.Errorf("quantised noise: %v %v, want no changepoint", cps, err)
	}
}

func TestMarkOutliers(t *testing.T) {
	x := normals(11, 1000, 100, 1)
	if m := MarkOutliers(x, 0, 0); slices.Contains(m, true) {
		t.Errorf("Gaussian noise: %d outliers, want none", count(m))
	}
	spikes := []int{0, 3, 500, 998}
	for _, i := range spikes {
		x[i] += 50
	}
	x[700] = math.NaN()
	clean, marks := ReplaceOutliers(x, 200, 3)
	var got []int
	for i, m := range marks {
		if m {
			got = append(got, i)
		}
	}
	if want := []int{0, 3, 500, 700, 998}; !slices.Equal(got, want) {
		t.Errorf("outliers at %v, want %v", got, want)
	}
	for _, i := range got {
		if math.Abs(clean[i]-100) > 0.5 {
			t.Errorf("clean[%d] = %v, want about 100 (the window median)", i, clean[i])
		}
	}
	if x[500] < 140 {
		t.Error("ReplaceOutliers modified its input")
	}
	// A step is not an outlier: the window straddling it is wide.
	step := normals(12, 1000, 0, 1)
	for i := 500; i < 1000; i++ {
		step[i] += 20
	}
	if m := MarkOutliers(step, 200, 3); slices.Contains(m, true) {
		t.Errorf("step: %d outliers, want none", count(m))
	}
	if m := MarkOutliers(nil, 200, 3); len(m) != 0 {
		t.Errorf("nil: %v", m)
	}
	seg, err := SegmentSeries(x, 0, 0)
	if err != nil || len(seg.Changepoints) != 0 || count(seg.Outliers) != 5 {
		t.Errorf("SegmentSeries on spiky noise: %v, %d outliers, %v", seg.Changepoints, count(seg.Outliers), err)
	}
}

func count(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}
