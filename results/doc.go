// Package results is loadverdict's normalized model: the Go types of the
// four tables of SCHEMA.md (Run, Percentile, Series, Sample), the run
// identity (RunID), and the bound every floating-point figure keeps
// (MaxValue, CheckValues). It is plain Go with no dependency outside the
// standard library, so that ingest and the analysis build and link
// without Arrow; the tables' columnar form (Arrow schemas, record-batch
// builders, Parquet) is results/columnar.
//
// Units are fixed by the schema: latency in milliseconds, durations in
// seconds, throughput in requests per second, bytes in bytes. Pointer
// fields are the nullable columns; nil is null.
package results
