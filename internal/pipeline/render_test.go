package pipeline

import (
	"testing"

	"github.com/loadverdict/loadverdict/plots"
)

// A figure whose SVG is over maxInlineSVG is inlined in report.html as its
// PNG; the files beside the report keep the format asked for.
func TestFigureFilesInlineLargeSVGAsPNG(t *testing.T) {
	small := plots.Figure{Name: "a.svg", PNG: []byte("png-a"), SVG: []byte("<svg/>")}
	large := plots.Figure{Name: "b.svg", PNG: []byte("png-b"), SVG: make([]byte, maxInlineSVG+1)}
	files, refs := figureFiles([]plots.Figure{small, large}, plots.FormatSVG)
	if string(files[0].Data) != "<svg/>" || len(files[1].Data) != maxInlineSVG+1 {
		t.Errorf("files: %q, %d bytes", files[0].Data, len(files[1].Data))
	}
	if refs[0].MediaType != "image/svg+xml" || string(refs[0].Image) != "<svg/>" {
		t.Errorf("small figure inlined as %s", refs[0].MediaType)
	}
	if refs[1].MediaType != "image/png" || string(refs[1].Image) != "png-b" {
		t.Errorf("large figure inlined as %s", refs[1].MediaType)
	}
}
