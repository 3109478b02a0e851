package locust

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

type HistoryParser struct{}

// Name returns "locust-history".
func (HistoryParser) Name() string { return "locust-history" }

// Detect reports whether head starts with the header of a Locust stats
// history (PREFIX_stats_history.csv).
func (HistoryParser) Detect(head []byte) bool {
	h, ok := headHeader(head)
	return ok && historyHeader(h)
}

// histRow is what the history parser keeps of an Aggregated row.
type histRow struct {
	t                    float64 // Unix seconds
	count, failures      int64
	avg                  float64
	hasAvg               bool
	max                  float64
	hasMax               bool
	users                int64
	line                 int
	median, min          float64
	hasMedian, hasMin    bool
	size                 float64
	hasSize              bool
	pcts                 []results.Percentile
	rps                  float64
	hasRPS               bool
	currentPercentiles   bool
	percentilesFromTotal bool
}

// Parse streams a Locust stats history to sink: a series row per interval
// between Aggregated rows, then the run from the last Aggregated row.
// Malformed rows are skipped and noted; only the series' RunID is known
// before the run ends: results.RunID(Source, 0), the run's. How a window's
// and the run's figures are derived: docs/FORMATS.md, section
// ingest/locust/locust_history.go.
func (HistoryParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	recs := core.NewCSVRecords(ctx, r, opts.Source, ',', core.CSVMaxRecord)
	x := &history{opts: opts, sink: sink, runID: results.RunID(opts.Source, 0)}
	for {
		rec, err := recs.Next()
		line := recs.Line
		if err == io.EOF {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			x.skip(line, pe.Err.Error())
			continue
		}
		if err != nil {
			return err
		}
		if err := x.record(rec, line); err != nil {
			return err
		}
	}
	return x.finish()
}

// history is a stats history being read: its header, the first,
// latest and last Aggregated rows, the most users, and the malformed rows
// (the first maxBadLines quoted).
type history struct {
	opts               core.Options
	sink               core.Sink
	runID              string
	h                  header
	first, prev, last  *histRow
	maxUsers           int64
	hasUsers, full     bool
	bad, badLine, rows int
	badMsgs            []string
}

// skip counts a malformed row.
func (x *history) skip(line int, msg string) {
	x.bad++
	if x.badLine == 0 {
		x.badLine = line
	}
	if len(x.badMsgs) < requests.MaxBadLines {
		x.badMsgs = append(x.badMsgs, fmt.Sprintf("line %d: %s", line, msg))
	}
}

// record reads the header or a row; an Aggregated row after an earlier
// one ends a window, sent as a series row.
func (x *history) record(rec []string, line int) error {
	if x.h.col == nil {
		x.h = parseLocustHeader(rec)
		if !historyHeader(x.h) {
			return &core.SyntaxError{File: x.opts.Source, Line: line, Msg: "not a Locust stats history header"}
		}
		return nil
	}
	if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
		return nil
	}
	row := statsRow{h: x.h, rec: rec}
	x.rows++
	hr, msg := historyRow(row, line)
	if msg != "" {
		x.skip(line, msg)
		return nil
	}
	if u, ok := row.count("users"); ok && u >= 0 {
		x.maxUsers, x.hasUsers = max(x.maxUsers, u), true
	}
	if !row.aggregated() {
		x.full = true
		return nil
	}
	hr.currentPercentiles = x.full
	if x.first == nil {
		x.first = &hr
	}
	if x.prev != nil && hr.t > x.prev.t {
		if err := x.sink.Series(window(x.runID, x.first, x.prev, &hr)); err != nil {
			return err
		}
	}
	if x.prev == nil || hr.t > x.prev.t {
		cp := hr
		x.prev = &cp
	}
	x.last = &hr
	return nil
}

// finish sends the run, from the last Aggregated row, or tells why there
// is none.
func (x *history) finish() error {
	src := x.opts.Source
	if x.h.col == nil {
		return &core.NoOutputError{File: src, LookedFor: []string{"locust-history"}}
	}
	if x.last == nil {
		if x.bad > 0 {
			return &core.SyntaxError{File: src, Line: x.badLine, Msg: "no well-formed Aggregated row: " + strings.Join(x.badMsgs, "; ")}
		}
		return &core.SyntaxError{File: src, Msg: "Locust stats history without an Aggregated row"}
	}
	if x.bad > 0 && float64(x.bad) > requests.BadLimit*float64(x.rows+x.bad) {
		return &core.SyntaxError{File: src, Line: x.badLine, Msg: fmt.Sprintf("%d of %d rows malformed: %s", x.bad, x.rows+x.bad, strings.Join(x.badMsgs, "; "))}
	}
	run := historyRun(x.first, x.prev, x.last, x.full)
	if x.hasUsers && x.maxUsers >= 1 && x.maxUsers < math.MaxInt32 {
		run.Connections = results.Ptr(int32(x.maxUsers))
	}
	var notes []string
	if run.Notes != nil {
		notes = append(notes, *run.Notes)
	}
	if x.bad > 0 {
		notes = append(notes, fmt.Sprintf("%d malformed rows skipped (%s)", x.bad, strings.Join(x.badMsgs, "; ")))
	}
	if x.last.t < x.prev.t {
		notes = append(notes, "Aggregated rows out of time order: duration from the first row to the latest time stamp")
	}
	notes = append(notes, "Locust users (closed model); the history records no host")
	run.Notes = results.Ptr(strings.Join(notes, "; "))
	lab := core.Labeler{Labels: x.opts.Labels}
	core.FillCommon(&run, x.opts, 0, &lab)
	return x.sink.Run(run)
}

