package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/internal/local"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/results/columnar"
)

var update = flag.Bool("update", false, "rewrite golden files")

const seedFile = "../../examples/zuul-vs-openresty.txt"

// wholeTests tells whether the long tests run whole, as CI asks
// (LOADVERDICT_LONG=all, which .ci/run sets, or 1); else they check a
// sample that still holds every kind of case.
func wholeTests() bool {
	v := os.Getenv("LOADVERDICT_LONG")
	return v == "all" || v == "1"
}

// runCLI runs the CLI in-process and returns its outputs.
func runCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = run(context.Background(), args, strings.NewReader(stdin), &o, &e)
	return o.String(), e.String(), err
}

func decodeRuns(t *testing.T, out string) []results.RunWithPercentiles {
	t.Helper()
	var runs []results.RunWithPercentiles
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var r results.RunWithPercentiles
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("decoding JSON Lines: %v\n%s", err, out)
		}
		runs = append(runs, r)
	}
	return runs
}

func TestParseSeedJSON(t *testing.T) {
	out, errOut, err := runCLI(t, "", "parse", "--json", seedFile)
	if err != nil {
		t.Fatalf("parse: %v\nstderr: %s", err, errOut)
	}
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d is not a JSON object: %v", i+1, err)
		}
		for _, k := range []string{"run_id", "experiment", "source", "index", "seq", "tool", "load_model", "label", "target",
			"duration_s", "requests", "errors", "rps", "has_samples", "percentiles"} {
			if _, ok := m[k]; !ok {
				t.Errorf("line %d: key %q missing", i+1, k)
			}
		}
	}
	runs := decodeRuns(t, out)
	if len(runs) != 6 {
		t.Fatalf("got %d runs, want 6", len(runs))
	}
	conns := []int32{50, 50, 100, 100, 100, 100}
	labels := []string{"Zuul", "OpenResty", "Zuul", "OpenResty", "OpenResty", "Zuul"}
	dur := []float64{10.04, 10.11, 10.04, 10.09, 10.10, 10.03}
	reqs := []int64{21045, 16222, 31196, 16332, 16328, 37504}
	rps := []float64{2095.30, 1604.71, 3107.57, 1619.00, 1617.40, 3737.35}
	for i, r := range runs {
		if r.Tool != "wrk" || r.LoadModel != "closed" {
			t.Errorf("run %d: tool/model = %s/%s", i, r.Tool, r.LoadModel)
		}
		if r.Threads == nil || *r.Threads != 10 || r.Connections == nil || *r.Connections != conns[i] {
			t.Errorf("run %d: threads/connections = %v/%v", i, r.Threads, r.Connections)
		}
		if r.Label != labels[i] || r.Seq != int32(i) || r.Index != int32(i) {
			t.Errorf("run %d: label %q seq %d index %d", i, r.Label, r.Seq, r.Index)
		}
		if r.DurationS != dur[i] || r.PlannedDurationS == nil || *r.PlannedDurationS != 10 {
			t.Errorf("run %d: duration %v planned %v", i, r.DurationS, r.PlannedDurationS)
		}
		if r.Requests != reqs[i] || r.RPS != rps[i] || r.Errors != 0 {
			t.Errorf("run %d: requests %d rps %v errors %d", i, r.Requests, r.RPS, r.Errors)
		}
		if r.Experiment != "zuul-vs-openresty" {
			t.Errorf("run %d: experiment %q", i, r.Experiment)
		}
	}
	r := runs[0]
	eq := func(name string, got *float64, want float64) {
		if got == nil || math.Abs(*got-want) > 1e-9*math.Max(1, want) {
			t.Errorf("first run %s = %v, want %v", name, got, want)
		}
	}
	eq("lat_mean_ms", r.LatMeanMs, 33.95)
	eq("lat_stdev_ms", r.LatStdevMs, 43.06)
	eq("lat_max_ms", r.LatMaxMs, 599.09)
	eq("thread_rps_mean", r.ThreadRPSMean, 210.68)
	eq("thread_rps_stdev", r.ThreadRPSStdev, 73.11)
	eq("thread_rps_max", r.ThreadRPSMax, 460.00)
	eq("transfer_bps", r.TransferBPS, 419.61*1024)
	if r.BytesIn == nil || *r.BytesIn != int64(math.Round(4.12*1024*1024)) {
		t.Errorf("bytes_in = %v", r.BytesIn)
	}
}

func TestParseTableGolden(t *testing.T) {
	out, _, err := runCLI(t, "", "parse", seedFile)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/parse-seed.golden.txt", out)
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update if intended):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestParseLabelsAndStdin(t *testing.T) {
	seed, err := os.ReadFile(seedFile)
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCLI(t, string(seed), "parse", "-", "--json", "--label", "localhost:5555=zuul", "--label=localhost:80=openresty")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	runs := decodeRuns(t, out)
	if len(runs) != 6 || runs[0].Label != "zuul" || runs[1].Label != "openresty" {
		t.Fatalf("labels not applied: %d runs, %q %q", len(runs), runs[0].Label, runs[1].Label)
	}
	if runs[0].Source != local.StdinName || runs[0].Experiment != "stdin" {
		t.Errorf("source %q experiment %q", runs[0].Source, runs[0].Experiment)
	}
}

