package main

import (
	"path/filepath"
	"testing"
)

// TestHeyABSameClass is the acceptance test of "hey -o csv and ab -g data
// from the same kind of run give the same class": both logs of a cold
// JVM's warm-up (scripts/coldjvm/make-hey-ab-data.sh: a fresh ColdServer
// each, 20 s at 8 connections) are classified warmup within their run,
// the steady state starting within the first half of the run, where the
// per-second mean latencies level off.
func TestHeyABSameClass(t *testing.T) {
	for _, c := range []struct {
		file     string
		maxEndS  float64
		wantTool string
	}{
		{"../../ingest/hey/testdata/hey/hey-coldjvm.csv.gz", 10, "hey"},
		{"../../ingest/ab/testdata/ab/ab-coldjvm.tsv.gz", 10, "ab"},
	} {
		t.Run(c.wantTool, func(t *testing.T) {
			dir := t.TempDir()
			if _, errOut, err := runCLI(t, "", "report", "-o", dir, c.file); err != nil {
				t.Fatalf("report: %v\n%s", err, errOut)
			}
			s := readSummary(t, filepath.Join(dir, "summary.json"))
			if len(s.Systems) != 1 || len(s.Systems[0].WithinRunWarmup) != 1 {
				t.Fatalf("systems %+v", s.Systems)
			}
			w := s.Systems[0].WithinRunWarmup[0]
			if w.Class != "warmup" || w.WarmupEndS == nil || *w.WarmupEndS <= 0 || *w.WarmupEndS > c.maxEndS {
				t.Errorf("%s: within-run warm-up %+v (end %v), want class warmup ending in (0, %g] s", c.file, w, w.WarmupEndS, c.maxEndS)
			}
		})
	}
}
