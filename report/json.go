package report

import (
	"encoding/json"
	"io"
	"math"
	"slices"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/stats"
)

// Summary is the document written as summary.json (docs/SCHEMA.md). Its
// field order is the order of the keys in the file.
type Summary struct {
	Experiment      string            `json:"experiment"`
	GeneratedBy     string            `json:"generated_by"`
	AnalysisVersion int               `json:"analysis_version"`
	Headline        string            `json:"headline"`
	Systems         []SummarySystem   `json:"systems"`
	Endpoints       []SummaryEndpoint `json:"endpoints,omitempty"`
	Errors          []SummaryErrors   `json:"errors,omitempty"`
	Comparisons     []SummaryCompare  `json:"comparisons"`
	// ErrorComparisons compare the error rates of the pairs compared.
	ErrorComparisons []SummaryErrorCompare `json:"error_comparisons,omitempty"`
	Thresholds       []SummaryCheck        `json:"thresholds"`
	Gate             SummaryGate           `json:"gate"`
	Findings         []SummaryFinding      `json:"findings"`
	Warnings         []string              `json:"warnings"`
	Options          analyze.Options       `json:"options"`
	Runs             []SummaryRunBrief     `json:"runs"`
	// Copies are runs left out as copies of others (Meta.Copies).
	Copies []Copy `json:"copies,omitempty"`
}

// SummaryAt is the settings two systems were compared at (or a threshold
// checked at), as a comparison's fields of summary.json (embedded: its
// fields are the comparison's own).
type SummaryAt struct {
	Tool string `json:"tool"`
	SummaryLoad
	Endpoint *string `json:"endpoint,omitempty"`
}

func summaryAt(s analyze.Settings) SummaryAt {
	return SummaryAt{Tool: s.Tool, SummaryLoad: summaryLoad(s), Endpoint: s.Endpoint}
}

// SummaryLoad is the load of analyze.Settings as every object of
// summary.json with settings has it (embedded: a group, a comparison, a
// threshold check, an endpoint), null where the runs do not say.
type SummaryLoad struct {
	Connections      *int32   `json:"connections"`
	Threads          *int32   `json:"threads"`
	TargetRPS        *float64 `json:"target_rps"`
	PlannedDurationS *float64 `json:"planned_duration_s"`
}

func summaryLoad(s analyze.Settings) SummaryLoad {
	return SummaryLoad{Connections: s.Connections, Threads: s.Threads, TargetRPS: s.TargetRPS, PlannedDurationS: s.PlannedDurationS}
}

// SummaryErrorCompare is an error comparison (analyze.ErrorComparison):
// rates are fractions, the difference and its CI percentage points.
type SummaryErrorCompare struct {
	A string `json:"a"`
	B string `json:"b"`
	SummaryAt
	ARuns      int         `json:"a_runs"`
	BRuns      int         `json:"b_runs"`
	AErrors    int64       `json:"a_errors"`
	BErrors    int64       `json:"b_errors"`
	AAttempted int64       `json:"a_attempted"`
	BAttempted int64       `json:"b_attempted"`
	ARate      float64     `json:"a_rate"`
	BRate      float64     `json:"b_rate"`
	DiffPts    float64     `json:"diff_pts"`
	CIPts      [2]*float64 `json:"ci_pts"`
	PValue     *float64    `json:"p_value"`
	Method     string      `json:"method"`
	Untested   string      `json:"untested,omitempty"`
	BandPts    float64     `json:"band_pts"`
	Verdict    string      `json:"verdict"`
}

