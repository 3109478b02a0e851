package plots

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"git.sr.ht/~sbinet/gg"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// Size of every figure.
const (
	WidthPx  = 1200 // width of a figure in pixels
	HeightPx = 700  // height of a figure in pixels
	DPI      = 96   // resolution the point sizes of fonts and lines are rendered at
)

// LogSpan is the ratio of the largest to the smallest plotted latency from
// which latency axes use a log scale.
const LogSpan = 20

// ErrNoData is returned (wrapped) by a figure function when the input has
// nothing that figure can show; RenderFormats then leaves the figure out.
var ErrNoData = errors.New("plots: no data for this figure")

// Input is what the figures are drawn from.
type Input struct {
	// Verdict is the analysis; Verdict.Runs are all runs in execution order.
	Verdict *analyze.Verdict
	// Percentiles are the rows of the percentiles table, by RunID.
	Percentiles []results.Percentile
	// Series are the per-window rows of the runs with samples.
	Series []results.Series
}

// Format is a figure's file format.
type Format string

// The formats figures are written in.
const (
	FormatPNG Format = "png" // a WidthPx x HeightPx PNG image
	FormatSVG Format = "svg" // an SVG image of the same size, text as text
)

// Formats are the formats RenderFormats draws.
var Formats = []Format{FormatPNG, FormatSVG}

// String returns the format's name; with Set, a *Format is a flag.Value.
func (f *Format) String() string {
	if f == nil {
		return ""
	}
	return string(*f)
}

// Set sets the format from its name: png or svg.
func (f *Format) Set(v string) error {
	if !slices.Contains(Formats, Format(v)) {
		return fmt.Errorf("want png or svg, got %q", v)
	}
	*f = Format(v)
	return nil
}

// Figure is one rendered figure.
type Figure struct {
	Name  string // file name in the first format asked for, e.g. "throughput.png"
	Title string // title of the figure, for a heading or caption
	Alt   string // one-sentence description for the markdown alt text
	PNG   []byte // the PNG image, WidthPx x HeightPx, when FormatPNG was asked for
	SVG   []byte // the SVG image, when FormatSVG was asked for
}

// Drawer is a figure before rendering: a *plot.Plot or a *Stack.
type Drawer interface {
	// Draw draws the figure to the canvas.
	Draw(c draw.Canvas)
}

// FigurePrefixes are how the names of every figure RenderFormats and
// RenderHistory make begin (then .png or .svg): a report's writer removes
// the files so named that a new report does not have. "timeline-" names
// the per-run figures of earlier versions, so that a report re-made in
// their folder removes them.
var FigurePrefixes = []string{"throughput.", "latency.", "percentiles.", "scaling.", "timeline-", "trend-", "errors-", "latency-time-"}

// RenderFormats draws every figure the input supports in each of formats
// (PNG when none; a figure's Name has the extension of the first), in a
// fixed order (throughput, latency, percentiles, scaling, then one
// latency-over-time figure per system and settings with a series, then one
// errors-over-time figure per system and endpoint with per-request
// errors), deterministically: the same input gives the same bytes. A
// figure without data is left out; any other failure is an error (the
// first in that order). Figures are drawn in parallel, up to GOMAXPROCS at
// once: each has its own plot, canvas and font faces (gonum/plot's font
// cache is locked, and its fonts are read with a buffer per call), and
// none changes the input.
func RenderFormats(in Input, formats ...Format) ([]Figure, error) {
	return renderWith(in, runtime.GOMAXPROCS(0), -1, formats...)
}

// RenderSVG is RenderFormats(in, FormatSVG) that also draws a figure as
// PNG when, and only when, its SVG is over pngOver bytes: a report with
// SVG figures inlines such a figure as its PNG (see the pipeline's
// maxInlineSVG), and any other PNG would be drawn for nothing (a PNG
// takes some 40 times as long to draw as its SVG).
func RenderSVG(in Input, pngOver int) ([]Figure, error) {
	return renderWith(in, runtime.GOMAXPROCS(0), pngOver, FormatSVG)
}

