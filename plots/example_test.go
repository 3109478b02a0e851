package plots_test

import (
	"bytes"
	"fmt"
	"image/png"
	"log"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/plots"
	"github.com/loadverdict/loadverdict/results"
)

// RenderFormats draws the figures of a tiny experiment: two systems, one run
// each at 10 connections. There are no percentiles, no per-window series
// and a single concurrency level, so there are two figures.
func ExampleRenderFormats() {
	run := func(label string, seq int32, rps, latMs float64) results.Run {
		return results.Run{RunID: fmt.Sprint("run", seq), Seq: seq, Label: label, Tool: "wrk", LoadModel: results.LoadClosed,
			Connections: results.Ptr(int32(10)), DurationS: 30, RPS: rps, LatMeanMs: results.Ptr(latMs), LatMaxMs: results.Ptr(4 * latMs)}
	}
	v, err := analyze.Analyze(analyze.Set{Experiment: "tiny", Runs: []results.Run{
		run("a:80", 0, 1000, 10), run("b:80", 1, 2000, 5),
	}}, analyze.DefaultOptions())
	if err != nil {
		log.Fatal(err)
	}
	figs, err := plots.RenderFormats(plots.Input{Verdict: v})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range figs {
		img, err := png.Decode(bytes.NewReader(f.PNG))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %dx%d: %s\n", f.Name, img.Bounds().Dx(), img.Bounds().Dy(), f.Alt)
	}
	// Output:
	// throughput.png 1200x700: Requests per second of 2 runs in execution order for a:80 and b:80, one marker shape per concurrency level.
	// latency.png 1200x700: The mean latency with ±1 standard deviation and maximum of 2 runs in execution order for a:80 and b:80.
}

// Throughput returns the figure unrendered; PNG renders it.
func ExampleThroughput() {
	v, err := analyze.Analyze(analyze.Set{Runs: []results.Run{{RunID: "r0", Label: "a:80", Tool: "wrk", RPS: 1000}}}, analyze.DefaultOptions())
	if err != nil {
		log.Fatal(err)
	}
	p, err := plots.Throughput(plots.Input{Verdict: v})
	if err != nil {
		log.Fatal(err)
	}
	b, err := plots.PNG(p)
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Title.Text, cfg.Width, cfg.Height)
	// Output:
	// Throughput per run 1200 700
}