// summaryErrorCompare converts an error comparison.
func summaryErrorCompare(e analyze.ErrorComparison) SummaryErrorCompare {
	s := SummaryErrorCompare{A: e.A, B: e.B, SummaryAt: summaryAt(e.Settings),
		ARuns: e.ARuns, BRuns: e.BRuns, AErrors: e.AErrors, BErrors: e.BErrors, AAttempted: e.AAttempted, BAttempted: e.BAttempted,
		ARate: sig(e.ARate, 6), BRate: sig(e.BRate, 6), DiffPts: round(e.DiffPts, 4), Method: e.Method, Untested: e.Untested,
		BandPts: e.BandPts, Verdict: e.Verdict}
	if e.Lo != nil && e.Hi != nil {
		s.CIPts = [2]*float64{ptr(round(*e.Lo, 4)), ptr(round(*e.Hi, 4))}
	}
	if e.PValue != nil {
		s.PValue = ptr(sig(*e.PValue, 6))
	}
	return s
}

// SummarySystem is one system under test.
type SummarySystem struct {
	Label           string           `json:"label"`
	Runs            int              `json:"runs"`
	Groups          []SummaryGroup   `json:"groups"`
	WithinRunWarmup []SummaryRunWarm `json:"within_run_warmup"`
	Capacity        SummaryCapacity  `json:"capacity"`
}

// SummaryGroup is a system's runs at equal settings.
type SummaryGroup struct {
	Tool      string `json:"tool"`
	LoadModel string `json:"load_model"`
	SummaryLoad
	Endpoint  *string        `json:"endpoint,omitempty"`
	Runs      int            `json:"runs"`
	RunIDs    []string       `json:"run_ids"`
	Seqs      []int32        `json:"seqs"`
	Warmup    SummaryWarmup  `json:"warmup"`
	WithinRun *SummaryWarmup `json:"within_run"`
	Steady    SummarySteady  `json:"steady"`
	// Numbers are the group's figures a reader looks for first, over
	// its steady runs, else its only or last run.
	Numbers *SummaryNumbers `json:"numbers"`
	// Excluded are the runs at these settings left out of the group's
	// statistics because their own figures contradict each other.
	Excluded []SummaryExcluded `json:"excluded,omitempty"`
	// Outlier is the group's outlier round (analyze.OutlierRun), left
	// out of its warm-up model and steady figures; omitted when none.
	Outlier *SummaryOutlier `json:"outlier,omitempty"`
}

// SummaryOutlier is a group's outlier round and the rule's figures.
type SummaryOutlier struct {
	RunID        string  `json:"run_id"`
	Seq          int32   `json:"seq"`
	RPS          float64 `json:"rps"`
	Mean         float64 `json:"others_mean"`
	SDPct        float64 `json:"others_sd_pct"`
	DeviationPct float64 `json:"deviation_pct"`
	T            float64 `json:"t"`
	Critical     float64 `json:"critical"`
	Reference    int     `json:"others"`
}

// SummaryExcluded is a run left out of its group's statistics.
type SummaryExcluded struct {
	RunID  string `json:"run_id"`
	Seq    int32  `json:"seq"`
	Reason string `json:"reason"`
}

// SummaryWarmup is a warm-up classification.
type SummaryWarmup struct {
	Class         string   `json:"class"`
	Good          *bool    `json:"good,omitempty"`
	SteadyFromSeq *int32   `json:"steady_from_seq"`
	ChangePct     *float64 `json:"change_pct"`
	// Direction is the direction of the change that decided the class:
	// improving or worsening (analysis version 5); absent for flat.
	Direction string `json:"direction,omitempty"`
	Method    string `json:"method"`
	Detail    string `json:"detail"`
	// Shift is a change of level that stayed (across runs).
	Shift *analyze.Shift `json:"shift,omitempty"`
	// UnstableRuns is how many of the group's runs kept leaving their
	// level (within runs).
	UnstableRuns int `json:"unstable_runs,omitempty"`
}

// SummarySteady is a group's steady-state performance.
type SummarySteady struct {
	Runs int `json:"runs"`
	// FromS is set when the figures come from one run's windows: the
	// second of the run its steady state starts at.
	FromS     *float64    `json:"from_s,omitempty"`
	RPSMean   *float64    `json:"rps_mean"`
	RPSCI     [2]*float64 `json:"rps_ci"`
	CIMethod  string      `json:"ci_method,omitempty"`
	LatMeanMs *float64    `json:"lat_mean_ms"`
	LatP99Ms  *float64    `json:"lat_p99_ms"`
	LatMaxMs  *float64    `json:"lat_max_ms"`
}

