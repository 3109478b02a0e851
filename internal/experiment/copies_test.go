package experiment

import (
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/results"
)

func TestSameRun(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	start := time.Date(2026, 12, 5, 7, 58, 40, 419222457, time.UTC)
	log := results.Run{Experiment: "e", Tool: "vegeta", Target: "http://127.0.0.1:1/", StartedAt: &start, DurationS: 1.982898956,
		Requests: 100, LatMeanMs: f(4.48750595), LatMinMs: f(2.726456), LatMaxMs: f(25.948609), HasSamples: true}
	text := results.Run{Experiment: "e", Tool: "vegeta", DurationS: 1.983, Requests: 100, LatMeanMs: f(4.488), LatMinMs: f(2.726), LatMaxMs: f(25.949)}
	with := func(r results.Run, edit func(*results.Run)) results.Run {
		edit(&r)
		return r
	}
	later := start.Add(2 * time.Second)
	ep := "GET /a"
	for _, c := range []struct {
		name string
		a, b results.Run
		want bool
	}{
		{"log and its other encoding", log, log, true},
		{"log and the tool's text summary", log, text, true},
		{"summary and log, either order", text, log, true},
		{"two equal summaries", text, text, true},
		{"summaries one rounding apart", text, with(text, func(r *results.Run) { r.LatMeanMs = f(4.489) }), false},
		{"another start", log, with(log, func(r *results.Run) { r.StartedAt = &later }), false},
		{"another request count", log, with(text, func(r *results.Run) { r.Requests = 101 }), false},
		{"another error count", log, with(text, func(r *results.Run) { r.Errors = 1 }), false},
		{"another tool", log, with(log, func(r *results.Run) { r.Tool = "hey" }), false},
		{"another endpoint", log, with(log, func(r *results.Run) { r.Endpoint = &ep }), false},
		{"another target", log, with(log, func(r *results.Run) { r.Target = "http://127.0.0.1:2/" }), false},
		{"another experiment", log, with(log, func(r *results.Run) { r.Experiment = "f" }), false},
		{"a max 0.2 % off", log, with(text, func(r *results.Run) { r.LatMaxMs = f(26.0) }), false},
		{"too little stated", with(log, func(r *results.Run) { r.LatMinMs, r.LatMaxMs = nil, nil }),
			with(text, func(r *results.Run) { r.LatMinMs, r.LatMaxMs = nil, nil }), false},
		{"no requests", with(log, func(r *results.Run) { r.Requests = 0 }), with(text, func(r *results.Run) { r.Requests = 0 }), false},
	} {
		if got := sameRun(c.a, c.b); got != c.want {
			t.Errorf("%s: sameRun = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDropCopiesKeepsTheLog(t *testing.T) {
	start := time.Date(2026, 12, 5, 7, 58, 40, 0, time.UTC)
	f := func(x float64) *float64 { return &x }
	run := func(src string, samples bool, mean float64) results.Run {
		return results.Run{Experiment: "e", Source: src, RunID: src, Tool: "vegeta", StartedAt: &start, DurationS: 2, Requests: 100,
			LatMeanMs: f(mean), LatMinMs: f(1), LatMaxMs: f(9), HasSamples: samples}
	}
	runs := []results.Run{run("a-report.json", false, 4), run("a.bin", true, 4), run("a.csv", true, 4), run("b.bin", true, 5)}
	n := &namer{named: map[string]bool{}}
	kept, copies := n.dropCopies(runs)
	if len(kept) != 2 || kept[0].Source != "a.bin" || kept[1].Source != "b.bin" {
		t.Fatalf("kept %v, want a.bin and b.bin", kept)
	}
	if len(copies) != 2 || copies[0].Source != "a-report.json" || !copies[0].Summary || copies[1].Source != "a.csv" || copies[1].Of.Source != "a.bin" {
		t.Errorf("copies %+v", copies)
	}
	// Two named systems sharing a file compare as asked.
	runs[2].Label, n.named["a.csv"], n.named["a.bin"] = "other", true, true
	runs[1].Label = "mine"
	if kept, _ := n.dropCopies(runs); len(kept) != 3 {
		t.Errorf("kept %d runs, want 3: a.csv is of another named system", len(kept))
	}
}
