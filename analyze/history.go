package analyze

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// Meta describes one experiment of a series (the manifest's meta:):
// what was measured and when. Every field is optional.
type Meta struct {
	Commit  string `json:"commit,omitempty"`
	Version string `json:"version,omitempty"`
	Branch  string `json:"branch,omitempty"`
	// Date is when the experiment ran or its build was made:
	// "2026-11-30" or an RFC 3339 time.
	Date string `json:"date,omitempty"`
	Note string `json:"note,omitempty"`
}

// ParseDate reads a meta date: "2006-01-02" (UTC midnight) or RFC 3339.
func ParseDate(s string) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("date %q: want 2006-01-02 or an RFC 3339 time", s)
	}
	return t.UTC(), nil
}

// SeriesExperiment is one analysed experiment of a series.
type SeriesExperiment struct {
	Name    string
	Meta    Meta
	Verdict *Verdict
	// Accepted says whether the experiment's change was accepted: "" (no),
	// AcceptedByName (--accept, the manifests' history.accept) or
	// AcceptedBaseline (the pinned history.baseline: the experiments
	// before it are not used by the history check).
	Accepted string
}

// The ways an experiment is accepted (SeriesExperiment.Accepted).
const (
	AcceptedByName   = "accept"
	AcceptedBaseline = "baseline"
)

// The orders of a series' experiments (History.OrderBy).
const (
	OrderByDate    = "meta.date"  // every experiment has a meta date
	OrderByStarted = "started_at" // else every one has runs with start times
	OrderAsGiven   = "as-given"   // else as given
)

// OrderExperiments orders a series' experiments in place: by meta.date
// when every experiment has one, experiments of the same date by the
// earliest start time of their runs; else by those start times when
// every experiment has runs with one; else as given. It returns the order
// used (OrderByDate, OrderByStarted, OrderAsGiven). It fails closed with
// an *OrderError, rather than let the order the experiments were given in
// decide the history check, when the order cannot be known: some
// experiments have a meta.date and others none (the undated ones could
// be anywhere among the dated); the same meta.date, and not every one of
// them has run start times, or they start at the same time; or, as
// given, an experiment given after one whose runs started later.
func OrderExperiments(exps []SeriesExperiment) (string, error) {
	dates, starts, dated, started, err := seriesTimes(exps)
	if err != nil {
		return "", err
	}
	var by string
	var key func(SeriesExperiment) time.Time
	switch {
	case len(exps) > 0 && dated == len(exps):
		by, key = OrderByDate, func(e SeriesExperiment) time.Time { return dates[e.Name] }
	case len(dates) > 0:
		// Dropping the dates the others have would reorder them.
		var undated []string
		for _, e := range exps {
			if e.Meta.Date == "" {
				undated = append(undated, e.Name)
			}
		}
		return "", &OrderError{By: OrderByDate, Undated: undated, Dated: len(dates)}
	case len(exps) > 0 && started == len(exps):
		by, key = OrderByStarted, func(e SeriesExperiment) time.Time { return starts[e.Name] }
	default:
		return OrderAsGiven, checkAsGiven(exps, starts)
	}
	slices.SortStableFunc(exps, func(a, b SeriesExperiment) int {
		return cmp.Or(key(a).Compare(key(b)), cmpStart(starts, a.Name, b.Name))
	})
	return by, checkTies(exps, by, key, starts)
}

// seriesTimes returns the experiments' meta dates and their runs'
// earliest start times, by name, for those that have them, and how many
// of exps have each.
func seriesTimes(exps []SeriesExperiment) (dates, starts map[string]time.Time, dated, started int, err error) {
	dates = make(map[string]time.Time, len(exps))
	starts = make(map[string]time.Time, len(exps))
	for _, e := range exps {
		if e.Meta.Date != "" {
			d, err := ParseDate(e.Meta.Date)
			if err != nil {
				return nil, nil, 0, 0, fmt.Errorf("experiment %s: meta.%w", e.Name, err)
			}
			dates[e.Name] = d
			dated++
		}
		if first := firstStart(e.Verdict); first != nil {
			starts[e.Name] = *first
			started++
		}
	}
	return dates, starts, dated, started, nil
}

// firstStart returns the earliest start time of v's runs, or nil.
func firstStart(v *Verdict) *time.Time {
	var first *time.Time
	if v == nil {
		return nil
	}
	for _, r := range v.Runs {
		if r.StartedAt != nil && (first == nil || r.StartedAt.Before(*first)) {
			first = r.StartedAt
		}
	}
	return first
}

// checkAsGiven refuses the order given when it contradicts the start
// times known.
func checkAsGiven(exps []SeriesExperiment, starts map[string]time.Time) error {
	prev := ""
	for _, e := range exps {
		s, ok := starts[e.Name]
		if !ok {
			continue
		}
		if prev != "" && s.Before(starts[prev]) {
			return &OrderError{A: prev, B: e.Name, By: OrderAsGiven}
		}
		prev = e.Name
	}
	return nil
}

