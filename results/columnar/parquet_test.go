package columnar

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/loadverdict/loadverdict/results"
)

// writeForeign writes a one-batch Parquet file of any schema, as another
// tool (or an older loadverdict) could have.
func writeForeign(t *testing.T, mem memory.Allocator, schema *arrow.Schema, build func(*array.RecordBuilder)) []byte {
	t.Helper()
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	build(rb)
	rec := rb.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	fw, err := pqarrow.NewFileWriter(schema, &buf, parquet.NewWriterProperties(parquet.WithAllocator(mem)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// samplesLike returns SamplesSchema's fields with the named one replaced.
func samplesLike(name string, f arrow.Field) *arrow.Schema {
	fields := append([]arrow.Field(nil), SamplesSchema.Fields()...)
	for i := range fields {
		if fields[i].Name == name {
			fields[i] = f
		}
	}
	return arrow.NewSchema(fields, nil)
}

func appendSampleRow(rb *array.RecordBuilder, skip string) {
	for i, f := range rb.Schema().Fields() {
		if f.Name == skip {
			continue
		}
		switch b := rb.Field(i).(type) {
		case *array.StringBuilder:
			b.Append("x")
		case *array.Float64Builder:
			b.Append(1.5)
		case *array.Int32Builder:
			b.Append(200)
		case *array.Int64Builder:
			b.Append(64)
		}
	}
}

func TestReadSchemaMismatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	var series bytes.Buffer
	if err := WriteSeries(&series, []results.Series{{RunID: "r", TS: 1, WindowS: 1}}, mem); err != nil {
		t.Fatal(err)
	}
	wrongType := writeForeign(t, mem, samplesLike("status", arrow.Field{Name: "status", Type: arrow.PrimitiveTypes.Int64}),
		func(rb *array.RecordBuilder) { appendSampleRow(rb, "") })
	utcMicros := &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	runsMicros := writeForeign(t, mem, arrow.NewSchema([]arrow.Field{{Name: "started_at", Type: utcMicros, Nullable: true}}, nil),
		func(rb *array.RecordBuilder) { rb.Field(0).AppendNull() })
	nullStatus := writeForeign(t, mem, samplesLike("status", arrow.Field{Name: "status", Type: arrow.PrimitiveTypes.Int32, Nullable: true}),
		func(rb *array.RecordBuilder) {
			appendSampleRow(rb, "")
			appendSampleRow(rb, "status")
			rb.Field(3).AppendNull()
		})

	tests := []struct {
		name string
		read func() error
		want string
	}{
		{"series file read as samples", func() error {
			_, err := ReadSamples(bytes.NewReader(series.Bytes()), mem)
			return err
		}, `results: read samples: file has no column "latency_ms" (float64)`},
		{"wrong column type", func() error {
			_, err := ReadSamples(bytes.NewReader(wrongType), mem)
			return err
		}, `results: read samples: column "status" has type int64, want int32`},
		{"file of another schema", func() error {
			_, err := ReadRuns(bytes.NewReader(runsMicros), mem)
			return err
		}, `results: read runs: file has no column "run_id"`},
		{"nulls in a non-nullable column", func() error {
			return ScanSamples(bytes.NewReader(nullStatus), mem, func(results.Sample) error { return nil })
		}, `results: read samples: column "status" holds nulls but is not nullable`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read()
			if !errors.Is(err, ErrSchemaMismatch) {
				t.Fatalf("error %v, want one wrapping ErrSchemaMismatch", err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %q, want prefix %q", err, tc.want)
			}
		})
	}

	t.Run("timestamp as text", func(t *testing.T) {
		fields := append([]arrow.Field(nil), RunsSchema.Fields()...)
		for i := range fields {
			if fields[i].Name == "started_at" {
				fields[i].Type = arrow.BinaryTypes.String
			}
		}
		data := writeForeign(t, mem, arrow.NewSchema(fields, nil), func(*array.RecordBuilder) {})
		_, err := ReadRuns(bytes.NewReader(data), mem)
		want := `results: read runs: column "started_at" has type utf8, want timestamp[us, tz=UTC]`
		if !errors.Is(err, ErrSchemaMismatch) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	})

	t.Run("not parquet", func(t *testing.T) {
		_, err := ReadPercentiles(strings.NewReader("run_id,quantile\nr,0.5\n"), mem)
		if err == nil || !strings.HasPrefix(err.Error(), "results: read percentiles: ") {
			t.Errorf("error %v, want a read percentiles error", err)
		}
	})
}

// A file with the table's columns in another order plus extra columns (a
// newer writer) is read: columns are matched by name.
func TestReadReorderedAndExtraColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	fields := SamplesSchema.Fields()
	reversed := []arrow.Field{{Name: "extra", Type: arrow.PrimitiveTypes.Float64}}
	for i := len(fields) - 1; i >= 0; i-- {
		reversed = append(reversed, fields[i])
	}
	data := writeForeign(t, mem, arrow.NewSchema(reversed, nil), func(rb *array.RecordBuilder) {
		rb.Field(0).(*array.Float64Builder).Append(99)
		rb.Field(1).(*array.StringBuilder).Append("boom") // error
		rb.Field(2).(*array.Int64Builder).Append(10)      // bytes_in
		rb.Field(3).(*array.Int32Builder).Append(503)     // status
		rb.Field(4).(*array.Float64Builder).Append(12.5)  // latency_ms
		rb.Field(5).(*array.Float64Builder).Append(0.25)  // t_s
		rb.Field(6).(*array.StringBuilder).Append("r1")   // run_id
	})
	got, err := ReadSamples(bytes.NewReader(data), mem)
	if err != nil {
		t.Fatal(err)
	}
	want := []results.Sample{{RunID: "r1", TS: 0.25, LatencyMs: 12.5, Status: 503, BytesIn: 10, Error: results.Ptr("boom")}}
	if len(got) != 1 || got[0].Error == nil || *got[0].Error != *want[0].Error {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	got[0].Error, want[0].Error = nil, nil
	if got[0] != want[0] {
		t.Errorf("got %+v, want %+v", got[0], want[0])
	}
}

func TestScanSamplesStopsOnError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	defer func(old int64) { readBatchRows = old }(readBatchRows)
	readBatchRows = 4

	samples := make([]results.Sample, 10)
	for i := range samples {
		samples[i] = results.Sample{RunID: "r", TS: float64(i), LatencyMs: 1, Status: 200}
	}
	var buf bytes.Buffer
	if err := WriteSamples(&buf, samples, mem); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	calls := 0
	err := ScanSamples(bytes.NewReader(buf.Bytes()), mem, func(s results.Sample) error {
		calls++
		if s.TS == 5 {
			return stop
		}
		return nil
	})
	if err != stop {
		t.Errorf("error %v, want the callback's error unwrapped", err)
	}
	if calls != 6 {
		t.Errorf("%d calls, want 6", calls)
	}
}

// TestReadSchema1 reads a runs file of schema version 1, whose started_at
// is timestamp[ns] (made by the code of that version): readers accept
// the files written before timestamps became microseconds.
func TestReadSchema1(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f, err := os.Open("testdata/runs-schema1-ns.parquet")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs, err := ReadRuns(f, mem)
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2026, 11, 25, 18, 49, 1, 123456789, time.UTC)
	if len(runs) != 2 || runs[0].StartedAt == nil || !runs[0].StartedAt.Equal(want) || runs[0].StartedAt.Location() != time.UTC || runs[1].StartedAt != nil {
		t.Errorf("runs %+v, want started_at %s (to the nanosecond) and null", runs, want)
	}
}

