package report_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

// hugeVerdicts are verdicts summary.md and the JUnit report must fit:
// 300 KB names, paths and error messages, 100 settings, 50 systems, and
// checks to cut.
func hugeVerdicts(t *testing.T) map[string]*analyze.Verdict {
	long := func(c byte, end string) string { return "/" + strings.Repeat(string(c), 300<<10) + end }
	gated := func(o *analyze.Options) { o.FailOn = gate.Conditions }
	out := map[string]*analyze.Verdict{}

	// Two systems whose 300 KB names differ only at their end.
	a, b := long('p', "/a"), long('p', "/b")
	runs := pairs(4, []int32{10}, func(i int, c int32) results.Run {
		return wrkRun(a, 0, c, 1000+float64(i), 10)
	}, func(i int, c int32) results.Run { return wrkRun(b, 0, c, 900+float64(i), 11) })
	v := analyzeOpts(t, runs, func(o *analyze.Options) {
		gated(o)
		o.Baseline, o.SLO = a, thresholds(t, "rps>=950", "lat_mean_ms<10.5")
	})
	for _, sys := range []string{a, b} {
		ep := long('u', "")
		v.Errors = append(v.Errors, analyze.ErrorBreakdown{System: sys, Endpoint: &ep, Requests: 100, Errors: 10, ErrorShare: 0.1,
			Causes: []analyze.ErrorRow{{Status: 0, Message: long('e', " refused"), Count: 6}, {Status: 0, Message: long('e', " reset"), Count: 4}}})
	}
	out["300 KB names"] = v

	// Four checks, two failing, of which the cut keeps two.
	runs = pairs(4, []int32{10}, func(i int, c int32) results.Run { return wrkRun("old:80", 0, c, 1000+float64(i), 10) },
		func(i int, c int32) results.Run { return wrkRun("new:80", 0, c, 900+float64(i), 11) })
	out["failing checks"] = analyzeOpts(t, runs, func(o *analyze.Options) {
		gated(o)
		o.Baseline, o.SLO = "old:80", thresholds(t, "rps>=950", "lat_mean_ms<10.5")
	})

	// 100 settings of two systems: 400 comparison rows, 100 thresholds.
	var conns []int32
	var exprs []string
	for c := range int32(100) {
		conns = append(conns, c+1)
		exprs = append(exprs, fmt.Sprintf("lat_mean_ms{connections=%d}<10.5", c+1))
	}
	runs = pairs(3, conns, func(i int, c int32) results.Run { return wrkRun("old:80", 0, c, 1000+float64(i), 10) },
		func(i int, c int32) results.Run { return wrkRun("new:80", 0, c, 900+float64(i), 11) })
	out["100 settings"] = analyzeOpts(t, runs, func(o *analyze.Options) { gated(o); o.Baseline, o.SLO = "old:80", thresholds(t, exprs...) })

	// 50 systems against one baseline.
	runs = nil
	for s := range 50 {
		for i := range 3 {
			r := wrkRun(fmt.Sprintf("system-%02d-%s:80", s, strings.Repeat("x", 40)), 0, 10, 1000+float64(s+i), 10+float64(s)/10)
			r.Seq, r.RunID = int32(3*s+i), results.RunID("t", 3*s+i)
			runs = append(runs, r)
		}
	}
	out["50 systems"] = analyzeOpts(t, runs, func(o *analyze.Options) {
		gated(o)
		o.Baseline = fmt.Sprintf("system-00-%s:80", strings.Repeat("x", 40))
	})
	return out
}

// summary.md stays within SummaryMDBytes and SummaryMDLines and the JUnit
// report within JUnitCaseBytes a test case on huge inputs; long values
// are shortened, each to something of its own; what is cut is said.
func TestSummaryMarkdownBounded(t *testing.T) {
	for name, v := range hugeVerdicts(t) {
		t.Run(name, func(t *testing.T) {
			var md, ju bytes.Buffer
			if err := report.SummaryMarkdown(&md, v, "report.md"); err != nil {
				t.Fatal(err)
			}
			s := md.String()
			if md.Len() > report.SummaryMDBytes || strings.Count(s, "\n") > report.SummaryMDLines {
				t.Errorf("summary.md: %d bytes, %d lines", md.Len(), strings.Count(s, "\n"))
			}
			for _, want := range []string{"**Verdict:** ", "**Gate: ", "in the full report", "Full report (figures, warm-up, capacity, every run): `report.md` beside this file; from CI, in the job's artifact."} {
				if !strings.Contains(s, want) {
					t.Errorf("no %q in summary.md", want)
				}
			}
			checkTableShapes(t, s)
			// A cut keeps the checks that fail the gate first.
			for _, l := range strings.Split(s, "\n") {
				if strings.HasPrefix(l, "| `") && !strings.Contains(l, "| **fail** |") && v.Gate.Failed {
					t.Errorf("a check that passes is shown, one that fails is cut: %s", l)
				}
			}
			if err := report.JUnit(&ju, v); err != nil {
				t.Fatal(err)
			}
			cases := strings.Split(ju.String(), "<testcase ")
			for _, c := range cases[1:] {
				if len(c) > report.JUnitCaseBytes {
					t.Errorf("a JUnit test case of %d bytes", len(c))
				}
			}
			if name == "300 KB names" {
				// The two names, the two messages: shortened, each its own.
				for _, x := range []string{"/a", "/b"} {
					sh := report.Shorten("/"+strings.Repeat("p", 300<<10)+x, 160)
					if sh2 := strings.ReplaceAll(sh, "…", ""); !strings.Contains(s, sh[len(sh)-9:]) || sh2 == sh {
						t.Errorf("summary.md lacks the shortened %q (%s)", x, sh[len(sh)-9:])
					}
				}
				if n := strings.Count(ju.String(), "…#"); n == 0 || len(ju.String()) > 64<<10 {
					t.Errorf("JUnit: %d bytes, %d shortened values", ju.Len(), n)
				}
			}
		})
	}
}

