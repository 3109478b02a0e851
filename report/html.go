package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"html"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
)

// MarkdownAndHTML writes report.md to md and report.html to page, both
// from one document built once. report.md is GitHub-flavoured markdown:
// the headline first, then the answers with the comparison table, the
// systems, the findings by severity, warm-up, latency and capacity with
// their figures, and an appendix with every run and comparison.
// report.html is the same document as one self-contained page, its CSS
// inline and its figures inlined as data: URIs. Its
// Content-Security-Policy forbids every request to another origin and
// every script; it needs no JavaScript, fits a phone's width and prints.
// Everything taken from input is escaped and renders as plain text.
func MarkdownAndHTML(md, page io.Writer, v *analyze.Verdict, figs []Figure, meta Meta) error {
	d := newReport(v, figs, meta)
	if err := writeMarkdown(md, d); err != nil {
		return err
	}
	return writeHTML(page, d)
}

// reportCSS is the page's style sheet; the Content-Security-Policy
// allows it by its hash.
const reportCSS = `:root{color-scheme:light;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg2:#f6f8fa;--accent:#08306b}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",sans-serif;color:var(--fg);background:#fff}
header,main,nav{max-width:72rem;margin:0 auto;padding:0 1rem}
h1{font-size:1.6rem;margin:1.5rem 0 .75rem;overflow-wrap:anywhere}
h2{font-size:1.3rem;margin:2rem 0 .75rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}
h3{font-size:1.1rem;margin:1.5rem 0 .5rem}
p,li{overflow-wrap:anywhere}
.verdict{border-left:4px solid var(--accent);background:var(--bg2);padding:.75rem 1rem;font-size:1.05rem}
.gate{border-left:8px solid;padding:.6rem 1rem;font-size:1.05rem}
.gate strong{font-size:1.2rem}
.gate.failed{border-color:#cf222e;background:#ffebe9}.gate.failed strong{color:#a40e26}
.gate.passed{border-color:#1a7f37;background:#dafbe1}.gate.passed strong{color:#116329}
.gate.allowed{border-color:#9a6700;background:#fff8c5}.gate.allowed strong{color:#7d4e00}
.legend{color:var(--muted);font-size:.9rem}
nav ol{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0;margin:0 0 1rem;font-size:.95rem}
a{color:var(--accent)}
code{font:.9em/1.4 ui-monospace,"Liberation Mono",Menlo,Consolas,monospace;background:var(--bg2);padding:0 .2em;border-radius:3px;overflow-wrap:anywhere}
pre{background:var(--bg2);padding:.75rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
pre code{background:none;padding:0}
.table{overflow-x:auto;margin:.75rem 0}
table{border-collapse:collapse;font-size:.9rem}
th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:var(--bg2)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.compare td,.runs td,.numbers td{white-space:nowrap}
td:first-child,th:first-child{position:sticky;left:0;z-index:1;background:#fff;box-shadow:1px 0 0 var(--line)}
th:first-child{background:var(--bg2)}
ol.notes{list-style:none;padding:0;font-size:.9rem;color:var(--muted)}
figure{margin:1.5rem 0}
figure img{display:block;width:100%;max-width:1200px;height:auto;border:1px solid var(--line)}
figcaption{color:var(--muted);font-size:.9rem;margin-top:.3rem}
@media (max-width:40rem){body{font-size:15px}h1{font-size:1.3rem}th,td{padding:.2rem .35rem}
.compare td:first-child,.numbers td:first-child,.runs td:first-child{white-space:normal;min-width:5.5rem;max-width:8.5rem;overflow-wrap:break-word}
.numbers td:nth-child(2){white-space:normal;min-width:8rem}}
@media print{nav{display:none}body{font-size:10pt}header,main{max-width:none;padding:0}.table{overflow:visible}table{font-size:8pt}
h2,h3{break-after:avoid}figure,tr{break-inside:avoid}a{color:inherit;text-decoration:none}.verdict{border-left-width:2pt}}
`

// csp is the page's Content-Security-Policy: nothing from anywhere but
// data: images and the inline style sheet.
var csp = "default-src 'none'; img-src data:; style-src 'sha256-" + cssHash() + "'; base-uri 'none'; form-action 'none'"

func cssHash() string {
	h := sha256.Sum256([]byte(reportCSS))
	return base64.StdEncoding.EncodeToString(h[:])
}