// checkTies refuses two sorted experiments that nothing orders: the same
// key, and (by date) no different start times.
func checkTies(exps []SeriesExperiment, by string, key func(SeriesExperiment) time.Time, starts map[string]time.Time) error {
	for i := 1; i < len(exps); i++ {
		a, b := exps[i-1], exps[i]
		if !key(a).Equal(key(b)) {
			continue
		}
		sa, oka := starts[a.Name]
		sb, okb := starts[b.Name]
		if by == OrderByDate && oka && okb && !sa.Equal(sb) {
			continue
		}
		x, y := min(a.Name, b.Name), max(a.Name, b.Name)
		return &OrderError{A: x, B: y, By: by, Value: valueOf(by, a)}
	}
	return nil
}

// cmpStart orders two experiments by their runs' start times, when both
// have them (0 otherwise: the tie stays, and OrderExperiments refuses it).
func cmpStart(starts map[string]time.Time, a, b string) int {
	sa, oka := starts[a]
	sb, okb := starts[b]
	if !oka || !okb {
		return 0
	}
	return sa.Compare(sb)
}

func valueOf(by string, e SeriesExperiment) string {
	if by == OrderByDate {
		return e.Meta.Date
	}
	return "the same run start time"
}

// OrderError says that the experiments of a series cannot be ordered.
type OrderError struct {
	// A and B are the experiments, By the order tried (OrderByDate,
	// OrderByStarted or OrderAsGiven), Value what they share. With By
	// OrderByDate, A and B are in name order; with OrderAsGiven, B was
	// given after A but its runs started before A's.
	A, B, By, Value string
	// Undated are the experiments without a meta.date when Dated others
	// have one.
	Undated []string
	Dated   int
}

func (e *OrderError) Error() string {
	switch {
	case len(e.Undated) > 0:
		others, them := fmt.Sprintf("the %d others have", e.Dated), "them"
		if e.Dated == 1 {
			others = "1 other has"
		}
		if len(e.Undated) == 1 {
			them = "it"
		}
		return fmt.Sprintf("%s no meta.date while %s one: the dates cannot place %s, so the series has no one order; "+
			"give every experiment a meta.date (RFC 3339, e.g. 2026-11-30T02:00:00Z), or none", nameList(e.Undated), others, them)
	case e.By == OrderByDate:
		return fmt.Sprintf("experiments %s and %s have the same meta.date %s and no run start times that tell which came first: "+
			"give meta.date a time of day (RFC 3339, e.g. 2026-11-30T02:00:00Z) so the series has one order", e.A, e.B, e.Value)
	case e.By == OrderAsGiven:
		return fmt.Sprintf("experiment %s is given after %s but its runs started before %s's, and not every experiment has a meta.date or run start times: "+
			"give each a meta.date (RFC 3339) so the series has one order", e.B, e.A, e.A)
	}
	return fmt.Sprintf("experiments %s and %s start at the same time and have no meta.date: give each a meta.date (RFC 3339) so the series has one order", e.A, e.B)
}

// nameList words experiments for OrderError: "experiment a has",
// "experiments a, b have".
func nameList(names []string) string {
	if len(names) == 1 {
		return "experiment " + names[0] + " has"
	}
	return "experiments " + strings.Join(names, ", ") + " have"
}

// PointStatus says whether an experiment's values of a track are used
// for change points.
type PointStatus string

// The point statuses.
const (
	// PointOK: steady, without errors: used.
	PointOK PointStatus = "ok"
	// PointNotSteady: the group has no steady state; all its runs stand
	// for it, and are used, marked.
	PointNotSteady PointStatus = "not-steady"
	// PointErrors: the group's error rate is at least
	// Options.ErrorRateSevere (shown, not used).
	PointErrors PointStatus = "errors"
	// PointDisturbed: the experiment differs from both its neighbours in
	// the same direction on DisturbedMetric while they agree with each
	// other: a one-off disturbance, not a change (shown, not used).
	PointDisturbed PointStatus = "disturbed"
)

// Point is one experiment's values of a track.
type Point struct {
	// Experiment is the index in History.Experiments.
	Experiment int
	Status     PointStatus
	// Runs are the group's runs, Steady its steady runs (0 without a
	// steady state: then all its runs stand for it).
	Runs, Steady int
	// ErrorRate is the mean error rate of the steady runs, with its CI.
	ErrorRate PointValue
	// DisturbedMetric and DisturbedWorse say on which metric, and in
	// which direction, a disturbed point differs from both neighbours.
	DisturbedMetric string
	DisturbedWorse  bool
	// runs are the runs the values stand for; all every run of the
	// group (the error check's, ErrorCheck).
	runs, all []results.Run
}

