package main

import (
	"math"
	"testing"
)

func TestMachineMovedPct(t *testing.T) {
	// sp is a run whose seconds each did 1e7 iterations (busy at
	// about 100 ns per iteration) at the given speeds.
	sp := func(slices ...float64) *RunSpeed {
		s := &RunSpeed{}
		for _, v := range slices {
			s.Slices, s.Iters = append(s.Slices, v), append(s.Iters, 1e7)
		}
		return s
	}
	for _, tt := range []struct {
		name string
		runs []RunRecord
		want float64
	}{
		{"none measured", []RunRecord{{File: "S/round01.txt"}}, math.NaN()},
		{"steady", []RunRecord{{File: "S/round01.txt", Speed: sp(100, 101)}, {File: "S/round02.txt", Speed: sp(101, 100)}}, 1},
		{"across runs", []RunRecord{{File: "S/round01.txt", Speed: sp(100)}, {File: "S/round02.txt", Speed: sp(110)}}, 10},
		{"within a run", []RunRecord{{File: "S/run.csv.gz", Speed: sp(100, 120, 100)}}, 20},
		{"an idle second left out", []RunRecord{{File: "S/run.csv.gz", Speed: &RunSpeed{Slices: []float64{100, 100, 150}, Iters: []int64{1e7, 1e7, 1e6}}}}, 0},
		{"a light load: not measured", []RunRecord{{File: "S/run.csv.gz", Speed: &RunSpeed{Slices: []float64{100, 180}, Iters: []int64{1e6, 1e6}}}}, math.NaN()},
		{"systems apart (different work)", []RunRecord{{File: "A/run01.txt", Speed: sp(80)}, {File: "B/run01.txt", Speed: sp(100)}, {File: "A/run02.txt", Speed: sp(80)}}, 0},
		{"a planned busy loop left out", []RunRecord{{File: "S/round01.txt", Speed: sp(100)}, {File: "S/round02.txt", Speed: sp(160), Hog: "taskset -c 1 nice ..."}, {File: "S/round03.txt", Speed: sp(102)}}, 2},
	} {
		got := machineMovedPct(tt.runs)
		if math.IsNaN(tt.want) != math.IsNaN(got) || !math.IsNaN(got) && math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: machineMovedPct = %v, want %v", tt.name, got, tt.want)
		}
	}
}
