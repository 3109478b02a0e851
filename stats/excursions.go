package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// DefaultExcursionFactor is the smallest size of an excursion that counts
// as instability: 1.5 times the run's level (latency 50 % above it, or
// throughput below 1/1.5 of it).
const DefaultExcursionFactor = 1.5

// DefaultCAPAFactor is the factor of ln(n) in the default penalties of
// Excursions, for a collective and for a point anomaly: 3 ln n, the
// defaults of Fisch, Eckley & Fearnhead's CAPA for anomalies in the mean
// (R package anomaly, capa with type "mean").
const DefaultCAPAFactor = 3

// DefaultStallFactor is the size at which one window is a stall whatever
// the series' noise: a mean latency 15 times the run's stall level (its
// lower quartile). A freeze of all handling for s seconds delays the
// requests sent during it by s down to 0 (s/2 on average), so with an
// open-model tool it adds about s²/2 seconds of latency per second of
// requests to the window that holds it: at a level of L seconds in
// windows of W seconds that window reaches 15 L when s >= sqrt(30 L W)
// (0.3 s at L = 3 ms, W = 1 s). On the conformance grid's loaded host
// (load up to 20 on 2 CPUs) the host's own hiccups reached at most 14.4
// times the level in 89 of the 90 flat, warm-up and drift runs and 17 in
// one (a 0.38 s freeze of the whole host), while every injected stall of
// 0.3-2 s reached 19 or more: see docs/STATISTICS.md.
const DefaultStallFactor = 15

// minScale is the floor of the robust scale of the log series: a series
// steadier than ±1 % does not make wobbles of a few per cent anomalous.
const minScale = 0.01

// Excursion is a stretch [Start, End) of a series that left its level and
// came back (or reached the end), in the worse direction.
type Excursion struct {
	Start, End int
	// Mean is the weighted mean of x over the excursion and Peak its
	// worst value (the largest for latency, the smallest for throughput).
	Mean, Peak float64
}

// Len returns the number of observations in the excursion.
func (e Excursion) Len() int { return e.End - e.Start }

// InstabilityOptions are the parameters of Excursions.
type InstabilityOptions struct {
	// HigherIsBetter is true for throughput; for latency (false) an
	// excursion is upward.
	HigherIsBetter bool
	// From is the first observation to look at: the steady state's
	// start, so that a warm-up is not taken for an excursion.
	From int
	// Factor is the smallest excursion size, as a ratio to the level
	// (<= 1: DefaultExcursionFactor).
	Factor float64
	// Penalty and PointPenalty are CAPA's penalties for a collective and
	// a point anomaly (<= 0: DefaultCAPAFactor·ln n each).
	Penalty, PointPenalty float64
	// StallFactor, when > 1, makes every observation at least StallFactor
	// times the stall level (below it for HigherIsBetter) a stall
	// whatever CAPA found (DefaultStallFactor is the usual value). The
	// stall level is the lower quartile of x[From:] (the upper one for
	// HigherIsBetter), not the median: stalls only make things worse,
	// and a stall every 2-3 s with the queue it leaves touches more than
	// half of the windows, which moves the median but not the quartile
	// while fewer than 3/4 are touched. A stall at the series' end
	// counts as an excursion, not an edge (one at its start stays an
	// edge). When a series has stalls, its Excursions are its stalls
	// only (the pieces CAPA found that hold one) and Level is the stall
	// level.
	StallFactor float64
}

