package ingest

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/results"
)

// The hey-csv parser reads the per-request rows of `hey -o csv`:
//
//	response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset
//	0.0012,0.0003,0.0000,0.0000,0.0008,0.0000,200,0.0011
//
// in seconds, offset being the request's start since the test's start.
// Rows come in completion order; they go to the aggregator earliest start
// first (heyabRunBuf), so that t_s counts from the first request. hey lists only requests that got a response (transport errors are not
// in it) and at most 1,000,000 of them, and prints neither the target nor
// the concurrency: the run is named after its file (a --label mapping of
// the file name renames it). Each header starts a run, so outputs
// appended to one file (hey -o csv ... >> all.csv) give one run each.
type heyCSVParser struct{}

// heyCSVHeader is the header line of `hey -o csv`.
const heyCSVHeader = "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset"

// Name returns "hey-csv".
func (heyCSVParser) Name() string { return "hey-csv" }

// Detect reports whether head starts with hey's CSV header (its eight
// column names), followed, if anything follows, by a row of eight fields.
func (heyCSVParser) Detect(head []byte) bool {
	l := headNonBlank(head, 2)
	if len(l) == 0 || string(l[0]) != heyCSVHeader {
		return false
	}
	return len(l) == 1 || bytes.Count(l[1], []byte(",")) == 7 || string(l[1]) == heyCSVHeader
}

// heyabIsHeader reports whether rec is the header line (h split at sep),
// ignoring a byte order mark and surrounding blanks.
func heyabIsHeader(rec []string, h string, sep string) bool {
	if len(rec) == 0 {
		return false
	}
	first := strings.TrimPrefix(rec[0], "\ufeff")
	if len(rec) == 1 {
		return strings.TrimSpace(first) == h
	}
	parts := strings.Split(h, sep)
	if len(parts) != len(rec) {
		return false
	}
	for i, p := range parts {
		v := rec[i]
		if i == 0 {
			v = first
		}
		if strings.TrimSpace(v) != p {
			return false
		}
	}
	return true
}

// heyabEmptyRun sends the run of a log whose header has no rows.
func heyabEmptyRun(opts Options, sink Sink, tool, note string) error {
	run := results.RunWithPercentiles{Run: results.Run{Tool: tool, LoadModel: results.LoadClosed, SourceLine: 1,
		Notes: results.Ptr(note)}, Percentiles: []results.Percentile{}}
	lab := labeler{labels: opts.Labels}
	fillCommon(&run, opts, 0, &lab)
	return sink.Run(run)
}

// heyabReorderCap bounds the requests a run's reorder buffer holds (24
// bytes each: 24 MiB at most).
const heyabReorderCap = 1 << 20

// heyabPending is a buffered request.
type heyabPending struct {
	start  int64
	ms     float64
	status int32
	line   int32
}

// heyabRunBuf hands the requests of one run to the aggregator earliest
// start first. The aggregator measures t_s (samples and series windows)
// from the first request it is given, and these logs are not in start
// order (hey -o csv: completion order; ab -g: sorted by latency, so its
// first row may have started seconds after the run's start): the first
// heyabReorderCap requests are held, then the earliest is added, then the
// others in file order, then any further ones as they come.
type heyabRunBuf struct {
	a    *Requests
	key  string
	meta RequestRun
	buf  []heyabPending
	h    int // the run's handle once flushed, else -1
}

func newHeyabRunBuf(a *Requests, key string, meta RequestRun) *heyabRunBuf {
	return &heyabRunBuf{a: a, key: key, meta: meta, h: -1}
}

// add takes one request of the run.
func (b *heyabRunBuf) add(line int, req Request) error {
	if b.h >= 0 {
		return b.a.Add(b.h, line, req)
	}
	b.buf = append(b.buf, heyabPending{start: req.Start, ms: req.LatencyMs, status: req.Status, line: int32(min(line, math.MaxInt32))})
	if len(b.buf) >= heyabReorderCap {
		return b.flush(true)
	}
	return nil
}

// flush passes the held requests on; capped says more may follow.
func (b *heyabRunBuf) flush(capped bool) error {
	if b.h >= 0 || len(b.buf) == 0 {
		return nil
	}
	meta := b.meta
	if capped {
		meta.Notes = append(slices.Clip(meta.Notes), fmt.Sprintf(
			"more than %d requests: t_s counts from the earliest of the first %d, later rows may have started before it", heyabReorderCap, heyabReorderCap))
	}
	b.h = b.a.Run(b.key, meta)
	first := 0
	for i, p := range b.buf {
		if p.start < b.buf[first].start {
			first = i
		}
	}
	add := func(p heyabPending) error {
		return b.a.Add(b.h, int(p.line), Request{Start: p.start, LatencyMs: p.ms, Status: p.status})
	}
	if err := add(b.buf[first]); err != nil {
		return err
	}
	for i, p := range b.buf {
		if i != first {
			if err := add(p); err != nil {
				return err
			}
		}
	}
	b.buf = nil
	return nil
}

