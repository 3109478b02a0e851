package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
)

// This file writes the gate's checks as JUnit XML (--junit FILE), the
// test-report format GitLab, Jenkins and GitHub's test reporters read:
// one testsuite, one testcase per threshold check, comparison and
// history check; a check that fails the gate has a <failure> with the
// reason; one that would have but was allowed has <skipped> saying so.

// junitSuites is the document: <testsuites> with one <testsuite>.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// add appends a case: failing when fail has reasons, skipped (allowed)
// when allowed has, else passing with out as its output.
// Values from input are shortened (shorten) in the JUnit report: a
// case's name to cellRunes, a message and the output to proseRunes, the
// failure's text to 4*proseRunes; with XML's escaping (at most 6 bytes a
// rune) a testcase is at most JUnitCaseBytes.
const JUnitCaseBytes = 64 << 10

func (s *junitSuite) add(class, name, out string, fail, allowed []string, cond gate.Condition) {
	c := junitCase{Name: shorten(name, cellRunes), Classname: class, SystemOut: shorten(out, proseRunes)}
	switch {
	case len(fail) > 0:
		c.Failure = &junitFailure{Message: shorten(fail[0], proseRunes), Type: string(cond), Text: shorten(strings.Join(fail, "\n"), 4*proseRunes)}
		s.Failures++
	case len(allowed) > 0:
		c.Skipped = &junitSkipped{Message: shorten("allowed: "+allowed[0], proseRunes)}
		s.Skipped++
	}
	s.Cases = append(s.Cases, c)
	s.Tests++
}

// write writes the suite as a document.
func (s junitSuite) write(w io.Writer) error {
	doc := junitSuites{Name: "loadverdict", Tests: s.Tests, Failures: s.Failures, Skipped: s.Skipped, Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// JUnit writes the verdict's gate as JUnit XML: a testcase per threshold
// check (classname loadverdict.threshold), per comparison
// and error comparison (loadverdict.comparison) and one per system the gate could not compare
// (loadverdict.no-comparison); the failures are the gate's reasons that
// fail it, with their message as report.md words them.
func JUnit(w io.Writer, v *analyze.Verdict) error { return JUnitWith(w, v) }

// JUnitCase is a check a command adds to a verdict's JUnit report
// (loadverdict duel's decision): failing when Fail has reasons, skipped
// when Allowed has, else passing with Out as its output.
type JUnitCase struct {
	Class, Name, Out string
	Fail, Allowed    []string
	Condition        gate.Condition
}

// JUnitWith is JUnit with the cases extra after the verdict's own.
func JUnitWith(w io.Writer, v *analyze.Verdict, extra ...JUnitCase) error {
	s := junitSuite{Name: "loadverdict " + shorten(v.Experiment, cellRunes)}
	byCheck := map[int][]analyze.GateReason{}
	byCmp := map[int][]analyze.GateReason{}
	byErr := map[int][]analyze.GateReason{}
	var none []analyze.GateReason
	for _, r := range v.Gate.Reasons {
		switch {
		case r.Check >= 0:
			byCheck[r.Check] = append(byCheck[r.Check], r)
		case r.Condition == gate.Errors && r.Comparison >= 0:
			byErr[r.Comparison] = append(byErr[r.Comparison], r)
		case r.Comparison >= 0:
			byCmp[r.Comparison] = append(byCmp[r.Comparison], r)
		default:
			none = append(none, r)
		}
	}
	split := func(rs []analyze.GateReason) (fail, allowed []string, cond gate.Condition) {
		for _, r := range rs {
			switch {
			case r.Fails:
				fail, cond = append(fail, gateReasonText(v, r)), r.Condition
			case r.Allowed:
				allowed = append(allowed, gateReasonText(v, r))
			}
		}
		return fail, allowed, cond
	}
	for i, c := range v.Thresholds {
		fail, allowed, cond := split(byCheck[i])
		s.add("loadverdict.threshold", fmt.Sprintf("%s: %s at %s", thresholdOf(v, c).Expr, c.System, settingsText(c.Settings)),
			checkLine(v, c), fail, allowed, cond)
	}
	for i, c := range v.Comparisons {
		fail, allowed, cond := split(byCmp[i])
		out := c.Verdict
		if lines := reasonLines(c.Reasons, true); len(lines) > 0 {
			out += ": " + strings.Join(lines, "; ")
		}
		s.add("loadverdict.comparison", fmt.Sprintf("%s of %s vs %s at %s", metricWords(c.Metric), c.A, c.B, settingsText(c.Settings)),
			out, fail, allowed, cond)
	}
	for i, e := range v.ErrorComparisons {
		fail, allowed, cond := split(byErr[i])
		s.add("loadverdict.comparison", fmt.Sprintf("error rate of %s vs %s at %s", e.A, e.B, settingsText(e.Settings)),
			e.Verdict, fail, allowed, cond)
	}
	for _, r := range none {
		fail, allowed, cond := split([]analyze.GateReason{r})
		if len(fail) == 0 && len(allowed) == 0 {
			continue
		}
		name := "nothing compared"
		if r.System != "" {
			name = r.System + " against " + v.Options.Baseline
		}
		s.add("loadverdict."+string(r.Condition), name, "", fail, allowed, cond)
	}
	for _, c := range extra {
		s.add(c.Class, c.Name, c.Out, c.Fail, c.Allowed, c.Condition)
	}
	return s.write(w)
}

// HistoryJUnit writes a history's gate as JUnit XML: a testcase per check
// of the latest experiment (classname loadverdict.history), failing with
// the gate's reasons for it.
func HistoryJUnit(w io.Writer, h *analyze.History) error {
	s := junitSuite{Name: "loadverdict history " + shorten(h.Series, cellRunes)}
	for ti, t := range h.Tracks {
		for mi, mt := range t.Metrics {
			if mt.Latest == nil {
				continue
			}
			var fail, allowed []string
			var cond gate.Condition
			for _, r := range h.Reasons {
				switch {
				case r.Track != ti || r.Metric != mi:
				case r.Fails:
					fail, cond = append(fail, historyReasonText(h, r)), r.Condition
				case r.Allowed:
					allowed, cond = append(allowed, historyReasonText(h, r)), r.Condition
				}
			}
			s.add("loadverdict.history", fmt.Sprintf("%s: %s", trackText(t), metricWords(mt.Metric)),
				string(mt.Latest.Verdict), fail, allowed, cond)
		}
		if t.Errors != nil {
			// The error check: a testcase of its own, failing with the
			// errors reason.
			var fail, allowed []string
			for _, r := range h.Reasons {
				switch {
				case r.Track != ti || r.Condition != gate.Errors:
				case r.Fails:
					fail = append(fail, historyReasonText(h, r))
				case r.Allowed:
					allowed = append(allowed, historyReasonText(h, r))
				}
			}
			s.add("loadverdict.history", trackText(t)+": error rate", string(t.Errors.Verdict), fail, allowed, gate.Errors)
		}
	}
	for _, r := range h.Reasons {
		if r.Track >= 0 {
			continue
		}
		var fail, allowed []string
		if r.Fails {
			fail = []string{historyReasonText(h, r)}
		} else if r.Allowed {
			allowed = []string{historyReasonText(h, r)}
		}
		s.add("loadverdict.history", "the latest experiment", string(analyze.CheckUndecided), fail, allowed, r.Condition)
	}
	return s.write(w)
}
