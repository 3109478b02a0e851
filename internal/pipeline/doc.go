// Package pipeline is the one path from inputs to reports, shared by the
// CLI and the Lambda functions over any store: IngestSource turns a named
// input stream into an experiment's tables (Ingest does it for a raw
// upload of a bucket), Reject and Prune keep an experiment's partition
// true to its inputs, Report analyses an experiment's tables (naming its
// systems by source, target mapping or host:port) and renders its files,
// Analyze does that for a bucket's experiment and writes reports/, and
// Reanalyze finds the experiments whose report is missing or stale (and
// the series, ReanalyzeSeries). History analyses a series of experiments
// and AnalyzeSeries writes it to reports/_series/<series>/ (Analyze does
// so for the series an experiment's manifest names). Render and
// RenderHistory make the report files, the same bytes whether they go to
// a folder or a bucket. A Catalog, when set, registers each experiment's
// partitions as the ingest writes its tables.
package pipeline
