package report

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
)

// SummaryMDLines is the most lines summary.md has.
const SummaryMDLines = 32

// SummaryMDBytes is the most bytes summary.md has: a pull-request comment
// stops at 65,536 characters.
const SummaryMDBytes = 60000

// Values taken from input are shortened for display in summary.md and
// the JUnit report (shorten): a table cell or a name to cellRunes, a
// sentence (headline, finding, gate reason) to proseRunes. With text's
// escaping (at most 5 bytes a rune) and the fixed parts this keeps even
// the shortest summary.md far under SummaryMDBytes.
const (
	cellRunes  = 160
	proseRunes = 1500
)

// shorten returns s, or when longer than n runes a shorter form: first
// each word (between spaces) longer than cellRunes, a name or path in a
// sentence, becomes its start, an ellipsis and 8 hex digits of its
// SHA-256; then, if still too long, so does the whole, to n runes. Two
// different long values never look the same.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if strings.Contains(s, " ") {
		words := strings.Split(s, " ")
		for i, w := range words {
			if utf8.RuneCountInString(w) > min(n, cellRunes) {
				words[i] = cutRunes(w, min(n, cellRunes))
			}
		}
		if s = strings.Join(words, " "); utf8.RuneCountInString(s) <= n {
			return s
		}
	}
	return cutRunes(s, n)
}

// cutRunes is s's start, an ellipsis and 8 hex digits of its SHA-256, n
// runes in all.
func cutRunes(s string, n int) string {
	sum := sha256.Sum256([]byte(s))
	suffix := "…#" + hex.EncodeToString(sum[:4])
	keep, i := max(n-utf8.RuneCountInString(suffix), 0), 0
	for j := range s {
		if i == keep {
			return s[:j] + suffix
		}
		i++
	}
	return s + suffix
}

// shortenBlocks shortens, in place, the text of every inline of bs: in
// a table to cellRunes, elsewhere to proseRunes.
func shortenBlocks(bs []block) {
	runs := func(rs []inline, n int) {
		for i := range rs {
			rs[i].text = shorten(rs[i].text, n)
		}
	}
	for _, b := range bs {
		switch b := b.(type) {
		case *paragraph:
			runs(b.Runs, proseRunes)
		case *notes:
			for _, it := range b.Items {
				runs(it, proseRunes)
			}
		case *tableBlock:
			for _, c := range b.Head {
				runs(c, cellRunes)
			}
			for _, r := range b.Rows {
				for _, c := range r {
					runs(c, cellRunes)
				}
			}
		}
	}
}

// mdSize is the lines and bytes (newlines included) of markdown lines.
type mdSize struct{ lines, bytes int }

func (a mdSize) add(b mdSize) mdSize { return mdSize{a.lines + b.lines, a.bytes + b.bytes} }

func sizeOf(lines []string) mdSize {
	s := mdSize{lines: len(lines)}
	for _, l := range lines {
		s.bytes += len(l) + 1
	}
	return s
}

// blocksSize measures blocks rendered as markdown.
func blocksSize(bs ...block) mdSize {
	if len(bs) == 0 {
		return mdSize{}
	}
	return sizeOf(markdownBlocks(bs))
}

// cutTable is a table whose rows summary.md may cut: its header's size,
// the order rows are kept in, the prefix sums of their bytes in that
// order and the row saying how many are left out (none when more is nil).
type cutTable struct {
	t     *tableBlock
	head  mdSize // the header, its separator and the blank line after
	order []int  // the rows, the most important first
	sums  []int  // sums[k]: the bytes of the first k rows of order
	more  func(n int) [][]inline
}

// newCutTable measures t's rows; rank (nil: all equal) orders the rows
// to keep, lower first, as given when equal.
func newCutTable(t *tableBlock, rank func(i int) int, more func(n int) [][]inline) *cutTable {
	c := &cutTable{t: t, more: more}
	if t == nil {
		return c
	}
	c.head = blocksSize(&tableBlock{Head: t.Head})
	c.order = make([]int, len(t.Rows))
	for i := range c.order {
		c.order[i] = i
	}
	if rank != nil {
		slices.SortStableFunc(c.order, func(a, b int) int { return cmp.Compare(rank(a), rank(b)) })
	}
	c.sums = make([]int, len(t.Rows)+1)
	for i, r := range c.order {
		c.sums[i+1] = c.sums[i] + len(rowMarkdown(t.Rows[r]))
	}
	return c
}

