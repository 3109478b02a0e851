package stats

import (
	"cmp"
	"math"
	"slices"
)

// Shape is a candidate model of a series, a stable code (docs/SCHEMA.md).
type Shape string

// The candidate shapes of SelectModel.
const (
	ShapeFlat      Shape = "flat"            // one level
	ShapeSteps     Shape = "steps"           // piecewise constant, 1 to MaxModelSteps change points
	ShapeTrend     Shape = "trend"           // a straight line to the end
	ShapeTrendFlat Shape = "trend-then-flat" // a straight line up to a knot, flat after it (a hinge)
	ShapeFlatTrend Shape = "flat-then-trend" // flat up to a knot, a straight line after it
	ShapeRamp      Shape = "ramp"            // flat, a straight change between two knots, flat again
)

// Direction says which way a series changed: a stable code.
type Direction string

// The directions of a change.
const (
	Improving Direction = "improving" // higher throughput or lower latency
	Worsening Direction = "worsening" // lower throughput or higher latency
)

// MinStepRuns is the fewest points SelectModel models: a series of runs
// needs 5 (2 to 4 runs have the short-series rule, ClassifyShort).
const MinStepRuns = 5

// MaxModelSteps is the most change points of ShapeSteps that SelectModel
// tries.
const MaxModelSteps = 3

// MaxModelPoints is the most points SelectModel fits: longer series are
// fitted as the means of consecutive blocks (of the log values), at most
// this many, which also tempers the autocorrelation of short windows.
const MaxModelPoints = 120

// cpParams is what the location of a change point or knot counts in the
// criterion, its new level or slope counted apart: 4 (BIC counts it 1,
// the modified BIC of Zhang & Siegmund, 2007, 2; both, and 3, let 8-16 %
// of flat series of 5-10 points through as warm-ups or slowdowns in
// TestSelectModelMonteCarlo).
const cpParams = 4

// cpShape is what a location counts when the criterion orders the shapes
// that beat flat (which change, once a change is known): 2, the modified
// BIC's count (Zhang & Siegmund, 2007). docs/STATISTICS.md, "The
// criterion".
const cpShape = 2.0

// robustTrend runs TrendTest on x and judges the trend persistent when
// the Mann-Kendall test finds it at alpha (ranks: robust to latency's
// spikes) and its Theil-Sen change over x exceeds twice the practical
// threshold thr (log units) relative to the median (one level's tolerance,
// doubled, as TrendTest does), instead of TrendTest's twice the raw SD,
// which one spike inflates.
func robustTrend(x []float64, alpha, delta, thr float64) (Trend, bool) {
	t, err := TrendTest(x, alpha, delta)
	if err != nil {
		return t, false
	}
	if !(alpha > 0) {
		alpha = DefaultAlpha
	}
	t.Persistent = t.N >= 3 && t.P < alpha && t.Level > 0 && math.Abs(t.Change)/t.Level > math.Expm1(2*thr)
	return t, t.Persistent
}

// hampelK is the number of noise SDs beyond its running median at which
// a point is a spike.
const hampelK = 3

// hampel pulls in the spikes of y in place: a point further than
// hampelK·noiseSD(y) from the median of itself and its two neighbours
// (the window shifted to stay inside y) is set to that median (the Hampel
// filter with a half-width of 1; Pearson, "Outliers in process modeling
// and identification", IEEE Trans. Control Systems Technology 10(1),
// 2002: a median of 3 leaves a monotone ramp alone). One point is not a
// level: the steps need 2 points for every segment but the first, which
// the filter leaves alone (a warm-up may be one round). It returns the
// indices changed. first includes the first point (for windows of a run,
// where one window is not a warm-up: ModelOptions.MinFirst).
func hampel(y []float64, first bool) []int {
	m := len(y)
	if m < 3 {
		return nil
	}
	sd := noiseSD(y)
	orig := append([]float64(nil), y...)
	var changed []int
	w := make([]float64, 0, 3)
	from := 1
	if first {
		from = 0
	}
	for i := from; i < m; i++ {
		lo := min(max(i-1, 0), m-3)
		w = append(w[:0], orig[lo:lo+3]...)
		med := Median(w)
		if math.Abs(orig[i]-med) > hampelK*sd && sd > 0 {
			y[i] = med
			changed = append(changed, i)
		}
	}
	return changed
}

