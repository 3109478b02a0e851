package pipeline

import (
	"bytes"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/plots"
	"github.com/loadverdict/loadverdict/report"
)

// File is one file of a report.
type File struct {
	Name string
	Data []byte
}

// HTMLName is the name of the HTML report in a local output folder; in a
// bucket it is IndexName, so that the report's folder opens as a page.
const (
	HTMLName  = "report.html"
	IndexName = "index.html"
)

// Render makes the files of a verdict's report: the figures in format
// (PNG when ""), report.md, report.html (its figures inlined as SVG),
// summary.md (the short form, for a pull-request comment) and
// summary.json, in that order.
func Render(v *analyze.Verdict, set analyze.Set, meta report.Meta, format plots.Format) ([]File, error) {
	if format == "" {
		format = plots.FormatPNG
	}
	formats := []plots.Format{format}
	if format != plots.FormatSVG {
		formats = append(formats, plots.FormatSVG)
	}
	figs, err := plots.RenderFormats(plots.Input{Verdict: v, Percentiles: set.Percentiles, Series: set.Series}, formats...)
	if err != nil {
		return nil, err
	}
	out, refs := figureFiles(figs, format)
	var md, page, smd, js bytes.Buffer
	if err := report.Markdown(&md, v, refs, meta); err != nil {
		return nil, err
	}
	if err := report.HTML(&page, v, refs, meta); err != nil {
		return nil, err
	}
	if err := report.SummaryMarkdown(&smd, v, "report.md"); err != nil {
		return nil, err
	}
	if err := report.JSONMeta(&js, v, meta); err != nil {
		return nil, err
	}
	return append(out, File{"report.md", md.Bytes()}, File{HTMLName, page.Bytes()}, File{"summary.md", smd.Bytes()},
		File{"summary.json", js.Bytes()}), nil
}

// renderNoRuns makes the files of the report of an experiment without a
// readable run: report.md, report.html, summary.md and summary.json
// (report.NoRuns).
func renderNoRuns(experiment string, meta report.Meta) ([]File, error) {
	var md, page, smd, js bytes.Buffer
	if err := report.NoRuns(&md, &page, &smd, &js, experiment, meta); err != nil {
		return nil, err
	}
	return []File{{"report.md", md.Bytes()}, {HTMLName, page.Bytes()}, {"summary.md", smd.Bytes()}, {"summary.json", js.Bytes()}}, nil
}

// figureFiles returns the files of rendered figures in format (PNG when
// it is not SVG) and the references the reports make to them (report.html
// inlines each figure's SVG).
func figureFiles(figs []plots.Figure, format plots.Format) ([]File, []report.Figure) {
	var out []File
	refs := make([]report.Figure, len(figs))
	for i, f := range figs {
		data := f.PNG
		if format == plots.FormatSVG {
			data = f.SVG
		}
		out = append(out, File{f.Name, data})
		refs[i] = report.Figure{Name: f.Name, Title: f.Title, Alt: f.Alt, Image: f.SVG, MediaType: "image/svg+xml"}
	}
	return out, refs
}
