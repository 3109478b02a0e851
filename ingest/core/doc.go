// Package core is what every parser of package ingest shares, and names
// no tool: the Parser and Sink interfaces, Options, the errors about an
// input (SyntaxError, NoOutputError, ErrInput), detection over an ordered
// list of parsers (DetectIn) and the one streaming parse around a parser
// (ParseWith: decompression, UTF-16, string cleaning, error
// classification), the fields every run gets (FillCommon, Label,
// DocumentNames), line, CSV and JSON scanning with bounded memory, the
// units of durations, bytes and rates, and the command-line scanner.
//
// Bounds: a line is at most MaxLine (1 MiB) bytes, a JSON string or XML
// token MaxToken (8 MiB), a JSON value read whole MaxJSONValue (64 MiB);
// a stored label, target, endpoint or sample error MaxText (512) bytes,
// a longer one cut with a hash of the whole (CapText).
//
// Each tool's parsers live in a package of their own under ingest/ that
// imports core (and ingest/requests for per-request logs), never another
// tool's package; package ingest holds the one ordered list of formats.
package core
