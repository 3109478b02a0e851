package requests

// Per-request logs made of a header line and unquoted rows, shared by the
// hey-csv and ab-gnuplot formats: each header starts a run (appended
// files give several), rows go to the aggregator earliest start first.

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// IsHeaderRow reports whether rec is the header line (h split at sep),
// ignoring a byte order mark and surrounding blanks.
func IsHeaderRow(rec []string, h string, sep string) bool {
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

// emptyLogRun sends the run of a log whose header has no rows.
func emptyLogRun(opts core.Options, sink core.Sink, tool, note string) error {
	run := results.RunWithPercentiles{Run: results.Run{Tool: tool, LoadModel: results.LoadClosed, SourceLine: 1,
		Notes: results.Ptr(note)}, Percentiles: []results.Percentile{}}
	lab := core.Labeler{Labels: opts.Labels}
	core.FillCommon(&run, opts, 0, &lab)
	return sink.Run(run)
}

// reorderCap bounds the requests a run's reorder buffer holds (24
// bytes each: 24 MiB at most).
const reorderCap = 1 << 20

// pendingRequest is a buffered request.
type pendingRequest struct {
	start  int64
	ms     float64
	status int32
	line   int32
}

// reorderBuf hands the requests of one run to the aggregator earliest
// start first. The aggregator measures t_s (samples and series windows)
// from the first request it is given, and these logs are not in start
// order (hey -o csv: completion order; ab -g: sorted by latency, so its
// first row may have started seconds after the run's start): the first
// reorderCap requests are held, then the earliest is added, then the
// others in file order, then any further ones as they come.
type reorderBuf struct {
	a    *Requests
	key  string
	meta RequestRun
	buf  []pendingRequest
	h    int // the run's handle once flushed, else -1
}

func newReorderBuf(a *Requests, key string, meta RequestRun) *reorderBuf {
	return &reorderBuf{a: a, key: key, meta: meta, h: -1}
}

// add takes one request of the run.
func (b *reorderBuf) add(line int, req Request) error {
	if b.h >= 0 {
		return b.a.Add(b.h, line, req)
	}
	b.buf = append(b.buf, pendingRequest{start: req.Start, ms: req.LatencyMs, status: req.Status, line: int32(min(line, math.MaxInt32))})
	if len(b.buf) >= reorderCap {
		return b.flush(true)
	}
	return nil
}

// flush passes the held requests on; capped says more may follow.
func (b *reorderBuf) flush(capped bool) error {
	if b.h >= 0 || len(b.buf) == 0 {
		return nil
	}
	meta := b.meta
	if capped {
		meta.Notes = append(slices.Clip(meta.Notes), fmt.Sprintf(
			"more than %d requests: t_s counts from the earliest of the first %d, later rows may have started before it", reorderCap, reorderCap))
	}
	b.h = b.a.Run(b.key, meta)
	first := 0
	for i, p := range b.buf {
		if p.start < b.buf[first].start {
			first = i
		}
	}
	add := func(p pendingRequest) error {
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

// HeaderedLog describes a per-request log made of a header line and rows
// (hey -o csv, ab -g); each header starts a run, so appended files give
// several runs.
type HeaderedLog struct {
	Format string // the parser's name, for NoOutputError
	What   string // the log in words, for messages
	Header string
	Sep    string
	Meta   RequestRun
	Row    func(rec []string) (Request, string)
	Empty  string // note of the run emitted when the log has no request
}

// ParseHeaderedLog streams the rows of r (separated by l.sep, never
// quoted) into runs, one per header.
func ParseHeaderedLog(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink, l HeaderedLog) error {
	a := NewRequests(opts, sink)
	recs := core.NewUnquotedRecords(ctx, r, opts.Source, rune(l.Sep[0]))
	headers := 0
	var run *reorderBuf
	for {
		rec, err := recs.Next()
		if err == io.EOF {
			break
		}
		line := recs.Line
		var pe *csv.ParseError
		if err != nil && !errors.As(err, &pe) {
			return err
		}
		a.Record(recs.Size)
		if pe != nil {
			a.Bad(line, pe.Err.Error())
			continue
		}
		if IsHeaderRow(rec, l.Header, l.Sep) {
			if run != nil {
				if err := run.flush(false); err != nil {
					return err
				}
			}
			headers++
			run = newReorderBuf(a, strconv.Itoa(headers), l.Meta)
			a.Good()
			continue
		}
		if headers == 0 {
			a.Bad(line, "row before the "+l.What+" header")
			continue
		}
		req, bad := l.Row(rec)
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
	a.InputSize(recs.Offset())
	if headers == 0 {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{l.Format}}
	}
	if a.Runs() == 0 {
		if err := a.Close(); err != nil {
			return err
		}
		return emptyLogRun(opts, sink, l.Meta.Tool, l.Empty)
	}
	return a.Close()
}