// Instability is the result of Excursions.
type Instability struct {
	// N is the number of observations looked at (from From on).
	N int
	// Level is the series' typical level, exp(median(ln x)), and Scale
	// the robust standard deviation of ln x (1.4826·MAD, at least 0.01).
	Level, Scale float64
	// AR is the robust lag-1 autocorrelation of the noise of ln x that
	// collective anomalies were corrected for (0 to 0.95).
	AR float64
	// Excursions are the worse-direction anomalies at least Factor times
	// the level away that left the level and came back, in order, with
	// indices into x. Edges are those that start at From or reach the
	// end: a worse start is a warm-up and a worse end a change not yet
	// over, which are the warm-up classification's business.
	Excursions, Edges []Excursion
	// ShareN is the share of the observations in excursions and ShareW
	// that of the weights (e.g. the requests of the windows).
	ShareN, ShareW float64
	// Unstable is true when the series keeps leaving its level: at
	// least 2 excursions, covering at most half of the observations (a
	// series that is mostly "away" has a different level, not
	// excursions).
	Unstable bool
	// Stalls counts the excursions whose peak reaches StallFactor times
	// the level (0 without StallFactor).
	Stalls int
	// Periodic is true for at least 3 excursions that start at regular
	// intervals (each within max(1, Period/4) of Period) and that are
	// stalls or whose onsets are more regular than random ones would be
	// (RegularP <= RegularityAlpha).
	Periodic bool
	// Period is the interval between the starts of successive
	// excursions (OnsetPeriod), in observations (0 with fewer than 3),
	// and ACF the autocorrelation of the excursion indicator at
	// Period ± 1 (for information: a 0/1 series of one-window events at a
	// period between two whole windows spreads its autocorrelation over
	// two lags).
	Period, ACF float64
	// RegularP is the Monte-Carlo p-value of the onsets' regularity when
	// it was tested (regular excursions that are not stalls; else 0):
	// the share of random placements of as many onsets at least as
	// regular.
	RegularP float64
}

// Excursions finds where a series that should be steady (e.g. the mean
// latency per window of a run) keeps leaving its level: recurring stalls,
// pauses or bursts. It runs CAPA (Fisch, Eckley & Fearnhead, 2022) for
// anomalies in the mean on the log series, standardised robustly and
// corrected for AR(1) noise, keeps the excursions in the worse direction
// at least Factor from the level, then tells Unstable and, for 3 or more,
// the period. The design: docs/STATISTICS.md, "Instability within a run".
//
// w are the weights of the observations (e.g. requests per window), for
// ShareW; nil weighs them equally. x must be finite and positive, w (when
// given) as long as x, finite and non-negative, and From in [0, len(x)-4]
// (else ErrEmpty, ErrNotFinite, ErrParameter or a *TooFewError).
func Excursions(x, w []float64, o InstabilityOptions) (Instability, error) {
	if err := checkExcursionInput(x, w, o.From); err != nil {
		return Instability{}, err
	}
	xs := x[o.From:]
	n := len(xs)
	if n < 4 {
		return Instability{}, tooFew("excursions", 4, n)
	}
	o = excursionDefaults(o, n)
	y := make([]float64, n)
	for i, v := range xs {
		y[i] = math.Log(v)
	}
	med, scale := logLevel(y)
	z := make([]float64, n)
	for i, v := range y {
		z[i] = (v - med) / scale
	}
	// AR(1) correction (the anomaly package's ac_corrected), with φ the
	// lag-1 autocorrelation of the baseline noise.
	phi := min(max(baselineAR(z), 0), 0.95)
	res := Instability{N: n, Level: math.Exp(med), Scale: scale, AR: phi}
	q := 0.25
	if o.HigherIsBetter {
		q = 0.75
	}
	sc := excursionScale{o: o, stallLevel: math.Exp(quantileSorted(slices.Sorted(slices.Values(y)), q))}

	found := capa(z, (1+phi)/(1-phi), o.Penalty, o.PointPenalty, max(2, n/2))
	if o.StallFactor > 1 {
		found = addStalls(found, xs, sc.isStall)
	}
	sc.fileAnomalies(&res, found, x, w)
	res.ShareN, res.ShareW = excursionShares(res.Excursions, w, o.From, len(x))
	res.Unstable = len(res.Excursions) >= 2 && (res.ShareN <= 0.5 || res.Stalls >= 2)
	if len(res.Excursions) >= 3 {
		excursionPeriod(&res, o.From)
	}
	return res, nil
}

