package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/results"
)

// explainComparison says what the comparison of A and B on metric
// tested and why it decided as it did: the runs held and tested, the
// runs left out and why, each side's series class, the reasons, p and
// the exact test's smallest attainable p, and the deciding estimate
// with its interval. It is reporting only (run -explain): grading is
// outcome.go's.
func explainComparison(v *analyze.Verdict, metric string) string {
	for _, c := range v.Comparisons {
		if c.Metric != metric || !(c.A == "A" && c.B == "B" || c.A == "B" && c.B == "A") {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s vs %s: held %d/%d tested %d/%d minP %.3g", c.Metric, c.A, c.B, c.AHeld, c.BHeld, c.ARuns, c.BRuns, c.MinP)
		why := map[string]int{}
		for _, l := range c.LeftOut {
			why[l.Side+":"+l.Why]++
		}
		if len(why) > 0 {
			fmt.Fprintf(&b, " left-out %v", why)
		}
		eachGroup(v, c, func(s string, g analyze.Group) { fmt.Fprintf(&b, " %s=%s", s, g.Warmup.Class) })
		explainDecision(&b, c)
		if explainValues {
			eachGroup(v, c, func(s string, g analyze.Group) { explainRuns(&b, s, g.Runs) })
		}
		return b.String()
	}
	return "no comparison of A and B on " + metric
}

// eachGroup calls f with each group of the comparison's two sides, A's
// first.
func eachGroup(v *analyze.Verdict, c analyze.Comparison, f func(side string, g analyze.Group)) {
	for _, s := range []string{c.A, c.B} {
		if sys := system(v, s); sys != nil {
			for _, g := range sys.Groups {
				f(s, g)
			}
		}
	}
}

// explainDecision writes the comparison's p, estimate, reasons and
// verdict.
func explainDecision(b *strings.Builder, c analyze.Comparison) {
	if c.PValue != nil {
		fmt.Fprintf(b, " p=%.3g", *c.PValue)
	}
	if c.Estimate != nil {
		fmt.Fprintf(b, " HL=%.3f [%.3f, %.3f]", c.Estimate.Estimate, c.Estimate.Lo, c.Estimate.Hi)
	}
	for _, r := range c.Reasons {
		fmt.Fprintf(b, " reason=%s", r.Code)
		if r.System != "" {
			fmt.Fprintf(b, "(%s)", r.System)
		}
	}
	fmt.Fprintf(b, " -> %s", c.Verdict)
}

// explainRuns writes side's runs' figures (run -values).
func explainRuns(b *strings.Builder, side string, runs []results.Run) {
	fmt.Fprintf(b, "\n      %s:", side)
	for _, r := range runs {
		fmt.Fprintf(b, " [rps %.0f", r.RPS)
		if r.LatMeanMs != nil {
			fmt.Fprintf(b, " mean %.2f", *r.LatMeanMs)
		}
		if r.LatP50Ms != nil {
			fmt.Fprintf(b, " p50 %.2f", *r.LatP50Ms)
		}
		if r.LatP99Ms != nil {
			fmt.Fprintf(b, " p99 %.1f", *r.LatP99Ms)
		}
		b.WriteString("]")
	}
}

// explainValues adds each run's figures to explainComparison's answer
// (run -values).
var explainValues bool

// explainMetric is the metric an experiment's Explain is about: its
// primary metric, p99 for tail-only.
func explainMetric(rec Record) string {
	switch rec.Truth.Expect {
	case "same", "A-faster", "B-faster":
		return primaryMetric(rec.Scenario)
	case "B-worse-p99":
		return analyze.MetricLatP99Ms
	}
	return ""
}

// gateOutcome is the default gate's decision for a comparison family
// analysed with A as the baseline (compare A B: B is the new system):
// "pass", or "fail:" and the conditions that fail it.
func gateOutcome(v *analyze.Verdict) string {
	if !v.Gate.Failed {
		return "pass"
	}
	var cs []string
	for _, r := range v.Gate.Reasons {
		if !r.Fails {
			continue
		}
		s := string(r.Condition)
		if r.Condition == gate.Errors {
			e := v.ErrorComparisons[r.Comparison]
			s += fmt.Sprintf("(%+.2fpts)", e.DiffPts)
		} else if r.Comparison >= 0 {
			c := v.Comparisons[r.Comparison]
			s += fmt.Sprintf("(%s %+.1f%%", c.Metric, r.WorsePct)
			if r.Unbounded {
				s += " unbounded"
			}
			s += ")"
		}
		cs = append(cs, s)
	}
	return "fail:" + strings.Join(cs, ",")
}

// aa48 names the A/A experiments with 4-8 runs a side in writeGate.
const aa48 = "aa 4-8 runs"

// writeGate writes, per comparison family, how often the default gate
// (compare A B: B against the baseline A) fails.
func writeGate(w io.Writer, res []Result) {
	n, failed := map[string]int{}, map[string]int{}
	var fams, extra []string
	for _, r := range res {
		if r.Gate == "" {
			continue
		}
		if r.Family == "ab" || r.Family == "tail-only" {
			// B slower (A-faster, B-worse-p99): a regression the gate
			// must fail; B faster: an improvement it must pass.
			k := r.Family + " B slower"
			if r.Expect == "B-faster" {
				k = r.Family + " B faster"
			}
			if n[k] == 0 {
				extra = append(extra, k)
			}
			n[k]++
			if r.Gate != "pass" {
				failed[k]++
			}
		}
		if r.Family == "aa" {
			// issue 20's acceptance: A/A with 4-8 runs a side.
			if lo, hi := min(r.rec.Truth.RunsA, r.rec.Truth.RunsB), max(r.rec.Truth.RunsA, r.rec.Truth.RunsB); lo >= 4 && hi <= 8 {
				n[aa48]++
				if r.Gate != "pass" {
					failed[aa48]++
				}
			}
		}
		if n[r.Family] == 0 {
			fams = append(fams, r.Family)
		}
		n[r.Family]++
		if r.Gate != "pass" {
			failed[r.Family]++
		}
	}
	if len(fams) == 0 {
		return
	}
	if n[aa48] > 0 {
		fams = append(fams, aa48)
	}
	fams = append(fams, extra...)
	fmt.Fprintln(w, "\ndefault gate of compare A B (B new, A the baseline), experiments failing:")
	for _, f := range fams {
		fmt.Fprintf(w, "  %-12s %d/%d = %.1f %%\n", f, failed[f], n[f], 100*float64(failed[f])/float64(n[f]))
	}
}

// writeRobust writes, for the A/A and A/B families, how often the
// primary comparison or the median-latency one (the robust figure)
// decides: A/B in the right direction, A/A at all (a false positive on
// either). Reporting only; the grade is the primary metric's.
func writeRobust(w io.Writer, res []Result) {
	var aa, aaFP, ab, abRight, abWrong int
	for _, r := range res {
		if r.P50 == "" {
			continue
		}
		switch r.Family {
		case "aa":
			aa++
			if r.Grade == gradeWrong || r.P50 == "A-faster" || r.P50 == "B-faster" {
				aaFP++
			}
		case "ab":
			ab++
			switch {
			case r.Grade == gradeRight || r.P50 == r.Expect:
				abRight++
				if r.Grade == gradeWrong || r.P50 != r.Expect && r.P50 != "inconclusive" {
					abWrong++
				}
			case r.Grade == gradeWrong || r.P50 == "A-faster" || r.P50 == "B-faster" || r.P50 == "no-difference":
				abWrong++
			}
		}
	}
	if aa+ab == 0 {
		return
	}
	fmt.Fprintf(w, "\nprimary metric or median latency (p50) decided (not graded): A/B right %d/%d, A/B with a wrong call on either %d; A/A significant on either %d/%d\n",
		abRight, ab, abWrong, aaFP, aa)
}
