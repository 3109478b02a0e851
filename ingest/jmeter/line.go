package jmeter

import (
	"bytes"
	"encoding/csv"
	"errors"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
)

// CSVLineDecoder returns the per-line decoder of a JMeter CSV (JTL) file
// into a (see requests.LineFunc): the first line is a header (its
// delimiter found as Parse finds it) or a header-less record, and each
// record is read as Parse reads it (jtlCSVState.record, jtlAgg.request),
// without the reordering by start. A record must fit on its line (a
// quoted line end in a field is a malformed line here). A blank line is
// skipped.
func CSVLineDecoder(a *requests.Requests) requests.LineFunc {
	g := &jtlAgg{a: a, sink: &jtlSink{}, urlCache: map[string][2]string{}}
	var st *jtlCSVState
	return func(line []byte, n int) error {
		if n == 1 {
			line = bytes.TrimPrefix(line, core.UTF8BOM)
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) == 0 {
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
