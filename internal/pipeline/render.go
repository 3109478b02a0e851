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

// Render makes the files of a verdict's report: the PNG figures,
// report.md, summary.md (its short form, for a pull-request comment) and
// summary.json, in that order.
func Render(v *analyze.Verdict, set analyze.Set, meta report.Meta) ([]File, error) {
	figs, err := plots.Render(plots.Input{Verdict: v, Percentiles: set.Percentiles, Series: set.Series})
	if err != nil {
		return nil, err
	}
	var out []File
	refs := make([]report.Figure, len(figs))
	for i, f := range figs {
		out = append(out, File{f.Name, f.PNG})
		refs[i] = report.Figure{Name: f.Name, Title: f.Title, Alt: f.Alt}
	}
	var md, smd, js bytes.Buffer
	if err := report.Markdown(&md, v, refs, meta); err != nil {
		return nil, err
	}
	if err := report.SummaryMarkdown(&smd, v, "report.md"); err != nil {
		return nil, err
	}
	if err := report.JSONMeta(&js, v, meta); err != nil {
		return nil, err
	}
	return append(out, File{"report.md", md.Bytes()}, File{"summary.md", smd.Bytes()}, File{"summary.json", js.Bytes()}), nil
}

// renderNoRuns makes the files of the report of an experiment without a
// readable run: report.md, summary.md and summary.json (report.NoRuns).
func renderNoRuns(experiment string, meta report.Meta) ([]File, error) {
	var md, smd, js bytes.Buffer
	if err := report.NoRuns(&md, &smd, &js, experiment, meta); err != nil {
		return nil, err
	}
	return []File{{"report.md", md.Bytes()}, {"summary.md", smd.Bytes()}, {"summary.json", js.Bytes()}}, nil
}
