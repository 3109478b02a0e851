package k6

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
)

// The k6-csv parser reads the per-sample CSV of `k6 run --out csv=FILE`.
// The header starts with metric_name,timestamp,metric_value and goes on
// with the system tags, in three generations (layout: docs/FORMATS.md).
//
// Columns are found by name. Timestamps are Unix seconds, integers in
// older versions and with a fraction in newer ones; K6_CSV_TIME_FORMAT
// gives milliseconds (unix_milli), micro- or nanoseconds, or RFC 3339:
// the unit of a number is told from its integer digits (<= 11: s, 12-14:
// ms, 15-17: µs, more: ns). http_req_duration rows become requests as in
// the k6-json parser (same grouping by scenario, method and name tag, same
// status and error handling, start = timestamp - duration); other rows
// count as well-formed, vus_max/vus give the connections.
type CSVParser struct{}

// Name returns "k6-csv".
func (CSVParser) Name() string { return "k6-csv" }

// k6CSVHeader is the fixed start of k6's CSV header.
var k6CSVHeader = []byte("metric_name,timestamp,metric_value,")

// Detect reports whether head starts with k6's CSV header: metric_name,
// timestamp, metric_value and the method, name (or url) and status columns.
func (CSVParser) Detect(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if !bytes.HasPrefix(head, k6CSVHeader) {
		return false
	}
	h := bytes.TrimRight(core.FirstLine(head), "\r")
	cols := map[string]bool{}
	for _, c := range bytes.Split(h, []byte(",")) {
		cols[string(c)] = true
	}
	return cols["status"] && cols["method"] && (cols["url"] || cols["name"])
}

// unixTimestamp parses a timestamp into Unix nanoseconds: a number
// of seconds, milliseconds, micro- or nanoseconds (told by the number of
// integer digits) with an optional fraction, or an RFC 3339 time.
func unixTimestamp(s string) (int64, bool) {
	if strings.ContainsAny(s, "T-:") {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil || t.Year() < 1970 || t.Year() > 2200 {
			return 0, false
		}
		return t.UnixNano(), true
	}
	ip, frac, _ := strings.Cut(s, ".")
	if len(ip) == 0 || len(ip) > 19 {
		return 0, false
	}
	n, err := strconv.ParseInt(ip, 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	var unit int64
	switch d := len(strings.TrimLeft(ip, "0")); {
	case d <= 11:
		unit = 1e9
	case d <= 14:
		unit = 1e6
	case d <= 17:
		unit = 1e3
	default:
		unit = 1
	}
	if n > math.MaxInt64/unit {
		return 0, false
	}
	ns := n * unit
	if frac != "" {
		if len(frac) > 18 {
			frac = frac[:18]
		}
		f, err := strconv.ParseUint(frac, 10, 64)
		if err != nil {
			return 0, false
		}
		// frac / 10^len(frac) units, in ns.
		ns += int64(math.Round(float64(f) / math.Pow(10, float64(len(frac))) * float64(unit)))
	}
	if ns/1e9 > 7258118400 { // 2200-01-01
		return 0, false
	}
	return ns, true
}

// Parse streams the requests of a k6 CSV output to sink.
func (CSVParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	c := csvFile{extra: &completer{Sink: sink, note: k6ModelNote}, col: map[string]int{}}
	c.a = requests.NewRequests(opts, c.extra)
	recs := core.NewCSVRecords(ctx, r, opts.Source, ',', core.CSVMaxRecord)
	for {
		rec, err := recs.Next()
		line := recs.Line
		if err == io.EOF {
			break
		}
		c.a.Record(recs.Size)
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			c.a.Bad(line, pe.Err.Error())
			continue
		}
		if err != nil {
			return err
		}
		if len(c.col) == 0 {
			if !c.header(rec) {
				return &core.SyntaxError{File: opts.Source, Line: line, Msg: "not a k6 CSV header (metric_name,timestamp,metric_value,...)"}
			}
			continue
		}
		if err := c.record(rec, line); err != nil {
			return err
		}
	}
	if len(c.col) == 0 {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"k6-csv"}}
	}
	c.a.InputSize(recs.Offset())
	return c.a.Close()
}

// csvFile is a k6 CSV output being read: its columns by name.
type csvFile struct {
	a     *requests.Requests
	extra *completer
	col   map[string]int
}

// header reads the header's columns (the first of a name counts); false
// unless it starts metric_name,timestamp,metric_value.
func (c *csvFile) header(rec []string) bool {
	for i, name := range rec {
		if i == 0 {
			name = strings.TrimPrefix(name, "\ufeff")
		}
		if _, dup := c.col[name]; !dup {
			c.col[name] = i
		}
	}
	mi, ok1 := c.col["metric_name"]
	ti, ok2 := c.col["timestamp"]
	vi, ok3 := c.col["metric_value"]
	return ok1 && ok2 && ok3 && mi == 0 && ti == 1 && vi == 2
}

// field is the record's value of a named column, or "".
func (c *csvFile) field(rec []string, name string) string {
	if i, ok := c.col[name]; ok && i < len(rec) {
		return rec[i]
	}
	return ""
}

// record reads a sample: of http_req_duration a request, of vus and
// vus_max the most VUs; other metrics are skipped.
func (c *csvFile) record(rec []string, line int) error {
	if len(rec) < 3 {
		c.a.Bad(line, fmt.Sprintf("%d fields", len(rec)))
		return nil
	}
	metric := rec[0]
	if metric != "http_req_duration" && metric != "vus_max" && metric != "vus" {
		c.a.Good()
		return nil
	}
	v, err := strconv.ParseFloat(rec[2], 64)
	if err != nil {
		c.a.Bad(line, "metric_value "+strconv.Quote(rec[2]))
		return nil
	}
	switch metric {
	case "vus_max":
		c.extra.vusMax = math.Max(c.extra.vusMax, v)
		c.a.Good()
		return nil
	case "vus":
		c.extra.vus = math.Max(c.extra.vus, v)
		c.a.Good()
		return nil
	}
	ts, ok := unixTimestamp(rec[1])
	if !ok {
		c.a.Bad(line, "timestamp "+strconv.Quote(rec[1]))
		return nil
	}
	q := req{endNs: ts, ms: v, method: c.field(rec, "method"), name: c.field(rec, "name"), url: c.field(rec, "url"),
		scenario: c.field(rec, "scenario"), status: c.field(rec, "status"), err: c.field(rec, "error"), code: c.field(rec, "error_code"),
		expected: c.field(rec, "expected_response")}
	if q.name == "" {
		q.name = q.url
	}
	return q.add(c.a, line)
}