// renderWith is RenderFormats with at most workers figures drawn at once,
// and each figure also drawn as PNG when pngOver >= 0 and its SVG is over
// pngOver bytes.
func renderWith(in Input, workers, pngOver int, formats ...Format) ([]Figure, error) {
	if in.Verdict == nil {
		return nil, errors.New("plots: no verdict")
	}
	if len(formats) == 0 {
		formats = []Format{FormatPNG}
	}
	for _, f := range formats {
		if f != FormatPNG && f != FormatSVG {
			return nil, fmt.Errorf("plots: unknown format %q: want png or svg", f)
		}
	}
	jobs := figureJobs(in)
	results := make([]jobResult, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, len(jobs))) {
		wg.Go(func() {
			for i := range next {
				results[i] = jobs[i].render(formats, pngOver)
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	var figs []Figure
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		if !r.skip {
			figs = append(figs, r.fig)
		}
	}
	return figs, nil
}

// figureJob is a figure to draw: its name, how to make it, its title and
// its alternative text.
type figureJob struct {
	name  string
	make  func() (Drawer, error)
	title string
	alt   func() string
}

// jobResult is a figure drawn, or skipped for want of data, or the error.
type jobResult struct {
	fig  Figure
	skip bool
	err  error
}

// figureJobs are the figures of a report, in order.
func figureJobs(in Input) []figureJob {
	jobs := []figureJob{
		{"throughput", func() (Drawer, error) { return Throughput(in) }, "Throughput per run", func() string { return throughputAlt(in) }},
		{"latency", func() (Drawer, error) { return Latency(in) }, "Latency per run", func() string { return latencyAlt(in) }},
		{"percentiles", func() (Drawer, error) { return Percentiles(in) }, "Latency by percentile", func() string { return percentilesAlt(in) }},
		{"scaling", func() (Drawer, error) { return Scaling(in) }, "Throughput against concurrency", func() string { return scalingAlt(in) }},
	}
	drawn, _ := DrawnOverTimeGroups(in)
	for k, og := range drawn {
		jobs = append(jobs, figureJob{OverTimeName(k), func() (Drawer, error) { return LatencyOverTime(in, og) },
			overTimeTitle(in, og), func() string { return overTimeAlt(in, og) }})
	}
	for _, i := range errorsFigures(in.Verdict) {
		jobs = append(jobs, figureJob{ErrorsFigureName(i), func() (Drawer, error) { return ErrorsOverTime(in, i) },
			errorsTitle(in.Verdict.Errors[i]), func() string { return errorsAlt(in, i) }})
	}
	return jobs
}

// render draws the figure in each format, and also as PNG when pngOver >=
// 0 and its SVG is over pngOver bytes.
func (j figureJob) render(formats []Format, pngOver int) jobResult {
	d, err := j.make()
	if errors.Is(err, ErrNoData) {
		return jobResult{skip: true}
	}
	if err != nil {
		return jobResult{err: fmt.Errorf("plots: %s: %w", j.name, err)}
	}
	f := Figure{Name: j.name + "." + string(formats[0]), Title: j.title, Alt: j.alt()}
	for _, format := range formats {
		encode, dst := PNG, &f.PNG
		if format == FormatSVG {
			encode, dst = SVG, &f.SVG
		}
		if *dst, err = encode(d); err != nil {
			return jobResult{err: fmt.Errorf("plots: %s.%s: %w", j.name, format, err)}
		}
	}
	if pngOver >= 0 && len(f.SVG) > pngOver && f.PNG == nil {
		if f.PNG, err = PNG(d); err != nil {
			return jobResult{err: fmt.Errorf("plots: %s.png: %w", j.name, err)}
		}
	}
	return jobResult{fig: f}
}

// PNG renders d as a WidthPx x HeightPx PNG image.
func PNG(d Drawer) (b []byte, err error) {
	defer func() {
		// gonum/plot panics on some degenerate input (e.g. a log axis
		// over non-positive values): report it as an error.
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("plots: drawing failed: %v", r)
		}
	}()
	// The canvas draws on img itself: vgimg.NewWith without a context
	// copies the image it makes into a new one (3.4 MB a figure).
	img := image.NewRGBA(image.Rect(0, 0, WidthPx, HeightPx))
	ctx := gg.NewContextForRGBA(img)
	ctx.SetLineCapButt()
	ctx.InvertY()
	c := vgimg.NewWith(vgimg.UseImageWithContext(img, ctx), vgimg.UseDPI(DPI))
	d.Draw(draw.New(c))
	var buf bytes.Buffer
	if err := pngEncoder.Encode(&buf, c.Image()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pngEncoder compresses figures at zlib's fastest level: a figure is flat
// colour and lines, so the files grow little, while the default level
// took 40 % of a report's figure time.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed}

// SVG renders d as an SVG image of WidthPx x HeightPx (at DPI), its text as
// text (escaped), its fonts named, not embedded.
func SVG(d Drawer) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("plots: drawing failed: %v", r)
		}
	}()
	c := vgsvg.NewWith(vgsvg.UseWH(figWidth, figHeight))
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	d.Draw(dc)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Figure geometry and type sizes, in points at DPI: 11 pt is ~15 px.
var (
	figWidth  = vg.Length(WidthPx) * vg.Inch / DPI
	figHeight = vg.Length(HeightPx) * vg.Inch / DPI

	sans     = font.Font{Typeface: "Liberation", Variant: "Sans"}
	sansBold = font.Font{Typeface: "Liberation", Variant: "Sans", Weight: xfont.WeightBold}

	titleSize  = vg.Points(13)
	labelSize  = vg.Points(12)
	tickSize   = vg.Points(11)
	legendSize = vg.Points(11)
	noteSize   = vg.Points(10.5)

	lineWidth  = vg.Points(1.5)
	thinWidth  = vg.Points(1)
	glyphSize  = vg.Points(4.5)
	legendGap  = vg.Points(14) // between the data area and the legend
	rightInset = vg.Points(8)  // between the legend and the right edge
)

// style is how one system (or one series) is drawn: colour, dash and marker.
type style struct {
	Color  color.NRGBA
	Dashes []vg.Length
	Glyph  draw.GlyphDrawer // filled marker
	Hollow draw.GlyphDrawer // open marker of the same shape
}

// The palette: dark blue, orange, dark grey, light blue. In grayscale their
// lightness is about 17 %, 49 %, 33 % and 75 %; the first two (the usual
// pair of systems) are far apart, and every entry also has its own dash
// pattern and marker shape.
var (
	colors = []color.NRGBA{
		{R: 0x08, G: 0x30, B: 0x6b, A: 0xff}, // dark blue
		{R: 0xe6, G: 0x61, B: 0x01, A: 0xff}, // orange
		{R: 0x55, G: 0x55, B: 0x55, A: 0xff}, // dark grey
		{R: 0x6b, G: 0xae, B: 0xd6, A: 0xff}, // light blue
	}
	dashes = [][]vg.Length{
		nil,                          // solid
		{vg.Points(9), vg.Points(4)}, // long dash
		{vg.Points(2), vg.Points(3)}, // dotted
		{vg.Points(9), vg.Points(3), vg.Points(2), vg.Points(3)}, // dash-dot
	}
	filled = []draw.GlyphDrawer{mark{Shape: circle}, mark{Shape: triangle}, mark{Shape: square}, mark{Shape: diamond}}
	hollow = []draw.GlyphDrawer{mark{circle, true}, mark{triangle, true}, mark{square, true}, mark{diamond, true}}
	// levelGlyphs mark concurrency levels (throughput figure).
	levelGlyphs = []draw.GlyphDrawer{mark{Shape: circle}, mark{Shape: square}, mark{Shape: triangle}, mark{Shape: diamond},
		mark{circle, true}, mark{square, true}, mark{triangle, true}, mark{diamond, true}, mark{Shape: cross}, mark{Shape: plus}}
	black     = color.NRGBA{A: 0xff}
	gridColor = color.NRGBA{R: 0xdd, G: 0xdd, B: 0xdd, A: 0xff}
)

// styleOf returns the style of the i-th system. Beyond four systems the
// colours repeat with another dash pattern and marker.
func styleOf(i int) style {
	k := (i + i/len(colors)) % len(dashes)
	g := (i + i/len(colors)) % len(filled)
	return style{Color: colors[i%len(colors)], Dashes: dashes[k], Glyph: filled[g], Hollow: hollow[g]}
}

func (s style) line(w vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: s.Color, Width: w, Dashes: s.Dashes}
}

