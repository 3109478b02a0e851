package columnar

// The writing side that only the tests use: the samples table as a
// ParquetWriter (loadverdict writes samples through a SampleStream),
// record batches written whole, and row groups of a chosen size. The
// tests check SampleStream and the other tables against them.

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/loadverdict/loadverdict/results"
)

// NewSamplesBuilder returns a Builder of samples-table batches of at most batchRows rows
// (DefaultBatchRows when batchRows <= 0); the caller must Release it.
func NewSamplesBuilder(mem memory.Allocator, batchRows int) *Builder[results.Sample] {
	return newBuilder(mem, batchRows, TableSamples, SamplesSchema, sampleColumns)
}

// BatchRows returns the number of rows at which a batch is full.
func (b *Builder[T]) BatchRows() int { return b.batchRows }

// WithRowGroupRows sets the number of rows per row group (DefaultBatchRows
// when n <= 0); the writer buffers at most that many rows.
func WithRowGroupRows(n int) WriterOption {
	return func(c *writerConfig) { c.rowGroupRows = n }
}

// NewSamplesWriter returns a ParquetWriter of the samples table writing to w;
// the caller must Close it (which does not close w).
func NewSamplesWriter(w io.Writer, mem memory.Allocator, opts ...WriterOption) (*ParquetWriter[results.Sample], error) {
	return newParquetWriter(w, mem, NewSamplesBuilder, opts)
}

// WriteRecordBatch writes rec, a batch of w's table schema (from a Builder
// of the same table), after the rows appended so far. Each call writes at
// least one row group: pass batches of about a row group's size.
func (w *ParquetWriter[T]) WriteRecordBatch(rec arrow.RecordBatch) error {
	if err := w.usable(); err != nil {
		return err
	}
	if !rec.Schema().Equal(w.b.Schema()) {
		return fmt.Errorf("results: %s: write record batch: %w: got schema %s", w.Table(), ErrSchemaMismatch, rec.Schema())
	}
	if err := w.flush(); err != nil {
		return err
	}
	if rec.NumRows() == 0 {
		return nil
	}
	if err := w.fw.Write(rec); err != nil {
		w.err = fmt.Errorf("results: %s: write parquet: %w", w.Table(), err)
	}
	return w.err
}

// WriteSamples writes samples to w as a complete Parquet file of the
// samples table, through a SampleStream.
func WriteSamples(w io.Writer, samples []results.Sample, mem memory.Allocator) error {
	s, err := NewSampleStream(w, mem)
	if err != nil {
		return err
	}
	for _, x := range samples {
		if err := s.Append(x); err != nil {
			s.Close()
			return err
		}
	}
	return s.Close()
}
