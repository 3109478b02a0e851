package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopiesCountedOnce is issue 32's item 6 on real runs
// (scripts/truth/make-copies.sh): three vegeta attacks per system, each
// kept as the gob results, `vegeta encode` JSON and CSV and `vegeta
// report` text and JSON. Each attack is one run, whatever the encodings
// (the per-request log kept, its copies named); the tool's summaries are
// copies, never a system of their own ("report"); two real ab runs with
// alike summaries stay two runs.
func TestCopiesCountedOnce(t *testing.T) {
	const data = "../../testdata/truth/copies"
	t.Run("report", func(t *testing.T) {
		dir := t.TempDir()
		_, errOut, err := runCLI(t, "", "report", "-o", dir, data+"/fast", data+"/slow", data+"/ab")
		if err != nil {
			t.Fatalf("report: %v\n%s", err, errOut)
		}
		s := readSummary(t, filepath.Join(dir, "summary.json"))
		if len(s.Runs) != 8 {
			t.Errorf("%d runs, want 8 (6 attacks, 2 ab runs)", len(s.Runs))
		}
		abRuns := 0
		for _, r := range s.Runs {
			if strings.Contains(r.Source, "/ab/") {
				abRuns++
			} else if !strings.HasSuffix(r.Source, ".bin.gz") {
				t.Errorf("run kept from %s, want the gob log of its attack", r.Source)
			}
		}
		if abRuns != 2 {
			t.Errorf("%d ab runs kept, want 2: two runs with alike summaries are not copies", abRuns)
		}
		if len(s.Copies) != 24 {
			t.Errorf("%d copies, want 24 (4 per attack)", len(s.Copies))
		}
		for _, c := range s.Copies {
			stem := strings.TrimSuffix(c.Of.Source, ".bin.gz")
			if !strings.HasPrefix(c.Source, stem) || c.Requests != 100 || c.Summary != strings.Contains(c.Source, "report") {
				t.Errorf("copy %+v: want a copy of its own attack's log", c)
			}
		}
		for _, sys := range s.Systems {
			if sys.Label == "report" || strings.Contains(sys.Label, "report") {
				t.Errorf("a summary became system %q", sys.Label)
			}
		}
		for _, f := range s.Findings {
			if f.Code == "split-run" {
				t.Errorf("finding split-run %q: copies are not parts of a run", f.Message)
			}
		}
		if !strings.Contains(errOut, "attack-2.csv.gz is the same 100 requests") || !strings.Contains(errOut, "counted once") {
			t.Errorf("stderr does not name the copies:\n%s", errOut)
		}
		md, err := os.ReadFile(filepath.Join(dir, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(md), "copy: `"+data+"/slow/attack-3-report.txt`: the tool's own summary of the 100 requests of `"+data+"/slow/attack-3.bin.gz`, counted once") {
			t.Errorf("report.md does not list the copies:\n%s", md)
		}
	})
	t.Run("compare", func(t *testing.T) {
		out, errOut, err := runCLI(t, "", "compare", data+"/fast", data+"/slow")
		if err == nil {
			t.Fatalf("compare passed the gate: the slow server is 1 ms slower\n%s", out)
		}
		if !strings.Contains(out, "slow is slower than fast") || !strings.Contains(out, "3 vs 3 runs") {
			t.Errorf("compare: want slow slower on 3 vs 3 runs (one per attack):\n%s\n%s", out, errOut)
		}
	})
}
