package ingest

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

var (
	benchOnce sync.Once
	benchData []byte
	benchRuns int
)

// benchInput concatenates the wrk and wrk2 test inputs up to ~100 MB.
func benchInput(b *testing.B) ([]byte, int) {
	benchOnce.Do(func() {
		var files []string
		for _, dir := range []string{"wrk/testdata/wrk", "wrk/testdata/wrk2"} {
			m, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
			files = append(files, m...)
		}
		var one bytes.Buffer
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				b.Fatal(err)
			}
			one.Write(data)
			one.WriteByte('\n')
		}
		n := 0
		if err := Parse(context.Background(), bytes.NewReader(one.Bytes()), core.Options{Source: "bench"}, core.RunFunc(func(results.RunWithPercentiles) error {
			n++
			return nil
		})); err != nil {
			b.Fatal(err)
		}
		reps := 100<<20/one.Len() + 1
		benchData = bytes.Repeat(one.Bytes(), reps)
		benchRuns = n * reps
	})
	return benchData, benchRuns
}

func BenchmarkParseWrk(b *testing.B) {
	data, want := benchInput(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		n := 0
		err := Parse(context.Background(), bytes.NewReader(data), core.Options{Source: "bench", Experiment: "bench"}, core.RunFunc(func(results.RunWithPercentiles) error {
			n++
			return nil
		}))
		if err != nil || n != want {
			b.Fatalf("%d runs (want %d), err %v", n, want, err)
		}
	}
	b.ReportMetric(float64(want), "runs/op")
}

// BenchmarkScanLinesBaseline splits the same input into lines with
// bufio.Scanner and does nothing else: the floor any line-based parser
// stands on, and the baseline BenchmarkParseWrk is quoted against.
func BenchmarkScanLinesBaseline(b *testing.B) {
	data, _ := benchInput(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		n := 0
		for sc.Scan() {
			n++
		}
		if sc.Err() != nil || n == 0 {
			b.Fatal(sc.Err())
		}
	}
}
