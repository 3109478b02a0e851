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
// (PNG when ""), report.md, report.html (its figures inlined, as SVG
// unless the SVG is large: see figureFiles),
// summary.md (the short form, for a pull-request comment) and
// summary.json, in that order.
func Render(v *analyze.Verdict, set analyze.Set, meta report.Meta, format plots.Format) ([]File, error) {
	if format == "" {
		format = plots.FormatPNG
	}
	// The files in format; report.html inlines the SVG, or the PNG where
	// the SVG is large (see figureFiles): PNG files draw both formats, SVG
	// files a PNG only for such a figure.
	in := plots.Input{Verdict: v, Percentiles: set.Percentiles, Series: set.Series}
	var figs []plots.Figure
	var err error
	if format == plots.FormatSVG {
		figs, err = plots.RenderSVG(in, maxInlineSVG)
	} else {
		figs, err = plots.RenderFormats(in, format, plots.FormatSVG)
	}
	if err != nil {
		return nil, err
	}
	out, refs := figureFiles(figs, format)
	drawn, total := plots.DrawnOverTimeGroups(in)
	meta.OverTime = report.FigureCount{Drawn: len(drawn), Total: total}
	edrawn, etotal := plots.DrawnErrorsFigures(v)
	meta.Errors = report.FigureCount{Drawn: len(edrawn), Total: etotal}
	var md, page, smd, js bytes.Buffer
	if err := report.MarkdownAndHTML(&md, &page, v, refs, meta); err != nil {
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
// (report.NoRuns), with the options as requested (experiment.RequestedOptions)
// and the gate they decide.
func renderNoRuns(experiment string, opts analyze.Options, g analyze.Gate, meta report.Meta) ([]File, error) {
	var md, page, smd, js bytes.Buffer
	if err := report.NoRuns(&md, &page, &smd, &js, experiment, opts, g, meta); err != nil {
		return nil, err
	}
	return []File{{"report.md", md.Bytes()}, {HTMLName, page.Bytes()}, {"summary.md", smd.Bytes()}, {"summary.json", js.Bytes()}}, nil
}

// figureFiles returns the files of rendered figures in format (PNG when
// it is not SVG) and the references the reports make to them (report.html
// inlines each figure's SVG, or its PNG when the SVG is over maxInlineSVG).
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
		if len(f.SVG) > maxInlineSVG && len(f.PNG) > 0 {
			refs[i].Image, refs[i].MediaType = f.PNG, "image/png"
		}
	}
	return out, refs
}

// maxInlineSVG is the largest SVG figure report.html inlines; a larger one
// (thousands of runs: 10 MB for the latency figure of 20,000 runs, against
// 70 KB as PNG) is inlined as its PNG, which keeps the page and the
// memory that makes it small.
const maxInlineSVG = 1 << 20