// PointValue is one experiment's value of a metric over its steady runs:
// the mean (rps, mean latency, error rate) or the median of the runs'
// values (p99), with its CI over the runs when there are enough (4 runs
// for a mean, 6 for a median); nil when a run lacks the metric.
type PointValue struct {
	Value *float64
	CI    *stats.CI
	// Runs are the values over the runs.
	Runs []float64
}

// Change is a change point of one metric of a track, confirmed three
// ways: E-Divisive found it (P), the experiment values on either side
// differ by Welch's t-test (WelchP < alpha), and the runs on either
// side differ by the tests of compare (Comparison decided, outside the
// practical band).
type Change struct {
	// At is the index in Track.Points of the first point after the
	// change; Before and After are the points of the segments on either
	// side, in Track.Points indices (used points only).
	At            int
	Before, After []int
	// Q and P are E-Divisive's statistic and permutation p-value.
	Q, P float64
	// WelchP is the p-value of Welch's t-test over the experiments'
	// values of the two segments.
	WelchP float64
	// Comparison compares the runs after (side a) with those before
	// (side b, the baseline).
	Comparison Comparison
	// Regression is true when after is worse than before.
	Regression bool
}

// Latest is the history check of a track's metric on the series' latest
// experiment: the last night of the sequential check, or undecided when
// the latest experiment cannot be used (errors, the metric missing).
type Latest struct {
	// Point is the latest point (the series' last experiment).
	Point int
	// Verdict is the check's verdict (Night.Verdict, or undecided).
	Verdict CheckVerdict
	// Night is the sequential check's last night; its Point is Point
	// unless Unusable.
	Night Night
	// Unusable says why the latest experiment could not be checked.
	Unusable *Reason
	// ShownFromPct is ShownFromPct of the latest experiment's test when
	// it was tested alone against a formed reference with no change open
	// (verdict no-change or improved); nil otherwise.
	ShownFromPct *float64
}

// MetricTrack is one metric of a track over the series.
type MetricTrack struct {
	Metric         string
	HigherIsBetter bool
	// Values are aligned with Track.Points.
	Values []PointValue
	// Changes are the confirmed change points in series order.
	Changes []Change
	// Unconfirmed counts E-Divisive's change points that the two-level
	// confirmation refused.
	Unconfirmed int
	// RelativeChanges are the change points found and confirmed the same
	// way over each experiment's value over the control's (Ratios, the
	// runs over the control's runs): what the history check reads. Nil
	// without a control and for the control's own track;
	// RelativeUnconfirmed counts the refused ones.
	RelativeChanges     []Change
	RelativeUnconfirmed int
	// Check is the sequential history check over the track's points.
	Check Sequential
	// Latest is the check of the latest experiment, when the track ran in it.
	Latest *Latest
	// Gated tells whether the gate and the headline read this metric's
	// check (gatedMetric); the others are shown.
	Gated bool
	// Relative is true when Check is over each experiment's value over
	// the control's value at the same settings in the same experiment
	// (Options.Control; Ratios has them): what the machine did that
	// night cancels.
	Relative bool
	// Ratios are the values over the control's (nil where either is
	// missing), aligned with Values; nil without a control.
	Ratios []*float64
}

// Track is one system at one settings across the series.
type Track struct {
	System   string
	Settings Settings
	Points   []Point
	Metrics  []MetricTrack
	// Control is true for the control system's tracks (Options.Control):
	// shown, never gated; the other systems are checked relative to the
	// control's track at the same settings (MetricTrack.Relative).
	Control bool
	// key is the system and settings (the track's identity).
	key string
	// ErrorChecks are the error checks of the points (aligned with
	// Points); Errors the latest experiment's, when the track ran in it.
	ErrorChecks []ErrorCheck
	Errors      *ErrorCheck
}

// ControlError is a control (Options.Control) that is no system of the
// series.
type ControlError struct {
	Control string
	Systems []string
}

func (e *ControlError) Error() string {
	return fmt.Sprintf("analyze: the control %q is not a system of the series (its systems: %s)", e.Control, strings.Join(e.Systems, ", "))
}

// HistoryGateReason is one condition a history meets: regression,
// drift or inconclusive (undecided) of a metric of a track on the latest
// experiment; errors (Metric -1): the track's error check of the latest
// experiment (Track.Errors) failed; or no-comparison (Track and Metric
// -1): the series has earlier experiments, but none of the latest
// experiment's systems and settings ran in them, so nothing of it could
// be checked.
type HistoryGateReason struct {
	Condition gate.Condition
	// Fails is true when the condition fails the gate (the gate policy, Options.GatePolicy);
	// Allowed when it would but Options.Allow names it.
	Fails, Allowed bool
	// Track and Metric index History.Tracks and its Metrics (-1 for
	// no-comparison; Metric -1 for errors).
	Track, Metric int
	// WorsePct is how much worse (regression, undecided: the estimate;
	// drift: the cumulative change), percent; MaxPct the regression
	// allowed.
	WorsePct, MaxPct float64
}