func (s style) glyph(r vg.Length) draw.GlyphStyle {
	return draw.GlyphStyle{Color: s.Color, Radius: r, Shape: s.Glyph}
}

// finite reports whether v is a number other than ±Inf.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// finiteP reports whether p points to a finite number.
func finiteP(p *float64) bool { return p != nil && finite(*p) }

// withAlpha returns c with alpha a (0..255).
func withAlpha(c color.NRGBA, a uint8) color.NRGBA {
	c.A = a
	return c
}

// shape is the outline of a marker.
type shape int

const (
	circle shape = iota
	square
	triangle
	diamond
	cross
	plus
)

// mark is a marker of one shape, filled or open; gonum's open glyphs are
// stroked at 0.5 pt, too thin to read at 1200 px.
type mark struct {
	Shape shape
	Open  bool
}

// markStroke is the line width of open markers, crosses and pluses.
var markStroke = vg.Points(1.4)

// DrawGlyph implements draw.GlyphDrawer.
func (m mark) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	var p vg.Path
	poly := func(pts ...vg.Point) {
		p.Move(pts[0])
		for _, q := range pts[1:] {
			p.Line(q)
		}
		p.Close()
	}
	switch m.Shape {
	case circle:
		p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
		p.Arc(pt, r, 0, 2*math.Pi)
		p.Close()
	case square:
		h := r * 0.86
		poly(vg.Point{X: pt.X - h, Y: pt.Y - h}, vg.Point{X: pt.X + h, Y: pt.Y - h}, vg.Point{X: pt.X + h, Y: pt.Y + h}, vg.Point{X: pt.X - h, Y: pt.Y + h})
	case triangle:
		t := r * 1.3
		poly(vg.Point{X: pt.X, Y: pt.Y + t}, vg.Point{X: pt.X - t*0.866, Y: pt.Y - t/2}, vg.Point{X: pt.X + t*0.866, Y: pt.Y - t/2})
	case diamond:
		d := r * 1.2
		poly(vg.Point{X: pt.X, Y: pt.Y + d}, vg.Point{X: pt.X + d, Y: pt.Y}, vg.Point{X: pt.X, Y: pt.Y - d}, vg.Point{X: pt.X - d, Y: pt.Y})
	case cross, plus:
		a := r
		if m.Shape == cross {
			a = r * 0.8
			p.Move(vg.Point{X: pt.X - a, Y: pt.Y - a})
			p.Line(vg.Point{X: pt.X + a, Y: pt.Y + a})
			p.Move(vg.Point{X: pt.X - a, Y: pt.Y + a})
			p.Line(vg.Point{X: pt.X + a, Y: pt.Y - a})
		} else {
			p.Move(vg.Point{X: pt.X, Y: pt.Y - a})
			p.Line(vg.Point{X: pt.X, Y: pt.Y + a})
			p.Move(vg.Point{X: pt.X - a, Y: pt.Y})
			p.Line(vg.Point{X: pt.X + a, Y: pt.Y})
		}
		c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: markStroke * 1.2})
		c.Stroke(p)
		return
	}
	if m.Open {
		c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: markStroke})
		c.Stroke(p)
		return
	}
	c.SetColor(sty.Color)
	c.Fill(p)
}

