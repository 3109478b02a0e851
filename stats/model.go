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
// classifies it: spikes pulled in (hampel), every candidate fitted to the
// logs (fitCandidates), the best by the criterion that holds up chosen
// (chooseShape), and a steady state claimed only on a final part with no
// trend of its own (checkSteady). The design, the criterion and the
// classes: docs/STATISTICS.md, "One model of a series".
//
// x must hold at least 5 finite positive values (else ErrEmpty,
// ErrNotFinite, a *TooFewError or ErrParameter).
func SelectModel(x []float64, o ModelOptions) (SeriesModel, error) {
	out := SeriesModel{Class: ClassInsufficientData, SteadyStart: -1, Knot: -1}
	if err := checkModelInput(x); err != nil {
		return out, err
	}
	s := newSeriesFit(x, o)
	out.Block, out.Clipped = s.b, s.clipped
	fits := fitCandidates(s.y, max(1, o.MinFirst))
	for _, f := range fits {
		out.Candidates = append(out.Candidates, f.Candidate)
	}
	out, c := s.chooseShape(out, fits)
	out.ThresholdPct = 100 * math.Expm1(s.thr)
	s.describeLateChange(&out, c.lateFrom)
	return s.checkSteady(out, c.lineEnd), nil
}

// checkModelInput rejects what SelectModel cannot model: too few, not
// finite or not positive values.
func checkModelInput(x []float64) error {
	if err := checkFinite(x); err != nil {
		return err
	}
	if len(x) < MinStepRuns {
		return tooFew("series model", MinStepRuns, len(x))
	}
	for _, v := range x {
		if v <= 0 {
			return ErrParameter
		}
	}
	return nil
}

// seriesFit is a series prepared for SelectModel: the observations x, the
// fitted points y (log block means, spikes pulled in), b observations to
// a point, and the practical threshold thr in log units (the same for
// every part of the series).
type seriesFit struct {
	x       []float64
	y       []float64
	n, m, b int
	o       ModelOptions
	delta   float64
	thr     float64
	tail    int // the last quarter of the points, at least 2
	clipped []int
}

// newSeriesFit averages x into at most MaxModelPoints log block means,
// estimates the noise (before the spikes are pulled in: they are part of
// it) and pulls the spikes in.
func newSeriesFit(x []float64, o ModelOptions) *seriesFit {
	s := &seriesFit{x: x, n: len(x), o: o, delta: o.Delta}
	if !(s.delta > 0) {
		s.delta = DefaultShiftDelta
	}
	s.b = (s.n + MaxModelPoints - 1) / MaxModelPoints
	s.m = s.n / s.b
	s.y = make([]float64, s.m)
	for j := range s.y {
		var sum float64
		end := s.obsEnd(j + 1)
		for _, v := range x[j*s.b : end] {
			sum += math.Log(v)
		}
		s.y[j] = sum / float64(end-j*s.b)
	}
	sigma := noiseSD(s.y)
	s.clipped = hampel(s.y, max(1, o.MinFirst) > 1)
	s.thr = max(math.Log1p(s.delta), thrK*sigma)
	s.tail = max(2, (s.m+3)/4)
	return s
}

// start maps a fitted point to its first observation.
func (s *seriesFit) start(j int) int { return j * s.b }

// obsEnd maps a fitted point to the end of its observations (the last
// point takes the rest).
func (s *seriesFit) obsEnd(j int) int {
	if j == s.m {
		return s.n
	}
	return j * s.b
}

// dir is the direction of a change from before to after.
func (s *seriesFit) dir(after, before float64) Direction {
	if (after > before) == s.o.HigherIsBetter {
		return Improving
	}
	return Worsening
}

// pct is a change of log level in percent.
func pct(after, before float64) float64 { return 100 * math.Expm1(after-before) }

// trending confirms a line to the end: TrendTest finds the observations
// from i on persistently trending, and out records the test (the
// criterion alone admits a slope on noise at about 13 % at 10 points).
func (s *seriesFit) trending(out *SeriesModel, i int) bool {
	t, ok := robustTrend(s.x[i:], s.o.Alpha, s.delta, s.thr)
	if ok {
		out.Trend, out.TrendFrom = &t, i
	}
	return ok
}

