package plots

import (
	"bytes"
	"encoding/xml"
	"flag"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/cmpimg"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.png from the current output")

// goldenDelta is the per-pixel tolerance of cmpimg.EqualApprox: it absorbs
// anti-aliasing differences between platforms, not a moved line or label.
const goldenDelta = 0.1

func names(figs []Figure) []string {
	var n []string
	for _, f := range figs {
		n = append(n, f.Name)
	}
	return n
}

func render(t *testing.T, in Input) []Figure {
	t.Helper()
	figs, err := RenderFormats(in)
	if err != nil {
		t.Fatal(err)
	}
	return figs
}

func TestRenderFigures(t *testing.T) {
	seed, rich := seedInput(t), richInput(t)
	sf, rf := render(t, seed), render(t, rich)
	if got, want := names(sf), []string{"throughput.png", "latency.png", "scaling.png"}; !slices.Equal(got, want) {
		t.Errorf("seed figures %v, want %v", got, want)
	}
	if got, want := names(rf), []string{"throughput.png", "latency.png", "percentiles.png", "scaling.png", "latency-time-1.png"}; !slices.Equal(got, want) {
		t.Errorf("rich figures %v, want %v", got, want)
	}
	for _, f := range append(sf, rf...) {
		img, err := png.Decode(bytes.NewReader(f.PNG))
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if b := img.Bounds(); b.Dx() != WidthPx || b.Dy() != HeightPx {
			t.Errorf("%s: %dx%d", f.Name, b.Dx(), b.Dy())
		}
		if f.Title == "" || !strings.HasSuffix(f.Alt, ".") || strings.Contains(f.Alt, "\n") {
			t.Errorf("%s: title %q alt %q", f.Name, f.Title, f.Alt)
		}
	}
	if a := sf[1].Alt; a != "The mean latency with ±1 standard deviation and maximum of 6 runs in execution order for localhost:5555 and localhost:80 on a log scale (1 error bar reaches below the axis, marked by an arrow)." {
		t.Errorf("seed latency alt %q", a)
	}
}

func TestRenderDeterministic(t *testing.T) {
	for name, in := range map[string]func(testing.TB) Input{"seed": seedInput, "rich": richInput} {
		a, b := render(t, in(t)), render(t, in(t))
		if len(a) != len(b) {
			t.Fatalf("%s: %d then %d figures", name, len(a), len(b))
		}
		for i := range a {
			if a[i].Name != b[i].Name || a[i].Alt != b[i].Alt || !bytes.Equal(a[i].PNG, b[i].PNG) {
				t.Errorf("%s: %s differs between two renderings", name, a[i].Name)
			}
		}
	}
}

// TestRenderParallel checks that figures drawn in parallel (several at
// once, and several renderings at once) are the bytes of figures drawn one
// after the other; run with -race, it also finds shared state.
func TestRenderParallel(t *testing.T) {
	for name, mk := range map[string]func(testing.TB) Input{"seed": seedInput, "rich": richInput} {
		in := mk(t)
		want, err := renderWith(in, 1, -1)
		if err != nil {
			t.Fatal(err)
		}
		got := make([][]Figure, 4)
		errs := make([]error, len(got))
		var wg sync.WaitGroup
		for i := range got {
			wg.Go(func() { got[i], errs[i] = renderWith(in, 8, -1) }) // one input, read at once
		}
		wg.Wait()
		for i, figs := range got {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			if len(figs) != len(want) {
				t.Fatalf("%s: %d figures in parallel, %d one by one", name, len(figs), len(want))
			}
			for j := range figs {
				if figs[j].Name != want[j].Name || figs[j].Alt != want[j].Alt || !bytes.Equal(figs[j].PNG, want[j].PNG) {
					t.Errorf("%s: %s drawn in parallel differs", name, want[j].Name)
				}
			}
		}
	}
}

