package analyze

import (
	"math"
	"slices"

	"github.com/loadverdict/loadverdict/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// This file is the history check made for nightly CI: each experiment
// tested, as it arrives, against the reference level, with the noise
// between experiments (between nights) estimated robustly
// (docs/STATISTICS.md, "History: the nightly check").

// CheckVerdict is what a history check says of a metric on one night:
// exactly one of the verdicts below.
type CheckVerdict string

// The check verdicts.
const (
	// CheckRegression: the experiments since Since are worse than the
	// reference, significantly (at Options.Alpha/5, against the noise
	// between experiments) and by more than the allowed regression; it
	// stays so every night after, until accepted or recovered.
	CheckRegression CheckVerdict = "regression"
	// CheckDrift: a significant monotone trend over the reference level
	// (Mann-Kendall with the variance corrected for the nights'
	// autocorrelation), better described by a line than by one step,
	// whose cumulative change (Theil-Sen) is worse than the allowed
	// regression.
	CheckDrift CheckVerdict = "drift"
	// CheckImproved: better than the reference, beyond the noise between
	// experiments and the allowed regression. The reference does not
	// move: an improvement is reported until it is accepted.
	CheckImproved CheckVerdict = "improved"
	// CheckNoChange: no change shown: within the noise between
	// experiments or within the allowed regression; or a suspect night
	// (Night.Suspect): beyond both, the first of a change, which the next
	// nights confirm (a regression since this night) or not (a one-off).
	CheckNoChange CheckVerdict = "no-change"
	// CheckForming: the reference level has fewer than formingNights
	// experiments: the night joins it and nothing is decided; the gate
	// does not guard the level yet (the report says so).
	CheckForming CheckVerdict = "forming"
	// CheckUndecided: the experiment cannot be checked: it has errors,
	// lacks the metric, or (with a control) lacks the control.
	CheckUndecided CheckVerdict = "undecided"
)

// NightRole is the part an experiment plays in the sequential check.
type NightRole string

// The night roles.
const (
	// RoleUnused: not used (errors, or the metric missing).
	RoleUnused NightRole = ""
	// RoleReference: part of the reference level (the robust rule may
	// leave it out as an outlier: Night.Outliers).
	RoleReference NightRole = "reference"
	// RoleAccepted: accepted (--accept, the manifest's history.accept or
	// history.baseline): the reference level starts again here.
	RoleAccepted NightRole = "accepted"
	// RoleRegression: in an open or ended regression (or a suspect
	// stretch the next nights decide), not part of the reference.
	RoleRegression NightRole = "regression"
	// RoleImproved: better than the reference (an improvement not
	// accepted), not part of the reference.
	RoleImproved NightRole = "improved"
)

// NightInput is one experiment's value of a metric for the sequential
// check: the experiment's value (Point value, or its ratio to the
// control), its runs' values (on the same scale), whether it is usable,
// and whether it was accepted. ControlRuns are the control's runs over
// the control's value that night (a ratio's denominator: their spread is
// part of the ratio's); nil without a control.
type NightInput struct {
	Value       float64
	Runs        []float64
	ControlRuns []float64
	Used        bool
	Accepted    bool
}

// NightTest is the test of the experiments since an open change (or the
// latest alone) against the reference level, on the log scale: the
// difference of their mean log value from the reference's, over the
// noise between experiments (SD, estimated from the reference's nights,
// outliers left out, never below the run-to-run noise of a night's
// value).
type NightTest struct {
	// Nights and RefNights are the experiments tested and those of the
	// reference (outliers left out).
	Nights, RefNights int
	// Mean and RefMean are their geometric mean values.
	Mean, RefMean float64
	// WorsePct is how much worse the tested experiments are, percent of
	// the reference (negative: better); UpperPct the one-sided upper
	// bound at 1-Alpha (NaN when the noise cannot be estimated).
	WorsePct, UpperPct float64
	// SD is the noise of an experiment's value about its level, in the
	// metric's units at the reference (its relative size is SD/RefMean),
	// with DF degrees of freedom (0: cannot be estimated). Floor is true
	// when it is the run-to-run noise of a night's value (the nights
	// varied less than their runs do), whose degrees of freedom DF then
	// are; Rho the lag-1 autocorrelation between nights it allows for.
	SD    float64
	DF    int
	Floor bool
	Rho   float64
	// PWorse and PBetter are the one-sided p-values (NaN without DF);
	// Alpha the level they are held to.
	PWorse, PBetter float64
	Alpha           float64
	// Verdict is regression, improved, no-change or undecided (beyond
	// the allowed regression, not significant).
	Verdict CheckVerdict
}

// DriftCheck is the trend test over the reference level: Mann-Kendall's
// test, its variance corrected for the autocorrelation of the nights,
// with the Theil-Sen slope.
type DriftCheck struct {
	// Points are the experiments it is over (Track.Points indices).
	Points []int
	// Tau and P are Kendall's tau and the two-sided p-value; Rho the
	// lag-1 autocorrelation of the detrended values the variance was
	// corrected for (stats.MannKendallAR1).
	Tau, P, Rho float64
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
	// Since is the point where an open regression (or a suspect stretch)
	// began, dated at its step (a change point of the nights since the
	// reference, not the first night the test crossed), -1 when none is
	// open.
	Since int
	// From is the point where the reference level began (the first
	// point, or the latest accepted one).
	From int
	// Reference are the points of the reference level the night was
	// tested against, outliers left out; Outliers those left out.
	Reference, Outliers []int
	// Test is the test of the night (of the nights since Since when a
	// change is open); nil on the first night of a level.
	Test *NightTest
	// Drift is the trend test over the level (nil under 5 points).
	Drift *DriftCheck
	// Suspect is true on a night that opened a change (or continues one)
	// beyond the allowed regression and the night's noise that its test
	// has not shown significant yet: no change shown; the next nights
	// decide: a regression since Since, which fails, or a one-off.
	Suspect bool
	// ImprovedSince is the first night of the better stretch this night
	// belongs to (-1: none): an improvement, not accepted, so not the
	// reference.
	ImprovedSince int
	// OddNights are the Outliers the level look-back left out (with a
	// control: beyond outlierMADs robust standard deviations of their
	// side of the split that showed a regression, held to the runs'
	// noise); they stay out of the level's reference.
	OddNights []int
	// LookedBack is true on the night a regression was found by looking
	// back over the reference level (with a control): its nights had
	// joined the reference, and the split of the level dates it at Since.
	LookedBack bool
	// RecoveredFrom and RecoveredAt are the first night of the latest
	// regression of the level that ended, and the night it ended (back
	// at the reference); -1 when none ended.
	RecoveredFrom, RecoveredAt int
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

// formingNights is the fewest experiments of a reference level before a
// night is tested against it: with fewer, the noise between experiments
// is not known at all (one experiment says nothing of it, two next to
// nothing), and a night that differs cannot be told from a machine that
// differed.
const formingNights = 2

// FormingNights and OutlierMADs are formingNights and outlierMADs, for
// the report's words.
const (
	FormingNights = formingNights
	OutlierMADs   = outlierMADs
)

// minDriftPoints is the fewest experiments the trend test is made on:
// Mann-Kendall's exact two-sided p-value cannot fall below 0.05 with 4.
const minDriftPoints = 5

// outlierMADs, minTrimNights and fullTrimNights are the robust rule of
// the reference: in a reference of at least fullTrimNights nights, a
// night more than outlierMADs robust standard deviations (1.4826·MAD, at
// least the night's run-to-run noise) from the nights' median is an
// outlier: left out of the reference's mean and noise. In one of
// minTrimNights to fullTrimNights-1 nights the MAD is rough (a rule at
// 3.5 MADs from 3 nights left real draws of the noise out and failed
// 2-5 % of stable nights at a between-night sd 3 times the runs'), so an
// outlier must also stand fewSDs standard deviations of the other nights
// from their mean, and beyond the allowed regression (issue 31's case 1:
// a first night 8-15 % faster than 6-7 nights within 1 % of each other).
// With fewer nights the nights' mean and standard deviation stand, and
// Student's t at their few degrees of freedom bounds what an outlier
// among them can do (minTrimNights 5 failed 1.0 % of stable nights at a
// CV of 4 %, against 0.8 %: TestSequentialFalseAlarmsFamily).
const (
	outlierMADs    = 5
	minTrimNights  = 6
	fullTrimNights = 8
	fewSDs         = 6
)

// outlierAmongFew says whether night k of the few reference values x
// is an outlier of the others (fewSDs).
func (c *checker) outlierAmongFew(x []float64, k int, floor float64) bool {
	others := slices.Delete(slices.Clone(x), k, k+1)
	d := math.Abs(x[k] - stats.Mean(others))
	sd := max(math.Sqrt(rss(others)/float64(len(others)-1)), floor)
	return d > fewSDs*sd && d > math.Log1p(allowedPct(c.o)/100)
}

// minRhoNights and minRhoNightsControl are the fewest reference nights
// whose lag-1 autocorrelation the noise allows for (reference), without
// and with a control. Without one the machine's wander between nights
// is autocorrelated, and allowing for it from 5 nights holds the false
// fails (from 10 they rose 0.1-0.4 points at 3x). Over a control that
// wander cancels, and from 5-9 nights the bias-corrected estimate is
// mostly its own noise: 6 nights rising 0.965-1.051 over the control
// gave rho 0.9 and a noise that let a 10 % step pass for 14 nights.
// From 10 nights (analysis version 16) the Monte-Carlo with odd nights
// caught 91 % of 10 % steps within 3 nights, against 86 %
// (docs/STATISTICS.md, "With a control: the step behind a one-off").
const (
	minRhoNights        = 5
	minRhoNightsControl = 10
)

// openAlpha is the one-sided level at which one night opens a change
// (suspect) or shows an improvement; failAlpha the level at which the
// nights of an open change fail as a regression: a fifth of alpha, for
// the gate's false-fail rate on stable nights is the figure a nightly job
// is judged by (docs/STATISTICS.md, "Nightly Monte-Carlo").
func openAlpha(o Options) float64 { return o.Alpha }
func failAlpha(o Options) float64 { return o.Alpha / 5 }

// driftAlpha is the significance level of the drift test.
func driftAlpha(o Options) float64 { return o.Alpha / 2 }

// allowedPct is the largest change, percent, that is not a regression:
// the allowed regression, never less than the practical band.
func allowedPct(o Options) float64 {
	return max(o.MaxRegressionPct, 100*o.PracticalBand)
}

// refStats is the reference level of a night: the log values of the
// reference nights, outliers left out, their mean and their noise.
type refStats struct {
	kept, outliers []int
	mean           float64 // mean log value of kept
	sd             float64 // noise of one night's log value
	df             float64
	floor          bool    // sd is the runs' noise, the between-night one below it
	floorSD        float64 // the runs' noise of a night's log value
	rho            float64
}

// checker holds the series being checked.
type checker struct {
	in   []NightInput
	y    []float64 // log values
	sign float64   // +1: worse is up
	o    Options
	// floors caches floor(i) by night: the reference and the level
	// look-back ask for it once a split, each a pass over the nights.
	floors map[int][2]float64
}

// SequentialCheck runs the history check over one metric's experiments,
// in order, each night seeing only itself and the nights before it:
//
//   - the reference is the level since the first usable experiment or
//     the latest accepted one: the nights of it that are neither in a
//     regression nor better (an improvement is reported, and the
//     reference does not move until it is accepted), outliers left out
//     by a robust rule (outlierMADs): an outlier night neither sets nor
//     widens it;
//   - its first formingNights nights form it (verdict forming);
//   - the noise of a night's value is the standard deviation of the
//     reference nights' log values (with their lag-1 autocorrelation),
//     never below the run-to-run noise of a night's value;
//   - each night, the step is sought among the latest scanNights nights:
//     for each start c, the nights from c to the latest tested together
//     against the reference nights before c; the night fails as a
//     regression when the most significant of these (at least two
//     nights) is significant at failAlpha and beyond the allowed
//     regression, and the latest night is nearer the change's level than
//     the reference's: the regression is dated at its start c, a change
//     point, not the first night a test crossed;
//   - a single night beyond the allowed regression and the noise (at
//     openAlpha) is suspect: no change shown, the next nights decide;
//   - once a regression, every night of it fails until accepted, or
//     until a night comes back (nearer the reference than the change's
//     level, not itself beyond): recovered, and the nights after it pass
//     again, the regression's nights left out of the reference;
//   - the drift check runs over the reference nights, at alpha/2.
//
// higherIsBetter gives the metric's direction; o.Control non-empty says
// the values are over a control's (the level look-back runs only then:
// lookBackLevel).
func SequentialCheck(in []NightInput, higherIsBetter bool, o Options) Sequential {
	c := &checker{in: in, y: make([]float64, len(in)), sign: 1, o: o}
	if higherIsBetter {
		c.sign = -1
	}
	for i, x := range in {
		c.y[i] = math.NaN()
		if x.Used && x.Value > 0 && !math.IsInf(x.Value, 0) {
			c.y[i] = math.Log(x.Value)
		}
	}
	st := &seqState{c: c, s: Sequential{Roles: make([]NightRole, len(in))}, from: -1, recFrom: -1, recAt: -1}
	for i, x := range in {
		if !math.IsNaN(c.y[i]) {
			st.s.Nights = append(st.s.Nights, st.night(i, x.Accepted))
		}
	}
	return st.s
}

// seqState is the history check between nights: the current level's
// reference nights, the suspect nights pending, an open regression's
// nights and the better ones, the night the level started (from), the
// latest recovery and the drift the latest night was named.
type seqState struct {
	c                            *checker
	s                            Sequential
	ref, pending, change, better []int
	// odd are the level's nights the look-back left out of the
	// reference (lookBackLevel), shown with the outliers.
	odd                  []int
	from, recFrom, recAt int
	// drift is the drift the latest night was named (nil: none).
	drift *DriftCheck
}

// night decides night i (a usable one), accepted or not.
func (st *seqState) night(i int, accepted bool) Night {
	c, o := st.c, st.c.o
	n := Night{Point: i, Since: -1, ImprovedSince: -1, RecoveredFrom: -1, RecoveredAt: -1}
	if st.from < 0 || accepted {
		// The first night, or an accepted one: a level starts here.
		st.ref, st.pending, st.change, st.better, st.from, st.recFrom, st.recAt = []int{i}, nil, nil, nil, i, -1, -1
		st.odd = nil
		st.s.Roles[i] = RoleReference
		n.From, n.Verdict = i, CheckForming
		if accepted {
			st.s.Roles[i], n.Verdict = RoleAccepted, CheckNoChange
		}
		return n
	}
	n.From = st.from
	rs := c.reference(st.ref, i)
	st.setReference(&n, rs)
	single := c.test([]int{i}, rs, openAlpha(o))
	n.Test = &single
	switch {
	case len(rs.kept) < formingNights:
		st.s.Roles[i], n.Verdict = RoleReference, CheckForming
		st.ref = append(st.ref, i)
	case len(st.change) > 0:
		st.openRegression(&n, rs, single)
	case len(st.pending) > 0:
		st.pendingNights(&n, rs, single)
	case o.Control != "" && rs.floorSD > 0 && single.Verdict == CheckRegression && st.stepBack(&n):
		// With a control and runs' noise: a step an odd night had
		// returned to the reference (stepBack).
	default:
		decide(&st.s, &n, single, &st.ref, &st.pending, &st.better)
	}
	n.RecoveredFrom, n.RecoveredAt = st.recFrom, st.recAt
	if st.s.Roles[i] == RoleReference && n.Verdict != CheckForming && o.Control != "" {
		st.lookBackLevel(&n)
	}
	switch {
	case st.s.Roles[i] == RoleReference && n.Verdict != CheckForming:
		n.Drift = c.drift(c.reference(st.ref, i).kept)
	case n.Suspect && st.drift != nil:
		// A suspect night after a drift was named is the drift's next
		// step, not a pause in it: the trend test over the level with the
		// suspect nights in it, or else the drift named before, stands
		// while the next nights decide (a one-off rejoins the reference
		// and the trend test runs again; a step fails as a regression).
		lv := append(slices.Clone(st.ref), st.pending...)
		slices.Sort(lv)
		if n.Drift = c.drift(c.reference(lv, i).kept); n.Drift == nil || !n.Drift.Drift {
			n.Drift = st.drift
		}
	}
	st.drift = nil
	if n.Drift != nil && n.Drift.Drift {
		n.Verdict, st.drift = CheckDrift, n.Drift
	}
	return n
}

// openRegression decides a night during an open regression: it holds
// until a night comes back (recovered): nearer the reference than the
// change's level and not itself a regression; with a control (o.Control)
// also back within the allowed regression (analysis version 15), for
// there the nights' noise is the runs' and a night still beyond it is
// the change seen through noise: under an open model the step's size in
// latency moves with the machine (testdata/truth/nightly-open-swings),
// and without the control the same rule lengthened false regressions
// (false fails at 3x +0.1-0.5 points).
func (st *seqState) openRegression(n *Night, rs refStats, single NightTest) {
	c, o, i := st.c, st.c.o, n.Point
	prev := c.test(st.change, rs, failAlpha(o))
	back := single.WorsePct < prev.WorsePct/2 && single.Verdict != CheckRegression
	if o.Control != "" && single.WorsePct > allowedPct(o) {
		back = false
	}
	if back {
		st.recFrom, st.recAt, st.change = st.change[0], i, nil
		decide(&st.s, n, single, &st.ref, &st.pending, &st.better)
		return
	}
	st.change = append(st.change, i)
	t := c.test(st.change, rs, failAlpha(o))
	st.s.Roles[i] = RoleRegression
	n.Test, n.Since, n.Verdict = &t, st.change[0], CheckRegression
}

// pendingNights decides a night after suspect ones: a regression since a
// step among them, a one-off (the suspect nights back in the reference),
// or one more suspect night.
func (st *seqState) pendingNights(n *Night, rs refStats, single NightTest) {
	c, o, i := st.c, st.c.o, n.Point
	group := append(slices.Clone(st.pending), i)
	if st.scanStep(n, group) {
		st.pending = nil
		return
	}
	prev := c.test(st.pending, rs, failAlpha(o))
	if single.WorsePct < prev.WorsePct/2 && single.Verdict != CheckRegression {
		// A one-off: its nights were draws of the noise (or, beyond even
		// the outlier rule, transients).
		for _, j := range st.pending {
			st.s.Roles[j] = RoleReference
			st.ref = append(st.ref, j)
		}
		slices.Sort(st.ref)
		st.pending = nil
		rs = c.reference(st.ref, i)
		st.setReference(n, rs)
		single = c.test([]int{i}, rs, openAlpha(o))
		n.Test = &single
		decide(&st.s, n, single, &st.ref, &st.pending, &st.better)
		return
	}
	st.pending = group
	t := c.test(st.pending, rs, failAlpha(o))
	st.s.Roles[i] = RoleRegression
	n.Test, n.Since, n.Verdict, n.Suspect = &t, st.pending[0], CheckNoChange, true
}

// stepBack looks, on a night beyond the noise on its own (with a control
// and the runs' noise), for a step among the last lookBack reference
// nights as a suspect stretch's scan does: the nights of a step that one
// night back at the reference had returned to it as a one-off (an odd
// night of the system alone, which the control does not cancel), or
// whose first night was within a reference it then widened. A regression
// found is dated at its start, its nights leave the reference, and the
// night fails; false when none, and the night is decided on its own
// (decide). Analysis version 16: with odd nights 1 in 10 the Monte-Carlo
// caught 91 % of 10 % steps within 3 nights at 2 runs, against 86 %,
// false fails within 0.1 point (docs/STATISTICS.md, "With a control: the
// step behind a one-off"); with 1 run a night (no runs' noise) it is not
// tried.
func (st *seqState) stepBack(n *Night) bool {
	return st.scanStep(n, []int{n.Point})
}

// scanStep seeks the step of a regression ending at night n among the
// nights group (n's the last) and the reference nights just before them
// (scan); found, the regression since its start opens: its nights leave
// the reference, and night n fails, dated at it. False when none.
func (st *seqState) scanStep(n *Night, group []int) bool {
	c, i := st.c, n.Point
	from, t, ok := c.scan(st.ref, group, i)
	if !ok {
		return false
	}
	var moved []int
	st.ref, moved = splitAt(st.ref, from)
	st.change = append(moved, group...)
	for _, j := range st.change {
		st.s.Roles[j] = RoleRegression
	}
	st.setReference(n, c.reference(st.ref, i))
	n.Test, n.Since, n.Verdict = &t, from, CheckRegression
	return true
}

// decide decides night i on its own test against the reference: suspect
// (beyond the allowed regression and the noise: no change shown, the
// next nights decide; it stays in the reference, where the robust rule
// discounts it if it was a one-off), improved (not the reference), or
// no change (the reference).
func decide(s *Sequential, n *Night, t NightTest, ref, pending, better *[]int) {
	i := n.Point
	switch t.Verdict {
	case CheckRegression:
		// Beyond on its own: held out of the reference while the next
		// nights decide.
		*pending = []int{i}
		s.Roles[i] = RoleRegression
		n.Verdict, n.Suspect, n.Since = CheckNoChange, true, i
	case CheckImproved:
		*better = append(*better, i)
		s.Roles[i] = RoleImproved
		n.Verdict, n.ImprovedSince = CheckImproved, (*better)[0]
	default:
		if len(*better) == 1 {
			// A single better night: a draw of the noise.
			b := (*better)[0]
			s.Roles[b] = RoleReference
			*ref = append(*ref, b)
			slices.Sort(*ref)
		}
		*better = nil
		s.Roles[i] = RoleReference
		*ref = append(*ref, i)
		n.Verdict = CheckNoChange
	}
}

// lookBack is how many reference nights before a suspect stretch its
// step may move back to (scan).
const lookBack = 3

// poolNights is the fewest nights of a group whose own spread joins the
// reference's in its test.
const poolNights = 3

// scan seeks the step of a regression ending at night i among the
// nights of the suspect stretch group (i the last) and up to lookBack
// reference nights just before it (formingNights kept before the step):
// for each start, the nights from it to i against the reference nights
// before it; the most significant at least two nights long, if
// significant at failAlpha, beyond the allowed regression, its first
// night itself beyond the allowed regression, and night i nearer its
// level than the reference's. The regression is dated at that start (a
// change point), not at the first night a test crossed.
func (c *checker) scan(ref, group []int, i int) (int, NightTest, bool) {
	var best NightTest
	bestAt := -1
	try := func(before, g []int) {
		rs := c.reference(before, i)
		if len(rs.kept) < formingNights || len(g) < 2 {
			return
		}
		if t, ok := c.stepFrom(g, rs, i, failAlpha(c.o)); ok && (bestAt < 0 || t.PWorse < best.PWorse) {
			best, bestAt = t, g[0]
		}
	}
	for k := range group {
		try(ref, group[k:])
	}
	for b := 1; b <= lookBack && b <= len(ref); b++ {
		try(ref[:len(ref)-b], append(slices.Clone(ref[len(ref)-b:]), group...))
	}
	return bestAt, best, bestAt >= 0
}

// levelSide is the fewest nights on each side of a split the level
// look-back tests.
const levelSide = 3

// lookBackLevel looks back over the reference level when night n, with a
// control, has just joined it: a step the level took in (its first night
// within the noise of a short reference an odd night had widened, and
// every night at the new level joining after it) is not tested again by
// the night's own test or scan. Every split of the level with levelSide
// nights or more a side (night n's in the later), its odd nights left
// out (robustSides), is tested as a suspect stretch is: the later side
// against the earlier side's reference, its first night beyond the
// allowed regression, significant at failAlpha over the number of
// splits (Bonferroni), and night n nearer the later level than the
// earlier. The most significant is a regression dated at its split: its
// nights leave the reference, as do the earlier side's odd nights (for
// good: st.odd), and the night fails. With a control only: without one
// the Monte-Carlo's false fails rose 0.2-0.5 points where the machine's
// nights vary (docs/STATISTICS.md, "The level look-back").
func (st *seqState) lookBackLevel(n *Night) {
	c, i := st.c, n.Point
	splits := len(st.ref) - 2*levelSide + 1
	if splits < 1 || st.ref[len(st.ref)-1] != i {
		return
	}
	alpha := failAlpha(c.o) / float64(splits)
	var best NightTest
	bestAt := -1
	var bestOdd []int
	allowed := math.Log1p(allowedPct(c.o) / 100)
	best0 := math.Inf(1) // the best (least worse) of the nights before split k
	for k, p := range st.ref {
		worse := c.sign*c.y[p] - best0
		best0 = min(best0, c.sign*c.y[p])
		if k < levelSide || k > len(st.ref)-levelSide || worse < allowed {
			// (worse < allowed: the mean of any of the nights before k
			// is never better than their best, so the split's first
			// night is not beyond the allowed regression against it and
			// stepFrom would refuse it: skipped unread.)
			continue
		}
		before, after, odd := c.robustSides(st.ref[:k], st.ref[k:], i)
		if len(before) < levelSide-1 || len(after) < levelSide || after[0] != p {
			continue
		}
		if t, ok := c.stepFrom(after, c.reference(before, i), i, alpha); ok && (bestAt < 0 || t.PWorse < best.PWorse) {
			best, bestAt, bestOdd = t, p, odd
		}
	}
	if bestAt < 0 {
		return
	}
	st.ref, st.change = splitAt(st.ref, bestAt)
	st.ref = slices.DeleteFunc(st.ref, func(p int) bool { return slices.Contains(bestOdd, p) })
	st.odd = append(st.odd, bestOdd...)
	slices.Sort(st.odd)
	for _, j := range st.change {
		st.s.Roles[j] = RoleRegression
	}
	rs := c.reference(st.ref, i)
	st.setReference(n, rs)
	n.Test, n.Since, n.Verdict, n.LookedBack = &best, bestAt, CheckRegression, true
}

// robustSides is a split of the level for lookBackLevel, its odd nights
// left out: a night more than outlierMADs robust standard deviations
// (1.4826·MAD of every night's deviation from its own side's median,
// never below the runs' noise of a night's value) from its side's
// median. It returns the two sides' kept nights and the earlier side's
// nights left out (odd: they leave the reference if the split is taken).
// A side of 3 nights cannot tell its own odd night from noise; the level
// after the split, and the runs, can. With one run a night (no runs'
// noise) nothing is left out.
func (c *checker) robustSides(before, after []int, i int) (keptBefore, keptAfter, odd []int) {
	floor, _ := c.floor(i)
	if floor == 0 {
		// One run a night: no runs' noise to hold the MAD of a few
		// nights to (leaving nights out by it alone failed 1.0-1.2 % of
		// stable nights at 1 run with odd nights, against 0.8-0.9 %).
		return before, after, nil
	}
	mb, ma := stats.Median(c.logsAt(before)), stats.Median(c.logsAt(after))
	var dev []float64
	for _, p := range before {
		dev = append(dev, math.Abs(c.y[p]-mb))
	}
	for _, p := range after {
		dev = append(dev, math.Abs(c.y[p]-ma))
	}
	scale := max(1.4826*stats.Median(dev), floor)
	for _, p := range before {
		if math.Abs(c.y[p]-mb) > outlierMADs*scale {
			odd = append(odd, p)
		} else {
			keptBefore = append(keptBefore, p)
		}
	}
	for _, p := range after {
		if math.Abs(c.y[p]-ma) <= outlierMADs*scale {
			keptAfter = append(keptAfter, p)
		}
	}
	return keptBefore, keptAfter, odd
}

// setReference sets night n's reference from rs, and its outliers: the
// robust rule's, and those the level look-back left out (st.odd, also in
// n.OddNights).
func (st *seqState) setReference(n *Night, rs refStats) {
	n.Reference, n.Outliers, n.OddNights = rs.kept, rs.outliers, nil
	if len(st.odd) > 0 {
		n.Outliers = append(slices.Clone(rs.outliers), st.odd...)
		slices.Sort(n.Outliers)
		n.OddNights = slices.Clone(st.odd)
	}
}

// stepFrom tests the nights g (night i the last) as a regression since
// g[0] against the reference rs at one-sided level alpha: its first
// night itself beyond the allowed regression, the nights significant and
// beyond it, and night i nearer their level than the reference's (not
// back). ok false when any fails.
func (c *checker) stepFrom(g []int, rs refStats, i int, alpha float64) (NightTest, bool) {
	if c.sign*(c.y[g[0]]-rs.mean) < math.Log1p(allowedPct(c.o)/100) {
		return NightTest{}, false
	}
	t := c.test(g, rs, alpha)
	if t.Verdict != CheckRegression || c.sign*(c.y[i]-rs.mean) < math.Log1p(t.WorsePct/100)/2 {
		return NightTest{}, false
	}
	return t, true
}

// splitAt cuts the sorted points ref at point st: those before it, and
// st and those after.
func splitAt(ref []int, st int) (before, after []int) {
	k, _ := slices.BinarySearch(ref, st)
	return slices.Clone(ref[:k]), slices.Clone(ref[k:])
}

// reference is the reference level of night i from the points ref: the
// robust rule leaves out the outliers (outlierMADs from the median, in
// robust standard deviations never below the run-to-run noise), and the
// rest give the mean and noise.
func (c *checker) reference(ref []int, i int) refStats {
	floor, floorDF := c.floor(i)
	rs := refStats{floorSD: floor}
	if len(ref) == 0 {
		return rs
	}
	x := c.logsAt(ref)
	med := stats.Median(x)
	dev := make([]float64, len(x))
	for k, v := range x {
		dev[k] = math.Abs(v - med)
	}
	scale := max(1.4826*stats.Median(dev), floor)
	for k, p := range ref {
		if len(ref) >= minTrimNights && scale > 0 && dev[k] > outlierMADs*scale && (len(ref) >= fullTrimNights || c.outlierAmongFew(x, k, floor)) {
			rs.outliers = append(rs.outliers, p)
		} else {
			rs.kept = append(rs.kept, p)
		}
	}
	kx := c.logsAt(rs.kept)
	rs.mean = stats.Mean(kx)
	if len(kx) >= 2 {
		rs.sd = math.Sqrt(rss(kx) / float64(len(kx)-1))
		rs.df = float64(len(kx) - 1)
	}
	if floor > rs.sd {
		rs.sd, rs.df, rs.floor = floor, floorDF, true
	}
	minRho := minRhoNights
	if c.o.Control != "" {
		minRho = minRhoNightsControl
	}
	if len(kx) >= minRho && !rs.floor {
		// The lag-1 autocorrelation, corrected for its bias in a short
		// series (Kendall: E[r] ≈ rho - (1 + 3 rho)/n); the sample
		// variance of autocorrelated values understates theirs by the
		// factor 1 - 2/(n(n-1))·Σ (n-k)·rho^k.
		n := float64(len(kx))
		rs.rho = min(max((n*lag1(kx)+1)/(n-3), 0), 0.9)
		f := 0.0
		for k := 1; k < len(kx); k++ {
			f += (n - float64(k)) * math.Pow(rs.rho, float64(k))
		}
		if g := 1 - 2*f/(n*(n-1)); g > 0.2 {
			rs.sd /= math.Sqrt(g)
		}
	}
	return rs
}

// logsAt is the log values of the nights pts.
func (c *checker) logsAt(pts []int) []float64 {
	x := make([]float64, len(pts))
	for k, p := range pts {
		x[k] = c.y[p]
	}
	return x
}

// lag1 is the lag-1 autocorrelation of x.
func lag1(x []float64) float64 {
	m := stats.Mean(x)
	var num, den float64
	for k, v := range x {
		den += (v - m) * (v - m)
		if k > 0 {
			num += (v - m) * (x[k-1] - m)
		}
	}
	if den == 0 {
		return 0
	}
	return num / den
}

// floor is the run-to-run noise of a night's log value over the used
// nights up to i: the pooled variance of the runs' log values within a
// night over the runs a night (and, with a control, the control's
// runs'), with its degrees of freedom; 0 without two runs in a night.
func (c *checker) floor(i int) (float64, float64) {
	if f, ok := c.floors[i]; ok {
		return f[0], f[1]
	}
	sd, df := c.runsNoise(i)
	if c.floors == nil {
		c.floors = map[int][2]float64{}
	}
	c.floors[i] = [2]float64{sd, df}
	return sd, df
}

// runsNoise computes floor(i).
func (c *checker) runsNoise(i int) (float64, float64) {
	var ss, ssC float64
	df, dfC, runs, runsC, nights := 0, 0, 0, 0, 0
	for j := 0; j <= i; j++ {
		if math.IsNaN(c.y[j]) {
			continue
		}
		nights++
		lr := logs(c.in[j].Runs)
		if len(lr) >= 2 {
			ss += rss(lr)
			df += len(lr) - 1
		}
		runs += len(lr)
		lc := logs(c.in[j].ControlRuns)
		if len(lc) >= 2 {
			ssC += rss(lc)
			dfC += len(lc) - 1
		}
		runsC += len(lc)
	}
	if df == 0 || runs == 0 {
		return 0, 0
	}
	v := ss / float64(df) / (float64(runs) / float64(nights))
	if dfC > 0 && runsC > 0 {
		v += ssC / float64(dfC) / (float64(runsC) / float64(nights))
	}
	return math.Sqrt(v), float64(df + dfC)
}

// logs is the logs of the positive values of x.
func logs(x []float64) []float64 {
	var l []float64
	for _, v := range x {
		if v > 0 && !math.IsInf(v, 0) {
			l = append(l, math.Log(v))
		}
	}
	return l
}

// test tests the nights group against the reference rs at one-sided
// level alpha: their mean log value's difference from the reference's,
// over the noise of a night's value (with the nights' autocorrelation
// within the group), with Student's t at the reference's degrees of
// freedom.
func (c *checker) test(group []int, rs refStats, alpha float64) NightTest {
	g := c.logsAt(group)
	gm := stats.Mean(g)
	t := NightTest{Nights: len(g), RefNights: len(rs.kept), Mean: math.Exp(gm), RefMean: math.Exp(rs.mean), UpperPct: math.NaN(),
		PWorse: math.NaN(), PBetter: math.NaN(), Alpha: alpha, Floor: rs.floor, Rho: rs.rho}
	diff := c.sign * (gm - rs.mean) // log scale, > 0: worse
	t.WorsePct = 100 * (math.Exp(diff) - 1)
	allowed := math.Log1p(allowedPct(c.o) / 100)
	if rs.df <= 0 || rs.sd <= 0 {
		t.Verdict = CheckNoChange
		if diff > allowed {
			t.Verdict = CheckUndecided
		}
		return t
	}
	sd, df := rs.sd, rs.df
	if len(g) >= poolNights && len(g) > len(rs.kept) {
		// The group's own spread joins a shorter reference's (a pooled
		// two-sample test): a reference of few nights is not all the
		// test knows of the noise once the group is a level of its own.
		df = rs.df + float64(len(g)-1)
		sd = max(math.Sqrt((rs.sd*rs.sd*rs.df+rss(g))/df), rs.floorSD)
	}
	t.SD, t.DF = sd*t.RefMean, int(math.Round(df))
	se := sd * meanSE(len(g), len(rs.kept), rs.rho)
	st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	z := diff / se
	t.PWorse, t.PBetter = st.Survival(z), st.CDF(z)
	t.UpperPct = 100 * (math.Exp(diff+st.Quantile(1-alpha)*se) - 1)
	switch {
	case t.PWorse < alpha && diff > allowed:
		t.Verdict = CheckRegression
	case t.PBetter < alpha && -diff > allowed:
		t.Verdict = CheckImproved
	case diff > allowed:
		t.Verdict = CheckUndecided
	default:
		t.Verdict = CheckNoChange
	}
	return t
}

// meanSE is the standard error of the difference between the mean of k
// nights and the mean of n reference nights, in units of one night's
// noise, the nights' lag-1 autocorrelation rho allowed for: the variance
// of a mean of m autocorrelated nights is 1/m·(1 + 2Σ(1 − j/m)ρ^j).
func meanSE(k, n int, rho float64) float64 {
	v := func(m int) float64 {
		f := 1.0
		for lag := 1; lag < m; lag++ {
			f += 2 * float64(m-lag) / float64(m) * math.Pow(rho, float64(lag))
		}
		return f / float64(m)
	}
	return math.Sqrt(v(k) + v(n))
}

// ShownFromPct is what a night's test says of the nights to come: a
// regression is shown no earlier than its second night (the first is
// suspect at most), and only when those two nights' mean is worse than
// the reference by more than this many percent: the allowed regression,
// or the difference the test of two nights holds significant at
// failAlpha on the reference's noise (t's SD, degrees of freedom and
// autocorrelation), whichever is larger. A smaller regression is more
// likely missed than shown by its second night. NaN for a test of more
// than one night (a change is open) or without the noise.
func ShownFromPct(t NightTest, o Options) float64 {
	if t.Nights != 1 || t.DF <= 0 || !(t.SD > 0) || !(t.RefMean > 0) {
		return math.NaN()
	}
	sd := t.SD / t.RefMean
	st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(t.DF)}
	d := st.Quantile(1-failAlpha(o)) * sd * meanSE(2, t.RefNights, t.Rho)
	return 100 * math.Expm1(max(d, math.Log1p(allowedPct(o)/100)))
}

// drift is the trend test over the reference nights pts (outliers left
// out, the night checked among them); nil under minDriftPoints.
func (c *checker) drift(pts []int) *DriftCheck {
	if len(pts) < minDriftPoints {
		return nil
	}
	x := make([]float64, len(pts))
	for k, p := range pts {
		x[k] = c.in[p].Value
	}
	tau, p, rho, err := stats.MannKendallAR1(x)
	if err != nil {
		return nil
	}
	slope, icpt, err := stats.TheilSen(x)
	if err != nil || icpt == 0 {
		return nil
	}
	d := &DriftCheck{Points: pts, Tau: tau, P: p, Rho: rho, SlopePct: 100 * slope / icpt}
	d.CumulativePct = c.sign * 100 * slope * float64(len(x)-1) / icpt
	for k, v := range x {
		e := v - (icpt + slope*float64(k))
		d.LineRSS += e * e
	}
	d.StepRSS = math.Inf(1)
	for k := 2; k <= len(x)-2; k++ {
		d.StepRSS = min(d.StepRSS, rss(x[:k])+rss(x[k:]))
	}
	d.Drift = p < driftAlpha(c.o) && d.LineRSS <= d.StepRSS && d.CumulativePct > allowedPct(c.o)
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
