package wrk

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/results"
)

// batchesOf parses data with batches of batchBytes and returns the runs
// and the error.
func batchesOf(data []byte, batchBytes int) ([]results.RunWithPercentiles, error) {
	var runs []results.RunWithPercentiles
	err := parseWrkBatches(context.Background(), bytes.NewReader(data), core.Options{Source: "in.txt", Experiment: "e"},
		core.RunFunc(func(r results.RunWithPercentiles) error {
			runs = append(runs, r)
			return nil
		}), batchBytes)
	return runs, err
}

// batchesAgree checks that data parsed in batches of every size in
// sizes gives the runs and the error of one batch (the sequential parse).
func batchesAgree(t testing.TB, name string, data []byte, sizes ...int) {
	t.Helper()
	want, werr := batchesOf(data, 1<<40)
	for _, n := range sizes {
		got, gerr := batchesOf(data, n)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Fatalf("%s, batches of %d bytes: error %v, in one batch %v", name, n, gerr, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s, batches of %d bytes: %d runs differ from the %d of one batch", name, n, len(got), len(want))
		}
	}
}

// TestWrkBatchesAgree parses every test input (each file, and all of them
// one after the other) in batches cut every few bytes: the runs, their
// order and the error are those of one batch.
func TestWrkBatchesAgree(t *testing.T) {
	var all bytes.Buffer
	dirs, _ := filepath.Glob("testdata/*")
	files := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		for _, in := range ingesttest.GoldenInputs(t, dir) {
			data := ingesttest.ReadPlain(t, in)
			if dir == "testdata/wrk" || dir == "testdata/wrk2" {
				all.Write(data)
				all.WriteByte('\n')
				files++
			}
			batchesAgree(t, in, data, 1, 64, 4096)
		}
	}
	if files < 20 {
		t.Fatalf("%d wrk inputs", files)
	}
	batchesAgree(t, "all wrk inputs", all.Bytes(), 1, 100, 1000, 10_000, 100_000)
	runs, err := batchesOf(all.Bytes(), 1000)
	if err != nil || len(runs) < 50 {
		t.Fatalf("all wrk inputs: %d runs, %v", len(runs), err)
	}
	for i, r := range runs {
		if r.Index != int32(i) || r.RunID != results.RunID("in.txt", i) {
			t.Fatalf("run %d: index %d, run_id %s", i, r.Index, r.RunID)
		}
	}
}

// FuzzWrkBatches checks that any input parsed in small batches gives what
// one batch gives.
func FuzzWrkBatches(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/wrk/*", "testdata/wrk2/*")
	f.Fuzz(func(t *testing.T, data []byte) { batchesAgree(t, "input", data, 1, 50) })
}

// TestWrkRepeatedRows: a distribution repeating a row (here "50%" thirty
// times) is read, the last row winning, without running out of the
// run's value slots (it once panicked).
func TestWrkRepeatedRows(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("Running 10s test @ http://x:80/\n  2 threads and 10 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n" +
		"    Latency     1.00ms    1.00ms   1.00ms   50.00%\n    Req/Sec     1.00k     1.00k    1.00k    50.00%\n  Latency Distribution\n")
	for i := range 30 {
		fmt.Fprintf(&b, "     50%%    %d.00ms\n", i+1)
	}
	b.WriteString("  1000 requests in 10.00s, 1.00MB read\nRequests/sec:    100.00\nTransfer/sec:      1.00KB\n")
	runs, err := parseAll(context.Background(), &b, core.Options{Source: "dup.txt"})
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	if p := runs[0].LatP50Ms; p == nil || *p != 30 {
		t.Errorf("p50 %v, want the last row's 30 ms", p)
	}
}

// TestWrkBatchBounded: a batch is bounded by its lines as well as its
// bytes, so blank lines (no bytes each) do not grow one batch without
// end (5 MB of newlines after a report took 540 MB in one batch): in
// every mix of blank, short and long lines, at the end of the input or
// between runs, no batch passes wrkBatchLines lines or four times
// wrkBatchBytes, and the runs are those of the report.
func TestWrkBatchBounded(t *testing.T) {
	report, err := os.ReadFile("testdata/wrk/real-latency-ok.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, filler := range []string{"\n", "\r\n", " \n", "x\n", "\n\n\nsome words between runs\n"} {
		for _, n := range []int{wrkBatchLines - 1, wrkBatchLines, 3*wrkBatchLines + 7} {
			var in bytes.Buffer
			for range 2 {
				in.Write(report)
				in.WriteString(strings.Repeat(filler, n))
			}
			maxLines, maxBytes := 0, 0
			var cur *batch
			readWrkLines(context.Background(), bytes.NewReader(in.Bytes()), "in.txt", wrkBatchBytes, func() (*batch, bool) {
				cur = &batch{}
				return cur, true
			}, func() bool {
				maxLines, maxBytes = max(maxLines, len(cur.lines)), max(maxBytes, len(cur.raw))
				return true
			})
			if maxLines > wrkBatchLines || maxBytes > 4*wrkBatchBytes+core.MaxLine {
				t.Errorf("%q x %d: a batch of %d lines, %d bytes", filler, n, maxLines, maxBytes)
			}
			runs, err := parseAll(context.Background(), bytes.NewReader(in.Bytes()), core.Options{Source: "in.txt"})
			if err != nil || len(runs) != 2 {
				t.Errorf("%q x %d: %d runs, %v", filler, n, len(runs), err)
			}
		}
	}
}
