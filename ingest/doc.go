// Package ingest detects the format of raw load-generator output and parses
// it, streaming, into the normalized runs of package results.
//
// Detection looks at the content, never at a file name: Parse peeks at the
// first MiB of its input and asks the parser of every format, in the
// order of the list in formats.go (see Parsers), whether it recognizes it. Output may sit anywhere in a file: terminal
// transcripts with prompts, markdown and blog posts with prose around the
// runs, code fences, comment prefixes, CRLF line ends, UTF-16 with a byte
// order mark; gzip, zstd and bzip2 inputs are decompressed as they stream
// (xz, lz4, zip and 7-Zip are refused, naming the command that
// decompresses them). A
// parser streams what it reads to a Sink in file order (runs; for
// per-request logs also samples and series, built by the Requests
// aggregator of ingest/requests), with bounded memory, so files of any size can be read.
//
// The parsers live in one package per tool family (ingest/wrk,
// ingest/vegeta, ingest/k6, ...), each importing only ingest/core (what
// every parser shares: Parser, Sink, Options, the errors, scanning,
// units) and ingest/requests (the per-request aggregator); this package
// holds the one ordered list of formats (formats.go) and the entry
// points. The formats, each read by the parser in the file named after
// it in its tool's package (formats.go lists them in the order Detect
// tries them):
//
//   - "wrk" reads the text output of wrk and wrk2 (Run.Tool tells them
//     apart). Units are converted as SCHEMA.md says: latencies to ms,
//     durations to s, wrk's binary byte units (1KB = 1024 B) to bytes,
//     Req/Sec suffixes (k, M, G) to decimal multiples.
//   - "hey" and "hey-csv": hey's text summary and its -o csv rows.
//   - "ab", "ab-gnuplot", "ab-csv": ApacheBench's report, -g TSV and -e CSV.
//   - "vegeta", "vegeta-report-json", "vegeta-hdrplot", "vegeta-json",
//     "vegeta-csv", "vegeta-gob": vegeta's text, JSON and hdrplot reports
//     and its per-request results (JSON lines, CSV, the gob stream).
//   - "k6", "k6-summary", "k6-json", "k6-csv": k6's end-of-test summary,
//     its summary JSON, and its --out json and --out csv points.
//   - "jmeter-csv", "jmeter-csv-noheader", "jmeter-xml": JMeter JTL files.
//   - "locust", "locust-history", "locust-failures": Locust's --csv files.
//   - "bombardier", "bombardier-json": bombardier's text result and -o json.
//   - "autocannon", "autocannon-json": autocannon's text tables and -j.
//   - "artillery", "artillery-json": Artillery's console summary (with its
//     periods as series) and its run --output report.
//   - "siege", "siege-json": siege's summary, as text and as JSON.
//   - "h2load": h2load's summary (HTTP/1.1 and h2).
//   - "fortio", "fortio-json": fortio load's text and JSON results.
//   - "ghz", "ghz-json": ghz's summary and its JSON report (per-call details
//     into samples).
//   - "oha", "oha-json": oha's summary (old and current layouts) and --json.
//   - "gatling-log", "gatling": Gatling's text simulation.log (per request)
//     and its console Global Information block.
//
// Conventions shared by the parsers:
//
//   - Every run has Experiment, Source, Index, Seq (equal to Index; the
//     caller renumbers it per experiment), RunID = results.RunID(Source,
//     Index), Label (see Label) and SourceLine (the line where the run's
//     output, or the command line that produced it, starts).
//   - Nullable fields stay nil when the output does not show them. wrk
//     prints its "Socket errors" and "Non-2xx or 3xx responses" lines only
//     for non-zero counts, so when the summary's tail (Requests/sec or
//     Transfer/sec) is present and those lines are not, the counts are 0;
//     Errors is their sum (wrk counts them separately: with --timeout 0 a
//     request may be both a timeout and a non-2xx).
//   - Remarks of the parser about a run (implausible values left out or
//     replaced, uncorrected wrk2 distributions, old outputs without units)
//     are in Run.Notes.
//   - Errors name the source: a *NoOutputError when no format is found, a
//     *SyntaxError with the line when output is cut off in the middle of a run.
//
// # Errors: the input's, or someone else's
//
// Every error Parse returns is of one of two classes, decided in one place
// (Parse), so that a caller needs one check, errors.Is(err, ErrInput):
//
//   - About the input: it matches ErrInput, and is a *SyntaxError (with the
//     line when there is one) or a *NoOutputError. Reading the same bytes
//     again gives the same error, so the pipeline rejects the input instead
//     of retrying. This covers corrupt or cut-off gzip, zstd and bzip2 streams
//     (and junk after them), XML, JSON, CSV and gob content the decoders
//     refuse (an XML declaration of version "0", an unknown encoding), and
//     per-request logs with more than 1 % malformed lines or bytes.
//   - Not about the input: an error of the reader itself (a network
//     failure, a file that changed while it was read), of the sink, or of
//     the context. It is returned wrapped (errors.Is finds it), never as
//     an input error, whatever a parser made of the bytes it got before:
//     when the reader failed, the parse failed because of it. Parse reads
//     its input to the end, also when a parser needs less, so a reader that
//     fails only there (store.OpenFile) is heard.
//
// Parsers keep to the same rule when called directly: a decoder's error is
// a *SyntaxError unless the reader under it failed (decodeError).
//
// # Strings and malformed bytes
//
// Every string a Sink receives from Parse is valid UTF-8 without NUL bytes:
// invalid bytes and NULs are replaced by U+FFFD, once, in the sink Parse
// puts in front of the caller's, and the run's notes say what was
// replaced. A per-request log is rejected when more than 1 % of its lines
// or more than 1 % of its bytes are malformed: a few huge junk lines, or a
// valid gob stream followed by junk (every byte from the corrupt record on
// counts), are rejected like many bad lines; below the limits the
// malformed lines are counted and quoted in the notes.
//
// # Speed and memory
//
// The large inputs are per-request logs and long wrk transcripts; their
// hot paths are written for speed without changing a result:
//
//   - vegeta JSON lines are cut into batches and decoded on parallel
//     goroutines. A line in the one layout vegeta writes is read by a byte
//     scan over its fixed keys (decodeVegetaJSONFast, with a fixed-layout
//     RFC 3339 parser); any other line by the general decoder, and the
//     tests and a fuzz target check that both give the same record
//     wherever the fast one takes a line.
//   - wrk text is cut into batches of lines (ending after a run when they
//     can) parsed in parallel, each from the state of a start; a batch
//     whose true starting state is not such a state is parsed again from
//     it, so the runs and errors are those of one sequential pass.
//   - The Requests aggregator keeps a run's latencies for exact
//     percentiles in fixed blocks (up to 2^20), its windows' histograms
//     sparse (hdrhistogram's PackedHistogram, same quantiles as a dense
//     one; the latest four windows record into dense ones first), so memory
//     grows neither with the log's duration nor, past the exact cap, with
//     its length.
package ingest
