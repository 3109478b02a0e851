package columnar

import (
	"bytes"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/loadverdict/loadverdict/results"
)

// poisonAllocator overwrites memory when it is freed, so that a Go value
// still pointing into a released Arrow buffer (a string not copied, a use
// after Release) shows up as a wrong value in the round-trip tests.
type poisonAllocator struct{ memory.Allocator }

func (p poisonAllocator) Free(b []byte) {
	for i := range b {
		b[i] = 0xA5
	}
	p.Allocator.Free(b)
}

func (p poisonAllocator) Reallocate(size int, b []byte) []byte {
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

func newTestAllocator() *memory.CheckedAllocator {
	return memory.NewCheckedAllocator(poisonAllocator{memory.NewGoAllocator()})
}

// tableAPI is the public API of one table, so that one test covers all four.
type tableAPI[T any] struct {
	newBuilder func(memory.Allocator, int) *Builder[T]
	newWriter  func(io.Writer, memory.Allocator, ...WriterOption) (*ParquetWriter[T], error)
	write      func(io.Writer, []T, memory.Allocator) error
	read       func(parquet.ReaderAtSeeker, memory.Allocator) ([]T, error)
}

var (
	runsAPI        = tableAPI[results.Run]{NewRunsBuilder, NewRunsWriter, WriteRuns, ReadRuns}
	percentilesAPI = tableAPI[results.Percentile]{NewPercentilesBuilder, NewPercentilesWriter, WritePercentiles, ReadPercentiles}
	seriesAPI      = tableAPI[results.Series]{NewSeriesBuilder, NewSeriesWriter, WriteSeries, ReadSeries}
	samplesAPI     = tableAPI[results.Sample]{NewSamplesBuilder, NewSamplesWriter, WriteSamples, ReadSamples}
)

type roundTripCase[T any] struct {
	name      string
	rows      []T
	batchRows int // rows per record batch and per row group; 0: DefaultBatchRows
}

// commonCases are the cases every table gets; extreme values are per table.
func commonCases[T any]() []roundTripCase[T] {
	var mixed []T
	for k := range 10 {
		if k%3 == 1 {
			mixed = append(mixed, nulled[T](k))
		} else {
			mixed = append(mixed, filled[T](k))
		}
	}
	return []roundTripCase[T]{
		{name: "every field set", rows: []T{filled[T](1), filled[T](2)}},
		{name: "every nullable field nil", rows: []T{nulled[T](1), nulled[T](2)}},
		{name: "empty", rows: nil},
		{name: "one row", rows: []T{filled[T](7)}},
		{name: "multi-batch 10 rows by 3", rows: mixed, batchRows: 3},
		{name: "batch exactly full", rows: mixed[:9], batchRows: 3},
		{name: "one row per batch", rows: mixed[:4], batchRows: 1},
	}
}

// negZero is -0.0, which Parquet keeps distinct from +0.0.
var negZero = math.Copysign(0, -1)

func TestRoundTripRuns(t *testing.T) {
	extreme := results.Run{
		RunID: "", Experiment: "ünïcødé ✓ 実験", Source: "s3://b/raw/a b/%20.txt", Index: math.MaxInt32, Seq: math.MinInt32,
		Tool: strings.Repeat("wrk", 30000), LoadModel: results.LoadOpen, Label: "nul\x00byte", Target: "",
		StartedAt: results.Ptr(time.Unix(0, math.MaxInt64)), DurationS: math.Inf(1), PlannedDurationS: results.Ptr(math.Inf(-1)),
		Threads: results.Ptr(int32(math.MinInt32)), Connections: results.Ptr(int32(math.MaxInt32)), TargetRPS: results.Ptr(math.MaxFloat64),
		Requests: math.MaxInt64, Errors: math.MinInt64, Non2xx: results.Ptr(int64(0)), Timeouts: results.Ptr(int64(math.MaxInt64)),
		ConnectErrors: results.Ptr(int64(math.MinInt64)), ReadErrors: results.Ptr(int64(-1)), WriteErrors: results.Ptr(int64(1)), BytesIn: results.Ptr(int64(1 << 62)),
		RPS: math.NaN(), TransferBPS: results.Ptr(math.NaN()),
		LatMeanMs: results.Ptr(math.SmallestNonzeroFloat64), LatStdevMs: results.Ptr(-math.MaxFloat64), LatMinMs: results.Ptr(0.0), LatMaxMs: results.Ptr(negZero),
		LatP50Ms: results.Ptr(1e-300), LatP90Ms: results.Ptr(1e300), LatP99Ms: results.Ptr(math.Inf(1)), LatP999Ms: results.Ptr(math.Inf(-1)),
		ThreadRPSMean: results.Ptr(0.1), ThreadRPSStdev: results.Ptr(0.2), ThreadRPSMax: results.Ptr(0.30000000000000004),
		HasSamples: true, SourceLine: math.MaxInt32, Command: results.Ptr(""), TimeoutS: results.Ptr(negZero), Script: results.Ptr(""),
		LatencyCorrected: results.Ptr(false), Notes: results.Ptr("a; b"),
	}
	extreme2 := nulled[results.Run](3)
	extreme2.StartedAt = results.Ptr(time.Unix(0, math.MinInt64))
	extreme3 := nulled[results.Run](4)
	extreme3.StartedAt = results.Ptr(time.Unix(0, 0).In(plus2))
	extreme3.LatencyCorrected = results.Ptr(true)

	cases := append(commonCases[results.Run](),
		roundTripCase[results.Run]{name: "extreme values", rows: []results.Run{extreme, extreme2, extreme3}},
		roundTripCase[results.Run]{name: "extreme values by 1", rows: []results.Run{extreme, extreme2, extreme3}, batchRows: 1},
	)
	runRoundTrips(t, runsAPI, cases)
}

func TestRoundTripPercentiles(t *testing.T) {
	extreme := []results.Percentile{
		{RunID: "r", Quantile: 0, LatencyMs: 0, TotalCount: results.Ptr(int64(0))},
		{RunID: "r", Quantile: 0.999999, LatencyMs: math.SmallestNonzeroFloat64, TotalCount: results.Ptr(int64(math.MaxInt64))},
		{RunID: "r", Quantile: 1, LatencyMs: math.Inf(1)},
		{RunID: "other", Quantile: math.NaN(), LatencyMs: math.NaN(), TotalCount: results.Ptr(int64(math.MinInt64))},
		{RunID: "r", Quantile: negZero, LatencyMs: math.MaxFloat64},
	}
	cases := append(commonCases[results.Percentile](),
		roundTripCase[results.Percentile]{name: "extreme values", rows: extreme},
		roundTripCase[results.Percentile]{name: "extreme values by 2", rows: extreme, batchRows: 2},
	)
	runRoundTrips(t, percentilesAPI, cases)
}

func TestRoundTripSeries(t *testing.T) {
	extreme := []results.Series{
		{RunID: "r", TS: 0, WindowS: 1, Requests: math.MaxInt64, Errors: math.MinInt64, RPS: math.Inf(1),
			LatMeanMs: results.Ptr(math.NaN()), LatP50Ms: results.Ptr(negZero), LatP99Ms: results.Ptr(math.MaxFloat64), LatMaxMs: results.Ptr(math.SmallestNonzeroFloat64)},
		{RunID: "r", TS: 1e300, WindowS: math.SmallestNonzeroFloat64, RPS: math.NaN()},
		{RunID: "", TS: negZero, WindowS: math.Inf(-1), Requests: -1, Errors: 1, RPS: -math.MaxFloat64, LatMaxMs: results.Ptr(0.0)},
	}
	cases := append(commonCases[results.Series](),
		roundTripCase[results.Series]{name: "extreme values", rows: extreme},
	)
	runRoundTrips(t, seriesAPI, cases)
}

func TestRoundTripSamples(t *testing.T) {
	extreme := []results.Sample{
		{RunID: "r", TS: 0, LatencyMs: 0, Status: 0, BytesIn: 0, Error: results.Ptr("")},
		{RunID: "r", TS: math.MaxFloat64, LatencyMs: math.Inf(1), Status: math.MaxInt32, BytesIn: math.MaxInt64},
		{RunID: "r", TS: negZero, LatencyMs: math.NaN(), Status: math.MinInt32, BytesIn: math.MinInt64, Error: results.Ptr("read: connection reset by peer")},
		{RunID: "s", TS: 1e-300, LatencyMs: negZero, Status: -1, BytesIn: -1, Error: results.Ptr("read: connection reset by peer")},
		{RunID: "r", TS: 2, LatencyMs: math.SmallestNonzeroFloat64, Status: 599, BytesIn: 1, Error: results.Ptr("ünïcødé \x00")},
	}
	cases := append(commonCases[results.Sample](),
		roundTripCase[results.Sample]{name: "extreme values", rows: extreme},
		roundTripCase[results.Sample]{name: "extreme values by 2", rows: extreme, batchRows: 2},
	)
	runRoundTrips(t, samplesAPI, cases)

	// ScanSamples sees the same rows as ReadSamples, in order.
	for _, tc := range cases {
		t.Run("scan/"+tc.name, func(t *testing.T) {
			mem := newTestAllocator()
			defer mem.AssertSize(t, 0)
			var buf bytes.Buffer
			if err := WriteSamples(&buf, tc.rows, mem); err != nil {
				t.Fatal(err)
			}
			got := []results.Sample{}
			err := ScanSamples(bytes.NewReader(buf.Bytes()), mem, func(s results.Sample) error {
				got = append(got, s)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := tc.rows
			if want == nil {
				want = []results.Sample{}
			}
			if d := diff(reflect.ValueOf(want), reflect.ValueOf(got), "rows"); d != "" {
				t.Error(d)
			}
		})
	}
}

// runRoundTrips checks Go values -> Arrow -> Parquet -> Arrow -> Go values
// three ways: record batches from a Builder written with WriteRecordBatch,
// a ParquetWriter fed with Append, and the Write*/Read* conveniences.
func runRoundTrips[T any](t *testing.T, api tableAPI[T], cases []roundTripCase[T]) {
	for _, tc := range cases {
		want := tc.rows
		if want == nil {
			want = []T{} // readers return an empty, non-nil slice
		}
		batchRows := tc.batchRows
		if batchRows == 0 {
			batchRows = DefaultBatchRows
		}
		wantGroups := (len(tc.rows) + batchRows - 1) / batchRows

		t.Run(tc.name+"/builder", func(t *testing.T) {
			mem := newTestAllocator()
			defer mem.AssertSize(t, 0)
			// Read back in batches that straddle row groups.
			defer func(old int64) { readBatchRows = old }(readBatchRows)
			readBatchRows = 4

			var buf bytes.Buffer
			pw, err := api.newWriter(&buf, mem)
			if err != nil {
				t.Fatal(err)
			}
			b := api.newBuilder(mem, tc.batchRows)
			defer b.Release()
			batches := 0
			emit := func() {
				rec := b.NewRecordBatch()
				defer rec.Release()
				if rec.NumRows() > int64(batchRows) {
					t.Errorf("batch of %d rows, want at most %d", rec.NumRows(), batchRows)
				}
				if err := pw.WriteRecordBatch(rec); err != nil {
					t.Fatal(err)
				}
				batches++
			}
			for _, r := range tc.rows {
				if err := b.Append(r); err != nil {
					t.Fatal(err)
				}
				if b.Full() {
					emit()
				}
			}
			if b.Len() > 0 {
				emit()
			}
			if err := pw.Close(); err != nil {
				t.Fatal(err)
			}
			if batches != wantGroups {
				t.Errorf("%d batches, want %d", batches, wantGroups)
			}
			checkFile(t, api, buf.Bytes(), mem, want, wantGroups)
		})

		t.Run(tc.name+"/writer", func(t *testing.T) {
			mem := newTestAllocator()
			defer mem.AssertSize(t, 0)
			var buf bytes.Buffer
			pw, err := api.newWriter(&buf, mem, WithRowGroupRows(tc.batchRows))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range tc.rows {
				if err := pw.Append(r); err != nil {
					t.Fatal(err)
				}
			}
			if err := pw.Close(); err != nil {
				t.Fatal(err)
			}
			checkFile(t, api, buf.Bytes(), mem, want, wantGroups)
		})

		t.Run(tc.name+"/convenience", func(t *testing.T) {
			mem := newTestAllocator()
			defer mem.AssertSize(t, 0)
			var buf bytes.Buffer
			if err := api.write(&buf, tc.rows, mem); err != nil {
				t.Fatal(err)
			}
			checkFile(t, api, buf.Bytes(), mem, want, (len(tc.rows)+DefaultBatchRows-1)/DefaultBatchRows)
		})
	}
}

// checkFile reads the Parquet file data back and compares it with want; it
// also checks the number of row groups and the codec.
func checkFile[T any](t *testing.T, api tableAPI[T], data []byte, mem memory.Allocator, want []T, wantGroups int) {
	t.Helper()
	got, err := api.read(bytes.NewReader(data), mem)
	if err != nil {
		t.Fatal(err)
	}
	if d := diff(reflect.ValueOf(want), reflect.ValueOf(got), "rows"); d != "" {
		t.Error(d)
	}

	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if n := pf.NumRowGroups(); n != wantGroups {
		t.Errorf("%d row groups, want %d", n, wantGroups)
	}
	if n := pf.NumRows(); n != int64(len(want)) {
		t.Errorf("file has %d rows, want %d", n, len(want))
	}
	for rg := range pf.NumRowGroups() {
		for col := range pf.MetaData().Schema.NumColumns() {
			cc, err := pf.MetaData().RowGroup(rg).ColumnChunk(col)
			if err != nil {
				t.Fatal(err)
			}
			if cc.Compression() != compress.Codecs.Zstd {
				t.Fatalf("row group %d column %d: compression %v, want zstd", rg, col, cc.Compression())
			}
			// Float columns are not dictionary-encoded (writerProperties).
			isFloat := pf.MetaData().Schema.Column(col).PhysicalType() == parquet.Types.Double
			if isFloat && cc.HasDictionaryPage() {
				t.Errorf("row group %d column %s: dictionary page %v", rg, cc.PathInSchema(), cc.HasDictionaryPage())
			}
		}
	}
	if v := pf.MetaData().KeyValueMetadata().FindValue(SchemaVersionKey); v == nil || *v != SchemaVersion {
		t.Errorf("file metadata %s = %v, want %q", SchemaVersionKey, v, SchemaVersion)
	}
}
