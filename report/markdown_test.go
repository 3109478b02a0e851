package report_test

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

// hostile are labels, targets and file names an attacker could put into an
// uploaded result file.
var hostile = []string{
	`<img src=x onerror=alert(1)>`,
	`| ** [x](javascript:alert(1))`,
	"<script>alert(1)</script>",
	"![img](http://evil.example/x.png)",
	"[click](https://evil.example) *bold* _em_ ~~del~~ `code`",
	"http://evil.example/autolink www.evil.example mail@evil.example",
	"$x^2$ &lt; &amp; \\",
	"line\nbreak\r# heading\n- item\n| a | b |\n```\nfence",
	"<a href=\"javascript:x\">a</a>",
	"``` ` `` weird backticks",
}

// render converts markdown to HTML with GitHub's dialect.
func render(t *testing.T, md []byte) string {
	t.Helper()
	var out bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM))
	if err := gm.Convert(md, &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestMarkdownInjection(t *testing.T) {
	for _, h := range hostile {
		t.Run("", func(t *testing.T) {
			v := hostileVerdict(t, h)
			var md bytes.Buffer
			meta := report.Meta{GeneratedBy: h, Inputs: []string{h}, Rejected: []report.Rejected{{Source: h, Error: h}}}
			if err := report.MarkdownAndHTML(&md, io.Discard, v, []report.Figure{{Name: "throughput.png", Title: h, Alt: h}}, meta); err != nil {
				t.Fatal(err)
			}
			checkHTML(t, render(t, md.Bytes()), h, "")
			// summary.md and compare --format markdown: the same, and
			// their tables keep 7, 5 and 13 cells a row.
			var smd, cmd bytes.Buffer
			if err := report.SummaryMarkdown(&smd, v, "report.md"); err != nil {
				t.Fatal(err)
			}
			if err := report.Compare(&cmd, v, "markdown"); err != nil {
				t.Fatal(err)
			}
			for _, doc := range []string{smd.String(), cmd.String()} {
				checkHTML(t, render(t, []byte(doc)), h, "report.md")
				for _, line := range strings.Split(doc, "\n") {
					if !strings.HasPrefix(line, "| ") {
						continue
					}
					cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") - 1
					if cells != 7 && cells != 5 && cells != 13 { // comparisons, thresholds, numbers
						t.Errorf("table row has %d cells: %s", cells, line)
					}
				}
			}
			// The thresholds as a table with rows, or, where none fits, as
			// a sentence: never a header without rows.
			if !strings.Contains(smd.String(), "**Gate: ") || !strings.Contains(smd.String(), "| threshold |") && !strings.Contains(smd.String(), "\nThresholds: ") ||
				strings.Contains(smd.String(), "|---|---|---|---|---|\n| … ") {
				t.Errorf("summary.md lacks the gate or the thresholds:\n%s", smd.String())
			}
			// Tables keep their shape: every row has as many cells as its
			// table's header.
			checkTableShapes(t, md.String())
		})
	}
}

// checkTableShapes fails when a row of a markdown table has another
// number of cells than the table's header.
func checkTableShapes(t *testing.T, md string) {
	t.Helper()
	want, rows := -1, 0
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "|---") {
			want = -1
			continue
		}
		cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") - 1
		if want < 0 {
			want = cells
			continue
		}
		rows++
		if cells != want {
			t.Errorf("table row has %d cells, its header %d: %s", cells, want, line)
		}
	}
	if rows == 0 {
		t.Error("no table rows")
	}
}

// allowed are the elements and attributes the report itself writes.
var allowed = map[string][]string{
	"h1": nil, "h2": nil, "h3": nil, "p": nil, "strong": nil, "em": nil, "code": {"class"}, "pre": nil,
	"ul": nil, "ol": nil, "li": nil, "table": nil, "thead": nil, "tbody": nil, "tr": nil, "th": nil, "td": nil,
	"img": {"src", "alt"}, "br": nil,
}

// checkHTML fails when the rendered report has an element or attribute the
// report does not write itself, an image other than its figure, or a link
// other than to link (none when link is "").
func checkHTML(t *testing.T, doc, label, link string) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(doc))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		if link != "" && tok.Data == "a" && len(tok.Attr) == 1 && tok.Attr[0].Key == "href" && tok.Attr[0].Val == link {
			continue
		}
		if !checkTag(t, tok, allowed, label) {
			continue
		}
		for _, a := range tok.Attr {
			if tok.Data == "img" && a.Key == "src" && a.Val != "throughput.png" {
				t.Errorf("label %q produced an image of %q", label, a.Val)
			}
		}
	}
}

// checkTag fails when tok is an element or has an attribute that allowed
// does not list; it reports whether the element is allowed.
func checkTag(t *testing.T, tok html.Token, allowed map[string][]string, label string) bool {
	t.Helper()
	attrs, ok := allowed[tok.Data]
	if !ok {
		t.Errorf("label %q produced a <%s> element", label, tok.Data)
		return false
	}
	for _, a := range tok.Attr {
		if !slices.Contains(attrs, a.Key) {
			t.Errorf("label %q produced attribute %s=%q on <%s>", label, a.Key, a.Val, tok.Data)
		}
	}
	return true
}

// The label's text survives: escaped, but visible.
func TestMarkdownShowsLabelText(t *testing.T) {
	c := int32(10)
	label := "<img src=x onerror=alert(1)>"
	runs := []results.Run{{RunID: "r", Seq: 0, Tool: "wrk", LoadModel: results.LoadClosed, Label: label, DurationS: 10, Connections: &c, RPS: 1}}
	v, err := analyze.Analyze(analyze.Set{Experiment: "x", Runs: runs}, analyze.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := report.MarkdownAndHTML(&md, io.Discard, v, nil, report.Meta{}); err != nil {
		t.Fatal(err)
	}
	if html := render(t, md.Bytes()); !strings.Contains(html, "&lt;img src=x onerror=alert(1)&gt;") {
		t.Errorf("label text not shown as text:\n%s", html)
	}
}
