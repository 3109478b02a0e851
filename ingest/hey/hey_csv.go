package hey

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// The hey-csv parser reads the per-request rows of `hey -o csv`:
//
//	response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset
//	0.0012,0.0003,0.0000,0.0000,0.0008,0.0000,200,0.0011
//
// in seconds, offset being the request's start since the test's start.
// Rows come in completion order; they go to the aggregator earliest start
// first (reorderBuf), so that t_s counts from the first request. hey lists only requests that got a response (transport errors are not
// in it) and at most 1,000,000 of them, and prints neither the target nor
// the concurrency: the run is named after its file (a --label mapping of
// the file name renames it). Each header starts a run, so outputs
// appended to one file (hey -o csv ... >> all.csv) give one run each.
type CSVParser struct{}

// heyCSVHeader is the header line of `hey -o csv`.
const heyCSVHeader = "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset"

// Name returns "hey-csv".
func (CSVParser) Name() string { return "hey-csv" }

// Detect reports whether head starts with hey's CSV header (its eight
// column names), followed, if anything follows, by a row of eight fields.
func (CSVParser) Detect(head []byte) bool {
	l := core.HeadNonBlank(head, 2)
	if len(l) == 0 || string(l[0]) != heyCSVHeader {
		return false
	}
	return len(l) == 1 || bytes.Count(l[1], []byte(",")) == 7 || string(l[1]) == heyCSVHeader
}

// Parse streams the requests of r to sink: one run per header.
func (CSVParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	return requests.ParseHeaderedLog(ctx, r, opts, sink, heyCSVLog)
}

// heyCSVLog is the layout of hey -o csv.
var heyCSVLog = requests.HeaderedLog{
	Format: "hey-csv", What: "hey -o csv", Header: heyCSVHeader, Sep: ",",
	Meta: requests.RequestRun{Tool: "hey", LoadModel: results.LoadClosed, Notes: []string{
		"hey -o csv lists only requests that got a response (transport errors are left out) and neither the target nor the concurrency"}},
	Row:   row,
	Empty: "hey -o csv lists no request: none got a response (hey lists only those)",
}

// CSVLineDecoder returns the per-line decoder of hey -o csv into a (see
// requests.LineFunc): the header starts a run, each row is a request.
func CSVLineDecoder(a *requests.Requests) requests.LineFunc { return heyCSVLog.LineDecoder(a) }

// row parses a row of hey -o csv; bad says what is wrong with it.
func row(rec []string) (req requests.Request, bad string) {
	if len(rec) != 8 {
		return req, fmt.Sprintf("%d fields, want 8", len(rec))
	}
	for i := 1; i <= 5; i++ {
		if _, ok := core.ParseDec([]byte(strings.TrimSpace(rec[i])), 0); !ok {
			return req, fmt.Sprintf("field %d: %q is not a number of seconds", i+1, rec[i])
		}
	}
	ms, ok := core.ParseDec([]byte(strings.TrimSpace(rec[0])), 3)
	if !ok {
		return req, fmt.Sprintf("response-time %q is not a number of seconds", rec[0])
	}
	code, ok := core.ParseUint([]byte(strings.TrimSpace(rec[6])))
	if !ok || code > 999 {
		return req, fmt.Sprintf("status-code %q", rec[6])
	}
	ns, ok := core.ParseDec([]byte(strings.TrimSpace(rec[7])), 9)
	start, ok2 := core.ToInt64(ns)
	if !ok || !ok2 {
		return req, fmt.Sprintf("offset %q is not a number of seconds", rec[7])
	}
	return requests.Request{Start: start, LatencyMs: ms, Status: int32(code)}, ""
}
