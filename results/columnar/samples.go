package columnar

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/loadverdict/loadverdict/results"
)

// sampleStage is the number of rows a SampleStream hands to its encoder
// at a time; a row group is written from several such batches.
const sampleStage = 8192

// SampleStream writes the samples table to a Parquet file column by
// column, for producers of millions of rows: Append copies a sample into
// typed column slices (run_id as an index into the batch's distinct run
// ids), and every sampleStage rows a goroutine of its own encodes and
// compresses them into the pages of the current row group (a buffered row
// group: its compressed pages wait in memory until it holds its
// DefaultBatchRows rows), while the next rows fill.
// run_id is written as the indices of a dictionary, never hashed row by
// row. The file holds what a ParquetWriter of the samples table writes
// from the same rows (schema, Arrow schema, row groups, encodings,
// statistics and values); only run_id's data pages may be fewer, since they
// are cut by the size of its indices, not of its strings. A SampleStream
// holds two batches of sampleStage rows and one row group's compressed
// pages. It is not safe for concurrent use.
type SampleStream struct {
	fw     *file.Writer
	ctx    context.Context // pqarrow's write context
	mem    memory.Allocator
	rows   int // rows per row group
	left   int // rows the current row group can still take (Append's side)
	cur    *sampleBatch
	free   chan *sampleBatch
	full   chan *sampleBatch
	done   chan struct{}
	mu     sync.Mutex
	err    error // first write error of the encoder
	closed bool

	// The encoder's side.
	rgw    file.BufferedRowGroupWriter // the row group being written, nil between them
	rgRows int                         // rows written to it
	rgDict arrow.Array                 // its run ids, fixed by its first batch
	rgPos  map[string]int32            // position of each in rgDict
	dense  bool                        // run_id written as strings for the rest of the row group
	remap  []int32                     // scratch: a batch's run indices into rgDict
	idx    []int32                     // scratch: a batch's rows' indices into rgDict
	defLev []int16                     // scratch: definition levels of the error column
}

// sampleBatch is sampleStage rows of samples, column by column.
type sampleBatch struct {
	runIDs  []string         // distinct run ids, in order of first appearance
	runOf   map[string]int32 // index of each in runIDs
	run     []int32          // run_id: index into runIDs
	ts      []float64        // t_s
	lat     []float64        // latency_ms
	status  []int32          // status
	bytesIn []int64          // bytes_in
	errs    []string         // distinct errors
	errOf   map[string]int32 // index of each in errs
	err     []int32          // error: index into errs, -1 for null
	nErr    int              // rows with an error
	last    bool             // the last batch of its row group
}

func newSampleBatch(n int) *sampleBatch {
	return &sampleBatch{runOf: map[string]int32{}, errOf: map[string]int32{}, run: make([]int32, 0, n),
		ts: make([]float64, 0, n), lat: make([]float64, 0, n), status: make([]int32, 0, n),
		bytesIn: make([]int64, 0, n), err: make([]int32, 0, n)}
}

func (b *sampleBatch) reset() {
	b.runIDs, b.run = b.runIDs[:0], b.run[:0]
	clear(b.runOf)
	b.ts, b.lat, b.status, b.bytesIn = b.ts[:0], b.lat[:0], b.status[:0], b.bytesIn[:0]
	b.errs, b.err, b.nErr, b.last = b.errs[:0], b.err[:0], 0, false
	clear(b.errOf)
}

// NewSampleStream returns a SampleStream writing the samples table to w,
// one row group every DefaultBatchRows rows (opts change that size, for the tests); the
// caller must Close it (which does not close w).
func NewSampleStream(w io.Writer, mem memory.Allocator, opts ...WriterOption) (*SampleStream, error) {
	cfg := writerConfig{rowGroupRows: DefaultBatchRows}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.rowGroupRows <= 0 {
		cfg.rowGroupRows = DefaultBatchRows
	}
	props := parquet.NewWriterProperties(writerProperties(mem, SamplesSchema, cfg.rowGroupRows)...)
	arrProps := pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem), pqarrow.WithStoreSchema())
	// The file pqarrow.NewFileWriter would start: the Parquet schema of
	// SamplesSchema, its metadata, and the Arrow schema stored.
	pqSchema, err := pqarrow.ToParquet(SamplesSchema, props, arrProps)
	if err != nil {
		return nil, fmt.Errorf("results: %s: parquet schema: %w", TableSamples, err)
	}
	meta := metadata.KeyValueMetadata{}
	md := SamplesSchema.Metadata()
	for i, k := range md.Keys() {
		meta.Append(k, md.Values()[i])
	}
	meta.Append("ARROW:schema", base64.StdEncoding.EncodeToString(flight.SerializeSchema(SamplesSchema, mem)))
	fw, err := file.NewParquetWriterWithError(noCloseWriter{w}, pqSchema.Root(), file.WithWriterProps(props), file.WithWriteMetadata(meta))
	if err != nil {
		return nil, fmt.Errorf("results: %s: new parquet writer: %w", TableSamples, err)
	}
	stage := min(sampleStage, cfg.rowGroupRows)
	s := &SampleStream{fw: fw, ctx: pqarrow.NewArrowWriteContext(context.Background(), &arrProps), mem: mem,
		rows: cfg.rowGroupRows, left: cfg.rowGroupRows,
		free: make(chan *sampleBatch, 2), full: make(chan *sampleBatch, 1), done: make(chan struct{})}
	for range 2 {
		s.free <- newSampleBatch(stage)
	}
	go s.encode()
	return s, nil
}

