package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// AnalysisVersion is the version of the analysis: it changes whenever the
// same tables would give a different Verdict, so stored reports made by an
// older version can be found and re-made.
const AnalysisVersion = 16

// Options are the parameters of Analyze. DefaultOptions gives the values
// of docs/STATISTICS.md; a zero field is not a valid setting.
type Options struct {
	// Baseline is the label every other system is compared against (it
	// is side b of each comparison); empty compares systems pairwise in
	// the order they first ran.
	Baseline string `json:"baseline,omitempty"`

	PenaltyFactor float64 `json:"penalty_factor"` // PELT penalty = PenaltyFactor * ln(n)
	MinSegment    int     `json:"min_segment"`    // PELT minimum segment length
	Delta         float64 `json:"delta"`          // relative equivalence band of the classifier
	NoiseBand     float64 `json:"noise_band"`     // relative noise band of the 2-4 run rule
	MinWindows    int     `json:"min_windows"`    // fewest windows a within-run series needs

	Resamples int     `json:"resamples"` // bootstrap resamples
	Level     float64 `json:"level"`     // confidence level of intervals
	Seed      uint64  `json:"seed"`      // seed of every resampling, for reproducible output

	Alpha         float64 `json:"alpha"`          // significance level of the Mann-Whitney, step and trend tests
	Power         float64 `json:"power"`          // power for the runs-needed estimate
	PracticalBand float64 `json:"practical_band"` // relative difference too small to matter
	MinRuns       int     `json:"min_runs"`       // fewest runs per side for a comparison
	NullDraws     int     `json:"null_draws"`     // simulated series of the step test's null distribution

	ExcursionFactor float64 `json:"excursion_factor"` // a window at this many times the run's level (or more) is an excursion
	StallFactor     float64 `json:"stall_factor"`     // a window at this many times the run's level is a stall whatever the noise

	ShortRunS           float64 `json:"short_run_s"`           // runs shorter than this are flagged
	LongTailFactor      float64 `json:"long_tail_factor"`      // max > factor*mean is a long tail
	SaturationRPSGrowth float64 `json:"saturation_rps_growth"` // throughput growth below this ...
	SaturationLatGrowth float64 `json:"saturation_lat_growth"` // ... with latency growth above this is saturation
	OpenShortfall       float64 `json:"open_shortfall"`        // open model: achieved rate below (1-x)*target is saturation
	ErrorRateSevere     float64 `json:"error_rate_severe"`     // error rate from which errors are an error, not a warning
	ErrorBandPts        float64 `json:"error_band_pts"`        // difference of error rates too small to matter, percentage points

	// SLO are the thresholds evaluated on each system's steady values
	// (Verdict.Thresholds).
	SLO []gate.Threshold `json:"slo,omitempty"`
	// FailOn are conditions added explicitly to those that fail the
	// gate (Verdict.Gate, Options.GatePolicy).
	FailOn []gate.Condition `json:"fail_on,omitempty"`
	// Allow are conditions that do not fail the gate, by name; met, they
	// are reported as allowed.
	Allow []gate.Condition `json:"allow,omitempty"`
	// MaxRegressionPct is the largest regression, in percent, that does
	// not fail the gate.
	MaxRegressionPct float64 `json:"max_regression_pct,omitempty"`
	// Control is the label of a control system of a history (loadverdict
	// history --control, the manifest's history.control): an unchanged
	// reference build measured in every experiment of the series, in the
	// same job; the history checks every other system's ratio to it, so
	// that what the machine did that night cancels. Empty: none.
	Control string `json:"control,omitempty"`
}

