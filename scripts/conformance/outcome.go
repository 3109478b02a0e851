package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/internal/local"
)

// This file is the one place where a typed verdict becomes an observed
// outcome and an outcome is graded against the truth (Truth.Expect): how
// each expected outcome is read off the verdict and when it is right,
// undecided or wrong is docs/CONFORMANCE.md "Outcomes: how a verdict is
// graded" (written by docs.go: keep the two in step).

// Grades of an outcome.
const (
	gradeRight     = "right"
	gradeUndecided = "undecided"
	gradeWrong     = "wrong"
)

// observation is what the verdict said about an experiment.
type observation struct {
	// Outcome is the observed outcome, in the vocabulary of Truth.Expect.
	Outcome string
	// Direction is the direction of a no-steady-state class when the
	// verdict gives it ("better", "worse"), else "".
	Direction string
	// SteadyClaimed is set when the verdict claims a steady state for the
	// series (a first steady run or a warm-up end).
	SteadyClaimed bool
	// SteadyFrom is where the verdict puts the start of the steady
	// state: the round (1-based) across runs, seconds within a run.
	SteadyFrom *float64
	// P is the primary comparison's p-value, when one ran.
	P *float64
	// Detail gives the figures an outcome was read from, for run -list
	// (the errors, pauses and outlier-round families).
	Detail string `json:",omitempty"`
}

// steadyClass tells whether a class says the series ends steady.
func steadyClass(c string) bool { return c == "flat" || c == "warmup" || c == "slowdown" }

// primaryMetric is the metric an A/B or A/A experiment is judged on.
func primaryMetric(s Scenario) string {
	for _, r := range s.Runs {
		if r.Tool != toolWrk {
			return analyze.MetricLatMeanMs
		}
	}
	return analyze.MetricRPS
}

// observe reads the verdict of experiment rec.
func observe(rec Record, v *analyze.Verdict) observation {
	t := rec.Truth
	switch t.Expect {
	case "same", "A-faster", "B-faster":
		return compareOutcome(v, primaryMetric(rec.Scenario))
	case "B-worse-p99":
		o := compareOutcome(v, analyze.MetricLatP99Ms)
		switch o.Outcome {
		case "A-faster":
			o.Outcome = "B-worse-p99"
		case "B-faster":
			o.Outcome = "B-better-p99"
		}
		return o
	case "periodic-stalls", "single-stall":
		return stallOutcome(rec, v)
	case "error-burst":
		return burstOutcome(rec, v)
	case expectMoreErrors, expectSameErrors, expectErrorsInBand:
		return errorsOutcome(v)
	case expectPeriodicPauses, expectIrregularPauses, expectNoPauses:
		return pausesOutcome(rec, v)
	case expectOutlierRound, expectOutlierEither, expectNoOutlier:
		return outlierOutcome(rec, v)
	case "overload":
		for _, f := range v.Findings {
			if f.Code == analyze.CodeOverload {
				return observation{Outcome: "overload"}
			}
		}
		return observation{Outcome: "no-overload"}
	}
	return seriesOutcome(rec, v)
}

// system returns the system labelled label.
func system(v *analyze.Verdict, label string) *analyze.System {
	for i := range v.Systems {
		if v.Systems[i].Label == label {
			return &v.Systems[i]
		}
	}
	return nil
}