// checkExcursionInput checks x (finite, positive), w (nil or as long as
// x, finite, non-negative) and from (inside x).
func checkExcursionInput(x, w []float64, from int) error {
	if err := checkFinite(x); err != nil {
		return err
	}
	for _, v := range x {
		if v <= 0 {
			return fmt.Errorf("%w: excursions need positive values, have %v", ErrParameter, v)
		}
	}
	if w != nil {
		if len(w) != len(x) {
			return fmt.Errorf("%w: %d weights for %d observations", ErrParameter, len(w), len(x))
		}
		if err := checkFinite(w); err != nil {
			return err
		}
		for _, v := range w {
			if v < 0 {
				return fmt.Errorf("%w: negative weight %v", ErrParameter, v)
			}
		}
	}
	if from < 0 || from > len(x) {
		return fmt.Errorf("%w: From %d outside [0, %d]", ErrParameter, from, len(x))
	}
	return nil
}

// excursionDefaults fills the unset options for a series of n
// observations: DefaultExcursionFactor, and CAPA's 3 ln n penalties.
func excursionDefaults(o InstabilityOptions, n int) InstabilityOptions {
	if !(o.Factor > 1) {
		o.Factor = DefaultExcursionFactor
	}
	logN := math.Log(float64(n))
	if !(o.Penalty > 0) {
		o.Penalty = DefaultCAPAFactor * logN
	}
	if !(o.PointPenalty > 0) {
		o.PointPenalty = DefaultCAPAFactor * logN
	}
	return o
}

// excursionScale tells how far worse than a level a value is, and which
// values are stalls (StallFactor times worse than stallLevel).
type excursionScale struct {
	o          InstabilityOptions
	stallLevel float64
}

// worse tells how many times worse than level v is.
func (s excursionScale) worse(v, level float64) float64 {
	if s.o.HigherIsBetter {
		return level / v
	}
	return v / level
}

func (s excursionScale) isStall(v float64) bool {
	return s.o.StallFactor > 1 && s.worse(v, s.stallLevel) >= s.o.StallFactor
}

// fileAnomalies files the anomalies found (positions in x[From:]) as edges,
// stalls or excursions, dropping those less than Factor from the level.
// A run that stalls is described by its stalls, at their level: the
// smaller excursions beside them are the noise of a machine that also
// stalls.
func (s excursionScale) fileAnomalies(res *Instability, found [][2]int, x, w []float64) {
	from := s.o.From
	var other []Excursion
	for _, a := range found {
		e := excursion(x, w, a[0]+from, a[1]+from, s.o.HigherIsBetter)
		stall := s.isStall(e.Peak)
		far := s.worse(e.Mean, res.Level) >= s.o.Factor
		switch {
		case e.Start == from && (stall || far):
			res.Edges = append(res.Edges, e)
		case stall:
			res.Excursions = append(res.Excursions, e)
			res.Stalls++
		case !far:
		case e.End == len(x):
			res.Edges = append(res.Edges, e)
		default:
			other = append(other, e)
		}
	}
	if res.Stalls > 0 {
		res.Level = s.stallLevel
	} else {
		res.Excursions = other
	}
}

// excursionShares are the shares of the observations from..end, by count
// and by weight, that lie in the excursions ex.
func excursionShares(ex []Excursion, w []float64, from, end int) (byN, byW float64) {
	var inN int
	var inW, allW float64
	for i := from; i < end; i++ {
		allW += weight(w, i)
	}
	for _, e := range ex {
		inN += e.Len()
		for i := e.Start; i < e.End; i++ {
			inW += weight(w, i)
		}
	}
	byN = float64(inN) / float64(end-from)
	if allW > 0 {
		byW = inW / allW
	}
	return byN, byW
}

// excursionPeriod sets the period of 3 or more excursions, the
// autocorrelation of the excursion indicator at it, and Periodic: regular
// onsets of stalls (unmistakable one by one), or of smaller excursions
// more regular than random onsets (RegularP).
func excursionPeriod(res *Instability, from int) {
	n := res.N
	starts := make([]float64, len(res.Excursions))
	for i, e := range res.Excursions {
		starts[i] = float64(e.Start)
	}
	res.Period = OnsetPeriod(starts)
	regular := true
	for i := 1; i < len(starts); i++ {
		if g := starts[i] - starts[i-1]; math.Abs(g-res.Period) > max(1, res.Period/4) {
			regular = false
		}
	}
	ind := make([]float64, n)
	for _, e := range res.Excursions {
		for i := e.Start; i < e.End; i++ {
			ind[i-from] = 1
		}
	}
	lag := int(math.Round(res.Period))
	res.ACF = math.Inf(-1)
	for l := lag - 1; l <= lag+1; l++ {
		res.ACF = max(res.ACF, autocorrelation(ind, l))
	}
	if !res.Unstable || !regular {
		return
	}
	if res.Stalls > 0 {
		res.Periodic = true
		return
	}
	for i := range starts {
		starts[i] -= float64(from)
	}
	res.RegularP = regularityP(starts, n, regularityDraws)
	res.Periodic = res.RegularP <= RegularityAlpha
}