// TestGolden compares the figures with testdata/<input>-<name>.golden.png;
// go test ./plots -run Golden -update rewrites them.
func TestGolden(t *testing.T) {
	check := func(prefix string, figs []Figure, only ...string) {
		for _, f := range figs {
			if len(only) > 0 && !slices.ContainsFunc(only, func(p string) bool { return strings.HasPrefix(f.Name, p) }) {
				continue
			}
			name := strings.TrimSuffix(f.Name, ".png")
			path := filepath.Join("testdata", prefix+"-"+name+".golden.png")
			if *update {
				if err := os.WriteFile(path, f.PNG, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			ok, err := cmpimg.EqualApprox("png", f.PNG, want, goldenDelta)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				got := filepath.Join(t.TempDir(), filepath.Base(path))
				_ = os.WriteFile(got, f.PNG, 0o644)
				t.Errorf("%s differs from %s (got: %s)", f.Name, path, got)
			}
		}
	}
	seed := render(t, seedInput(t))
	check("seed", seed)
	check("rich", render(t, richInput(t)), "percentiles", "scaling", "latency-time-")
	// The tolerance does not hide a different figure.
	if ok, err := cmpimg.EqualApprox("png", seed[0].PNG, seed[1].PNG, goldenDelta); ok || err != nil {
		t.Errorf("throughput and latency figures compare equal (%v)", err)
	}
}

func TestNoData(t *testing.T) {
	if _, err := RenderFormats(Input{}); err == nil {
		t.Error("no error without a verdict")
	}
	// A run without any latency figure: throughput only.
	r := wrkRun("a:80", 0, 10, 1000, 10, 2, 30)
	r.LatMeanMs, r.LatStdevMs, r.LatMaxMs = nil, nil, nil
	figs := render(t, analyzed(t, analyze.Set{Runs: []results.Run{r}}))
	if got := names(figs); !slices.Equal(got, []string{"throughput.png"}) {
		t.Errorf("figures %v", got)
	}
}

// Long labels from input are shortened to maxLabel runes.
func TestShortLabel(t *testing.T) {
	if got := short(strings.Repeat("é", 50)); len([]rune(got)) != maxLabel {
		t.Errorf("short: %q", got)
	}
}

// labelsOf returns the labels of the labelled ticks of tk over lo..hi.
func labelsOf(tk plot.Ticker, lo, hi float64) string {
	var l []string
	for _, t := range tk.Ticks(lo, hi) {
		if t.Label != "" {
			l = append(l, t.Label)
		}
	}
	return strings.Join(l, " ")
}

func TestTicks(t *testing.T) {
	for _, c := range []struct {
		name   string
		tk     plot.Ticker
		lo, hi float64
		want   string
	}{
		{"nice", niceTicks{}, 0, 5600, "0 1000 2000 3000 4000 5000"},
		{"nice", niceTicks{}, 0, 12000, "0 2000 4000 6000 8000 10000 12000"},
		{"nice", niceTicks{}, 0, 14000, "0 2500 5000 7500 10000 12500"},
		{"nice", niceTicks{}, 0, 1.4, "0.00 0.25 0.50 0.75 1.00 1.25"},
		{"nice", niceTicks{}, 0.1, 0.45, "0.1 0.2 0.3 0.4"},
		{"log", logTicks{}, 5.75, 689, "10 20 50 100 200 500"},
		{"log", logTicks{}, 0.5, 20000, "1 10 100 1000 10000"},
		{"log", logTicks{}, 30, 45, "30 40"},
		{"int", intTicks{}, -0.6, 5.6, "0 1 2 3 4 5"},
		{"int", intTicks{}, -0.6, 40.6, "0 5 10 15 20 25 30 35 40"},
		{"int", intTicks{}, -10.5, 10.5, "-10 -8 -6 -4 -2 0 2 4 6 8 10"},
		// Degenerate ranges (a constant series): lo and hi two ulps apart
		// once stepped a float counter near 1e17 forever (issue 21).
		{"nice", niceTicks{}, 2597.158938622353, math.Nextafter(math.Nextafter(2597.158938622353, 3000), 3000), "2597.16"},
		{"nice", niceTicks{}, 1e300, math.Nextafter(1e300, math.Inf(1)), "1e+300"},
		{"nice", niceTicks{}, -1e-300, 1e-300, "0"},
		{"int", intTicks{}, 1e17, 1e17 + 64, ""},
	} {
		if got := labelsOf(c.tk, c.lo, c.hi); got != c.want {
			t.Errorf("%s %v..%v: %q, want %q", c.name, c.lo, c.hi, got, c.want)
		}
	}
}

// Odd but possible input renders without error: an open-model run without
// connections, zero and missing latencies, a one-window series without
// latency, a spectrum of only the maximum, a very long label.
func TestRenderOddInput(t *testing.T) {
	open := wrkRun("open:80", 0, 0, 990, 0, 0, 0)
	open.Connections, open.LoadModel, open.Tool, open.TargetRPS = nil, results.LoadOpen, "wrk2", results.Ptr(1000.0)
	long := wrkRun(strings.Repeat("very-long-label/", 10), 1, 10, 5, 1, 0, 1)
	bare := wrkRun("bare:80", 2, 10, 0, 0, 0, 0)
	bare.LatMeanMs, bare.LatStdevMs, bare.LatMaxMs = nil, nil, nil
	in := analyzed(t, analyze.Set{Runs: []results.Run{open, long, bare},
		Percentiles: []results.Percentile{{RunID: long.RunID, Quantile: 1, LatencyMs: 1}},
		Series:      []results.Series{{RunID: bare.RunID, TS: 0, WindowS: 1, Requests: 0}},
	})
	figs := render(t, in)
	// bare's one window has no latency: no latency-over-time figure.
	if got, want := names(figs), []string{"throughput.png", "latency.png", "percentiles.png"}; !slices.Equal(got, want) {
		t.Errorf("figures %v, want %v", got, want)
	}
	if os.Getenv("PLOTS_OUT") != "" {
		for _, f := range figs {
			_ = os.WriteFile(filepath.Join(os.Getenv("PLOTS_OUT"), "odd-"+f.Name), f.PNG, 0o644)
		}
	}
}

// SVG figures are well-formed XML whose text (titles, hostile labels) is
// escaped, and they match the PNG figures one for one.
func TestRenderSVG(t *testing.T) {
	in := seedInput(t)
	in.Verdict.Systems[0].Label = `<script>alert(1)</script> & "x"`
	for i := range in.Verdict.Runs {
		if in.Verdict.Runs[i].Label == "localhost:5555" {
			in.Verdict.Runs[i].Label = in.Verdict.Systems[0].Label
		}
	}
	figs, err := RenderFormats(in, FormatSVG, FormatPNG)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(figs); !slices.Equal(got, []string{"throughput.svg", "latency.svg", "scaling.svg"}) {
		t.Errorf("figures %v", got)
	}
	for _, f := range figs {
		if len(f.PNG) == 0 {
			t.Errorf("%s: no PNG", f.Name)
		}
		d := xml.NewDecoder(bytes.NewReader(f.SVG))
		var texts []string
		root := ""
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				if root == "" {
					root = tok.Name.Local
				}
			case xml.CharData:
				texts = append(texts, string(tok))
			}
		}
		all := strings.Join(texts, "\n")
		if root != "svg" || !strings.Contains(all, "— zuul-vs-openresty") || !strings.Contains(all, `<script>alert(1)</script> & "x"`) {
			t.Errorf("%s: root %q, text %q", f.Name, root, all)
		}
	}
	if _, err := RenderFormats(in, "gif"); err == nil {
		t.Error("an unknown format is accepted")
	}
}

