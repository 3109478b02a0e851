package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultResamples is the default number of bootstrap resamples.
const DefaultResamples = 10000

// DefaultLevel is the default confidence level.
const DefaultLevel = 0.95

// DefaultBatches is the default number of batches of BatchMeansCI.
const DefaultBatches = 20

// DefaultSeed is the bootstrap seed the rest of loadverdict uses, so that
// reports are reproducible.
const DefaultSeed = 20170101

// The CI methods.
const (
	MethodBootstrap  = "bootstrap-percentile"
	MethodBatchMeans = "batch-means"
)

// CI is a confidence interval around a point estimate.
type CI struct {
	Estimate float64 // the point estimate from the full data
	Lo, Hi   float64 // the interval bounds
	Level    float64 // the confidence level, e.g. 0.95
	Method   string  // MethodBootstrap or MethodBatchMeans
}

// Inverse returns the interval of the inverse ratio, 1/x: the estimate
// inverted and the bounds inverted and swapped (a ratio a/b's interval
// as b/a's).
func (ci CI) Inverse() CI {
	inv := ci
	inv.Estimate, inv.Lo, inv.Hi = 1/ci.Estimate, 1/ci.Hi, 1/ci.Lo
	return inv
}

// ciDefaults applies the defaults for resamples and level and checks level.
func ciDefaults(resamples int, level float64) (int, float64, error) {
	if resamples <= 0 {
		resamples = DefaultResamples
	}
	if level == 0 || math.IsNaN(level) {
		level = DefaultLevel
	}
	if level <= 0 || level >= 1 {
		return 0, 0, fmt.Errorf("%w: confidence level %v not in (0, 1)", ErrParameter, level)
	}
	return resamples, level, nil
}

// newRand returns the deterministic generator for a seed.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

// resampleMean returns the mean of len(x) draws with replacement from x.
func resampleMean(rng *rand.Rand, x []float64) float64 {
	var s float64
	n := len(x)
	for range n {
		s += x[rng.IntN(n)]
	}
	return s / float64(n)
}

// BootstrapMeanCI returns the percentile bootstrap confidence interval of
// the mean of x (Efron & Tibshirani, "An Introduction to the Bootstrap",
// 1993, ch. 13): the (1-level)/2 and (1+level)/2 quantiles (R type 7) of
// the means of resamples resamples of x drawn with replacement.
//
// resamples <= 0 selects DefaultResamples (10,000) and level 0 selects
// DefaultLevel (0.95); other levels must lie in (0, 1). The generator is
// seeded with seed, so equal inputs give equal intervals. The bootstrap
// assumes independent observations; for autocorrelated series use
// BatchMeansCI or SteadyStateCI. x must be finite with at least 2
// observations.
func BootstrapMeanCI(x []float64, resamples int, level float64, seed uint64) (CI, error) {
	if err := checkFinite(x); err != nil {
		return CI{}, err
	}
	if len(x) < 2 {
		return CI{}, tooFew("bootstrap CI", 2, len(x))
	}
	resamples, level, err := ciDefaults(resamples, level)
	if err != nil {
		return CI{}, err
	}
	rng := newRand(seed)
	means := make([]float64, resamples)
	for i := range means {
		means[i] = resampleMean(rng, x)
	}
	slices.Sort(means)
	m, _ := meanVar(x)
	a := (1 - level) / 2
	return CI{Estimate: m, Lo: quantileSorted(means, a), Hi: quantileSorted(means, 1-a), Level: level, Method: MethodBootstrap}, nil
}