// SummaryRunWarm is the within-run warm-up of one run.
type SummaryRunWarm struct {
	RunID      string   `json:"run_id"`
	Seq        int32    `json:"seq"`
	Class      string   `json:"class"`
	Direction  string   `json:"direction,omitempty"` // improving or worsening (analysis version 5)
	WarmupEndS *float64 `json:"warmup_end_s"`
	MSEREndS   *float64 `json:"mser5_end_s"`
	Windows    int      `json:"windows"`
	Method     string   `json:"method"`
	Detail     string   `json:"detail"`
	// Instability is how the run's windows kept leaving their level.
	Instability *SummaryInstability `json:"instability,omitempty"`
}

// SummaryInstability is how a run's windows kept leaving their level.
type SummaryInstability struct {
	Class         string       `json:"class"` // "periodic-stalls", "stall" or "unstable"
	Stalls        int          `json:"stalls"`
	PeriodS       *float64     `json:"period_s"`
	ShareTime     float64      `json:"share_time"`
	ShareRequests float64      `json:"share_requests"`
	LevelMs       float64      `json:"level_ms"`
	StallMeanMs   float64      `json:"stall_mean_ms"`
	StallPeakMs   float64      `json:"stall_peak_ms"`
	StallS        float64      `json:"stall_s"`
	Spans         [][2]float64 `json:"spans"`
}

// SummaryCapacity is what a system's runs say about its capacity.
type SummaryCapacity struct {
	Saturated        bool            `json:"saturated"`
	SaturatedAt      *int32          `json:"saturated_at"`
	SaturationDetail string          `json:"saturation_detail,omitempty"`
	LittlesLawRatio  []float64       `json:"littles_law_ratio"`
	Levels           []analyze.Level `json:"levels"`
	USL              *stats.USLFit   `json:"usl"`
}

// SummaryCompare is one comparison of two systems on one metric.
type SummaryCompare struct {
	A string `json:"a"`
	B string `json:"b"`
	SummaryAt
	Metric         string `json:"metric"`
	HigherIsBetter bool   `json:"higher_is_better"`
	// ARuns and BRuns are the runs the comparison rests on: those its
	// test compared, or the runs held when no test ran; AHeld and BHeld
	// the runs each side's group holds; LeftOut the runs the test did
	// not use, and why.
	ARuns   int              `json:"a_runs"`
	BRuns   int              `json:"b_runs"`
	AHeld   int              `json:"a_held"`
	BHeld   int              `json:"b_held"`
	LeftOut []SummaryLeftOut `json:"left_out"`
	// MinP is the smallest two-sided p the exact test can give for
	// a_runs against b_runs: 2/C(a_runs+b_runs, a_runs).
	MinP float64 `json:"min_p"`
	// Aggregate is how a_mean and b_mean sum up each side's runs:
	// "mean-of-runs" or "median-of-runs".
	Aggregate string      `json:"aggregate"`
	AMean     float64     `json:"a_mean"`
	BMean     float64     `json:"b_mean"`
	Ratio     float64     `json:"ratio"`
	CI        [2]*float64 `json:"ci"`
	PValue    *float64    `json:"p_value"`
	// Estimate is what decides the verdict: the Hodges-Lehmann ratio a/b
	// with its CI; null when no test ran.
	Estimate   *SummaryEstimate `json:"estimate"`
	Verdict    string           `json:"verdict"`
	Reasons    []string         `json:"reasons"`
	RunsNeeded *int             `json:"runs_needed"`
}

// SummaryLeftOut is a run a comparison's test did not use.
type SummaryLeftOut struct {
	Side  string `json:"side"` // "a" or "b"
	RunID string `json:"run_id"`
	Seq   int32  `json:"seq"`
	// Why is "warm-up", "contradictory" or "metric-missing".
	Why string `json:"why"`
}