// fitCandidates fits every candidate shape to y, flat first, each with
// its criterion BIC = m·ln(RSS/m) + Params·ln(m).
func fitCandidates(y []float64, first int) []fit {
	fits := []fit{fitFlat(y)}
	for k := 1; k <= MaxModelSteps; k++ {
		if f, ok := fitSteps(y, k, first); ok {
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
	if f, ok := fitRamp(y, first); ok {
		fits = append(fits, f)
	}
	m := float64(len(y))
	for i := range fits {
		fits[i].BIC = m*math.Log(max(fits[i].rss/m, modelVarFloor)) + float64(fits[i].Params)*math.Log(m)
	}
	return fits
}

// shapeOrder orders the candidates by the criterion, a tie to the simpler,
// earlier one; among the shapes that beat flat a location counts cpShape
// instead of cpParams (which change, once a change is known).
func shapeOrder(fits []fit, m int) []int {
	order := make([]int, len(fits))
	for i := range order {
		order[i] = i
	}
	shapeBIC := func(f fit) float64 {
		return f.BIC - (cpParams-cpShape)*float64(len(f.cps))*math.Log(float64(m))
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(shapeBIC(fits[a]), shapeBIC(fits[b])) })
	return order
}

// shapeChange is what the classification of one shape leaves for the
// steady-state check: lateFrom, where a change that ends in the last
// quarter began (-1: none); lineEnd, the change ends in a line's end;
// transient, steps that came back to their first level.
type shapeChange struct {
	lateFrom  int
	lineEnd   bool
	transient bool
}

// chooseShape takes the candidates in the criterion's order and keeps the
// first one whose change holds up (a line whose trend TrendTest confirms,
// steps and hinges whose change passes the practical threshold), down to
// flat; a candidate not minEvidence below flat is not tried.
func (s *seriesFit) chooseShape(base SeriesModel, fits []fit) (SeriesModel, shapeChange) {
	flatBIC := fits[0].BIC
	for _, fi := range shapeOrder(fits, s.m) {
		f := fits[fi]
		if f.Shape != ShapeFlat && flatBIC-f.BIC < minEvidence {
			continue
		}
		out := base
		out.Shape, out.Levels = f.Shape, shapeLevels(f)
		out.Class, out.SteadyStart = ClassFlat, 0
		c := s.classify(&out, f)
		if out.Class != ClassFlat || f.Shape == ShapeFlat || c.transient {
			return out, c
		}
	}
	// Not reached: flat is always a candidate and ends the search.
	out := base
	out.Shape, out.Levels, out.Class, out.SteadyStart = ShapeFlat, 1, ClassFlat, 0
	return out, shapeChange{lateFrom: -1}
}

// shapeLevels is the number of levels of a fitted shape.
func shapeLevels(f fit) int {
	switch f.Shape {
	case ShapeSteps:
		return f.Steps + 1
	case ShapeTrendFlat, ShapeFlatTrend, ShapeRamp:
		return 2
	}
	return 1
}

// classify sets out's class, direction and change from the fitted shape f
// (out arrives flat).
func (s *seriesFit) classify(out *SeriesModel, f fit) shapeChange {
	switch f.Shape {
	case ShapeSteps:
		return s.classifySteps(out, f)
	case ShapeTrend:
		s.classifyLine(out, f, 0)
	case ShapeTrendFlat, ShapeRamp:
		return s.classifyLineEnd(out, f)
	case ShapeFlatTrend:
		k := f.cps[0]
		out.Knot = s.start(k)
		s.classifyLine(out, f, k)
	}
	return shapeChange{lateFrom: -1}
}

// classifyLine classifies a line from the point k to the end (a trend, or
// flat then a trend): no steady state when its change passes the
// threshold and TrendTest confirms it.
func (s *seriesFit) classifyLine(out *SeriesModel, f fit, k int) {
	to, from := f.fitted[s.m-1], f.fitted[k]
	if math.Abs(to-from) > s.thr && s.trending(out, s.start(k)) {
		out.Class, out.SteadyStart = ClassNoSteadyState, -1
		out.Direction, out.ChangePct = s.dir(to, from), pct(to, from)
	}
}

// classifySteps classifies steps: the steps past the threshold are
// findings; steps within the threshold of the final level merge into it
// (Barrett et al.); a level left and come back to is a transient; the
// class follows the net change from the first level when it passes the
// threshold, else the last step into the final level.
func (s *seriesFit) classifySteps(out *SeriesModel, f fit) shapeChange {
	c := shapeChange{lateFrom: -1}
	bounds := append(append([]int{0}, f.cps...), s.m)
	lv := make([]float64, len(bounds)-1) // the segments' levels, final last
	for i := range lv {
		lv[i] = f.fitted[bounds[i]]
	}
	last := len(lv) - 1
	first := last
	for first > 0 && math.Abs(lv[first-1]-lv[last]) <= s.thr {
		first--
	}
	out.Steps = s.passingSteps(bounds, lv)
	if first == 0 {
		return c
	}
	if math.Abs(lv[last]-lv[0]) <= s.thr {
		out.Steps, c.transient = nil, true
		return c
	}
	// The net change passes the threshold here (the transient case
	// returned above), so the class follows it from the first level.
	from := lv[0]
	out.Direction, out.ChangePct = s.dir(lv[last], from), pct(lv[last], from)
	out.SteadyStart = s.start(bounds[first])
	if s.m-bounds[first] < s.tail {
		out.Class, out.SteadyStart = ClassNoSteadyState, -1
		c.lateFrom = s.start(bounds[first-1])
		return c
	}
	out.Class = changeClass(out.Direction)
	return c
}

// passingSteps are the changes of level that pass the threshold, with the
// means of the observations on either side.
func (s *seriesFit) passingSteps(bounds []int, lv []float64) []Step {
	var steps []Step
	for i := 1; i < len(lv); i++ {
		if math.Abs(lv[i]-lv[i-1]) <= s.thr {
			continue
		}
		before := Mean(s.x[s.start(bounds[i-1]):s.start(bounds[i])])
		after := Mean(s.x[s.start(bounds[i]):s.obsEnd(bounds[i+1])])
		steps = append(steps, Step{At: s.start(bounds[i]), Before: before, After: after, Direction: s.dir(lv[i], lv[i-1])})
	}
	return steps
}

// changeClass is the class of a change that ended in a steady state.
func changeClass(d Direction) Class {
	if d == Improving {
		return ClassWarmup
	}
	return ClassSlowdown
}

// classifyLineEnd classifies a change that ends at the last knot (a line
// then flat, or a ramp), from the first point's level. The end of a line
// (a hinge's knot; a ramp's second knot when the ramp is a line over at
// least two inner points) is part of the change: the level after it must
// fill the last quarter for a steady state.
func (s *seriesFit) classifyLineEnd(out *SeriesModel, f fit) shapeChange {
	c := shapeChange{lateFrom: -1}
	k := f.cps[len(f.cps)-1]
	out.Knot = s.start(k)
	to, from := f.fitted[k], f.fitted[0]
	if math.Abs(to-from) <= s.thr {
		return c
	}
	out.Direction, out.ChangePct = s.dir(to, from), pct(to, from)
	out.SteadyStart = s.start(k)
	c.lineEnd = f.Shape == ShapeTrendFlat || f.cps[1]-f.cps[0] >= 3
	after := s.m - k
	if c.lineEnd {
		after--
	}
	if after >= s.tail {
		out.Class = changeClass(out.Direction)
		return c
	}
	out.Class, out.SteadyStart = ClassNoSteadyState, -1
	c.lateFrom = s.start(f.cps[0])
	if f.Shape == ShapeTrendFlat {
		c.lateFrom = 0
	}
	return c
}

// describeLateChange describes a change still under way in the last
// quarter by the trend test from where it began, as a line to the end is.
func (s *seriesFit) describeLateChange(out *SeriesModel, lateFrom int) {
	if out.Class == ClassNoSteadyState && out.Trend == nil && lateFrom >= 0 && s.n-lateFrom >= 3 {
		t, _ := robustTrend(s.x[lateFrom:], s.o.Alpha, s.delta, s.thr)
		out.Trend, out.TrendFrom = &t, lateFrom
	}
}

// checkSteady tests the steady part (from SteadyStart on) for a trend of
// its own; a persistent one makes the class no-steady-state, unless
// SearchSteady finds a later start without one. After the end of a line
// the test starts one point later (a knot placed on a disturbed point hid
// a trend that went on after it).
func (s *seriesFit) checkSteady(out SeriesModel, lineEnd bool) SeriesModel {
	k := out.SteadyStart
	if k < 0 || s.n-k < 3 || out.Trend != nil {
		return out
	}
	kt := k
	if lineEnd && s.n-k-s.b >= 3 {
		kt = k + s.b
	}
	t, _ := robustTrend(s.x[kt:], s.o.Alpha, s.delta, s.thr)
	out.Trend, out.TrendFrom = &t, kt
	if !t.Persistent {
		return out
	}
	d := Worsening
	if (t.Slope > 0) == s.o.HigherIsBetter {
		d = Improving
	}
	// Only after a located change (k > 0): on a series found flat, a
	// trend of the whole is the finding.
	if s.o.SearchSteady && k > 0 {
		if later, ok := s.searchSteady(out, k, t, d); ok {
			return later
		}
	}
	out.Class, out.SteadyStart = ClassNoSteadyState, -1
	out.Direction = d
	if t.Level != 0 {
		out.ChangePct = 100 * t.Change / t.Level
	}
	return out
}

// searchSteady looks for a later steady start than k: the first (tried in
// up to 64 steps) whose rest has no persistent trend, leaving max(5, n/4)
// observations. A flat model so found becomes a warm-up or a slowdown in
// the direction d of the trend t.
func (s *seriesFit) searchSteady(out SeriesModel, k int, t Trend, d Direction) (SeriesModel, bool) {
	last := s.n - max(5, s.n/4)
	step := max(1, (last-k)/64)
	for k2 := k + step; k2 <= last; k2 += step {
		t2, ok := robustTrend(s.x[k2:], s.o.Alpha, s.delta, s.thr)
		if ok {
			continue
		}
		out.Trend, out.TrendFrom, out.SteadyStart = &t2, k2, k2
		if out.Class == ClassFlat {
			out.Class, out.Direction, out.ChangePct = changeClass(d), d, 100*t.Change/t.Level
		}
		return out, true
	}
	return out, false
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
