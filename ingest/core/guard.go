package core

import (
	"bytes"
	"fmt"
	"io"
)

// Bounds of what a decoder of a whole-file format holds at once (it keeps
// a value several times over: one 500 MB field cost 2.1 GB); a SizeGuard
// refuses an input past them with a *SyntaxError at the line and offset.
const (
	// MaxToken is the largest single JSON string or number, and the
	// largest XML token (character data, a tag with its attributes, a
	// comment), in bytes.
	MaxToken = 8 << 20
	// MaxJSONValue is the largest JSON value a parser decodes whole, in
	// bytes: a report of the formats that are one JSON object (artillery,
	// autocannon, bombardier, fortio, oha, siege JSON), a member of a ghz
	// or k6 summary (ghz's calls are read one at a time), one vegeta
	// report.
	MaxJSONValue = 64 << 20
)

// SizeGuard passes r on to a decoder and fails (*SyntaxError) at a JSON
// string or number over MaxToken (json set), or when the bytes read past
// what the decoder consumed (consumed(), a json.Decoder's InputOffset,
// else from, set by mark before each token) would pass window.
type SizeGuard struct {
	r        io.Reader
	source   string
	what     string // "JSON value", "XML token"
	json     bool
	window   int64
	Consumed func() int64
	from     int64

	off   int64 // bytes passed on
	lines int   // newlines passed on
	err   error

	// JSON lexical state.
	inStr  bool
	escape bool
	tok    int64 // length of the current string or number so far
}

// NewJSONGuard returns a guard for a JSON decoder over r, whose values
// may be window bytes long.
func NewJSONGuard(r io.Reader, source string, window int64) *SizeGuard {
	return &SizeGuard{r: r, source: source, what: "JSON value", json: true, window: window}
}

// NewXMLGuard returns a guard for an XML decoder over r, whose tokens
// may be MaxToken bytes long.
func NewXMLGuard(r io.Reader, source string) *SizeGuard {
	return &SizeGuard{r: r, source: source, what: "XML token", window: MaxToken}
}

// Mark records that the decoder consumed everything read so far but
// what its buffer holds: the next token starts here.
func (g *SizeGuard) Mark() { g.from = g.off }

// Read implements io.Reader.
func (g *SizeGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	from := g.from
	if g.Consumed != nil {
		from = g.Consumed()
	}
	// The decoder needs more bytes for a value that already fills the
	// window: refuse. Otherwise read at most up to the window's end, so
	// that read-ahead alone never passes it.
	room := from + g.window - g.off
	if room <= 0 {
		g.err = g.tooLarge(fmt.Sprintf("%s larger than %d MiB (from byte %d)", g.what, g.window>>20, from))
		return 0, g.err
	}
	if int64(len(p)) > room {
		p = p[:room]
	}
	n, err := g.r.Read(p)
	if g.json {
		if i := g.scan(p[:n]); i >= 0 {
			g.lines += bytes.Count(p[:i], []byte{'\n'})
			g.off += int64(i)
			g.err = g.tooLarge(fmt.Sprintf("JSON string or number longer than %d MiB (at byte %d)", MaxToken>>20, g.off))
			return i, g.err
		}
	}
	g.lines += bytes.Count(p[:n], []byte{'\n'})
	g.off += int64(n)
	return n, err
}

// tooLarge is the error for msg, at the line being read.
func (g *SizeGuard) tooLarge(msg string) error {
	return &SyntaxError{File: g.source, Line: g.lines + 1, Msg: msg + fmt.Sprintf("; loadverdict reads JSON strings and numbers and XML tokens of at most %d MiB and JSON values of at most %d MiB", MaxToken>>20, MaxJSONValue>>20)}
}

// scan follows the JSON lexical state through b and returns the index
// where a string or number passes MaxToken, or -1.
func (g *SizeGuard) scan(b []byte) int {
	for i, c := range b {
		switch {
		case g.inStr:
			switch {
			case g.escape:
				g.escape = false
			case c == '\\':
				g.escape = true
			case c == '"':
				g.inStr = false
				g.tok = 0
				continue
			}
		case c == '"':
			g.inStr = true
			g.tok = 0
			continue
		case c == ',' || c == ':' || c == '{' || c == '}' || c == '[' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r':
			g.tok = 0
			continue
		}
		g.tok++
		if g.tok > MaxToken {
			return i
		}
	}
	return -1
}
