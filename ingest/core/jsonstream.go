package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/loadverdict/loadverdict/results"
)

// jsonValues calls fn with each top-level JSON value of r and its line; a
// malformed value, or a plain error of fn, is a *SyntaxError naming what
// ("bombardier JSON"); *SyntaxErrors and the sink's pass. It counts values.
func jsonValues(ctx context.Context, r io.Reader, source, what string, fn func(raw json.RawMessage, line int) error) (int, error) {
	g := NewJSONGuard(r, source, MaxJSONValue)
	lc := &LineCounter{R: g}
	dec := json.NewDecoder(lc)
	g.Consumed = dec.InputOffset
	n := 0
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		var raw json.RawMessage
		start := dec.InputOffset()
		err := dec.Decode(&raw)
		if err == io.EOF {
			return n, nil
		}
		if errors.Is(err, ErrInput) {
			return n, err // the guard's, or a decompressor's under it
		}
		if err != nil {
			var se *json.SyntaxError
			line := lc.LineAt(start)
			if errors.As(err, &se) {
				line = lc.LineAt(se.Offset)
			} else if !errors.Is(err, io.ErrUnexpectedEOF) {
				return n, fmt.Errorf("%s: %w", source, err)
			}
			return n, &SyntaxError{File: source, Line: line, Msg: what + ": " + err.Error()}
		}
		end := dec.InputOffset()
		line := lc.LineAt(end - int64(len(raw)))
		n++
		if err := fn(raw, line); err != nil {
			var pe jsonValueError
			if errors.As(err, &pe) {
				return n, &SyntaxError{File: source, Line: line, Msg: what + ": " + pe.msg}
			}
			return n, err
		}
		lc.LineAt(end) // keep the counted bytes bounded
	}
}

// jsonValueError is a JSON value's content refused by a parser; jsonValues
// turns it into a *SyntaxError at the value's line.
type jsonValueError struct{ msg string }

// Error returns the message.
func (e jsonValueError) Error() string { return e.msg }

// BadJSON returns a jsonValueError.
func BadJSON(format string, args ...any) error { return jsonValueError{fmt.Sprintf(format, args...)} }

// unmarshalValue decodes raw into v; a type mismatch is a jsonValueError.
func unmarshalValue(raw json.RawMessage, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return jsonValueError{err.Error()}
	}
	return nil
}

// JSONHead returns head without a UTF-8 byte order mark and leading blanks.
func JSONHead(head []byte) []byte {
	return bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
}

// JSONReports decodes each JSON report of r into a T for report, with its
// line and fill (FillCommon with the run's index); report sends the run.
// No report: a *NoOutputError naming format.
func JSONReports[T any](ctx context.Context, r io.Reader, opts Options, format, what string,
	report func(m *T, line int, fill func(*results.RunWithPercentiles)) error) error {
	lab := Labeler{Labels: opts.Labels}
	index := 0
	fill := func(out *results.RunWithPercentiles) {
		FillCommon(out, opts, index, &lab)
		index++
	}
	_, err := jsonValues(ctx, r, opts.Source, what, func(raw json.RawMessage, line int) error {
		m := new(T)
		if err := unmarshalValue(raw, m); err != nil {
			return err
		}
		return report(m, line, fill)
	})
	if err == nil && index == 0 {
		return &NoOutputError{File: opts.Source, LookedFor: []string{format}}
	}
	return err
}

// LineCounter counts the lines of what a json.Decoder has consumed: it
// keeps the bytes read but not yet counted.
type LineCounter struct {
	R       io.Reader
	pending []byte
	base    int64 // offset of pending[0]
	lines   int   // newlines before base
}

func (c *LineCounter) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.pending = append(c.pending, p[:n]...)
	return n, err
}

// LineAt returns the 1-based line of offset off; offsets must not decrease.
func (c *LineCounter) LineAt(off int64) int {
	k := int(min(max(off-c.base, 0), int64(len(c.pending))))
	c.lines += bytes.Count(c.pending[:k], []byte{'\n'})
	c.pending = append(c.pending[:0], c.pending[k:]...)
	c.base += int64(k)
	return c.lines + 1
}
