package analyze

import (
	"math"
	"slices"

	"github.com/loadverdict/loadverdict/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// This file is the history check made for nightly CI: each experiment
// tested, as it arrives, against the reference level (docs/STATISTICS.md,
// "History").

// CheckVerdict is what a history check says of a metric on one night:
// exactly one of the verdicts below.
type CheckVerdict string

// The check verdicts.
const (
	// CheckRegression: the experiments since Since are worse than the
	// reference, significantly (at nightAlpha) and by more than the
	// allowed regression; it stays so every night after, until accepted.
	CheckRegression CheckVerdict = "regression"
	// CheckDrift: a significant monotone trend (Mann-Kendall) over the
	// experiments since the reference level began, better described by a
	// line than by one step, whose cumulative change (Theil-Sen) is worse
	// than the allowed regression.
	CheckDrift CheckVerdict = "drift"
	// CheckImproved: better than the reference, significantly and outside
	// the practical band.
	CheckImproved CheckVerdict = "improved"
	// CheckNoChange: no change shown: not significantly worse, and the
	// estimate within the allowed regression (also the first experiment,
	// and one whose noise cannot be estimated yet while its estimate is
	// within the allowed regression); or a suspect night (Night.Suspect):
	// beyond the allowed regression, not significant, decided the next
	// night.
	CheckNoChange CheckVerdict = "no-change"
	// CheckUndecided: the check cannot rule out a regression while its
	// estimate lies beyond the allowed one: the night after a suspect one
	// (still not significant), or while the noise between experiments is
	// not yet known; or the experiment has errors or lacks the metric.
	CheckUndecided CheckVerdict = "undecided"
)

// NightRole is the part an experiment plays in the sequential check.
type NightRole string

// The night roles.
const (
	// RoleUnused: not used (errors, or the metric missing).
	RoleUnused NightRole = ""
	// RoleReference: part of the reference level.
	RoleReference NightRole = "reference"
	// RoleAccepted: accepted (--accept, the manifest's history.accept or
	// history.baseline): the reference level starts again here.
	RoleAccepted NightRole = "accepted"
	// RoleRegression: in an open regression (or an undecided stretch that
	// could be one), not part of the reference.
	RoleRegression NightRole = "regression"
	// RoleImproved: a new, better level started here (two nights in a row
	// better than the reference); it is the reference from then on.
	RoleImproved NightRole = "improved"
	// RoleTransient: a one-off: worse or better than the reference while
	// the night after it was not: not part of any level.
	RoleTransient NightRole = "transient"
	// RolePending: better than the reference the latest night; the next
	// night tells a new level from a one-off.
	RolePending NightRole = "pending"
)

// NightInput is one experiment's value of a metric for the sequential
// check: the experiment's value (Point value), its runs' values, whether
// it is usable, and whether it was accepted.
type NightInput struct {
	Value    float64
	Runs     []float64
	Used     bool
	Accepted bool
}

// NightTest is the test of the experiments since an open change (or the
// latest alone) against the reference: the difference of their mean
// values with the noise between experiments pooled over every level seen
// (the prediction interval of a new experiment when Nights is 1).
type NightTest struct {
	// Nights and RefNights are the experiments tested and those of the
	// reference.
	Nights, RefNights int
	// Mean and RefMean are their mean values.
	Mean, RefMean float64
	// WorsePct is how much worse the tested experiments are, percent of
	// the reference (negative: better); UpperPct the one-sided upper
	// bound at 1-alpha (NaN when the noise cannot be estimated).
	WorsePct, UpperPct float64
	// SD is the pooled standard deviation of an experiment's value about
	// its level, with DF degrees of freedom (0: cannot be estimated).
	SD float64
	DF int
	// PWorse and PBetter are the one-sided p-values (NaN without DF);
	// Alpha the level they are held to (nightAlpha).
	PWorse, PBetter float64
	Alpha           float64
	// RunLevel is compare's test of the runs (tested vs reference), made
	// when both sides have Options.MinRuns runs; it decides only where
	// the experiments' noise cannot be estimated (DF 0).
	RunLevel *Comparison
	// Verdict is regression, improved, no-change or undecided.
	Verdict CheckVerdict
	// ByRuns is true when RunLevel decided.
	ByRuns bool
}

// DriftCheck is the trend test over the experiments since the reference
// level began: Mann-Kendall's test with the Theil-Sen slope.
type DriftCheck struct {
	// Points are the experiments it is over (Track.Points indices).
	Points []int
	// Tau and P are Kendall's tau and Mann-Kendall's two-sided p-value.
	Tau, P float64
	// SlopePct is the Theil-Sen slope per experiment, percent of the
	// fitted value at the first; CumulativePct the fitted change from the
	// first to the last, percent worse (negative: better).
	SlopePct, CumulativePct float64
	// LineRSS and StepRSS are the squared residuals about the Theil-Sen
	// line and about the best single step (at least 2 experiments a side):
	// a drift is a line that fits at least as well as a step.
	LineRSS, StepRSS float64
	// Drift is the verdict: P < alpha/2 (driftAlpha), a line at least as
	// good as a step, and CumulativePct beyond the allowed regression.
	Drift bool
}

// Night is what the sequential check says on one night, from that night's
// data and the nights before it only (what a nightly job run that night
// would have said).
type Night struct {
	// Point is the Track.Points index of the night.
	Point   int
	Verdict CheckVerdict
	// Since is the point where an open regression (or an undecided
	// stretch) began, -1 when none is open.
	Since int
	// From is the point where the reference level the night was tested
	// against began (the first point, an accepted one or a new better
	// level; on the night a better level forms, the level before it).
	From int
	// Reference are the points of the reference level the night was
	// tested against (none on the first night of a level).
	Reference []int
	// Test is the test of the night (of the nights since Since when a
	// change is open); nil on the first night of a level.
	Test *NightTest
	// Drift is the trend test over the level (nil under 5 points).
	Drift *DriftCheck
	// Suspect is true on the night a change opens on an estimate beyond
	// the allowed regression that its test (Test, verdict undecided)
	// could not show significant while the noise between experiments is
	// known: the night's verdict is no change shown, the change is open,
	// and the next night decides: a regression (or undecided) since this
	// night, which fails, or a one-off, which rejoins the reference.
	Suspect bool
}

// Sequential is the sequential check of one metric of a track: the
// roles of its points and the verdict of every night.
type Sequential struct {
	// Roles are aligned with Track.Points.
	Roles []NightRole
	// Nights has one entry per used point, in order; the last is the
	// latest night's, the one the gate reads when it is the series'
	// latest experiment.
	Nights []Night
}

// minLevel is the fewest experiments of a reference level before a night
// can open a change against it (unless compare's run-level tests decide):
// one experiment alone says nothing of the noise between experiments.
const minLevel = 2

// minDriftPoints is the fewest experiments the trend test is made on:
// Mann-Kendall's exact two-sided p-value cannot fall below 0.05 with 4.
const minDriftPoints = 5

// nightAlpha is the significance level of the night test (NightTest)
// on a night whose level has levelPoints points (the night included):
// alpha, split in two (Bonferroni's inequality) when the drift test
// (DriftCheck, at driftAlpha) also runs that night, so that a stable
// night fails either at most alpha of the time. compare's run-level
// tests (at alpha) decide only while the noise between experiments is
// unknown, on a level too short for the drift test.
func nightAlpha(o Options, levelPoints int) float64 {
	if levelPoints >= minDriftPoints {
		return o.Alpha / 2
	}
	return o.Alpha
}

// driftAlpha is the significance level of the drift test: half of alpha,
// the night test having the other half (nightAlpha).
func driftAlpha(o Options) float64 { return o.Alpha / 2 }

// allowedPct is the largest change, percent, that is not a regression:
// the allowed regression, never less than the practical band.
func allowedPct(o Options) float64 {
	return max(o.MaxRegressionPct, 100*o.PracticalBand)
}

// SequentialCheck runs the history check over one metric's experiments,
// in order, each night seeing only itself and the nights before it:
//
//   - the reference is the level since the first usable experiment, the
//     latest accepted one, or the latest new better level;
//   - each night (or, while a regression is open, the nights since it
//     opened) is tested against the reference (NightTest, at nightAlpha:
//     alpha, or half of it once the drift test runs beside it):
//     regression, improved, no change or undecided;
//   - a regression, or an undecided night whose estimate is beyond the
//     allowed regression, opens a change: those nights leave the
//     reference (an undecided first night whose noise is known is
//     suspect: no change shown that night, the next one decides, and it
//     rejoins the reference if it was a one-off); the change stays open,
//     and fails, every night after,
//     until accepted, unless the nights after its first together test
//     as no change, or lie nearer the reference than its first night
//     (that night was a one-off: transient);
//   - a level needs minLevel experiments before a night can open a
//     change against it (unless compare's run-level tests decide);
//   - two nights in a row better than the reference start a new level
//     (an improvement needs no acceptance); a single one is a one-off;
//   - the drift check runs over the level's experiments, at alpha/2.
//
// higherIsBetter gives the metric's direction; compare, when not nil,
// makes compare's run-level test (tested runs, reference runs).
//
// The noise of an experiment's value is the standard deviation of the
// values about their level's mean, pooled over every level seen, and at
// least the runs' pooled standard deviation over the square root of the
// mean runs an experiment.
func SequentialCheck(in []NightInput, higherIsBetter bool, o Options, compare func(a, b []float64) Comparison) Sequential {
	s := Sequential{Roles: make([]NightRole, len(in))}
	var levels [][]int // closed groups of one level each, for the pooled noise
	var ref []int
	from, since, pending := -1, -1, -1
	suspect := false // the open change's first night was a suspect one
	for i, x := range in {
		if !x.Used {
			continue
		}
		n := Night{Point: i, Since: -1}
		switch {
		case from < 0 || x.Accepted:
			// The first night, or an accepted one: a level starts here.
			levels = closeLevels(levels, ref, s.Roles, since, pending, i)
			ref, from, since, pending = []int{i}, i, -1, -1
			s.Roles[i] = RoleReference
			if x.Accepted {
				s.Roles[i] = RoleAccepted
			}
			n.Verdict = CheckNoChange
		case since >= 0:
			group := openGroup(s.Roles, since, i)
			a := nightAlpha(o, s.levelPoints(in, from, i))
			t := nightTest(in, group, ref, levels, higherIsBetter, o, a, compare)
			after := nightTest(in, group[1:], ref, levels, higherIsBetter, o, a, compare)
			if after.Verdict == CheckNoChange || after.Verdict == CheckImproved || oneOff(in, group, after) {
				// The first night of the change was a one-off: left out
				// of the reference when its test showed it worse; a
				// suspect night, which its test did not, is a draw of the
				// noise and rejoins it (leaving it out would cut the
				// noise's tail off the reference and bias its level).
				s.Roles[since] = RoleTransient
				if suspect {
					s.Roles[since] = RoleReference
					ref = append(ref, since)
				}
				for _, j := range group[1 : len(group)-1] {
					s.Roles[j] = RoleReference
					ref = append(ref, j)
				}
				since, suspect = -1, false
				n, ref, levels, pending = s.single(in, i, n, ref, levels, from, pending, higherIsBetter, o, compare)
				if n.Since >= 0 {
					// This night opens a change of its own.
					since, suspect = n.Since, n.Suspect
				}
				break
			}
			s.Roles[i] = RoleRegression
			n.Test, n.Since, n.Reference = &t, since, slices.Clone(ref)
			n.Verdict = t.Verdict
			if t.Verdict != CheckRegression {
				n.Verdict = CheckUndecided
			}
		default:
			n, ref, levels, pending = s.single(in, i, n, ref, levels, from, pending, higherIsBetter, o, compare)
			if n.Since >= 0 {
				since, suspect = n.Since, n.Suspect
			}
		}
		if pending >= 0 && pending != i && s.Roles[pending] == RolePending {
			// The improvement of the night before was a one-off.
			s.Roles[pending] = RoleTransient
			pending = -1
		}
		n.From = from // the level this night was tested against
		if s.Roles[i] == RoleImproved {
			from = s.levelStart(i) // the better level starts: the reference from the next night on
		}
		n.Drift = driftCheck(in, s.Roles, from, i, higherIsBetter, o)
		if n.Drift != nil && n.Drift.Drift && n.Verdict != CheckImproved {
			n.Verdict = CheckDrift
		}
		s.Nights = append(s.Nights, n)
	}
	return s
}

// oneOff tells whether the first night of an open change was a one-off:
// the nights after it are nearer the reference than they are to it.
func oneOff(in []NightInput, group []int, after NightTest) bool {
	first := in[group[0]].Value
	return math.Abs(after.Mean-after.RefMean) < math.Abs(after.Mean-first)
}

// single tests night i alone against the reference, with no change open.
func (s *Sequential) single(in []NightInput, i int, n Night, ref []int, levels [][]int, from, pending int, hib bool, o Options,
	compare func(a, b []float64) Comparison) (Night, []int, [][]int, int) {
	t := nightTest(in, []int{i}, ref, levels, hib, o, nightAlpha(o, s.levelPoints(in, from, i)), compare)
	n.Test, n.Reference = &t, slices.Clone(ref)
	n.Verdict = t.Verdict
	switch {
	case len(ref) < minLevel && !t.ByRuns:
		// A level needs minLevel experiments: until then each joins the
		// reference, whatever it says (undecided fails the night).
		s.Roles[i] = RoleReference
		ref = append(ref, i)
	case t.Verdict == CheckRegression || t.Verdict == CheckUndecided:
		s.Roles[i] = RoleRegression
		n.Since = i
		if t.Verdict == CheckUndecided && t.DF > 0 {
			// Beyond the allowed regression, not significant, the noise
			// known: no change shown tonight; the next night decides.
			n.Verdict, n.Suspect = CheckNoChange, true
		}
	case t.Verdict == CheckImproved && pending >= 0 && s.Roles[pending] == RolePending:
		// A second better night in a row: a new level.
		levels = append(levels, ref)
		s.Roles[pending], s.Roles[i] = RoleImproved, RoleImproved
		ref = []int{pending, i}
		pending = -1
	case t.Verdict == CheckImproved:
		s.Roles[i] = RolePending
		pending = i
	default:
		s.Roles[i] = RoleReference
		ref = append(ref, i)
	}
	return n, ref, levels, pending
}

// levelPoints is the number of points the drift test runs over on night
// i (driftCheck): the used ones from the level's start, one-offs left
// out, night i included.
func (s *Sequential) levelPoints(in []NightInput, from, i int) int {
	k := 1
	for j := from; j < i; j++ {
		if in[j].Used && s.Roles[j] != RoleTransient && s.Roles[j] != RolePending {
			k++
		}
	}
	return k
}

// levelStart is the first point of the improved level ending at i.
func (s *Sequential) levelStart(i int) int {
	j := i
	for k := i - 1; k >= 0; k-- {
		if s.Roles[k] == RoleImproved {
			j = k
			break
		}
		if s.Roles[k] != RoleUnused {
			break
		}
	}
	return j
}

// closeLevels closes the reference level and an open change as levels of
// the pooled noise when a new level starts at i (accepted).
func closeLevels(levels [][]int, ref []int, roles []NightRole, since, pending, i int) [][]int {
	if len(ref) > 0 {
		levels = append(levels, ref)
	}
	if since >= 0 {
		levels = append(levels, openGroup(roles, since, i-1))
	}
	if pending >= 0 && roles[pending] == RolePending {
		roles[pending] = RoleTransient
	}
	return levels
}

// openGroup is the points from since to i in a change (since, i and the
// regression nights between them).
func openGroup(roles []NightRole, since, i int) []int {
	g := []int{since}
	for j := since + 1; j < i; j++ {
		if roles[j] == RoleRegression {
			g = append(g, j)
		}
	}
	if i > since {
		g = append(g, i)
	}
	return g
}

// nightTest tests the points group against the reference ref, with the
// noise between experiments pooled over the closed levels, the reference
// and the group, at significance level alpha (nightAlpha).
func nightTest(in []NightInput, group, ref []int, levels [][]int, hib bool, o Options, alpha float64, compare func(a, b []float64) Comparison) NightTest {
	vals := func(pts []int) []float64 {
		x := make([]float64, len(pts))
		for k, p := range pts {
			x[k] = in[p].Value
		}
		return x
	}
	runs := func(pts []int) []float64 {
		var x []float64
		for _, p := range pts {
			x = append(x, in[p].Runs...)
		}
		return x
	}
	g, r := vals(group), vals(ref)
	t := NightTest{Nights: len(g), RefNights: len(r), Mean: stats.Mean(g), RefMean: stats.Mean(r), UpperPct: math.NaN(), PWorse: math.NaN(), PBetter: math.NaN(),
		Alpha: alpha}
	sign := 1.0 // worse is up
	if hib {
		sign = -1
	}
	if t.RefMean != 0 {
		t.WorsePct = sign * 100 * (t.Mean/t.RefMean - 1)
	}
	var ss, ssRuns float64
	dfRuns, nRuns, nNights := 0, 0, 0
	for _, lv := range append(slices.Clone(levels), ref, group) {
		x := vals(lv)
		m := stats.Mean(x)
		for _, v := range x {
			ss += (v - m) * (v - m)
		}
		t.DF += len(x) - 1
		for _, p := range lv {
			if r := in[p].Runs; len(r) >= 2 {
				ssRuns += rss(r)
				dfRuns += len(r) - 1
			}
			nRuns += len(in[p].Runs)
			nNights++
		}
	}
	allowed := allowedPct(o)
	if t.DF > 0 && t.RefMean != 0 {
		t.SD = math.Sqrt(ss / float64(t.DF))
		if dfRuns > 0 && nRuns > 0 {
			// The value of an experiment varies at least as its runs' mean
			// does: a floor for an estimate of few degrees of freedom that
			// came out small by chance.
			t.SD = max(t.SD, math.Sqrt(ssRuns/float64(dfRuns)/(float64(nRuns)/float64(nNights))))
		}
		se := t.SD * math.Sqrt(1/float64(len(g))+1/float64(len(r)))
		st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(t.DF)}
		if se > 0 {
			z := sign * (t.Mean - t.RefMean) / se // > 0: worse
			t.PWorse, t.PBetter = st.Survival(z), st.CDF(z)
		} else {
			t.PWorse, t.PBetter = 0.5, 0.5
			if d := sign * (t.Mean - t.RefMean); d > 0 {
				t.PWorse, t.PBetter = 0, 1
			} else if d < 0 {
				t.PWorse, t.PBetter = 1, 0
			}
		}
		t.UpperPct = t.WorsePct + 100*st.Quantile(1-alpha)*se/math.Abs(t.RefMean)
	}
	if compare != nil {
		a, b := runs(group), runs(ref)
		if len(a) >= o.MinRuns && len(b) >= o.MinRuns {
			c := compare(a, b)
			t.RunLevel = &c
		}
	}
	switch {
	case t.DF > 0:
		switch {
		case t.PWorse < alpha && t.WorsePct > allowed:
			t.Verdict = CheckRegression
		case t.PBetter < alpha && -t.WorsePct > allowed:
			t.Verdict = CheckImproved
		case t.WorsePct > allowed:
			t.Verdict = CheckUndecided
		default:
			t.Verdict = CheckNoChange
		}
	case t.RunLevel != nil && t.RunLevel.Verdict != Inconclusive:
		t.ByRuns = true
		c := t.RunLevel
		switch {
		case c.Verdict == BFaster && c.WorsePct() > allowed:
			t.Verdict = CheckRegression
		case c.Verdict == AFaster:
			t.Verdict = CheckImproved
		default:
			t.Verdict = CheckNoChange
		}
	case t.WorsePct > allowed:
		t.Verdict = CheckUndecided
	default:
		t.Verdict = CheckNoChange
	}
	return t
}

