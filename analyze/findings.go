package analyze

import (
	"cmp"
	"math"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// Severity is how much a finding matters.
type Severity string

// Finding severities, most severe first.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// Code names a kind of finding: stable, kebab-case, documented in
// docs/SCHEMA.md and docs/STATISTICS.md.
type Code string

// Finding codes, with the Subject fields and the Facts type of each.
const (
	// CodeCoordinatedOmission: Subject.Tool, a closed-model tool, and
	// Subject.Runs, its runs; no Facts.
	CodeCoordinatedOmission Code = "coordinated-omission"
	// CodeShortRun: Subject.Runs, the short runs; ShortRunFacts.
	CodeShortRun Code = "short-run"
	// CodeNoReplication: Subject.Groups, the groups with too few runs;
	// NoReplicationFacts.
	CodeNoReplication Code = "no-replication"
	// CodeNotInterleaved: Subject.Systems (two) and Subject.Settings;
	// NotInterleavedFacts.
	CodeNotInterleaved Code = "not-interleaved"
	// CodeStillWarming: Subject.Systems (one) and Subject.Settings, with
	// Subject.WithinRuns when the runs themselves never settled;
	// StillWarmingFacts.
	CodeStillWarming Code = "still-warming"
	// CodeErrors: Subject.Systems (one) and Subject.Runs (one); ErrorsFacts.
	CodeErrors Code = "errors"
	// CodeTargetsDiffer: Subject.Systems (two); TargetsDifferFacts.
	CodeTargetsDiffer Code = "targets-differ"
	// CodeSameHost: Subject.Systems, those measured on a loopback
	// address; no Facts.
	CodeSameHost Code = "same-host"
	// CodeLittlesLaw: Subject.Systems (one) and Subject.Runs, the runs
	// whose ratio is off; LittlesLawFacts.
	CodeLittlesLaw Code = "littles-law"
	// CodeSaturated: Subject.Systems (one); SaturatedFacts.
	CodeSaturated Code = "saturated"
	// CodeLongTail: Subject.Systems (one) and Subject.Runs (one);
	// LongTailFacts.
	CodeLongTail Code = "long-tail"
	// CodeGeneratorBound: Subject.Systems (one), saturated with idle
	// connections (Little's law ratio below stats.LittleLow) on the
	// generator's host; no Facts.
	CodeGeneratorBound Code = "generator-bound"
	// CodeSplitRun: Subject.Systems (one), Subject.Settings and
	// Subject.Runs, runs of different sources that overlap in time at the
	// same system and settings: the outputs of several load generators
	// driving one test, which the manifest's merge: (or --merge) makes
	// one run; SplitRunFacts.
	CodeSplitRun Code = "split-run"
	// CodeOverload: Subject.Systems (one) and Subject.Settings, an
	// open-model group that achieved less than (1 - OpenShortfall) of
	// its requested rate in successful responses; OverloadFacts.
	CodeOverload Code = "overload"
	// CodeLevelShift: Subject.Systems (one) and Subject.Settings, whose
	// runs moved to another level that stayed (a drop, or a jump that is
	// not a warm-up); LevelShiftFacts.
	CodeLevelShift Code = "level-shift"
	// CodeSlowingDown: Subject.Systems (one) and Subject.Settings (with
	// Subject.WithinRuns and Subject.Runs when it happened inside runs),
	// whose performance kept getting worse and never levelled off;
	// SlowingDownFacts.
	CodeSlowingDown Code = "slowing-down"
	// CodeUnstable: Subject.Systems (one) and Subject.Runs (one), whose
	// windows kept leaving their level at irregular times;
	// InstabilityFacts.
	CodeUnstable Code = "unstable"
	// CodePeriodicStalls: as CodeUnstable, at a regular period
	// (InstabilityFacts.PeriodS).
	CodePeriodicStalls Code = "periodic-stalls"
	// CodeStall: as CodeUnstable, for a run that stalled once: one
	// window (or a few adjacent ones) at Options.StallFactor times its
	// level or more (InstabilityFacts.Spans[0]).
	CodeStall Code = "stall"
	// CodeErrorBurst: Subject.Systems (one) and Subject.Runs (one), whose
	// failed requests concentrate in time; ErrorBurstFacts.
	CodeErrorBurst Code = "error-burst"
	// CodeContradictoryRun: Subject.Systems (one) and Subject.Runs (one),
	// whose own latency figures contradict each other; ContradictoryFacts.
	CodeContradictoryRun Code = "contradictory-run"
	// CodeRatesMerged: Subject.Runs, runs whose requested rates were
	// inferred from what their tool measured and, within RateTolerance,
	// taken as one requested rate (one setting); RatesMergedFacts.
	CodeRatesMerged Code = "rates-merged"
	// CodeOutlierRun: Subject.Systems (one), Subject.Settings and
	// Subject.Runs (one), a round whose throughput lies far outside its
	// group's other rounds (Group.Outlier); OutlierRunFacts.
	CodeOutlierRun Code = "outlier-run"
	// CodePeriodicPauses: Subject.Systems (one) and Subject.Runs (one),
	// whose requests were held by short pauses at a regular interval,
	// found in the requests themselves (Set.Pauses); PeriodicPausesFacts.
	CodePeriodicPauses Code = "periodic-pauses"
)

// Finding is a methodology problem: what it is (Code), how much it
// matters (Severity), whom it concerns (Subject) and the figures behind it
// (Facts, one type per code; nil for codes whose subject says it all).
// Package report words the message and the fix.
type Finding struct {
	Severity Severity
	Code     Code
	Subject  Subject
	Facts    Facts
}

// Subject is whom a finding concerns. Which fields are set depends on the
// code (see the Code constants).
type Subject struct {
	Tool     string     // a load generator
	Systems  []string   // system labels
	Settings *Settings  // the settings of a group or of a comparison
	Runs     []RunRef   // runs, in execution order
	Groups   []GroupRef // groups of runs
	// WithinRuns is set when the finding is about what happened inside
	// the runs of a group rather than across them.
	WithinRuns bool
}

// RunRef names a run.
type RunRef struct {
	RunID string
	Seq   int32
	Label string
}

// GroupRef names a group of runs: a system at some settings.
type GroupRef struct {
	Label    string
	Settings Settings
	Runs     int
}

// Facts are the figures behind a finding. The concrete type depends on
// the finding's code: ShortRunFacts, NoReplicationFacts,
// NotInterleavedFacts, StillWarmingFacts, ErrorsFacts, TargetsDifferFacts,
// LittlesLawFacts, SaturatedFacts, LongTailFacts, OverloadFacts,
// LevelShiftFacts, SlowingDownFacts, InstabilityFacts, ContradictoryFacts,
// ErrorBurstFacts, RatesMergedFacts, OutlierRunFacts or
// PeriodicPausesFacts.
type Facts interface {
	facts()
}

// ShortRunFacts are the figures of a short-run finding.
type ShortRunFacts struct {
	Runs       int     // all runs of the experiment
	MinS, MaxS float64 // the shortest and the longest short run, seconds
	ThresholdS float64 // runs shorter than this are short
}

// NoReplicationFacts are the figures of a no-replication finding.
type NoReplicationFacts struct {
	MinRuns int // the fewest runs per system and settings a comparison needs
}

// NotInterleavedFacts are the figures of a not-interleaved finding.
type NotInterleavedFacts struct {
	First, Second string // the system that ran first, and the other
	// OrderFrom is what the order was read from: OrderStartTime, or
	// OrderArguments when a run of either group has no start time.
	OrderFrom string
}

// StillWarmingFacts are the figures of a still-warming finding.
type StillWarmingFacts struct {
	// ChangePct is the throughput change between the group's last two
	// runs, percent, FromSeq and ToSeq those runs (across runs).
	ChangePct      *float64
	FromSeq, ToSeq int32
	// Counts are the within-run classes of the group's runs (WithinRuns).
	Counts []stats.ClassCount
}

// ErrorsFacts are the figures of an errors finding.
type ErrorsFacts struct {
	Errors    int64   // failed requests
	Attempted int64   // requests attempted (Attempted)
	Rate      float64 // the error rate, Errors/Attempted (ErrorRate)
	// The breakdown, where the tool gives it.
	Connect, Read, Write, Timeouts, Non2xx *int64
}

// TargetsDifferFacts are the figures of a targets-differ finding.
type TargetsDifferFacts struct {
	PathsA, PathsB []string // the distinct request paths of each system
}

// LittlesLawFacts are the figures of a littles-law finding.
type LittlesLawFacts struct {
	Ratios []float64 // rps*mean latency/connections, one per Subject.Runs
}

// SaturatedFacts are the figures of a saturated finding.
type SaturatedFacts struct {
	At         *int32 // the concurrency from which throughput stops growing
	Saturation Saturation
}

// SplitRunFacts are the figures of a split-run finding.
type SplitRunFacts struct {
	Sources []string // the sources of Subject.Runs, in order
	// OverlapPct is the smallest overlap in time of two of the runs, in
	// percent of the shorter one.
	OverlapPct float64
}

// LongTailFacts are the figures of a long-tail finding.
type LongTailFacts struct {
	MaxMs, MeanMs float64
}

// OverloadFacts are the figures of an overload finding.
type OverloadFacts struct {
	// TargetRPS is the requested rate, RPS the achieved rate of
	// successful responses, SentRPS the rate requests were sent at (when
	// known), all of the group's representative (last or steady) runs.
	TargetRPS, RPS float64
	SentRPS        *float64
	// ErrorRate is the share of the requests of the group's last run that
	// failed (ErrorRate), when known.
	ErrorRate *float64
}

// LevelShiftFacts are the figures of a level-shift finding: the
// throughput of the group's runs moved from Before to After at AtSeq.
type LevelShiftFacts struct {
	Metric        string // MetricRPS
	AtSeq         int32
	Before, After float64
	// ChangePct is After relative to Before, percent.
	ChangePct float64
	// Direction is improving for a jump in throughput, worsening for a drop.
	Direction stats.Direction
}

// SlowingDownFacts are the figures of a slowing-down finding.
type SlowingDownFacts struct {
	Metric string // MetricRPS across runs; within runs the windows' MetricLatP50Ms (or MetricLatMeanMs)
	// Change is the fitted change over the series (Theil-Sen) in the
	// metric's unit, ChangePct relative to its median; Over is the
	// number of runs, or the seconds of the run, it happened over.
	Change, ChangePct, Over float64
	// LastTwo is set across runs when no trend was fitted (2-4 runs, or
	// a step inside the last quarter of the series): Change and ChangePct
	// are then the change between the runs FromSeq and ToSeq.
	LastTwo        bool
	FromSeq, ToSeq int32
}

// Code returns the code of the finding that reports in: periodic-stalls
// when its excursions recur at a regular period, stall for one
// excursion (a stall), unstable otherwise.
func (in *Instability) Code() Code {
	switch {
	case in.Periodic:
		return CodePeriodicStalls
	case in.Excursions == 1:
		return CodeStall
	}
	return CodeUnstable
}

// InstabilityFacts are the figures of an unstable, stall or
// periodic-stalls finding: the run's Instability.
type InstabilityFacts struct {
	Instability
}

// ContradictoryFacts are the figures of a contradictory-run finding.
type ContradictoryFacts struct {
	Contradiction
}

func (OverloadFacts) facts()       {}
func (LevelShiftFacts) facts()     {}
func (SlowingDownFacts) facts()    {}
func (InstabilityFacts) facts()    {}
func (ContradictoryFacts) facts()  {}
func (ShortRunFacts) facts()       {}
func (NoReplicationFacts) facts()  {}
func (NotInterleavedFacts) facts() {}
func (StillWarmingFacts) facts()   {}
func (ErrorsFacts) facts()         {}
func (TargetsDifferFacts) facts()  {}
func (LittlesLawFacts) facts()     {}
func (SaturatedFacts) facts()      {}
func (LongTailFacts) facts()       {}
func (SplitRunFacts) facts()       {}

func (v *Verdict) add(sev Severity, code Code, subject Subject, facts Facts) {
	v.Findings = append(v.Findings, Finding{Severity: sev, Code: code, Subject: subject, Facts: facts})
}

// findings runs the methodology checks of STATISTICS.md; report gives
// every finding a concrete fix.
func (v *Verdict) findings(series map[string][]results.Series) {
	o := v.Options
	runs := v.Runs
	// byID looks up run references without a scan of every run per
	// lookup (an experiment may hold 50,000 runs).
	byID := make(map[string]RunRef, len(runs))
	for _, r := range runs {
		if _, ok := byID[r.RunID]; !ok {
			byID[r.RunID] = runRef(r)
		}
	}

	// coordinated-omission: per closed-model tool.
	closed := map[string][]RunRef{}
	for _, r := range runs {
		if r.LoadModel == results.LoadClosed {
			closed[r.Tool] = append(closed[r.Tool], runRef(r))
		}
	}
	for _, tool := range sortedKeys(closed) {
		v.add(SeverityWarning, CodeCoordinatedOmission, Subject{Tool: tool, Runs: closed[tool]}, nil)
	}

	// short-run
	const shortRunSlack = 0.01
	var short []results.Run
	for _, r := range runs {
		d := r.DurationS
		if d <= 0 && r.PlannedDurationS != nil {
			d = *r.PlannedDurationS
		}
		// A run that lasted its planned duration within 1 % (29.999 s of a
		// planned 30 s) is not "under" it: the threshold has the same slack.
		if d > 0 && d < o.ShortRunS*(1-shortRunSlack) {
			short = append(short, r)
		}
	}
	if len(short) > 0 {
		lo, hi := math.Inf(1), math.Inf(-1)
		var refs []RunRef
		for _, r := range short {
			lo, hi = math.Min(lo, r.DurationS), math.Max(hi, r.DurationS)
			refs = append(refs, runRef(r))
		}
		v.add(SeverityWarning, CodeShortRun, Subject{Runs: refs},
			ShortRunFacts{Runs: len(runs), MinS: lo, MaxS: hi, ThresholdS: o.ShortRunS})
	}

	// no-replication and still-warming, per system and settings.
	var thin []GroupRef
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			if len(g.Runs) < o.MinRuns && !v.decidablePartner(s.Label, g) {
				thin = append(thin, GroupRef{Label: s.Label, Settings: g.Settings, Runs: len(g.Runs)})
			}
			subj := Subject{Systems: []string{s.Label}, Settings: ptrTo(g.Settings)}
			// The series the model classified: without the outlier round.
			modelled := withoutOutlier(&g, g.Runs)
			switch {
			case g.Warmup.Class == stats.ClassNoSteadyState && g.Warmup.Direction == stats.Worsening:
				f := SlowingDownFacts{Metric: MetricRPS, Over: float64(len(modelled))}
				if t := g.Warmup.Basis.Trend; t != nil {
					f.Change, f.ChangePct = t.Change, 100*t.Change/t.Level
				} else if n := len(modelled); n >= 2 && g.Warmup.ChangePct != nil {
					f.LastTwo, f.FromSeq, f.ToSeq = true, modelled[n-2].Seq, modelled[n-1].Seq
					f.Change, f.ChangePct = modelled[n-1].RPS-modelled[n-2].RPS, *g.Warmup.ChangePct
				}
				v.add(SeverityWarning, CodeSlowingDown, subj, f)
			case g.Warmup.Class == stats.ClassNoSteadyState:
				f := StillWarmingFacts{ChangePct: g.Warmup.ChangePct}
				if n := len(modelled); n >= 2 {
					f.FromSeq, f.ToSeq = modelled[n-2].Seq, modelled[n-1].Seq
				}
				v.add(SeverityWarning, CodeStillWarming, subj, f)
			}
			if g.Outlier != nil {
				v.add(SeverityWarning, CodeOutlierRun, Subject{Systems: []string{s.Label}, Settings: ptrTo(g.Settings), Runs: []RunRef{g.Outlier.Run}},
					OutlierRunFacts{OutlierRun: *g.Outlier, SteadyRuns: g.Steady.Runs})
			}
			if sh := g.Warmup.Shift; sh != nil {
				v.add(SeverityWarning, CodeLevelShift, subj, LevelShiftFacts{Metric: MetricRPS, AtSeq: sh.AtSeq,
					Before: sh.Before, After: sh.After, ChangePct: 100 * (sh.After - sh.Before) / sh.Before, Direction: sh.Direction})
			}
			warming := false // a run of the group still improving at its end
			for _, rw := range s.WithinRunWarmup {
				if slices.Contains(g.RunIDs, rw.RunID) && rw.Class == stats.ClassNoSteadyState && rw.Direction != stats.Worsening {
					warming = true
				}
			}
			if g.WithinRun != nil && warming {
				v.add(SeverityWarning, CodeStillWarming, Subject{Systems: []string{s.Label}, Settings: ptrTo(g.Settings), WithinRuns: true},
					StillWarmingFacts{Counts: g.WithinRun.Basis.Counts})
			}
			for _, rw := range s.WithinRunWarmup {
				if !slices.Contains(g.RunIDs, rw.RunID) {
					continue
				}
				ref := refOf(byID, rw.RunID)
				if t := rw.Basis.Trend; t != nil && rw.Class == stats.ClassNoSteadyState && rw.Direction == stats.Worsening {
					v.add(SeverityWarning, CodeSlowingDown, Subject{Systems: []string{s.Label}, Settings: ptrTo(g.Settings), Runs: []RunRef{ref}, WithinRuns: true},
						SlowingDownFacts{Metric: rw.Basis.Metric, Change: t.Change, ChangePct: 100 * t.Change / t.Level, Over: rw.TrendOverS})
				}
				if in := rw.Instability; in != nil {
					v.add(SeverityWarning, in.Code(), Subject{Systems: []string{s.Label}, Runs: []RunRef{ref}}, InstabilityFacts{*in})
				}
			}
		}
	}
	if len(thin) > 0 {
		v.add(SeverityWarning, CodeNoReplication, Subject{Groups: thin}, NoReplicationFacts{MinRuns: o.MinRuns})
	}

	v.interleaving()

	// errors
	for _, r := range runs {
		if r.Errors <= 0 {
			continue
		}
		sev := SeverityWarning
		rate, _ := ErrorRate(r) // errors > 0, so the run attempted some
		if rate >= o.ErrorRateSevere {
			sev = SeverityError
		}
		v.add(sev, CodeErrors, Subject{Systems: []string{r.Label}, Runs: []RunRef{runRef(r)}},
			ErrorsFacts{Errors: r.Errors, Attempted: Attempted(r), Rate: rate, Connect: r.ConnectErrors, Read: r.ReadErrors,
				Write: r.WriteErrors, Timeouts: r.Timeouts, Non2xx: r.Non2xx})
	}

	v.errorBursts(series)
	v.targetsDiffer()

	// same-host
	var local []string
	for _, s := range v.Systems {
		for _, r := range runs {
			if r.Label == s.Label && isLoopback(r.Target) {
				local = append(local, s.Label)
				break
			}
		}
	}
	if len(local) > 0 {
		v.add(SeverityWarning, CodeSameHost, Subject{Systems: local}, nil)
	}

	// littles-law, saturated, generator-bound
	for _, s := range v.Systems {
		c := s.Capacity
		var off []RunRef
		var ratios []float64
		var low bool
		for i, ratio := range c.LittlesLawRatio {
			if ratio < stats.LittleLow || ratio > stats.LittleHigh {
				off = append(off, refOf(byID, c.LittlesLawRuns[i]))
				ratios = append(ratios, ratio)
				low = low || ratio < stats.LittleLow
			}
		}
		if len(off) > 0 {
			v.add(SeverityInfo, CodeLittlesLaw, Subject{Systems: []string{s.Label}, Runs: off}, LittlesLawFacts{Ratios: ratios})
		}
		if c.Saturated && c.Saturation.Kind == SaturationOpenShortfall {
			v.overload(s)
		} else if c.Saturated {
			v.add(SeverityWarning, CodeSaturated, Subject{Systems: []string{s.Label}},
				SaturatedFacts{At: c.SaturatedAt, Saturation: *c.Saturation})
			if low && slices.Contains(local, s.Label) {
				v.add(SeverityWarning, CodeGeneratorBound, Subject{Systems: []string{s.Label}}, nil)
			}
		}
	}

	// contradictory-run
	for _, c := range v.contradictions {
		v.add(SeverityWarning, CodeContradictoryRun, Subject{Systems: []string{c.Run.Label}, Runs: []RunRef{c.Run}}, ContradictoryFacts{c})
	}

	// periodic-pauses, for runs whose windows did not show their stalls
	// already; long-tail, unless the run's stalls or pauses are a finding
	// of their own
	unstable := map[string]bool{}
	for _, s := range v.Systems {
		for _, rw := range s.WithinRunWarmup {
			unstable[rw.RunID] = rw.Instability != nil
		}
	}
	var quiet []results.Run
	for _, r := range runs {
		if !unstable[r.RunID] {
			quiet = append(quiet, r)
		}
	}
	for id := range v.periodicPauses(quiet, v.pauses) {
		unstable[id] = true
	}
	for _, r := range runs {
		if unstable[r.RunID] {
			continue
		}
		if r.LatMaxMs != nil && r.LatMeanMs != nil && *r.LatMeanMs > 0 && *r.LatMaxMs > o.LongTailFactor**r.LatMeanMs {
			v.add(SeverityInfo, CodeLongTail, Subject{Systems: []string{r.Label}, Runs: []RunRef{runRef(r)}},
				LongTailFacts{MaxMs: *r.LatMaxMs, MeanMs: *r.LatMeanMs})
		}
	}

	// split-run
	v.splitRuns()

	sevRank := map[Severity]int{SeverityError: 0, SeverityWarning: 1, SeverityInfo: 2}
	slices.SortStableFunc(v.Findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(sevRank[a.Severity], sevRank[b.Severity]), cmp.Compare(a.Code, b.Code))
	})
}