// Append adds one sample, handing the batch to the encoder when it is
// full. A write error of the encoder is returned by the Append after it
// (and by every later call, and by Close).
func (s *SampleStream) Append(x results.Sample) error {
	if s.closed {
		return fmt.Errorf("results: %s: sample stream is closed", TableSamples)
	}
	b := s.cur
	if b == nil {
		if err := s.failed(); err != nil {
			return err
		}
		b = <-s.free
		s.cur = b
	}
	n := len(b.run)
	switch {
	case n > 0 && b.runIDs[b.run[n-1]] == x.RunID:
		b.run = append(b.run, b.run[n-1])
	default:
		i, ok := b.runOf[x.RunID]
		if !ok {
			i = int32(len(b.runIDs))
			b.runIDs = append(b.runIDs, x.RunID)
			b.runOf[x.RunID] = i
		}
		b.run = append(b.run, i)
	}
	b.ts = append(b.ts, x.TS)
	b.lat = append(b.lat, x.LatencyMs)
	b.status = append(b.status, x.Status)
	b.bytesIn = append(b.bytesIn, x.BytesIn)
	e := int32(-1)
	if x.Error != nil {
		i, ok := b.errOf[*x.Error]
		if !ok {
			i = int32(len(b.errs))
			b.errs = append(b.errs, *x.Error)
			b.errOf[*x.Error] = i
		}
		e = i
		b.nErr++
	}
	b.err = append(b.err, e)
	if s.left--; s.left == 0 {
		b.last, s.left = true, s.rows
	}
	if b.last || len(b.run) == cap(b.run) {
		s.full <- b
		s.cur = nil
	}
	return nil
}

// Close writes the pending rows and the file footer, after the encoder
// has written every batch, and frees the stream's memory. It does not
// close the underlying writer. Calling Close again returns nil.
func (s *SampleStream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.cur != nil {
		s.cur.last = true
		s.full <- s.cur
		s.cur = nil
	}
	close(s.full)
	<-s.done
	err := s.failed()
	if s.rgw != nil { // rows that did not fill a batch, or an error
		if cerr := s.rgw.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("results: %s: write parquet: %w", TableSamples, cerr)
		}
		s.endRowGroup()
	}
	if cerr := s.fw.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("results: %s: close parquet: %w", TableSamples, cerr)
	}
	return err
}

// failed returns the encoder's error.
func (s *SampleStream) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// encode writes each full batch into the current row group and recycles
// it; after an error it only recycles them.
func (s *SampleStream) encode() {
	defer close(s.done)
	for b := range s.full {
		if s.failed() == nil {
			if err := s.writeBatch(b); err != nil {
				s.mu.Lock()
				s.err = fmt.Errorf("results: %s: write parquet: %w", TableSamples, err)
				s.mu.Unlock()
			}
		}
		b.reset()
		s.free <- b
	}
}