// History is the analysis of a series of experiments.
type History struct {
	Series string
	// OrderBy is how the experiments were ordered (OrderExperiments).
	OrderBy string
	// Earlier is the number of experiments before Experiments that were
	// left out (the caller keeps the latest MaxSeriesExperiments).
	Earlier     int
	Experiments []SeriesExperiment
	Tracks      []Track
	Options     Options
	// Policy is the gate's policy (Options.GatePolicy, the check asked
	// for) and ErrorAlpha the level of the error check (ErrorNightAlpha).
	Policy     gate.Policy
	ErrorAlpha float64
	// Failed is the gate's decision over the latest checks; Reasons
	// every condition met, asked for (Fails) or not.
	Failed  bool
	Reasons []HistoryGateReason
	// Unread is the experiment after the latest one analysed of which no
	// run could be read (every input rejected or removed; MarkUnread),
	// "" when none: the series' latest night was not checked.
	Unread string
}

// MarkUnread records that experiment name, later than every experiment of
// the history, has no readable run: nothing of the series' latest night
// was checked, so the gate meets no-comparison (fails where a regression
// is guarded, as by default) instead of passing on the night before.
func (h *History) MarkUnread(name string) {
	h.Unread = name
	if !slices.ContainsFunc(h.Reasons, func(r HistoryGateReason) bool { return r.Track < 0 }) {
		h.addReason(HistoryGateReason{Condition: gate.NoComparison, Track: -1, Metric: -1, MaxPct: allowedPct(h.Options)})
	}
}

// MaxSeriesExperiments is the most experiments of a series analysed at
// once: the latest ones. E-Divisive's cost grows with the square of the
// runs (memory) and their square times the permutations (time).
const MaxSeriesExperiments = 200

// historyMetrics are the metrics whose change points are sought.
var historyMetrics = []gate.Metric{gate.RPS, gate.LatMeanMs, gate.LatP99Ms}

// AnalyzeHistory analyses a series: exps are its experiments in order
// (OrderExperiments), each with its Verdict. Per system and settings
// (a track), each experiment's steady values; per metric (throughput,
// mean latency, p99 where every used run reports it) the change points
// and the check of the latest experiment; per track the error check of
// every experiment (ErrorCheck); then the gate.
// docs/STATISTICS.md ("History") gives the method.
func AnalyzeHistory(series, orderBy string, exps []SeriesExperiment, opts Options) (*History, error) {
	if len(exps) == 0 {
		return nil, errors.New("analyze: a series needs at least one experiment")
	}
	h := &History{Series: series, OrderBy: orderBy, Experiments: exps, Options: opts, Policy: opts.GatePolicy(true), ErrorAlpha: ErrorNightAlpha(opts)}
	if err := h.buildTracks(); err != nil {
		return nil, err
	}
	last := len(exps) - 1
	checked := false // a gated check of the latest experiment had a reference
	for ti := range h.Tracks {
		if h.checkTrack(ti, last) {
			checked = true
		}
	}
	if !checked && last > 0 {
		// Nothing of the latest experiment had an earlier experiment to
		// be checked against: none of its systems and settings ran
		// before it (or only with errors).
		h.addReason(HistoryGateReason{Condition: gate.NoComparison, Track: -1, Metric: -1, MaxPct: allowedPct(opts)})
	}
	return h, nil
}

// buildTracks gathers the experiments' points into tracks (a system at
// its settings), in order, and checks that the control, when named, is
// one of them.
func (h *History) buildTracks() error {
	opts := h.Options
	idx := map[string]int{}
	for ei, e := range h.Experiments {
		if e.Verdict == nil {
			return fmt.Errorf("analyze: experiment %s has no verdict", e.Name)
		}
		for _, s := range e.Verdict.Systems {
			for gi := range s.Groups {
				g := &s.Groups[gi]
				k := s.Label + "\x00" + g.key()
				ti, ok := idx[k]
				if !ok {
					ti = len(h.Tracks)
					idx[k] = ti
					h.Tracks = append(h.Tracks, Track{System: s.Label, Settings: g.Settings, key: g.key(), Control: opts.Control != "" && s.Label == opts.Control})
				}
				h.Tracks[ti].Points = append(h.Tracks[ti].Points, h.point(ei, g))
			}
		}
	}
	slices.SortStableFunc(h.Tracks, func(a, b Track) int {
		x, y := a.Settings, b.Settings
		return cmp.Or(cmp.Compare(a.System, b.System),
			cmpOpt(x.TargetRPS, y.TargetRPS), cmpOpt(x.Connections, y.Connections),
			cmpOpt(x.Threads, y.Threads), cmpOpt(x.PlannedDurationS, y.PlannedDurationS), cmp.Compare(x.Tool, y.Tool))
	})
	if opts.Control != "" && !slices.ContainsFunc(h.Tracks, func(t Track) bool { return t.Control }) {
		var systems []string
		for _, t := range h.Tracks {
			if !slices.Contains(systems, t.System) {
				systems = append(systems, t.System)
			}
		}
		return &ControlError{Control: opts.Control, Systems: systems}
	}
	return nil
}

