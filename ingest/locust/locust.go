package locust

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

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// Parsers for the CSV files of Locust (locustio/locust) `--csv PREFIX`, one
// format per file, detected by its header line: "locust" (PREFIX_stats.csv:
// the Aggregated row is the run), "locust-history"
// (PREFIX_stats_history.csv: series and a run) and "locust-failures" (the
// companion files, claimed so that a folder of Locust outputs parses, and
// giving no run). The files and their versions: docs/FORMATS.md, section
// ingest/locust/locust.go.

// locustColumns maps Locust's column names (all versions), lower-cased, to
// what they hold.
var locustColumns = map[string]string{
	"type":                        "type",
	"method":                      "type",
	"name":                        "name",
	"request count":               "count",
	"# requests":                  "count",
	"failure count":               "failures",
	"# failures":                  "failures",
	"median response time":        "median",
	"average response time":       "avg",
	"min response time":           "min",
	"max response time":           "max",
	"average content size":        "size",
	"requests/s":                  "rps",
	"failures/s":                  "fps",
	"requests failed/s":           "fps",
	"timestamp":                   "timestamp",
	"user count":                  "users",
	"total request count":         "total count",
	"total failure count":         "total failures",
	"total median response time":  "total median",
	"total average response time": "total avg",
	"total min response time":     "total min",
	"total max response time":     "total max",
	"total average content size":  "total size",
	"error":                       "error",
	"occurrences":                 "occurrences",
	"count":                       "ecount",
	"message":                     "message",
	"traceback":                   "traceback",
	"nodes":                       "nodes",
}

// header is a parsed Locust CSV header.
type header struct {
	col  map[string]int  // role -> column
	pcts map[int]float64 // column -> quantile of "NN%" columns
	qs   []percentile    // the percentile columns in order
}

type percentile struct {
	col int
	q   float64
}

// parseLocustHeader maps a header record; unknown columns are ignored.
func parseLocustHeader(rec []string) header {
	h := header{col: map[string]int{}, pcts: map[int]float64{}}
	for i, c := range rec {
		if i == 0 {
			c = strings.TrimPrefix(c, "\ufeff")
		}
		c = strings.ToLower(strings.TrimSpace(c))
		if role, ok := locustColumns[c]; ok {
			if _, dup := h.col[role]; !dup {
				h.col[role] = i
			}
			continue
		}
		if p, ok := strings.CutSuffix(c, "%"); ok {
			if q, ok := core.ParseDec([]byte(p), -2); ok && q <= 1 {
				h.pcts[i] = q
				h.qs = append(h.qs, percentile{i, q})
			}
		}
	}
	return h
}

func (h header) has(roles ...string) bool {
	for _, r := range roles {
		if _, ok := h.col[r]; !ok {
			return false
		}
	}
	return true
}

// headHeader parses the first line of head as a Locust header.
func headHeader(head []byte) (header, bool) {
	line := bytes.TrimRight(core.FirstLine(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))), "\r")
	if len(line) == 0 || len(line) > 4096 || !bytes.Contains(line, []byte(",")) {
		return header{}, false
	}
	cr := csv.NewReader(bytes.NewReader(line))
	cr.FieldsPerRecord = -1
	rec, err := cr.Read()
	if err != nil {
		return header{}, false
	}
	return parseLocustHeader(rec), true
}

// statsHeader reports whether h is the header of a stats (or
// requests) file.
func statsHeader(h header) bool {
	_, ts := h.col["timestamp"]
	return !ts && h.has("type", "name", "count", "failures", "median", "avg", "min", "max", "rps")
}

// historyHeader reports whether h is the header of a stats history.
func historyHeader(h header) bool {
	if !h.has("timestamp", "name", "rps") {
		return false
	}
	return h.has("total count", "total failures") || h.has("count", "failures")
}

// statsRow reads the fields of a record by role.
type statsRow struct {
	h   header
	rec []string
}

func (r statsRow) str(role string) string {
	if i, ok := r.h.col[role]; ok && i < len(r.rec) {
		return strings.TrimSpace(r.rec[i])
	}
	return ""
}

