package analyze

import "github.com/loadverdict/loadverdict/stats"

// Lead says what the headline leads with.
type Lead string

// The leads of a headline.
const (
	// LeadComparison: the throughput comparison at the settings with the
	// most runs (Headline.Comparison).
	LeadComparison Lead = "comparison"
	// LeadSystem: the state of the only system (Headline.System).
	LeadSystem Lead = "system"
	// LeadNoComparison: several systems, but never at the same settings.
	LeadNoComparison Lead = "no-comparison"
)

// Headline is what the verdict's one quotable sentence says: which
// comparison or system state leads, and why a leading comparison is not
// established. Package report words it.
type Headline struct {
	Lead Lead
	// Comparison is the index in Verdict.Comparisons of the leading
	// comparison (LeadComparison), else -1.
	Comparison int
	// System is the index in Verdict.Systems of the system (LeadSystem),
	// else -1.
	System int
	// Why are the obstacles of an inconclusive leading comparison, in
	// order: ReasonTooFewRuns (MinRuns, ARuns, BRuns), then per side
	// without a steady state ReasonSingleRun (System) or ReasonNotSteady
	// (System, Class, ChangePct).
	Why []Reason
}

// headline chooses what the headline leads with: the throughput
// comparison at the settings with the most runs, or a single system's
// state.
func (v *Verdict) headline() Headline {
	h := Headline{Comparison: -1, System: -1}
	best := -1
	for i := range v.Comparisons {
		c := &v.Comparisons[i]
		if c.Metric != MetricRPS {
			continue
		}
		if n := c.ARuns + c.BRuns; n >= best {
			h.Comparison, best = i, n
		}
	}
	if h.Comparison < 0 {
		if len(v.Systems) == 1 {
			h.Lead, h.System = LeadSystem, 0
		} else {
			h.Lead = LeadNoComparison
		}
		return h
	}
	h.Lead = LeadComparison
	c := v.Comparisons[h.Comparison]
	if c.Verdict != Inconclusive {
		return h
	}
	if c.ARuns < v.Options.MinRuns || c.BRuns < v.Options.MinRuns {
		h.Why = append(h.Why, Reason{Code: ReasonTooFewRuns, MinRuns: v.Options.MinRuns, Alpha: v.Options.Alpha,
			ARuns: c.ARuns, BRuns: c.BRuns})
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
	return h
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