// checkTrack checks track ti: its disturbed points, each metric's change
// points and latest check, its error checks, and the gate's reasons. It
// tells whether a gated check of the latest experiment (last) had a
// reference.
func (h *History) checkTrack(ti, last int) (checked bool) {
	opts := h.Options
	t := &h.Tracks[ti]
	h.markDisturbed(t)
	for _, m := range historyMetrics {
		t.Metrics = append(t.Metrics, h.metricTrack(t, m, last))
	}
	t.ErrorChecks = h.errorChecks(t)
	if n := len(t.Points); n > 0 && t.Points[n-1].Experiment == last {
		t.Errors = &t.ErrorChecks[n-1]
	}
	// A latest experiment whose errors rose fails for that stated
	// reason (errors); its throughput and latency, unusable when its
	// error rate is severe, add no "undecided" of their own unless
	// errors is allowed (then they fail closed, as before).
	errorsStated := t.Errors != nil && t.Errors.Fails
	if errorsStated {
		checked = true
		h.addReason(HistoryGateReason{Condition: gate.Errors, Track: ti, Metric: -1, MaxPct: allowedPct(opts)})
	}
	errorsFail := errorsStated && h.Policy.Fails(gate.Errors)
	for mi, mt := range t.Metrics {
		l := mt.Latest
		if l == nil || !mt.Gated {
			continue
		}
		if errorsFail && l.Unusable != nil && l.Unusable.Code == ReasonErrors {
			checked = true
			continue
		}
		if l.Night.Test != nil || l.Unusable != nil || l.Night.Point == l.Point && h.Experiments[last].Accepted != "" {
			checked = true
		}
		if r, ok := metricReason(l, ti, mi, allowedPct(opts)); ok {
			h.addReason(r)
		}
	}
	return checked
}

// metricReason is the gate's reason for a metric's latest check, and
// false when the check raises none.
func metricReason(l *Latest, ti, mi int, maxPct float64) (HistoryGateReason, bool) {
	r := HistoryGateReason{Track: ti, Metric: mi, MaxPct: maxPct}
	if nt := l.Night.Test; nt != nil {
		r.WorsePct = nt.WorsePct
	}
	switch l.Verdict {
	case CheckRegression:
		r.Condition = gate.Regression
	case CheckDrift:
		r.Condition, r.WorsePct = gate.Drift, l.Night.Drift.CumulativePct
	case CheckUndecided:
		r.Condition = gate.Inconclusive
	default:
		return r, false
	}
	return r, true
}

// addReason decides a condition by the gate policy. Running history is
// asking for its check (as compare's OLD is): the regression conditions
// (regression, drift, inconclusive, no-comparison) are guarded by default,
// and Options.Allow removes them by name.
func (h *History) addReason(r HistoryGateReason) {
	p := h.Policy
	r.Fails = p.Fails(r.Condition)
	r.Allowed = p.Guards(r.Condition) && p.Allowed(r.Condition)
	h.Failed = h.Failed || r.Fails
	h.Reasons = append(h.Reasons, r)
}

// point is an experiment's point of a group.
func (h *History) point(ei int, g *Group) Point {
	runs, steady := g.RepRuns()
	p := Point{Experiment: ei, Status: PointOK, Runs: len(g.Runs), Steady: len(runs), runs: runs, all: g.Runs}
	if !steady {
		// All its runs stand for it, and the point says so.
		p.Status, p.Steady, p.runs = PointNotSteady, 0, g.Runs
	}
	p.ErrorRate = h.value(p.runs, gate.ErrorRate)
	if p.ErrorRate.Value != nil && *p.ErrorRate.Value >= h.Options.ErrorRateSevere {
		p.Status = PointErrors
	}
	return p
}

// value is the value of a metric over runs, with its CI (as a threshold
// check computes it).
func (h *History) value(runs []results.Run, m gate.Metric) PointValue {
	o := h.Options
	x, missing := metricValues(runs, m)
	if missing > 0 || len(x) == 0 {
		return PointValue{}
	}
	pv := PointValue{Runs: x}
	var v float64
	if medianMetric(m) {
		v = stats.Median(x)
		if ci, err := stats.MedianCI(x, o.Level); err == nil {
			pv.CI = &ci
		}
	} else {
		v = stats.Mean(x)
		if len(x) >= o.MinRuns {
			if ci, err := stats.SteadyStateCI(x, o.Resamples, o.Level, o.Seed); err == nil {
				pv.CI = &ci
			}
		}
	}
	pv.Value = &v
	return pv
}