// RenderSVG draws the SVG figures of RenderFormats(in, FormatSVG,
// FormatPNG), and a figure's PNG only when its SVG is over the size
// given: the same PNG bytes then, none otherwise.
func TestRenderSVGDrawsPNGOnlyOverSize(t *testing.T) {
	in := seedInput(t)
	both, err := RenderFormats(in, FormatSVG, FormatPNG)
	if err != nil {
		t.Fatal(err)
	}
	sizes := make([]int, len(both))
	for i, f := range both {
		sizes[i] = len(f.SVG)
	}
	over := slices.Min(sizes) // every figure but the smallest is over it
	for _, c := range []struct {
		name    string
		pngOver int
	}{{"none over", 1 << 30}, {"all over", 0}, {"some over", over}} {
		t.Run(c.name, func(t *testing.T) {
			figs, err := RenderSVG(in, c.pngOver)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names(figs), names(both)) {
				t.Fatalf("figures %v, want %v", names(figs), names(both))
			}
			for i, f := range figs {
				if !bytes.Equal(f.SVG, both[i].SVG) || f.Title != both[i].Title || f.Alt != both[i].Alt {
					t.Errorf("%s: not the figure RenderFormats draws", f.Name)
				}
				switch large := len(f.SVG) > c.pngOver; {
				case large && !bytes.Equal(f.PNG, both[i].PNG):
					t.Errorf("%s: SVG of %d bytes over %d, PNG of %d bytes, want RenderFormats' %d", f.Name, len(f.SVG), c.pngOver, len(f.PNG), len(both[i].PNG))
				case !large && f.PNG != nil:
					t.Errorf("%s: SVG of %d bytes not over %d, a PNG drawn all the same", f.Name, len(f.SVG), c.pngOver)
				}
			}
		})
	}
}