func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(i*7919 + i*i*31)
	}
	cut := "Running 10s test @ http://localhost:8080/\n  2 threads and 10 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
	cases := []struct {
		name, content string
		wantInErr     string
	}{
		{"random.bin", string(random), "random.bin"},
		{"empty.txt", "", "empty.txt"},
		{"prose.txt", "We ran some threads and connections against the server and it was fast.\n", "prose.txt"},
		{"cut.txt", cut, "cut.txt:3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, []byte(tc.content), 0o444); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"parse", p}, {"parse", "--json", p}, {"ingest", "--out", filepath.Join(dir, "out"), p}} {
				_, errOut, err := runCLI(t, "", args...)
				if err == nil {
					t.Fatalf("%v: no error", args)
				}
				if !strings.Contains(errOut, tc.wantInErr) {
					t.Errorf("%v: stderr %q does not name %q", args, errOut, tc.wantInErr)
				}
			}
			after, _ := os.ReadFile(p)
			if string(after) != tc.content {
				t.Error("input was modified")
			}
		})
	}
}

func TestMissingFileKeepsGoing(t *testing.T) {
	out, errOut, err := runCLI(t, "", "parse", "--json", "does-not-exist.txt", seedFile)
	if !errors.Is(err, errReported) {
		t.Fatalf("err = %v, want errReported", err)
	}
	if !strings.Contains(errOut, "does-not-exist.txt") {
		t.Errorf("stderr %q", errOut)
	}
	if n := len(decodeRuns(t, out)); n != 6 {
		t.Errorf("the readable file gave %d runs, want 6", n)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"nope"}, {"parse"}, {"ingest", seedFile}, {"parse", "--bogus", seedFile}, {"ingest", "--out", t.TempDir(), "--experiment", "../x", seedFile}} {
		_, _, err := runCLI(t, "", args...)
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: err = %v, want a usage error", args, err)
		}
	}
	for _, cmd := range []string{"parse", "ingest", "version"} {
		out, _, err := runCLI(t, "", cmd, "--help")
		if err != nil || !strings.Contains(out, "Usage: loadverdict "+cmd) {
			t.Errorf("%s --help: err %v, output %q", cmd, err, out)
		}
	}
	out, _, err := runCLI(t, "", "help")
	if err != nil || !strings.Contains(out, "Commands:") {
		t.Errorf("help: %v %q", err, out)
	}
	out, _, err = runCLI(t, "", "version")
	if err != nil || !strings.HasPrefix(out, "loadverdict v") {
		t.Errorf("version: %v %q", err, out)
	}
}

func TestIngestWritesTables(t *testing.T) {
	dir := t.TempDir()
	before := sha256File(t, seedFile)
	out, errOut, err := runCLI(t, "", "ingest", "--out", dir, seedFile)
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	if sha256File(t, seedFile) != before {
		t.Fatal("input modified")
	}
	want := []string{
		tableFile(dir, columnar.TableRuns, "zuul-vs-openresty", seedFile),
		tableFile(dir, columnar.TablePercentiles, "zuul-vs-openresty", seedFile),
	}
	if got := strings.Fields(out); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("printed %q, want %q", got, want)
	}
	f, err := os.Open(want[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs, err := columnar.ReadRuns(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 6 || runs[5].RPS != 3737.35 || runs[5].Seq != 5 {
		t.Fatalf("read back %d runs: %+v", len(runs), runs)
	}
	// Ingesting again gives the same bytes (idempotent).
	first, _ := os.ReadFile(want[0])
	if _, _, err := runCLI(t, "", "ingest", "--out", dir, seedFile); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(want[0])
	if !bytes.Equal(first, second) {
		t.Error("a second ingest of the same input wrote different bytes")
	}
}

// An input's name is never taken for a flag: a file named store (or
// -store after --) is ingested as a file, not read as --store.
func TestIngestFileNamedLikeAFlag(t *testing.T) {
	src, err := os.ReadFile(seedFile)
	if err != nil {
		t.Fatal(err)
	}
	in := t.TempDir()
	for _, name := range []string{"store", "-store"} {
		if err := os.WriteFile(filepath.Join(in, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	t.Chdir(in)
	for _, args := range [][]string{{"--out", out, "store"}, {"--out", out, "--", "-store"}} {
		got, errOut, err := runCLI(t, "", append([]string{"ingest"}, args...)...)
		if err != nil || !strings.Contains(got, "runs") {
			t.Errorf("ingest %q: %v, stdout %q, stderr %q", args, err, got, errOut)
		}
	}
}

func sha256File(t *testing.T, p string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// tableFile is where report -o dir and ingest --out dir keep a source's
// table: the bucket's key under dir.
// It is the file named by the source's commit record; a path that does
// not exist when the source has none.
func tableFile(dir string, table columnar.Table, experiment, source string) string {
	none := filepath.Join(dir, filepath.FromSlash(store.TablePrefix(string(table), experiment)), store.SourceID(source)+"-none.parquet")
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(store.CommitKey(experiment, source))))
	if err != nil {
		return none
	}
	var c pipeline.Commit
	if json.Unmarshal(b, &c) != nil || c.Table(table) == "" {
		return none
	}
	return filepath.Join(dir, filepath.FromSlash(c.Table(table)))
}
