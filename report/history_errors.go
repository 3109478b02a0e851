package report

import (
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
)

// This file words the history's error check (analyze.ErrorCheck).

// errorRefText names an error check's reference: "the 5 experiments
// since night01 (10 runs)", with how they were chosen when not by the
// sequential check.
func errorRefText(h *analyze.History, t analyze.Track, c analyze.ErrorCheck) string {
	s := fmt.Sprintf("the reference (%s since %s, %s)", plural(len(c.Reference), "experiment"), pointName(h, t, c.Reference[0]),
		plural(c.Comparison.BRuns, "run"))
	if c.ReferenceBy == analyze.ErrorRefEarlier {
		s = fmt.Sprintf("the earlier experiments (%s since %s, %s; the throughput and latency check holds none as its reference)",
			plural(len(c.Reference), "experiment"), pointName(h, t, c.Reference[0]), plural(c.Comparison.BRuns, "run"))
	}
	return s
}

// errorEvidence words an error comparison's figures: "0 % -> 2.00 % (95 %
// CI +1.9 to +2.1 pts, p = 0.015, exact permutation test over 2 and 10
// runs)".
func errorEvidence(e analyze.ErrorComparison, level float64) string {
	ci := ""
	if e.Lo != nil && e.Hi != nil {
		ci = fmt.Sprintf("%s %% CI %s to %s pts, ", rel(100*level), signed(*e.Lo), signed(*e.Hi))
	}
	return fmt.Sprintf("%s -> %s (%sp = %s, %s over %d and %d runs)", metricValue(string(gate.ErrorRate), e.BRate),
		metricValue(string(gate.ErrorRate), e.ARate), ci, relP(e.PValue), errorTestWords(e.Method), e.ARuns, e.BRuns)
}

// errorCheckText words the error check of a track on the latest
// experiment as a sentence without its verdict word: what rose, fell or
// did not change, with the numbers, or why it was not tested.
func errorCheckText(h *analyze.History, t analyze.Track, c analyze.ErrorCheck) string {
	e := c.Comparison
	latest := pointName(h, t, c.Point)
	what := trackText(t) + ": error rate"
	band := rel(e.BandPts)
	switch c.Verdict {
	case analyze.ErrorsRose:
		s := fmt.Sprintf("%s %s pts higher at %s than %s: %s, beyond the ±%s pts band", what, rel(e.DiffPts), latest,
			errorRefText(h, t, c), errorEvidence(e, h.Options.Level), band)
		if e.Verdict == analyze.Inconclusive {
			s += fmt.Sprintf("; its CI reaches back into the band, but its test shows the rise (p < %s)", rel(h.ErrorAlpha))
		}
		return s
	case analyze.ErrorsFell:
		return fmt.Sprintf("%s %s pts lower at %s than %s: %s", what, rel(-e.DiffPts), latest, errorRefText(h, t, c),
			errorEvidence(e, h.Options.Level))
	case analyze.ErrorsNoChange:
		return fmt.Sprintf("%s at %s, %s pts against %s: %s; no rise beyond the ±%s pts band shown", what, latest, signed(e.DiffPts),
			errorRefText(h, t, c), errorEvidence(e, h.Options.Level), band)
	}
	switch c.Undecided {
	case analyze.ErrorsNoReference:
		return fmt.Sprintf("%s at %s not tested: no earlier experiment to test it against", what, latest)
	case analyze.ErrorsAccepted:
		return fmt.Sprintf("%s at %s not tested: the experiment is accepted, its error rate the reference from it on", what, latest)
	case analyze.ErrorUntestedNoRequests:
		return fmt.Sprintf("%s at %s not tested: a run attempted no request", what, latest)
	case analyze.ErrorUntestedOverdispersed:
		return fmt.Sprintf("%s at %s, %s pts against %s: %s -> %s, not tested: too few runs for the permutation test over runs, and a side's runs vary beyond chance, so their pooled requests cannot be tested either; run 2 or more runs a night to test it",
			what, latest, signed(e.DiffPts), errorRefText(h, t, c), metricValue(string(gate.ErrorRate), e.BRate), metricValue(string(gate.ErrorRate), e.ARate))
	}
	return fmt.Sprintf("%s at %s could not be tested", what, latest)
}

