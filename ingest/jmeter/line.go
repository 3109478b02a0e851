package jmeter

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
)

// CSVLineDecoder returns the per-line decoder of a JMeter CSV (JTL) file
// into a (see requests.LineFunc): the first line is a header (its
// delimiter found as Parse finds it) or a header-less record, and each
// record is read as Parse reads it (jtlCSVState.record, jtlAgg.request),
// without the reordering by start. A record whose quoted field holds line
// ends (an assertion's message) is read when its last line has come. A
// blank line is skipped.
func CSVLineDecoder(a *requests.Requests) requests.LineFunc {
	g := &jtlAgg{a: a, sink: &jtlSink{}, urlCache: map[string][2]string{}}
	var st *jtlCSVState
	var carry []byte // a record whose quoted field goes on past its line
	first := 0       // the line it starts on
	return func(line []byte, n int) error {
		if n == 1 {
			line = bytes.TrimPrefix(line, core.UTF8BOM)
		}
		line = bytes.TrimRight(line, "\r")
		if carry != nil {
			line = append(append(carry, '\n'), line...)
			carry, n = nil, first
		} else if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		if bytes.Count(line, []byte{'"'})%2 == 1 {
			// A quoted field holds a line end: the record goes on.
			if len(line) > jtlMaxRecord {
				g.bad(n, fmt.Sprintf("record longer than %d bytes", jtlMaxRecord))
				return nil
			}
			carry, first = bytes.Clone(line), n
			return nil
		}
		if st == nil {
			st = &jtlCSVState{comma: ','}
			if c, ok := jtlParseHeader(line); ok {
				st.cols, st.header, st.comma = c, true, c.comma
			} else if c, ok := jtlBareComma(append(line[:len(line):len(line)], '\n')); ok {
				st.comma = c
			}
		}
		cr := csv.NewReader(bytes.NewReader(line))
		cr.Comma, cr.FieldsPerRecord = st.comma, -1
		rec, err := cr.Read()
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			g.bad(n, pe.Err.Error())
			return nil
		}
		if err != nil {
			return nil // nothing on the line
		}
		s, ok := st.record(rec, n, g)
		if !ok {
			return nil
		}
		h, req, ok := g.request(&s)
		if !ok {
			return nil
		}
		return a.Add(h, n, req)
	}
}
