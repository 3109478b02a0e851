// Package core is what every parser of package ingest shares, and names
// no tool: the Parser and Sink interfaces, Options, input errors,
// detection (DetectIn), the streaming parse around a parser (ParseWith),
// the fields every run gets, bounded line, CSV and JSON scanning, units,
// and the command-line scanner. Bounds: a line MaxLine (1 MiB), a token
// MaxToken (8 MiB), a JSON value MaxJSONValue (64 MiB), a stored text
// MaxText (512 B, longer ones capped with a hash: CapText). Each tool's
// parsers import core (and ingest/requests), never another tool's package.
package core