// decidablePartner reports whether another system has a group at g's
// settings whose runs, against g's, a test could decide at alpha
// (decidable: the exact test, 3 runs against 8; Welch's t-test, 3
// against 3): then g's few runs are no obstacle, and no-replication does
// not name it.
func (v *Verdict) decidablePartner(label string, g Group) bool {
	for _, s := range v.Systems {
		if s.Label == label {
			continue
		}
		for _, h := range s.Groups {
			if h.key() == g.key() && decidable(len(g.Runs), len(h.Runs), v.Options.Alpha) {
				return true
			}
		}
	}
	return false
}

// overload records the overload finding of a system whose open-model
// group fell short of its requested rate (Capacity.Saturation). Groups of
// one endpoint are not it: capacity leaves them out, as a requested rate
// is the whole test's, shared across its endpoints.
func (v *Verdict) overload(s System) {
	sat := s.Capacity.Saturation
	f := OverloadFacts{TargetRPS: sat.TargetRPS, RPS: sat.RPS, SentRPS: sat.SentRPS}
	subj := Subject{Systems: []string{s.Label}}
	for _, g := range s.Groups {
		if g.Endpoint == nil && g.LoadModel == results.LoadOpen && g.TargetRPS != nil && *g.TargetRPS == sat.TargetRPS {
			subj.Settings = ptrTo(g.Settings)
			if rate, ok := ErrorRate(g.Runs[len(g.Runs)-1]); ok {
				f.ErrorRate = &rate
			}
			break
		}
	}
	v.add(SeverityError, CodeOverload, subj, f)
}