// thrK is the number of noise SDs a change must exceed (Barrett et al.'s
// one standard deviation).
const thrK = 1.0

// noiseSD is a robust estimate of the SD of the noise of y: the median
// absolute successive difference, times 1.4826 (the Normal consistency
// factor), over sqrt(2) (a difference holds two errors); steps move few
// differences and slow trends little, so they do not inflate it. (Not
// centred on the median difference: a warm-up's run of like differences
// would then make the flat rest look noisy.)
func noiseSD(y []float64) float64 {
	d := make([]float64, len(y)-1)
	for i := range d {
		d[i] = y[i+1] - y[i]
	}
	for i := range d {
		d[i] = math.Abs(d[i])
	}
	return 1.4826 * Median(d) / math.Sqrt2
}

// DefaultShiftDelta is the default practical threshold of SelectModel:
// a change of level smaller than 5 % is not a warm-up, a slowdown, a step
// or a trend. It is wider than the comparisons' 2 % equivalence band on
// purpose: a warm-up verdict throws the runs or seconds before it away,
// and on the conformance grid's flat servers the machine and the load
// tool alone moved a run's windows by 2-4 % (a slower first seconds, a
// drift of the machine's load), which a 2 % threshold called warm-ups
// and slowdowns (docs/STATISTICS.md, "The practical threshold").
const DefaultShiftDelta = 0.05

// minEvidence is the least a candidate's BIC must fall below flat's for
// the candidate to be taken when the one the criterion preferred did not
// hold up: 2, where Kass & Raftery ("Bayes Factors", JASA 90(430), 1995)
// put the start of positive evidence (a Bayes factor of about 3).
const minEvidence = 2

// modelVarFloor is the floor of the residual variance of a fit, in squared
// log units: values that agree to 0.01 % are one value.
const modelVarFloor = 1e-8

// Candidate is one fitted shape and its criterion.
type Candidate struct {
	Shape Shape
	// Steps is the number of change points (ShapeSteps).
	Steps int
	// Params is the number of fitted parameters, and BIC the criterion
	// m·ln(RSS/m) + Params·ln(m) over the m fitted points.
	Params int
	BIC    float64
}

// Step is a change of level of a ShapeSteps model: at At the series moved
// from the level Before to After (means of the observations of the two
// segments, in the units of the series).
type Step struct {
	At            int
	Before, After float64
	Direction     Direction
}

// ModelOptions are the parameters of SelectModel.
type ModelOptions struct {
	// HigherIsBetter is true for throughput, false for latency.
	HigherIsBetter bool
	// Delta is the relative practical threshold (<= 0: DefaultShiftDelta).
	Delta float64
	// Alpha is the level of the trend test of the steady part (<= 0:
	// DefaultAlpha).
	Alpha float64
	// MinFirst is the fewest observations of the first segment of steps
	// (<= 1: 1, a warm-up may be one round). Windows of a run use 2: the
	// first second of a run is often slow for the client's own reasons
	// (processes starting, connections opening, the machine's scheduling),
	// which one window cannot tell from a warm-up of the server.
	MinFirst int
	// SearchSteady lets the steady state begin later than the selected
	// shape says when the part after it still trends: at the first later
	// start whose rest has no persistent trend, leaving max(5, n/4)
	// observations. It only ever drops observations from the front of
	// the steady part (the end of a warm-up placed a little early).
	SearchSteady bool
}

// SeriesModel is the result of SelectModel.
type SeriesModel struct {
	// Shape is the selected shape; Class the series class it gives.
	Shape Shape
	Class Class
	// Direction is the direction of the change that decided the class
	// (empty for flat).
	Direction Direction
	// SteadyStart is the first observation of the steady state, or -1
	// when there is none (no-steady-state).
	SteadyStart int
	// Levels is the number of levels of the selected shape: steps+1 for
	// steps, 2 for a hinge, 1 for flat and a line.
	Levels int
	// Knot is the observation where the line of ShapeTrendFlat or
	// ShapeRamp ends or that of ShapeFlatTrend begins (-1 otherwise).
	Knot int
	// Steps are the changes of level of ShapeSteps that pass the
	// practical threshold, in order: the level-shift findings.
	Steps []Step
	// ChangePct is the size of the change that decided the class, in
	// percent of the level it came from (0 for flat).
	ChangePct float64
	// ThresholdPct is the practical threshold that applied, in percent:
	// max(Delta, the relative noise SD of one observation).
	ThresholdPct float64
	// Trend is the trend test of the steady part (from SteadyStart on),
	// when it ran; a persistent one makes the class no-steady-state.
	Trend *Trend
	// TrendFrom is the first observation Trend looked at.
	TrendFrom int
	// Clipped are the fitted points (block indices) that the Hampel
	// filter pulled in as spikes before the fit.
	Clipped []int
	// Candidates are every shape fitted, in the order tried, with their
	// criterion.
	Candidates []Candidate
	// Block is the number of observations averaged into each fitted
	// point (1 up to MaxModelPoints observations).
	Block int
}