// newPlot returns a plot with the package's fonts, a light grid and a
// legend outside the data area, at the top right.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sansBold, titleSize)
	p.Title.Padding = vg.Points(10)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Tick.Marker = niceTicks{}
		a.Label.TextStyle.Font = font.From(sans, labelSize)
		a.Label.Padding = vg.Points(6)
		a.Tick.Label.Font = font.From(sans, tickSize)
		a.Tick.Length = vg.Points(6)
		a.Padding = vg.Points(4)
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.TextStyle.Font = font.From(sans, legendSize)
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(30)
	p.Legend.Padding = vg.Points(4)
	p.Legend.XOffs = -rightInset
	g := plotter.NewGrid()
	g.Vertical = draw.LineStyle{Color: gridColor, Width: vg.Points(0.5)}
	g.Horizontal = g.Vertical
	p.Add(g, legendSpace{})
	return p
}

// legendSpace reserves room at the right of the data area for the legend,
// which gonum/plot otherwise draws over the data.
type legendSpace struct{}

// Plot implements plot.Plotter; it draws nothing.
func (legendSpace) Plot(draw.Canvas, *plot.Plot) {}

// GlyphBoxes implements plot.GlyphBoxer: one box as wide as the legend at
// the right edge of the data area.
func (legendSpace) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	r := p.Legend.Rectangle(draw.Canvas{})
	w := r.Max.X - r.Min.X
	if w <= 0 {
		return nil
	}
	return []plot.GlyphBox{{X: 1, Y: 0.5, Rectangle: vg.Rectangle{Max: vg.Point{X: w + legendGap + rightInset}}}}
}

