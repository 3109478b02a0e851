package columnar

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/loadverdict/loadverdict/results"
)

// sampleRows returns n samples: runs interleaved in blocks of 7 rows, a
// few errors (some repeated, some not), statuses and sizes that repeat.
func sampleRows(n, runs int) []results.Sample { return sampleRowsBlocks(n, runs, 7) }

// sampleRowsBlocks is sampleRows with runs in blocks of block rows.
func sampleRowsBlocks(n, runs, block int) []results.Sample {
	errs := []string{"timeout", "connection refused", "503 Service Unavailable"}
	out := make([]results.Sample, n)
	for i := range out {
		s := results.Sample{RunID: results.RunID("log.json", i/block%runs), TS: float64(i) / 1000, LatencyMs: float64(i%997) / 3,
			Status: int32(200 + 100*(i%5/4)), BytesIn: int64(i % 13)}
		switch {
		case i%101 == 0:
			s.Error = results.Ptr(errs[i%len(errs)])
		case i%1009 == 0:
			s.Error = results.Ptr(fmt.Sprintf("error %d", i))
		case i%503 == 0:
			s.Error = results.Ptr("") // an empty error is not a null
		}
		out[i] = s
	}
	return out
}

// TestSampleStreamSameFile checks that a SampleStream writes the very
// bytes a ParquetWriter of the samples table writes from the same rows,
// and that they read back, with no memory left allocated.
func TestSampleStreamSameFile(t *testing.T) {
	for _, tc := range []struct {
		name       string
		rows, runs int
		block      int // rows of a run in a row
		groupRows  int
	}{
		{"empty", 0, 1, 7, 0},
		{"one row", 1, 1, 7, 0},
		{"one run, partial group", 1000, 1, 7, 0},
		{"three runs, many groups", 10_000, 3, 7, 1024},
		{"groups of one row", 20, 2, 7, 1},
		{"groups not a multiple of the stage", 40_000, 2, 7, 10_000},
		{"default groups", 150_000, 2, 7, 0},
		// A run first seen in a later batch of a row group: the rest of
		// it is hashed into the same dictionary.
		{"runs one after the other", 150_000, 5, 20_000, 0},
		{"a run per batch", 100_000, 20, sampleStage, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rows := sampleRowsBlocks(tc.rows, tc.runs, tc.block)
			var want, got bytes.Buffer
			pw, err := NewSamplesWriter(&want, mem, WithRowGroupRows(tc.groupRows))
			if err != nil {
				t.Fatal(err)
			}
			ss, err := NewSampleStream(&got, mem, WithRowGroupRows(tc.groupRows))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				if err := pw.Append(r); err != nil {
					t.Fatal(err)
				}
				if err := ss.Append(r); err != nil {
					t.Fatal(err)
				}
			}
			if err := pw.Close(); err != nil {
				t.Fatal(err)
			}
			if err := ss.Close(); err != nil {
				t.Fatal(err)
			}
			if err := ss.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
			if g, w := chunksOf(t, got.Bytes()), chunksOf(t, want.Bytes()); !reflect.DeepEqual(g, w) {
				t.Errorf("column chunks differ:\ngot  %v\nwant %v", g, w)
			}
			// run_id's dictionary indices fill fewer data pages than its
			// strings: the files are the same but for that when a row
			// group holds 1 MiB of run ids.
			if same := bytes.Equal(got.Bytes(), want.Bytes()); !same && tc.rows*16 < 1<<20 {
				t.Errorf("SampleStream wrote %d bytes, ParquetWriter %d: not the same file", got.Len(), want.Len())
			}
			back, err := ReadSamples(bytes.NewReader(got.Bytes()), mem)
			if err != nil {
				t.Fatal(err)
			}
			if d := diff(reflect.ValueOf(rows), reflect.ValueOf(back), "samples"); d != "" && len(rows) > 0 {
				t.Error(d)
			}
		})
	}
}

// chunksOf describes the column chunks of a Parquet file: rows, encodings,
// statistics (minimum, maximum, nulls), row group by row group.
func chunksOf(t *testing.T, b []byte) []string {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	var out []string
	md := pf.MetaData()
	for g := range md.NumRowGroups() {
		rg := md.RowGroup(g)
		for c := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			desc := fmt.Sprintf("group %d column %s: %d values %v", g, cc.PathInSchema(), cc.NumValues(), cc.Encodings())
			st, err := cc.Statistics()
			if err != nil {
				t.Fatal(err)
			}
			if st != nil {
				desc += fmt.Sprintf(" nulls %d", st.NullCount())
				if st.HasMinMax() {
					desc += fmt.Sprintf(" min %x max %x", st.EncodeMin(), st.EncodeMax())
				}
			}
			out = append(out, desc)
		}
	}
	return out
}

// failWriter fails every write after the first n bytes.
type failWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		return 0, errDiskFull
	}
	w.n -= len(p)
	return len(p), nil
}

// TestSampleStreamWriteError checks that a write error of the encoder
// comes back from Append or Close. (pqarrow leaves the buffers of a row
// group it failed to write to the garbage collector, as a ParquetWriter
// does: no checked allocator here.)
func TestSampleStreamWriteError(t *testing.T) {
	mem := memory.NewGoAllocator()
	ss, err := NewSampleStream(&failWriter{n: 100}, mem, WithRowGroupRows(100))
	if err != nil {
		t.Fatal(err)
	}
	var appendErr error
	for _, r := range sampleRows(10_000, 2) {
		if appendErr = ss.Append(r); appendErr != nil {
			break
		}
	}
	closeErr := ss.Close()
	if !errors.Is(closeErr, errDiskFull) {
		t.Errorf("Close = %v, want %v", closeErr, errDiskFull)
	}
	if appendErr != nil && !errors.Is(appendErr, errDiskFull) {
		t.Errorf("Append = %v, want %v", appendErr, errDiskFull)
	}
	if err := ss.Append(results.Sample{RunID: "x"}); err == nil {
		t.Error("Append after Close: no error")
	}
}
