package core

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
)

// CSVRecords reads the records of a CSV (or TSV) input in bounded memory:
// a quoted format's record longer than its limit is a *SyntaxError; an
// unquoted format's (hey -o csv, ab -g, ab -e) lines are cut at maxLine,
// double quotes read as single. A malformed record comes back as a
// *csv.ParseError and reading goes on; each record's line and size are
// known, and the context is checked every ctxEvery records.
type CSVRecords struct {
	cr     *csv.Reader
	ctx    context.Context
	source string
	guard  *csvGuard      // quoted formats
	capped *unquotedLines // formats that never quote
	n      int            // records read, for the context check

	// Line is the 1-based line the last record read starts on.
	Line int
	// Size is the number of bytes the last record read took (for a
	// format that never quotes, with the bytes cut off its lines).
	Size int64
	// endLine is the line the last record read ends on.
	endLine int
}

// NewCSVRecords returns a reader of the records of r, a CSV input whose
// fields may be quoted, separated by comma; a record longer than max
// bytes is an error.
func NewCSVRecords(ctx context.Context, r io.Reader, source string, comma rune, max int64) *CSVRecords {
	g := &csvGuard{r: r, max: max}
	c := &CSVRecords{cr: csv.NewReader(g), ctx: ctx, source: source, guard: g}
	c.cr.Comma = comma
	c.cr.ReuseRecord = true
	c.cr.FieldsPerRecord = -1
	return c
}

// NewUnquotedRecords returns a reader of the records of r, a log whose
// fields are separated by comma and never quoted; blanks before a field
// are dropped when comma is ','.
func NewUnquotedRecords(ctx context.Context, r io.Reader, source string, comma rune) *CSVRecords {
	u := &unquotedLines{r: r}
	c := &CSVRecords{cr: csv.NewReader(u), ctx: ctx, source: source, capped: u}
	c.cr.Comma = comma
	c.cr.ReuseRecord = true
	c.cr.FieldsPerRecord = -1
	c.cr.TrimLeadingSpace = comma == ','
	return c
}

// Next returns the next record (valid until the following call). The
// error is io.EOF at the end of the input; a *csv.ParseError for a
// malformed record, after which the reader goes on; a *SyntaxError for a
// record longer than the limit, after which it cannot; the context's
// error; or the reader's (see readError).
func (c *CSVRecords) Next() ([]string, error) {
	if err := CheckCtx(c.ctx, c.n); err != nil {
		return nil, err
	}
	c.n++
	off := c.cr.InputOffset()
	var dropped int64
	if c.capped != nil {
		dropped = c.capped.dropped
	}
	rec, err := c.cr.Read()
	c.Size = c.cr.InputOffset() - off
	if c.capped != nil {
		c.Size += c.capped.dropped - dropped
	}
	var pe *csv.ParseError
	switch {
	case err == nil:
		c.Line, _ = c.cr.FieldPos(0)
		c.endLine, _ = c.cr.FieldPos(len(rec) - 1)
		c.mark()
		return rec, nil
	case err == io.EOF:
		return nil, io.EOF
	case errors.Is(err, errCSVRecordTooLong):
		return nil, &SyntaxError{File: c.source, Line: c.endLine + 1,
			Msg: fmt.Sprintf("a CSV record longer than %d MiB (an unterminated quote?)", c.guard.max>>20)}
	case errors.As(err, &pe):
		c.Line, c.endLine = pe.StartLine, pe.Line
		c.mark()
		return nil, err
	}
	return nil, ReadError(c.source, err)
}

// Offset is the number of bytes of the input read so far, those cut off
// its lines included.
func (c *CSVRecords) Offset() int64 {
	n := c.cr.InputOffset()
	if c.capped != nil {
		n += c.capped.dropped
	}
	return n
}

// mark tells the guard where the last record ended.
func (c *CSVRecords) mark() {
	if c.guard != nil {
		c.guard.mark = c.cr.InputOffset()
	}
}

// CSVMaxRecord is the longest record of the k6 and Locust CSV formats.
const CSVMaxRecord = 4 << 20

// errCSVRecordTooLong stops a CSV record that outgrows its limit.
var errCSVRecordTooLong = errors.New("CSV record too long")

// csvGuard bounds how far encoding/csv reads past the end of the last
// record, and so the memory one record (an unterminated quote) can take.
type csvGuard struct {
	r       io.Reader
	max     int64
	n, mark int64
}

// Read reads from the underlying reader, failing once more than max
// bytes were read past the end of the last record.
func (g *csvGuard) Read(p []byte) (int, error) {
	if g.n-g.mark > g.max {
		return 0, errCSVRecordTooLong
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	return n, err
}

// unquotedLines passes its input on, cutting lines longer than maxLine and
// turning double quotes into single ones: the logs read through it never
// quote, and without quoted fields every record is one bounded line, so
// encoding/csv's memory stays bounded whatever the input.
type unquotedLines struct {
	r       io.Reader
	col     int   // bytes of the current line passed on
	dropped int64 // bytes cut off so far
}

// Read reads from the underlying reader, dropping what lines hold beyond
// maxLine bytes.
func (c *unquotedLines) Read(p []byte) (int, error) {
	for {
		n, err := c.r.Read(p)
		w := 0
		for i := 0; i < n; i++ {
			b := p[i]
			switch {
			case b == '\n':
				c.col = 0
			case c.col >= MaxLine:
				c.dropped++
				continue
			default:
				c.col++
				if b == '"' {
					b = '\''
				}
			}
			p[w] = b
			w++
		}
		if w > 0 || err != nil || n == 0 {
			return w, err
		}
	}
}