// seriesOutcome is the class of the series of system S.
func seriesOutcome(rec Record, v *analyze.Verdict) observation {
	s := system(v, "S")
	if s == nil || len(s.Groups) == 0 {
		return observation{Outcome: "no-system"}
	}
	if rec.Truth.Scope == "within-run" {
		if len(s.WithinRunWarmup) == 0 {
			return observation{Outcome: "no-within-run"}
		}
		rw := s.WithinRunWarmup[0]
		o := observation{Outcome: string(rw.Class), SteadyFrom: rw.WarmupEndS}
		o.Direction = direction(rw)
		o.Outcome = mapClass(o.Outcome, rw)
		o.SteadyClaimed = rw.WarmupEndS != nil || steadyClass(o.Outcome)
		return o
	}
	g := s.Groups[0]
	for _, x := range s.Groups[1:] {
		if len(x.Runs) > len(g.Runs) {
			g = x
		}
	}
	w := g.Warmup
	o := observation{Outcome: string(w.Class)}
	if w.SteadyFromSeq != nil {
		// The round (1-based) of the first steady run: the runs of the
		// one system are seq 0, 1, ... in execution order.
		r := float64(*w.SteadyFromSeq + 1)
		o.SteadyFrom = &r
	}
	o.Direction = direction(w)
	o.Outcome = mapClass(o.Outcome, w)
	o.SteadyClaimed = w.SteadyFromSeq != nil || steadyClass(o.Outcome)
	return o
}

// mapClass maps a retired class name to today's vocabulary: level-shift
// by its direction (up = warmup, down = slowdown).
func mapClass(class string, x any) string {
	if class != "level-shift" {
		return class
	}
	if w, ok := x.(analyze.Warmup); ok && w.Shift != nil {
		if w.Shift.After > w.Shift.Before { // throughput rose
			return "warmup"
		}
		return "slowdown"
	}
	if d := direction(x); d == "better" {
		return "warmup"
	} else if d == "worse" {
		return "slowdown"
	}
	return class
}

// direction finds the direction a classification states, robust to the
// model's fields changing: a field named Direction ("improving",
// "worsening", "better", "worse", "up", "down") anywhere in its JSON,
// else the sign of the trend's change (Basis.Trend: throughput across
// runs, latency within a run).
func direction(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		return ""
	}
	var m any
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	if d := findDirection(m); d != "" {
		return d
	}
	var trend struct {
		Basis struct {
			Metric string
			Trend  *struct{ Change float64 }
		}
	}
	if json.Unmarshal(b, &trend) == nil && trend.Basis.Trend != nil && trend.Basis.Trend.Change != 0 {
		up := trend.Basis.Trend.Change > 0
		if trend.Basis.Metric == analyze.MetricRPS {
			up = !up // more throughput is better, not worse
		}
		if up {
			return "worse"
		}
		return "better"
	}
	return ""
}

func findDirection(m any) string {
	switch x := m.(type) {
	case map[string]any:
		for k, v := range x {
			if strings.EqualFold(k, "direction") {
				if s, ok := v.(string); ok {
					switch strings.ToLower(s) {
					case "improving", "better", "up", "faster":
						return "better"
					case "worsening", "worse", "down", "slower":
						return "worse"
					}
				}
			}
		}
		for _, k := range slices.Sorted(maps.Keys(x)) { // in key order, so the answer never depends on map order
			if d := findDirection(x[k]); d != "" {
				return d
			}
		}
	case []any:
		for _, v := range x {
			if d := findDirection(v); d != "" {
				return d
			}
		}
	}
	return ""
}

// compareOutcome is the verdict of the comparison of A and B on metric,
// as "A-faster", "B-faster", "no-difference" or "inconclusive".
func compareOutcome(v *analyze.Verdict, metric string) observation {
	for _, c := range v.Comparisons {
		if c.Metric != metric {
			continue
		}
		swap := false
		switch {
		case c.A == "A" && c.B == "B":
		case c.A == "B" && c.B == "A":
			swap = true
		default:
			continue
		}
		o := observation{P: c.PValue}
		switch c.Verdict {
		case analyze.AFaster:
			o.Outcome = map[bool]string{false: "A-faster", true: "B-faster"}[swap]
		case analyze.BFaster:
			o.Outcome = map[bool]string{false: "B-faster", true: "A-faster"}[swap]
		default:
			o.Outcome = c.Verdict
		}
		return o
	}
	return observation{Outcome: "no-comparison"}
}

