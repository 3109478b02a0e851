package columnar

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/loadverdict/loadverdict/results"
)

// countingWriter counts the bytes written through it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

var _ io.Writer = (*countingWriter)(nil)

// benchSample returns the i-th of a run's samples, x being the state of a
// xorshift generator, so that latencies do not compress to nothing; 1% are
// errors.
func benchSample(runID string, errText *string, i int, x *uint64) results.Sample {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	s := results.Sample{RunID: runID, TS: float64(i) * 1e-4, LatencyMs: 1 + float64(*x%100_000)/1000, Status: 200, BytesIn: 1024}
	if i%100 == 99 {
		s.Status, s.BytesIn, s.Error = 0, 0, errText
	}
	return s
}

// BenchmarkWriteSamples streams 1e6 samples of one run (1% errors) into a
// zstd Parquet file through ParquetWriter.Append.
func BenchmarkWriteSamples(b *testing.B) {
	const n = 1_000_000
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(b, 0)
	runID := results.RunID("raw/bench/wrk2.log", 0)
	errText := results.Ptr("timeout")

	var out countingWriter
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	for b.Loop() {
		out.n = 0
		w, err := NewSamplesWriter(&out, mem)
		if err != nil {
			b.Fatal(err)
		}
		x := uint64(88172645463325252)
		for i := range n {
			if err := w.Append(benchSample(runID, errText, i, &x)); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	rows := float64(n) * float64(b.N)
	b.ReportMetric(rows/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/rows, "allocs/row")
	b.ReportMetric(float64(out.n)/n, "file-B/row")
}

// BenchmarkBuildSamples is the Arrow part of BenchmarkWriteSamples: 1e6
// samples appended to a Builder, batches released as they fill.
func BenchmarkBuildSamples(b *testing.B) {
	const n = 1_000_000
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(b, 0)
	runID := results.RunID("raw/bench/wrk2.log", 0)
	errText := results.Ptr("timeout")

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	for b.Loop() {
		bld := NewSamplesBuilder(mem, 0)
		x := uint64(88172645463325252)
		for i := range n {
			if err := bld.Append(benchSample(runID, errText, i, &x)); err != nil {
				b.Fatal(err)
			}
			if bld.Full() {
				bld.NewRecordBatch().Release()
			}
		}
		bld.NewRecordBatch().Release()
		bld.Release()
	}
	runtime.ReadMemStats(&after)
	rows := float64(n) * float64(b.N)
	b.ReportMetric(rows/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/rows, "allocs/row")
}

// BenchmarkScanSamples reads back the file of BenchmarkWriteSamples.
func BenchmarkScanSamples(b *testing.B) {
	const n = 1_000_000
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(b, 0)
	runID := results.RunID("raw/bench/wrk2.log", 0)
	samples := make([]results.Sample, n)
	x := uint64(88172645463325252)
	for i := range samples {
		samples[i] = benchSample(runID, results.Ptr("timeout"), i, &x)
	}
	var file bytes.Buffer
	if err := WriteSamples(&file, samples, mem); err != nil {
		b.Fatal(err)
	}
	samples = nil

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	for b.Loop() {
		rows := 0
		err := ScanSamples(bytes.NewReader(file.Bytes()), mem, func(results.Sample) error { rows++; return nil })
		if err != nil || rows != n {
			b.Fatalf("ScanSamples: %d rows, %v", rows, err)
		}
	}
	runtime.ReadMemStats(&after)
	rows := float64(n) * float64(b.N)
	b.ReportMetric(rows/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/rows, "allocs/row")
}
