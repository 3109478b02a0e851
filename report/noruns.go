package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
)

// NoRunsHeadline is the headline of an experiment of which no run could
// be read: every upload was rejected or removed.
const NoRunsHeadline = "No runs could be read: every input of this experiment was rejected or removed (see the inputs below)."

// rejectedRemoved lists the rejected and the removed inputs, one an item.
func rejectedRemoved(meta Meta) []listItem {
	var items []listItem
	for _, r := range meta.Rejected {
		items = append(items, listItem{Runs: []inline{tx("rejected: "), mono(r.Source), tx(": " + r.Error)}})
	}
	for _, r := range meta.Removed {
		items = append(items, listItem{Runs: []inline{tx("removed: "), mono(r), tx(": its upload was deleted, so its tables were removed")}})
	}
	for _, c := range meta.Copies {
		items = append(items, listItem{Runs: []inline{tx("copy: "), mono(runRef(c.Source, c.Index)), tx(": " + CopyWhy(c) + " "), mono(runRef(c.Of.Source, c.Of.Index)),
			tx(", counted once")}})
	}
	return items
}

// CopyWhy words why c is a copy, up to the run it copies.
func CopyWhy(c Copy) string {
	if c.Summary {
		return fmt.Sprintf("the tool's own summary of the %d requests of", c.Requests)
	}
	return fmt.Sprintf("the same %d requests (start, duration, latencies) as", c.Requests)
}

// runRef names run index of a source: the source alone for its first run.
func runRef(source string, index int32) string {
	if index == 0 {
		return source
	}
	return fmt.Sprintf("%s#%d", source, index)
}

// NoRuns writes the files of the report of an experiment without a single
// readable run (report.md, report.html, summary.md and summary.json, in
// that order): the headline says so, and the report lists every rejected
// input with why, and every removed one. summary.json has the shape of
// every other (SCHEMA.md), with empty lists, the options o and the gate g
// they decide (analyze.NoRunsGate), shown first where it guards anything.
func NoRuns(mdw, htmlw, smd, js io.Writer, experiment string, o analyze.Options, g analyze.Gate, meta Meta) error {
	d := &document{Title: "loadverdict: " + experiment,
		Lead: append(noRunsGateLead(g), &paragraph{Runs: []inline{bold("Verdict:"), tx(" " + NoRunsHeadline)}, Class: "verdict"}),
		Sections: []*section{
			{Title: "Inputs", ID: "inputs", Blocks: []block{&list{Items: rejectedRemoved(meta)}}},
			{Title: "How this report was made", ID: "made", Blocks: []block{
				para(tx(fmt.Sprintf("%s, analysis version %d.", meta.GeneratedBy, analyze.AnalysisVersion)))}},
		}}
	if err := writeMarkdown(mdw, d); err != nil {
		return err
	}
	if err := writeHTML(htmlw, d); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(smd, "### loadverdict: %s\n\n%s\n\nFull report: report.md\n", text(experiment), text(NoRunsHeadline)); err != nil {
		return err
	}
	enc := json.NewEncoder(js)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(Summary{Experiment: experiment, GeneratedBy: meta.GeneratedBy, AnalysisVersion: analyze.AnalysisVersion,
		Headline: NoRunsHeadline, Systems: []SummarySystem{}, Comparisons: []SummaryCompare{}, Thresholds: []SummaryCheck{},
		Gate: noRunsSummaryGate(o, g), Findings: []SummaryFinding{}, Warnings: []string{},
		Options: o, Runs: []SummaryRunBrief{}})
}

// noRunsReasonText words a reason of a gate without runs.
func noRunsReasonText(r analyze.GateReason) string {
	if r.Condition == gate.Unknown {
		return "no run could be read, so no threshold could be checked"
	}
	return "no run could be read, so nothing was compared"
}

// noRunsSummaryGate is summary.json's gate of an experiment without runs.
func noRunsSummaryGate(o analyze.Options, g analyze.Gate) SummaryGate {
	return verdictSummaryGate(g, o.MaxRegressionPct, noRunsReasonText)
}

// noRunsGateLead is the gate's line of a report without runs, where the
// gate guards anything: "Gate: failed (fails on ...): no run could be
// read, so nothing was compared".
func noRunsGateLead(g analyze.Gate) []block {
	state, pol, reasons, ok := noRunsGateWords(g)
	if !ok {
		return nil
	}
	text := " (" + pol + ")"
	if len(reasons) > 0 {
		text += ": " + strings.Join(reasons, "; ")
	}
	return []block{&paragraph{Runs: []inline{bold("Gate: " + state), tx(text)}, Class: "gate " + state}}
}

// noRunsGateWords words a gate without runs: its state, its policy and
// the reasons that fail it ("no-comparison: ..."); ok is false when it
// guards nothing and allows nothing (then it is not shown).
func noRunsGateWords(g analyze.Gate) (state, pol string, reasons []string, ok bool) {
	if !policyAsked(g.Policy) {
		return "", "", nil, false
	}
	state = "passed"
	if g.Failed {
		state = "failed"
	}
	for _, r := range g.Reasons {
		if r.Fails {
			reasons = append(reasons, string(r.Condition)+": "+noRunsReasonText(r))
		}
	}
	return state, gatePolicyText(g.Policy), reasons, true
}

// CompareNoRuns writes compare's result in format (CompareFormats) for
// OLD (old) and NEW (new) of which no run could be read: the headline
// NoRunsHeadline, and every rejected and removed input with why; in JSON
// a CompareDoc with empty lists, as summary.json is for such a report.
func CompareNoRuns(w io.Writer, experiment, old, new, format string, o analyze.Options, g analyze.Gate, meta Meta) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(CompareDoc{Experiment: experiment, Headline: NoRunsHeadline, Old: old, New: new,
			Comparisons: []SummaryCompare{}, Thresholds: []SummaryCheck{}, Gate: noRunsSummaryGate(o, g)})
	case "markdown":
		d := &document{Title: "loadverdict: " + experiment, Lead: append(noRunsGateLead(g), &paragraph{Runs: []inline{bold("Verdict:"), tx(" " + NoRunsHeadline)}, Class: "verdict"}),
			Sections: []*section{{Title: "Inputs", ID: "inputs", Blocks: []block{&list{Items: rejectedRemoved(meta)}}}}}
		return writeMarkdown(w, d)
	case "text":
		if _, err := fmt.Fprintln(w, NoRunsHeadline); err != nil {
			return err
		}
		if state, pol, reasons, ok := noRunsGateWords(g); ok {
			if _, err := fmt.Fprintf(w, "gate: %s (%s)\n", state, pol); err != nil {
				return err
			}
			for _, r := range reasons {
				if _, err := fmt.Fprintf(w, "  - %s\n", r); err != nil {
					return err
				}
			}
		}
		for _, r := range meta.Rejected {
			if _, err := fmt.Fprintf(w, "  rejected: %s: %s\n", plainText(r.Source), plainText(r.Error)); err != nil {
				return err
			}
		}
		for _, r := range meta.Removed {
			if _, err := fmt.Fprintf(w, "  removed: %s: its upload was deleted, so its tables were removed\n", plainText(r)); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("report: unknown compare format %q: want one of %s", format, strings.Join(CompareFormats, ", "))
}

// plainText is s for a terminal: control characters (a tab, a newline, an
// escape sequence's ESC) as spaces.
func plainText(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}