// The sources of a run order (NotInterleavedFacts.OrderFrom).
const (
	// OrderStartTime: the runs' own start times (runs.started_at).
	OrderStartTime = "start-time"
	// OrderArguments: the order the inputs were given in (runs.seq),
	// when some run has no start time.
	OrderArguments = "argument-order"
)

// interleaving flags pairs of systems whose runs at equal settings were
// not interleaved: all of one system's runs before all of the other's.
// The order is the runs' start times when every run of the two groups
// has one, else the order of the inputs (seq), and the finding says
// which.
func (v *Verdict) interleaving() {
	for i := range v.Systems {
		for j := i + 1; j < len(v.Systems); j++ {
			a, b := &v.Systems[i], &v.Systems[j]
			for _, ga := range a.Groups {
				for _, gb := range b.Groups {
					if ga.key() != gb.key() || len(ga.Runs) < 2 || len(gb.Runs) < 2 {
						continue
					}
					pa, pb, from := runOrder(ga.Runs), runOrder(gb.Runs), OrderStartTime
					if pa == nil || pb == nil {
						pa, pb, from = seqOrder(ga.Runs), seqOrder(gb.Runs), OrderArguments
					}
					amax, bmin := slices.Max(pa), slices.Min(pb)
					bmax, amin := slices.Max(pb), slices.Min(pa)
					if amax < bmin || bmax < amin {
						first, second := a.Label, b.Label
						if bmax < amin {
							first, second = second, first
						}
						v.add(SeverityWarning, CodeNotInterleaved, Subject{Systems: []string{a.Label, b.Label}, Settings: ptrTo(ga.Settings)},
							NotInterleavedFacts{First: first, Second: second, OrderFrom: from})
					}
				}
			}
		}
	}
}