// num returns a number field; "N/A" and empty fields are not numbers.
func (r statsRow) num(role string) (float64, bool) {
	s := r.str(role)
	if s == "" || s == "N/A" {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !core.Finite(v) {
		return 0, false
	}
	return v, true
}

func (r statsRow) count(role string) (int64, bool) {
	v, ok := r.num(role)
	if !ok || v != math.Trunc(v) {
		return 0, false
	}
	return core.ToInt64(v)
}

// percentiles returns the "NN%" columns that hold numbers.
func (r statsRow) percentiles() []results.Percentile {
	var out []results.Percentile
	for _, p := range r.h.qs {
		if p.col >= len(r.rec) {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(r.rec[p.col]), 64)
		if err != nil || !core.Finite(v) {
			continue
		}
		out = append(out, results.Percentile{Quantile: p.q, LatencyMs: v})
	}
	return out
}

// aggregated reports whether the row is the run's total: "Aggregated"
// (Locust >= 0.14) or "Total" with type "None" or empty (older).
func (r statsRow) aggregated() bool {
	name, typ := r.str("name"), r.str("type")
	return name == "Aggregated" && (typ == "" || typ == "None") || name == "Total" && (typ == "None" || typ == "")
}

// pctColumns copies a percentile list into the run's columns; min
// and max are the 0 and 1 quantiles (rather than the rounded "100%").
func pctColumns(run *results.RunWithPercentiles, pcts []results.Percentile) {
	pts := map[float64]float64{}
	for _, p := range pcts {
		pts[p.Quantile] = p.LatencyMs
	}
	// Locust rounds percentiles to two significant digits; its min and max
	// are exact.
	if run.LatMinMs != nil {
		pts[0] = *run.LatMinMs
	}
	if run.LatMaxMs != nil {
		pts[1] = *run.LatMaxMs
	}
	qs := make([]float64, 0, len(pts))
	for q := range pts {
		qs = append(qs, q)
	}
	slices.Sort(qs)
	run.Percentiles = make([]results.Percentile, 0, len(qs))
	for _, q := range qs {
		run.Percentiles = append(run.Percentiles, results.Percentile{Quantile: q, LatencyMs: pts[q]})
	}
	for _, c := range []struct {
		q   float64
		dst **float64
	}{{0.5, &run.LatP50Ms}, {0.9, &run.LatP90Ms}, {0.99, &run.LatP99Ms}, {0.999, &run.LatP999Ms}} {
		if v, ok := pts[c.q]; ok {
			*c.dst = results.Ptr(v)
		}
	}
}

type Parser struct{}

// Name returns "locust".
func (Parser) Name() string { return "locust" }

// Detect reports whether head starts with the header of a Locust stats
// file (PREFIX_stats.csv, or PREFIX_requests.csv of Locust < 0.14).
func (Parser) Detect(head []byte) bool {
	h, ok := headHeader(head)
	return ok && statsHeader(h)
}

// maxLocustEndpoints bounds the endpoints listed in a run's notes.
const maxLocustEndpoints = 20

// Parse reads a Locust stats file and sends its run to sink.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	recs := core.NewCSVRecords(ctx, r, opts.Source, ',', core.CSVMaxRecord)
	var h header
	var run *results.RunWithPercentiles
	var endpoints []string
	extra := 0
	for {
		rec, err := recs.Next()
		line := recs.Line
		if err == io.EOF {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return &core.SyntaxError{File: opts.Source, Line: line, Msg: "Locust stats CSV: " + pe.Err.Error()}
		}
		if err != nil {
			return err
		}
		if h.col == nil {
			h = parseLocustHeader(rec)
			if !statsHeader(h) {
				return &core.SyntaxError{File: opts.Source, Line: line, Msg: "not a Locust stats header"}
			}
			continue
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		row := statsRow{h: h, rec: rec}
		if row.aggregated() {
			if run != nil {
				return &core.SyntaxError{File: opts.Source, Line: line, Msg: "second Aggregated row"}
			}
			rr, err := statsRun(row, line, opts)
			if err != nil {
				return err
			}
			run = &rr
			continue
		}
		c, ok := row.count("count")
		if !ok {
			return &core.SyntaxError{File: opts.Source, Line: line, Msg: fmt.Sprintf("request count %q", row.str("count"))}
		}
		if len(endpoints) < maxLocustEndpoints {
			endpoints = append(endpoints, endpoint(row, c))
		} else {
			extra++
		}
	}
	if h.col == nil {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"locust"}}
	}
	if run == nil {
		return &core.SyntaxError{File: opts.Source, Msg: "Locust stats without an Aggregated (or Total) row"}
	}
	var notes []string
	if run.Notes != nil {
		notes = append(notes, *run.Notes)
	}
	if len(endpoints) > 0 {
		s := "endpoints: " + strings.Join(endpoints, ", ")
		if extra > 0 {
			s += fmt.Sprintf(" and %d more", extra)
		}
		notes = append(notes, s)
	}
	notes = append(notes, "Locust users (closed model); the stats file records neither the user count nor the host")
	run.Notes = results.Ptr(strings.Join(notes, "; "))
	lab := core.Labeler{Labels: opts.Labels}
	core.FillCommon(run, opts, 0, &lab)
	return sink.Run(*run)
}

