package k6

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// The k6-json parser reads the per-sample stream of `k6 run --out
// json=FILE` (NDJSON, optionally gzipped by k6 itself). Each
// http_req_duration point is a request, started at its time less its
// value (k6 stamps the end); runs are grouped by scenario, method and name
// tag. The layout and how the figures are derived: docs/FORMATS.md,
// section ingest/k6/k6_json.go.
type NDJSONParser struct{}

// Name returns "k6-json".
func (NDJSONParser) Name() string { return "k6-json" }

// jsonEnvelope is the part of a line that tells its kind.
type jsonEnvelope struct {
	Type   string `json:"type"`
	Metric string `json:"metric"`
}

// jsonPoint is a sample line.
type jsonPoint struct {
	Type   string `json:"type"`
	Metric string `json:"metric"`
	Data   struct {
		Time  string         `json:"time"`
		Value *float64       `json:"value"`
		Tags  map[string]any `json:"tags"`
	} `json:"data"`
}

// ndjsonLine reports whether b is a line of k6's JSON output: an object
// with "type" Metric or Point and a "metric" name.
func ndjsonLine(b []byte) bool {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '{' || !bytes.Contains(b, []byte(`"metric"`)) {
		return false
	}
	var e jsonEnvelope
	if json.Unmarshal(b, &e) != nil {
		return false
	}
	return (e.Type == "Point" || e.Type == "Metric") && e.Metric != ""
}

// Detect reports whether head is k6 JSON output: its first non-empty lines
// (up to 5, the last one only when complete) are all k6 metric or point
// lines.
func (NDJSONParser) Detect(head []byte) bool {
	n := 0
	for len(head) > 0 && n < 5 {
		var line []byte
		complete := true
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			line, head, complete = head, nil, false
		}
		line = bytes.TrimSpace(line)
		if n == 0 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if len(line) == 0 {
			continue
		}
		if !ndjsonLine(line) {
			if !complete && n > 0 {
				break // cut off by the head's end
			}
			return false
		}
		n++
	}
	return n > 0
}

// completer completes the runs of a per-request k6 log when the log has
// been read: connections from vus_max and a note for every run.
type completer struct {
	core.Sink
	vusMax, vus float64
	note        string
}

// Run completes r and passes it on.
func (e *completer) Run(r results.RunWithPercentiles) error {
	c := e.vusMax
	if c < 1 {
		c = e.vus
	}
	if r.Connections == nil && c >= 1 && c < math.MaxInt32 {
		r.Connections = results.Ptr(int32(c))
	}
	if e.note != "" {
		if r.Notes != nil {
			r.Notes = results.Ptr(*r.Notes + "; " + e.note)
		} else {
			r.Notes = results.Ptr(e.note)
		}
	}
	return e.Sink.Run(r)
}

// k6ModelNote explains the load model of per-request k6 logs.
const k6ModelNote = "executor not recorded in k6's per-sample output: closed model assumed (arrival-rate scenarios are open)"

// req is a request read from a k6 sample line or CSV row.
type req struct {
	endNs                       int64
	ms                          float64
	method, name, url, scenario string
	status, err, code, expected string
}

// tag returns tags[k] as a string.
func tag(tags map[string]any, k string) string {
	switch v := tags[k].(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// add passes a request to the aggregator, or counts its line as bad.
func (q *req) add(a *requests.Requests, ln int) error {
	if !core.Finite(q.ms) || q.ms > 1e12 {
		a.Bad(ln, fmt.Sprintf("http_req_duration %v", q.ms))
		return nil
	}
	key := q.scenario + "\x00" + q.method + " " + q.name
	target := q.name
	if !strings.Contains(target, "://") {
		target = q.url
	}
	meta := requests.RequestRun{Tool: "k6", LoadModel: results.LoadClosed, Target: target, UnixTime: true, Endpoint: core.EndpointOf(q.method, q.name)}
	if q.scenario != "" {
		meta.Notes = append(meta.Notes, "k6 scenario "+q.scenario)
	}
	if q.name != "" && q.name != q.url && q.url != "" {
		meta.Notes = append(meta.Notes, "requests grouped by the name tag "+q.method+" "+q.name)
	}
	h := a.Run(key, meta)
	var status int32
	if n, err := strconv.Atoi(q.status); err == nil && n >= 0 && n <= 999 {
		status = int32(n)
	}
	msg := q.err
	if msg == "" && q.code != "" {
		msg = "error_code " + q.code
	}
	if msg == "" && q.expected == "false" && status >= 200 && status < 400 {
		msg = "unexpected response (expected_response=false)"
	}
	return a.Add(h, ln, requests.Request{Start: q.endNs - int64(q.ms*1e6), LatencyMs: q.ms, Status: status, Error: msg})
}

// Parse streams the requests of a k6 JSON output to sink.
func (NDJSONParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	extra := &completer{Sink: sink, note: k6ModelNote}
	a := requests.NewRequests(opts, extra)
	lr := core.NewLineReader(r)
	for {
		if err := core.CheckCtx(ctx, lr.Line); err != nil {
			return err
		}
		b, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return core.ReadError(opts.Source, err)
		}
		a.Record(lr.Size)
		if lr.Long {
			a.Bad(lr.Line, fmt.Sprintf("line longer than %d bytes", core.MaxLine))
			continue
		}
		b = bytes.TrimSpace(b)
		if lr.Line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		if len(b) == 0 {
			continue
		}
		if err := jsonLine(a, extra, b, lr.Line); err != nil {
			return err
		}
	}
	// a log without http_req_duration points (a test that made no HTTP
	// requests) has no runs: not an error.
	a.InputSize(lr.Total)
	return a.Close()
}

// jsonLine handles one line of k6 JSON output.
func jsonLine(a *requests.Requests, extra *completer, b []byte, ln int) error {
	if !bytes.Contains(b, []byte(`"http_req_duration"`)) && !bytes.Contains(b, []byte(`"vus`)) {
		// Most lines: other metrics. Check them cheaply.
		if b[0] == '{' && json.Valid(b) && bytes.Contains(b, []byte(`"type"`)) {
			a.Good()
		} else {
			a.Bad(ln, "not a k6 JSON line")
		}
		return nil
	}
	var p jsonPoint
	if err := json.Unmarshal(b, &p); err != nil {
		a.Bad(ln, "invalid JSON")
		return nil
	}
	switch p.Type {
	case "Metric":
		a.Good()
		return nil
	case "Point":
	default:
		a.Bad(ln, "not a k6 JSON line")
		return nil
	}
	if p.Data.Value == nil {
		a.Bad(ln, "point without value")
		return nil
	}
	v := *p.Data.Value
	switch p.Metric {
	case "vus_max":
		extra.vusMax = math.Max(extra.vusMax, v)
		a.Good()
		return nil
	case "vus":
		extra.vus = math.Max(extra.vus, v)
		a.Good()
		return nil
	case "http_req_duration":
	default:
		a.Good()
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, p.Data.Time)
	if err != nil || t.Year() < 1970 || t.Year() > 2200 {
		a.Bad(ln, "time "+strconv.Quote(p.Data.Time))
		return nil
	}
	tags := p.Data.Tags
	q := req{endNs: t.UnixNano(), ms: v, method: tag(tags, "method"), name: tag(tags, "name"), url: tag(tags, "url"),
		scenario: tag(tags, "scenario"), status: tag(tags, "status"), err: tag(tags, "error"),
		code: tag(tags, "error_code"), expected: tag(tags, "expected_response")}
	if q.name == "" {
		q.name = q.url
	}
	return q.add(a, ln)
}
