package pipeline

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/loadverdict/loadverdict/plots"
)

func TestLambdaMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, c := range []struct {
		env       string
		gomemlimt bool
		want      int64
	}{
		{"512", false, 384 << 20},
		{"10240", false, 7680 << 20},
		{"", false, 0},
		{"lots", false, 0},
		{"512", true, 0},
	} {
		t.Setenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", c.env)
		if c.gomemlimt {
			t.Setenv("GOMEMLIMIT", "1GiB")
		}
		debug.SetMemoryLimit(math.MaxInt64)
		got := LambdaMemoryLimit()
		if got != c.want {
			t.Errorf("%q (GOMEMLIMIT set: %v): limit %d, want %d", c.env, c.gomemlimt, got, c.want)
		}
		if now := debug.SetMemoryLimit(-1); c.want != 0 && now != c.want || c.want == 0 && now != math.MaxInt64 {
			t.Errorf("%q: runtime limit %d", c.env, now)
		}
	}
}

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
