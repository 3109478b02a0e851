package ab

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// The ab-csv parser reads the percentages file of `ab -e FILE`:
//
//	Percentage served,Time in ms
//	0,0.172
//	...
//	100,4.512
//
// 101 rows: the latency (ms, three decimals) under which each percentage
// of the requests was served. The file holds no request count, duration
// or target: a run with only percentiles (requests 0, noted), named after
// its file. Each header starts a run (appended files).
type CSVParser struct{}

// abCSVHeader is the header line of `ab -e`.
const abCSVHeader = "Percentage served,Time in ms"

// Name returns "ab-csv".
func (CSVParser) Name() string { return "ab-csv" }

// Detect reports whether head starts with ab -e's header followed, if
// anything follows, by its first row ("0,<ms>").
func (CSVParser) Detect(head []byte) bool {
	l := core.HeadNonBlank(head, 2)
	if len(l) == 0 || string(l[0]) != abCSVHeader {
		return false
	}
	return len(l) == 1 || strings.HasPrefix(string(l[1]), "0,")
}

// csvRun is one run of an ab -e file.
type csvRun struct {
	line  int
	pcts  []results.Percentile
	lastP int64
}

// Parse sends one run per header of r to sink.
func (CSVParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	recs := core.NewUnquotedRecords(ctx, r, opts.Source, ',')
	x := &csvFile{opts: opts, sink: sink, lab: core.Labeler{Labels: opts.Labels}}
	for {
		rec, err := recs.Next()
		if err == io.EOF {
			break
		}
		line := recs.Line
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return &core.SyntaxError{File: opts.Source, Line: line, Msg: "ab -e: " + pe.Err.Error()}
		}
		if err != nil {
			return err
		}
		if err := x.record(rec, line); err != nil {
			return err
		}
	}
	if x.cur == nil && x.index == 0 {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"ab-csv"}}
	}
	return x.emit()
}

// csvFile is an ab -e file being read: the run of the last header.
type csvFile struct {
	opts  core.Options
	sink  core.Sink
	lab   core.Labeler
	index int
	cur   *csvRun
}

// record reads a header, which starts a run, or a row of its run.
func (x *csvFile) record(rec []string, line int) error {
	src := x.opts.Source
	if requests.IsHeaderRow(rec, abCSVHeader, ",") {
		if err := x.emit(); err != nil {
			return err
		}
		x.cur = &csvRun{line: line, lastP: -1}
		return nil
	}
	if x.cur == nil {
		return &core.SyntaxError{File: src, Line: line, Msg: "row before the ab -e header (Percentage served,Time in ms)"}
	}
	if len(rec) != 2 {
		return &core.SyntaxError{File: src, Line: line, Msg: fmt.Sprintf("ab -e: %d fields, want 2", len(rec))}
	}
	p, ok1 := core.ParseUint([]byte(strings.TrimSpace(rec[0])))
	ms, ok2 := core.ParseDec([]byte(strings.TrimSpace(rec[1])), 0)
	if !ok1 || !ok2 || !core.Finite(ms) || p > 100 || p <= x.cur.lastP {
		return &core.SyntaxError{File: src, Line: line, Msg: "ab -e: malformed row " + strconv.Quote(strings.Join(rec, ","))}
	}
	x.cur.lastP = p
	x.cur.pcts = append(x.cur.pcts, results.Percentile{Quantile: float64(p) / 100, LatencyMs: ms})
	return nil
}

// emit sends the current run, if any.
func (x *csvFile) emit() error {
	cur := x.cur
	if cur == nil {
		return nil
	}
	run := results.RunWithPercentiles{Run: results.Run{Tool: "ab", LoadModel: results.LoadClosed, SourceLine: int32(cur.line),
		Notes: results.Ptr("ab -e holds only the latency percentiles: requests, duration and rps not known (0)")},
		Percentiles: cur.pcts}
	if len(cur.pcts) == 0 {
		run.Notes = results.Ptr("ab -e file without rows: no request completed")
		run.Percentiles = []results.Percentile{}
	}
	for _, p := range cur.pcts {
		v := results.Ptr(p.LatencyMs)
		switch p.Quantile {
		case 0:
			run.LatMinMs = v
		case 0.5:
			run.LatP50Ms = v
		case 0.9:
			run.LatP90Ms = v
		case 0.99:
			run.LatP99Ms = v
		case 1:
			run.LatMaxMs = v
		}
	}
	core.FillCommon(&run, x.opts, x.index, &x.lab)
	x.index++
	x.cur = nil
	return x.sink.Run(run)
}