// DefaultOptions returns the parameters of docs/STATISTICS.md.
func DefaultOptions() Options {
	return Options{
		PenaltyFactor:       stats.DefaultPenaltyFactor,
		MinSegment:          stats.DefaultMinSegment,
		Delta:               stats.DefaultShiftDelta,
		NoiseBand:           stats.DefaultNoiseBand,
		MinWindows:          10,
		Resamples:           stats.DefaultResamples,
		Level:               stats.DefaultLevel,
		Seed:                stats.DefaultSeed,
		Alpha:               stats.DefaultAlpha,
		Power:               stats.DefaultPower,
		PracticalBand:       0.02,
		MinRuns:             stats.MinRunsPerSide,
		NullDraws:           stats.DefaultNullDraws,
		ExcursionFactor:     stats.DefaultExcursionFactor,
		StallFactor:         stats.DefaultStallFactor,
		ShortRunS:           30,
		LongTailFactor:      10,
		SaturationRPSGrowth: 0.10,
		SaturationLatGrowth: 0.50,
		OpenShortfall:       0.10,
		ErrorRateSevere:     0.01,
		ErrorBandPts:        DefaultErrorBandPts,
	}
}

// Set is what Analyze reads: the rows of the normalized tables of one
// experiment. Series rows, when present, come from per-request samples.
type Set struct {
	Experiment  string
	Runs        []results.Run
	Percentiles []results.Percentile
	Series      []results.Series
	// Errors are the failed requests by cause of runs with per-request
	// data (an ErrorTally fed each run's samples), for Verdict.Errors;
	// runs without an entry are broken down by their counters.
	Errors []RunErrors
	// Pauses are the short pauses of runs with per-request data (a
	// PauseTally fed each run's samples), for the periodic-pauses
	// finding; runs without an entry are not searched.
	Pauses []RunPauses
}

// Verdict is the outcome of Analyze: per system its groups of runs with
// warm-up and steady state, the comparisons between systems, capacity, the
// methodology findings and what the headline leads with. It holds codes
// and figures only; package report words them.
type Verdict struct {
	Experiment      string
	AnalysisVersion int
	Headline        Headline
	Systems         []System
	Comparisons     []Comparison
	// ErrorComparisons compare the error rates of the pairs of
	// Comparisons, one per pair and settings (compareErrors).
	ErrorComparisons []ErrorComparison
	Findings         []Finding
	// Warnings are statistical caveats met while analysing (not errors).
	Warnings []Warning
	Options  Options
	// Defaults are the default options (DefaultOptions), those Options
	// are told as differing from.
	Defaults Options
	// Runs are the analysed runs in execution order.
	Runs []results.Run
	// RunNumbers are each run's Numbers, in the order of Runs.
	RunNumbers []Numbers

	// pauses are Set.Pauses.
	pauses []RunPauses
	// contradictions are the runs whose figures contradict each other,
	// in execution order.
	contradictions []Contradiction
	// mergedRates are the clusters of inferred requested rates taken as
	// one (mergeInferredRates), mergedRuns their runs.
	mergedRates []RatesMergedFacts
	mergedRuns  [][]RunRef
	// Thresholds are the checks of Options.SLO: per threshold, one per
	// system and settings it applies to.
	Thresholds []ThresholdCheck
	// Gate is the gate's decision (Options.FailOn).
	Gate Gate
	// Errors are the failed requests per system and endpoint, by status
	// and by cause, for the systems (endpoints) whose runs failed.
	Errors []ErrorBreakdown
}

// Settings are what make runs comparable: runs of one system at equal
// settings form a group.
type Settings struct {
	Tool             string
	LoadModel        string
	Threads          *int32
	Connections      *int32
	TargetRPS        *float64
	PlannedDurationS *float64
	// Endpoint is the request the runs are about (runs.endpoint), when
	// the tool split the test into several: the runs of one endpoint are
	// repetitions of each other, not those of another endpoint.
	Endpoint *string
}

// Equal reports whether two settings are the same, so that runs at them
// are comparable.
func (s Settings) Equal(o Settings) bool { return s.key() == o.key() }

