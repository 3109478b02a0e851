// Package core is what every parser of package ingest shares, and names
// no tool: the Parser and Sink interfaces, Options, the errors about an
// input (SyntaxError, NoOutputError, ErrInput), detection over an ordered
// list of parsers (DetectIn) and the one streaming parse around a parser
// (ParseWith: decompression, UTF-16, string cleaning, error
// classification), the fields every run gets (FillCommon, Label,
// DocumentNames), line, CSV and JSON scanning with bounded memory, the
// units of durations, bytes and rates, and the command-line scanner.
//
// Each tool's parsers live in a package of their own under ingest/ that
// imports core (and ingest/requests for per-request logs), never another
// tool's package; package ingest holds the one ordered list of formats.
package core