// RegularityAlpha is the level of the regularity test of excursions that
// are not stalls (Instability.RegularP), and regularityDraws its number of
// random placements.
const (
	RegularityAlpha = 0.05
	regularityDraws = 4000
)

// irregularity is how far the onsets starts (at least 2, in order) are
// from a regular sequence: the largest distance of an interval between
// successive onsets from their period (OnsetPeriod), as a share of it.
func irregularity(starts []float64) float64 {
	p := OnsetPeriod(starts)
	if !(p > 0) {
		return math.Inf(1)
	}
	var d float64
	for i := 1; i < len(starts); i++ {
		d = max(d, math.Abs(starts[i]-starts[i-1]-p))
	}
	return d / p
}

// regularityP returns the share of random placements of len(starts)
// onsets among n observations (uniform over the placements at least 2
// apart, as separate excursions are) that are at least as regular as
// starts (irregularity no larger): a Monte-Carlo p-value, with a fixed
// seed so that a verdict is reproducible.
func regularityP(starts []float64, n, draws int) float64 {
	k := len(starts)
	if k < 3 || n-k+1 < k {
		return 1
	}
	obs := irregularity(starts) + 1e-9
	rng := rand.New(rand.NewPCG(DefaultSeed, uint64(n*1000+k)))
	pos := make([]float64, k)
	idx := make([]int, n-k+1)
	for i := range idx {
		idx[i] = i
	}
	pick := make([]int, k)
	hits := 1 // the observed placement counts as one of the draws
	for range draws {
		// k distinct values of 0..n-k (a partial Fisher-Yates shuffle of
		// idx, which stays a permutation: O(k) a draw), sorted, plus
		// their rank: every placement at least 2 apart within [0, n)
		// equally likely.
		for i := range k {
			j := i + rng.IntN(len(idx)-i)
			idx[i], idx[j] = idx[j], idx[i]
		}
		copy(pick, idx[:k])
		slices.Sort(pick)
		for i, v := range pick {
			pos[i] = float64(v + i)
		}
		if irregularity(pos) <= obs {
			hits++
		}
	}
	return float64(hits) / float64(draws+1)
}

// OnsetPeriod returns the period of events that started at the times
// starts (at least 2, in order): the least-squares slope of the start
// times on their rank, t_k ≈ t_0 + k·P, which uses every onset where the
// median interval uses the middle one (onsets seen at the resolution of
// a window are off by up to one window each).
func OnsetPeriod(starts []float64) float64 {
	k := make([]float64, len(starts))
	for i := range k {
		k[i] = float64(i)
	}
	_, slope := stat.LinearRegression(k, starts, nil, false)
	return slope
}

// logLevel returns the median of the log series y and its robust scale,
// 1.4826·MAD, at least minScale.
func logLevel(y []float64) (level, scale float64) {
	level = Median(y)
	dev := make([]float64, len(y))
	for i, v := range y {
		dev[i] = math.Abs(v - level)
	}
	return level, max(1.4826*Median(dev), minScale)
}

// addStalls adds to the anomalies found (sorted [start, end) pairs of
// indices into x) every observation that stall says is a stall, and merges
// the pieces that touch or overlap.
func addStalls(found [][2]int, x []float64, stall func(float64) bool) [][2]int {
	all := slices.Clone(found)
	for i, v := range x {
		if stall(v) {
			all = append(all, [2]int{i, i + 1})
		}
	}
	slices.SortFunc(all, func(a, b [2]int) int { return a[0] - b[0] })
	var out [][2]int
	for _, a := range all {
		if k := len(out) - 1; k >= 0 && a[0] <= out[k][1] {
			out[k][1] = max(out[k][1], a[1])
			continue
		}
		out = append(out, a)
	}
	return out
}

