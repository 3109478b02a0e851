package report

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// This file is the document model that report.md, report.html, summary.md
// and compare's markdown are rendered from: a report is built once as
// blocks of inline runs, and each writer renders the same blocks with its
// own escaping (markdownDoc here, htmlDoc in html.go). Every string in the
// model is plain text; only the writers make markup of it.

// inlineKind is how a run of inline text is shown.
type inlineKind int

const (
	inText   inlineKind = iota // plain text
	inStrong                   // strong emphasis
	inEmph                     // emphasis
	inCode                     // literal, monospaced (a key, a file name, a code)
	inLink                     // a link to a file beside the report (href)
	inBreak                    // a line break inside a paragraph or list item
)

// inline is a run of inline text.
type inline struct {
	kind inlineKind
	text string
	href string // inLink only: a file name beside the report
}

// Inline constructors, short because the report builders use them a lot.
func tx(s string) inline   { return inline{kind: inText, text: s} }
func bold(s string) inline { return inline{kind: inStrong, text: s} }
func em(s string) inline   { return inline{kind: inEmph, text: s} }
func mono(s string) inline { return inline{kind: inCode, text: s} }
func br() inline           { return inline{kind: inBreak} }

// link links text to a file beside the report; a name that is not a plain
// relative file name is shown as text.
func link(text, href string) inline {
	if !localName(href) {
		return tx(text)
	}
	return inline{kind: inLink, text: text, href: href}
}

// localName reports whether s names a file beside the report: no scheme,
// no path, nothing a browser could resolve to another origin.
func localName(s string) bool {
	if s == "" || s == "." || s == ".." {
		return false
	}
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_'
		if !ok {
			return false
		}
	}
	return true
}

// block is one block of a document: *section, *paragraph, *list, *tableBlock,
// *figureBlock, *codeBlock or *notes.
type block interface{ isBlock() }

// document is a whole report: a title, the lead (the verdict) and
// sections.
type document struct {
	Title    string
	Lead     []block
	Sections []*section
}

// section is a titled part of a document; sections nest.
type section struct {
	Title  string
	ID     string // anchor in HTML, letters, digits and '-'
	Blocks []block
}

// paragraph is a paragraph of inline runs.
type paragraph struct {
	Runs  []inline
	Class string // HTML class, e.g. "verdict"
}

// list is a bulleted or numbered list.
type list struct {
	Ordered bool
	Items   []listItem
}

// listItem is an item of a list, with an optional nested list.
type listItem struct {
	Runs []inline
	Sub  *list
}

// tableBlock is a table; cells are inline runs. Numeric columns are aligned
// right in HTML.
type tableBlock struct {
	Head    [][]inline
	Rows    [][][]inline
	Numeric []bool
	Class   string // HTML class, e.g. "runs"
}

// figureBlock is a figure: the image beside the report (markdown) or
// inlined (HTML), its alt text and its caption.
type figureBlock struct {
	Figure Figure
}

// codeBlock is preformatted text.
type codeBlock struct {
	Lang, Text string
}

// notes are numbered footnotes "(1) ...", in order.
type notes struct {
	Items [][]inline
}

func (*section) isBlock()     {}
func (*paragraph) isBlock()   {}
func (*list) isBlock()        {}
func (*tableBlock) isBlock()  {}
func (*figureBlock) isBlock() {}
func (*codeBlock) isBlock()   {}
func (*notes) isBlock()       {}

// para makes a paragraph.
func para(runs ...inline) *paragraph { return &paragraph{Runs: runs} }

// row makes a tableBlock row of plain-text cells.
func textRow(cells ...string) [][]inline {
	r := make([][]inline, len(cells))
	for i, c := range cells {
		if c != "" {
			r[i] = []inline{tx(c)}
		}
	}
	return r
}

// markdownDoc renders documents and blocks as GitHub-flavoured markdown:
// every text is escaped (text, code), so nothing taken from input becomes
// markup.
type markdownDoc struct {
	w   *bufio.Writer
	err error
}