// band is a filled rectangle, drawn behind the data.
type band struct {
	X0, X1, Y0, Y1 float64
	Color          color.Color
}

// Plot implements plot.Plotter.
func (b band) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pts := []vg.Point{{X: trX(b.X0), Y: trY(b.Y0)}, {X: trX(b.X1), Y: trY(b.Y0)}, {X: trX(b.X1), Y: trY(b.Y1)}, {X: trX(b.X0), Y: trY(b.Y1)}}
	c.FillPolygon(b.Color, c.ClipPolygonXY(pts))
}

// DataRange implements plot.DataRanger.
func (b band) DataRange() (xmin, xmax, ymin, ymax float64) {
	return b.X0, b.X1, math.Min(b.Y0, b.Y1), math.Max(b.Y0, b.Y1)
}

// Thumbnail implements plot.Thumbnailer.
func (b band) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}}
	c.FillPolygon(b.Color, pts)
}

// vline is a vertical line across the data area at X, with an optional
// text at its top (Row moves the text down by rows of text).
type vline struct {
	X    float64
	Line draw.LineStyle
	Text string
	Row  int
}

// Plot implements plot.Plotter.
func (l vline) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(l.X)
	if !c.ContainsX(x) {
		return
	}
	c.StrokeLine2(l.Line, x, c.Min.Y, x, c.Max.Y)
	if l.Text == "" {
		return
	}
	sty := draw.TextStyle{Color: black, Font: font.From(sans, noteSize), YAlign: draw.YTop, Handler: p.TextHandler}
	pad := vg.Points(4)
	pt := vg.Point{X: x + pad, Y: c.Max.Y - pad - vg.Length(l.Row)*sty.Height("M")*1.3}
	if x+pad+sty.Width(l.Text) > c.Max.X {
		// Text on the left of the line when it would not fit on the right.
		sty.XAlign = draw.XRight
		pt.X = x - pad
	}
	// A white box behind the text keeps it readable over grid and data.
	w, h := sty.Width(l.Text), sty.Height(l.Text)
	x0 := pt.X
	if sty.XAlign == draw.XRight {
		x0 -= w
	}
	box := []vg.Point{{X: x0 - 2, Y: pt.Y - h}, {X: x0 + w + 2, Y: pt.Y - h}, {X: x0 + w + 2, Y: pt.Y + 1}, {X: x0 - 2, Y: pt.Y + 1}}
	c.FillPolygon(color.NRGBA{R: 255, G: 255, B: 255, A: 220}, box)
	c.FillText(sty, pt, l.Text)
}

