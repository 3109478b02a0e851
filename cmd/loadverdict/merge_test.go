package main

import (
	"path/filepath"
	"testing"
)

// TestMergeFlag: --merge FOLDER makes the three vegeta attacks of
// merge-vegeta one run whose parts summary.json lists; one file alone is
// a usage error (exit 2).
func TestMergeFlag(t *testing.T) {
	parts := "../../testdata/truth/merge-vegeta/parts-bin"
	dir := t.TempDir()
	if _, errOut, err := runCLI(t, "", "report", "-o", dir, "--merge", parts); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	s := readSummary(t, filepath.Join(dir, "summary.json"))
	if len(s.Runs) != 1 || len(s.Runs[0].Parts) != 3 || s.Runs[0].Parts[2].Source != parts+"/attack-c.bin" {
		t.Errorf("runs %+v", s.Runs)
	}
	for _, f := range s.Findings {
		if f.Code == "split-run" {
			t.Errorf("merged, still a split-run finding: %+v", f)
		}
	}
	_, _, err := runCLI(t, "", "report", "-o", t.TempDir(), "--merge", parts+"/attack-a.bin", parts+"/attack-b.bin")
	if code := exitCode(err); code != 2 {
		t.Errorf("--merge of one file: exit %d (%v)", code, err)
	}
}
