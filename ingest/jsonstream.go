package ingest

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/loadverdict/loadverdict/results"
	"io"
)

// jsonValues calls fn with each top-level JSON value of r (a file holding
// one report, or reports appended to it) and the 1-based line where the
// value starts. A value that is not well-formed JSON, or that fn refuses
// with a plain error, is a *SyntaxError at its line naming what (e.g.
// "bombardier JSON"); errors of type *SyntaxError and of the sink pass
// through. It returns how many values were read.
func jsonValues(ctx context.Context, r io.Reader, source, what string, fn func(raw json.RawMessage, line int) error) (int, error) {
	lc := &lineCounter{r: r}
	dec := json.NewDecoder(lc)
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
		if err != nil {
			var se *json.SyntaxError
			line := lc.lineAt(start)
			if errors.As(err, &se) {
				line = lc.lineAt(se.Offset)
			} else if !errors.Is(err, io.ErrUnexpectedEOF) {
				return n, fmt.Errorf("%s: %w", source, err)
			}
			return n, &SyntaxError{File: source, Line: line, Msg: what + ": " + err.Error()}
		}
		end := dec.InputOffset()
		line := lc.lineAt(end - int64(len(raw)))
		n++
		if err := fn(raw, line); err != nil {
			var se *SyntaxError
			var pe jsonValueError
			switch {
			case errors.As(err, &pe):
				return n, &SyntaxError{File: source, Line: line, Msg: what + ": " + pe.msg}
			case errors.As(err, &se):
				return n, err
			}
			return n, err
		}
		lc.lineAt(end) // keep the counted bytes bounded
	}
}

// jsonValueError is a JSON value's content refused by a parser; jsonValues
// turns it into a *SyntaxError at the value's line.
type jsonValueError struct{ msg string }

func (e jsonValueError) Error() string { return e.msg }

// badJSON returns a jsonValueError.
func badJSON(format string, args ...any) error { return jsonValueError{fmt.Sprintf(format, args...)} }

// unmarshalValue decodes raw into v; a type mismatch is a jsonValueError.
func unmarshalValue(raw json.RawMessage, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return jsonValueError{err.Error()}
	}
	return nil
}

// jsonHead returns head without a UTF-8 byte order mark and leading blanks.
func jsonHead(head []byte) []byte {
	return bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
}

// sortPercentiles orders points by quantile (maps give them in any order).
func sortPercentiles(p []results.Percentile) {
	slices.SortFunc(p, func(a, b results.Percentile) int { return cmp.Compare(a.Quantile, b.Quantile) })
}

// addPercentiles appends the points of a distribution (in quantile order)
// to a run and copies the 0.5, 0.9, 0.99 and 0.999 points into the
// percentile columns.
func addPercentiles(out *results.RunWithPercentiles, pcts []results.Percentile) {
	for _, p := range pcts {
		out.Percentiles = append(out.Percentiles, p)
		switch p.Quantile {
		case 0.5:
			out.LatP50Ms = results.Ptr(p.LatencyMs)
		case 0.9:
			out.LatP90Ms = results.Ptr(p.LatencyMs)
		case 0.99:
			out.LatP99Ms = results.Ptr(p.LatencyMs)
		case 0.999:
			out.LatP999Ms = results.Ptr(p.LatencyMs)
		}
	}
}

// shiftDec returns v × 10^exp correctly rounded from v's shortest decimal
// form, so that 0.000651724 s is 0.651724 ms and not 0.6517240000000001.
func shiftDec(v float64, exp int) float64 {
	return shiftDecString(strconv.FormatFloat(v, 'g', -1, 64), exp)
}

// shiftDecString parses a decimal number, with or without an exponent
// ("0.0446", "3.8388e-05"), times 10^exp, correctly rounded; NaN when s
// is no number.
func shiftDecString(s string, exp int) float64 {
	mant, e := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		n, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return math.NaN()
		}
		mant, e = s[:i], n
	}
	v, err := strconv.ParseFloat(mant+"e"+strconv.Itoa(e+exp), 64)
	if err != nil && !isRangeErr(err) {
		return math.NaN()
	}
	return v
}
