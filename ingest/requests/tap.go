package requests

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"strconv"

	"github.com/loadverdict/loadverdict/ingest/core"
)

// Tap takes, in place of the aggregation, what a parser's line function
// hands an aggregator: each request (Add, after the aggregator's own
// checks) and each malformed line (Bad). loadverdict watch decodes a
// growing log line by line with the parsers' own line functions (see
// LineFunc) and keeps the requests itself.
type Tap struct {
	Add func(h, line int, req Request) error
	Bad func(line int, msg string)
}

// SetTap sends the requests and malformed lines of a to t: nothing is
// aggregated, no sample is sent and Close has nothing to say. Runs are
// still numbered by Run, and Meta describes them.
func (a *Requests) SetTap(t *Tap) { a.tap = t }

// LineFunc decodes one complete line of a per-request log, numbered n
// from 1 and without its line end, into the aggregator it was made for
// (Run, Add, Bad, Good): a format's per-line decoder, as its parser uses
// it. A header line changes the decoder's state and adds nothing.
type LineFunc func(line []byte, n int) error

// LineDecoder returns the line function of the headered log l into a:
// a header line starts a run, a row is split at l.Sep and read by l.Row.
// Unlike ParseHeaderedLog it does not reorder the rows (a tap takes them
// as they come).
func (l HeaderedLog) LineDecoder(a *Requests) LineFunc {
	headers, h := 0, -1
	return func(line []byte, n int) error {
		rec, err := core.NewUnquotedRecords(context.Background(), bytes.NewReader(line), "", rune(l.Sep[0])).Next()
		var pe *csv.ParseError
		switch {
		case errors.As(err, &pe):
			a.Bad(n, pe.Err.Error())
			return nil
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
		if IsHeaderRow(rec, l.Header, l.Sep) {
			headers++
			h = a.Run(strconv.Itoa(headers), l.Meta)
			a.Good()
			return nil
		}
		if headers == 0 {
			a.Bad(n, "row before the "+l.What+" header")
			return nil
		}
		req, bad := l.Row(rec)
		if bad != "" {
			a.Bad(n, bad)
			return nil
		}
		return a.Add(h, n, req)
	}
}
