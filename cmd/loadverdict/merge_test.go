package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
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

// TestMergeFlagRefusals: the command line agrees with the bucket. A part
// that cannot be parsed is rejected alone (exit 1, its reason on stderr)
// and the others are merged, the gate kept; an input named twice is said
// to be (exit 2); parts that did not run at once (attack b moved by 2 h,
// its timestamps edited) are refused (exit 2), never summed into one run
// of 7,220 s.
func TestMergeFlagRefusals(t *testing.T) {
	parts := "../../testdata/truth/merge-vegeta/parts-bin"
	dir := t.TempDir()
	bad := filepath.Join(t.TempDir(), "attack-c.bin")
	if err := os.WriteFile(bad, []byte("not a vegeta result\x00\x01"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, err := runCLI(t, "", "report", "-o", dir, "--threshold", "rps>=250", "--fail-on", "threshold",
		"--merge", parts+"/attack-a.bin,"+parts+"/attack-b.bin,"+bad)
	if code := exitCode(err); code != 1 || !strings.Contains(errOut, "attack-c.bin") || strings.Contains(errOut+err.Error(), "matched no input") {
		t.Errorf("a bad part: exit %d (%v): %s", code, err, errOut)
	}
	s := readSummary(t, filepath.Join(dir, "summary.json"))
	if len(s.Runs) != 1 || len(s.Runs[0].Parts) != 2 || !s.Gate.Failed || !slices.Contains(s.Gate.FailOn, "threshold") {
		t.Errorf("a bad part: runs %+v, gate %+v", s.Runs, s.Gate)
	}
	a := parts + "/attack-a.bin"
	_, _, err = runCLI(t, "", "report", "-o", t.TempDir(), "--merge", a+","+a)
	if code := exitCode(err); code != 2 || !strings.Contains(err.Error(), a+" is named twice") {
		t.Errorf("--merge a,a: exit %d (%v)", code, err)
	}
	// Attack b two hours later.
	in := t.TempDir()
	for _, x := range []string{"a", "b"} {
		f, err := os.Open("../../testdata/truth/merge-vegeta/parts-json/attack-" + x + ".json.gz")
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		dec := json.NewDecoder(zr)
		for dec.More() {
			res := map[string]any{}
			if err := dec.Decode(&res); err != nil {
				t.Fatal(err)
			}
			if x == "b" {
				ts, _ := time.Parse(time.RFC3339Nano, res["timestamp"].(string))
				res["timestamp"] = ts.Add(2 * time.Hour).Format(time.RFC3339Nano)
			}
			line, _ := json.Marshal(res)
			out.Write(append(line, '\n'))
		}
		f.Close()
		if err := os.WriteFile(filepath.Join(in, "attack-"+x+".json"), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err = runCLI(t, "", "report", "-o", t.TempDir(), "--merge", in)
	if code := exitCode(err); code != 2 || !strings.Contains(err.Error(), "the parts did not run at once") {
		t.Errorf("parts 2 h apart: exit %d (%v)", code, err)
	}
}
