package analyze

import (
	"fmt"
	"slices"
	"strings"
)

// headline is one sentence a reader can quote: the throughput comparison
// at the settings with the most runs, or a single system's state.
func (v *Verdict) headline() string {
	var main *Comparison
	best := -1
	for i := range v.Comparisons {
		c := &v.Comparisons[i]
		if c.Metric != "rps" {
			continue
		}
		if n := c.ARuns + c.BRuns; n >= best {
			main, best = c, n
		}
	}
	if main == nil {
		switch len(v.Systems) {
		case 1:
			s := v.Systems[0]
			return fmt.Sprintf("%s: %s of %s analysed; %s.", s.Label, plural(s.Runs, "run"), v.toolList(), groupsState(s))
		default:
			var labels []string
			for _, s := range v.Systems {
				labels = append(labels, s.Label)
			}
			return fmt.Sprintf("No comparison possible: %s never ran at the same settings (tool, connections, threads, rate, duration).", strings.Join(labels, " and "))
		}
	}
	c := main
	switch c.Verdict {
	case AFaster, BFaster:
		win, lose, r := c.A, c.B, c.Ratio
		if c.Verdict == BFaster {
			win, lose, r = c.B, c.A, 1/c.Ratio
		}
		ci := ""
		if c.CI != nil {
			lo, hi := c.CI.Lo, c.CI.Hi
			if c.Verdict == BFaster {
				lo, hi = 1/c.CI.Hi, 1/c.CI.Lo
			}
			ci = fmt.Sprintf(", %s %% CI %.2f-%.2f", fmtNum(100*c.CI.Level), lo, hi)
		}
		return fmt.Sprintf("%s is faster than %s at %s: %.2fx the throughput (%d vs %d runs%s, p = %s).",
			win, lose, c.Settings, r, c.ARuns, c.BRuns, ci, fmtP(*c.PValue))
	case NoDifference:
		p := ""
		if c.PValue != nil {
			p = ", p = " + fmtP(*c.PValue)
		}
		return fmt.Sprintf("No difference shown between %s and %s at %s: throughput ratio %.2f (%d vs %d runs%s).",
			c.A, c.B, c.Settings, c.Ratio, c.ARuns, c.BRuns, p)
	}
	var why []string
	if c.ARuns < v.Options.MinRuns || c.BRuns < v.Options.MinRuns {
		runs := fmt.Sprintf("%d and %d runs", c.ARuns, c.BRuns)
		if c.ARuns == c.BRuns {
			runs = fmt.Sprintf("%s per system", plural(c.ARuns, "run"))
		}
		why = append(why, fmt.Sprintf("only %s (need >= %d)", runs, v.Options.MinRuns))
	}
	for _, s := range []string{c.A, c.B} {
		g := v.group(s, c.Settings)
		if g == nil || g.Warmup.SteadyFromSeq != nil {
			continue
		}
		switch {
		case g.Warmup.Class == ClassNoSteadyState && g.Warmup.ChangePct != nil:
			why = append(why, fmt.Sprintf("%s not warmed up (still %+.1f %% between its last two runs)", s, *g.Warmup.ChangePct))
		case g.Warmup.Class == ClassInsufficientData:
			why = append(why, fmt.Sprintf("a single run of %s", s))
		default:
			why = append(why, fmt.Sprintf("%s not steady (%s)", s, g.Warmup.Class))
		}
	}
	needed := ""
	if c.RunsNeeded != nil {
		needed = fmt.Sprintf("; %d steady runs per system would settle it", *c.RunsNeeded)
	}
	fast, slow, r := c.A, c.B, c.Ratio
	if (c.Ratio < 1) == c.HigherIsBetter {
		fast, slow, r = c.B, c.A, 1/c.Ratio
	}
	return fmt.Sprintf("Not established that %s is faster than %s: it had %.2fx the throughput at %s, but with %s the difference is not shown to be real%s.",
		fast, slow, r, c.Settings, strings.Join(why, " and "), needed)
}

// group returns the group of a system at the given settings.
func (v *Verdict) group(label string, s Settings) *Group {
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

func (v *Verdict) toolList() string {
	var tools []string
	for _, r := range v.Runs {
		found := false
		for _, t := range tools {
			found = found || t == r.Tool
		}
		if !found {
			tools = append(tools, r.Tool)
		}
	}
	return strings.Join(tools, ", ")
}

// groupsState summarises a system's groups: warm-up class and steady throughput.
func groupsState(s System) string {
	var parts []string
	for _, g := range s.Groups {
		p := fmt.Sprintf("at %s: %s across runs", g.Settings, g.Warmup.Class)
		if len(g.Runs) == 1 {
			p = fmt.Sprintf("at %s", g.Settings)
		}
		if g.Steady.RPSMean != nil {
			p += fmt.Sprintf(", steady %.0f req/s", *g.Steady.RPSMean)
		}
		if w := g.WithinRun; w != nil {
			p += fmt.Sprintf(", %s within its runs", w.Class)
			for _, rw := range s.WithinRunWarmup {
				if w.Class == ClassWarmup && rw.WarmupEndS != nil && slices.Contains(g.RunIDs, rw.RunID) {
					p += fmt.Sprintf(" (run seq %d steady from %s s)", rw.Seq, fmtNum(*rw.WarmupEndS))
				}
			}
		} else if len(g.Runs) == 1 {
			p += ": one run without per-request data, so warm-up cannot be told"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}
