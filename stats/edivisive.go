package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Defaults of EDivisive.
const (
	// DefaultEnergyAlpha is the moment index of the energy distance,
	// |x-y|^alpha: 1, as in ecp's e.divisive and Apache Otava.
	DefaultEnergyAlpha = 1.0
	// DefaultPermutations is the number of random permutations of each
	// significance test.
	DefaultPermutations = 499
)

// EDivisiveOptions are the parameters of EDivisive. Zero values select
// the defaults.
type EDivisiveOptions struct {
	// Alpha is the moment index of the distances |x-y|^Alpha, in (0, 2];
	// 0 selects DefaultEnergyAlpha.
	Alpha float64
	// Blocks, when set, cut the observations into consecutive blocks of
	// these sizes (e.g. the runs of each experiment); a change point may
	// only fall between two blocks. Their sum must be len(x). Nil makes
	// every observation a block of its own.
	Blocks []int
	// MinBlocks is the fewest blocks on each side of a split; 0 selects
	// 1 with Blocks and 2 without. Each side must also hold at least 2
	// observations.
	MinBlocks int
	// SigLevel is the level of the permutation test; 0 selects
	// DefaultAlpha (0.05).
	SigLevel float64
	// Permutations is the number of random permutations per test; 0
	// selects DefaultPermutations.
	Permutations int
	// Seed seeds the permutations, so equal inputs give equal results.
	Seed uint64
}

// EChange is one change point of EDivisive.
type EChange struct {
	// Index is the first observation of the segment after the change.
	Index int
	// End is the end (exclusive) of the segment Y the best split compared
	// with the one before it: the κ of Matteson & James.
	End int
	// Q is the scaled energy statistic Q̂ of the split.
	Q float64
	// P is the permutation p-value of the test that accepted (or, for
	// EDivisiveResult.Rejected, refused) the change point.
	P float64
}

// EDivisiveResult is the outcome of EDivisive.
type EDivisiveResult struct {
	// Changes are the significant change points in the order found.
	Changes []EChange
	// Rejected is the last candidate tested, which was not significant;
	// nil when every segment became too short to split.
	Rejected *EChange
}

// EDivisive finds change points in the distribution of a series by the
// E-Divisive method of Matteson & James (JASA 2014; R package ecp): a
// divisive search on the energy statistic Q̂, each candidate kept while
// ecp's permutation test gives p <= SigLevel (STATISTICS.md has the
// statistic and the test). x must be finite (else ErrNotFinite); with
// fewer observations than two sides need the result is empty. Bad options
// give ErrParameter.
func EDivisive(x []float64, o EDivisiveOptions) (EDivisiveResult, error) {
	var res EDivisiveResult
	if err := checkFinite(x); err != nil {
		return res, err
	}
	o, err := eDivisiveDefaults(o)
	if err != nil {
		return res, err
	}
	bounds, err := blockBounds(len(x), &o)
	if err != nil {
		return res, err
	}
	e := newEnergy(x, o.Alpha)
	rng := newRand(o.Seed)
	cuts := []int{0, len(bounds) - 1} // segment boundaries, as indices into bounds
	perm := make([]int, len(x))
	for {
		best, ok := e.best(bounds, cuts, o.MinBlocks)
		if !ok {
			return res, nil
		}
		best.P = e.permutationP(best, bounds, cuts, perm, rng, o)
		if best.P > o.SigLevel {
			res.Rejected = &best
			return res, nil
		}
		res.Changes = append(res.Changes, best)
		bi := slices.Index(bounds, best.Index)
		cuts = append(cuts, bi)
		slices.Sort(cuts)
	}
}

// eDivisiveDefaults fills the unset options and checks them.
func eDivisiveDefaults(o EDivisiveOptions) (EDivisiveOptions, error) {
	if o.Alpha == 0 {
		o.Alpha = DefaultEnergyAlpha
	}
	if !(o.Alpha > 0 && o.Alpha <= 2) {
		return o, fmt.Errorf("%w: energy alpha %v not in (0, 2]", ErrParameter, o.Alpha)
	}
	if o.SigLevel == 0 {
		o.SigLevel = DefaultAlpha
	}
	if !(o.SigLevel > 0 && o.SigLevel < 1) {
		return o, fmt.Errorf("%w: significance level %v not in (0, 1)", ErrParameter, o.SigLevel)
	}
	if o.Permutations == 0 {
		o.Permutations = DefaultPermutations
	}
	if o.Permutations < 1 || o.MinBlocks < 0 {
		return o, fmt.Errorf("%w: permutations %d, min blocks %d", ErrParameter, o.Permutations, o.MinBlocks)
	}
	return o, nil
}

