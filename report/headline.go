package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/stats"
)

// Headline words the verdict's headline: what analyze chose to say
// (v.Headline), most important first: errors above the severe rate, then
// overload, then the main statement (a comparison, with a latency
// comparison that disagrees; a system's state; or that nothing could be
// compared). Each part is one sentence a reader can quote.
func Headline(v *analyze.Verdict) string {
	h := v.Headline
	var parts []string
	if len(h.Errors) > 0 {
		var es []string
		for _, e := range h.Errors {
			es = append(es, fmt.Sprintf("%s failed %s %% of its requests at %s (%s)%s", e.System, rel(100*e.Rate),
				settingsText(e.Settings), plural(e.Runs, "run"), burstClause(v, e)))
		}
		parts = append(parts, strings.Join(es, "; ")+".")
	}
	for _, i := range h.Overloaded {
		s := v.Systems[i]
		parts = append(parts, fmt.Sprintf("%s is overloaded: %s.", s.Label, saturationText(s.Capacity.Saturation)))
	}
	return strings.Join(append(parts, mainHeadline(v)), " ")
}

// burstClause says when an error lead's errors happened, where they
// concentrated in time (error-burst findings of its group's runs):
// ", 100 % of run seq 1's failed requests within 3-4 s", for the runs
// its rate is over; "" otherwise.
func burstClause(v *analyze.Verdict, e analyze.ErrorLead) string {
	var out []string
	for _, f := range v.Findings {
		x, ok := f.Facts.(analyze.ErrorBurstFacts)
		if !ok || f.Code != analyze.CodeErrorBurst || len(f.Subject.Runs) != 1 ||
			!slices.Contains(e.RunIDs, f.Subject.Runs[0].RunID) { // the runs the rate is over
			continue
		}
		var spans []string
		for _, b := range x.Bursts {
			spans = append(spans, num(b.FromS)+"-"+num(b.ToS)+" s")
		}
		out = append(out, fmt.Sprintf("%s of run seq %d's failed requests within %s", pct(x.Share), f.Subject.Runs[0].Seq, strings.Join(spans, " and ")))
	}
	if len(out) == 0 {
		return ""
	}
	return ", " + strings.Join(out, ", ")
}

// mainHeadline words the headline's main statement.
func mainHeadline(v *analyze.Verdict) string {
	h := v.Headline
	switch h.Main {
	case analyze.LeadSystem:
		return systemHeadline(v, v.Systems[h.System])
	case analyze.LeadNoComparison:
		var labels []string
		for _, s := range v.Systems {
			labels = append(labels, s.Label)
		}
		return fmt.Sprintf("No comparison possible: %s never ran at the same settings (tool, connections, threads, rate, duration).", strings.Join(labels, " and "))
	}
	c := v.Comparisons[h.Comparison]
	// With a baseline (side b), side a is the subject: "new is slower
	// than old (the baseline)"; else the faster side is.
	hc := headlineComparison{v: v, c: c, at: settingsText(c.Settings), based: v.Options.Baseline != "" && c.B == v.Options.Baseline, baseName: c.B}
	if hc.based {
		hc.baseName += " (the baseline)"
	}
	switch c.Verdict {
	case analyze.AFaster, analyze.BFaster:
		return hc.decided()
	case analyze.NoDifference:
		return hc.noDifference()
	}
	return hc.notEstablished()
}

// systemHeadline words a headline about one system: its figures when it
// has one group with figures, else its runs; and its state.
func systemHeadline(v *analyze.Verdict, s analyze.System) string {
	if len(s.Groups) == 1 && s.Groups[0].Numbers.Basis != "" {
		g := s.Groups[0]
		return fmt.Sprintf("%s at %s (%s): %s; %s.", s.Label, settingsText(g.Settings), plural(s.Runs, "run"),
			numbersSentence(g.Numbers, g.Numbers.HighestMaxMs), groupsState(s))
	}
	return fmt.Sprintf("%s: %s of %s analysed; %s.", s.Label, plural(s.Runs, "run"), toolList(v), groupsState(s))
}