// fit is a fitted candidate on the points y: its residual sum of squares,
// the fitted value at each point, and the shape's positions.
type fit struct {
	Candidate
	rss    float64
	fitted []float64
	cps    []int // change points (ShapeSteps), knot (the hinges)
}

// SelectModel chooses one shape for a series (the throughput of rounds in
// execution order, or the mean latency of the windows of one run) and
// classifies it. See docs/STATISTICS.md, "One model of a series".
//
// Spikes are pulled in first (a point beyond 3 noise SDs of the median of
// it and its neighbours, but the first: the Hampel filter). The candidates are
// flat; one to three steps (piecewise constant, each
// segment at least 2 points, the first at least 1: a warm-up may be one
// round); a straight line; a line up to a knot and flat after it; and flat
// up to a knot and a line after it. They are fitted by least squares to the
// natural logs of the values (the series must be positive): latency and
// throughput are ratio-scaled and right-skewed, logs make a change the
// same size whatever the level and pull in the long tail; and steps are
// placed exactly by dynamic programming. The criterion is Schwarz's
// Bayesian information criterion ("Estimating the dimension of a model",
// Annals of Statistics 6(2), 1978) under Normal errors of one variance,
// BIC = m·ln(RSS/m) + p·ln(m), where a change point or knot counts as a
// parameter as well as each level and slope (steps: 1+2k; line 2; hinges
// 3; flat 1); the smallest BIC wins, a tie going to the simpler shape.
// Series of more than MaxModelPoints values are fitted as block means.
//
// The practical threshold: a change counts only when it exceeds both
// Delta·level (the comparisons' equivalence band: a smaller change could
// not move a verdict) and the noise SD of one observation, estimated
// robustly from successive differences (noiseSD; Barrett et al., "Virtual
// Machine Warmup Blows Hot and Cold", OOPSLA 2017: a segment within one
// standard deviation of the last is equivalent to it). A selected shape
// whose change does not is flat.
//
// The classes, direction-aware: flat; warmup when the series improved and
// then stayed flat to the end; slowdown when it worsened and then stayed
// flat; no-steady-state (with Direction) when it still changes at the end:
// a line to the end, a line that starts after a knot, or a change of level
// inside the last quarter (at least 2 points) of the series. Steps are
// merged back from the end while their level is within the threshold of
// the final level (Barrett et al.); the direction is that of the net
// change from the first level to the final one when it passes the
// threshold, else that of the last step that does not merge. A steady state
// is only claimed on a final part with no trend of its own: TrendTest
// (Mann-Kendall and Theil-Sen) on the observations from SteadyStart on;
// a persistent trend there makes the class no-steady-state in its
// direction, unless SearchSteady finds a later start without one.
//
// x must hold at least 5 finite positive values (else ErrEmpty,
// ErrNotFinite, a *TooFewError or ErrParameter).
func SelectModel(x []float64, o ModelOptions) (SeriesModel, error) {
	out := SeriesModel{Class: ClassInsufficientData, SteadyStart: -1, Knot: -1}
	if err := checkFinite(x); err != nil {
		return out, err
	}
	n := len(x)
	if n < MinStepRuns {
		return out, tooFew("series model", MinStepRuns, n)
	}
	for _, v := range x {
		if v <= 0 {
			return out, ErrParameter
		}
	}
	delta := o.Delta
	if !(delta > 0) {
		delta = DefaultShiftDelta
	}
	b := (n + MaxModelPoints - 1) / MaxModelPoints
	m := n / b
	y := make([]float64, m)
	for j := range y {
		var s float64
		end := (j + 1) * b
		if j == m-1 {
			end = n
		}
		for _, v := range x[j*b : end] {
			s += math.Log(v)
		}
		y[j] = s / float64(end-j*b)
	}
	out.Block = b
	// The noise SD is estimated before the spikes are pulled in: they are
	// part of the series' noise.
	sigma := noiseSD(y)
	out.Clipped = hampel(y, max(1, o.MinFirst) > 1)
	// start maps a point of y back to its first observation, obsEnd a
	// point's end (the last block takes the rest).
	start := func(j int) int { return j * b }
	obsEnd := func(j int) int {
		if j == m {
			return n
		}
		return j * b
	}

	fits := []fit{fitFlat(y)}
	for k := 1; k <= MaxModelSteps; k++ {
		if f, ok := fitSteps(y, k, max(1, o.MinFirst)); ok {
			fits = append(fits, f)
		}
	}
	fits = append(fits, fitLine(y, ShapeTrend, -1))
	if f, ok := fitHinge(y, ShapeTrendFlat); ok {
		fits = append(fits, f)
	}
	if f, ok := fitHinge(y, ShapeFlatTrend); ok {
		fits = append(fits, f)
	}
	if f, ok := fitRamp(y, max(1, o.MinFirst)); ok {
		fits = append(fits, f)
	}
	for i := range fits {
		fits[i].BIC = float64(m)*math.Log(max(fits[i].rss/float64(m), modelVarFloor)) + float64(fits[i].Params)*math.Log(float64(m))
		out.Candidates = append(out.Candidates, fits[i].Candidate)
	}

	better := func(after, before float64) bool { return (after > before) == o.HigherIsBetter }
	dir := func(after, before float64) Direction {
		if better(after, before) {
			return Improving
		}
		return Worsening
	}
	tail := max(2, (m+3)/4) // the last quarter, at least 2 points
	// The practical threshold, in log units: the same for every part of
	// the series.
	thrAt := func(int) float64 { return max(math.Log1p(delta), thrK*sigma) }
	pct := func(after, before float64) float64 { return 100 * math.Expm1(after-before) }
	// trending confirms a line to the end: TrendTest finds the
	// observations from i on persistently trending (a shape chosen by the
	// criterion alone is not a test: BIC admits a slope on noise at about
	// 13 % at 10 points).
	trending := func(i int, thr float64) bool {
		t, ok := robustTrend(x[i:], o.Alpha, delta, thr)
		if ok {
			out.Trend, out.TrendFrom = &t, i
		}
		return ok
	}

	// The candidates in the order of the criterion (a tie to the simpler,
	// earlier one). The best is taken unless what makes it more than flat
	// does not hold up: a line whose trend TrendTest does not confirm, or
	// steps and hinges whose change stays within the practical threshold;
	// then the next one is tried, down to flat. (The criterion alone is
	// not a test: on noisy rounds it prefers a line that the trend test
	// rejects while a step fits almost as well and passes.)
	order := make([]int, len(fits))
	for i := range order {
		order[i] = i
	}
	// Which change, once a change is known: among the shapes that beat
	// flat, the order counts a location cpShape instead of cpParams.
	shapeBIC := func(f fit) float64 {
		locs := len(f.cps)
		return f.BIC - (cpParams-cpShape)*float64(locs)*math.Log(float64(m))
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(shapeBIC(fits[a]), shapeBIC(fits[b])) })
	base := out
	var thr float64
	transient := false // the steps taken came back to their first level
	flatBIC := fits[0].BIC
	// lateFrom is where the change that ends in the last quarter began,
	// when that change made the class no-steady-state.
	lateFrom := -1
	lineEnd := false // the change ends in a line's end (ShapeTrendFlat, a long ramp)
	for _, fi := range order {
		f := fits[fi]
		lateFrom, lineEnd = -1, false
		if f.Shape != ShapeFlat && flatBIC-f.BIC < minEvidence {
			continue
		}
		out = base
		out.Shape, out.Levels = f.Shape, 1
		switch f.Shape {
		case ShapeSteps:
			out.Levels = f.Steps + 1
		case ShapeTrendFlat, ShapeFlatTrend, ShapeRamp:
			out.Levels = 2
		}
		out.Class, out.SteadyStart = ClassFlat, 0
		thr = thrAt(0)
		switch f.Shape {
		case ShapeSteps:
			// Levels of the segments, final level last.
			bounds := append(append([]int{0}, f.cps...), m)
			lv := make([]float64, len(bounds)-1)
			for i := range lv {
				lv[i] = f.fitted[bounds[i]]
			}
			last := len(lv) - 1
			thr = thrAt(bounds[last])
			first := last
			for first > 0 && math.Abs(lv[first-1]-lv[last]) <= thr {
				first--
			}
			for i := 1; i < len(lv); i++ {
				if math.Abs(lv[i]-lv[i-1]) > thr {
					bm, am := Mean(x[start(bounds[i-1]):start(bounds[i])]), Mean(x[start(bounds[i]):obsEnd(bounds[i+1])])
					out.Steps = append(out.Steps, Step{At: start(bounds[i]), Before: bm, After: am, Direction: dir(lv[i], lv[i-1])})
				}
			}
			if first == 0 {
				break
			}
			// A level left and come back to (the first level within
			// the threshold of the final one) is a transient, not a
			// warm-up or a slowdown: the series is flat, and no step
			// stayed.
			if math.Abs(lv[last]-lv[0]) <= thr {
				out.Steps, transient = nil, true
				break
			}
			// The class follows the net change from the first level to the
			// final one when it passes the threshold (a cold start that
			// then loses a little is still a warm-up, its later step a
			// level-shift finding); otherwise the last step into the final
			// level.
			from := lv[first-1]
			if math.Abs(lv[last]-lv[0]) > thr {
				from = lv[0]
			}
			d := dir(lv[last], from)
			out.Direction, out.ChangePct = d, pct(lv[last], from)
			out.SteadyStart = start(bounds[first])
			switch {
			case m-bounds[first] < tail:
				out.Class, out.SteadyStart = ClassNoSteadyState, -1
				lateFrom = start(bounds[first-1])
			case d == Improving:
				out.Class = ClassWarmup
			default:
				out.Class = ClassSlowdown
			}
		case ShapeTrend:
			ch := f.fitted[m-1] - f.fitted[0]
			if math.Abs(ch) > thr && trending(0, thr) {
				out.Class, out.SteadyStart = ClassNoSteadyState, -1
				out.Direction, out.ChangePct = dir(f.fitted[m-1], f.fitted[0]), pct(f.fitted[m-1], f.fitted[0])
			}
		case ShapeTrendFlat, ShapeRamp:
			// The change ends at the last knot; the level before it is
			// the first point's (the line's start, or the ramp's first
			// level).
			k := f.cps[len(f.cps)-1]
			out.Knot = start(k)
			thr = thrAt(k)
			if ch := f.fitted[k] - f.fitted[0]; math.Abs(ch) > thr {
				out.Direction, out.ChangePct = dir(f.fitted[k], f.fitted[0]), pct(f.fitted[k], f.fitted[0])
				out.SteadyStart = start(k)
				// The end of a line (a hinge's knot; a ramp's second knot
				// when the ramp is a line over at least two inner points,
				// not a step with one point of transition) is taken as
				// part of the change: the level after it must fill the
				// last quarter for a steady state.
				lineEnd = f.Shape == ShapeTrendFlat || f.cps[1]-f.cps[0] >= 3
				after := m - k
				if lineEnd {
					after--
				}
				switch {
				case after < tail:
					out.Class, out.SteadyStart = ClassNoSteadyState, -1
					lateFrom = start(f.cps[0])
					if f.Shape == ShapeTrendFlat {
						lateFrom = 0
					}
				case out.Direction == Improving:
					out.Class = ClassWarmup
				default:
					out.Class = ClassSlowdown
				}
			}
		case ShapeFlatTrend:
			k := f.cps[0]
			out.Knot = start(k)
			if ch := f.fitted[m-1] - f.fitted[k]; math.Abs(ch) > thr && trending(start(k), thr) {
				out.Class, out.SteadyStart = ClassNoSteadyState, -1
				out.Direction, out.ChangePct = dir(f.fitted[m-1], f.fitted[k]), pct(f.fitted[m-1], f.fitted[k])
			}
		}
		if out.Class != ClassFlat || f.Shape == ShapeFlat || transient {
			break
		}
	}
	if out.Class == ClassFlat && !transient {
		out.Shape, out.Levels, out.Steps, out.Knot, out.Trend = ShapeFlat, 1, nil, -1, nil
	}
	out.ThresholdPct = 100 * math.Expm1(thr)
	// A change still under way in the last quarter is described by the
	// trend test from where it began, as a line to the end is.
	if out.Class == ClassNoSteadyState && out.Trend == nil && lateFrom >= 0 && n-lateFrom >= 3 {
		t, _ := robustTrend(x[lateFrom:], o.Alpha, delta, thr)
		out.Trend, out.TrendFrom = &t, lateFrom
	}

	// A steady state only on a final part with no trend of its own.
	if k := out.SteadyStart; k >= 0 && n-k >= 3 && out.Trend == nil {
		// The end of a line ends the change as much as it begins the
		// level: the steady part's trend is tested from the observation
		// after it (a knot placed on a disturbed point hid a trend that
		// went on after it).
		kt := k
		if lineEnd && n-k-b >= 3 {
			kt = k + b
		}
		t, _ := robustTrend(x[kt:], o.Alpha, delta, thr)
		out.Trend, out.TrendFrom = &t, kt
		if t.Persistent {
			d := Worsening
			if (t.Slope > 0) == o.HigherIsBetter {
				d = Improving
			}
			// A later start is searched only after a located change
			// (a step, a knot): on a series the model found flat, a trend
			// of the whole is the finding, and cutting its front until
			// the rest is too short for the test would pass a trend off
			// as a warm-up.
			if o.SearchSteady && k > 0 {
				// The steady state may begin later, at the first start
				// (tried in up to 64 steps) whose rest has no persistent
				// trend, leaving max(5, n/4) observations.
				last := n - max(5, n/4)
				step := max(1, (last-k)/64)
				for k2 := k + step; k2 <= last; k2 += step {
					if t2, ok := robustTrend(x[k2:], o.Alpha, delta, thr); !ok {
						out.Trend, out.TrendFrom, out.SteadyStart = &t2, k2, k2
						if out.Class == ClassFlat {
							out.Class, out.Direction, out.ChangePct = ClassWarmup, d, 100*t.Change/t.Level
							if d == Worsening {
								out.Class = ClassSlowdown
							}
						}
						return out, nil
					}
				}
			}
			out.Class, out.SteadyStart = ClassNoSteadyState, -1
			out.Direction = d
			if t.Level != 0 {
				out.ChangePct = 100 * t.Change / t.Level
			}
		}
	}
	return out, nil
}