// BootstrapRatioCI returns the percentile bootstrap confidence interval of
// mean(num)/mean(den), resampling num and den independently (the two
// systems' runs are independent samples), with the defaults and seeding of
// BootstrapMeanCI.
//
// Both sides must be finite with at least 2 observations, and den must be
// all positive or all negative, so that no resampled mean is zero.
func BootstrapRatioCI(num, den []float64, resamples int, level float64, seed uint64) (CI, error) {
	for _, x := range [][]float64{num, den} {
		if err := checkFinite(x); err != nil {
			return CI{}, err
		}
		if len(x) < 2 {
			return CI{}, tooFew("bootstrap ratio CI", 2, len(x))
		}
	}
	pos, neg := 0, 0
	for _, v := range den {
		if v > 0 {
			pos++
		} else if v < 0 {
			neg++
		}
	}
	if pos != len(den) && neg != len(den) {
		return CI{}, fmt.Errorf("%w: denominator values must all be positive or all negative", ErrParameter)
	}
	resamples, level, err := ciDefaults(resamples, level)
	if err != nil {
		return CI{}, err
	}
	rng := newRand(seed)
	ratios := make([]float64, resamples)
	for i := range ratios {
		ratios[i] = resampleMean(rng, num) / resampleMean(rng, den)
	}
	slices.Sort(ratios)
	mn, _ := meanVar(num)
	md, _ := meanVar(den)
	a := (1 - level) / 2
	return CI{Estimate: mn / md, Lo: quantileSorted(ratios, a), Hi: quantileSorted(ratios, 1-a), Level: level, Method: MethodBootstrap}, nil
}

// BatchMeansCI returns the batch-means confidence interval of the mean of
// a stationary but autocorrelated series (Schmeiser, "Batch size effects in
// the analysis of simulation output", Operations Research 30(3), 1982).
//
// x is cut into batches non-overlapping batches of len(x)/batches
// consecutive observations (the trailing remainder is dropped), and the
// interval is Ȳ ± t_{(1+level)/2, k-1}·s_Y/√k over the k batch means Y,
// with the quantile from Student's t. The estimate is Ȳ, the mean of the
// observations used. batches <= 0 selects DefaultBatches (20), level 0
// selects DefaultLevel; batches must be at least 2 and at most len(x).
func BatchMeansCI(x []float64, batches int, level float64) (CI, error) {
	if err := checkFinite(x); err != nil {
		return CI{}, err
	}
	if batches <= 0 {
		batches = DefaultBatches
	}
	if batches < 2 {
		return CI{}, fmt.Errorf("%w: need at least 2 batches, have %d", ErrParameter, batches)
	}
	if len(x) < batches {
		return CI{}, tooFew("batch means CI", batches, len(x))
	}
	_, level, err := ciDefaults(1, level)
	if err != nil {
		return CI{}, err
	}
	size := len(x) / batches
	y := make([]float64, batches)
	for j := range y {
		y[j], _ = meanVar(x[j*size : (j+1)*size])
	}
	m, _ := meanVar(y)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(batches - 1)}.Quantile((1 + level) / 2)
	half := t * sampleSD(y) / math.Sqrt(float64(batches))
	return CI{Estimate: m, Lo: m - half, Hi: m + half, Level: level, Method: MethodBatchMeans}, nil
}

// Lag1Autocorrelation returns the lag-1 sample autocorrelation of x,
// sum_i (x_i-x̄)(x_{i+1}-x̄) / sum_i (x_i-x̄)², or 0 when len(x) < 3 or x
// is constant.
func Lag1Autocorrelation(x []float64) float64 {
	if len(x) < 3 {
		return 0
	}
	return autocorrelation(x, 1)
}

// Autocorrelated reports whether the lag-1 autocorrelation of x is
// significant at about the 5 % level, |r1| > 1.96/√n (Bartlett's large-sample
// standard error of r1 under independence is 1/√n).
func Autocorrelated(x []float64) bool {
	if len(x) < 3 {
		return false
	}
	return math.Abs(Lag1Autocorrelation(x)) > 1.96/math.Sqrt(float64(len(x)))
}

// SteadyStateCI returns the confidence interval of the steady-state mean of
// x: BatchMeansCI with DefaultBatches when x is Autocorrelated and has at
// least 2*DefaultBatches observations, else BootstrapMeanCI with the given
// resamples, level and seed (which then understates the width under
// positive autocorrelation; a series that short should be read with care).
func SteadyStateCI(x []float64, resamples int, level float64, seed uint64) (CI, error) {
	if err := checkFinite(x); err != nil {
		return CI{}, err
	}
	if len(x) >= 2*DefaultBatches && Autocorrelated(x) {
		return BatchMeansCI(x, DefaultBatches, level)
	}
	return BootstrapMeanCI(x, resamples, level, seed)
}
