package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/stats"
)

// Headline words the verdict's headline: one sentence a reader can quote,
// about what analyze chose to lead with (v.Headline).
func Headline(v *analyze.Verdict) string {
	h := v.Headline
	switch h.Lead {
	case analyze.LeadSystem:
		s := v.Systems[h.System]
		return fmt.Sprintf("%s: %s of %s analysed; %s.", s.Label, plural(s.Runs, "run"), toolList(v), groupsState(s))
	case analyze.LeadNoComparison:
		var labels []string
		for _, s := range v.Systems {
			labels = append(labels, s.Label)
		}
		return fmt.Sprintf("No comparison possible: %s never ran at the same settings (tool, connections, threads, rate, duration).", strings.Join(labels, " and "))
	}
	c := v.Comparisons[h.Comparison]
	at := settingsText(c.Settings)
	switch c.Verdict {
	case analyze.AFaster, analyze.BFaster:
		win, lose, r := c.A, c.B, decidingRatio(c)
		if c.Verdict == analyze.BFaster {
			win, lose, r = c.B, c.A, 1/r
		}
		return fmt.Sprintf("%s is faster than %s at %s: %sx the throughput (%d vs %d runs%s, p = %s).",
			win, lose, at, rel(r), c.ARuns, c.BRuns, estimateCI(c, c.Verdict == analyze.BFaster), rel(*c.PValue))
	case analyze.NoDifference:
		p := ""
		if c.PValue != nil {
			p = ", p = " + rel(*c.PValue)
		}
		return fmt.Sprintf("No difference between %s and %s at %s: throughput ratio %s%s, inside the ±%s %% practical band (%d vs %d runs%s).",
			c.A, c.B, at, rel(decidingRatio(c)), estimateCI(c, false), rel(100*v.Options.PracticalBand), c.ARuns, c.BRuns, p)
	}
	var why []string
	for _, r := range h.Why {
		why = append(why, obstacleText(r))
	}
	if len(why) == 0 { // the data were enough to test, but did not settle it
		for _, r := range c.Reasons {
			if !r.Note {
				why = append(why, reasonText(r))
			}
		}
		fast, slow, r := c.A, c.B, decidingRatio(c)
		if (r < 1) == c.HigherIsBetter {
			fast, slow, r = c.B, c.A, 1/r
		}
		return fmt.Sprintf("Not established that %s is faster than %s: it had %sx the throughput at %s, but %s.",
			fast, slow, rel(r), at, strings.Join(why, " and "))
	}
	needed := ""
	if c.RunsNeeded != nil {
		needed = fmt.Sprintf("; %d steady runs per system would settle it", *c.RunsNeeded)
	}
	fast, slow, r := c.A, c.B, c.Ratio
	if (c.Ratio < 1) == c.HigherIsBetter {
		fast, slow, r = c.B, c.A, 1/c.Ratio
	}
	return fmt.Sprintf("Not established that %s is faster than %s: it had %sx the throughput at %s, but with %s the difference is not shown to be real%s.",
		fast, slow, rel(r), at, strings.Join(why, " and "), needed)
}

// obstacleText words why the headline's comparison is not established.
func obstacleText(r analyze.Reason) string {
	switch r.Code {
	case analyze.ReasonTooFewRuns:
		runs := fmt.Sprintf("%d and %d runs", r.ARuns, r.BRuns)
		if r.ARuns == r.BRuns {
			runs = fmt.Sprintf("%s per system", plural(r.ARuns, "run"))
		}
		return fmt.Sprintf("only %s (need >= %d)", runs, r.MinRuns)
	case analyze.ReasonSingleRun:
		return fmt.Sprintf("a single run of %s", r.System)
	case analyze.ReasonNotSteady:
		if r.Class == stats.ClassNoSteadyState && r.ChangePct != nil {
			return fmt.Sprintf("%s not warmed up (still %s %% between its last two runs)", r.System, signed(*r.ChangePct))
		}
		return fmt.Sprintf("%s not steady (%s)", r.System, r.Class)
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

// groupsState summarises a system's groups: warm-up class and steady throughput.
func groupsState(s analyze.System) string {
	var parts []string
	for _, g := range s.Groups {
		p := fmt.Sprintf("at %s: %s across runs", settingsText(g.Settings), g.Warmup.Class)
		if len(g.Runs) == 1 {
			p = fmt.Sprintf("at %s", settingsText(g.Settings))
		}
		if g.Steady.RPSMean != nil {
			p += fmt.Sprintf(", steady %s req/s", num(*g.Steady.RPSMean))
		}
		if w := g.WithinRun; w != nil {
			p += fmt.Sprintf(", %s within its runs", w.Class)
			if w.UnstableRuns > 0 { // never an unqualified "flat"
				p += fmt.Sprintf(" but stalling (%d of %s kept leaving its level)", w.UnstableRuns, plural(len(g.Runs), "run"))
			}
			for _, rw := range s.WithinRunWarmup {
				if w.Class == stats.ClassWarmup && rw.WarmupEndS != nil && slices.Contains(g.RunIDs, rw.RunID) {
					p += fmt.Sprintf(" (run seq %d steady from %s s)", rw.Seq, num(*rw.WarmupEndS))
				}
			}
		} else if len(g.Runs) == 1 {
			p += ": one run without per-request data, so warm-up cannot be told"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}