// blockOr is the table with the first k rows of its order, or, when it
// would keep none of them, none as a sentence: never a header without
// rows.
func (c *cutTable) blockOr(k int, none string) block {
	if k == 0 && len(c.t.Rows) > 0 {
		return para(tx(none))
	}
	return c.cut(k)
}

// size is the table's with its first k rows.
func (c *cutTable) size(k int) mdSize {
	if c.t == nil {
		return mdSize{}
	}
	s := c.head.add(mdSize{k, c.sums[k]})
	if k < len(c.t.Rows) && c.more != nil {
		s = s.add(mdSize{1, len(rowMarkdown(c.more(len(c.t.Rows) - k)))})
	}
	return s
}

// cut is the table with the first k rows of its order, in the table's.
func (c *cutTable) cut(k int) *tableBlock {
	t := *c.t
	keep := slices.Sorted(slices.Values(c.order[:k]))
	t.Rows = nil
	for _, i := range keep {
		t.Rows = append(t.Rows, c.t.Rows[i])
	}
	if k < len(c.t.Rows) && c.more != nil {
		t.Rows = append(t.Rows, c.more(len(c.t.Rows)-k))
	}
	return &t
}

// rowMarkdown is a table row as markdown, its newline included.
func rowMarkdown(r [][]inline) string {
	var b strings.Builder
	m := &markdownDoc{w: bufio.NewWriter(&b)}
	m.row(r)
	m.w.Flush()
	return b.String()
}

// fullReportLine says where the full report is, without a link: posted
// as a pull request's comment, a relative link resolves nowhere. name is
// the report's file (report.md), beside summary.md and in the CI job's
// artifact; what is what it holds.
func fullReportLine(name, what string) string {
	return fmt.Sprintf("Full report (%s): `%s` beside this file; from CI, in the job's artifact.", what, text(name))
}

// SummaryMarkdown writes summary.md, the short form of the verdict to
// post as a pull-request comment: the gate's state, the numbers of up to
// 4 systems and settings, the headline, the comparison table with its
// footnotes, the thresholds, the errors by cause (a line per system, its
// three largest causes), the three most important findings and
// where reportLink (report.md beside it) is, not a link (a comment
// resolves none), in at most SummaryMDLines
// lines and SummaryMDBytes bytes. What does not fit is counted and left
// to the full report: rows of the comparison table and thresholds down
// to one (the rows and checks the gate fails on kept first), rows of the
// numbers down to one, findings down to one, then the last of each.
// Values from input are shortened (shorten). Every part is built and
// measured once, then the fit is counted over the sizes: time linear in
// the rows.
func SummaryMarkdown(w io.Writer, v *analyze.Verdict, reportLink string) error {
	s := &summaryMD{v: v, reportLink: reportLink}
	s.head = []string{"### loadverdict: " + text(shorten(v.Experiment, cellRunes))}
	s.findings()
	s.errLines = errorsSummaryLines(v, 3)
	s.lead()
	s.numbers()
	s.comparison()
	s.fit()
	_, err := io.WriteString(w, strings.Join(slices.Concat(s.head, markdownBlocks(s.body()), s.tail(s.finds)), "\n")+"\n")
	return err
}

// summaryMD is summary.md in the making: its parts, each built and
// measured once, and how many rows and findings the fit keeps.
type summaryMD struct {
	v          *analyze.Verdict
	reportLink string
	head       []string
	fs         []wordedFinding // folded, the most severe first
	findLines  []string        // the first three of fs, worded
	errLines   []string

	gatePara, verdictPara []block
	numsTable             *tableBlock
	numsLegend            *paragraph
	legendSize            mdSize
	nums                  *cutTable

	before               []block // the title or "No comparison"
	cmpTable, checkTable *tableBlock
	cmpNotes             *notes
	nRows, nChecks       int
	flat                 []row
	rowsT, checksT       *cutTable
	// usedNotes[k] and noteBytes[k] are how many footnotes the first k
	// rows of rowsT's order refer to and their bytes without the "(n) ".
	usedNotes, noteBytes []int

	rows, numRows, finds int // kept: comparison rows and checks, numbers rows, findings
}