// blockBounds are the block boundaries 0, ..., n: every observation
// without Blocks (at least 2 a side by default), else the blocks' (at
// least 1 a side by default).
func blockBounds(n int, o *EDivisiveOptions) ([]int, error) {
	bounds := []int{0}
	if o.Blocks == nil {
		for i := range n {
			bounds = append(bounds, i+1)
		}
		if o.MinBlocks == 0 {
			o.MinBlocks = 2
		}
		return bounds, nil
	}
	for _, b := range o.Blocks {
		if b < 1 {
			return nil, fmt.Errorf("%w: block of size %d", ErrParameter, b)
		}
		bounds = append(bounds, bounds[len(bounds)-1]+b)
	}
	if bounds[len(bounds)-1] != n {
		return nil, fmt.Errorf("%w: blocks sum to %d, have %d observations", ErrParameter, bounds[len(bounds)-1], n)
	}
	if o.MinBlocks == 0 {
		o.MinBlocks = 1
	}
	return bounds, nil
}

// permutationP is ecp's permutation p-value of the candidate best: the
// observations shuffled within each current segment, the share of
// permutations whose largest Q̂ is at least best's (allowing for
// rounding: a mirrored order has the same Q̂ in exact arithmetic).
func (e *energy) permutationP(best EChange, bounds, cuts, perm []int, rng *rand.Rand, o EDivisiveOptions) float64 {
	exceed := 0
	for range o.Permutations {
		for i := range perm {
			perm[i] = i
		}
		for c := 0; c+1 < len(cuts); c++ {
			seg := perm[bounds[cuts[c]]:bounds[cuts[c+1]]]
			rng.Shuffle(len(seg), func(i, j int) { seg[i], seg[j] = seg[j], seg[i] })
		}
		e.permute(perm)
		if q, ok := e.best(bounds, cuts, o.MinBlocks); ok && q.Q >= best.Q-e.tol(best.Q) {
			exceed++
		}
		e.permute(nil)
	}
	return float64(exceed+1) / float64(o.Permutations+1)
}

// energy holds the distances |x_i - x_j|^α of a series and the 2-D
// prefix sums of their matrix, in the current order of the observations.
type energy struct {
	d   [][]float64 // distances in the original order
	n   int
	pre []float64 // (n+1)×(n+1) prefix sums of the permuted matrix
}

func newEnergy(x []float64, alpha float64) *energy {
	n := len(x)
	d := make([][]float64, n)
	for i := range d {
		d[i] = make([]float64, n)
		for j := range d[i] {
			v := math.Abs(x[i] - x[j])
			if alpha != 1 {
				v = math.Pow(v, alpha)
			}
			d[i][j] = v
		}
	}
	e := &energy{d: d, n: n, pre: make([]float64, (n+1)*(n+1))}
	e.permute(nil)
	return e
}

// permute recomputes the prefix sums for the observations in the order
// perm (nil: the original order).
func (e *energy) permute(perm []int) {
	w := e.n + 1
	for i := 0; i < e.n; i++ {
		pi := i
		if perm != nil {
			pi = perm[i]
		}
		row := e.d[pi]
		var acc float64
		for j := 0; j < e.n; j++ {
			pj := j
			if perm != nil {
				pj = perm[j]
			}
			acc += row[pj]
			e.pre[(i+1)*w+j+1] = e.pre[i*w+j+1] + acc
		}
	}
}

// tol is the rounding tolerance of a comparison with Q̂ = q: relative
// to q and to the scale of the distances (Q̂ of a series scales with its
// mean distance times its length).
func (e *energy) tol(q float64) float64 {
	scale := e.sum(0, e.n, 0, e.n) / float64(max(e.n, 1))
	return 1e-9 * (math.Abs(q) + scale)
}

// sum is the sum of distances between observations [a,b) and [c,d).
func (e *energy) sum(a, b, c, d int) float64 {
	w := e.n + 1
	return e.pre[b*w+d] - e.pre[a*w+d] - e.pre[b*w+c] + e.pre[a*w+c]
}

// q is Q̂ of X = [s,t), Y = [t,k).
func (e *energy) q(s, t, k int) float64 {
	m, n := float64(t-s), float64(k-t)
	between := 2 * e.sum(s, t, t, k) / (m * n)
	wx := e.sum(s, t, s, t) / (m * (m - 1)) // = Σ_{i<k} / C(m,2)
	wy := e.sum(t, k, t, k) / (n * (n - 1))
	return m * n / (m + n) * (between - wx - wy)
}

// best returns the split with the largest Q̂ over every segment between
// consecutive cuts; ok is false when no segment can be split.
func (e *energy) best(bounds, cuts []int, minBlocks int) (EChange, bool) {
	var best EChange
	found := false
	for c := 0; c+1 < len(cuts); c++ {
		lo, hi := cuts[c], cuts[c+1]
		s := bounds[lo]
		for ti := lo + minBlocks; ti <= hi-minBlocks; ti++ {
			t := bounds[ti]
			if t-s < 2 {
				continue
			}
			for ki := ti + minBlocks; ki <= hi; ki++ {
				k := bounds[ki]
				if k-t < 2 {
					continue
				}
				if q := e.q(s, t, k); !found || q > best.Q {
					best, found = EChange{Index: t, End: k, Q: q}, true
				}
			}
		}
	}
	return best, found
}