func TestStartedAtOutOfRange(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	for _, at := range []time.Time{
		time.UnixMicro(math.MinInt64).Add(-time.Microsecond),
		time.UnixMicro(math.MaxInt64).Add(time.Microsecond),
	} {
		b := NewRunsBuilder(mem, 0)
		err := b.Append(results.Run{RunID: "r", StartedAt: &at})
		if err == nil || !strings.Contains(err.Error(), "started_at") {
			t.Errorf("Append(started_at %s) error = %v, want a started_at range error", at, err)
		}
		if b.Len() != 0 {
			t.Errorf("Len() = %d after a rejected row, want 0", b.Len())
		}
		b.Release()
	}

	// The writer rejects the row and goes on.
	var buf bytes.Buffer
	pw, err := NewRunsWriter(&buf, mem)
	if err != nil {
		t.Fatal(err)
	}
	if err := pw.Append(results.Run{RunID: "bad", StartedAt: results.Ptr(time.UnixMicro(math.MaxInt64).Add(time.Microsecond))}); err == nil {
		t.Error("Append(started_at out of range) = nil, want an error")
	}
	if err := pw.Append(results.Run{RunID: "good"}); err != nil {
		t.Fatal(err)
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	runs, err := ReadRuns(bytes.NewReader(buf.Bytes()), mem)
	if err != nil || len(runs) != 1 || runs[0].RunID != "good" {
		t.Errorf("ReadRuns = %+v, %v; want the good run only", runs, err)
	}
}

type closeRecorder struct {
	io.Writer
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

type closeRecorderReader struct {
	*bytes.Reader
	closed bool
}

func (c *closeRecorderReader) Close() error { c.closed = true; return nil }

func TestWriterLifecycle(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	var buf bytes.Buffer
	w := &closeRecorder{Writer: &buf}
	pw, err := NewPercentilesWriter(w, mem, WithRowGroupRows(0))
	if err != nil {
		t.Fatal(err)
	}
	if pw.Table() != TablePercentiles {
		t.Errorf("Table() = %q", pw.Table())
	}
	if err := pw.Append(results.Percentile{RunID: "r", Quantile: 0.5, LatencyMs: 3}); err != nil {
		t.Fatal(err)
	}

	// A batch of another table is refused.
	sb := NewSamplesBuilder(mem, 0)
	defer sb.Release()
	if err := sb.Append(results.Sample{RunID: "r"}); err != nil {
		t.Fatal(err)
	}
	rec := sb.NewRecordBatch()
	defer rec.Release()
	if err := pw.WriteRecordBatch(rec); !errors.Is(err, ErrSchemaMismatch) {
		t.Errorf("WriteRecordBatch(samples batch) = %v, want ErrSchemaMismatch", err)
	}

	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	if w.closed {
		t.Error("Close closed the underlying writer")
	}
	if err := pw.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	if err := pw.Append(results.Percentile{}); err == nil {
		t.Error("Append after Close = nil, want an error")
	}

	r := &closeRecorderReader{Reader: bytes.NewReader(buf.Bytes())}
	ps, err := ReadPercentiles(r, mem)
	if err != nil || len(ps) != 1 || ps[0].TotalCount != nil {
		t.Errorf("ReadPercentiles = %+v, %v", ps, err)
	}
	if r.closed {
		t.Error("ReadPercentiles closed the reader")
	}
}

func TestBuilder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	b := NewSeriesBuilder(mem, -1)
	defer b.Release()
	if b.BatchRows() != DefaultBatchRows || b.Table() != TableSeries || b.Schema() != SeriesSchema {
		t.Errorf("BatchRows %d, Table %q, Schema %v", b.BatchRows(), b.Table(), b.Schema())
	}
	empty := b.NewRecordBatch()
	defer empty.Release()
	if empty.NumRows() != 0 || empty.NumCols() != int64(SeriesSchema.NumFields()) {
		t.Errorf("empty batch: %d rows, %d columns", empty.NumRows(), empty.NumCols())
	}

	b2 := NewSamplesBuilder(mem, 2)
	defer b2.Release()
	for i := range 5 {
		if b2.Full() {
			t.Fatalf("Full before row %d", i)
		}
		if err := b2.Append(results.Sample{RunID: "r", TS: float64(i)}); err != nil {
			t.Fatal(err)
		}
		if b2.Full() {
			rec := b2.NewRecordBatch()
			if rec.NumRows() != 2 || b2.Len() != 0 {
				t.Errorf("batch of %d rows, Len %d after", rec.NumRows(), b2.Len())
			}
			rec.Release()
		}
	}
	if b2.Len() != 1 {
		t.Errorf("Len() = %d, want 1", b2.Len())
	}
}

// TestReadMissingNullableColumn: a file written before a nullable column
// was added (runs.endpoint, say) reads, the column null; a missing column
// that is not nullable is still an error (TestReadSchemaMismatch).
func TestReadMissingNullableColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var fields []arrow.Field
	for _, f := range SamplesSchema.Fields() {
		if f.Name != "error" {
			fields = append(fields, f)
		}
	}
	data := writeForeign(t, mem, arrow.NewSchema(fields, nil), func(rb *array.RecordBuilder) {
		appendSampleRow(rb, "")
		appendSampleRow(rb, "")
	})
	got, err := ReadSamples(bytes.NewReader(data), mem)
	if err != nil {
		t.Fatal(err)
	}
	want := results.Sample{RunID: "x", TS: 1.5, LatencyMs: 1.5, Status: 200, BytesIn: 64}
	if len(got) != 2 || got[0] != want || got[1] != want {
		t.Errorf("got %+v, want twice %+v", got, want)
	}
}
