package report

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// This file builds the report's later sections: thresholds, findings,
// warm-up, latency, capacity and the appendix.

// thresholds lists the threshold checks, when thresholds were given.
func (b *reportBuilder) thresholds() *section {
	v := b.v
	if len(v.Options.SLO) == 0 {
		return nil
	}
	sec := &section{Title: "Thresholds", ID: "thresholds"}
	sec.Blocks = append(sec.Blocks, para(tx("Each threshold (the answers give every check) is checked on each system's steady runs (the last run where there is no steady state): "),
		mono("pass"), tx(" or "), mono("fail"), tx(fmt.Sprintf(" when the %s %% CI over the runs lies on one side of the limit (the value decides where there are too few runs for a CI), ", rel(100*v.Options.Level))),
		mono("marginal"), tx(" when it straddles the limit, "), mono("unknown"), tx(" when a run does not report the metric.")))
	if len(v.Thresholds) == 0 {
		sec.Blocks = append(sec.Blocks, para(tx("No system ran at settings a threshold applies to.")))
		return sec
	}
	// The checks are in the answers' table.
	return sec
}

// figure is the figure of that name (with or without its extension), none
// when there is no such figure.
func (b *reportBuilder) figure(name string) []block {
	for _, f := range b.figs {
		if f.Name == name || strings.TrimSuffix(f.Name, path.Ext(f.Name)) == name {
			return []block{&figureBlock{Figure: f}}
		}
	}
	return nil
}

// findings lists the methodology findings by severity; the findings of
// one code are one item, whose fix is stated once.
func (b *reportBuilder) findings() *section {
	sec := &section{Title: "Findings", ID: "findings"}
	if len(b.v.Findings) == 0 {
		sec.Blocks = append(sec.Blocks, para(tx("None.")))
		return sec
	}
	type entry struct {
		code     analyze.Code
		subjects []string
		messages []string
		fix      string
	}
	folded := foldFindings(b.v, b.v.Findings) // a finding of each of a system's runs said once
	for _, sev := range []struct {
		s     analyze.Severity
		title string
	}{{analyze.SeverityError, "Errors"}, {analyze.SeverityWarning, "Warnings"}, {analyze.SeverityInfo, "Notes"}} {
		var es []*entry
		for _, wf := range folded {
			f, w := wf.Finding, wf.findingWords
			if f.Severity != sev.s {
				continue
			}
			i := slices.IndexFunc(es, func(e *entry) bool { return e.code == f.Code })
			if i < 0 {
				es = append(es, &entry{code: f.Code, fix: w.Fix})
				i = len(es) - 1
			}
			es[i].subjects = append(es[i].subjects, w.Subject)
			es[i].messages = append(es[i].messages, w.Message)
		}
		if len(es) == 0 {
			continue
		}
		l := &list{}
		for _, e := range es {
			msg := strings.Join(dedupeSentences(e.messages, b.said), " ")
			// A subject its own message names is not said again. (Each
			// against its own message: against the joined messages the
			// check cost the square of the findings, 19 s for the
			// 20,000 long-tail findings of 20,000 runs.)
			var subj []string
			for i, x := range e.subjects {
				if !strings.Contains(e.messages[i], x) {
					subj = append(subj, x)
				}
			}
			runs := []inline{mono(string(e.code))}
			if len(subj) > 0 {
				runs = append(runs, tx(" ("+strings.Join(subj, "; ")+")"))
			}
			runs = append(runs, tx(": "+msg))
			if e.fix != "" {
				runs = append(runs, br(), bold("Fix:"), tx(" "+e.fix))
			}
			l.Items = append(l.Items, listItem{Runs: runs})
		}
		sec.Blocks = append(sec.Blocks, &section{Title: fmt.Sprintf("%s (%d)", sev.title, len(es)), ID: "findings-" + string(sev.s), Blocks: []block{l}})
	}
	return sec
}

