package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/loadverdict/loadverdict/analyze"
)

// NoRunsHeadline is the headline of an experiment of which no run could
// be read: every upload was rejected or removed.
const NoRunsHeadline = "No runs could be read: every input of this experiment was rejected or removed (see the inputs below)."

// rejectedRemoved lists the rejected and the removed inputs, one a line.
func (m *md) rejectedRemoved(meta Meta) {
	for _, r := range meta.Rejected {
		m.p("- rejected: %s: %s\n", code(r.Source, false), text(r.Error))
	}
	for _, r := range meta.Removed {
		m.p("- removed: %s: its upload was deleted, so its tables were removed\n", code(r, false))
	}
}

// NoRuns writes the three text files of the report of an experiment
// without a single readable run (report.md, summary.md and summary.json,
// in that order): the headline says so, and report.md lists every
// rejected input with why, and every removed one. summary.json has the
// shape of every other (SCHEMA.md), with empty lists.
func NoRuns(mdw, smd, js io.Writer, experiment string, meta Meta) error {
	bw := bufio.NewWriter(mdw)
	m := &md{w: bw}
	m.p("# loadverdict: %s\n\n**Verdict:** %s\n\n## Inputs\n\n", text(experiment), text(NoRunsHeadline))
	m.rejectedRemoved(meta)
	m.p("\n### How this report was made\n\n%s, analysis version %d.\n", text(meta.GeneratedBy), analyze.AnalysisVersion)
	if m.err != nil {
		return m.err
	}
	if err := bw.Flush(); err != nil {
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
		Gate: SummaryGate{FailOn: []string{}, Reasons: []SummaryGateReason{}}, Findings: []SummaryFinding{}, Warnings: []string{},
		Options: analyze.DefaultOptions(), Runs: []SummaryRunBrief{}})
}