// compareRuns compares run values a (side a) with b (side b, the
// baseline) by compare's tests (testRuns), settled (Comparison.settle).
func (h *History) compareRuns(t *Track, m gate.Metric, a, b []float64) Comparison {
	c := h.testRuns(t, m, a, b)
	c.settle()
	return c
}

// testRuns is compareRuns' test; too few runs on a side is inconclusive.
func (h *History) testRuns(t *Track, m gate.Metric, a, b []float64) Comparison {
	o := h.Options
	c := Comparison{A: t.System, B: t.System, Settings: t.Settings, Metric: string(m), HigherIsBetter: HigherIsBetter(string(m)),
		ARuns: len(a), BRuns: len(b)}
	if len(a) > 0 && len(b) > 0 {
		c.AMean, c.BMean = stats.Mean(a), stats.Mean(b)
		if c.BMean != 0 {
			c.Ratio = c.AMean / c.BMean
		}
	}
	if len(a) < o.MinRuns || len(b) < o.MinRuns {
		c.RunsNeeded = runsNeeded(o, a, b, c.Ratio, len(a), len(b), true)
		c.Verdict = Inconclusive
		c.Reasons = append(c.Reasons, Reason{Code: ReasonTooFewRuns, MinRuns: o.MinRuns, Alpha: o.Alpha, ARuns: len(a), BRuns: len(b)})
		return c
	}
	if (m == gate.LatP99Ms) && t.Settings.LoadModel == results.LoadClosed {
		c.Reasons = append(c.Reasons, Reason{Code: ReasonClosedModelTails, Note: true})
	}
	c.test(a, b, o)
	return c
}

// significant tells whether the Mann-Whitney test separates a and b at
// alpha, with enough runs a side: a precondition of a decided comparison.
func (h *History) significant(a, b []float64) bool {
	if len(a) < h.Options.MinRuns || len(b) < h.Options.MinRuns {
		return false
	}
	_, p, err := stats.MannWhitney(a, b)
	return err == nil && p < h.Options.Alpha
}

// decided tells whether a comparison found a difference, and whether
// side a is the worse one.
func decided(c Comparison) (differ, aWorse bool) {
	return c.Verdict == AFaster || c.Verdict == BFaster, c.Verdict == BFaster
}

// markDisturbed marks the one-off disturbances: a point that differs from
// both its neighbours (among the points not yet marked) in the same
// direction, on throughput or a latency metric, by compare's tests. The
// point that differs most is marked first, then its neighbours are looked
// at again, so that a disturbed point makes no spike of its neighbour.
func (h *History) markDisturbed(t *Track) {
	var used []int
	for i, p := range t.Points {
		if p.Status != PointErrors {
			used = append(used, i)
		}
	}
	for {
		best, bestK := 0.0, -1
		var bestM gate.Metric
		var bestWorse bool
		for k := 1; k+1 < len(used); k++ {
			prev, cur, next := &t.Points[used[k-1]], &t.Points[used[k]], &t.Points[used[k+1]]
			for _, m := range historyMetrics {
				xp, missP := metricValues(prev.runs, m)
				xc, missC := metricValues(cur.runs, m)
				xn, missN := metricValues(next.runs, m)
				if missP+missC+missN > 0 {
					continue
				}
				if !h.significant(xc, xp) || !h.significant(xc, xn) {
					continue // cheap: the bootstrap only where it can decide
				}
				c1, c2 := h.compareRuns(t, m, xc, xp), h.compareRuns(t, m, xc, xn)
				d1, w1 := decided(c1)
				d2, w2 := decided(c2)
				if !d1 || !d2 || w1 != w2 {
					continue
				}
				if s := min(math.Abs(math.Log(c1.Ratio)), math.Abs(math.Log(c2.Ratio))); s > best {
					best, bestK, bestM, bestWorse = s, k, m, w1
				}
			}
		}
		if bestK < 0 {
			return
		}
		p := &t.Points[used[bestK]]
		p.Status, p.DisturbedMetric, p.DisturbedWorse = PointDisturbed, string(bestM), bestWorse
		used = slices.Delete(used, bestK, bestK+1)
	}
}

// metricTrack finds the change points of one metric of a track (and,
// with a control, those over the control's) and checks its latest
// experiment (the series' experiment last).
func (h *History) metricTrack(t *Track, m gate.Metric, last int) MetricTrack {
	mt := MetricTrack{Metric: string(m), HigherIsBetter: HigherIsBetter(string(m))}
	var used []int // points with the metric, usable
	for i, p := range t.Points {
		v := h.value(p.runs, m)
		mt.Values = append(mt.Values, v)
		if (p.Status == PointOK || p.Status == PointNotSteady) && v.Value != nil {
			used = append(used, i)
		}
	}
	mt.Changes, mt.Unconfirmed = h.confirmedChanges(t, m, used, mt.Values)
	in, ratios, ctl := h.nightInputs(t, m, mt.Values)
	mt.Check, mt.Latest = h.check(t, m, mt.Values, in, ctl, last)
	mt.Ratios = ratios
	if ctl {
		// The same change points over each experiment's value over the
		// control's: the code's own moves, the machine's cancelled.
		rel := make([]PointValue, len(in))
		var relUsed []int
		for _, i := range used {
			if ratios[i] != nil {
				v := *ratios[i]
				rel[i] = PointValue{Value: &v, Runs: in[i].Runs}
				relUsed = append(relUsed, i)
			}
		}
		mt.RelativeChanges, mt.RelativeUnconfirmed = h.confirmedChanges(t, m, relUsed, rel)
	}
	mt.Gated = gatedMetric(t.Settings.LoadModel, m) && !t.Control
	mt.Relative = h.Options.Control != "" && !t.Control
	return mt
}