// headlineComparison is the comparison a headline leads with: at its
// settings in words, and whether side b is the baseline (baseName says
// so).
type headlineComparison struct {
	v        *analyze.Verdict
	c        analyze.Comparison
	at       string
	based    bool
	baseName string
}

// decided words a decided comparison, with the undecided metric or the
// latency comparison that disagrees when the headline has one.
func (hc headlineComparison) decided() string {
	v, c, h := hc.v, hc.c, hc.v.Headline
	subj, other, otherLabel := c.A, hc.baseName, c.B
	if !hc.based && c.Verdict == analyze.BFaster {
		subj, other, otherLabel = c.B, c.A, c.A
	}
	r, ci := seenFrom(c, subj)
	word := "faster"
	if hc.based && c.Verdict == analyze.BFaster {
		word = "slower"
	}
	runs := fmt.Sprintf("%d vs %d runs", c.ARuns, c.BRuns)
	if c.Estimate != nil && c.Estimate.Method == stats.MethodWelchLog {
		runs += ", Welch's t-test" // below the exact test's reach
	}
	for _, x := range c.Reasons {
		if x.Note && (x.Code == analyze.ReasonNotSteady || x.Code == analyze.ReasonFewSteadyRuns) {
			runs += ", all of " + x.System + "'s runs: not steady" // what was tested, said where the counts are
		}
	}
	lo := ""
	if l := leftOutText(c); l != "" {
		lo = "; left out: " + l
	}
	if h.Undecided >= 0 {
		u := v.Comparisons[h.Undecided]
		return fmt.Sprintf("%s is %s than %s by %s at %s: %s (%s%s, p = %s%s); its %s did not settle it (p = %s: a run far from its side moves a run's mean more than its median).",
			subj, word, other, metricWords(c.Metric), hc.at, timesText(r), runs, ciText(ci, ", "), relP(c.PValue), lo, metricWords(u.Metric), relP(u.PValue))
	}
	if h.Latency >= 0 {
		return fmt.Sprintf("%s is %s than %s by %s at %s: %s (%s%s, p = %s%s), but %s.",
			subj, word, other, metricWords(c.Metric), hc.at, timesText(r), runs, ciText(ci, ", "), relP(c.PValue), lo, latencyClause(v.Comparisons[h.Latency], subj, otherLabel, false))
	}
	return fmt.Sprintf("%s is %s than %s at %s: %s the %s (%s%s, p = %s%s).",
		subj, word, other, hc.at, timesText(r), metricWords(c.Metric), runs, ciText(ci, ", "), relP(c.PValue), lo)
}

// noDifference words a comparison inside the practical band, with the
// latency comparison that disagrees when the headline has one.
func (hc headlineComparison) noDifference() string {
	v, c := hc.v, hc.c
	p := ""
	if c.PValue != nil {
		p = ", p = " + relP(c.PValue)
	}
	but := ""
	if v.Headline.Latency >= 0 {
		l := v.Comparisons[v.Headline.Latency]
		subj, other := l.A, l.B
		if !hc.based && l.Verdict == analyze.AFaster {
			subj, other = l.B, l.A // the side slower by latency
		}
		but = ", but " + latencyClause(l, subj, other, true)
	}
	return fmt.Sprintf("No difference between %s and %s at %s: %s ratio %s%s, inside the ±%s %% practical band (%s%s)%s.",
		c.A, hc.baseName, hc.at, metricWords(c.Metric), rel(c.Deciding.Ratio), ciText(c.Estimate, ", "), rel(100*v.Options.PracticalBand), runsText(c), p, but)
}

