// Package report renders an analyze.Verdict for people and machines:
// report.md (Markdown) and report.html (HTML, a self-contained page of the
// same document), summary.md (its short form for a pull-request
// comment, SummaryMarkdown), summary.json (JSON, the machine-readable
// contract of docs/SCHEMA.md) and what `loadverdict compare` prints
// (Compare: a table per setting in benchstat's habit, as text, markdown
// or JSON). Every sentence of loadverdict's output is
// worded here, from the codes and figures of the Verdict: the headline
// (Headline, which the CLI and the pipeline print), the findings' subject,
// message and fix, the comparisons' reasons, the warm-up details, the
// saturation evidence, the warnings, the threshold checks and the gate's
// reasons (GateReasons). A series' history (analyze.History) is worded by
// HistoryHeadline, HistoryMarkdownAndHTML, HistorySummaryMarkdown, HistoryJSON
// (its summary.json, SeriesSummary) and HistoryGateReasons. It is pure:
// values in, bytes out.
//
// Bounds: summary.md is at most SummaryMDLines lines and SummaryMDBytes
// bytes, fitted in time linear in its rows; a JUnit test case is at most
// JUnitCaseBytes. Values from the input are shortened there for display
// (shorten: start, ellipsis, hash), so two long values never look alike.
package report