// findings folds the findings, the most severe first, and words the
// first three.
func (s *summaryMD) findings() {
	s.fs = foldFindings(s.v, s.v.Findings) // a finding of each of a system's runs said once
	rank := map[analyze.Severity]int{analyze.SeverityError: 0, analyze.SeverityWarning: 1, analyze.SeverityInfo: 2}
	slices.SortStableFunc(s.fs, func(a, b wordedFinding) int { return cmp.Compare(rank[a.Severity], rank[b.Severity]) })
	s.findLines = make([]string, min(3, len(s.fs)))
	for i, f := range s.fs[:min(3, len(s.fs))] {
		s.findLines[i] = fmt.Sprintf("- **%s** `%s`: %s", f.Severity, f.Code, text(shorten(f.Message, proseRunes)))
	}
}

// tail is the lines after the tables: the errors by cause, the first k
// findings (none: only their count) and where the full report is.
func (s *summaryMD) tail(k int) []string {
	tail := slices.Clone(s.errLines)
	if len(s.fs) > 0 {
		if k == 0 {
			tail = append(tail, fmt.Sprintf("**Findings**: %d, in the full report.", len(s.fs)))
		} else {
			tail = append(tail, fmt.Sprintf("**Findings** (%d; the most important):", len(s.fs)))
			tail = append(tail, s.findLines[:k]...)
		}
		tail = append(tail, "")
	}
	return append(tail, fullReportLine(s.reportLink, "figures, warm-up, capacity, every run"))
}

// lead splits the verdict's lead into the gate's paragraph (if any) and
// the verdict's.
func (s *summaryMD) lead() {
	lead := verdictLead(s.v, 1, nil)
	shortenBlocks(lead)
	if len(lead) == 2 {
		s.gatePara = lead[:1]
	}
	s.verdictPara = lead[len(lead)-1:]
}

// numbers builds the numbers table and its legend, if any.
func (s *summaryMD) numbers() {
	if nb := numbersBlocks(s.v, -1); len(nb) == 2 {
		shortenBlocks(nb)
		s.numsTable, s.numsLegend = nb[0].(*tableBlock), nb[1].(*paragraph)
	}
	s.nums = newCutTable(s.numsTable, nil, nil)
	if s.numsLegend != nil {
		s.legendSize = blocksSize(s.numsLegend)
	}
}

// legendOf is the numbers' legend with n of their rows kept: it counts
// the rows left out.
func (s *summaryMD) legendOf(n int) *paragraph {
	p := *s.numsLegend
	if n < len(s.numsTable.Rows) {
		p.Runs = []inline{tx(numbersMore(len(s.numsTable.Rows)-n) + p.Runs[0].text)}
	}
	return &p
}

// comparison builds the comparison's blocks: its title, table, footnotes
// and thresholds, the tables ready to cut.
func (s *summaryMD) comparison() {
	cb := compareBlocks(s.v, -1, nil)
	shortenBlocks(cb)
	for _, b := range cb {
		switch b := b.(type) {
		case *tableBlock:
			if b.Class == "thresholds" {
				s.checkTable = b
			} else {
				s.cmpTable = b
			}
		case *notes:
			s.cmpNotes = b
		default:
			s.before = append(s.before, b)
		}
	}
	s.nChecks = len(s.v.Thresholds)
	if s.cmpTable != nil {
		s.nRows = len(s.cmpTable.Rows)
		s.flat = flatRows(tables(s.v))
	}
	cmpRank, checkRank := summaryRanks(s.v, s.flat)
	s.rowsT = newCutTable(s.cmpTable, func(i int) int { return cmpRank[i] }, func(n int) [][]inline { return moreRow(n, "row", 7) })
	s.checksT = newCutTable(s.checkTable, func(i int) int { return checkRank[i] }, func(n int) [][]inline { return moreRow(n, "check", 5) })
	s.countNotes()
}

