// Package report renders an analyze.Verdict for people and machines:
// report.md (Markdown) and summary.json (JSON, the machine-readable
// contract of docs/SCHEMA.md). Every sentence of loadverdict's output is
// worded here, from the codes and figures of the Verdict: the headline
// (Headline, which the CLI and the pipeline print), the findings' subject,
// message and fix, the comparisons' reasons, the warm-up details, the
// saturation evidence and the warnings. It is pure: values in, bytes out.
package report
