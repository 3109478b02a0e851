package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/stats"
)

// Noise is a real round-to-round scatter: the standard deviation of ln
// of a metric between runs of one side, pooled over the sides of a data
// set of testdata/truth.
type Noise struct {
	Name  string  // the data set and what its runs were
	Sigma float64 // pooled sd of ln(metric) within a side
	Runs  int     // the runs it rests on
}

// noiseSets are the data sets the noise is measured on: each is a list
// of sides, a side a folder of wrk runs of one unchanged server.
var noiseSets = []struct {
	name  string
	sides []string // globs of the sides' folders, under the repository
}{
	{"before-after: wrk -t2 -c16 -d10s, 6+6 runs of 10 s (throughput)", []string{"testdata/truth/before-after/old", "testdata/truth/before-after/new"}},
	{"aa-gate/wrk: wrk -t1 -c4 -d1s on a loaded machine, 10 pairs of 4-8 runs of 1 s (throughput)", []string{"testdata/truth/aa-gate/wrk/p*/a", "testdata/truth/aa-gate/wrk/p*/b"}},
}

// MeasureNoise reads every side of each data set under root with the
// project's ingest and returns the pooled sd of ln(req/s) within a side:
// √(Σ over sides of Σ(ln x - mean)² / Σ over sides of (n-1)).
func MeasureNoise(root string) ([]Noise, error) {
	var out []Noise
	for _, set := range noiseSets {
		var ss float64
		df, runs := 0, 0
		for _, g := range set.sides {
			dirs, err := filepath.Glob(filepath.Join(root, g))
			if err != nil || len(dirs) == 0 {
				return nil, fmt.Errorf("noise %s: no folder %s", set.name, g)
			}
			for _, dir := range dirs {
				x, err := sideRPS(dir)
				if err != nil {
					return nil, err
				}
				if len(x) < 2 {
					continue
				}
				m := stats.Mean(x)
				for _, v := range x {
					ss += (v - m) * (v - m)
				}
				df += len(x) - 1
				runs += len(x)
			}
		}
		if df == 0 {
			return nil, fmt.Errorf("noise %s: no side with 2 runs", set.name)
		}
		out = append(out, Noise{Name: set.name, Sigma: math.Sqrt(ss / float64(df)), Runs: runs})
	}
	return out, nil
}

// sideRPS returns ln(req/s) of each run of the files in dir.
func sideRPS(dir string) ([]float64, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var x []float64
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		runs, err := ingest.ParseAll(context.Background(), fh, ingest.Options{Source: f})
		fh.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, r := range runs {
			if r.RPS > 0 {
				x = append(x, math.Log(r.RPS))
			}
		}
	}
	return x, nil
}

// Config is one Monte-Carlo experiment.
type Config struct {
	Draws     int     // duels simulated per case
	MaxRounds int     // the duel's last look
	Alpha     float64 // error rate over all looks
	Band      float64 // practical band, relative (0.02: ±2 %)
	MaxFixed  int     // the most rounds the fixed design is searched over
	Seed      uint64
	Mixture   float64 // the sequential test's mixture precision (0: stats.DefaultSeqMixture)
}

// AA is the outcome of the A/A duels at one noise level.
type AA struct {
	Noise Noise
	// Seq is the share of duels whose sequential test claimed a
	// difference at some look; Naive the share where a fixed-sample t
	// at some look (from 2 rounds on) had p < Alpha.
	Seq, Naive float64
	// Equivalent and Undecided are the shares of sequential duels that
	// ended within the band and at the last look.
	Equivalent, Undecided float64
	// SeqSE is the binomial standard error of Seq.
	SeqSE float64
}

// AB is the outcome of the A/B duels at one true difference.
type AB struct {
	Noise Noise
	Diff  float64 // true B/A - 1
	// MeanRounds and MedianRounds are the rounds a sequential duel ran
	// (decided, within the band, or the last look).
	MeanRounds, MedianRounds float64
	// Right, Wrong, Equivalent and Undecided are the shares of duels that
	// ended: decided the right side, the wrong side, within the band, at
	// the last look undecided.
	Right, Wrong, Equivalent, Undecided float64
	// FixedRounds is the fewest rounds of a fixed design (one t-test at
	// a number of rounds chosen in advance) whose share decided right on
	// the same draws reaches Right; 0 when none up to MaxFixed does.
	FixedRounds int
	// FixedRight is that design's share decided right.
	FixedRight float64
}

