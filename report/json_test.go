package report_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

var update = flag.Bool("update", false, "rewrite golden files")

// abVerdict analyses five interleaved runs of two systems.
func abVerdict(t testing.TB) *analyze.Verdict {
	var runs []results.Run
	for i := range 10 {
		label, rps := "a:8080", 1000.0+float64(i%5)
		if i%2 == 1 {
			label, rps = "b:8080", 3000.0+float64(i%3)
		}
		c := int32(50)
		runs = append(runs, results.Run{RunID: results.RunID("ab.txt", i), Experiment: "ab", Source: "ab.txt", Index: int32(i),
			Seq: int32(i), Tool: "wrk", LoadModel: results.LoadClosed, Label: label, Target: "http://" + label + "/",
			DurationS: 30, Connections: &c, Requests: int64(30 * rps), RPS: rps, LatMeanMs: results.Ptr(50000 / rps)})
	}
	v, err := analyze.Analyze(analyze.Set{Experiment: "ab", Runs: runs}, analyze.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestJSONGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := report.JSONMeta(&buf, abVerdict(t), report.Meta{GeneratedBy: "loadverdict test"}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/summary-ab.golden.json", buf.Bytes())
}

// checkGolden compares a summary.json with its golden file, which
// -update rewrites.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("summary.json differs from %s (run with -update if intended):\n%s", path, got)
	}
}

// TestJSONContract checks the keys and types SCHEMA.md promises.
func TestJSONContract(t *testing.T) {
	var buf bytes.Buffer
	if err := report.JSONMeta(&buf, abVerdict(t), report.Meta{GeneratedBy: "loadverdict test"}); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	need := func(m map[string]any, keys ...string) {
		t.Helper()
		for _, k := range keys {
			if _, ok := m[k]; !ok {
				t.Errorf("key %q missing", k)
			}
		}
	}
	need(doc, "experiment", "generated_by", "analysis_version", "headline", "systems", "comparisons", "findings")
	sys := doc["systems"].([]any)[0].(map[string]any)
	need(sys, "label", "groups", "within_run_warmup", "capacity")
	g := sys["groups"].([]any)[0].(map[string]any)
	need(g, "connections", "threads", "runs", "run_ids", "warmup", "steady")
	need(g["warmup"].(map[string]any), "class", "steady_from_seq", "change_pct", "method")
	need(g["steady"].(map[string]any), "rps_mean", "rps_ci", "lat_mean_ms", "lat_p99_ms")
	if ci := g["steady"].(map[string]any)["rps_ci"].([]any); len(ci) != 2 {
		t.Errorf("rps_ci %v is not a pair", ci)
	}
	need(sys["capacity"].(map[string]any), "saturated", "saturated_at", "littles_law_ratio", "usl")
	c := doc["comparisons"].([]any)[0].(map[string]any)
	need(c, "a", "b", "connections", "metric", "ratio", "ci", "p_value", "verdict", "reasons")
	if c["verdict"] != "b-faster" {
		t.Errorf("verdict %v", c["verdict"])
	}
	f := doc["findings"].([]any)[0].(map[string]any)
	need(f, "severity", "code", "subject", "message", "fix")
}
