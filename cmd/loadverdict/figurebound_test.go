package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFiguresBounded: a report of many systems and settings with
// per-request data draws at most 8 latency-over-time figures (plots.
// MaxOverTimeFigures), each system's in turn, and says how many it left
// out; 24 JMeter samplers (12 labels on two sides) drew 24 before.
func TestFiguresBounded(t *testing.T) {
	dir := t.TempDir()
	for _, side := range []string{"old", "new"} {
		if err := os.MkdirAll(filepath.Join(dir, side), 0o755); err != nil {
			t.Fatal(err)
		}
		for run := range 2 {
			var b strings.Builder
			b.WriteString("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n")
			ts := int64(1700000000000 + run*1000000)
			for i := range 40 {
				for l := range 12 {
					e := 100 + l + i%7
					fmt.Fprintf(&b, "%d,%d,T%02d,200,OK,TG 1-1,text,true,,1000,100,5,5,http://127.0.0.1:8080/api/item%d,%d,0,1\n", ts, e, l, l, e)
					ts += 25
				}
			}
			if err := os.WriteFile(filepath.Join(dir, side, fmt.Sprintf("run%d.jtl", run)), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := t.TempDir()
	_, errOut, err := runCLI(t, "", "compare", "-o", out, "--allow", "inconclusive,no-comparison", filepath.Join(dir, "old"), filepath.Join(dir, "new"))
	if err != nil && exitCode(err) != exitGate {
		t.Fatalf("compare: %v\n%s", err, errOut)
	}
	figs, _ := filepath.Glob(filepath.Join(out, "latency-time-*.png"))
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 8 || !strings.Contains(string(md), "Latency over time is drawn for 8 of 24 system and settings with per-request data") {
		t.Errorf("%d latency-over-time figures, want 8 with the 16 left out said in report.md", len(figs))
	}
}
