// Package columnar is the columnar form of the four tables of SCHEMA.md
// (runs, percentiles, series, samples), whose rows are the Go types of
// package results: their Arrow schemas (defined once, here), record-batch
// builders of bounded size, and Parquet reading and writing through
// pqarrow. Only what writes or reads tables imports it (the pipeline, the
// catalog, the tools that compare tables); ingest and the analysis do not,
// and build without Arrow.
//
// Units are fixed by the schema: latency in milliseconds, durations in
// seconds, throughput in requests per second, bytes in bytes.
//
// # Schemas
//
// RunsSchema, PercentilesSchema, SeriesSchema and SamplesSchema (also
// Table.Schema) are the column contract of SCHEMA.md. Pointer fields of the
// Go types are the nullable columns; nil is null and reads back as nil.
// Every schema, and every Parquet file written here, carries the metadata
// SchemaVersionKey = SchemaVersion.
//
// # Writing
//
// A Builder turns Go values into Arrow record batches of at most a given
// number of rows; a ParquetWriter (NewRunsWriter, NewSeriesWriter, ...)
// turns them into a Parquet file, one row group per DefaultBatchRows rows,
// so a 10-million-row samples log is streamed, never held in memory.
// WriteRuns, WritePercentiles and WriteSeries write a slice.
// A SampleStream writes the samples table of a per-request log column by
// column, from typed slices, on a goroutine of its own (run_id as
// dictionary indices), with the content a ParquetWriter gives.
// Files are Parquet 2.6, zstd-compressed (pure Go, no cgo), with the Arrow
// schema stored; float64 columns are not dictionary-encoded. Importing the
// package registers, for arrow-go's zstd codec, one long-lived encoder of
// the default level (see zstdCodec) in place of arrow-go's pool, which a
// garbage collection empties.
//
// # Reading
//
// ReadRuns, ReadPercentiles, ReadSeries and ReadSamples read a whole file;
// ScanSamples streams one record batch at a time. Columns are matched by
// name: a file must have every column of the table with the table's type
// (else the error wraps ErrSchemaMismatch), may have them in another order,
// and may have extra columns, which are ignored. A null in a non-nullable
// column is an error too.
//
// # Values
//
// started_at is a timestamp[us, UTC] (schema version 2): it is truncated to
// the microsecond and reads back in UTC; times outside the int64-microsecond
// range are rejected by Append. Files of schema version 1 hold
// timestamp[ns]; the readers accept them. Float columns store float64 values as
// they are: NaN, ±Inf and -0 round-trip unchanged. This package does not
// validate values: the model forbids NaN latencies, and keeping them out is
// the producers' job (ingest), so that a bug upstream stays visible in the
// tables instead of being turned into a null or an aborted file here.
//
// Memory comes from the memory.Allocator the caller passes; every value
// returned to the caller is plain Go memory, independent of it.
package columnar