// confirmedChanges finds the change points of values (one per point of
// track t) over the used points by E-Divisive and confirms them: it drops
// the change point with the largest p among those whose neighbouring
// segments do not differ both ways (Welch's t-test over the experiments'
// values, compare's tests over the runs), until all do. It returns them
// in series order with the count dropped.
func (h *History) confirmedChanges(t *Track, m gate.Metric, used []int, values []PointValue) (changes []Change, unconfirmed int) {
	o := h.Options
	runsOf := func(pts []int) []float64 {
		var x []float64
		for _, i := range pts {
			x = append(x, values[i].Runs...)
		}
		return x
	}
	valuesOf := func(pts []int) []float64 {
		var x []float64
		for _, i := range pts {
			x = append(x, *values[i].Value)
		}
		return x
	}
	cps := changePoints(used, values, o)
	// Confirm: drop the change point with the largest p among those
	// whose neighbouring segments do not differ both ways, until all do.
	for {
		segs := segments(used, cps)
		worst := -1
		var found []Change
		for j, cp := range cps {
			before, after := segs[j], segs[j+1]
			c := Change{At: cp.at, Before: before, After: after, Q: cp.q, P: cp.p}
			_, _, wp, err := stats.WelchT(valuesOf(before), valuesOf(after))
			if err == nil {
				c.WelchP = wp
			} else {
				c.WelchP = 1
			}
			c.Comparison = h.compareRuns(t, m, runsOf(after), runsOf(before))
			differ, worse := decided(c.Comparison)
			c.Regression = worse
			if !(c.WelchP < o.Alpha && differ) {
				if worst < 0 || cp.p >= cps[worst].p {
					worst = j
				}
			}
			found = append(found, c)
		}
		if worst < 0 {
			return found, unconfirmed
		}
		cps = slices.Delete(cps, worst, worst+1)
		unconfirmed++
	}
}

// gatedMetric tells whether the history gate reads a metric of a track:
// under a closed workload model throughput (latency follows from it by
// Little's law, and a closed-loop client's latency carries its own
// scheduling: wrk's mean latency varied 4 to 8 ms between experiments
// whose throughput agreed within 1 %, testdata/truth/series); under an
// open model (throughput is the rate asked for) mean and p99 latency;
// every metric when the model is unknown.
func gatedMetric(model string, m gate.Metric) bool {
	switch model {
	case results.LoadClosed:
		return m == gate.RPS
	case results.LoadOpen:
		return m != gate.RPS
	}
	return true
}

// check runs the sequential history check over a metric of a track (its
// nights in, relative to the control's when ctl: nightInputs) and
// returns it with the check of the latest experiment (nil when the track
// did not run in it, or never measured the metric). A point is used when
// it has the metric, no errors and is no one-off disturbance (marked
// once its next experiment is in); the points before a pinned baseline
// are not.
func (h *History) check(t *Track, m gate.Metric, values []PointValue, in []NightInput, ctl bool, last int) (Sequential, *Latest) {
	o := h.Options
	if t.Control {
		// The control's own track is its values as measured, not over a
		// control's: SequentialCheck reads Options.Control so.
		o.Control = ""
	}
	seq := SequentialCheck(in, HigherIsBetter(string(m)), o)
	n := len(t.Points)
	if n == 0 || t.Points[n-1].Experiment != last || !slices.ContainsFunc(values, func(v PointValue) bool { return v.Value != nil }) {
		return seq, nil // not in the latest experiment, or the metric never measured
	}
	l := &Latest{Point: n - 1}
	if len(seq.Nights) > 0 {
		l.Night = seq.Nights[len(seq.Nights)-1]
	}
	p := t.Points[n-1]
	switch {
	case p.Status == PointErrors:
		l.Verdict, l.Unusable = CheckUndecided, &Reason{Code: ReasonErrors, System: t.System, Rate: *p.ErrorRate.Value}
	case !in[n-1].Used && ctl && values[n-1].Value != nil && p.Status != PointDisturbed:
		l.Verdict, l.Unusable = CheckUndecided, &Reason{Code: ReasonControlMissing, System: h.Options.Control, Metric: string(m)}
	case !in[n-1].Used:
		l.Verdict, l.Unusable = CheckUndecided, &Reason{Code: ReasonMetricMissing, Metric: string(m)}
	default:
		l.Verdict = l.Night.Verdict
		if nt := l.Night.Test; nt != nil && l.Night.Since < 0 && (l.Verdict == CheckNoChange || l.Verdict == CheckImproved) {
			if x := ShownFromPct(*nt, o); !math.IsNaN(x) {
				l.ShownFromPct = &x
			}
		}
	}
	return seq, l
}

