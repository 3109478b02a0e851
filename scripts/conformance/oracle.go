package main

import (
	"math"
	"math/rand/v2"
	"slices"
)

// The oracle's bound: how many steps a detector could catch that knew
// what the nightly check must estimate. It knows the reference level
// (the model's nights are centred on it) and the noise law, sees each
// night's mean log cost (with a control, the mean log ratio to it), and
// its threshold is set on the cell's step-free draws so that it fails
// exactly the share fpr of stable nights. Its statistics are the mean
// of the last 1, 2 or 3 nights and the median of the last 3 (robust to
// an outlier night); the bound is the best of them. No test that must
// estimate the level and the noise from the nights themselves can catch
// more at the same false-fail rate, so where the bound is under a
// target the target is out of any detector's reach in that cell.

// oracleStats are the oracle's statistics of night k of y (NaN where
// the nights before k are too few).
var oracleStats = []func(y []float64, k int) float64{
	func(y []float64, k int) float64 { return windowMean(y, k, 1) },
	func(y []float64, k int) float64 { return windowMean(y, k, 2) },
	func(y []float64, k int) float64 { return windowMean(y, k, 3) },
	func(y []float64, k int) float64 {
		if k < 2 {
			return math.NaN()
		}
		w := slices.Clone(y[k-2 : k+1])
		slices.Sort(w)
		return w[1]
	},
}

func windowMean(y []float64, k, w int) float64 {
	if k+1 < w {
		return math.NaN()
	}
	s := 0.0
	for _, v := range y[k+1-w : k+1] {
		s += v
	}
	return s / float64(w)
}

// oracleNights is a series' nights as the oracle sees them: the mean
// log cost of each night's runs (higher is worse).
func oracleNights(nights [][]float64) []float64 {
	y := make([]float64, len(nights))
	for i, x := range nights {
		for _, v := range x {
			y[i] -= math.Log(v / 1000)
		}
		y[i] /= float64(len(x))
	}
	return y
}

// oracleCatch is the oracle's bound for cell c (its step c.Step): the
// share of step series it catches within 3 nights of the step at the
// false-fail rate fpr, without (k 0) and with (k 1) a control.
func oracleCatch(c nightlyCell, m nightlyModel, draws int, seed uint64, fpr float64) [2]float64 {
	var out [2]float64
	stable := c
	stable.Step = 0
	r := rand.New(rand.NewPCG(seed, 0x0c1e))
	var null [2][][]float64 // per control, per statistic
	for k := range null {
		null[k] = make([][]float64, len(oracleStats))
	}
	for range 4 * draws {
		s := drawNightly(r, stable, m)
		for k, nights := range [][][]float64{s.Treat, s.Ratio} {
			y := oracleNights(nights)
			for j, f := range oracleStats {
				for i := 1; i < len(y); i++ {
					// A statistic not defined yet never fails a night.
					if v := f(y, i); !math.IsNaN(v) {
						null[k][j] = append(null[k][j], v)
					} else {
						null[k][j] = append(null[k][j], math.Inf(-1))
					}
				}
			}
		}
	}
	var thr [2][]float64
	for k := range null {
		for j := range oracleStats {
			slices.Sort(null[k][j])
			thr[k] = append(thr[k], null[k][j][int(math.Ceil((1-fpr)*float64(len(null[k][j]))))-1])
		}
	}
	var caught [2][]int
	for k := range caught {
		caught[k] = make([]int, len(oracleStats))
	}
	for range draws {
		s := drawNightly(r, c, m)
		for k, nights := range [][][]float64{s.Treat, s.Ratio} {
			y := oracleNights(nights)
			for j, f := range oracleStats {
				for i := s.At; i <= s.At+2 && i < len(y); i++ {
					if v := f(y, i); !math.IsNaN(v) && v > thr[k][j] {
						caught[k][j]++
						break
					}
				}
			}
		}
	}
	for k := range out {
		out[k] = float64(slices.Max(caught[k])) / float64(draws)
	}
	return out
}
