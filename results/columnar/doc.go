// Package columnar is the columnar form of the four tables of SCHEMA.md
// (runs, percentiles, series, samples), whose rows are the Go types of
// package results: their Arrow schemas (defined once, here), record-batch
// builders of bounded size, and Parquet reading and writing through
// pqarrow. Only what writes or reads tables imports it (the pipeline, the
// catalog, the tools that compare tables); ingest and the analysis do not,
// and build without Arrow.
//
// Schemas: RunsSchema, PercentilesSchema, SeriesSchema and SamplesSchema
// (also Table.Schema), each carrying SchemaVersionKey = SchemaVersion.
// Writing: a Builder makes record batches of at most a given number of
// rows, a ParquetWriter (NewRunsWriter, ...) streams them to a file;
// WriteRuns, WritePercentiles and WriteSeries write a slice; a
// SampleStream writes a per-request log's samples column by column on a
// goroutine of its own. Reading: ReadRuns, ReadPercentiles, ReadSeries and
// ReadSamples read a whole file, ScanSamples one batch at a time; a file
// that lacks a column or has it with another type fails with
// ErrSchemaMismatch. Importing the package registers a long-lived zstd
// encoder for arrow-go's codec (zstdCodec).
//
// The package does not validate values: keeping NaN latencies out is the
// producers' job (ingest). Memory comes from the memory.Allocator the
// caller passes; every value returned is plain Go memory. The file layout
// and the rules of reading: docs/SCHEMA.md, "Table files and commit
// records".
package columnar
