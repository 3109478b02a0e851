package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/internal/testguard"
)

// writeManyRuns writes n wrk text runs (about 400 bytes each) at four
// connection levels with throughput and latency varying by a few percent,
// from a fixed seed: the shape of issue 11's 200,000-run file.
func writeManyRuns(w io.Writer, n int) error {
	r := rand.New(rand.NewPCG(1, 2))
	bw := bufio.NewWriter(w)
	for i := range n {
		rps := 20000 + 2000*r.Float64()
		fmt.Fprintf(bw, "Running 10s test @ http://127.0.0.1:8080/\n  2 threads and %d connections\n"+
			"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency    %.2fms  %.2fms  %.2fms   88.20%%\n"+
			"    Req/Sec     %.2fk     1.10k   12.47k    79.51%%\n  Latency Distribution\n     50%%    1.20ms\n"+
			"     75%%    1.43ms\n     90%%    2.95ms\n     99%%    9.67ms\n  %d requests in 10.00s, 30.50MB read\n"+
			"Requests/sec:  %.2f\nTransfer/sec:      3.05MB\n\n",
			[]int{50, 100, 200, 400}[i%4], 1+r.Float64(), 0.5+r.Float64(), 20+10*r.Float64(), rps/2000, int(rps*10), rps)
	}
	return bw.Flush()
}

// BenchmarkManyRuns is the cost of `report` on one text file of many wrk
// runs (issue 11 item 4), against the named baseline `parse` of the same
// file (reading and detecting alone): the ratio report/parse stays flat
// as the runs grow when the analysis, the figures and the report are
// linear in the runs. scripts/perf/manyruns.sh measures the same with
// the built CLI, with memory. Inputs with more than pipeline.MaxRuns
// runs are rejected.
func BenchmarkManyRuns(b *testing.B) {
	for _, n := range []int{2000, 20000, 50000} {
		f := filepath.Join(b.TempDir(), fmt.Sprintf("wrk-%d.txt", n))
		out, err := os.Create(f)
		if err != nil {
			b.Fatal(err)
		}
		if err := writeManyRuns(out, n); err != nil {
			b.Fatal(err)
		}
		out.Close()
		for _, cmd := range []string{"parse", "report"} {
			b.Run(fmt.Sprintf("runs=%d/%s", n, cmd), func(b *testing.B) {
				for b.Loop() {
					args := []string{cmd, f}
					if cmd == "report" {
						args = []string{cmd, "-o", b.TempDir(), f}
					}
					if err := run(context.Background(), args, nil, io.Discard, io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestManyRunsLimit: an input past pipeline.MaxRuns is rejected with a
// clear message, at once, not analysed.
func TestManyRunsLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 50,001 runs")
	}
	f := filepath.Join(t.TempDir(), "many.txt")
	out, err := os.Create(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeManyRuns(out, 50001); err != nil {
		t.Fatal(err)
	}
	out.Close()
	_, errOut, err := runCLI(t, "", "report", "-o", t.TempDir(), f)
	if err == nil || exitCode(err) != 1 {
		t.Fatalf("report of 50,001 runs: %v, want exit 1", err)
	}
	if want := "more than 50000 runs in one input: loadverdict analyses at most 50000 runs of one input"; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
}

// TestIdenticalRuns: runs with identical figures (a rate-limited test
// gives the same numbers run after run) make every figure's axis a
// zero-width range. Issue 21: ten such runs once made `report` step a
// float tick counter forever (8 GB in 60 s; these figures reproduced it).
// 10 and 1,000 identical runs
// are reported, each within a bound of time and memory (testguard.Run).
func TestIdenticalRuns(t *testing.T) {
	const wrkRun = "$ wrk -t2 -c16 -d10s --latency http://127.0.0.1:8080/\n" +
		"Running 10s test @ http://127.0.0.1:8080/\n  2 threads and 16 connections\n" +
		"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency     0.77ms    0.50ms  20.00ms   88.20%\n" +
		"    Req/Sec     5.00k     1.10k   12.47k    79.51%\n  Latency Distribution\n     50%    1.20ms\n" +
		"     75%    1.43ms\n     90%    2.95ms\n     99%    9.67ms\n  100000 requests in 10.00s, 30.50MB read\n" +
		"Requests/sec:  748868.53\nTransfer/sec:      3.05MB\n"
	for _, n := range []int{10, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			if n > 10 && testing.Short() {
				t.Skip("1,000 runs")
			}
			dir := t.TempDir()
			in := filepath.Join(dir, "in")
			if err := os.Mkdir(in, 0o755); err != nil {
				t.Fatal(err)
			}
			if n <= 10 {
				for i := range n {
					if err := os.WriteFile(filepath.Join(in, fmt.Sprintf("run%02d.txt", i)), []byte(wrkRun), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			} else if err := os.WriteFile(filepath.Join(in, "runs.txt"), []byte(strings.Repeat(wrkRun+"\n", n)), 0o644); err != nil {
				t.Fatal(err)
			}
			// Bounded by the heap (the runaway allocated 8 GB in a
			// minute) and, against a hang, by minutes: not by speed.
			testguard.Run(t, func() error {
				return run(context.Background(), []string{"report", "-o", filepath.Join(dir, "out"), in}, nil, io.Discard, io.Discard)
			})
			if _, err := os.Stat(filepath.Join(dir, "out", "report.md")); err != nil {
				t.Fatal(err)
			}
		})
	}
}