// key identifies settings. A requested rate counts to 3 significant
// digits: vegeta's report and a per-request log give the rate they
// measured (2000.03 req/s for -rate=2000), so runs at one -rate would
// otherwise never share a group.
func (s Settings) key() string {
	rate := "-"
	if s.TargetRPS != nil {
		rate = strconv.FormatFloat(*s.TargetRPS, 'g', 3, 64)
	}
	ep := "-"
	if s.Endpoint != nil {
		ep = "=" + *s.Endpoint
	}
	return fmt.Sprintf("%s|%s|%s|%s|%s|%s|%s", s.Tool, s.LoadModel, keyOf(s.Threads), keyOf(s.Connections), rate, keyOf(s.PlannedDurationS), ep)
}

// keyOf formats an optional setting for Settings.key: "-" for none.
func keyOf[T int32 | float64](p *T) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

// Group is the runs of one system at the same settings, in execution order.
type Group struct {
	Settings
	// Runs are the runs the group's statistics use, in seq order: every
	// run at these settings but the Excluded ones.
	Runs   []results.Run
	RunIDs []string
	Seqs   []int32
	// Excluded are runs at these settings whose own figures contradict
	// each other, left out of every statistic of the group.
	Excluded []Contradiction
	// Outlier is the group's outlier round, when it has one (6 runs or
	// more): left out of its series model and steady figures, kept in its
	// comparisons, thresholds and error rate (OutlierRun).
	Outlier *OutlierRun
	// Warmup is the across-run warm-up class of the group's throughput.
	Warmup Warmup
	// WithinRun combines the within-run classes of the group's runs, when
	// they have per-request data.
	WithinRun *Warmup
	// Steady is the steady-state performance, when the group has one.
	Steady Steady
	// Rep is the group's representative performance: the steady-state
	// mean when there is one, otherwise the last (warmest) run.
	Rep Rep
	// Numbers are the group's figures a reader looks for first, over
	// its RepRuns.
	Numbers Numbers
}

// The warm-up methods, codes that summary.json shows as "method". Those
// before analysis version 5 name a method without code now: summaries of
// those versions still carry them.
const (
	MethodSingleRun   = "single-run"            // one run: nothing to classify
	MethodShortSeries = "short-series"          // 2-4 runs: stats.ClassifyShort
	MethodModel       = "series-model"          // 5+ runs (analysis version 5): stats.SelectModel
	MethodModelMSER   = "series-model+mser5"    // 20+ runs or a run's windows (analysis version 5): stats.SelectModel, MSER-5
	MethodStepTest    = "step-test+classify"    // before analysis version 5, 5-19 runs: the step test and the classifier
	MethodPELT        = "pelt+classify"         // PELT and the classifier (before analysis version 3: 5+ runs)
	MethodPELTMSER    = "pelt+classify+mser5"   // before analysis version 5, 20+ runs: PELT, the classifier, MSER-5
	MethodPerRun      = "pelt+classify per run" // a group's within-run classes combined
	MethodWithinRun   = "pelt+mser5"            // before analysis version 5, one run's windows: PELT, the classifier, MSER-5
)

// The metrics: what a comparison compares and what a warm-up class was
// found in (names of columns of the runs and series tables).
const (
	MetricRPS       = "rps"         // throughput, requests per second
	MetricLatMeanMs = "lat_mean_ms" // mean latency, ms
	MetricLatP50Ms  = "lat_p50_ms"  // median (p50) latency, ms
	MetricLatP99Ms  = "lat_p99_ms"  // p99 latency, ms
	MetricLatMaxMs  = "lat_max_ms"  // maximum latency, ms
)

// HigherIsBetter reports whether a larger value of the metric is better:
// true for throughput, false for latencies.
func HigherIsBetter(metric string) bool { return metric == MetricRPS }