// DataRange implements plot.DataRanger: the line's x only.
func (l vline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return l.X, l.X, math.Inf(1), math.Inf(-1)
}

// lineThumb draws a line (and a marker when Glyph is set) as a legend thumbnail.
type lineThumb struct {
	Line  draw.LineStyle
	Glyph *draw.GlyphStyle
}

// Thumbnail implements plot.Thumbnailer.
func (t lineThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	if t.Line.Width > 0 {
		c.StrokeLine2(t.Line, c.Min.X, y, c.Max.X, y)
	}
	if t.Glyph != nil {
		c.DrawGlyph(*t.Glyph, c.Center())
	}
}

// niceTicks marks a linear axis with about six labelled ticks at 1, 2,
// 2.5 or 5 times a power of ten, labelled with no more decimals than the
// step needs, and minor ticks between them. Tick positions are counted in
// integers (never by stepping a float), and a range too narrow for its
// magnitude to hold distinct ticks (a constant series: lo and hi a few ulps
// apart) gets one tick at its middle.
type niceTicks struct{}

// maxTicks bounds the ticks of one axis; no regular step makes more.
const maxTicks = 200

// Ticks implements plot.Ticker.
func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	raw := (hi - lo) / 6
	mag := math.Pow10(int(math.Floor(math.Log10(raw))))
	var step, minor float64
	for _, m := range []struct{ step, minor float64 }{{1, 0.2}, {2, 0.5}, {2.5, 0.5}, {5, 1}, {10, 2}} {
		if m.step*mag >= raw*(1-1e-9) {
			step, minor = m.step*mag, m.minor*mag
			break
		}
	}
	first, last := math.Ceil(lo/minor-1e-9), math.Floor(hi*(1+1e-12)/minor+1e-12/minor)
	// Beyond 2^52 consecutive integers are not all floats: such a range
	// is degenerate for its magnitude (and the count below would lie).
	if !(minor > 0) || math.Abs(first) > 1<<52 || math.Abs(last) > 1<<52 || last-first > maxTicks || last < first {
		mid := roundSig(lo/2 + hi/2)
		return []plot.Tick{{Value: mid, Label: strconv.FormatFloat(mid, 'g', 6, 64)}}
	}
	decimals := 0 // as many as the step has
	for ; decimals < 12; decimals++ {
		if v := step * math.Pow10(decimals); math.Abs(v-math.Round(v)) < 1e-6*v {
			break
		}
	}
	i0, n := int64(first), int64(last-first)
	ticks := make([]plot.Tick, 0, n+1)
	for k := int64(0); k <= n; k++ {
		v := roundSig(float64(i0+k) * minor)
		t := plot.Tick{Value: v}
		if r := v / step; math.Abs(r-math.Round(r)) < 1e-6 {
			t.Label = strconv.FormatFloat(v+0, 'f', decimals, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// intTicks marks integers (run seqs) with at most about 15 labelled ticks,
// counted in integers; a range beyond the exact integers of a float64 gets
// no ticks.
type intTicks struct{}

// Ticks implements plot.Ticker.
func (intTicks) Ticks(lo, hi float64) []plot.Tick {
	a, b := math.Ceil(lo), math.Floor(hi)
	if !(b >= a) || math.Abs(a) > 1<<52 || math.Abs(b) > 1<<52 {
		return nil
	}
	step := int64(1)
	for _, s := range []int64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 100000, 1000000} {
		step = s
		if (b-a)/float64(s) <= 15 {
			break
		}
	}
	first, last := int64(math.Ceil(a/float64(step)))*step, int64(b)
	var ticks []plot.Tick
	for v, k := first, 0; v <= last && k <= maxTicks; v, k = v+step, k+1 {
		ticks = append(ticks, plot.Tick{Value: float64(v), Label: strconv.FormatInt(v, 10)})
	}
	return ticks
}

// logTicks marks a log axis: 1, 2 and 5 times powers of ten labelled
// (only powers of ten over more than three decades), the other integer
// multiples as minor ticks.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) {
		return nil
	}
	k0, k1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	major := map[int]bool{1: true, 2: true, 5: true}
	if k1-k0 > 3 {
		major = map[int]bool{1: true}
	}
	var ticks []plot.Tick
	labelled := 0
	for k := k0; k <= k1; k++ {
		for m := 1; m <= 9; m++ {
			v := roundSig(float64(m) * math.Pow10(k))
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if major[m] {
				t.Label = fmtTick(v)
				labelled++
			}
			ticks = append(ticks, t)
		}
	}
	if labelled < 2 { // a narrow range: label every tick
		for i := range ticks {
			ticks[i].Label = fmtTick(ticks[i].Value)
		}
	}
	return ticks
}