// fitFlat fits one level.
func fitFlat(y []float64) fit {
	mu := Mean(y)
	f := fit{Candidate: Candidate{Shape: ShapeFlat, Params: 1}, fitted: make([]float64, len(y))}
	for i, v := range y {
		f.fitted[i] = mu
		f.rss += (v - mu) * (v - mu)
	}
	return f
}

// fitSteps fits k change points by exact dynamic programming (optimal
// partitioning under squared error): every segment at least 2 points but
// the first, which may be 1. ok is false when y is too short for k.
func fitSteps(y []float64, k, first int) (fit, bool) {
	m := len(y)
	if m < first+2*k {
		return fit{}, false
	}
	s1 := make([]float64, m+1)
	s2 := make([]float64, m+1)
	for i, v := range y {
		s1[i+1] = s1[i] + v
		s2[i+1] = s2[i] + v*v
	}
	cost := func(a, b int) float64 {
		l := float64(b - a)
		d := s1[b] - s1[a]
		return max(0, s2[b]-s2[a]-d*d/l)
	}
	inf := math.Inf(1)
	// c[j][t]: the least cost of y[:t] in j+1 segments; arg the start of the last.
	c := make([][]float64, k+1)
	arg := make([][]int, k+1)
	for j := range c {
		c[j] = make([]float64, m+1)
		arg[j] = make([]int, m+1)
		for t := range c[j] {
			c[j][t] = inf
		}
	}
	for t := first; t <= m; t++ {
		c[0][t] = cost(0, t)
	}
	for j := 1; j <= k; j++ {
		for t := first + 2*j; t <= m; t++ {
			for s := first + 2*(j-1); s <= t-2; s++ {
				if c[j-1][s] == inf {
					continue
				}
				if v := c[j-1][s] + cost(s, t); v < c[j][t] {
					c[j][t], arg[j][t] = v, s
				}
			}
		}
	}
	if c[k][m] == inf {
		return fit{}, false
	}
	cps := make([]int, k)
	t := m
	for j := k; j >= 1; j-- {
		cps[j-1] = arg[j][t]
		t = arg[j][t]
	}
	f := fit{Candidate: Candidate{Shape: ShapeSteps, Steps: k, Params: 1 + (1+cpParams)*k}, cps: cps, rss: c[k][m], fitted: make([]float64, m)}
	bounds := append(append([]int{0}, cps...), m)
	for i := 0; i+1 < len(bounds); i++ {
		mu := (s1[bounds[i+1]] - s1[bounds[i]]) / float64(bounds[i+1]-bounds[i])
		for j := bounds[i]; j < bounds[i+1]; j++ {
			f.fitted[j] = mu
		}
	}
	return f, true
}

