package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeFigure is a figure in a README's prose: a number with a unit the
// reports print (%, ms, s, req/s, x) or a p-value ("p = 0.00216").
var readmeFigure = regexp.MustCompile(`p = [0-9.e+-]+[0-9]|[-+]?[0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?(?: ?%| ms\b| s\b| req/s\b|x\b)`)

// readmeQuote is a passage in double quotes.
var readmeQuote = regexp.MustCompile(`"([^"\n]+)"`)

// truthLink is a link to a truth data set's folder.
var truthLink = regexp.MustCompile(`\]\((?:\.\./)+testdata/truth/([a-z0-9-]+)/`)

// TestExampleReadmesQuoteTheirOutputs checks each example's README.md
// against the committed files it describes, so that a README cannot
// drift from them silently (issue 22): every blockquote line (`> ...`)
// and every "double-quoted" passage of its prose is a verbatim quote of
// the example's report.md, summary.md or summary.json; every figure of
// its prose (a number with %, ms, s, req/s or x, or "p = ...") appears
// in them too, or in the README of the truth data set it links (where
// the truth of the inputs is stated). Code (fenced blocks, `spans`) and
// link targets are not prose.
func TestExampleReadmesQuoteTheirOutputs(t *testing.T) {
	readmes, err := filepath.Glob("../../examples/*/README.md")
	if err != nil || len(readmes) == 0 {
		t.Fatalf("no example READMEs: %v", err)
	}
	for _, readme := range readmes {
		dir := filepath.Dir(readme)
		raw, err := os.ReadFile(readme)
		if err != nil {
			t.Fatal(err)
		}
		var outputs, truth strings.Builder
		for _, name := range []string{"report.md", "summary.md", "summary.json"} {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Errorf("%s: %v", readme, err)
				continue
			}
			outputs.WriteString(unescapeMarkdown(string(b)) + "\n")
		}
		for _, m := range truthLink.FindAllStringSubmatch(string(raw), -1) {
			if b, err := os.ReadFile(filepath.Join("../../testdata/truth", m[1], "README.md")); err == nil {
				truth.WriteString(string(b) + "\n")
			}
		}
		out := space(outputs.String())
		paras, quotes := readmeProse(string(raw))
		for _, q := range quotes {
			if !strings.Contains(out, space(q)) {
				t.Errorf("%s quotes a line its outputs do not have:\n> %s", readme, q)
			}
		}
		for _, para := range paras {
			for _, q := range readmeQuote.FindAllStringSubmatch(para, -1) {
				if !strings.Contains(out, space(q[1])) {
					t.Errorf("%s quotes %q, which its outputs do not say", readme, q[1])
				}
			}
			// A paragraph about an output file speaks of that output:
			// its figures must be the output's.
			aboutOutput := outputLink.MatchString(para)
			for _, f := range readmeFigure.FindAllString(para, -1) {
				if hasFigure(out, f) || !aboutOutput && hasFigure(space(truth.String()), f) {
					continue
				}
				t.Errorf("%s: the figure %q is in neither its outputs nor its truth data's README:\n%s", readme, f, para)
			}
		}
	}
}

// outputLink is a link to an example's output file.
var outputLink = regexp.MustCompile(`\[(report\.md|summary\.md|summary\.json)\]`)

// readmeProse returns a README's prose paragraphs (a list item is one),
// each on one line, without fenced code, code spans and link targets; and
// its blockquotes, one per quoted paragraph.
func readmeProse(s string) (paras, quotes []string) {
	var para, quote []string
	fenced := false
	flush := func() {
		if len(quote) > 0 {
			quotes = append(quotes, strings.Join(quote, " "))
			quote = nil
		}
		if len(para) > 0 {
			p := regexp.MustCompile("`[^`]*`").ReplaceAllString(strings.Join(para, " "), " ")
			p = regexp.MustCompile(`\]\((?:[^()]|\([^()]*\))*\)`).ReplaceAllString(p, "]")
			paras = append(paras, space(p))
			para = nil
		}
	}
	for _, line := range strings.Split(s, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			flush()
			fenced = !fenced
		case fenced:
		case strings.HasPrefix(line, ">"):
			quote = append(quote, strings.TrimSpace(strings.TrimPrefix(line, ">")))
		case trimmed == "", strings.HasPrefix(trimmed, "#"):
			flush()
		case strings.HasPrefix(trimmed, "- "), strings.HasPrefix(trimmed, "* "):
			flush()
			para = append(para, trimmed)
		default:
			if len(quote) > 0 {
				flush()
			}
			para = append(para, trimmed)
		}
	}
	flush()
	return paras, quotes
}

// hasFigure reports whether text has the figure f standing alone (not
// part of a longer number: "1.3 %" is not in "11.3 %").
func hasFigure(text, f string) bool {
	re := regexp.MustCompile(`(^|[^0-9.])` + regexp.QuoteMeta(f) + `($|[^0-9])`)
	return re.MatchString(text)
}

// space folds runs of white space to one blank.
func space(s string) string { return strings.Join(strings.Fields(s), " ") }

// unescapeMarkdown drops the backslashes report.md puts before
// punctuation ("\~", "\_").
func unescapeMarkdown(s string) string {
	return regexp.MustCompile(`\\([!-/:-@\[-`+"`"+`{-~])`).ReplaceAllString(s, "$1")
}