// historyRow reads a history row, or tells what is wrong with it.
func historyRow(row statsRow, line int) (histRow, string) {
	hr := histRow{line: line}
	t, ok := row.num("timestamp")
	if !ok || t < 0 || t > 7258118400 {
		return hr, fmt.Sprintf("timestamp %q", row.str("timestamp"))
	}
	hr.t = t
	countRole, failRole := "total count", "total failures"
	if _, ok := row.h.col[countRole]; !ok {
		countRole, failRole = "count", "failures"
	}
	c, ok1 := row.count(countRole)
	f, ok2 := row.count(failRole)
	if !ok1 || !ok2 || c < 0 || f < 0 {
		return hr, fmt.Sprintf("request count %q, failure count %q", row.str(countRole), row.str(failRole))
	}
	hr.count, hr.failures = c, f
	pick := func(total, plain string) (float64, bool) {
		if v, ok := row.num(total); ok {
			return v, true
		}
		if _, ok := row.h.col[total]; ok {
			return 0, false
		}
		return row.num(plain)
	}
	hr.avg, hr.hasAvg = pick("total avg", "avg")
	hr.max, hr.hasMax = pick("total max", "max")
	hr.min, hr.hasMin = pick("total min", "min")
	hr.median, hr.hasMedian = pick("total median", "median")
	hr.size, hr.hasSize = pick("total size", "size")
	hr.rps, hr.hasRPS = row.num("rps")
	if u, ok := row.count("users"); ok {
		hr.users = u
	}
	hr.pcts = row.percentiles()
	return hr, ""
}

// window builds the series row of the interval between two
// Aggregated rows.
func window(runID string, first, prev, cur *histRow) results.Series {
	s := results.Series{RunID: runID, TS: prev.t - first.t, WindowS: cur.t - prev.t}
	if d := cur.count - prev.count; d > 0 {
		s.Requests = d
	}
	if d := cur.failures - prev.failures; d > 0 {
		s.Errors = d
	}
	if cur.hasRPS && cur.rps >= 0 {
		s.RPS = cur.rps
	}
	if s.Requests > 0 && cur.hasAvg {
		pa := 0.0
		if prev.hasAvg {
			pa = prev.avg
		}
		m := (float64(cur.count)*cur.avg - float64(prev.count)*pa) / float64(s.Requests)
		if core.Finite(m) {
			s.LatMeanMs = results.Ptr(m)
		}
	}
	if cur.hasMax && (!prev.hasMax || cur.max > prev.max) && s.Requests > 0 {
		s.LatMaxMs = results.Ptr(cur.max)
	}
	if cur.currentPercentiles && s.Requests > 0 {
		for _, p := range cur.pcts {
			switch p.Quantile {
			case 0.5:
				s.LatP50Ms = results.Ptr(p.LatencyMs)
			case 0.99:
				s.LatP99Ms = results.Ptr(p.LatencyMs)
			}
		}
	}
	return s
}

// historyRun builds the run from the first and last Aggregated rows;
// its duration ends at latest, the row with the latest time stamp (the
// last one, unless time stamps go back).
func historyRun(first, latest, last *histRow, fullHistory bool) results.RunWithPercentiles {
	run := results.RunWithPercentiles{Run: results.Run{Tool: "locust", LoadModel: results.LoadClosed, SourceLine: int32(first.line),
		Requests: last.count, Errors: last.failures}}
	if first.t > 0 {
		sec, frac := math.Modf(first.t)
		t := time.Unix(int64(sec), int64(frac*1e9)).UTC()
		run.StartedAt = &t
	}
	run.DurationS = latest.t - first.t
	if run.DurationS > 0 {
		run.RPS = float64(last.count) / run.DurationS
	}
	if last.count > 0 {
		if last.hasAvg {
			run.LatMeanMs = results.Ptr(last.avg)
		}
		if last.hasMin {
			run.LatMinMs = results.Ptr(last.min)
		}
		if last.hasMax {
			run.LatMaxMs = results.Ptr(last.max)
		}
	}
	var pcts []results.Percentile
	if !fullHistory {
		pcts = last.pcts
	}
	if last.hasMedian && last.count > 0 && !slices.ContainsFunc(pcts, func(p results.Percentile) bool { return p.Quantile == 0.5 }) {
		pcts = append(pcts, results.Percentile{Quantile: 0.5, LatencyMs: last.median})
	}
	if last.count == 0 {
		pcts = nil
	}
	pctColumns(&run, pcts)
	if last.hasSize && last.size >= 0 {
		if b, ok := core.ToInt64(last.size * float64(last.count)); ok {
			run.BytesIn = results.Ptr(b)
			if run.DurationS > 0 {
				run.TransferBPS = results.Ptr(float64(b) / run.DurationS)
			}
		}
	}
	notes := []string{"run from the last Aggregated row of the history; duration = last - first timestamp, rps = requests / duration"}
	if fullHistory {
		notes = append(notes, "--csv-full-history: the percentile columns are Locust's current (~10 s) ones; series p50/p99 copied from them, run percentiles limited to the total median")
	} else {
		notes = append(notes, "series lat_p50/lat_p99 left null: without --csv-full-history Locust writes cumulative percentiles")
	}
	run.Notes = results.Ptr(strings.Join(notes, "; "))
	return run
}