// SummaryEstimate is the estimate that decides a comparison.
type SummaryEstimate struct {
	Method string      `json:"method"`
	Ratio  float64     `json:"ratio"`
	CI     [2]*float64 `json:"ci"`
}

// SummaryCheck is one threshold checked on one system at one settings.
type SummaryCheck struct {
	Threshold string  `json:"threshold"`
	Metric    string  `json:"metric"`
	Op        string  `json:"op"`
	Limit     float64 `json:"limit"`
	System    string  `json:"system"`
	SummaryAt
	Status string `json:"status"`
	// Aggregate is how value sums up the runs: "mean-of-runs" or
	// "median-of-runs" (as a comparison of the metric).
	Aggregate string      `json:"aggregate"`
	Value     *float64    `json:"value"`
	CI        [2]*float64 `json:"ci"`
	Runs      int         `json:"runs"`
	Steady    bool        `json:"steady"`
	Detail    string      `json:"detail"`
}

// SummaryGate is the gate's decision: FailOn are the conditions that fail
// it under its policy (gate.Policy.Failing), Allow those allowed by name,
// AllowedRegressionPct the regression that does not fail it
// (max_regression_pct, never less than the practical band).
type SummaryGate struct {
	FailOn               []string            `json:"fail_on"`
	Allow                []string            `json:"allow"`
	MaxRegressionPct     float64             `json:"max_regression_pct"`
	AllowedRegressionPct float64             `json:"allowed_regression_pct"`
	Failed               bool                `json:"failed"`
	Reasons              []SummaryGateReason `json:"reasons"`
}

// SummaryGateReason is one condition the verdict meets; Fails is true
// when it fails the gate, Allowed when it would have but was allowed by
// name.
type SummaryGateReason struct {
	Condition string `json:"condition"`
	Fails     bool   `json:"fails"`
	Allowed   bool   `json:"allowed"`
	Message   string `json:"message"`
}

// NewSummaryGate returns the summary of a gate decided under policy p
// (analyze.DecideGate), without its reasons: history's summary.json uses
// it too.
func NewSummaryGate(p gate.Policy, maxPct, allowedPct float64, failed bool) SummaryGate {
	g := SummaryGate{FailOn: []string{}, Allow: []string{}, MaxRegressionPct: maxPct, AllowedRegressionPct: round(allowedPct, 2),
		Failed: failed, Reasons: []SummaryGateReason{}}
	for _, c := range p.Failing() {
		g.FailOn = append(g.FailOn, string(c))
	}
	for _, c := range p.Allow {
		g.Allow = append(g.Allow, string(c))
	}
	return g
}

// SummaryFinding is a methodology finding with its fix.
type SummaryFinding struct {
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Subject  string `json:"subject"`
	Message  string `json:"message"`
	Fix      string `json:"fix"`
}

// SummaryRunBrief names a run the verdict covers and where it came from
// (the run's own columns are in the runs table, not here).
type SummaryRunBrief struct {
	analyze.RunRef
	Source string `json:"source"`
	Line   int32  `json:"source_line"`
	// Parts are the runs merged into this one at analysis, if any.
	Parts []Part `json:"parts,omitempty"`
	// Numbers are the run's own figures.
	Numbers *SummaryNumbers `json:"numbers,omitempty"`
}