// Warmup is a warm-up classification.
type Warmup struct {
	Class stats.Class
	// Good is set for the inconsistent class: true when the runs are only
	// flat and warmup.
	Good *bool
	// SteadyFromSeq is the first run (seq) of the steady state, when there is one.
	SteadyFromSeq *int32
	// ChangePct is the change between the last two runs in percent (2 or more runs).
	ChangePct *float64
	Method    string
	// Basis is what the class rests on.
	Basis Basis
	// Direction is the direction of the change that decided the class
	// (warmup: improving; slowdown: worsening; no-steady-state: either),
	// empty for flat and when it could not be told.
	Direction stats.Direction
	// Shift is the last change of level across runs that passed the
	// practical threshold and stayed (a level-shift finding), with its
	// direction; nil when the model has no step.
	Shift *Shift
	// UnstableRuns is, for a combination of runs' within-run classes
	// (MethodPerRun), how many of the runs stalled or kept leaving their
	// level (have an Instability).
	UnstableRuns int
}

// Shift is a change of level that stayed: the series moved to another
// level at a run and remained there. Its JSON is summary.json's
// warmup.shift (figures rounded there).
type Shift struct {
	AtSeq  int32   `json:"at_seq"` // the first run at the new level
	Before float64 `json:"before"` // the mean of the level before
	After  float64 `json:"after"`  // the mean of the runs at the new level
	// Direction is improving for a jump in throughput, worsening for a drop.
	Direction stats.Direction `json:"direction,omitempty"`
}

// Basis is what a warm-up classification rests on: the figures the
// report's "detail" is worded from. Which fields are set depends on the
// method; Err is set when no classification could be made.
type Basis struct {
	// Metric is the classified series: MetricRPS for the throughput of
	// runs, MetricLatP50Ms for the median latency of a run's windows
	// (MetricLatMeanMs when a window has no median);
	// empty for a combination of runs' classes.
	Metric string
	// N is the number of observations classified (runs or windows);
	// MinN, when set, is the fewest the method needs and N fell short.
	N, MinN int
	// BandPct is the half-width of the noise band of the short-series
	// rule, in percent; Improving tells whether the change between the
	// last two runs was in the better direction; ZeroBase that both were 0.
	BandPct   float64
	Improving bool
	ZeroBase  bool
	// Segments is the number of segments (PELT's or the step test's;
	// the levels of the selected shape for MethodModel).
	Segments int
	// Shape is the shape stats.SelectModel chose (MethodModel and
	// MethodModelMSER), and ThresholdPct the practical threshold it
	// applied, in percent.
	Shape        stats.Shape
	ThresholdPct float64
	// StepP is the p-value of the step test of the whole series
	// (MethodStepTest).
	StepP *float64
	// Trend is the trend test that found the series never levelled off
	// (the class is then no-steady-state or slowdown without a steady
	// state); nil when there was none.
	Trend *stats.Trend
	// MSER is the MSER-5 cross-check, when it ran.
	MSER *MSERCut
	// Counts are the classes of a group's runs (MethodPerRun).
	Counts []stats.ClassCount
	// Err is why the series could not be classified.
	Err error
}

// MSERCut is the outcome of MSER-5 on a series.
type MSERCut struct {
	Truncate      int  // observations (runs or windows) to discard as warm-up
	NeedsMoreData bool // the truncation point is at or beyond half the series
}

// Steady is a group's steady-state performance over its steady runs.
type Steady struct {
	// Runs is the number of runs the figures cover; a single run with
	// per-request data counts from its steady windows on (FromS).
	Runs int
	// FromS is set when the figures come from one run's windows: the
	// second of the run its steady state starts at (after its warm-up).
	FromS     *float64
	RPSMean   *float64
	RPSCI     *stats.CI
	LatMeanMs *float64
	// LatP50Ms, LatP99Ms and LatMaxMs are the medians of the steady runs'
	// p50, p99 and max: percentiles of different runs are never averaged.
	LatP50Ms *float64
	LatP99Ms *float64
	LatMaxMs *float64
}