// notEstablished words a comparison that did not settle: why (the
// headline's obstacles, else its reasons), from the better side's view
// (with a baseline, side a's).
func (hc headlineComparison) notEstablished() string {
	c := hc.c
	aBetter := (c.Deciding.Ratio > 1) == c.HigherIsBetter
	subj, other, word := c.A, c.B, "faster"
	switch {
	case hc.based && !aBetter:
		other, word = hc.baseName, "slower"
	case hc.based:
		other = hc.baseName
	case !aBetter:
		subj, other = c.B, c.A
	}
	r, ci := seenFrom(c, subj)
	var why []string
	for _, x := range hc.v.Headline.Why {
		why = append(why, obstacleText(x))
	}
	if len(why) > 0 {
		needed := ""
		if c.RunsNeeded != nil {
			needed = fmt.Sprintf("; %d steady runs per system would settle it", *c.RunsNeeded)
		}
		return fmt.Sprintf("Not established that %s is %s than %s: it had %s the %s at %s, but with %s the difference is not shown to be real%s.",
			subj, word, other, timesText(r), metricWords(c.Metric), hc.at, strings.Join(why, " and "), needed)
	}
	// The data were enough to test, but did not settle it.
	for _, x := range c.Reasons {
		if !x.Note && x.Significant && ci != nil {
			// The difference is shown; whether it matters is not.
			return fmt.Sprintf("Not established that %s is %s than %s by more than the ±%s %% practical band: it had %s the %s at %s, a difference significant at p = %s whose %s %% CI (%s) reaches into the band%s.",
				subj, word, other, rel(100*x.Band), timesText(r), metricWords(c.Metric), hc.at, rel(x.P), rel(100*x.Level), ratioRangeOff1(ci.Lo, ci.Hi), runsNeededText(x))
		}
	}
	for _, x := range c.Reasons {
		if !x.Note {
			why = append(why, reasonText(x))
		}
	}
	return fmt.Sprintf("Not established that %s is %s than %s: it had %s the %s at %s, but %s.",
		subj, word, other, timesText(r), metricWords(c.Metric), hc.at, strings.Join(why, " and "))
}

// ciText words a ratio's interval after prefix, e.g. ", 95 % CI
// 1.02-1.16"; "" for none or an unbounded one.
func ciText(ci *stats.CI, prefix string) string {
	if ci == nil || math.IsInf(ci.Hi, 0) || ci.Lo <= 0 {
		return ""
	}
	return fmt.Sprintf("%s%s %% CI %s", prefix, rel(100*ci.Level), ratioRange(ci.Lo, ci.Hi))
}

// seenFrom is c's deciding ratio and its interval from subj's side:
// side a's (Deciding.FromA), else b's.
func seenFrom(c analyze.Comparison, subj string) (float64, *stats.CI) {
	if subj == c.A {
		return c.Deciding.FromA.Ratio, c.Deciding.FromA.CI
	}
	return c.Deciding.FromB.Ratio, c.Deciding.FromB.CI
}

// latencyClause words a latency comparison l from subj's side against
// other: "slower by p99 latency: 1.2x b's (95 % CI 1.18-1.22, p =
// 0.00794)"; named puts subj first ("a is slower by ...").
func latencyClause(l analyze.Comparison, subj, other string, named bool) string {
	r, ci := seenFrom(l, subj)
	word := "slower"
	if subjBetter := (l.Verdict == analyze.AFaster) == (subj == l.A); subjBetter {
		word = "faster"
	}
	what := metricWords(l.Metric)
	cis := ""
	if t := ciText(ci, ""); t != "" {
		cis = t + ", "
	}
	s := fmt.Sprintf("%s by %s: %s %s's (%sp = %s)", word, what, timesText(r), other, cis, relP(l.PValue))
	if named {
		return subj + " is " + s
	}
	return s
}