// NewSummary converts a Verdict to the summary.json document. generatedBy
// names the producer, e.g. "loadverdict v0.1.0". Figures are rounded to
// what the data supports (rates and latencies to 0.01, percentages to 0.1,
// ratios to 0.001, p-values to 6 significant digits) so that the file is
// stable and readable.
func NewSummary(v *analyze.Verdict, generatedBy string) *Summary {
	s := &Summary{
		Experiment: v.Experiment, GeneratedBy: generatedBy, AnalysisVersion: v.AnalysisVersion,
		Headline: Headline(v), Systems: []SummarySystem{}, Comparisons: []SummaryCompare{},
		Thresholds: summaryChecks(v), Gate: summaryGate(v),
		Findings: []SummaryFinding{}, Warnings: warningLines(v), Options: v.Options,
		Runs: []SummaryRunBrief{}, Endpoints: summaryEndpoints(v), Errors: summaryErrors(v),
	}
	for i, r := range v.Runs {
		s.Runs = append(s.Runs, SummaryRunBrief{RunRef: analyze.RunRef{RunID: r.RunID, Seq: r.Seq, Label: r.Label}, Source: r.Source, Line: r.SourceLine})
		if i < len(v.RunNumbers) {
			s.Runs[i].Numbers = summaryNumbers(v.RunNumbers[i], false)
		}
	}
	for _, sys := range v.Systems {
		ss := SummarySystem{Label: sys.Label, Runs: sys.Runs, Groups: []SummaryGroup{}, WithinRunWarmup: []SummaryRunWarm{}}
		for _, g := range sys.Groups {
			ss.Groups = append(ss.Groups, summaryGroup(g))
		}
		for _, w := range sys.WithinRunWarmup {
			ss.WithinRunWarmup = append(ss.WithinRunWarmup, summaryRunWarm(w))
		}
		ss.Capacity = summaryCapacity(sys.Capacity)
		s.Systems = append(s.Systems, ss)
	}
	for _, c := range v.Comparisons {
		s.Comparisons = append(s.Comparisons, summaryComparison(c))
	}
	for _, e := range v.ErrorComparisons {
		s.ErrorComparisons = append(s.ErrorComparisons, summaryErrorCompare(e))
	}
	for _, f := range v.Findings {
		w := wordFinding(f)
		s.Findings = append(s.Findings, SummaryFinding{Severity: string(f.Severity), Code: string(f.Code), Subject: w.Subject,
			Message: w.Message, Fix: w.Fix})
	}
	return s
}

// summaryGroup is a group of runs as summary.json has it.
func summaryGroup(g analyze.Group) SummaryGroup {
	sg := SummaryGroup{Tool: g.Tool, LoadModel: g.LoadModel, SummaryLoad: summaryLoad(g.Settings), Endpoint: g.Endpoint, Runs: len(g.Runs),
		RunIDs: g.RunIDs, Seqs: g.Seqs, Warmup: warmup(g.Warmup), Numbers: summaryNumbers(g.Numbers, true)}
	if g.WithinRun != nil {
		w := warmup(*g.WithinRun)
		sg.WithinRun = &w
	}
	for _, e := range g.Excluded {
		sg.Excluded = append(sg.Excluded, SummaryExcluded{RunID: e.Run.RunID, Seq: e.Run.Seq,
			Reason: wordFinding(analyze.Finding{Code: analyze.CodeContradictoryRun, Subject: analyze.Subject{Runs: []analyze.RunRef{e.Run}},
				Facts: analyze.ContradictoryFacts{Contradiction: e}}).Message})
	}
	if o := g.Outlier; o != nil {
		sg.Outlier = &SummaryOutlier{RunID: o.Run.RunID, Seq: o.Run.Seq, RPS: round(o.RPS, 2), Mean: round(o.Mean, 2),
			SDPct: round(o.SDPct, 1), DeviationPct: round(o.DeviationPct, 1), T: round(o.T, 2), Critical: round(o.Critical, 2), Reference: o.Reference}
	}
	st := g.Steady
	sg.Steady = SummarySteady{Runs: st.Runs, FromS: r2p(st.FromS), RPSMean: r2p(st.RPSMean), LatMeanMs: r2p(st.LatMeanMs),
		LatP99Ms: r2p(st.LatP99Ms), LatMaxMs: r2p(st.LatMaxMs)}
	if st.RPSCI != nil {
		sg.Steady.RPSCI = [2]*float64{ptr(round(st.RPSCI.Lo, 2)), ptr(round(st.RPSCI.Hi, 2))}
		sg.Steady.CIMethod = st.RPSCI.Method
	}
	return sg
}