// roundSig rounds v to 6 significant digits (m*10^k without float noise).
func roundSig(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return r
}

func fmtTick(v float64) string {
	return strconv.FormatFloat(roundSig(v), 'f', -1, 64)
}

// fmtNum formats a value for a label: at most 3 significant digits after
// the point, no trailing zeros.
func fmtNum(v float64) string {
	switch a := math.Abs(v); {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
	default:
		return strconv.FormatFloat(roundSig(math.Round(v*100)/100), 'f', -1, 64)
	}
}

// minSpan widens a linear axis narrower than twice the practical band
// (a fraction, e.g. 0.02) of its centre to that span, about the centre:
// a difference inside the band, which the verdict calls none, must not
// fill the frame as two separate levels (200.00 against 200.04 req/s).
// An axis from 0 keeps its 0.
func minSpan(a *plot.Axis, band float64) {
	if band <= 0 {
		band = analyze.DefaultOptions().PracticalBand
	}
	c := (a.Min + a.Max) / 2
	want := 2 * band * math.Abs(c)
	if a.Max-a.Min >= want || want == 0 || math.IsNaN(want) || math.IsInf(want, 0) {
		return
	}
	lo, hi := c-want/2, c+want/2
	if a.Min >= 0 && lo < 0 {
		lo, hi = 0, want
	}
	a.Min, a.Max = lo, hi
}

// logAxis sets a to a log scale between lo and hi (both > 0).
func logAxis(a *plot.Axis, lo, hi float64) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = logTicks{}
	a.Min, a.Max = lo, hi
}

// maxLabel is the longest system label or run id drawn, in runes: the
// legend, right of the data, stays under about a fifth of the width.
const maxLabel = 32

// short shortens s to maxLabel runes with an ellipsis.
func short(s string) string {
	if utf8.RuneCountInString(s) <= maxLabel {
		return s
	}
	r := []rune(s)
	return string(r[:maxLabel-1]) + "…"
}

// systemIndex maps each label to its index in v.Systems.
func systemIndex(v *analyze.Verdict) map[string]int {
	m := make(map[string]int, len(v.Systems))
	for i, s := range v.Systems {
		m[s.Label] = i
	}
	return m
}

// titled prefixes a figure title with the experiment name, when there is one.
func titled(v *analyze.Verdict, title string) string {
	if v.Experiment == "" {
		return title
	}
	return title + " — " + short(v.Experiment)
}

// joinLabels lists the system labels in words.
func joinLabels(v *analyze.Verdict) string {
	var l []string
	for _, s := range v.Systems {
		l = append(l, s.Label)
	}
	switch len(l) {
	case 0:
		return ""
	case 1:
		return l[0]
	}
	return strings.Join(l[:len(l)-1], ", ") + " and " + l[len(l)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