// obstacleText words why the headline's comparison is not established.
func obstacleText(r analyze.Reason) string {
	switch r.Code {
	case analyze.ReasonTooFewRuns:
		runs := fmt.Sprintf("%d and %d runs", r.ARuns, r.BRuns)
		if r.ARuns == r.BRuns {
			runs = fmt.Sprintf("%s per system", plural(r.ARuns, "run"))
		}
		return fmt.Sprintf("only %s (smallest possible p %s)", runs, minPText(r))
	case analyze.ReasonFewSteadyRuns:
		return fmt.Sprintf("only %s after the warm-up of %s (smallest attainable p %s >= alpha %s)",
			plural(r.SteadyRuns, "steady run"), r.System, minPText(r), rel(r.Alpha))
	case analyze.ReasonSingleRun:
		return fmt.Sprintf("a single run of %s", r.System)
	case analyze.ReasonNotSteady:
		if r.Class == stats.ClassNoSteadyState && r.ChangePct != nil {
			// ChangePct is throughput's: a rise is still warming up, a
			// fall is getting slower (never "not warmed up").
			if *r.ChangePct < 0 {
				return fmt.Sprintf("%s still getting slower (%s %% between its last two runs)", r.System, signed(*r.ChangePct))
			}
			return fmt.Sprintf("%s not warmed up (still %s %% between its last two runs)", r.System, signed(*r.ChangePct))
		}
		return fmt.Sprintf("%s not steady (%s)", r.System, classAdj(r.Class))
	}
	return reasonText(r)
}

// toolList names the tools of the verdict's runs, in order of first use.
func toolList(v *analyze.Verdict) string {
	var tools []string
	for _, r := range v.Runs {
		if !slices.Contains(tools, r.Tool) {
			tools = append(tools, r.Tool)
		}
	}
	return strings.Join(tools, ", ")
}

// groupsState summarises a system's groups: their warm-up classes,
// across runs and within runs, each class said once for the settings it
// holds at, by the settings that tell the groups apart ("at 16
// connections and 32 connections: flat across runs and flat within its
// runs; ..."); a single group's without its settings (the
// headline gave them).
func groupsState(s analyze.System) string {
	var phrases []string
	at := map[string][]string{}
	var all []analyze.Settings
	for _, g := range s.Groups {
		all = append(all, g.Settings)
	}
	for _, g := range s.Groups {
		var p []string
		if len(g.Runs) > 1 {
			p = append(p, classWords(g.Warmup.Class, "across runs"))
		}
		if w := g.WithinRun; w != nil {
			q := classWords(w.Class, "within its runs")
			if len(g.Runs) == 1 {
				q = classWords(w.Class, "within the run")
			}
			if w.UnstableRuns > 0 { // never an unqualified "flat"
				q += fmt.Sprintf(" but stalling (%d of %s stalled or kept leaving its level)", w.UnstableRuns, plural(len(g.Runs), "run"))
			}
			for _, rw := range s.WithinRunWarmup {
				if w.Class == stats.ClassWarmup && rw.WarmupEndS != nil && slices.Contains(g.RunIDs, rw.RunID) {
					q += fmt.Sprintf(" (run seq %d steady from %s s)", rw.Seq, num(*rw.WarmupEndS))
				}
			}
			p = append(p, q)
		} else if len(g.Runs) == 1 {
			p = append(p, "one run without per-request data, so warm-up cannot be told")
		}
		phrase := strings.Join(p, " and ")
		if _, ok := at[phrase]; !ok {
			phrases = append(phrases, phrase)
		}
		where := distinctSettings(g.Settings, all)
		if where == "" {
			where = settingsText(g.Settings)
		}
		at[phrase] = append(at[phrase], where)
	}
	if len(s.Groups) == 1 {
		return phrases[0]
	}
	var parts []string
	for _, p := range phrases {
		parts = append(parts, fmt.Sprintf("at %s: %s", joinAnd(at[p]), p))
	}
	return strings.Join(parts, "; ")
}

// joinAnd joins words as a list: "a", "a and b", "a, b and c".
func joinAnd(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}
