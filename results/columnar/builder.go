package columnar

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/loadverdict/loadverdict/results"
)

// DefaultBatchRows is the number of rows per record batch (and per Parquet
// row group) used when a size <= 0 is given.
const DefaultBatchRows = 64 * 1024

// Builder accumulates rows of one table (Run, Percentile, Series or Sample)
// into Arrow record batches of at most BatchRows rows, so a producer
// streams a table of any length with bounded memory:
//
//	b := columnar.NewSeriesBuilder(mem, columnar.DefaultBatchRows)
//	defer b.Release()
//	// each row: b.Append(s); when b.Full(), sink b.NewRecordBatch() and
//	// Release it; at the end, the same for the last, partial batch.
//
// A Builder is not safe for concurrent use.
type Builder[T any] struct {
	table     Table
	rb        *array.RecordBuilder
	appenders []func(*T)
	checks    []func(*T) error
	batchRows int
	rows      int
	row       T // staging copy of the value being appended
}

func newBuilder[T any](mem memory.Allocator, batchRows int, table Table, schema *arrow.Schema, cols []column[T]) *Builder[T] {
	if batchRows <= 0 {
		batchRows = DefaultBatchRows
	}
	rb := array.NewRecordBuilder(mem, schema)
	b := &Builder[T]{table: table, rb: rb, batchRows: batchRows}
	for i, c := range cols {
		b.appenders = append(b.appenders, c.appender(rb.Field(i)))
		if c.check != nil {
			b.checks = append(b.checks, c.check)
		}
	}
	return b
}

// NewRunsBuilder returns a Builder of runs-table batches of at most batchRows rows
// (DefaultBatchRows when batchRows <= 0); the caller must Release it.
func NewRunsBuilder(mem memory.Allocator, batchRows int) *Builder[results.Run] {
	return newBuilder(mem, batchRows, TableRuns, RunsSchema, runColumns)
}

// NewPercentilesBuilder returns a Builder of percentiles-table batches of at most
// batchRows rows (DefaultBatchRows when batchRows <= 0); the caller must Release it.
func NewPercentilesBuilder(mem memory.Allocator, batchRows int) *Builder[results.Percentile] {
	return newBuilder(mem, batchRows, TablePercentiles, PercentilesSchema, percentileColumns)
}

// NewSeriesBuilder returns a Builder of series-table batches of at most batchRows rows
// (DefaultBatchRows when batchRows <= 0); the caller must Release it.
func NewSeriesBuilder(mem memory.Allocator, batchRows int) *Builder[results.Series] {
	return newBuilder(mem, batchRows, TableSeries, SeriesSchema, seriesColumns)
}

// Table returns the table whose rows b builds.
func (b *Builder[T]) Table() Table { return b.table }

// Schema returns the Arrow schema of the batches b builds.
func (b *Builder[T]) Schema() *arrow.Schema { return b.rb.Schema() }

// Len returns the number of rows appended since the last NewRecordBatch.
func (b *Builder[T]) Len() int { return b.rows }

// Full reports whether BatchRows rows are pending, i.e. the caller should
// take them with NewRecordBatch before appending more.
func (b *Builder[T]) Full() bool { return b.rows >= b.batchRows }

// Append adds v as one row. It returns an error, and appends nothing, when
// a value cannot be represented (a started_at outside the years 1677-2262).
// Append does not enforce BatchRows: check Full after each call.
func (b *Builder[T]) Append(v T) error {
	b.row = v
	for _, check := range b.checks {
		if err := check(&b.row); err != nil {
			return err
		}
	}
	for _, app := range b.appenders {
		app(&b.row)
	}
	var zero T
	b.row = zero // do not retain v's pointers
	b.rows++
	return nil
}

// NewRecordBatch returns the pending rows as a record batch (possibly empty)
// and resets b for the next batch; the caller must Release the batch.
func (b *Builder[T]) NewRecordBatch() arrow.RecordBatch {
	full := b.Full()
	rec := b.rb.NewRecordBatch()
	b.rows = 0
	if full {
		// Batches are likely to keep coming full: preallocate the next one.
		b.rb.Reserve(b.batchRows)
	}
	return rec
}

// Release frees the memory of the pending rows; b must not be used after.
func (b *Builder[T]) Release() { b.rb.Release() }