// dedupeSentences leaves out the sentences and colon-separated clauses of
// messages that an earlier one, or the answers (said), already said: the
// findings of one code explain alike, and a saturation's evidence is in
// the answers.
func dedupeSentences(msgs []string, said map[string]bool) []string {
	seen := maps.Clone(said)
	if seen == nil {
		seen = map[string]bool{}
	}
	var out []string
	for i, m := range msgs {
		var kept []string
		for _, sentence := range strings.SplitAfter(m, ". ") {
			for _, clause := range strings.SplitAfter(sentence, ": ") {
				k := strings.TrimRight(strings.TrimSpace(clause), ":.")
				if !seen[k] || i == 0 && !said[k] {
					kept = append(kept, clause)
				} else if n := len(kept); n > 0 && strings.HasSuffix(clause, ". ") && strings.HasSuffix(kept[n-1], ": ") {
					// The dropped clause ended a sentence: so does the one before.
					kept[n-1] = strings.TrimSuffix(kept[n-1], ": ") + ". "
				}
				seen[k] = true
			}
		}
		msg := strings.TrimRight(strings.TrimSpace(strings.Join(kept, "")), ":")
		if msg != "" && !strings.HasSuffix(msg, ".") {
			msg += "."
		}
		if msg != "" {
			out = append(out, msg)
		}
	}
	return out
}

// warmup says how warm-up was looked for, gives the warm-up within runs,
// and shows the throughput and latency-over-time figures.
func (b *reportBuilder) warmup() *section {
	v := b.v
	sec := &section{Title: "Warm-up and steady state", ID: "warmup"}
	var items []listItem
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			if g.WithinRun != nil {
				items = append(items, listItem{Runs: []inline{bold(s.Label), tx(" at " + b.at(g.Settings) + " within its runs: "), mono(string(g.WithinRun.Class)),
					tx(" (" + warmupDetail(*g.WithinRun) + ").")}})
			}
		}
		items = append(items, runWarmupItems(s)...)
	}
	if len(items) > 0 {
		sec.Blocks = append(sec.Blocks, para(tx("Within runs with per-request data, the median latency per window is classified (one model of the series: flat, steps, a trend, a trend then flat; MSER-5 cross-check):")),
			&list{Items: items})
	}
	sec.Blocks = append(sec.Blocks, b.figure("throughput")...)
	for _, f := range b.figs {
		if strings.HasPrefix(f.Name, "latency-time-") {
			sec.Blocks = append(sec.Blocks, &figureBlock{Figure: f})
		}
	}
	if p := b.meta.OverTime.leftOut("Latency over time", "system and settings with per-request data (each system's in turn)"); p != nil {
		sec.Blocks = append(sec.Blocks, p)
	}
	if len(sec.Blocks) == 0 {
		return nil
	}
	return sec
}

// latency shows the latency figures.
func (b *reportBuilder) latency() *section {
	sec := &section{Title: "Latency", ID: "latency"}
	sec.Blocks = append(sec.Blocks, b.figure("latency")...)
	sec.Blocks = append(sec.Blocks, b.figure("percentiles")...)
	if len(sec.Blocks) == 0 {
		return nil
	}
	return sec
}

// capacity gives each system's Little's law ratios, saturation and USL
// fit, and the scaling figure.
func (b *reportBuilder) capacity() *section {
	sec := &section{Title: "Capacity", ID: "capacity"}
	var items []listItem
	ratio := false
	for _, s := range b.v.Systems {
		c := s.Capacity
		runs := []inline{bold(s.Label)}
		var parts []string
		if len(c.LittlesLawRatio) > 0 {
			var r []string
			for _, x := range c.LittlesLawRatio {
				r = append(r, rel(x))
			}
			what := "Little's law ratio "
			if !ratio {
				what = "Little's law ratio (rps x mean latency / connections; 1 when every connection is busy) "
			}
			parts = append(parts, what+strings.Join(r, ", "))
			ratio = true
		}
		if !c.Saturated && len(c.Levels) >= 2 {
			parts = append(parts, fmt.Sprintf("not saturated over %d concurrency levels", len(c.Levels)))
		}
		if u := c.USL; u != nil {
			usl := fmt.Sprintf("USL fit: sigma %s, kappa %s, lambda %s req/s, peak at N = %d (%s req/s), R² %s",
				num(u.Sigma), num(u.Kappa), num(u.Lambda), u.NMax, num(u.XMax), rel(u.R2))
			if u.NegativeSigma || u.NegativeKappa {
				usl += " (a negative coefficient: the fit is a curve, not a model of the system)"
			}
			parts = append(parts, usl)
		}
		if len(parts) == 0 && !c.Saturated {
			continue
		}
		if len(parts) > 0 {
			runs = append(runs, tx(": "+strings.Join(parts, "; ")))
		}
		if c.Saturated {
			runs = append(runs, tx("; "), bold("saturated"))
			if c.SaturatedAt != nil {
				runs = append(runs, tx(fmt.Sprintf(" from %d connections", *c.SaturatedAt)))
			}
			runs = append(runs, tx(" (answers above)"))
		}
		items = append(items, listItem{Runs: append(runs, tx("."))})
	}
	if len(items) > 0 {
		sec.Blocks = append(sec.Blocks, &list{Items: items})
	}
	sec.Blocks = append(sec.Blocks, b.figure("scaling")...)
	if len(sec.Blocks) == 0 {
		return nil
	}
	return sec
}

