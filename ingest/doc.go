// Package ingest detects the format of raw load-generator output and parses
// it, streaming, into the normalized runs of package results.
//
// Parse is the entry point (ParseAll collects the runs; Formats lists the
// formats, Parsers their parsers). Detection looks at the content, never
// at a file name: the first MiB is offered to every format in the order
// of formats.go. Output may sit anywhere in a file (transcripts, markdown,
// CRLF, UTF-16); gzip, zstd and bzip2 are decompressed as they stream.
// Parsers stream runs (and, for per-request logs, samples and series) to
// a Sink in file order, with bounded memory.
//
// The parsers live in one package per tool (ingest/<tool>), importing only
// ingest/core and ingest/requests; this package holds the ordered list of
// formats. The formats: "wrk" (wrk and wrk2); "hey", "hey-csv"; "ab",
// "ab-gnuplot", "ab-csv"; "vegeta", "vegeta-report-json",
// "vegeta-hdrplot", "vegeta-json", "vegeta-csv", "vegeta-gob"; "k6",
// "k6-summary", "k6-json", "k6-csv"; "jmeter-csv", "jmeter-csv-noheader",
// "jmeter-xml"; "locust", "locust-history", "locust-failures";
// "bombardier", "bombardier-json"; "autocannon", "autocannon-json";
// "artillery", "artillery-json"; "siege", "siege-json"; "h2load";
// "fortio", "fortio-json"; "ghz", "ghz-json"; "oha", "oha-json";
// "gatling-log", "gatling". What each reads: docs/FORMATS.md.
//
// Rules: nullable fields stay nil when the output does not show them;
// remarks go in Run.Notes; every string a Sink gets is valid UTF-8 without
// NUL bytes; every error matches ErrInput (about the input: *SyntaxError,
// *NoOutputError) or is the reader's, the sink's or the context's, decided
// once in Parse. The error classes, strings and the hot paths:
// docs/ARCHITECTURE.md, "Errors, strings and speed in ingest".
package ingest