// runOrder returns the runs' start times in nanoseconds since the epoch,
// or nil when one has none.
func runOrder(runs []results.Run) []int64 {
	out := make([]int64, len(runs))
	for i, r := range runs {
		if r.StartedAt == nil {
			return nil
		}
		out[i] = r.StartedAt.UnixNano()
	}
	return out
}

// seqOrder returns the runs' places in the order of the inputs.
func seqOrder(runs []results.Run) []int64 {
	out := make([]int64, len(runs))
	for i, r := range runs {
		out[i] = int64(r.Seq)
	}
	return out
}

// targetsDiffer flags compared systems measured on different paths.
func (v *Verdict) targetsDiffer() {
	seen := map[string]bool{}
	for _, c := range v.Comparisons {
		k := c.A + "\x00" + c.B
		if seen[k] {
			continue
		}
		seen[k] = true
		pa, pb := paths(v.Runs, c.A), paths(v.Runs, c.B)
		if len(pa) == 0 || len(pb) == 0 || slices.Equal(pa, pb) {
			continue
		}
		v.add(SeverityWarning, CodeTargetsDiffer, Subject{Systems: []string{c.A, c.B}}, TargetsDifferFacts{PathsA: pa, PathsB: pb})
	}
}

// splitOverlap is the overlap in time, as a share of the shorter run, from
// which two runs of different sources at the same system and settings
// look like parts of one test.
const splitOverlap = 0.5

