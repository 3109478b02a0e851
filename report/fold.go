package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordedFinding is a finding with its words; Of is how many findings it
// folds (1: itself only).
type wordedFinding struct {
	analyze.Finding
	findingWords
	Of int
}

// figure matches a figure in a finding's words.
var figure = regexp.MustCompile(`\d+(?:\.\d+)?`)

// foldFindings words findings, folding those about single runs of one
// system with the same code and words but their figures into one: "a:80,
// in 6 of 6 runs: max latency 25.6-107.2 ms is 3.1-12x its mean ..."
// (each figure that differs as its range), in the order of their first.
// A finding about several runs or systems, or one alone, is worded as
// it is.
func foldFindings(v *analyze.Verdict, fs []analyze.Finding) []wordedFinding {
	type group struct {
		at      int        // index in out
		subject string     // the run subject each message names
		figs    [][]string // per finding, its figures in order
	}
	var out []wordedFinding
	groups := map[string]*group{}
	for _, f := range fs {
		w := wordFinding(f)
		s := f.Subject
		if len(s.Runs) != 1 || len(s.Systems) > 1 || !strings.HasPrefix(w.Message, runSubject(s)) {
			out = append(out, wordedFinding{f, w, 1})
			continue
		}
		subj := runSubject(s)
		rest := w.Message[len(subj):]
		skeleton := figure.ReplaceAllString(rest, "#")
		key := string(f.Severity) + "\x00" + string(f.Code) + "\x00" + s.Runs[0].Label + "\x00" + skeleton + "\x00" + w.Fix
		g, ok := groups[key]
		if !ok {
			g = &group{at: len(out), subject: subj}
			groups[key] = g
			out = append(out, wordedFinding{f, w, 0})
		}
		out[g.at].Of++
		g.figs = append(g.figs, figure.FindAllString(rest, -1))
	}
	for _, g := range groups {
		wf := &out[g.at]
		if wf.Of < 2 {
			continue
		}
		label := wf.Finding.Subject.Runs[0].Label
		total := 0
		for _, sys := range v.Systems {
			if sys.Label == label {
				total = sys.Runs
			}
		}
		subject := fmt.Sprintf("%s, in %d of %s", label, wf.Of, plural(max(total, wf.Of), "run"))
		i := 0
		rest := figure.ReplaceAllStringFunc(wf.Message[len(g.subject):], func(string) string {
			r := figureRange(g.figs, i)
			i++
			return r
		})
		if strings.HasPrefix(rest, " ") { // "a, in 2 of 6 runs, had 225 errors"
			rest = "," + rest
		}
		wf.findingWords.Subject, wf.Message = subject, subject+rest
	}
	return out
}

// figureRange is the i-th figure of each finding's figures: itself when
// all agree, else "lo-hi" as they were written.
func figureRange(figs [][]string, i int) string {
	lo, hi := figs[0][i], figs[0][i]
	for _, f := range figs[1:] {
		x, _ := strconv.ParseFloat(f[i], 64)
		if l, _ := strconv.ParseFloat(lo, 64); x < l {
			lo = f[i]
		}
		if h, _ := strconv.ParseFloat(hi, 64); x > h {
			hi = f[i]
		}
	}
	if lo == hi {
		return lo
	}
	return lo + "-" + hi
}
