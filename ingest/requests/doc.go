// Package requests aggregates per-request logs into runs: Requests turns
// a stream of requests into each run's samples, series of windows and
// summary with exact (or, beyond ExactCap, HdrHistogram) percentiles,
// with bounded memory. The per-request parsers of ingest use it, and so
// does the pipeline's merge of runs. ParseHeaderedLog is the loop shared
// by the logs made of headed CSV or TSV blocks (hey -o csv, ab -g).
package requests
