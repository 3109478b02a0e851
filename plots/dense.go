package plots

import (
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxStrokePoints bounds the points of one stroke. The rasterizer behind
// vgimg (freetype's) keeps the cells a stroke covers in a list that it
// searches for every new cell, so one stroke costs time in the square of
// its length: a line through 20,000 runs took a minute. Longer lines are
// drawn as consecutive strokes of at most this many points (sharing their
// end points), which costs time in proportion to the points; lines this
// short or shorter are drawn exactly as before.
const maxStrokePoints = 256

// newLine is plotter.NewLine for lines of any length (see maxStrokePoints).
func newLine(xy plotter.XYs) (*chunkedLine, error) {
	l, err := plotter.NewLine(xy)
	if err != nil {
		return nil, err
	}
	return &chunkedLine{l}, nil
}

// chunkedLine is a plotter.Line drawn in strokes of at most
// maxStrokePoints points.
type chunkedLine struct{ *plotter.Line }

// Plot draws the line. Above maxStrokePoints points, consecutive points
// that fall in one column a tenth of a point wide are reduced to the
// first, the lowest, the highest and the last of them (in their order):
// the line drawn through those covers the same pixels, and a line through
// 200,000 runs does not cost seconds.
func (l *chunkedLine) Plot(c draw.Canvas, p *plot.Plot) {
	all := l.XYs
	if len(all) <= maxStrokePoints {
		l.Line.Plot(c, p)
		return
	}
	defer func() { l.XYs = all }()
	trX, _ := p.Transforms(&c)
	xy := decimate(all, func(x float64) int64 { return int64(math.Floor(float64(trX(x)) * 10)) })
	for i := 0; i < len(xy)-1; i += maxStrokePoints - 1 {
		l.XYs = xy[i:min(i+maxStrokePoints, len(xy))]
		l.Line.Plot(c, p)
	}
}

// decimate keeps, of each stretch of consecutive points in one column
// (col), the first, the lowest, the highest and the last, in their order.
func decimate(xy plotter.XYs, col func(float64) int64) plotter.XYs {
	out := make(plotter.XYs, 0, min(len(xy), 4096))
	for i := 0; i < len(xy); {
		j, c := i+1, col(xy[i].X)
		lo, hi := i, i
		for ; j < len(xy) && col(xy[j].X) == c; j++ {
			if xy[j].Y < xy[lo].Y {
				lo = j
			}
			if xy[j].Y > xy[hi].Y {
				hi = j
			}
		}
		keep := []int{i, lo, hi, j - 1}
		slices.Sort(keep)
		for k, idx := range keep {
			if k == 0 || idx != keep[k-1] {
				out = append(out, xy[idx])
			}
		}
		i = j
	}
	return out
}

// maxGlyphs is the number of markers above which a scatter draws each
// position only once (see denseScatter).
const maxGlyphs = 2048

// newScatter is plotter.NewScatter for any number of points (see
// denseScatter).
func newScatter(xy plotter.XYs) (*denseScatter, error) {
	s, err := plotter.NewScatter(xy)
	if err != nil {
		return nil, err
	}
	return &denseScatter{s}, nil
}

// denseScatter is a plotter.Scatter that, above maxGlyphs points, draws a
// marker once per position on a grid of a tenth of a point (a point is
// 1/72 inch, under a pixel of the figures): a marker drawn again where an
// equal one is adds nothing to see, and 200,000 runs would cost seconds
// of drawing. Up to maxGlyphs points it draws every marker, as before.
type denseScatter struct{ *plotter.Scatter }

// Plot draws the markers.
func (s *denseScatter) Plot(c draw.Canvas, p *plot.Plot) {
	if len(s.XYs) <= maxGlyphs || s.GlyphStyleFunc != nil {
		s.Scatter.Plot(c, p)
		return
	}
	trX, trY := p.Transforms(&c)
	seen := make(map[[2]int64]bool)
	for _, xy := range s.XYs {
		pt := vg.Point{X: trX(xy.X), Y: trY(xy.Y)}
		k := [2]int64{int64(math.Round(float64(pt.X) * 10)), int64(math.Round(float64(pt.Y) * 10))}
		if seen[k] {
			continue
		}
		seen[k] = true
		c.DrawGlyph(s.GlyphStyle, pt)
	}
}
