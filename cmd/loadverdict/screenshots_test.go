package main

import (
	"bytes"
	"image"
	"image/color"
	"image/color/palette"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// gatePage is a report.html the browser test opens: a committed example
// or one made by the command args (from the package's folder), with the
// gate state it must show first ("" when no gate was asked for), and the
// name of its screenshots under examples/screenshots/ (none when empty).
type gatePage struct {
	name  string
	file  string   // a committed report.html
	args  []string // or the report command that makes one
	state string
	shot  string
}

// TestReportHTMLGateAndPhone opens the seed, the before/after example, an
// error-heavy run and the gate's other states in a real browser at
// 1280 and 390 px: the gate's state is the first thing on the page,
// visible and coloured by state; the comparison and numbers tables' first
// two columns fit the screen without scrolling sideways. With -update it
// keeps screenshots of the top of the three reports under
// examples/screenshots/ (cropped, 256 colours, to stay small). A browser
// takes seconds to start, so by default each page is opened at one of
// the two widths, in turn.
func TestReportHTMLGateAndPhone(t *testing.T) {
	bin := chromium(t)
	errs := []string{"--system", "five-pct=../../testdata/truth/errors/vegeta/errors-5pct.json.gz",
		"--system", "ninety-five-pct=../../testdata/truth/errors/vegeta/errors-95pct.json.gz"}
	pages := []gatePage{
		{name: "seed", file: "../../examples/zuul-vs-openresty/report.html", shot: "zuul-vs-openresty"},
		{name: "before-after", file: "../../examples/before-after/report.html", state: "failed", shot: "before-after"},
		{name: "errors", args: append([]string{"--threshold", "error_rate<0.05"}, errs...), state: "failed", shot: "errors"},
		{name: "errors allowed", args: append([]string{"--threshold", "error_rate<0.05", "--allow", "threshold"}, errs...), state: "allowed"},
		{name: "seed passed", args: []string{"--threshold", "rps>100", seedFile}, state: "passed"},
	}
	// The state's colour: a red, green or amber border (R, G, B).
	wantBg := map[string]func(r, g, b int) bool{
		"failed":  func(r, g, b int) bool { return r > g+20 && r > b+20 },
		"passed":  func(r, g, b int) bool { return g > r+20 && g > b+20 },
		"allowed": func(r, g, b int) bool { return r > b+40 && g > b+40 },
	}
	for i, pg := range pages {
		file := pg.file
		if file == "" {
			dir := t.TempDir()
			args := append([]string{"report", "-o", dir}, pg.args...)
			if _, errOut, err := runCLI(t, "", args...); err != nil && exitCode(err) != exitGate {
				t.Fatalf("%s: %v: %s", pg.name, err, errOut)
			}
			file = filepath.Join(dir, "report.html")
		}
		abs, err := filepath.Abs(file)
		if err != nil {
			t.Fatal(err)
		}
		for j, width := range []int{1280, 390} {
			// By default each page at one width, in turn (every page,
			// width and state is still drawn); every page at both with
			// -update or LOADVERDICT_LONG=all, as .ci/run sets it.
			if !*update && !wholeTests() && (i+j)%2 != 0 {
				continue
			}
			_, facts, _, full := browse(t, bin, abs, width)
			where := pg.name + " at " + strconv.Itoa(width) + " px"
			if pg.state == "" {
				if facts.Gate != "" {
					t.Errorf("%s: a gate box %q where no gate was asked for", where, facts.Gate)
				}
			} else {
				if !strings.HasPrefix(facts.Gate, "Gate: "+pg.state) || facts.GateH <= 0 {
					t.Errorf("%s: gate box %q (height %v), want it to start with %q", where, facts.Gate, facts.GateH, "Gate: "+pg.state)
				}
				if facts.GateY >= facts.VerdictY {
					t.Errorf("%s: the gate (y %v) comes after the verdict (y %v)", where, facts.GateY, facts.VerdictY)
				}
				var r, g, b int
				if _, err := fmtSscanRGB(facts.GateBg, &r, &g, &b); err != nil || !wantBg[pg.state](r, g, b) {
					t.Errorf("%s: gate colour %q is not the colour of %s", where, facts.GateBg, pg.state)
				}
			}
			if len(facts.Tables) == 0 {
				t.Errorf("%s: no numbers or comparison table", where)
			}
			for _, tb := range facts.Tables {
				if tb.RightOfTwo <= 0 || tb.RightOfTwo > facts.ViewW {
					t.Errorf("%s: table %q's first two columns end at %v px, past the %v px screen", where, tb.Class, tb.RightOfTwo, facts.ViewW)
				}
			}
			if facts.ScrollW > facts.ViewW+1 {
				t.Errorf("%s: the page is %v px wide: it scrolls sideways", where, facts.ScrollW)
			}
			if *update && pg.shot != "" {
				keepScreenshot(t, full, filepath.Join("../../examples/screenshots", pg.shot+"-"+strconv.Itoa(width)+".png"), width)
			}
		}
	}
}

// shotPalette is the screenshots' 256 colours: the web-safe ones, the
// report's own (report.html's style sheet) and greys.
func shotPalette() color.Palette {
	p := slices.Clone(palette.WebSafe)
	for _, hex := range []string{"1b1f24", "57606a", "d0d7de", "f6f8fa", "08306b", "cf222e", "ffebe9", "a40e26", "1a7f37", "dafbe1",
		"116329", "9a6700", "fff8c5", "7d4e00"} {
		v, _ := strconv.ParseUint(hex, 16, 32)
		p = append(p, color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff})
	}
	for g := 8; len(p) < 256; g += 10 {
		p = append(p, color.Gray{uint8(min(g, 255))})
	}
	return p
}

// fmtSscanRGB reads a CSS colour "rgb(r, g, b)".
func fmtSscanRGB(s string, r, g, b *int) (int, error) {
	s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(s, "rgba("), "rgb("), ")")
	parts := strings.Split(s, ",")
	var err error
	n := 0
	for i, p := range []*int{r, g, b} {
		if i >= len(parts) {
			break
		}
		if *p, err = strconv.Atoi(strings.TrimSpace(parts[i])); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// keepScreenshot writes the top of a page's screenshot to name: as many
// pixels high as a screen and a half of its width's device (1280 px:
// 1600; 390 px: 2600, where the comparison table is), in 256 colours.
func keepScreenshot(t *testing.T, shot []byte, name string, width int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	h := 1600
	if width < 600 {
		h = 2600
	}
	b := img.Bounds()
	b.Max.Y = min(b.Max.Y, b.Min.Y+h)
	pal := image.NewPaletted(image.Rect(0, 0, b.Dx(), b.Dy()), shotPalette())
	draw.Draw(pal, pal.Bounds(), img, b.Min, draw.Src)
	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, pal); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
