package report_test

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

// htmlAllowed are the elements and attributes report.html writes.
var htmlAllowed = map[string][]string{
	"html": {"lang"}, "head": nil, "meta": {"charset", "http-equiv", "content", "name"}, "title": nil, "style": nil,
	"body": nil, "header": nil, "nav": {"aria-label"}, "main": nil, "section": {"id"},
	"h1": nil, "h2": nil, "h3": nil, "h4": nil, "p": {"class"}, "strong": nil, "em": nil, "code": nil, "pre": nil, "br": nil,
	"ul": nil, "ol": {"class"}, "li": nil, "a": {"href"}, "div": {"class"}, "table": {"class"}, "thead": nil, "tbody": nil,
	"tr": nil, "th": {"class", "scope"}, "td": {"class"},
	"figure": nil, "figcaption": nil, "img": {"src", "alt", "width", "height", "decoding"},
}

// hostileVerdict analyses runs whose labels, targets, sources and
// experiment are h.
func hostileVerdict(t *testing.T, h string) *analyze.Verdict {
	t.Helper()
	c := int32(10)
	var runs []results.Run
	for i := range 4 {
		for j, label := range []string{h, "ok:80"} {
			seq := 2*i + j
			runs = append(runs, results.Run{RunID: results.RunID(h, seq), Experiment: "x", Source: h, Index: int32(seq),
				Seq: int32(seq), SourceLine: 1, Tool: "wrk", LoadModel: results.LoadClosed, Label: label, Target: h,
				DurationS: 10, Connections: &c, RPS: 100 + float64(seq), Requests: 1000, LatMeanMs: results.Ptr(100.0),
				LatMaxMs: results.Ptr(5000.0), Errors: 3})
		}
	}
	opts := analyze.DefaultOptions()
	opts.Baseline = h
	opts.SLO = thresholds(t, "rps>=100", "error_rate<0.01")
	opts.FailOn = gate.Conditions
	v, err := analyze.Analyze(analyze.Set{Experiment: h, Runs: runs}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Whatever the input says, report.html holds only the elements and
// attributes it writes itself, loads nothing from another origin (every
// src a data: image, every href a fragment or a file beside it, no
// @import or url() in its style), and shows the input as text.
func TestHTMLInjection(t *testing.T) {
	for _, h := range hostile {
		t.Run("", func(t *testing.T) {
			v := hostileVerdict(t, h)
			var page bytes.Buffer
			svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"><text>` + "&lt;x&gt;" + `</text></svg>`)
			meta := report.Meta{GeneratedBy: h, Inputs: []string{h}, Rejected: []report.Rejected{{Source: h, Error: h}}}
			figs := []report.Figure{{Name: "throughput.png", Title: h, Alt: h, Image: svg, MediaType: "image/svg+xml"}}
			if err := report.MarkdownAndHTML(io.Discard, &page, v, figs, meta); err != nil {
				t.Fatal(err)
			}
			checkPage(t, page.String(), h)
		})
	}
}

// checkPage fails when a report.html has an element, attribute, source or
// link it does not write itself, or does not show label as text.
func checkPage(t *testing.T, doc, label string) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(doc))
	var text strings.Builder
	csp, imgs := false, 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt == html.TextToken {
			text.Write(z.Text())
			continue
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		if !checkTag(t, tok, htmlAllowed, label) {
			continue
		}
		for _, a := range tok.Attr {
			switch {
			case a.Key == "src" && !strings.HasPrefix(a.Val, "data:image/svg+xml;base64,") && !strings.HasPrefix(a.Val, "data:image/png;base64,"):
				t.Errorf("label %q: src %q", label, a.Val)
			case a.Key == "href" && !strings.HasPrefix(a.Val, "#") && strings.ContainsAny(a.Val, ":/\\"):
				t.Errorf("label %q: href %q", label, a.Val)
			case a.Key == "content" && strings.HasPrefix(a.Val, "default-src 'none'; img-src data:; style-src 'sha256-"):
				csp = true
			}
		}
		if tok.Data == "img" {
			imgs++
		}
		if tok.Data == "style" {
			z.Next()
			if css := string(z.Text()); strings.Contains(css, "@import") || strings.Contains(css, "url(") {
				t.Errorf("the style sheet loads something: %s", css)
			}
		}
	}
	if !csp {
		t.Error("no Content-Security-Policy forbidding other origins")
	}
	if imgs != 1 {
		t.Errorf("%d images, want the one figure", imgs)
	}
	shown := strings.Join(strings.Fields(text.String()), " ")
	want := strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if r < 0x20 {
			return ' '
		}
		return r
	}, label)), " ")
	if !strings.Contains(shown, want) {
		t.Errorf("label %q is not shown as text", label)
	}
}

// The HTML and the markdown are one document: the same headings, in the
// same order.
func TestHTMLSameDocument(t *testing.T) {
	v := hostileVerdict(t, "a:80")
	var md, page bytes.Buffer
	if err := report.MarkdownAndHTML(&md, io.Discard, v, nil, report.Meta{}); err != nil {
		t.Fatal(err)
	}
	if err := report.MarkdownAndHTML(io.Discard, &page, v, nil, report.Meta{}); err != nil {
		t.Fatal(err)
	}
	var mdHeads, htmlHeads []string
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "#") {
			mdHeads = append(mdHeads, strings.TrimLeft(line, "# "))
		}
	}
	z := html.NewTokenizer(&page)
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if name, _ := z.TagName(); tt == html.StartTagToken && len(name) == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6' {
			z.Next()
			htmlHeads = append(htmlHeads, string(z.Text()))
		}
	}
	if !slices.Equal(mdHeads, htmlHeads) || len(mdHeads) < 5 {
		t.Errorf("headings differ:\nmarkdown %q\nhtml     %q", mdHeads, htmlHeads)
	}
}
