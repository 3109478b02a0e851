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

// TestStoreMalformed: a malformed --store or --endpoint is a usage error
// (exit 2) with a clear message, for every command taking --store.
func TestStoreMalformed(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "f")
	must(t, os.WriteFile(file, nil, 0o644))
	for _, st := range []struct{ store, endpoint, msg string }{
		{"s3://", "", "invalid S3 URL"},
		{"s3:///prefix", "", "invalid S3 URL"},
		{"s3://b/../x", "", "invalid S3 URL"},
		{"gs://bucket", "", "want a folder or s3://BUCKET"},
		{"S3://bucket", "", "want a folder or s3://BUCKET"},
		{filepath.Join(root, "none"), "", "no such file"},
		{file, "", "not a folder"},
		{root, "http://127.0.0.1:1", "--endpoint is for --store s3://"},
		{"s3://bucket", "127.0.0.1:1", "want http(s)://HOST"},
	} {
		for _, cmd := range [][]string{
			{"analyze", "e"}, {"reanalyze"}, {"ingest", "raw/e/k"}, {"history", "--series", "s"}, {"compare", "e1", "e2"},
		} {
			t.Run(cmd[0]+" "+st.store+" "+st.endpoint, func(t *testing.T) {
				args := append([]string{cmd[0], "--store", st.store}, cmd[1:]...)
				if st.endpoint != "" {
					args = append(args, "--endpoint", st.endpoint)
				}
				_, stderr, err := runCLI(t, "", args...)
				if exitCode(err) != exitUsage || !strings.Contains(err.Error(), st.msg) {
					t.Fatalf("exit %d, want 2 saying %q: %v\n%s", exitCode(err), st.msg, err, stderr)
				}
			})
		}
	}
}
