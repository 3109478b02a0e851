// Package pipeline is the one path from inputs to reports, shared by the
// CLI and the Lambda functions over any store: IngestSource turns a named
// input stream into a generation of an experiment's tables and commits it
// with a per-source commit record (Ingest does it for a raw upload of a
// bucket, checking the upload's ETag before and after the commit, so an
// older version never replaces a newer one; IngestKeys ingests keys and
// analyses their experiments, the ingest function's and `ingest --store`'s
// one call), Reject and Prune keep an
// experiment's partition true to its inputs, Report analyses an
// experiment's committed tables (assembled by internal/experiment:
// systems, copies, merges, options) and renders its files, Analyze does that for a
// bucket's experiment and writes reports/, Repair makes an experiment's
// commit records match its uploads, and Reanalyze repairs and re-analyses
// the experiments that need it. IsInputFault is the one place that tells
// an input fault (recorded, reported, never retried) from an
// infrastructure fault (returned, retried). History analyses a series of
// experiments and AnalyzeSeries writes it to reports/_series/<series>/
// (Analyze does so for the series an experiment's manifest names;
// Reanalyze re-makes stale series too). Render and RenderHistory make the
// report files, the same bytes whether they go to a folder or a bucket. A
// Catalog, when set, registers each experiment's partitions as the ingest
// commits its tables. Open (a folder or s3://BUCKET, as --store names it)
// and ForBucket (the functions') return a store's pipeline; the command
// line's local runs over files are internal/local's.
package pipeline