// endpoint describes an endpoint's row of c requests for the notes.
func endpoint(row statsRow, c int64) string {
	e := strings.TrimSpace(row.str("type") + " " + row.str("name"))
	desc := fmt.Sprintf("%s (n=%d", e, c)
	if f, ok := row.count("failures"); ok && f > 0 {
		desc += fmt.Sprintf(", %d failed", f)
	}
	if m, ok := row.num("median"); ok {
		desc += ", median " + strconv.FormatFloat(m, 'g', 6, 64) + " ms"
	}
	return desc + ")"
}

// statsRun builds the run from the Aggregated row.
func statsRun(row statsRow, line int, opts core.Options) (results.RunWithPercentiles, error) {
	run := results.RunWithPercentiles{Run: results.Run{Tool: "locust", LoadModel: results.LoadClosed, SourceLine: int32(line)}}
	c, ok1 := row.count("count")
	f, ok2 := row.count("failures")
	if !ok1 || !ok2 {
		return run, &core.SyntaxError{File: opts.Source, Line: line, Msg: fmt.Sprintf("Aggregated row: request count %q, failure count %q", row.str("count"), row.str("failures"))}
	}
	// Locust counts failed requests in Request Count too, except for
	// failures without a response time (old versions); "/does_not_exist"
	// with 0 requests and 56 failures in the 0.x docs is such a case.
	run.Requests, run.Errors = c, f
	if f > c {
		run.Requests = f
		run.Notes = results.Ptr(fmt.Sprintf("failures (%d) exceed requests (%d): requests set to the failures", f, c))
	}
	if v, ok := row.num("avg"); ok {
		run.LatMeanMs = results.Ptr(v)
	}
	if v, ok := row.num("min"); ok {
		run.LatMinMs = results.Ptr(v)
	}
	if v, ok := row.num("max"); ok {
		run.LatMaxMs = results.Ptr(v)
	}
	pcts := row.percentiles()
	if m, ok := row.num("median"); ok && !slices.ContainsFunc(pcts, func(p results.Percentile) bool { return p.Quantile == 0.5 }) {
		pcts = append(pcts, results.Percentile{Quantile: 0.5, LatencyMs: m})
	}
	if c == 0 {
		run.LatMinMs, run.LatMaxMs, run.LatMeanMs, pcts = nil, nil, nil, nil
	}
	pctColumns(&run, pcts)
	if rps, ok := row.num("rps"); ok && rps >= 0 {
		run.RPS = rps
		// Locust's total_rps is num_requests / (last request - start).
		if rps > 0 {
			run.DurationS = float64(c) / rps
		}
	}
	if size, ok := row.num("size"); ok && size >= 0 {
		if b, ok := core.ToInt64(size * float64(c)); ok {
			run.BytesIn = results.Ptr(b)
			if run.DurationS > 0 {
				run.TransferBPS = results.Ptr(float64(b) / run.DurationS)
			}
		}
	}
	return run, nil
}