// splitRuns finds, per group, the runs of different sources that overlap
// in time (each with at least one other by splitOverlap of the shorter):
// several load generators' outputs of one test, counted as repetitions
// unless merged. Runs without a start time cannot tell.
func (v *Verdict) splitRuns() {
	for _, sys := range v.Systems {
		for _, g := range sys.Groups {
			var rs []results.Run
			for _, r := range g.Runs {
				if r.StartedAt != nil && r.DurationS > 0 {
					rs = append(rs, r)
				}
			}
			parent := make([]int, len(rs))
			for i := range parent {
				parent[i] = i
			}
			var find func(int) int
			find = func(i int) int {
				for parent[i] != i {
					i = parent[i]
				}
				return i
			}
			minOverlap := map[int]float64{}
			for i := range rs {
				for j := i + 1; j < len(rs); j++ {
					a, b := rs[i], rs[j]
					if a.Source == b.Source {
						continue
					}
					as, bs := float64(a.StartedAt.UnixNano())/1e9, float64(b.StartedAt.UnixNano())/1e9
					ov := math.Min(as+a.DurationS, bs+b.DurationS) - math.Max(as, bs)
					share := ov / math.Min(a.DurationS, b.DurationS)
					if share < splitOverlap {
						continue
					}
					ri, rj := find(i), find(j)
					m := math.Min(share, math.Min(mapOr(minOverlap, ri, 1), mapOr(minOverlap, rj, 1)))
					parent[rj] = ri
					minOverlap[ri] = m
				}
			}
			clusters := map[int][]results.Run{}
			var roots []int
			for i := range rs {
				r := find(i)
				if _, ok := clusters[r]; !ok {
					roots = append(roots, r)
				}
				clusters[r] = append(clusters[r], rs[i])
			}
			for _, root := range roots {
				c := clusters[root]
				if len(c) < 2 {
					continue
				}
				var refs []RunRef
				var srcs []string
				for _, r := range c {
					refs = append(refs, runRef(r))
					if !slices.Contains(srcs, r.Source) {
						srcs = append(srcs, r.Source)
					}
				}
				settings := g.Settings
				v.add(SeverityWarning, CodeSplitRun, Subject{Systems: []string{sys.Label}, Settings: &settings, Runs: refs},
					SplitRunFacts{Sources: srcs, OverlapPct: 100 * math.Min(minOverlap[root], 1)})
			}
		}
	}
}

