package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// The decisions of a sequential comparison (SequentialLook.Decision).
const (
	// SeqContinue: the interval neither excludes 0 nor lies inside the
	// band, and looks remain.
	SeqContinue = "continue"
	// SeqPositive and SeqNegative: the interval excludes 0, above it or
	// below it (the mean difference is positive or negative).
	SeqPositive = "positive"
	SeqNegative = "negative"
	// SeqEquivalent: the interval lies inside ±band.
	SeqEquivalent = "equivalent"
	// SeqUndecided: the last look allowed (MaxLooks) came and neither
	// held.
	SeqUndecided = "undecided"
)

// DefaultSeqMixture is the default mixture precision c of Sequential: the
// prior on the standardized effect δ = μ/σ is N(0, 1/c). A smaller c
// narrows the interval of the first looks and widens that of the later
// ones (half-widths at alpha 0.05, in σ: c 0.25 gives 3.61 at 4 looks,
// 2.40 at 5, 1.26 at 10, 0.65 at 30; c 1 gives ∞, 3.78, 1.22, 0.61; c 0.1
// 3.27, 2.42, 1.32, 0.68). With 0.25 a duel decides a 10 % and a 3 %
// difference at the noise of real 10 s wrk runs in fewer rounds on
// average than the fixed design of the same power (scripts/duelmc,
// docs/STATISTICS.md).
const DefaultSeqMixture = 0.25

// Sequential is a comparison that may look at its data after every new
// observation and stop, its error rate held at Alpha over every look: it
// tests the mean of paired differences d_i (in a duel, ln(B_i/A_i)) by the
// confidence sequence for a normal mean with unknown variance of Lai
// (1976) and Wang & Ramdas (2023): the μ whose mixture martingale M_n(μ)
// stays below 1/Alpha, an interval that holds the true mean at every n at
// once with probability >= 1-Alpha (Ville's inequality; STATISTICS.md).
type Sequential struct {
	// Alpha is the error rate over all looks together (0 < Alpha < 1).
	Alpha float64
	// Band is the practical band in the units of d: an interval inside
	// [-Band, +Band] is equivalent (0 for none).
	Band float64
	// MaxLooks is the last look (0: no last look).
	MaxLooks int
	// Mixture is the mixture precision c (0: DefaultSeqMixture).
	Mixture float64
}

// SequentialLook is the state of a sequential comparison after n
// observations.
type SequentialLook struct {
	N        int
	Mean     float64 // the mean of the differences
	Lo, Hi   float64 // the always-valid interval of the mean (±Inf while unbounded)
	Decision string  // SeqContinue, SeqPositive, SeqNegative, SeqEquivalent, SeqUndecided
}

// Look returns the sequential comparison's state after the observations
// d (every observation so far, in order). The interval is unbounded
// (±Inf) until the data bound it: always for fewer than 2 observations,
// and while n is small against Alpha (3 looks at alpha 0.05 with c 0.25).
// Its decision, in order: SeqEquivalent when the interval lies inside
// ±Band, SeqPositive or SeqNegative when it excludes 0, SeqUndecided at
// MaxLooks (and beyond), else SeqContinue. An observation that is not
// finite or a parameter outside its domain is an error.
func (s Sequential) Look(d []float64) (SequentialLook, error) {
	c := s.Mixture
	if c == 0 {
		c = DefaultSeqMixture
	}
	if !(s.Alpha > 0 && s.Alpha < 1) || !(c > 0) || math.IsInf(c, 0) || !(s.Band >= 0) || s.MaxLooks < 0 {
		return SequentialLook{}, fmt.Errorf("%w: Sequential alpha %v, mixture %v, band %v, max looks %d", ErrParameter, s.Alpha, c, s.Band, s.MaxLooks)
	}
	n := len(d)
	if n > 0 {
		if err := checkFinite(d); err != nil {
			return SequentialLook{}, err
		}
	}
	l := SequentialLook{N: n, Lo: math.Inf(-1), Hi: math.Inf(1), Decision: SeqContinue}
	if n > 0 {
		l.Mean = stat.Mean(d, nil)
	}
	if half, ok := laiHalfWidth(d, l.Mean, s.Alpha, c); ok {
		l.Lo, l.Hi = l.Mean-half, l.Mean+half
	}
	switch {
	case s.Band > 0 && l.Lo >= -s.Band && l.Hi <= s.Band:
		l.Decision = SeqEquivalent
	case l.Lo > 0:
		l.Decision = SeqPositive
	case l.Hi < 0:
		l.Decision = SeqNegative
	case s.MaxLooks > 0 && n >= s.MaxLooks:
		l.Decision = SeqUndecided
	}
	return l, nil
}

// laiHalfWidth is the half-width of Lai's confidence sequence at the
// mean m of d: with D = m-μ and S = Σ(d-m)², M_n(μ) < 1/alpha reads
// D²·n·(1 - K·c/(n+c)) < (K-1)·S, K = ((1/alpha)·√((n+c)/c))^(2/n);
// ok is false when the interval is unbounded (the coefficient of D² is
// not positive, or n < 2).
func laiHalfWidth(d []float64, m, alpha, c float64) (float64, bool) {
	n := float64(len(d))
	if len(d) < 2 {
		return 0, false
	}
	var ss float64
	for _, x := range d {
		ss += (x - m) * (x - m)
	}
	k := math.Exp(2 / n * (math.Log(1/alpha) + 0.5*math.Log((n+c)/c)))
	a := n * (1 - k*c/(n+c))
	if !(a > 0) {
		return 0, false
	}
	return math.Sqrt((k - 1) * ss / a), true
}

// OneSampleT is Student's two-sided one-sample t-test of mean 0 (a
// paired t-test on differences): t = mean/(sd/√n) on n-1 degrees of
// freedom. It needs 2 finite observations (*TooFewError, ErrNotFinite);
// with zero scatter p is 0 when the mean is not 0 and 1 when it is. It is
// the fixed-sample test, valid at one look chosen in advance; read after
// every observation its error rate grows with the looks (duelmc).
func OneSampleT(d []float64) (t, p float64, err error) {
	if err := checkFinite(d); err != nil {
		return 0, 0, err
	}
	if len(d) < 2 {
		return 0, 0, tooFew("one-sample t-test", 2, len(d))
	}
	m, v := stat.MeanVariance(d, nil)
	se := math.Sqrt(v / float64(len(d)))
	if se == 0 {
		if m == 0 {
			return 0, 1, nil
		}
		return math.Copysign(math.Inf(1), m), 0, nil
	}
	t = m / se
	p = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(d) - 1)}.CDF(-math.Abs(t))
	return t, p, nil
}