// Rep is a group's representative performance and where it comes from.
type Rep struct {
	RPS       float64
	LatMeanMs *float64
	LatP50Ms  *float64
	LatP99Ms  *float64
	LatMaxMs  *float64
	// FromSteady is true when the values are steady-state means, false
	// when they are the last run's.
	FromSteady bool
}

// RunWarmup is the within-run warm-up of one run with per-request data.
type RunWarmup struct {
	RunID string
	Seq   int32
	Class stats.Class
	// Direction is the direction of the change that decided the class,
	// as Warmup's.
	Direction stats.Direction
	// WarmupEndS is the start of the steady state, seconds since the
	// run's start; nil when the run has none.
	WarmupEndS *float64
	MSEREndS   *float64 // MSER-5 truncation point, seconds, as a cross-check
	Windows    int
	Method     string
	Basis      Basis
	// Instability is set when the run's mean latency per window kept
	// leaving its level (recurring stalls or bursts).
	Instability *Instability
	// TrendFromS is where the windows begin that Basis.Trend was fitted
	// to, seconds since the run's start, and TrendOverS how long they
	// last (with Basis.Trend only).
	TrendFromS, TrendOverS float64
}

// Instability is how a run's windows kept leaving their level: the
// excursions found by stats.Excursions, in seconds and shares.
type Instability struct {
	Excursions int
	// Stalls counts the excursions whose worst window reached
	// Options.StallFactor times the level: freezes, whatever the noise.
	Stalls int
	// Periodic is true when they recur at a regular interval, PeriodS.
	Periodic bool
	PeriodS  *float64
	// ShareTime is the share of the run's windows in excursions and
	// ShareRequests that of its requests (sent in those windows).
	ShareTime, ShareRequests float64
	// LevelMs is the run's typical mean latency per window; StallMeanMs
	// the mean latency of the requests in the excursions' windows and
	// StallPeakMs the worst window's; StallS the median length of an
	// excursion, seconds (whole windows).
	LevelMs, StallMeanMs, StallPeakMs, StallS float64
	// Spans are the excursions, [FromS, ToS) seconds since the run's
	// start.
	Spans []Span
	// Finding is the code of the finding that reports it
	// (Instability.Code).
	Finding Code
}

// Span is a stretch of a run, seconds since its start.
type Span struct{ FromS, ToS float64 }

// Capacity is what a system's runs say about its capacity.
type Capacity struct {
	Saturated bool
	// SaturatedAt is the concurrency from which throughput stops growing.
	SaturatedAt *int32
	// Saturation is the evidence of saturation, when Saturated.
	Saturation *Saturation
	// LittlesLawRatio is rps*mean latency/connections per closed-model run, in seq order.
	LittlesLawRatio []float64
	LittlesLawRuns  []string
	// Levels are the representative points per concurrency level, ascending.
	Levels []Level
	USL    *stats.USLFit
}

// The kinds of saturation evidence.
const (
	// SaturationConcurrency: between two closed-model concurrency levels
	// throughput grew too little while mean latency grew too much.
	SaturationConcurrency = "concurrency"
	// SaturationOpenShortfall: an open-model group achieved too little
	// of its requested rate.
	SaturationOpenShortfall = "open-shortfall"
)

// Saturation is the evidence that a system is saturated.
type Saturation struct {
	Kind string // SaturationConcurrency or SaturationOpenShortfall
	// From and To are the two concurrency levels (SaturationConcurrency).
	From, To Level
	// TargetRPS is the requested and RPS the achieved (representative)
	// rate of successful responses (SaturationOpenShortfall); SentRPS,
	// when known, the rate at which requests were sent.
	TargetRPS, RPS float64
	SentRPS        *float64
}

// Level is a system's representative performance at one concurrency. Its
// JSON is summary.json's capacity.levels[] (figures rounded there).
type Level struct {
	Connections int32    `json:"connections"`
	RPS         float64  `json:"rps"`
	LatMeanMs   *float64 `json:"lat_mean_ms"`
	Runs        int      `json:"runs"`
}