func mapOr(m map[int]float64, k int, def float64) float64 {
	if v, ok := m[k]; ok {
		return v
	}
	return def
}

// paths returns the distinct request paths (with query) of a system's runs.
func paths(runs []results.Run, label string) []string {
	var out []string
	for _, r := range runs {
		if r.Label != label || r.Target == "" {
			continue
		}
		p := r.Target
		if u, err := url.Parse(r.Target); err == nil && u.Host != "" {
			p = u.EscapedPath()
			if p == "" {
				p = "/"
			}
			if u.RawQuery != "" {
				p += "?" + u.RawQuery
			}
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// isLoopback tells whether a target URL names this machine.
func isLoopback(target string) bool {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		u, err = url.Parse("http://" + target)
		if err != nil {
			return false
		}
	}
	h := u.Hostname()
	if strings.EqualFold(h, "localhost") || strings.HasSuffix(strings.ToLower(h), ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

func runRef(r results.Run) RunRef { return RunRef{RunID: r.RunID, Seq: r.Seq, Label: r.Label} }

// refOf returns the reference of the run with the given id (byID: the
// first run of each id), looked up in a map: a search of the runs for
// every run cost time in the square of their number.
func refOf(byID map[string]RunRef, id string) RunRef {
	if r, ok := byID[id]; ok {
		return r
	}
	return RunRef{RunID: id, Seq: -1}
}

func ptrTo[T any](v T) *T { return &v }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
