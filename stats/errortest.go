package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// PermutationExactLimit is the most relabellings PermutationMeanDiff
// enumerates; beyond it draws that many at random.
const PermutationExactLimit = 20000

// PermutationMeanDiff is the two-sided permutation test of equal means of
// x and y (Fisher 1935): p is the share of the splits of the pooled values
// into groups of len(x) and len(y) whose |mean difference| is at least the
// observed one, exact whatever the distribution (overdispersed per-run
// error rates included). The splits are enumerated when C(n, len(x)) <=
// PermutationExactLimit (exhaustive), else that many are drawn with seed
// (the observed split counted: p >= 1/(draws+1)). Both samples need at
// least one finite value (else *TooFewError or ErrNotFinite).
func PermutationMeanDiff(x, y []float64, seed uint64) (p float64, exhaustive bool, err error) {
	for _, s := range [][]float64{x, y} {
		if err := checkFinite(s); err != nil {
			return 0, false, err
		}
		if len(s) < 1 {
			return 0, false, tooFew("permutation test", 1, len(s))
		}
	}
	pool := append(append([]float64(nil), x...), y...)
	n, k := len(pool), len(x)
	var total float64
	for _, v := range pool {
		total += v
	}
	// The statistic depends on the split only through the sum of the x
	// group: mean(x*) - mean(y*) = s/k - (total-s)/(n-k).
	diff := func(s float64) float64 { return s/float64(k) - (total-s)/float64(n-k) }
	var sx float64
	for _, v := range x {
		sx += v
	}
	obs := math.Abs(diff(sx))
	// Relabellings whose statistic equals the observed one up to rounding
	// count as at least as extreme.
	tol := 1e-12 * math.Max(1, obs)
	combos := 1.0
	for i := 1; i <= min(k, n-k); i++ {
		combos = combos * float64(n-min(k, n-k)+i) / float64(i)
	}
	if combos <= PermutationExactLimit {
		var hit, all int
		idx := make([]int, k)
		for i := range idx {
			idx[i] = i
		}
		for {
			var s float64
			for _, i := range idx {
				s += pool[i]
			}
			all++
			if math.Abs(diff(s)) >= obs-tol {
				hit++
			}
			// next k-subset in lexicographic order
			i := k - 1
			for i >= 0 && idx[i] == n-k+i {
				i--
			}
			if i < 0 {
				break
			}
			idx[i]++
			for j := i + 1; j < k; j++ {
				idx[j] = idx[j-1] + 1
			}
		}
		return float64(hit) / float64(all), true, nil
	}
	rng := newRand(seed)
	perm := make([]float64, n)
	hit := 1 // the observed split
	for d := 0; d < PermutationExactLimit; d++ {
		copy(perm, pool)
		var s float64
		for i := 0; i < k; i++ { // partial Fisher-Yates: the first k
			j := i + rng.IntN(n-i)
			perm[i], perm[j] = perm[j], perm[i]
			s += perm[i]
		}
		if math.Abs(diff(s)) >= obs-tol {
			hit++
		}
	}
	return float64(hit) / float64(PermutationExactLimit+1), false, nil
}

// MeanDiffCI returns Welch's interval at level of mean(x) - mean(y)
// (WelchT's standard error and degrees of freedom): [d, d] when neither
// sample varies. Each sample needs at least 2 values.
func MeanDiffCI(x, y []float64, level float64) (lo, hi float64, err error) {
	for _, s := range [][]float64{x, y} {
		if err := checkFinite(s); err != nil {
			return 0, 0, err
		}
		if len(s) < 2 {
			return 0, 0, tooFew("Welch interval", 2, len(s))
		}
	}
	mx, vx := stat.MeanVariance(x, nil) // unbiased variances
	my, vy := stat.MeanVariance(y, nil)
	d := mx - my
	ax, ay := vx/float64(len(x)), vy/float64(len(y))
	se := math.Sqrt(ax + ay)
	if se == 0 {
		return d, d, nil
	}
	df := (ax + ay) * (ax + ay) / (ax*ax/float64(len(x)-1) + ay*ay/float64(len(y)-1))
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1 - (1-level)/2)
	return d - q*se, d + q*se, nil
}

// FisherExact is Fisher's exact test of equal proportions ka/na and kb/nb
// (Fisher, Statistical Methods for Research Workers, 1925; Agresti,
// Categorical Data Analysis, 2002, §3.5): conditional on the ka+kb
// events, ka is hypergeometric under the null, and the two-sided p sums
// the probabilities of the tables no more likely than the observed one.
// It assumes every trial of a side has the same probability (pooled
// counts of runs that do not vary more than binomially). Counts must be
// 0 <= k <= n, n >= 1.
func FisherExact(ka, na, kb, nb int64) (p float64, err error) {
	if na < 1 || nb < 1 || ka < 0 || kb < 0 || ka > na || kb > nb {
		return 0, ErrNotFinite
	}
	K, N := ka+kb, na+nb
	lf := func(v int64) float64 { r, _ := math.Lgamma(float64(v) + 1); return r }
	// log P(X = x) for X ~ Hypergeometric(N, K, na)
	logP := func(x int64) float64 {
		return lf(K) - lf(x) - lf(K-x) + lf(N-K) - lf(na-x) - lf(N-K-na+x) - lf(N) + lf(na) + lf(N-na)
	}
	lo, hi := max(0, na-(N-K)), min(K, na)
	obs := logP(ka)
	var s float64
	for x := lo; x <= hi; x++ {
		if l := logP(x); l <= obs+1e-7 {
			s += math.Exp(l)
		}
	}
	return math.Min(1, s), nil
}

// DiffProportionsCI returns the Wald interval at level of ka/na - kb/nb
// (Agresti, Categorical Data Analysis, §3.1.2), for pooled counts
// (na, nb >= 1).
func DiffProportionsCI(ka, na, kb, nb int64, level float64) (lo, hi float64) {
	pa, pb := float64(ka)/float64(na), float64(kb)/float64(nb)
	se := math.Sqrt(pa*(1-pa)/float64(na) + pb*(1-pb)/float64(nb))
	z := distuv.UnitNormal.Quantile(1 - (1-level)/2)
	return pa - pb - z*se, pa - pb + z*se
}

// BinomialDispersion is Pearson's test of the counts k[i] of n[i] trials
// against one common probability (the pooled rate): X² = Σ (k_i -
// n_i·p̂)² / (n_i·p̂·(1-p̂)) on len(k)-1 degrees of freedom (Cochran,
// "Some methods for strengthening the common χ² tests", Biometrics 10,
// 1954; the binomial dispersion test). p is the chance of an X² at
// least as large with binomial runs: a small p says the runs' rates vary
// by more than binomial noise (overdispersion). With fewer than 2 runs,
// or no variation possible (p̂ 0 or 1), p is 1.
func BinomialDispersion(k, n []int64) (x2, p float64) {
	var sk, sn int64
	for i := range k {
		sk, sn = sk+k[i], sn+n[i]
	}
	if len(k) < 2 || sn == 0 || sk == 0 || sk == sn {
		return 0, 1
	}
	ph := float64(sk) / float64(sn)
	for i := range k {
		if n[i] == 0 {
			continue
		}
		e := float64(n[i]) * ph
		d := float64(k[i]) - e
		x2 += d * d / (e * (1 - ph))
	}
	return x2, distuv.ChiSquared{K: float64(len(k) - 1)}.Survival(x2)
}