// summaryRunWarm is a run's within-run warm-up as summary.json has it.
func summaryRunWarm(w analyze.RunWarmup) SummaryRunWarm {
	sw := SummaryRunWarm{RunID: w.RunID, Seq: w.Seq, Class: string(w.Class),
		Direction: string(w.Direction), WarmupEndS: r2p(w.WarmupEndS), MSEREndS: r2p(w.MSEREndS), Windows: w.Windows, Method: w.Method, Detail: runWarmupDetail(w)}
	if in := w.Instability; in != nil {
		si := &SummaryInstability{Class: string(in.Finding), Stalls: in.Excursions, PeriodS: r2p(in.PeriodS),
			ShareTime: round(in.ShareTime, 3), ShareRequests: round(in.ShareRequests, 3), LevelMs: round(in.LevelMs, 2),
			StallMeanMs: round(in.StallMeanMs, 2), StallPeakMs: round(in.StallPeakMs, 2), StallS: round(in.StallS, 2), Spans: [][2]float64{}}
		for _, sp := range in.Spans {
			si.Spans = append(si.Spans, [2]float64{round(sp.FromS, 2), round(sp.ToS, 2)})
		}
		sw.Instability = si
	}
	return sw
}

// summaryCapacity is a system's capacity as summary.json has it.
func summaryCapacity(c analyze.Capacity) SummaryCapacity {
	sc := SummaryCapacity{Saturated: c.Saturated, SaturatedAt: c.SaturatedAt, SaturationDetail: saturationText(c.Saturation),
		LittlesLawRatio: []float64{}, Levels: []analyze.Level{}}
	for _, r := range c.LittlesLawRatio {
		sc.LittlesLawRatio = append(sc.LittlesLawRatio, round(r, 2))
	}
	for _, l := range c.Levels {
		sc.Levels = append(sc.Levels, analyze.Level{Connections: l.Connections, RPS: round(l.RPS, 2), LatMeanMs: r2p(l.LatMeanMs), Runs: l.Runs})
	}
	if u := c.USL; u != nil {
		sc.USL = &stats.USLFit{Sigma: sig(u.Sigma, 6), Kappa: sig(u.Kappa, 6), Lambda: sig(u.Lambda, 6), NMax: u.NMax,
			XMax: round(u.XMax, 2), R2: round(u.R2, 4), NegativeSigma: u.NegativeSigma, NegativeKappa: u.NegativeKappa}
	}
	return sc
}

// summaryComparison is a comparison as summary.json has it.
func summaryComparison(c analyze.Comparison) SummaryCompare {
	sc := SummaryCompare{A: c.A, B: c.B, SummaryAt: summaryAt(c.Settings), Metric: c.Metric,
		HigherIsBetter: c.HigherIsBetter, ARuns: c.ARuns, BRuns: c.BRuns, AHeld: c.AHeld, BHeld: c.BHeld, LeftOut: []SummaryLeftOut{},
		MinP: sig(c.MinP, 4), Aggregate: c.Aggregate, AMean: round(c.AMean, 2), BMean: round(c.BMean, 2),
		Ratio: round(c.Ratio, 3), Verdict: c.Verdict, Reasons: reasonLines(c.Reasons, false), RunsNeeded: c.RunsNeeded}
	for _, l := range c.LeftOut {
		sc.LeftOut = append(sc.LeftOut, SummaryLeftOut{Side: l.Side, RunID: l.Run.RunID, Seq: l.Run.Seq, Why: l.Why})
	}
	if c.CI != nil {
		sc.CI = [2]*float64{ptr(round(c.CI.Lo, 3)), ptr(round(c.CI.Hi, 3))}
	}
	if c.PValue != nil {
		sc.PValue = ptr(sig(*c.PValue, 6))
	}
	if e := c.Estimate; e != nil {
		sc.Estimate = &SummaryEstimate{Method: e.Method, Ratio: round(e.Estimate, 3), CI: [2]*float64{ptr(round(e.Lo, 3)), nil}}
		if !math.IsInf(e.Hi, 1) {
			sc.Estimate.CI[1] = ptr(round(e.Hi, 3))
		}
	}
	return sc
}

