package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
)

// SummaryMDLines is the most lines summary.md has.
const SummaryMDLines = 25

// SummaryMarkdown writes summary.md, the short form of the verdict to
// post as a pull-request comment: the headline, the gate, the comparison
// table with its footnotes, the thresholds, the three most important
// findings and a link to reportLink (report.md beside it), in at most
// SummaryMDLines lines: rows of the table and thresholds that do not fit
// are counted and left to the full report.
func SummaryMarkdown(w io.Writer, v *analyze.Verdict, reportLink string) error {
	head := []string{"### loadverdict: " + text(v.Experiment)}
	tail := errorsSummaryLines(v, 3)
	fs := slices.Clone(v.Findings)
	rank := map[analyze.Severity]int{analyze.SeverityError: 0, analyze.SeverityWarning: 1, analyze.SeverityInfo: 2}
	slices.SortStableFunc(fs, func(a, b analyze.Finding) int { return cmp.Compare(rank[a.Severity], rank[b.Severity]) })
	if len(fs) > 0 {
		tail = append(tail, fmt.Sprintf("**Findings** (%d; the most important):", len(fs)))
		for _, f := range fs[:min(3, len(fs))] {
			wf := wordFinding(f)
			tail = append(tail, fmt.Sprintf("- **%s** `%s`: %s", f.Severity, f.Code, text(wf.Message)))
		}
		tail = append(tail, "")
	}
	tail = append(tail, fmt.Sprintf("Full report: [%s](%s) (figures, warm-up, capacity, every run).", text(reportLink), reportLink))
	body := compareMarkdown(v, -1, 1)
	for n := 2*len(v.Comparisons) + len(v.Thresholds); len(head)+len(body)+len(tail) > SummaryMDLines && n >= 0; n-- {
		body = compareMarkdown(v, n, 1)
	}
	_, err := io.WriteString(w, strings.Join(slices.Concat(head, body, tail), "\n")+"\n")
	return err
}