// Parse streams the requests of r to sink: one run per header.
func (heyCSVParser) Parse(ctx context.Context, r io.Reader, opts Options, sink Sink) error {
	return parseHeaderedLog(ctx, r, opts, sink, headeredLog{
		format: "hey-csv", what: "hey -o csv", header: heyCSVHeader, sep: ",",
		meta: RequestRun{Tool: "hey", LoadModel: results.LoadClosed, Notes: []string{
			"hey -o csv lists only requests that got a response (transport errors are left out) and neither the target nor the concurrency"}},
		row:   heyRow,
		empty: "hey -o csv lists no request: none got a response (hey lists only those)",
	})
}

// headeredLog describes a per-request log made of a header line and rows
// (hey -o csv, ab -g); each header starts a run, so appended files give
// several runs.
type headeredLog struct {
	format string // the parser's name, for NoOutputError
	what   string // the log in words, for messages
	header string
	sep    string
	meta   RequestRun
	row    func(rec []string) (Request, string)
	empty  string // note of the run emitted when the log has no request
}

// parseHeaderedLog streams the rows of r (separated by l.sep, never
// quoted) into runs, one per header.
func parseHeaderedLog(ctx context.Context, r io.Reader, opts Options, sink Sink, l headeredLog) error {
	a := NewRequests(opts, sink)
	recs := newUnquotedRecords(ctx, r, opts.Source, rune(l.sep[0]))
	headers := 0
	var run *heyabRunBuf
	for {
		rec, err := recs.next()
		if err == io.EOF {
			break
		}
		line := recs.line
		var pe *csv.ParseError
		if err != nil && !errors.As(err, &pe) {
			return err
		}
		a.Record(recs.size)
		if pe != nil {
			a.Bad(line, pe.Err.Error())
			continue
		}
		if heyabIsHeader(rec, l.header, l.sep) {
			if run != nil {
				if err := run.flush(false); err != nil {
					return err
				}
			}
			headers++
			run = newHeyabRunBuf(a, strconv.Itoa(headers), l.meta)
			a.Good()
			continue
		}
		if headers == 0 {
			a.Bad(line, "row before the "+l.what+" header")
			continue
		}
		req, bad := l.row(rec)
		if bad != "" {
			a.Bad(line, bad)
			continue
		}
		if err := run.add(line, req); err != nil {
			return err
		}
	}
	if run != nil {
		if err := run.flush(false); err != nil {
			return err
		}
	}
	a.InputSize(recs.offset())
	if headers == 0 {
		return &NoOutputError{File: opts.Source, LookedFor: []string{l.format}}
	}
	if a.Runs() == 0 {
		if err := a.Close(); err != nil {
			return err
		}
		return heyabEmptyRun(opts, sink, l.meta.Tool, l.empty)
	}
	return a.Close()
}

// heyRow parses a row of hey -o csv; bad says what is wrong with it.
func heyRow(rec []string) (req Request, bad string) {
	if len(rec) != 8 {
		return req, fmt.Sprintf("%d fields, want 8", len(rec))
	}
	for i := 1; i <= 5; i++ {
		if _, ok := parseDec([]byte(strings.TrimSpace(rec[i])), 0); !ok {
			return req, fmt.Sprintf("field %d: %q is not a number of seconds", i+1, rec[i])
		}
	}
	ms, ok := parseDec([]byte(strings.TrimSpace(rec[0])), 3)
	if !ok {
		return req, fmt.Sprintf("response-time %q is not a number of seconds", rec[0])
	}
	code, ok := parseUint([]byte(strings.TrimSpace(rec[6])))
	if !ok || code > 999 {
		return req, fmt.Sprintf("status-code %q", rec[6])
	}
	ns, ok := parseDec([]byte(strings.TrimSpace(rec[7])), 9)
	start, ok2 := toInt64(ns)
	if !ok || !ok2 {
		return req, fmt.Sprintf("offset %q is not a number of seconds", rec[7])
	}
	return Request{Start: start, LatencyMs: ms, Status: int32(code)}, ""
}
