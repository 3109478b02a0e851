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
const SummaryMDLines = 32

// SummaryMarkdown writes summary.md, the short form of the verdict to
// post as a pull-request comment: the gate's state, the numbers of up to
// 4 systems and settings, the headline, the comparison table with its
// footnotes, the thresholds, the errors by cause (a line per system, its
// three largest causes), the three most important findings and a
// link to reportLink (report.md beside it), in at most SummaryMDLines
// lines. What does not fit is counted and left to the full report: rows
// of the comparison table and thresholds down to one, rows of the
// numbers down to one, findings down to one, then the last of each.
func SummaryMarkdown(w io.Writer, v *analyze.Verdict, reportLink string) error {
	head := []string{"### loadverdict: " + text(v.Experiment)}
	fs := slices.Clone(v.Findings)
	rank := map[analyze.Severity]int{analyze.SeverityError: 0, analyze.SeverityWarning: 1, analyze.SeverityInfo: 2}
	slices.SortStableFunc(fs, func(a, b analyze.Finding) int { return cmp.Compare(rank[a.Severity], rank[b.Severity]) })
	tailOf := func(k int) []string {
		tail := errorsSummaryLines(v, 3)
		if len(fs) > 0 {
			tail = append(tail, fmt.Sprintf("**Findings** (%d; the most important):", len(fs)))
			if k == 0 {
				tail[0] = fmt.Sprintf("**Findings**: %d, in the full report.", len(fs))
			}
			for _, f := range fs[:min(k, len(fs))] {
				wf := wordFinding(f)
				tail = append(tail, fmt.Sprintf("- **%s** `%s`: %s", f.Severity, f.Code, text(wf.Message)))
			}
			tail = append(tail, "")
		}
		return append(tail, fmt.Sprintf("Full report: [%s](%s) (figures, warm-up, capacity, every run).", text(reportLink), reportLink))
	}
	bodyOf := func(rows, numRows int) []string {
		var nums []block
		if numRows > 0 {
			nums = numbersBlocks(v, numRows)
		}
		return append(markdownBlocks(verdictLead(v, 1, nums)), markdownBlocks(compareBlocks(v, rows, nil))...)
	}
	rows, nums, finds := 2*len(v.Comparisons)+len(v.Thresholds), min(len(numbersRows(v)), 4), 3
	fits := func() bool {
		return len(head)+len(bodyOf(rows, nums))+len(tailOf(finds)) <= SummaryMDLines
	}
	// Give up, in turn, comparison rows down to one, numbers rows down
	// to one, findings down to one, then the last of each.
	for _, step := range []struct {
		n     *int
		floor int
	}{{&rows, 1}, {&nums, 1}, {&finds, 1}, {&rows, 0}, {&nums, 0}, {&finds, 0}} {
		for !fits() && *step.n > step.floor {
			*step.n--
		}
	}
	body, tail := bodyOf(rows, nums), tailOf(finds)
	_, err := io.WriteString(w, strings.Join(slices.Concat(head, body, tail), "\n")+"\n")
	return err
}