// fitLine fits y = a + b·z by least squares, with z the position i for a
// straight line, min(i, knot) for ShapeTrendFlat and max(0, i-knot) for
// ShapeFlatTrend.
func fitLine(y []float64, shape Shape, knot int) fit {
	m := len(y)
	z := make([]float64, m)
	for i := range z {
		switch shape {
		case ShapeTrendFlat:
			z[i] = float64(min(i, knot))
		case ShapeFlatTrend:
			z[i] = float64(max(0, i-knot))
		default:
			z[i] = float64(i)
		}
	}
	f := fitOn(y, z)
	f.Shape, f.Params = shape, 2
	if shape != ShapeTrend {
		f.Params, f.cps = 2+cpParams, []int{knot}
	}
	return f
}

// fitOn fits y = a + b·z by least squares: the fitted values and the
// residual sum of squares.
func fitOn(y, z []float64) fit {
	my, mz, slope, rss := lineRSS(y, z)
	f := fit{fitted: make([]float64, len(y)), rss: rss}
	for i := range y {
		f.fitted[i] = my + slope*(z[i]-mz)
	}
	return f
}

// lineRSS is the least-squares line y = my + slope·(z - mz) and its
// residual sum of squares.
func lineRSS(y, z []float64) (my, mz, slope, rss float64) {
	mz, my = Mean(z), Mean(y)
	var szz, szy float64
	for i := range z {
		szz += (z[i] - mz) * (z[i] - mz)
		szy += (z[i] - mz) * (y[i] - my)
	}
	if szz > 0 {
		slope = szy / szz
	}
	for i := range y {
		r := y[i] - (my + slope*(z[i]-mz))
		rss += r * r
	}
	return my, mz, slope, rss
}