// System is one system under test (one label).
type System struct {
	Label           string
	Runs            int
	Groups          []Group
	WithinRunWarmup []RunWarmup
	Capacity        Capacity
}

// Analyze builds the Verdict of an experiment. It does not modify set.
// Statistical caveats are recorded as Verdict.Warnings; the error is
// reserved for input it cannot analyse at all (no runs).
func Analyze(set Set, opts Options) (*Verdict, error) {
	if len(set.Runs) == 0 {
		return nil, fmt.Errorf("analyze: experiment %q has no runs", set.Experiment)
	}
	runs := slices.Clone(set.Runs)
	slices.SortStableFunc(runs, func(a, b results.Run) int {
		if a.StartedAt != nil && b.StartedAt != nil && !a.StartedAt.Equal(*b.StartedAt) {
			return a.StartedAt.Compare(*b.StartedAt)
		}
		return cmp.Compare(a.Seq, b.Seq)
	})
	merged, mergedRuns := mergeInferredRates(runs)
	v := &Verdict{Experiment: set.Experiment, AnalysisVersion: AnalysisVersion, Options: opts, Defaults: DefaultOptions(), Runs: runs, pauses: set.Pauses,
		mergedRates: merged, mergedRuns: mergedRuns}
	series := seriesByRun(set.Series)
	fillPercentiles(runs, set.Percentiles)
	pcts := map[string][]results.Percentile{}
	for _, p := range set.Percentiles {
		pcts[p.RunID] = append(pcts[p.RunID], p)
	}
	bad := map[string]Contradiction{}
	for _, r := range runs {
		if c, ok := contradiction(r, pcts[r.RunID]); ok {
			bad[r.RunID] = c
		}
	}

	for _, label := range labelsInOrder(runs) {
		sys := System{Label: label}
		for _, r := range runs {
			if r.Label == label {
				sys.Runs++
			}
		}
		sys.Groups = groupRuns(runs, label, bad)
		for _, r := range runs {
			if c, ok := bad[r.RunID]; ok && r.Label == label {
				for _, g := range sys.Groups {
					for _, e := range g.Excluded {
						if e.Run.RunID == r.RunID {
							c.Excluded = true
						}
					}
				}
				v.contradictions = append(v.contradictions, c)
			}
		}
		for gi := range sys.Groups {
			g := &sys.Groups[gi]
			v.acrossRunWarmup(g)
			rw := v.withinRunWarmup(g, series)
			v.runStalls(rw, series)
			v.steadyState(g, rw, series)
			if len(rw) > 0 {
				sys.WithinRunWarmup = append(sys.WithinRunWarmup, rw...)
				g.WithinRun = withinRunSummary(rw)
			}
		}
		sys.Capacity = v.capacity(sys)
		v.Systems = append(v.Systems, sys)
	}
	v.numbers(pcts)
	v.compare()
	v.compareErrors()
	v.findings(series)
	v.errorBreakdowns(set.Errors)
	v.thresholds()
	v.Headline = v.headline()
	v.Gate = v.gate()
	return v, nil
}

// withinRunSummary combines a group's within-run warm-ups (at least one)
// into the group's: their classes combined, the unstable runs counted.
func withinRunSummary(rw []RunWarmup) *Warmup {
	classes := make([]stats.Class, len(rw))
	for i, w := range rw {
		classes[i] = w.Class
	}
	class, good, counts := stats.CombineClasses(classes)
	w := &Warmup{Class: class, Method: MethodPerRun, Basis: Basis{Counts: counts}}
	for _, r := range rw {
		if r.Instability != nil {
			w.UnstableRuns++
		}
	}
	if class == stats.ClassInconsistent {
		w.Good = &good
	}
	return w
}