func (m *markdownDoc) s(parts ...string) {
	for _, p := range parts {
		if m.err == nil {
			_, m.err = m.w.WriteString(p)
		}
	}
}

// writeMarkdown writes d as markdown.
func writeMarkdown(w io.Writer, d *document) error {
	m := &markdownDoc{w: bufio.NewWriter(w)}
	m.s("# ", text(d.Title), "\n\n")
	m.blocks(d.Lead, 2)
	for _, s := range d.Sections {
		m.block(s, 2)
	}
	if m.err != nil {
		return m.err
	}
	return m.w.Flush()
}

// markdownBlocks renders blocks as markdown lines (no trailing newline).
func markdownBlocks(bs []block) []string {
	var b strings.Builder
	m := &markdownDoc{w: bufio.NewWriter(&b)}
	m.blocks(bs, 2)
	m.w.Flush()
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

func (m *markdownDoc) blocks(bs []block, level int) {
	for _, b := range bs {
		m.block(b, level)
	}
}

func (m *markdownDoc) block(b block, level int) {
	switch b := b.(type) {
	case *section:
		m.s(strings.Repeat("#", min(level, 6)), " ", text(b.Title), "\n\n")
		m.blocks(b.Blocks, level+1)
	case *paragraph:
		m.s(m.inlines(b.Runs, false, "  "), "\n\n")
	case *list:
		m.list(b, "")
		m.s("\n")
	case *tableBlock:
		m.row(b.Head)
		m.s("|", strings.Repeat("---|", len(b.Head)), "\n")
		for _, r := range b.Rows {
			m.row(r)
		}
		m.s("\n")
	case *figureBlock:
		f := b.Figure
		// The figure draws its title; the alt text describes it.
		m.s("![", text(f.Alt), "](", f.Name, ")\n\n")
	case *codeBlock:
		fence := "```"
		for strings.Contains(b.Text, fence) {
			fence += "`"
		}
		m.s(fence, b.Lang, "\n", b.Text, "\n", fence, "\n\n")
	case *notes:
		var ns []string
		for i, n := range b.Items {
			ns = append(ns, "("+strconv.Itoa(i+1)+") "+m.inlines(n, false, " "))
		}
		m.s(strings.Join(ns, " · "), "\n\n")
	}
}

func (m *markdownDoc) list(l *list, indent string) {
	for i, it := range l.Items {
		marker := "- "
		if l.Ordered {
			marker = strconv.Itoa(i+1) + ". "
		}
		m.s(indent, marker, m.inlines(it.Runs, false, "\n"+indent+strings.Repeat(" ", len(marker))), "\n")
		if it.Sub != nil {
			m.list(it.Sub, indent+strings.Repeat(" ", len(marker)))
		}
	}
}

func (m *markdownDoc) row(cells [][]inline) {
	m.s("|")
	for _, c := range cells {
		if x := m.inlines(c, true, " "); x != "" {
			m.s(" ", x, " |")
		} else {
			m.s(" |")
		}
	}
	m.s("\n")
}

// inlines renders runs; brk is what a line break becomes (two blanks and
// a newline in a paragraph, a newline and the item's indent in a list).
func (m *markdownDoc) inlines(runs []inline, inTable bool, brk string) string {
	var b strings.Builder
	for _, r := range runs {
		switch r.kind {
		case inText:
			b.WriteString(text(r.text))
		case inStrong:
			b.WriteString("**" + text(r.text) + "**")
		case inEmph:
			b.WriteString("*" + text(r.text) + "*")
		case inCode:
			b.WriteString(code(r.text, inTable))
		case inLink:
			b.WriteString("[" + text(r.text) + "](" + r.href + ")")
		case inBreak:
			if brk == "  " {
				b.WriteString("  \n")
			} else {
				b.WriteString(brk)
			}
		}
	}
	return b.String()
}
