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
// post as a pull-request comment: the gate, the numbers of up to 4
// systems and settings (fewer if the lines run out), the headline, the comparison
// table with its footnotes, the thresholds, the three most important
// findings and a link to reportLink (report.md beside it), in at most
// SummaryMDLines lines: rows of the table and thresholds that do not fit
// are counted and left to the full report.
func SummaryMarkdown(w io.Writer, v *analyze.Verdict, reportLink string) error {
	head := []string{"### loadverdict: " + text(v.Experiment)}
	var tail []string
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
	// The numbers table keeps up to 4 rows while the comparisons shrink,
	// then gives up rows too (saying how many the full report has).
	nums := min(len(numbersRows(v)), 4)
	bodyOf := func(rows, numRows int) []string {
		return append(markdownBlocks(verdictLead(v, 1, numbersBlocks(v, numRows))), markdownBlocks(compareBlocks(v, rows, nil))...)
	}
	body := bodyOf(-1, nums)
	for n := 2*len(v.Comparisons) + len(v.Thresholds); len(head)+len(body)+len(tail) > SummaryMDLines && n >= 0; n-- {
		body = bodyOf(n, nums)
	}
	for ; len(head)+len(body)+len(tail) > SummaryMDLines && nums > 0; nums-- {
		body = bodyOf(0, nums-1)
	}
	_, err := io.WriteString(w, strings.Join(slices.Concat(head, body, tail), "\n")+"\n")
	return err
}