// labelsInOrder returns the labels in the order of their first run.
func labelsInOrder(runs []results.Run) []string {
	var labels []string
	seen := map[string]bool{}
	for _, r := range runs {
		if !seen[r.Label] {
			seen[r.Label] = true
			labels = append(labels, r.Label)
		}
	}
	return labels
}

func settingsOf(r results.Run) Settings {
	return Settings{Tool: r.Tool, LoadModel: r.LoadModel, Threads: r.Threads, Connections: r.Connections,
		TargetRPS: r.TargetRPS, PlannedDurationS: r.PlannedDurationS, Endpoint: r.Endpoint}
}

// groupRuns groups a system's runs by settings; groups are ordered by
// target rate, then connections, then threads, then first run. A run in
// bad is set aside in its group's Excluded, unless it is the group's only
// run.
func groupRuns(runs []results.Run, label string, bad map[string]Contradiction) []Group {
	idx := map[string]int{}
	var groups []Group
	for _, r := range runs {
		if r.Label != label {
			continue
		}
		s := settingsOf(r)
		k := s.key()
		i, ok := idx[k]
		if !ok {
			i = len(groups)
			idx[k] = i
			groups = append(groups, Group{Settings: s})
		}
		g := &groups[i]
		g.Runs = append(g.Runs, r)
	}
	for i := range groups {
		g := &groups[i]
		all := g.Runs
		g.Runs = nil
		for _, r := range all {
			if c, ok := bad[r.RunID]; ok && len(all) > 1 {
				c.Excluded = true
				g.Excluded = append(g.Excluded, c)
				continue
			}
			g.Runs = append(g.Runs, r)
		}
		if len(g.Runs) == 0 { // every run contradicts itself: keep them
			g.Runs, g.Excluded = all, nil
		}
		for _, r := range g.Runs {
			g.RunIDs = append(g.RunIDs, r.RunID)
			g.Seqs = append(g.Seqs, r.Seq)
		}
	}
	slices.SortStableFunc(groups, func(a, b Group) int {
		return cmp.Or(
			cmpOpt(a.TargetRPS, b.TargetRPS),
			cmpOpt(a.Connections, b.Connections),
			cmpOpt(a.Threads, b.Threads),
			cmpOpt(a.PlannedDurationS, b.PlannedDurationS),
			cmp.Compare(a.Tool, b.Tool),
			cmp.Compare(a.Seqs[0], b.Seqs[0]))
	})
	return groups
}

func cmpOpt[T cmp.Ordered](a, b *T) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return cmp.Compare(*a, *b)
}

// fillPercentiles sets missing p50/p90/p99/p99.9 copies of runs from the
// percentiles table, where it has those exact quantiles.
func fillPercentiles(runs []results.Run, pcts []results.Percentile) {
	byRun := map[string]map[float64]float64{}
	for _, p := range pcts {
		m := byRun[p.RunID]
		if m == nil {
			m = map[float64]float64{}
			byRun[p.RunID] = m
		}
		m[p.Quantile] = p.LatencyMs
	}
	for i := range runs {
		m := byRun[runs[i].RunID]
		if m == nil {
			continue
		}
		for _, c := range []struct {
			q   float64
			dst **float64
		}{{0.5, &runs[i].LatP50Ms}, {0.9, &runs[i].LatP90Ms}, {0.99, &runs[i].LatP99Ms}, {0.999, &runs[i].LatP999Ms}} {
			if *c.dst == nil {
				if v, ok := m[c.q]; ok {
					*c.dst = results.Ptr(v)
				}
			}
		}
	}
}

func seriesByRun(rows []results.Series) map[string][]results.Series {
	m := map[string][]results.Series{}
	for _, s := range rows {
		m[s.RunID] = append(m[s.RunID], s)
	}
	for _, s := range m {
		slices.SortStableFunc(s, func(a, b results.Series) int { return cmp.Compare(a.TS, b.TS) })
	}
	return m
}