// driftCheck is the trend test over the used points from the level's
// start to i, one-offs left out; nil under minDriftPoints points.
func driftCheck(in []NightInput, roles []NightRole, from, i int, hib bool, o Options) *DriftCheck {
	var pts []int
	var x []float64
	for j := from; j <= i; j++ {
		if in[j].Used && roles[j] != RoleTransient && roles[j] != RolePending {
			pts = append(pts, j)
			x = append(x, in[j].Value)
		}
	}
	if len(x) < minDriftPoints {
		return nil
	}
	_, tau, p, err := stats.MannKendall(x)
	if err != nil {
		return nil
	}
	slope, icpt, err := stats.TheilSen(x)
	if err != nil || icpt == 0 {
		return nil
	}
	d := &DriftCheck{Points: pts, Tau: tau, P: p, SlopePct: 100 * slope / icpt}
	sign := 1.0
	if hib {
		sign = -1
	}
	d.CumulativePct = sign * 100 * slope * float64(len(x)-1) / icpt
	for k, v := range x {
		e := v - (icpt + slope*float64(k))
		d.LineRSS += e * e
	}
	d.StepRSS = math.Inf(1)
	for c := 2; c <= len(x)-2; c++ {
		d.StepRSS = min(d.StepRSS, rss(x[:c])+rss(x[c:]))
	}
	d.Drift = p < driftAlpha(o) && d.LineRSS <= d.StepRSS && d.CumulativePct > allowedPct(o)
	return d
}

// rss is the sum of squared deviations of x about its mean.
func rss(x []float64) float64 {
	m := stats.Mean(x)
	var s float64
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return s
}