// fitRamp fits flat, a straight change between two knots and flat again
// (a level that moves to another over some observations: a step whose
// change falls inside a round or a window, or a gradual warm-up that
// starts late), at its best knots: the first level over at least first
// points, the change over at least one point between its knots, the final
// level over at least 2. ok is false when y is too short. The two knots
// count cpParams each in the criterion, the two levels 1 each.
func fitRamp(y []float64, first int) (fit, bool) {
	m := len(y)
	z := make([]float64, m)
	ramp := func(k1, k2 int) []float64 {
		for i := range z {
			z[i] = min(1, max(0, float64(i-k1)/float64(k2-k1)))
		}
		return z
	}
	// The knots are chosen on the residual sum of squares alone; the
	// fitted values are made once, for the best.
	b1, b2, bestRSS := -1, -1, 0.0
	for k1 := first - 1; k1 < m; k1++ {
		for k2 := k1 + 2; k2 <= m-2; k2++ {
			if _, _, _, rss := lineRSS(y, ramp(k1, k2)); b1 < 0 || rss < bestRSS {
				b1, b2, bestRSS = k1, k2, rss
			}
		}
	}
	if b1 < 0 {
		return fit{}, false
	}
	f := fitOn(y, ramp(b1, b2))
	f.Shape, f.Params, f.cps = ShapeRamp, 2+2*cpParams, []int{b1, b2}
	return f, true
}

// fitHinge fits a hinge at its best knot: a line over at least 2 points
// and a flat part of at least 2. ok is false when y is too short.
func fitHinge(y []float64, shape Shape) (fit, bool) {
	m := len(y)
	var best fit
	found := false
	for k := 2; k <= m-2; k++ {
		if shape == ShapeFlatTrend {
			// flat over [0, k], a line from k: at least 2 points after k.
			if k > m-3 {
				break
			}
		}
		f := fitLine(y, shape, k)
		if !found || f.rss < best.rss {
			best, found = f, true
		}
	}
	return best, found
}