// page is the HTML shell; Body is rendered by htmlDoc, which escapes
// every text.
var page = template.Must(template.New("report.html").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{.Title}}</title>
<style>{{.CSS}}</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
{{.Lead}}</header>
<nav aria-label="Contents"><ol>
{{- range .Contents}}<li><a href="#{{.ID}}">{{.Title}}</a></li>{{end -}}
</ol></nav>
<main>
{{.Body}}</main>
</body>
</html>
`))

// writeHTML writes d as a self-contained HTML page.
func writeHTML(w io.Writer, d *document) error {
	type entry struct{ ID, Title string }
	var lead, body bytes.Buffer
	h := &htmlDoc{w: &lead}
	h.blocks(d.Lead, 2)
	h.w = &body
	var contents []entry
	for _, s := range d.Sections {
		h.block(s, 2)
		contents = append(contents, entry{s.ID, s.Title})
	}
	return page.Execute(w, struct {
		CSP, Title string
		CSS        template.CSS
		Lead, Body template.HTML
		Contents   []entry
	}{csp, d.Title, template.CSS(reportCSS), template.HTML(lead.String()), template.HTML(body.String()), contents})
}

// htmlDoc renders blocks as HTML; every text goes through esc.
type htmlDoc struct {
	w *bytes.Buffer
}

// esc escapes text for HTML content and quoted attribute values; control
// characters become blanks, as in the markdown.
func esc(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return html.EscapeString(s)
}

func (h *htmlDoc) s(parts ...string) {
	for _, p := range parts {
		h.w.WriteString(p)
	}
}

func (h *htmlDoc) blocks(bs []block, level int) {
	for _, b := range bs {
		h.block(b, level)
	}
}

func (h *htmlDoc) block(b block, level int) {
	switch b := b.(type) {
	case *section:
		lv := strconv.Itoa(min(level, 6))
		id := ""
		if b.ID != "" {
			id = ` id="` + esc(b.ID) + `"`
		}
		h.s("<section", id, ">\n<h", lv, ">", esc(b.Title), "</h", lv, ">\n")
		h.blocks(b.Blocks, level+1)
		h.s("</section>\n")
	case *paragraph:
		class := ""
		if b.Class != "" {
			class = ` class="` + esc(b.Class) + `"`
		}
		h.s("<p", class, ">", h.inlines(b.Runs), "</p>\n")
	case *list:
		h.list(b)
	case *tableBlock:
		class := ""
		if b.Class != "" {
			class = ` class="` + esc(b.Class) + `"`
		}
		h.s(`<div class="table"><table`, class, ">\n<thead><tr>")
		for i, c := range b.Head {
			h.s("<th", numClass(b.Numeric, i), ` scope="col">`, h.inlines(c), "</th>")
		}
		h.s("</tr></thead>\n<tbody>\n")
		for _, r := range b.Rows {
			h.s("<tr>")
			for i, c := range r {
				h.s("<td", numClass(b.Numeric, i), ">", h.inlines(c), "</td>")
			}
			h.s("</tr>\n")
		}
		h.s("</tbody></table></div>\n")
	case *figureBlock:
		f := b.Figure
		h.s("<figure>")
		switch f.MediaType {
		case "image/svg+xml", "image/png":
			h.s(`<img src="data:`, f.MediaType, ";base64,", base64.StdEncoding.EncodeToString(f.Image), `" alt="`, esc(f.Alt),
				`" width="1200" height="700" decoding="async">`)
		default:
			h.s(`<p>`, esc(f.Alt), ` (`, h.inlines([]inline{link(f.Name, f.Name)}), `)</p>`)
		}
		h.s("<figcaption>", esc(f.Title), "</figcaption></figure>\n")
	case *codeBlock:
		h.s("<pre><code>", esc(b.Text), "</code></pre>\n")
	case *notes:
		h.s(`<ol class="notes">`)
		for i, n := range b.Items {
			h.s("<li>(", strconv.Itoa(i+1), ") ", h.inlines(n), "</li>")
		}
		h.s("</ol>\n")
	}
}

func numClass(numeric []bool, i int) string {
	if i < len(numeric) && numeric[i] {
		return ` class="num"`
	}
	return ""
}

func (h *htmlDoc) list(l *list) {
	tag := "ul"
	if l.Ordered {
		tag = "ol"
	}
	h.s("<", tag, ">\n")
	for _, it := range l.Items {
		h.s("<li>", h.inlines(it.Runs))
		if it.Sub != nil {
			h.list(it.Sub)
		}
		h.s("</li>\n")
	}
	h.s("</", tag, ">\n")
}

func (h *htmlDoc) inlines(runs []inline) string {
	var b strings.Builder
	for _, r := range runs {
		switch r.kind {
		case inText:
			b.WriteString(esc(r.text))
		case inStrong:
			b.WriteString("<strong>" + esc(r.text) + "</strong>")
		case inEmph:
			b.WriteString("<em>" + esc(r.text) + "</em>")
		case inCode:
			b.WriteString("<code>" + esc(r.text) + "</code>")
		case inLink:
			b.WriteString(`<a href="` + esc(r.href) + `">` + esc(r.text) + "</a>")
		case inBreak:
			b.WriteString("<br>")
		}
	}
	return b.String()
}
