package analyze

import (
	"cmp"
	"slices"

	"github.com/loadverdict/loadverdict/results"
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
// docs/STATISTICS.md ("Methodology findings"); summary.json's findings
// carry it (docs/SCHEMA.md).
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

// RunRef names a run. Its JSON opens summary.json's runs[].
type RunRef struct {
	RunID string `json:"run_id"`
	Seq   int32  `json:"seq"`
	Label string `json:"label"`
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

func (v *Verdict) add(sev Severity, code Code, subject Subject, facts Facts) {
	v.Findings = append(v.Findings, Finding{Severity: sev, Code: code, Subject: subject, Facts: facts})
}

// findingContext is what the checks share: the run references by id (an
// experiment may hold 50,000 runs: no scan per lookup), the runs' series,
// and the runs whose stalls or pauses are findings (set by
// checkPeriodicPauses, read by checkLongTail).
type findingContext struct {
	byID    map[string]RunRef
	series  map[string][]results.Series
	stalled map[string]bool
}

// findingCheck is the check of one code, or of the codes one measurement
// tells apart, in analyze/finding_<code>.go; its wording is in
// report/finding_<code>.go.
type findingCheck struct {
	codes []Code
	check func(*Verdict, *findingContext)
}

// findingChecks are the methodology checks of STATISTICS.md. Findings of
// one code keep the order their check adds them in; periodic-pauses runs
// before long-tail, which leaves its runs out.
var findingChecks = []findingCheck{
	{[]Code{CodeCoordinatedOmission}, checkCoordinatedOmission},
	{[]Code{CodeShortRun}, checkShortRun},
	{[]Code{CodeSlowingDown}, checkSlowingDown},
	{[]Code{CodeStillWarming}, checkStillWarming},
	{[]Code{CodeOutlierRun}, checkOutlierRun},
	{[]Code{CodeLevelShift}, checkLevelShift},
	{[]Code{CodeUnstable, CodePeriodicStalls, CodeStall}, checkUnstable},
	{[]Code{CodeNoReplication}, checkNoReplication},
	{[]Code{CodeNotInterleaved}, checkNotInterleaved},
	{[]Code{CodeErrors}, checkErrors},
	{[]Code{CodeErrorBurst}, checkErrorBurst},
	{[]Code{CodeTargetsDiffer}, checkTargetsDiffer},
	{[]Code{CodeSameHost}, checkSameHost},
	{[]Code{CodeLittlesLaw}, checkLittlesLaw},
	{[]Code{CodeOverload}, checkOverload},
	{[]Code{CodeSaturated}, checkSaturated},
	{[]Code{CodeGeneratorBound}, checkGeneratorBound},
	{[]Code{CodeContradictoryRun}, checkContradictoryRun},
	{[]Code{CodePeriodicPauses}, checkPeriodicPauses},
	{[]Code{CodeLongTail}, checkLongTail},
	{[]Code{CodeSplitRun}, checkSplitRun},
	{[]Code{CodeRatesMerged}, checkRatesMerged},
}

// findings runs every check, then orders the findings by severity and
// code; report gives every finding a concrete fix.
func (v *Verdict) findings(series map[string][]results.Series) {
	fc := &findingContext{byID: make(map[string]RunRef, len(v.Runs)), series: series}
	for _, r := range v.Runs {
		if _, ok := fc.byID[r.RunID]; !ok {
			fc.byID[r.RunID] = runRef(r)
		}
	}
	for _, c := range findingChecks {
		c.check(v, fc)
	}
	sevRank := map[Severity]int{SeverityError: 0, SeverityWarning: 1, SeverityInfo: 2}
	slices.SortStableFunc(v.Findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(sevRank[a.Severity], sevRank[b.Severity]), cmp.Compare(a.Code, b.Code))
	})
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
