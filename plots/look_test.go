package plots

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// TestLook writes the figures of the seed and of richInput to
// $PLOTS_OUT/{seed,rich}/ for looking at them.
func TestLook(t *testing.T) {
	dir := os.Getenv("PLOTS_OUT")
	if dir == "" {
		t.Skip("PLOTS_OUT not set")
	}
	var four []results.Run
	for i := range 12 {
		l := []string{"alpha", "beta", "gamma", "delta"}[i%4]
		four = append(four, wrkRun(l, i, int32(50*(1+i/4)), 1000*float64(1+i%4)+100*float64(i/4), 10+float64(i), 2, 60))
	}
	for name, in := range map[string]Input{"seed": seedInput(t), "rich": richInput(t), "four": analyzed(t, analyze.Set{Runs: four})} {
		figs, err := RenderFormats(in)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, name), 0o755)
		for _, f := range figs {
			os.WriteFile(filepath.Join(dir, name, f.Name), f.PNG, 0o644)
			img, _ := png.Decode(bytes.NewReader(f.PNG))
			g := image.NewGray(img.Bounds())
			for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
				for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
					g.Set(x, y, color.GrayModel.Convert(img.At(x, y)))
				}
			}
			var buf bytes.Buffer
			png.Encode(&buf, g)
			os.WriteFile(filepath.Join(dir, name, "gray-"+f.Name), buf.Bytes(), 0o644)
			t.Logf("%s/%s: %s | %s", name, f.Name, f.Title, f.Alt)
		}
	}
}