// summaryRanks orders the comparison rows (flat) and the checks to keep
// when cut: those the gate fails on first (0), then the allowed ones
// (comparisons, 1) or failed ones (checks, 1), then the rest (2).
func summaryRanks(v *analyze.Verdict, flat []row) (cmpRank, checkRank []int) {
	nChecks := len(v.Thresholds)
	cmpRank = make([]int, len(flat))
	checkRank = make([]int, nChecks)
	for i := range cmpRank {
		cmpRank[i] = 2
	}
	for i, c := range v.Thresholds {
		checkRank[i] = 2
		if c.Status == analyze.ThresholdFail {
			checkRank[i] = 1
		}
	}
	byCmp := map[int]int{} // a comparison's first row
	for i := len(flat) - 1; i >= 0; i-- {
		byCmp[flat[i].comparison] = i
	}
	for _, r := range v.Gate.Reasons {
		rank := 1
		if r.Fails {
			rank = 0
		} else if !r.Allowed {
			continue
		}
		rankReasonRows(flat, byCmp, cmpRank, r, rank)
		if r.Check >= 0 && r.Check < nChecks && rank == 0 {
			checkRank[r.Check] = 0
		}
	}
	return cmpRank, checkRank
}

// rankReasonRows lowers to rank the rows of flat a gate reason is about:
// those of its errors' comparison, or of its comparison.
func rankReasonRows(flat []row, byCmp map[int]int, cmpRank []int, r analyze.GateReason, rank int) {
	if r.Condition == gate.Errors {
		for i := range flat {
			if flat[i].errComparison == r.Comparison {
				cmpRank[i] = min(cmpRank[i], rank)
			}
		}
		return
	}
	i, ok := byCmp[r.Comparison]
	if !ok || r.Comparison < 0 {
		return
	}
	for ; i < len(flat) && flat[i].comparison == r.Comparison; i++ {
		cmpRank[i] = min(cmpRank[i], rank)
	}
}

// countNotes counts the footnotes of the first k rows of rowsT's order
// and their bytes, as they are numbered again in their order when cut.
func (s *summaryMD) countNotes() {
	noteAt := map[string]int{} // a note's text: its index in the footnotes, as footnotes numbers them
	for _, r := range s.flat {
		for _, n := range r.notes {
			if _, ok := noteAt[n.text]; !ok {
				noteAt[n.text] = len(noteAt)
			}
		}
	}
	s.usedNotes, s.noteBytes = make([]int, len(s.flat)+1), make([]int, len(s.flat)+1)
	seen := map[string]bool{}
	for k, i := range s.rowsT.order {
		s.usedNotes[k+1], s.noteBytes[k+1] = s.usedNotes[k], s.noteBytes[k]
		for _, n := range s.flat[i].notes {
			if !seen[n.text] {
				seen[n.text] = true
				s.usedNotes[k+1]++
				// Rendered alone an item is "(1) ...\n\n".
				s.noteBytes[k+1] += blocksSize(&notes{Items: s.cmpNotes.Items[noteAt[n.text] : noteAt[n.text]+1]}).bytes - len("(1) \n\n")
			}
		}
	}
}

// notesSize is the footnotes' size with the first k rows of rowsT's
// order kept.
func (s *summaryMD) notesSize(k int) mdSize {
	u := s.usedNotes[k]
	if u == 0 {
		return mdSize{}
	}
	b := s.noteBytes[k] + len(" · ")*(u-1) + 2
	for j := 1; j <= u; j++ {
		b += len(fmt.Sprintf("(%d) ", j))
	}
	return mdSize{2, b}
}