// summary.md builds its tables once, however many rows it cuts: the fit
// is counted over their sizes, not found by rebuilding them.
func TestSummaryMarkdownOnePass(t *testing.T) {
	v := hugeVerdicts(t)["100 settings"]
	before := report.TableBuilds()
	if err := report.SummaryMarkdown(&bytes.Buffer{}, v, "report.md"); err != nil {
		t.Fatal(err)
	}
	// The comparisons and the numbers: one build each.
	if n := report.TableBuilds() - before; n != 2 {
		t.Errorf("%d builds of the tables for one summary.md", n)
	}
}

// shorten keeps short values, and gives different long values different
// shortened forms of n runes, cut on a rune's boundary.
func TestShorten(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		same bool
	}{
		{"short", 10, true},
		{strings.Repeat("a", 10), 10, true},
		{strings.Repeat("a", 11), 10, false},
		{strings.Repeat("é", 300), 20, false},
		{strings.Repeat("日本", 1000), 160, false},
		{"throughput of " + strings.Repeat("p", 300<<10) + " is 10 % worse", 1500, false},
	} {
		got := report.Shorten(tc.in, tc.n)
		if (got == tc.in) != tc.same || len([]rune(got)) > tc.n || !strings.HasPrefix(tc.in, strings.Split(got, "…")[0]) {
			t.Errorf("Shorten(%.20q, %d) = %q", tc.in, tc.n, got)
		}
		if strings.HasSuffix(tc.in, " is 10 % worse") && !strings.HasSuffix(got, " is 10 % worse") {
			t.Errorf("Shorten(%.20q, %d) = %q: the sentence is cut, not the long word", tc.in, tc.n, got)
		}
		if !tc.same && report.Shorten(tc.in+"x", tc.n) == got {
			t.Errorf("Shorten(%.20q, %d): a different value looks the same", tc.in, tc.n)
		}
	}
}

// A cut keeps the comparison rows the gate fails on before the others,
// their footnotes numbered again from (1).
func TestSummaryMarkdownKeepsFailing(t *testing.T) {
	var conns []int32
	for c := range int32(6) {
		conns = append(conns, c+1)
	}
	// The same throughput, but at 6 connections new:80's is 20 % worse.
	runs := pairs(4, conns, func(i int, c int32) results.Run { return wrkRun("old:80", 0, c, 1000+float64(i), 10) },
		func(i int, c int32) results.Run {
			rps := 1000 + float64(i)
			if c == 6 {
				rps *= 0.8
			}
			return wrkRun("new:80", 0, c, rps, 10)
		})
	v := analyzeOpts(t, runs, func(o *analyze.Options) { o.Baseline, o.FailOn = "old:80", []gate.Condition{gate.Regression} })
	var md bytes.Buffer
	if err := report.SummaryMarkdown(&md, v, "report.md"); err != nil {
		t.Fatal(err)
	}
	s := md.String()
	if !v.Gate.Failed || !strings.Contains(s, "| req/s, 6 connections |") || !strings.Contains(s, "more rows in the full report") {
		t.Errorf("the failing row is cut:\n%s", s)
	}
	if strings.Contains(s, "(2)") && !strings.Contains(s, "(1)") {
		t.Errorf("footnotes not numbered from (1):\n%s", s)
	}
	checkTableShapes(t, s)
}

// A verdict without numbers (made without analyze.Analyze) gives a
// summary.md without a numbers table.
func TestSummaryMarkdownNoNumbers(t *testing.T) {
	v := hugeVerdicts(t)["failing checks"]
	for i := range v.Systems {
		for j := range v.Systems[i].Groups {
			v.Systems[i].Groups[j].Numbers.Basis = ""
		}
	}
	var md bytes.Buffer
	if err := report.SummaryMarkdown(&md, v, "report.md"); err != nil || strings.Contains(md.String(), "| system | settings | runs |") ||
		!strings.Contains(md.String(), "**Verdict:**") {
		t.Errorf("%v:\n%s", err, md.String())
	}
}