// JSONMeta writes the summary.json of a Verdict: indented, keys in a
// fixed order, no HTML escaping, the same bytes for the same Verdict and
// meta (its generator and the parts of merged runs).
func JSONMeta(w io.Writer, v *analyze.Verdict, meta Meta) error {
	s := NewSummary(v, meta.GeneratedBy)
	for i := range s.Runs {
		s.Runs[i].Parts = meta.Parts[s.Runs[i].RunID]
	}
	s.Copies = meta.Copies
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// summaryChecks converts the threshold checks; a value is rounded as its
// metric's column is (error rates to 6 significant digits).
func summaryChecks(v *analyze.Verdict) []SummaryCheck {
	out := []SummaryCheck{}
	for _, c := range v.Thresholds {
		t := thresholdOf(v, c)
		rnd := func(x float64) float64 { return round(x, 2) }
		if t.Metric == gate.ErrorRate {
			rnd = func(x float64) float64 { return sig(x, 6) }
		}
		sc := SummaryCheck{Threshold: t.Expr, Metric: string(t.Metric), Op: string(t.Op), Limit: t.Limit, System: c.System,
			SummaryAt: summaryAt(c.Settings), Status: string(c.Status), Runs: c.Runs, Steady: c.Steady, Detail: checkValue(v, c),
			Aggregate: c.Aggregate}
		if c.Value != nil {
			sc.Value = ptr(rnd(*c.Value))
		}
		if c.CI != nil {
			sc.CI = [2]*float64{ptr(rnd(c.CI.Lo)), ptr(rnd(c.CI.Hi))}
		}
		out = append(out, sc)
	}
	return out
}

// summaryGate converts the gate's decision.
func summaryGate(v *analyze.Verdict) SummaryGate {
	return verdictSummaryGate(v.Gate, v.Options.MaxRegressionPct, func(r analyze.GateReason) string { return gateReasonText(v, r) })
}

// verdictSummaryGate is the summary of an experiment's gate g (a
// verdict's, or analyze.NoRunsGate's), each reason worded by text.
func verdictSummaryGate(g analyze.Gate, maxPct float64, text func(analyze.GateReason) string) SummaryGate {
	s := NewSummaryGate(g.Policy, maxPct, g.AllowedPct, g.Failed)
	// drift is history's condition: an experiment's gate never meets it.
	s.FailOn = slices.DeleteFunc(s.FailOn, func(c string) bool { return c == string(gate.Drift) })
	for _, r := range g.Reasons {
		s.Reasons = append(s.Reasons, SummaryGateReason{Condition: string(r.Condition), Fails: r.Fails, Allowed: r.Allowed, Message: text(r)})
	}
	return s
}

func warmup(w analyze.Warmup) SummaryWarmup {
	out := SummaryWarmup{Class: string(w.Class), Good: w.Good, SteadyFromSeq: w.SteadyFromSeq, Direction: string(w.Direction), Method: w.Method, Detail: warmupDetail(w),
		UnstableRuns: w.UnstableRuns}
	if sh := w.Shift; sh != nil {
		out.Shift = &analyze.Shift{AtSeq: sh.AtSeq, Before: round(sh.Before, 2), After: round(sh.After, 2), Direction: sh.Direction}
	}
	if w.ChangePct != nil {
		out.ChangePct = ptr(round(*w.ChangePct, 1))
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func round(x float64, d int) float64 {
	s := math.Pow10(d)
	return math.Round(x*s) / s
}

// sig rounds x to n significant digits.
func sig(x float64, n int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	d := n - 1 - int(math.Floor(math.Log10(math.Abs(x))))
	return round(x, d)
}

func r2p(p *float64) *float64 {
	if p == nil {
		return nil
	}
	return ptr(round(*p, 2))
}