// instability is the first run's instability of system S, if any.
func instability(v *analyze.Verdict) *analyze.Instability {
	s := system(v, "S")
	if s == nil {
		return nil
	}
	for _, rw := range s.WithinRunWarmup {
		if rw.Instability != nil {
			return rw.Instability
		}
	}
	return nil
}

// stallOutcome reads stalls: periodic (with its period checked), one
// located stall, or the run's class.
func stallOutcome(rec Record, v *analyze.Verdict) observation {
	t := rec.Truth
	in := instability(v)
	periodic := false
	for _, f := range v.Findings {
		if f.Code == analyze.CodePeriodicStalls {
			periodic = true
		}
	}
	if in != nil && in.Periodic {
		periodic = true
	}
	if periodic {
		if in != nil && in.PeriodS != nil && t.PeriodS > 0 && math.Abs(*in.PeriodS-t.PeriodS) <= math.Max(1, 0.2*t.PeriodS) {
			return observation{Outcome: "periodic-stalls"}
		}
		if t.PeriodS > 0 {
			return observation{Outcome: "periodic-stalls-wrong-period"}
		}
		return observation{Outcome: "periodic-stalls"}
	}
	if in != nil && in.Excursions <= 2 {
		for _, sp := range in.Spans {
			if sp.FromS <= t.ChangeToS+1 && sp.ToS >= t.ChangeFromS-1 {
				return observation{Outcome: "single-stall"}
			}
		}
		return observation{Outcome: "stall-misplaced"}
	}
	if in != nil {
		return observation{Outcome: "unstable"}
	}
	o := seriesOutcome(rec, v)
	o.SteadyClaimed = false
	return o
}

// burstOutcome reads an error burst: a finding whose code names a burst,
// located when its figures hold a window overlapping the truth's.
func burstOutcome(rec Record, v *analyze.Verdict) observation {
	t := rec.Truth
	errs := false
	for _, f := range v.Findings {
		code := string(f.Code)
		if code == string(analyze.CodeErrors) {
			errs = true
		}
		if !strings.Contains(code, "burst") {
			continue
		}
		b, _ := json.Marshal(f.Facts)
		var m any
		json.Unmarshal(b, &m)
		if overlaps(m, t.ChangeFromS-1, t.ChangeToS+1) {
			return observation{Outcome: "error-burst"}
		}
		return observation{Outcome: "burst-misplaced"}
	}
	if errs {
		return observation{Outcome: "errors"}
	}
	return observation{Outcome: "none"}
}

// overlaps reports whether m (decoded JSON) holds an object with a start
// and an end in seconds (keys such as FromS/ToS, StartS/EndS) that
// overlaps [lo, hi].
func overlaps(m any, lo, hi float64) bool {
	switch x := m.(type) {
	case map[string]any:
		var from, to *float64
		for k, v := range x {
			f, ok := v.(float64)
			if !ok {
				continue
			}
			switch strings.ToLower(k) {
			case "froms", "from_s", "starts", "start_s", "atfroms":
				from = &f
			case "tos", "to_s", "ends", "end_s":
				to = &f
			}
		}
		if from != nil && to != nil && *from <= hi && *to >= lo {
			return true
		}
		for _, v := range x {
			if overlaps(v, lo, hi) {
				return true
			}
		}
	case []any:
		for _, v := range x {
			if overlaps(v, lo, hi) {
				return true
			}
		}
	}
	return false
}