// optionsText words the analysis options by how they differ from the
// defaults (Verdict.Defaults): "default options", or "options as the
// defaults but alpha 0.01".
func optionsText(o, defaults analyze.Options) string {
	var got, def map[string]any
	a, _ := json.Marshal(o)
	d, _ := json.Marshal(defaults)
	if json.Unmarshal(a, &got) != nil || json.Unmarshal(d, &def) != nil {
		return "options"
	}
	var diff []string
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if fmt.Sprint(got[k]) != fmt.Sprint(def[k]) {
			b, _ := json.Marshal(got[k])
			diff = append(diff, k+" "+string(b))
		}
	}
	if len(diff) == 0 {
		return "default options"
	}
	return "options as the defaults but " + strings.Join(diff, ", ")
}

// runColumn is a column of the appendix's runs table.
type runColumn struct {
	head    string
	numeric bool
	cell    func(r results.Run) string
}

// runColumns are the columns of the runs table, target and source last
// (shown as code).
var runColumns = []runColumn{
	{"seq", true, func(r results.Run) string { return strconv.Itoa(int(r.Seq)) }},
	{"system", false, func(r results.Run) string { return r.Label }},
	{"tool", false, func(r results.Run) string { return r.Tool }},
	{"model", false, func(r results.Run) string { return r.LoadModel }},
	{"threads", true, func(r results.Run) string { return optI(r.Threads) }},
	{"conns", true, func(r results.Run) string { return optI(r.Connections) }},
	{"rate", true, func(r results.Run) string { return optF(r.TargetRPS) }},
	{"duration s", true, func(r results.Run) string { return fmtF(r.DurationS, 2) }},
	{"requests", true, func(r results.Run) string { return strconv.FormatInt(r.Requests, 10) }},
	{"errors", true, func(r results.Run) string { return strconv.FormatInt(r.Errors, 10) }},
	{"req/s", true, func(r results.Run) string { return fmtF(r.RPS, 2) }},
	{"mean ms", true, func(r results.Run) string { return optF(r.LatMeanMs) }},
	{"stdev ms", true, func(r results.Run) string { return optF(r.LatStdevMs) }},
	{"p50 ms", true, func(r results.Run) string { return optF(r.LatP50Ms) }},
	{"p90 ms", true, func(r results.Run) string { return optF(r.LatP90Ms) }},
	{"p99 ms", true, func(r results.Run) string { return optF(r.LatP99Ms) }},
	{"max ms", true, func(r results.Run) string { return optF(r.LatMaxMs) }},
	{"target", false, func(r results.Run) string { return r.Target }},
	{"source", false, func(r results.Run) string { return fmt.Sprintf("%s:%d", r.Source, r.SourceLine) }},
}

