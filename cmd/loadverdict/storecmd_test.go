package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The bucket pipeline on a local folder: ingest --store, analyze,
// reanalyze; and its report is byte-identical to `report` on the same
// inputs.
func TestStorePipelineMatchesLocalReport(t *testing.T) {
	root := t.TempDir()
	seed, err := os.ReadFile(seedFile)
	if err != nil {
		t.Fatal(err)
	}
	const key = "raw/zuul-vs-openresty/seed.txt"
	if err := os.MkdirAll(filepath.Join(root, "raw", "zuul-vs-openresty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(key)), seed, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCLI(t, "", "ingest", "--store", root, key)
	if err != nil || !strings.Contains(out, "zuul-vs-openresty: Not established") {
		t.Fatalf("ingest --store: %v %q %q", err, out, errOut)
	}
	if out, _, err := runCLI(t, "", "reanalyze", "--store", root); err != nil || out != "" {
		t.Errorf("reanalyze of a fresh store: %v %q", err, out)
	}
	if out, _, err := runCLI(t, "", "reanalyze", "--store", root, "--all"); err != nil || out != "analysed zuul-vs-openresty\n" {
		t.Errorf("reanalyze --all: %v %q", err, out)
	}
	if out, _, err := runCLI(t, "", "analyze", "--store", root, "zuul-vs-openresty"); err != nil || !strings.HasPrefix(out, "zuul-vs-openresty: ") {
		t.Errorf("analyze: %v %q", err, out)
	}
	// The same input through `report`, named as in the bucket.
	t.Chdir(root)
	local := t.TempDir()
	if _, errOut, err := runCLI(t, "", "report", "-o", local, "--experiment", "zuul-vs-openresty", key); err != nil {
		t.Fatalf("report: %v %s", err, errOut)
	}
	for _, name := range []string{"report.md", "summary.json", "throughput.png", "latency.png", "scaling.png"} {
		a, err1 := os.ReadFile(filepath.Join(root, "reports", "zuul-vs-openresty", name))
		b, err2 := os.ReadFile(filepath.Join(local, name))
		if err1 != nil || err2 != nil || string(a) != string(b) {
			t.Errorf("%s differs between the bucket pipeline and report (%v, %v)", name, err1, err2)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(key))); string(got) != string(seed) {
		t.Error("raw upload modified")
	}
}