// errorCheckVerdictWords is the short verdict of an error check, for a
// table cell.
func errorCheckVerdictWords(c analyze.ErrorCheck) string {
	switch c.Verdict {
	case analyze.ErrorsRose:
		return "rose"
	case analyze.ErrorsFell:
		return "fell"
	case analyze.ErrorsNoChange:
		return "no rise shown"
	}
	return "not tested"
}

// errorCheckSentence words the error check of a track on the latest
// experiment with its verdict: "Errors rose: ...".
func errorCheckSentence(h *analyze.History, t analyze.Track, c analyze.ErrorCheck) string {
	s := errorCheckText(h, t, c)
	if c.Verdict == analyze.ErrorsRose {
		return "Errors rose: " + s + "."
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// errorsRoseTrack is the first track whose error check of the latest
// experiment fails the gate condition errors (met, allowed or not), -1
// when none.
func errorsRoseTrack(h *analyze.History) int {
	for _, r := range h.Reasons {
		if r.Condition == gate.Errors && r.Track >= 0 {
			return r.Track
		}
	}
	return -1
}

// historyErrorTable is the table of the error checks of the latest
// experiment, one row a track; nil when no track ran in it.
func historyErrorTable(h *analyze.History) *tableBlock {
	t := &tableBlock{Head: textRow("system and settings", "tested", "reference", "change", "CI", "p", "runs", "test", "verdict"),
		Numeric: []bool{false, true, true, true, true, true, true, false, false}, Class: "compare"}
	for _, tr := range h.Tracks {
		c := tr.Errors
		if c == nil {
			continue
		}
		e := c.Comparison
		r := textRow(trackText(tr), "–", "–", "–", "–", "–", "–", "–", errorCheckVerdictWords(*c))
		if c.Undecided != analyze.ErrorsNoReference && c.Undecided != analyze.ErrorsAccepted && c.Undecided != analyze.ErrorUntestedNoRequests {
			r[1], r[2] = []inline{tx(metricValue(string(gate.ErrorRate), e.ARate))}, []inline{tx(metricValue(string(gate.ErrorRate), e.BRate))}
			r[3] = []inline{tx(signed(e.DiffPts) + " pts")}
			r[6] = []inline{tx(fmt.Sprintf("%d/%d", e.ARuns, e.BRuns))}
		}
		if e.Lo != nil && e.Hi != nil {
			r[4] = []inline{tx(signed(*e.Lo) + " to " + signed(*e.Hi) + " pts")}
		}
		if e.PValue != nil {
			r[5] = []inline{tx(rel(*e.PValue))}
		}
		if e.Method != "" {
			r[7] = []inline{tx(errorTestWords(e.Method))}
		}
		if c.Verdict == analyze.ErrorsUndecided {
			r[8] = []inline{tx(errorCheckVerdictWords(*c) + ": " + undecidedErrorWords(c.Undecided))}
		}
		if c.Fails {
			r[8] = []inline{bold(r[8][0].text)}
		}
		t.Rows = append(t.Rows, r)
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// undecidedErrorWords says briefly why an error check was not tested.
func undecidedErrorWords(why string) string {
	switch why {
	case analyze.ErrorsNoReference:
		return "no earlier experiment"
	case analyze.ErrorsAccepted:
		return "accepted"
	case analyze.ErrorUntestedNoRequests:
		return "a run attempted no request"
	case analyze.ErrorUntestedOverdispersed:
		return "too few runs, which vary beyond chance"
	}
	return "the test could not be made"
}
