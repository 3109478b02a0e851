package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/loadverdict/loadverdict/analyze"
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
// every other (SCHEMA.md), with empty lists, and the options o.
func NoRuns(mdw, htmlw, smd, js io.Writer, experiment string, o analyze.Options, meta Meta) error {
	d := &document{Title: "loadverdict: " + experiment,
		Lead: []block{&paragraph{Runs: []inline{bold("Verdict:"), tx(" " + NoRunsHeadline)}, Class: "verdict"}},
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
		Gate: SummaryGate{FailOn: []string{}, Allow: []string{}, Reasons: []SummaryGateReason{}}, Findings: []SummaryFinding{}, Warnings: []string{},
		Options: o, Runs: []SummaryRunBrief{}})
}

// CompareNoRuns writes compare's result in format (CompareFormats) for
// OLD (old) and NEW (new) of which no run could be read: the headline
// NoRunsHeadline, and every rejected and removed input with why; in JSON
// a CompareDoc with empty lists, as summary.json is for such a report.
func CompareNoRuns(w io.Writer, experiment, old, new, format string, meta Meta) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(CompareDoc{Experiment: experiment, Headline: NoRunsHeadline, Old: old, New: new,
			Comparisons: []SummaryCompare{}, Thresholds: []SummaryCheck{}, Gate: SummaryGate{FailOn: []string{}, Reasons: []SummaryGateReason{}}})
	case "markdown":
		d := &document{Title: "loadverdict: " + experiment, Lead: []block{&paragraph{Runs: []inline{bold("Verdict:"), tx(" " + NoRunsHeadline)}, Class: "verdict"}},
			Sections: []*section{{Title: "Inputs", ID: "inputs", Blocks: []block{&list{Items: rejectedRemoved(meta)}}}}}
		return writeMarkdown(w, d)
	case "text":
		if _, err := fmt.Fprintln(w, NoRunsHeadline); err != nil {
			return err
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