// gradeTable grades, per expected outcome, the observed outcomes that
// count other than wrong (an outcome equal to the expected is right).
var gradeTable = map[string]map[string]string{
	"same":                 {"inconclusive": gradeRight, "no-difference": gradeRight},
	"A-faster":             {"inconclusive": gradeUndecided},
	"B-faster":             {"inconclusive": gradeUndecided},
	"B-worse-p99":          {"inconclusive": gradeUndecided},
	expectMoreErrors:       {"B-more-errors+fail": gradeRight, analyze.Inconclusive + "+fail": gradeUndecided},
	expectSameErrors:       {analyze.NoDifference + "+pass": gradeRight, analyze.Inconclusive + "+pass": gradeRight},
	expectIrregularPauses:  {"not-periodic": gradeRight},
	expectNoPauses:         {"not-periodic": gradeRight},
	expectOutlierRound:     {"warmup-left-out": gradeRight},
	expectNoOutlier:        {"none": gradeRight},
	expectDuelSame:         {local.DuelEquivalent: gradeRight, local.DuelUndecided: gradeRight},
	local.DuelBBetter:      {local.DuelUndecided: gradeUndecided},
	local.DuelBWorse:       {local.DuelUndecided: gradeUndecided},
	expectDuelBBetterSmall: {local.DuelBBetter: gradeRight, local.DuelEquivalent: gradeRight, local.DuelUndecided: gradeRight},
	expectDuelBWorseSmall:  {local.DuelBWorse: gradeRight, local.DuelEquivalent: gradeRight, local.DuelUndecided: gradeRight},
}

// grade grades an observed outcome against the expected one.
func grade(expect string, o observation) string {
	if o.Outcome == expect {
		return gradeRight
	}
	if g, ok := gradeTable[expect][o.Outcome]; ok {
		return g
	}
	switch {
	case expect == expectErrorsInBand && !strings.HasPrefix(o.Outcome, "A-more-errors"),
		expect == expectOutlierEither && o.Outcome != "outlier-wrong-round":
		return gradeRight
	}
	return gradeWrong
}

// errorsOutcome reads the error comparison of B against A and the gate's
// condition errors (the verdict analysed with A as the baseline).
func errorsOutcome(v *analyze.Verdict) observation {
	verdict := "no-error-comparison"
	for _, c := range v.ErrorComparisons {
		var swap bool
		switch {
		case c.A == "A" && c.B == "B":
		case c.A == "B" && c.B == "A":
			swap = true
		default:
			continue
		}
		verdict = c.Verdict
		if c.Untested != "" {
			verdict = "untested-" + c.Untested
		}
		switch {
		case c.Verdict == analyze.AMoreErrors && !swap, c.Verdict == analyze.BMoreErrors && swap:
			verdict = "A-more-errors"
		case c.Verdict == analyze.BMoreErrors && !swap, c.Verdict == analyze.AMoreErrors && swap:
			verdict = "B-more-errors"
		}
		o := observation{P: c.PValue, Detail: fmt.Sprintf("errors A %.3f %%, B %.3f %% (%s)", 100*c.ARate, 100*c.BRate, c.Method)}
		if swap {
			o.Detail = fmt.Sprintf("errors A %.3f %%, B %.3f %% (%s)", 100*c.BRate, 100*c.ARate, c.Method)
		}
		if c.PValue != nil {
			o.Detail += fmt.Sprintf(", p %.2g", *c.PValue)
		}
		o.Outcome = verdict + "+pass"
		for _, r := range v.Gate.Reasons {
			if r.Condition == gate.Errors && r.Fails {
				o.Outcome = verdict + "+fail"
			}
		}
		return o
	}
	return observation{Outcome: verdict}
}