// appendix keeps the full data: every run (leaving out the columns no
// run fills), every comparison, the inputs, the warnings and the options.
func (b *reportBuilder) appendix(meta Meta) *section {
	v := b.v
	sec := &section{Title: "Appendix", ID: "appendix"}
	cols, same := shownRunColumns(v.Runs)
	oneSource := len(v.Runs) > 0 && !slices.ContainsFunc(v.Runs, func(r results.Run) bool { return r.Source != v.Runs[0].Source })
	var intro []block
	if len(same) > 0 || oneSource {
		intro = append(intro, everyRun(same, oneSource, v.Runs))
	}
	sec.Blocks = append(sec.Blocks, &section{Title: "Runs", ID: "runs", Blocks: append(intro, runsTable(cols, v.Runs, oneSource))})
	// The one source of every run, said above the runs, is not said again.
	if !oneSource || len(meta.Rejected) > 0 || len(meta.Removed) > 0 || len(meta.Copies) > 0 || !slices.Equal(meta.Inputs, []string{v.Runs[0].Source}) {
		sec.Blocks = append(sec.Blocks, inputsSection(meta))
	}
	if len(v.Warnings) > 0 {
		wl := &list{}
		for _, w := range warningLines(v) {
			wl.Items = append(wl.Items, listItem{Runs: []inline{tx(w)}})
		}
		sec.Blocks = append(sec.Blocks, &section{Title: "Warnings", ID: "warnings", Blocks: []block{wl}})
	}
	sec.Blocks = append(sec.Blocks, &section{Title: "How this report was made", ID: "made", Blocks: []block{
		para(tx(fmt.Sprintf("%s, analysis version %d, %s (all in summary.json).", meta.GeneratedBy, v.AnalysisVersion, optionsText(v.Options, v.Defaults))))}})
	return sec
}

// shownRunColumns returns the run columns the runs table shows, and the
// "head value" of every column left out for being the same in every run.
// A column no run fills says nothing, and one that is the same for every
// run is said once above the table; with one source, the source column
// keeps the line numbers.
func shownRunColumns(runs []results.Run) (cols []runColumn, same []string) {
	cols = slices.DeleteFunc(slices.Clone(runColumns), func(c runColumn) bool {
		if len(runs) < 2 || c.head == "seq" || c.head == "system" || c.head == "target" {
			return false
		}
		x := c.cell(runs[0])
		for _, r := range runs[1:] {
			if c.cell(r) != x {
				return false
			}
		}
		if x != "-" && c.head != "source" {
			same = append(same, c.head+" "+x)
		}
		return c.head != "source"
	})
	return cols, same
}

// everyRun is the line above the runs table: the values every run shares
// and, with one source, that source.
func everyRun(same []string, oneSource bool, runs []results.Run) *paragraph {
	p := para(tx("Every run: " + strings.Join(same, ", ")))
	if oneSource {
		if len(same) > 0 {
			p.Runs = append(p.Runs, tx("; "))
		}
		p.Runs = append(p.Runs, tx("from "), mono(runs[0].Source))
	}
	p.Runs = append(p.Runs, tx("."))
	return p
}

// runsTable is the table of every run in the columns cols; with one
// source, the source column is the line number.
func runsTable(cols []runColumn, runs []results.Run, oneSource bool) *tableBlock {
	t := &tableBlock{Class: "runs"}
	for _, c := range cols {
		head := c.head
		if head == "source" && oneSource {
			head = "line"
		}
		t.Head = append(t.Head, []inline{tx(head)})
		t.Numeric = append(t.Numeric, c.numeric || head == "line")
	}
	for _, r := range runs {
		var row [][]inline
		for _, c := range cols {
			cell := tx(c.cell(r))
			switch {
			case c.head == "source" && oneSource:
				cell = tx(strconv.Itoa(int(r.SourceLine)))
			case c.head == "target" || c.head == "source":
				cell = mono(c.cell(r))
			}
			row = append(row, []inline{cell})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// inputsSection lists the inputs and the files rejected or removed.
func inputsSection(meta Meta) *section {
	in := &list{}
	for _, x := range meta.Inputs {
		in.Items = append(in.Items, listItem{Runs: []inline{mono(x)}})
	}
	in.Items = append(in.Items, rejectedRemoved(meta)...)
	inputs := &section{Title: "Inputs", ID: "inputs"}
	if len(in.Items) > 0 {
		inputs.Blocks = append(inputs.Blocks, in)
	}
	return inputs
}
