package analyze

import (
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// This file is the history's error check: the latest experiment's
// per-run error rates tested against the reference experiments' runs by
// compare's error test (CompareErrorRates), docs/STATISTICS.md
// ("History").

// ErrorCheckVerdict is what the history's error check says of a track on
// an experiment: exactly one of the verdicts below.
type ErrorCheckVerdict string

// The error check verdicts.
const (
	// ErrorsRose: the experiment's error rate is above the reference's:
	// the test shows it (p < ErrorNightAlpha) and the estimate lies beyond
	// the error band; it fails the gate condition errors.
	ErrorsRose ErrorCheckVerdict = "rose"
	// ErrorsFell: below the reference's, significantly and beyond the
	// band over the whole CI (BMoreErrors).
	ErrorsFell ErrorCheckVerdict = "fell"
	// ErrorsNoChange: no rise shown: tested, and neither rose nor fell
	// (within the band, or not significant).
	ErrorsNoChange ErrorCheckVerdict = "no-change"
	// ErrorsUndecided: not tested (ErrorCheck.Undecided says why); it
	// does not fail the gate (errorVerdict).
	ErrorsUndecided ErrorCheckVerdict = "undecided"
)

// Why an error check is undecided (ErrorCheck.Undecided), besides the
// comparison's ErrorUntestedNoRequests and ErrorUntestedOverdispersed.
const (
	// ErrorsNoReference: no earlier experiment of the track to test
	// against (the first of the track, or the first since an accepted
	// one).
	ErrorsNoReference = "no-reference"
	// ErrorsAccepted: the experiment is accepted: its error rate is the
	// reference from it on.
	ErrorsAccepted = "accepted"
	// ErrorsNotTested: the test could not be made (a run's error rate
	// not finite).
	ErrorsNotTested = "not-tested"
)

// The references of an error check (ErrorCheck.ReferenceBy).
const (
	// ErrorRefSequential: the experiments the sequential check of the
	// track's first gated metric holds as its reference (RoleReference,
	// RoleAccepted) since the latest accepted one.
	ErrorRefSequential = "sequential"
	// ErrorRefEarlier: that check holds none before the experiment
	// (the track has no gated metric with values, or none of those
	// experiments was usable): the earlier experiments since the latest
	// accepted one.
	ErrorRefEarlier = "earlier"
)

// ErrorCheck is the history's error check of a track on one experiment:
// its runs' error rates (side a) against the reference experiments'
// runs (side b), by compare's error test.
type ErrorCheck struct {
	// Point is the Track.Points index of the experiment checked;
	// Reference the points of its reference, ReferenceBy how they were
	// chosen. Experiments whose own error check rose are left out of
	// the reference (until one is accepted), so that a regression of
	// errors does not become the level later nights are held to.
	Point       int
	Reference   []int
	ReferenceBy string
	// Comparison is compare's error test (A: the experiment, B: the
	// reference); zero when Undecided is ErrorsNoReference or
	// ErrorsAccepted.
	Comparison ErrorComparison
	Verdict    ErrorCheckVerdict
	// Undecided says why the check is undecided: ErrorsNoReference,
	// ErrorsAccepted, ErrorsNotTested or the comparison's Untested.
	Undecided string
	// Fails is true when the check meets the gate condition errors
	// (ErrorsRose).
	Fails bool
}

// errorChecks runs the error check of every experiment of a track, in
// order, each seeing only the experiments before it: the reference of
// point i is the points before it that the sequential check of the
// track's first gated metric holds as reference (its roles; without
// any, every earlier point), from the latest accepted point on, those
// whose own error check failed (rose) left out. It returns the checks aligned
// with t.Points.
func (h *History) errorChecks(t *Track) []ErrorCheck {
	var roles []NightRole
	for _, mt := range t.Metrics {
		if mt.Gated {
			roles = mt.Check.Roles
			break
		}
	}
	seqRef := func(j int) bool {
		return j < len(roles) && (roles[j] == RoleReference || roles[j] == RoleAccepted)
	}
	checks := make([]ErrorCheck, len(t.Points))
	start := 0 // the latest accepted point so far
	for i, p := range t.Points {
		c := ErrorCheck{Point: i, Verdict: ErrorsUndecided, ReferenceBy: ErrorRefSequential}
		if h.Experiments[p.Experiment].Accepted != "" {
			start = i
			c.Undecided = ErrorsAccepted
			checks[i] = c
			continue
		}
		for j := start; j < i; j++ {
			if !checks[j].Fails && seqRef(j) {
				c.Reference = append(c.Reference, j)
			}
		}
		if len(c.Reference) == 0 {
			// None held as reference by the sequential check: the
			// earlier experiments.
			c.ReferenceBy = ErrorRefEarlier
			for j := start; j < i; j++ {
				if !checks[j].Fails {
					c.Reference = append(c.Reference, j)
				}
			}
		}
		var ref []results.Run
		for _, j := range c.Reference {
			ref = append(ref, t.Points[j].all...)
		}
		if len(c.Reference) == 0 {
			c.Undecided = ErrorsNoReference
			checks[i] = c
			continue
		}
		c.Comparison = h.compareErrorRuns(t, p, ref)
		c.Verdict, c.Undecided, c.Fails = errorVerdict(c.Comparison, h.Options)
		checks[i] = c
	}
	return checks
}

// compareErrorRuns tests the error rates of a point's runs against the
// reference runs, by compare's error test at ErrorNightAlpha: its steady
// runs (all its runs without a steady state), or all its runs when the
// steady ones are too few for the test over runs to reach that level and
// all are enough (as compare does).
func (h *History) compareErrorRuns(t *Track, p Point, ref []results.Run) ErrorComparison {
	o := h.Options
	sa := p.runs
	if a := ErrorNightAlpha(o); stats.MinAttainableP(len(sa), len(ref)) >= a && stats.MinAttainableP(len(p.all), len(ref)) < a {
		sa = p.all
	}
	o.Alpha = ErrorNightAlpha(h.Options)
	c := CompareErrorRates(t.System, t.System, sa, ref, o)
	c.Settings = t.Settings
	return c
}

// ErrorNightAlpha is the significance level of the history's error check:
// alpha/5 (0.01 at the default alpha), two-sided, so that a stable night
// fails at most 1 % of the time whatever the shape of the runs' error
// rates (issue 31's budget for a nightly gate, which runs every night;
// compare's gate, run once on a change, tests at alpha). The test over
// runs is used where it can reach it (stats.MinAttainableP), else
// Fisher's test of the pooled requests (CompareErrorRates at this
// level). TestHistoryErrorsMonteCarlo measures it.
func ErrorNightAlpha(o Options) float64 { return o.Alpha / 5 }

// errorVerdict reads an error comparison as the history's verdict, why
// it is undecided, and whether it fails the gate condition errors: a
// tested rise whose p is below ErrorNightAlpha and whose estimate lies
// beyond the band fails (decided, or its CI reaching back into the band:
// fail closed, as compare's lean). An untested one does not: in a
// nightly series it is the single run a night against a reference whose
// runs vary beyond chance, and failing it closed as compare does failed
// a third to a half of stable nights (TestHistoryErrorsMonteCarlo,
// overdispersed runs at 1 run a night); it is undecided, and the report
// says to run 2 runs a night.
func errorVerdict(c ErrorComparison, o Options) (ErrorCheckVerdict, string, bool) {
	switch {
	case c.Untested != "":
		return ErrorsUndecided, c.Untested, false
	case c.Method == "" || c.PValue == nil:
		return ErrorsUndecided, ErrorsNotTested, false
	case *c.PValue < ErrorNightAlpha(o) && c.DiffPts > c.BandPts:
		return ErrorsRose, "", true
	case c.Verdict == BMoreErrors:
		return ErrorsFell, "", false
	}
	return ErrorsNoChange, "", false
}