// pausesOutcome reads the periodic-pauses finding of system S's run:
// its period and share of held requests against the truth's.
func pausesOutcome(rec Record, v *analyze.Verdict) observation {
	t := rec.Truth
	var unsteady []string
	for _, f := range v.Findings {
		if f.Code == analyze.CodePeriodicPauses {
			facts, ok := f.Facts.(analyze.PeriodicPausesFacts)
			if !ok {
				return observation{Outcome: "periodic-pauses"}
			}
			if t.PeriodS == 0 {
				return observation{Outcome: "periodic-pauses", Detail: fmt.Sprintf("period %.3f s, share %.2f %%, %d pauses of %.0f-%.0f ms, %d off the grid, level %.1f ms", facts.PeriodS, 100*facts.ShareRequests, facts.Pauses, facts.MinMs, facts.MaxMs, facts.Others, facts.LevelMs)}
			}
			d := fmt.Sprintf("period %.3f s (truth %.3f), share %.2f %% (truth %.2f), %d pauses of %.0f-%.0f ms", facts.PeriodS, t.PeriodS, 100*facts.ShareRequests, t.SharePct, facts.Pauses, facts.MinMs, facts.MaxMs)
			switch {
			case math.Abs(facts.PeriodS-t.PeriodS) > 0.1*t.PeriodS:
				return observation{Outcome: "periodic-pauses-wrong-period", Detail: d}
			case t.SharePct > 0 && (100*facts.ShareRequests < t.SharePct/2 || 100*facts.ShareRequests > 2*t.SharePct):
				return observation{Outcome: "periodic-pauses-wrong-share", Detail: d}
			}
			return observation{Outcome: "periodic-pauses", Detail: d}
		}
		if unsteadyCode(f.Code) {
			unsteady = append(unsteady, string(f.Code))
		}
	}
	switch {
	case slices.Contains(unsteady, string(analyze.CodePeriodicStalls)):
		return observation{Outcome: "periodic-stalls"}
	case t.Expect == expectNoPauses && len(unsteady) > 0:
		return observation{Outcome: unsteady[0]}
	}
	return observation{Outcome: "not-periodic"}
}

// outlierOutcome reads the outlier round of system S's group of rounds
// against the disturbed round, and whether the steady figures leave
// the disturbed round out.
func outlierOutcome(rec Record, v *analyze.Verdict) observation {
	s := system(v, "S")
	if s == nil || len(s.Groups) == 0 {
		return observation{Outcome: "no-system"}
	}
	g := s.Groups[0]
	for _, x := range s.Groups[1:] {
		if len(x.Runs) > len(g.Runs) {
			g = x
		}
	}
	// The runs of the one system are seq 0, 1, ... in execution order.
	hit := rec.Truth.OutlierRound - 1
	var rps []string
	for _, r := range g.Runs {
		rps = append(rps, fmt.Sprintf("%.0f", r.RPS))
	}
	detail := "req/s " + strings.Join(rps, " ")
	if g.Outlier != nil {
		detail += fmt.Sprintf("; round %d flagged (%+.1f %%)", g.Outlier.Run.Seq+1, g.Outlier.DeviationPct)
	}
	if g.Warmup.SteadyFromSeq != nil {
		detail += fmt.Sprintf("; steady from round %d", *g.Warmup.SteadyFromSeq+1)
	}
	o := outlierClass(rec, g, hit)
	o.Detail = detail
	return o
}

// outlierClass is outlierOutcome's outcome for group g and the
// disturbed round's seq hit (-1: none).
func outlierClass(rec Record, g analyze.Group, hit int) observation {
	if g.Outlier == nil {
		if hit == 0 && g.Warmup.SteadyFromSeq != nil && *g.Warmup.SteadyFromSeq > 0 && g.Steady.RPSMean != nil {
			return observation{Outcome: "warmup-left-out"}
		}
		return observation{Outcome: "none"}
	}
	if hit < 0 {
		return observation{Outcome: "outlier-flagged"}
	}
	if int(g.Outlier.Run.Seq) != hit {
		return observation{Outcome: "outlier-wrong-round"}
	}
	// The steady figures: the mean of the steady runs but the disturbed
	// one.
	if g.Warmup.SteadyFromSeq == nil || g.Steady.RPSMean == nil {
		return observation{Outcome: "outlier-no-steady"}
	}
	var sum float64
	n := 0
	for _, r := range g.Runs {
		if r.Seq >= *g.Warmup.SteadyFromSeq && int(r.Seq) != hit {
			sum += r.RPS
			n++
		}
	}
	if n == 0 || n != g.Steady.Runs || math.Abs(*g.Steady.RPSMean-sum/float64(n)) > 1e-9*math.Abs(sum/float64(n)) {
		return observation{Outcome: "outlier-in-steady"}
	}
	return observation{Outcome: "outlier-round"}
}
