package analyze

import (
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// Lead says what the headline leads with.
type Lead string

// The leads of a headline, in the order they take precedence: errors,
// then overload, then the main statement (a comparison, a system's state,
// or that nothing could be compared), which always follows.
const (
	// LeadErrors: groups failed more than Options.ErrorRateSevere of
	// their requests (Headline.Errors).
	LeadErrors Lead = "errors"
	// LeadOverload: open-model systems achieved too little of their
	// requested rate (Headline.Overloaded).
	LeadOverload Lead = "overload"
	// LeadComparison: the comparison at the settings with the most runs,
	// of throughput (closed model) or mean latency (open model; LeadMetric)
	// (Headline.Comparison).
	LeadComparison Lead = "comparison"
	// LeadSystem: the state of the only system (Headline.System).
	LeadSystem Lead = "system"
	// LeadNoComparison: several systems, but never at the same settings.
	LeadNoComparison Lead = "no-comparison"
)

// Headline is what the verdict's headline says, most important first:
// errors above Options.ErrorRateSevere, then overload, then the main
// statement: which comparison or system state, why a leading comparison
// is not established, and a latency comparison that disagrees with the
// throughput one. Closed-model saturation across concurrency levels is
// the normal shape of a ladder of runs and stays under capacity and in
// the findings. Package report words it.
type Headline struct {
	// Lead is what the headline leads with: LeadErrors, LeadOverload, or
	// Main.
	Lead Lead
	// Main is the main statement: LeadComparison, LeadSystem or
	// LeadNoComparison.
	Main Lead
	// Errors are the groups whose error rate (Group.ErrorRate) is at
	// least Options.ErrorRateSevere, in the order of systems and groups.
	Errors []ErrorLead
	// Overloaded are the indexes in Verdict.Systems of the systems
	// saturated by an open-model shortfall (SaturationOpenShortfall).
	Overloaded []int
	// Comparison is the index in Verdict.Comparisons of the leading
	// comparison (LeadComparison), else -1.
	Comparison int
	// System is the index in Verdict.Systems of the system (LeadSystem),
	// else -1.
	System int
	// Latency is the index in Verdict.Comparisons of a latency
	// comparison (p99, else mean) of the leading comparison's systems and
	// settings that is decided (AFaster or BFaster) and disagrees with the
	// throughput verdict, else -1: throughput decides "faster", and the
	// headline says both.
	Latency int
	// Why are the obstacles of an inconclusive leading comparison, in
	// order: ReasonTooFewRuns (MinRuns, MinP, ARuns, BRuns) or
	// ReasonFewSteadyRuns (as the comparison has them), then per side
	// without a steady state ReasonSingleRun (System) or ReasonNotSteady
	// (System, Class, ChangePct).
	Why []Reason
	// Undecided is, when the leading comparison is the median latency's,
	// the index of the comparison it stands in for: the lead metric's
	// (LeadMetric), tested and not decided while the medians were (one
	// disturbed run moves a run's mean and throughput far more than its
	// median). Else -1.
	Undecided int
}

// ErrorLead is a group that failed too many of its requests.
type ErrorLead struct {
	System   string
	Settings Settings
	// Rate is the group's error rate (Group.ErrorRate) over Runs runs,
	// those of RunIDs (the group's RepRuns).
	Rate   float64
	Runs   int
	RunIDs []string
}

// headline chooses what the headline says: errors, overload, then the
// throughput comparison at the settings with the most runs, or a single
// system's state.
func (v *Verdict) headline() Headline {
	h := Headline{Comparison: -1, System: -1, Latency: -1, Undecided: -1}
	for si := range v.Systems {
		s := &v.Systems[si]
		for gi := range s.Groups {
			g := &s.Groups[gi]
			if rate, ok := g.ErrorRate(); ok && rate >= v.Options.ErrorRateSevere {
				runs, _ := g.RepRuns()
				e := ErrorLead{System: s.Label, Settings: g.Settings, Rate: rate, Runs: len(runs)}
				for _, r := range runs {
					e.RunIDs = append(e.RunIDs, r.RunID)
				}
				h.Errors = append(h.Errors, e)
			}
		}
		if c := s.Capacity; c.Saturated && c.Saturation != nil && c.Saturation.Kind == SaturationOpenShortfall {
			h.Overloaded = append(h.Overloaded, si)
		}
	}
	h.Main = v.mainLead(&h)
	switch {
	case len(h.Errors) > 0:
		h.Lead = LeadErrors
	case len(h.Overloaded) > 0:
		h.Lead = LeadOverload
	default:
		h.Lead = h.Main
	}
	return h
}

// mainLead chooses the main statement and fills its fields of h.
func (v *Verdict) mainLead(h *Headline) Lead {
	best := -1
	for i := range v.Comparisons {
		c := &v.Comparisons[i]
		if c.Metric != LeadMetric(c.Settings) {
			continue
		}
		if n := c.ARuns + c.BRuns; n >= best {
			h.Comparison, best = i, n
		}
	}
	if h.Comparison < 0 {
		if len(v.Systems) == 1 {
			h.System = 0
			return LeadSystem
		}
		return LeadNoComparison
	}
	c := v.Comparisons[h.Comparison]
	// An undecided lead whose test ran stands aside for the median
	// latency's comparison of the same systems and settings when that
	// one is decided: the robust figure.
	if c.Verdict == Inconclusive && c.PValue != nil {
		if i := v.decided(c, MetricLatP50Ms); i >= 0 {
			h.Undecided, h.Comparison = h.Comparison, i
			c = v.Comparisons[i]
		}
	}
	if c.Verdict != Inconclusive {
		h.Latency = v.disagreeingLatency(c)
		return LeadComparison
	}
	for _, r := range c.Reasons {
		if r.Code == ReasonTooFewRuns || r.Code == ReasonFewSteadyRuns {
			h.Why = append(h.Why, r)
		}
	}
	for _, s := range []string{c.A, c.B} {
		g := v.Group(s, c.Settings)
		if g == nil || g.Warmup.SteadyFromSeq != nil {
			continue
		}
		if g.Warmup.Class == stats.ClassInsufficientData {
			h.Why = append(h.Why, Reason{Code: ReasonSingleRun, System: s})
		} else {
			h.Why = append(h.Why, Reason{Code: ReasonNotSteady, System: s, Class: g.Warmup.Class, ChangePct: g.Warmup.ChangePct})
		}
	}
	return LeadComparison
}

// LeadMetric is the metric a comparison at settings s is led with:
// throughput for a closed model (connections that send as fast as the
// system answers, so throughput measures it); mean latency for an open
// model (requests sent at a planned rate: the throughput is the rate the
// tool was asked for, and the system shows in its latency).
func LeadMetric(s Settings) string {
	if s.LoadModel == results.LoadOpen {
		return MetricLatMeanMs
	}
	return MetricRPS
}

// disagreeingLatency returns the index of the p99 (else p50, else mean) latency
// comparison of c's systems and settings that is decided and disagrees
// with c's verdict, or -1.
func (v *Verdict) disagreeingLatency(c Comparison) int {
	for _, m := range []string{MetricLatP99Ms, MetricLatP50Ms, MetricLatMeanMs} {
		if i := v.decided(c, m); i >= 0 && v.Comparisons[i].Verdict != c.Verdict {
			return i
		}
	}
	return -1
}

// decided returns the index of the comparison of metric m of c's systems
// and settings when it is decided (AFaster or BFaster), else -1.
func (v *Verdict) decided(c Comparison, m string) int {
	for i, l := range v.Comparisons {
		if l.Metric == m && l.A == c.A && l.B == c.B && l.Settings.Equal(c.Settings) &&
			(l.Verdict == AFaster || l.Verdict == BFaster) {
			return i
		}
	}
	return -1
}

// Group returns the group of a system at the given settings, or nil.
func (v *Verdict) Group(label string, s Settings) *Group {
	for i := range v.Systems {
		if v.Systems[i].Label != label {
			continue
		}
		for j := range v.Systems[i].Groups {
			if v.Systems[i].Groups[j].key() == s.key() {
				return &v.Systems[i].Groups[j]
			}
		}
	}
	return nil
}