// fit decides how many comparison rows and checks, numbers rows and
// findings are kept: it gives up, in turn, comparison rows down to one,
// numbers rows down to one, findings down to one, then the last of each.
func (s *summaryMD) fit() {
	// Renumbered marks may take a few more digits than the rows measured.
	const markReserve = 1024
	fixed := sizeOf(s.head).add(blocksSize(s.gatePara...)).add(blocksSize(s.verdictPara...)).add(blocksSize(s.before...))
	tail0 := sizeOf(s.tail(0))
	findSums := make([]int, len(s.findLines)+1)
	for i, l := range s.findLines {
		findSums[i+1] = findSums[i] + len(l) + 1
	}
	tailSize := func(k int) mdSize {
		if k == 0 {
			return tail0
		}
		return tail0.add(mdSize{k, findSums[k] + len(fmt.Sprintf("**Findings** (%d; the most important):", len(s.fs))) -
			len(fmt.Sprintf("**Findings**: %d, in the full report.", len(s.fs)))})
	}
	s.rows, s.finds = s.nRows+s.nChecks, min(3, len(s.fs))
	if s.numsTable != nil {
		s.numRows = min(len(s.numsTable.Rows), 4)
	}
	fits := func() bool {
		kr, kc := splitRows(s.rows, s.nRows, s.nChecks)
		size := fixed.add(s.rowsT.size(kr)).add(s.notesSize(kr)).add(s.checksT.size(kc)).add(tailSize(s.finds))
		if s.numRows > 0 {
			size = size.add(s.nums.size(s.numRows)).add(s.legendSize)
			if s.numRows < len(s.numsTable.Rows) {
				size.bytes += len(numbersMore(len(s.numsTable.Rows) - s.numRows))
			}
		}
		return size.lines <= SummaryMDLines && size.bytes <= SummaryMDBytes-markReserve
	}
	for _, step := range []struct {
		n     *int
		floor int
	}{{&s.rows, 1}, {&s.numRows, 1}, {&s.finds, 1}, {&s.rows, 0}, {&s.numRows, 0}, {&s.finds, 0}} {
		for !fits() && *step.n > step.floor {
			*step.n--
		}
	}
}

// body is the one rendering of the blocks between the title and the
// tail, with what the fit keeps.
func (s *summaryMD) body() []block {
	var body []block
	body = append(body, s.gatePara...)
	if s.numRows > 0 {
		body = append(body, s.nums.cut(s.numRows), s.legendOf(s.numRows))
	}
	body = append(body, s.verdictPara...)
	body = append(body, s.before...)
	kr, kc := splitRows(s.rows, s.nRows, s.nChecks)
	if s.cmpTable != nil {
		body = append(body, s.comparisonBlocks(kr)...)
	}
	if s.checkTable != nil {
		failed := 0
		for _, c := range s.v.Thresholds {
			if c.Status == analyze.ThresholdFail {
				failed++
			}
		}
		body = append(body, s.checksT.blockOr(kc, fmt.Sprintf("Thresholds: %s (%d failed), in the full report.", plural(s.nChecks, "check"), failed)))
	}
	return body
}

// comparisonBlocks is the comparison table with the first kr rows of its
// order, their footnotes numbered again in their order.
func (s *summaryMD) comparisonBlocks(kr int) []block {
	t := s.rowsT.cut(kr)
	fullMarks, _ := footnotes(s.flat)
	kept := slices.Sorted(slices.Values(s.rowsT.order[:kr]))
	sub := make([]row, len(kept))
	for j, i := range kept {
		sub[j] = s.flat[i]
	}
	marks, ns := footnotes(sub)
	for j, i := range kept {
		if fullMarks[i] == marks[j] {
			continue
		}
		r := slices.Clone(t.Rows[j])
		delta := strings.TrimSuffix(r[3][0].text, " "+fullMarks[i])
		if marks[j] != "" {
			delta += " " + marks[j]
		}
		r[3] = []inline{tx(delta)}
		t.Rows[j] = r
	}
	var bs []block
	if kr > 0 {
		bs = append(bs, t)
	} else { // never a header without rows
		bs = append(bs, s.rowsT.blockOr(0, fmt.Sprintf("Comparisons: %s, in the full report.", plural(len(s.flat), "row"))))
	}
	if len(ns) > 0 {
		items := make([][]inline, len(ns))
		for j, n := range ns {
			items[j] = []inline{tx(n)} // as compareBlocks words a note, its rows' runs needed among the rows kept
		}
		bs = append(bs, &notes{Items: items})
	}
	return bs
}