// sigmaD is the sd of a round's paired difference ln(B/A): two
// independent runs, each with the side's scatter.
func sigmaD(n Noise) float64 { return math.Sqrt2 * n.Sigma }

// RunAA simulates c.Draws A/A duels at noise n.
func RunAA(c Config, n Noise) (AA, error) {
	rng := rand.New(rand.NewPCG(c.Seed, 1))
	seq := stats.Sequential{Alpha: c.Alpha, Band: math.Log1p(c.Band), MaxLooks: c.MaxRounds, Mixture: c.Mixture}
	var claimed, naive, equiv, undecided int
	d := make([]float64, 0, c.MaxRounds)
	for range c.Draws {
		d = d[:0]
		stopped, naiveHit := false, false
		for range c.MaxRounds {
			d = append(d, sigmaD(n)*rng.NormFloat64())
			if !naiveHit && len(d) >= 2 {
				if _, p, err := stats.OneSampleT(d); err == nil && p < c.Alpha {
					naiveHit = true
				}
			}
			if stopped {
				continue
			}
			l, err := seq.Look(d)
			if err != nil {
				return AA{}, err
			}
			switch l.Decision {
			case stats.SeqPositive, stats.SeqNegative:
				claimed++
				stopped = true
			case stats.SeqEquivalent:
				equiv++
				stopped = true
			case stats.SeqUndecided:
				undecided++
				stopped = true
			}
		}
		if naiveHit {
			naive++
		}
	}
	N := float64(c.Draws)
	p := float64(claimed) / N
	return AA{Noise: n, Seq: p, Naive: float64(naive) / N, Equivalent: float64(equiv) / N, Undecided: float64(undecided) / N,
		SeqSE: math.Sqrt(p * (1 - p) / N)}, nil
}

// RunAB simulates c.Draws duels with B diff better than A (a
// higher-is-better metric: d = ln(1+diff) + noise) and finds the fixed
// design of the same power on the same draws.
func RunAB(c Config, n Noise, diff float64) (AB, error) {
	rng := rand.New(rand.NewPCG(c.Seed, 2))
	seq := stats.Sequential{Alpha: c.Alpha, Band: math.Log1p(c.Band), MaxLooks: c.MaxRounds, Mixture: c.Mixture}
	maxN := max(c.MaxRounds, c.MaxFixed)
	mu := math.Log1p(diff)
	rounds := make([]float64, 0, c.Draws)
	var right, wrong, equiv, undecided int
	fixedRight := make([]int, maxN+1) // draws the fixed t at n rounds decides right
	d := make([]float64, maxN)
	for range c.Draws {
		for i := range d {
			d[i] = mu + sigmaD(n)*rng.NormFloat64()
		}
		for k := 2; k <= maxN; k++ {
			if t, p, err := stats.OneSampleT(d[:k]); err == nil && p < c.Alpha && t > 0 {
				fixedRight[k]++
			}
		}
		for k := 1; k <= c.MaxRounds; k++ {
			l, err := seq.Look(d[:k])
			if err != nil {
				return AB{}, err
			}
			if l.Decision == stats.SeqContinue {
				continue
			}
			rounds = append(rounds, float64(k))
			switch l.Decision {
			case stats.SeqPositive:
				right++
			case stats.SeqNegative:
				wrong++
			case stats.SeqEquivalent:
				equiv++
			default:
				undecided++
			}
			break
		}
	}
	N := float64(c.Draws)
	r := AB{Noise: n, Diff: diff, MeanRounds: stats.Mean(rounds), MedianRounds: stats.Median(rounds),
		Right: float64(right) / N, Wrong: float64(wrong) / N, Equivalent: float64(equiv) / N, Undecided: float64(undecided) / N}
	for k := 2; k <= maxN; k++ {
		if float64(fixedRight[k])/N >= r.Right {
			r.FixedRounds, r.FixedRight = k, float64(fixedRight[k])/N
			break
		}
	}
	return r, nil
}
