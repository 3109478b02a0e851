// Package pipeline is the one path from inputs to reports, shared by the
// CLI and the Lambda functions over any store: IngestSource turns a named
// input stream into an experiment's tables (Ingest does it for a raw
// upload of a bucket), Reject and Prune keep an experiment's partition
// true to its inputs, Report analyses an experiment's tables (naming its
// systems by source, target mapping or host:port) and renders its files,
// Analyze does that for a bucket's experiment and writes reports/, and
// Reanalyze finds the experiments whose report is missing or stale. Render
// makes the report files, the same bytes whether they go to a folder or a
// bucket.
package pipeline