// nightInputs are the sequential check's nights of a metric of track t:
// each point's value and runs, relative to the control's that night when
// there is a control (then ratios points at each night's ratio, and ctl
// is true).
func (h *History) nightInputs(t *Track, m gate.Metric, values []PointValue) (in []NightInput, ratios []*float64, ctl bool) {
	in = make([]NightInput, len(t.Points))
	pinned := -1
	for i, p := range t.Points {
		if h.Experiments[p.Experiment].Accepted == AcceptedBaseline {
			pinned = i
		}
	}
	cps := h.controlPoints(t)
	if cps != nil {
		ratios = make([]*float64, len(t.Points))
	}
	for i, p := range t.Points {
		v := values[i]
		in[i] = NightInput{Used: p.Status != PointErrors && p.Status != PointDisturbed && v.Value != nil && i >= pinned, Runs: v.Runs,
			Accepted: h.Experiments[p.Experiment].Accepted != ""}
		if v.Value != nil {
			in[i].Value = *v.Value
		}
		if cps == nil {
			continue
		}
		var cv PointValue
		if cp, ok := cps[p.Experiment]; ok && (cp.Status == PointOK || cp.Status == PointNotSteady) {
			cv = h.value(cp.runs, m)
		}
		if relativeToControl(&in[i], v, cv) {
			ratios[i] = &in[i].Value
		}
	}
	return in, ratios, cps != nil
}

// relativeToControl makes night in relative to the control's value cv
// that night: the value and runs over the control's value; the control's
// runs widen the night's noise. Without a control's value the night is
// not used, and it returns false.
func relativeToControl(in *NightInput, v, cv PointValue) bool {
	if cv.Value == nil || *cv.Value <= 0 || v.Value == nil {
		in.Used = false
		return false
	}
	in.Value = *v.Value / *cv.Value
	in.Runs = make([]float64, len(v.Runs))
	if len(cv.Runs) == len(v.Runs) && !slices.Contains(cv.Runs, 0) {
		// Paired run by run (interleaved in the same job): the machine's
		// moment cancels within the night too.
		for k, r := range v.Runs {
			in.Runs[k] = r / cv.Runs[k]
		}
		return true
	}
	for k, r := range v.Runs {
		in.Runs[k] = r / *cv.Value
	}
	in.ControlRuns = cv.Runs
	return true
}

// controlPoints is the control's points at the settings of track t, by
// experiment (nil without a control, or for the control's own track; an
// empty map when the control never ran at t's settings).
func (h *History) controlPoints(t *Track) map[int]Point {
	if h.Options.Control == "" || t.Control {
		return nil
	}
	m := map[int]Point{}
	for _, c := range h.Tracks {
		if c.Control && c.key == t.key {
			for _, p := range c.Points {
				m[p.Experiment] = p
			}
		}
	}
	return m
}

// candidate is a change point E-Divisive found: the point it starts at,
// its statistic and p-value.
type candidate struct {
	at   int
	q, p float64
}

// changePoints runs E-Divisive over the runs of the used points (blocks
// of runs, at least 2 points a side) and returns its change points in
// series order.
func changePoints(used []int, values []PointValue, o Options) []candidate {
	var x []float64
	var blocks []int
	start := map[int]int{} // first run index -> point
	for _, i := range used {
		start[len(x)] = i
		x = append(x, values[i].Runs...)
		blocks = append(blocks, len(values[i].Runs))
	}
	if len(used) < 4 {
		return nil
	}
	r, err := stats.EDivisive(x, stats.EDivisiveOptions{Blocks: blocks, MinBlocks: 2, SigLevel: o.Alpha, Seed: o.Seed})
	if err != nil {
		return nil
	}
	var out []candidate
	for _, c := range r.Changes {
		out = append(out, candidate{at: start[c.Index], q: c.Q, p: c.P})
	}
	slices.SortFunc(out, func(a, b candidate) int { return cmp.Compare(a.at, b.at) })
	return out
}

// segments cuts the used points at the change points.
func segments(used []int, cps []candidate) [][]int {
	segs := [][]int{{}}
	c := 0
	for _, i := range used {
		if c < len(cps) && i >= cps[c].at {
			segs = append(segs, []int{})
			c++
		}
		segs[len(segs)-1] = append(segs[len(segs)-1], i)
	}
	for len(segs) < len(cps)+1 {
		segs = append(segs, []int{})
	}
	return segs
}
