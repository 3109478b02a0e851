package watch

import (
	"math"
)

// The stopping statement: a confidence sequence for a latency quantile of
// the steady state, valid however often it is looked at. The steady
// windows are blocks; S(x) = Σ_b (c_b(x) − p·n_b) is a martingale at the
// true quantile q, so a time-uniform bound g on |S(q)| (the asymptotic
// confidence sequence of Waudby-Smith et al. 2024, for block sums rather
// than independent requests) makes the order statistics of ranks p·N ∓ g
// an interval that holds q at every look. σ is never taken below the
// binomial one of independent requests; ρ is tuned for tuneBlocks blocks.
// The construction, its formula and its limits: docs/STATISTICS.md,
// "Watching a running test"; cs_test.go checks the coverage.

// minBlocks is the fewest steady blocks a statement is made from.
const minBlocks = 30

// minTail is the fewest requests on the far side of the quantile (past
// a p99, below a p1) a statement is made with: a tail seen a few dozen
// times is too few clusters of slow requests for the normal boundary.
const minTail = 100

// tuneBlocks is where the boundary is tightest (ρ).
const tuneBlocks = 60

// Bound is the confidence sequence of one quantile at one look.
type Bound struct {
	Quantile float64 // p, e.g. 0.99
	// Estimate is the quantile of the pooled steady latencies, ms; Lo and
	// Hi bound it (ms; Lo 0 or Hi +Inf when a rank falls outside the
	// data).
	Estimate, Lo, Hi float64
	// HalfWidth is (Hi − Lo)/2 relative to Estimate (0.01 is 1 %).
	HalfWidth float64
	Blocks    int
	N         int64
	OK        bool // false: fewer than minBlocks blocks, nothing stated
}

// boundary returns the asymptotic confidence sequence's g for B blocks
// of standard deviation sigma at level alpha.
func boundary(b int, sigma, alpha float64) float64 {
	l := -2 * math.Log(alpha)
	rho2 := (l + math.Log(l+1)) / tuneBlocks
	t := float64(b)*rho2 + 1
	return sigma * math.Sqrt(2*t/rho2*math.Log(math.Sqrt(t)/alpha))
}

// quantileCS returns the confidence sequence of quantile p from the
// blocks at level alpha; pool is a reusable buffer.
func quantileCS(blocks []*hist, p, alpha float64, pool *pooled) Bound {
	bd := Bound{Quantile: p, Blocks: len(blocks)}
	var nonEmpty []*hist
	for _, b := range blocks {
		if b.n > 0 {
			nonEmpty = append(nonEmpty, b)
		}
	}
	pool.reset(nonEmpty)
	bd.N = pool.n
	n := float64(pool.n)
	if len(nonEmpty) < minBlocks || n*min(p, 1-p) < minTail {
		return bd
	}
	bd.Blocks = len(nonEmpty)
	qb := pool.rank(max(int64(math.Ceil(p*n)), 1))
	bd.Estimate = bucketMid(qb)
	g := boundary(len(nonEmpty), blockSigma(nonEmpty, p, qb, n), alpha)
	bd.Lo, bd.Hi = rankBounds(pool, p*n-g, p*n+g)
	bd.HalfWidth = (bd.Hi - bd.Lo) / 2 / bd.Estimate
	bd.OK = true
	return bd
}

// blockSigma is the long-run standard deviation of the block terms
// r_b = c_b − p·n_b at bucket qb (taken about 0, their mean at the
// quantile): their mean square plus twice their mean products at lags 1
// to sigmaLags, Bartlett-weighted (Newey and West 1987); never below the
// binomial variance of independent requests.
func blockSigma(blocks []*hist, p float64, qb uint16, n float64) float64 {
	r := make([]float64, len(blocks))
	for i, b := range blocks {
		r[i] = float64(b.countLE(qb)) - p*float64(b.n)
	}
	nb := float64(len(blocks))
	var lrv float64
	for lag := 0; lag <= sigmaLags && lag < len(r); lag++ {
		var c float64
		for i := lag; i < len(r); i++ {
			c += r[i] * r[i-lag]
		}
		w := 1.0
		if lag > 0 {
			w = 2 * (1 - float64(lag)/float64(sigmaLags+1))
		}
		lrv += w * c / nb
	}
	return math.Sqrt(max(lrv, p*(1-p)*n/nb))
}

// rankBounds returns the lower edge of the bucket of rank ceil(lo) and
// the upper edge of that of rank ceil(hi) of the pooled latencies: 0 and
// +Inf beyond the data.
func rankBounds(pool *pooled, lo, hi float64) (float64, float64) {
	l, h := 0.0, math.Inf(1)
	if k := int64(math.Ceil(lo)); k >= 1 {
		l = bucketLo(pool.rank(k))
	}
	if k := int64(math.Ceil(hi)); k <= pool.n {
		h = bucketHi(pool.rank(k))
	}
	return l, h
}

// sigmaLags is how many lags of the block terms the variance counts:
// their variance plus twice their covariances at lags 1 to sigmaLags,
// Bartlett-weighted (Newey and West 1987), so that blocks that still
// depend on their neighbours (a correlation longer than a block) widen
// the statement instead of breaking it.
const sigmaLags = 2
