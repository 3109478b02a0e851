package results

import (
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// SampleStream writes the samples table to a Parquet file column by
// column, for producers of millions of rows: Append copies a sample into
// typed column slices (run_id as an index into the batch's distinct run
// ids), and each full row group is encoded and compressed by a goroutine
// of its own while the next one fills. run_id is written as the indices
// of a dictionary, never hashed row by row. The file holds what a
// ParquetWriter of the samples table writes from the same rows (schema,
// row groups, encodings, statistics and values); only run_id's data pages
// may be fewer, since they are cut by the size of its indices, not of its
// strings. At most two row groups are held in memory. A SampleStream is
// not safe for concurrent use.
type SampleStream struct {
	fw     *pqarrow.FileWriter
	mem    memory.Allocator
	rows   int
	cur    *sampleBatch
	free   chan *sampleBatch
	full   chan *sampleBatch
	done   chan struct{}
	mu     sync.Mutex
	err    error // first write error of the encoder
	closed bool
}

// sampleBatch is one row group's samples, column by column.
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
}

func (b *sampleBatch) reset() {
	b.runIDs, b.run = b.runIDs[:0], b.run[:0]
	clear(b.runOf)
	b.ts, b.lat, b.status, b.bytesIn = b.ts[:0], b.lat[:0], b.status[:0], b.bytesIn[:0]
	b.errs, b.err, b.nErr = b.errs[:0], b.err[:0], 0
	clear(b.errOf)
}

// NewSampleStream returns a SampleStream writing the samples table to w,
// one row group every DefaultBatchRows rows (see WithRowGroupRows); the
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
	fw, err := pqarrow.NewFileWriter(SamplesSchema, noCloseWriter{w}, props, arrProps)
	if err != nil {
		return nil, fmt.Errorf("results: %s: new parquet writer: %w", TableSamples, err)
	}
	s := &SampleStream{fw: fw, mem: mem, rows: cfg.rowGroupRows,
		free: make(chan *sampleBatch, 2), full: make(chan *sampleBatch, 1), done: make(chan struct{})}
	for range 2 {
		s.free <- &sampleBatch{runOf: map[string]int32{}, errOf: map[string]int32{}}
	}
	go s.encode()
	return s, nil
}

// Append adds one sample, handing the row group to the encoder when it is
// full. A write error of the encoder is returned by the Append after it
// (and by every later call, and by Close).
func (s *SampleStream) Append(x Sample) error {
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
	if len(b.run) >= s.rows {
		s.full <- b
		s.cur = nil
	}
	return nil
}

// Close writes the pending rows and the file footer, after the encoder
// has written every row group, and frees the stream's memory. It does not
// close the underlying writer. Calling Close again returns nil.
func (s *SampleStream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.cur != nil {
		s.full <- s.cur
		s.cur = nil
	}
	close(s.full)
	<-s.done
	err := s.failed()
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

// encode writes each full batch as a row group and recycles it; after an
// error it only recycles them.
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

// writeBatch writes b as one row group, its columns in SamplesSchema's
// order; the numeric columns are written from b's slices without a copy.
func (s *SampleStream) writeBatch(b *sampleBatch) error {
	n := len(b.run)
	if err := s.fw.NewRowGroupChecked(); err != nil {
		return err
	}
	runs := s.runColumn(b)
	defer runs.Release()
	errs := s.errorColumn(b)
	defer errs.Release()
	cols := []arrow.Array{
		runs,
		fixedArray(arrow.PrimitiveTypes.Float64, n, arrow.Float64Traits.CastToBytes(b.ts)),
		fixedArray(arrow.PrimitiveTypes.Float64, n, arrow.Float64Traits.CastToBytes(b.lat)),
		fixedArray(arrow.PrimitiveTypes.Int32, n, arrow.Int32Traits.CastToBytes(b.status)),
		fixedArray(arrow.PrimitiveTypes.Int64, n, arrow.Int64Traits.CastToBytes(b.bytesIn)),
		errs,
	}
	for i, c := range cols {
		err := s.fw.WriteColumnData(c)
		if i > 0 && i < len(cols)-1 {
			c.Release()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// fixedArray is an array of n values of a fixed-width type without nulls
// over data (Go memory, not the allocator's).
func fixedArray(typ arrow.DataType, n int, data []byte) arrow.Array {
	d := array.NewData(typ, n, []*memory.Buffer{nil, memory.NewBufferBytes(data)}, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// runColumn returns run_id as a dictionary array: the batch's distinct run
// ids and an index per row.
func (s *SampleStream) runColumn(b *sampleBatch) arrow.Array {
	sb := array.NewStringBuilder(s.mem)
	defer sb.Release()
	sb.AppendValues(b.runIDs, nil)
	dict := sb.NewArray()
	defer dict.Release()
	idx := fixedArray(arrow.PrimitiveTypes.Int32, len(b.run), arrow.Int32Traits.CastToBytes(b.run))
	defer idx.Release()
	typ := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	return array.NewDictionaryArray(typ, idx, dict)
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