// writeBatch writes b's rows to the current row group, starting one when
// there is none, and closes the row group after its last batch. The
// numeric columns are written from b's slices without a copy.
func (s *SampleStream) writeBatch(b *sampleBatch) error {
	n := len(b.run)
	if s.rgw == nil {
		rgw, err := s.fw.AppendBufferedRowGroupChecked()
		if err != nil {
			return err
		}
		s.rgw, s.rgRows = rgw, 0
	}
	runs := s.runColumn(b)
	defer runs.Release()
	errs := s.errorColumn(b)
	defer errs.Release()
	cols := []struct {
		arr      arrow.Array
		defLev   []int16
		nullable bool
	}{
		{runs, nil, false},
		{fixedArray(arrow.PrimitiveTypes.Float64, n, arrow.Float64Traits.CastToBytes(b.ts)), nil, false},
		{fixedArray(arrow.PrimitiveTypes.Float64, n, arrow.Float64Traits.CastToBytes(b.lat)), nil, false},
		{fixedArray(arrow.PrimitiveTypes.Int32, n, arrow.Int32Traits.CastToBytes(b.status)), nil, false},
		{fixedArray(arrow.PrimitiveTypes.Int64, n, arrow.Int64Traits.CastToBytes(b.bytesIn)), nil, false},
		{errs, s.errorLevels(b), true},
	}
	var err error
	for i, c := range cols {
		if err == nil {
			var cw file.ColumnChunkWriter
			if cw, err = s.rgw.Column(i); err == nil {
				err = pqarrow.WriteArrowToColumn(s.ctx, cw, c.arr, c.defLev, nil, c.nullable)
			}
		}
		if i > 0 && i < len(cols)-1 {
			c.arr.Release()
		}
	}
	if err != nil {
		return err
	}
	s.rgRows += n
	if b.last {
		err = s.rgw.Close()
		s.endRowGroup()
	}
	return err
}

// endRowGroup forgets the row group written.
func (s *SampleStream) endRowGroup() {
	s.rgw = nil
	if s.rgDict != nil {
		s.rgDict.Release()
	}
	s.rgDict, s.rgPos, s.dense = nil, nil, false
}

// fixedArray is an array of n values of a fixed-width type without nulls
// over data (Go memory, not the allocator's).
func fixedArray(typ arrow.DataType, n int, data []byte) arrow.Array {
	d := array.NewData(typ, n, []*memory.Buffer{nil, memory.NewBufferBytes(data)}, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// runColumn returns run_id for b's rows: the indices of a dictionary, the
// run ids of the row group as its first batch has them in order of first
// appearance (as a dictionary encoder that hashes every row would have
// them). When a later batch brings a run id the dictionary lacks, that
// batch and the rest of the row group are strings, which pqarrow hashes
// into the same dictionary: the row group's dictionary page and indices
// are the same either way.
func (s *SampleStream) runColumn(b *sampleBatch) arrow.Array {
	if s.rgDict == nil {
		sb := array.NewStringBuilder(s.mem)
		sb.AppendValues(b.runIDs, nil)
		s.rgDict = sb.NewArray()
		sb.Release()
		s.rgPos = make(map[string]int32, len(b.runIDs))
		for i, id := range b.runIDs {
			s.rgPos[id] = int32(i)
		}
		return s.dictArray(b.run)
	}
	if !s.dense {
		s.remap = s.remap[:0]
		for _, id := range b.runIDs {
			p, ok := s.rgPos[id]
			if !ok {
				s.dense = true
				break
			}
			s.remap = append(s.remap, p)
		}
	}
	if s.dense {
		sb := array.NewStringBuilder(s.mem)
		defer sb.Release()
		sb.Reserve(len(b.run))
		for _, i := range b.run {
			sb.Append(b.runIDs[i])
		}
		return sb.NewArray()
	}
	s.idx = s.idx[:0]
	for _, r := range b.run {
		s.idx = append(s.idx, s.remap[r])
	}
	return s.dictArray(s.idx)
}

// dictArray returns the dictionary array of indices idx into rgDict.
func (s *SampleStream) dictArray(idx []int32) arrow.Array {
	ia := fixedArray(arrow.PrimitiveTypes.Int32, len(idx), arrow.Int32Traits.CastToBytes(idx))
	defer ia.Release()
	typ := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	return array.NewDictionaryArray(typ, ia, s.rgDict)
}

// errorColumn returns the error column, a string array null where a
// sample has no error.
func (s *SampleStream) errorColumn(b *sampleBatch) arrow.Array {
	sb := array.NewStringBuilder(s.mem)
	defer sb.Release()
	if b.nErr == 0 {
		sb.AppendNulls(len(b.err))
		return sb.NewArray()
	}
	size := 0
	for _, e := range b.err {
		if e >= 0 {
			size += len(b.errs[e])
		}
	}
	sb.Reserve(len(b.err))
	sb.ReserveData(size)
	for _, e := range b.err {
		if e < 0 {
			sb.AppendNull()
		} else {
			sb.Append(b.errs[e])
		}
	}
	return sb.NewArray()
}

// errorLevels returns the definition levels of the error column: 1 where
// a sample has an error, 0 where it is null.
func (s *SampleStream) errorLevels(b *sampleBatch) []int16 {
	s.defLev = s.defLev[:0]
	for _, e := range b.err {
		if e < 0 {
			s.defLev = append(s.defLev, 0)
		} else {
			s.defLev = append(s.defLev, 1)
		}
	}
	return s.defLev
}