func weight(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}

// excursion describes x[start:end].
func excursion(x, w []float64, start, end int, higherIsBetter bool) Excursion {
	e := Excursion{Start: start, End: end, Peak: x[start]}
	var s, sw float64
	for i := start; i < end; i++ {
		wi := weight(w, i)
		s += wi * x[i]
		sw += wi
		if (x[i] > e.Peak) != higherIsBetter {
			e.Peak = x[i]
		}
	}
	if sw > 0 {
		e.Mean = s / sw
	} else {
		e.Mean = Mean(x[start:end])
	}
	return e
}

// capa returns the anomalies [start, end) of the standardised series z,
// merged where they touch: the optimal partition into baseline
// observations, point anomalies (penalty betaPoint) and collective
// anomalies of 2 to maxLen observations (penalty beta). The saving of a
// collective anomaly is divided by lrv, the ratio of the long-run
// variance of a mean to its variance under independence.
func capa(z []float64, lrv, beta, betaPoint float64, maxLen int) [][2]int {
	n := len(z)
	pre := make([]float64, n+1)
	for i, v := range z {
		pre[i+1] = pre[i] + v
	}
	// f[t] is the smallest penalised cost of z[:t], counted as minus the
	// savings against the baseline; from[t] is where its last piece
	// starts and kind[t] what it is (0 baseline, 1 point, 2 collective).
	f := make([]float64, n+1)
	from := make([]int, n+1)
	kind := make([]uint8, n+1)
	for t := 1; t <= n; t++ {
		best, arg, k := f[t-1], t-1, uint8(0)
		if z2 := z[t-1] * z[t-1]; z2 > 1 {
			if c := f[t-1] - (z2 - 1 - math.Log(z2)) + betaPoint; c < best {
				best, arg, k = c, t-1, 1
			}
		}
		for m := 2; m <= min(maxLen, t); m++ {
			s := pre[t] - pre[t-m]
			if c := f[t-m] - s*s/(float64(m)*lrv) + beta; c < best {
				best, arg, k = c, t-m, 2
			}
		}
		f[t], from[t], kind[t] = best, arg, k
	}
	var out [][2]int
	for t := n; t > 0; t = from[t] {
		if kind[t] == 0 {
			continue
		}
		if len(out) > 0 && out[len(out)-1][0] == t {
			out[len(out)-1][0] = from[t]
			continue
		}
		out = append(out, [2]int{from[t], t})
	}
	slices.Reverse(out)
	return out
}

// baselineLimit is how many robust SDs from the median an observation may
// lie and still count as baseline noise for baselineAR.
const baselineLimit = 2.5

// baselineAR returns the lag-1 correlation of the successive pairs of z
// that both lie within ±baselineLimit: the autocorrelation of the noise
// about the level, which a run of excursions (each a correlated stretch
// far from the level) would otherwise inflate. 0 for fewer than 3 pairs.
func baselineAR(z []float64) float64 {
	var a, b []float64
	for i := 1; i < len(z); i++ {
		if math.Abs(z[i-1]) <= baselineLimit && math.Abs(z[i]) <= baselineLimit {
			a, b = append(a, z[i-1]), append(b, z[i])
		}
	}
	if len(a) < 3 {
		return 0
	}
	return stat.Correlation(a, b, nil)
}

// autocorrelation returns the sample autocorrelation of x at lag l (0 for
// a lag outside [1, len(x)-1] or a constant x).
func autocorrelation(x []float64, l int) float64 {
	n := len(x)
	if l < 1 || l >= n {
		return 0
	}
	m, _ := meanVar(x)
	var num, den float64
	for i, v := range x {
		d := v - m
		den += d * d
		if i+l < n {
			num += d * (x[i+l] - m)
		}
	}
	if den == 0 {
		return 0
	}
	return num / den
}
