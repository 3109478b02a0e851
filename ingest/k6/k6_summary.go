package k6

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// The k6-summary parser reads the end-of-test summary k6 writes as JSON
// (--summary-export, or handleSummary's data object), one run per file.
// The file is decoded as a token stream: metrics other than the few read
// and root_group are skipped without being kept; a summary larger than
// k6SummaryMax is rejected. Which metric gives which figure:
// docs/FORMATS.md, section ingest/k6/k6_summary.go.
type SummaryParser struct{}

// Name returns "k6-summary".
func (SummaryParser) Name() string { return "k6-summary" }

// k6SummaryMax bounds the size of a summary JSON (they are a few kB to a
// few MB).
const k6SummaryMax = 64 << 20

// Detect reports whether head is a k6 summary JSON: an object with a
// "metrics" member holding http_req_duration or http_reqs, and either
// root_group, state.testRunDurationMs or trend statistics.
func (SummaryParser) Detect(head []byte) bool {
	s := bytes.TrimLeft(head, " \t\r\n\ufeff")
	s = bytes.TrimPrefix(s, []byte("\xef\xbb\xbf"))
	s = bytes.TrimLeft(s, " \t\r\n")
	if len(s) == 0 || s[0] != '{' {
		return false
	}
	if ndjsonLine(core.FirstLine(s)) {
		return false
	}
	if !bytes.Contains(s, []byte(`"metrics"`)) ||
		!(bytes.Contains(s, []byte(`"http_req_duration`)) || bytes.Contains(s, []byte(`"http_reqs"`))) {
		return false
	}
	return bytes.Contains(s, []byte(`"root_group"`)) || bytes.Contains(s, []byte(`"testRunDurationMs"`)) ||
		bytes.Contains(s, []byte(`"med"`)) || bytes.Contains(s, []byte(`"p(95)"`)) || bytes.Contains(s, []byte(`"p(90)"`))
}

// summaryMetric is one metric of the summary in either layout.
type summaryMetric struct {
	stats      map[string]float64
	thresholds []string // crossed ones
}

// summaryWanted reports whether the metric is read.
func summaryWanted(name string) bool {
	switch name {
	case "http_reqs", "http_req_duration", "http_req_failed", "data_received", "iterations",
		"vus_max", "vus", "checks", "dropped_iterations":
		return true
	}
	return strings.HasPrefix(name, "http_req_duration{")
}

// decodeK6SummaryMetric reads a metric object of either layout.
func decodeK6SummaryMetric(raw json.RawMessage) (summaryMetric, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return summaryMetric{}, err
	}
	m := summaryMetric{stats: map[string]float64{}}
	numbers := func(o map[string]json.RawMessage) {
		for k, v := range o {
			var f float64
			if json.Unmarshal(v, &f) == nil && core.Finite(f) {
				m.stats[k] = f
			}
		}
	}
	numbers(obj)
	if v, ok := obj["values"]; ok {
		var vals map[string]json.RawMessage
		if err := json.Unmarshal(v, &vals); err == nil {
			numbers(vals)
		}
	}
	if v, ok := obj["thresholds"]; ok {
		var th map[string]json.RawMessage
		if err := json.Unmarshal(v, &th); err == nil {
			for src, t := range th {
				var crossed bool
				var ok struct {
					OK *bool `json:"ok"`
				}
				if json.Unmarshal(t, &crossed) == nil {
					// --summary-export: true = crossed.
				} else if json.Unmarshal(t, &ok) == nil && ok.OK != nil {
					crossed = !*ok.OK
				}
				if crossed {
					m.thresholds = append(m.thresholds, src)
				}
			}
			slices.Sort(m.thresholds)
		}
	}
	return m, nil
}

// summary is what a summary JSON tells.
type summary struct {
	metrics    map[string]summaryMetric
	subs       []string
	durationMs float64
	hasDur     bool
}

// Parse reads the summary JSON in r and sends its run to sink.
func (SummaryParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	g := core.NewJSONGuard(io.LimitReader(r, k6SummaryMax+1), opts.Source, core.MaxJSONValue)
	cr := &countingReader{r: g}
	dec := json.NewDecoder(cr)
	g.Consumed = dec.InputOffset
	sum := summary{metrics: map[string]summaryMetric{}}
	fail := func(err error) error {
		if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
			err = errors.New("summary JSON cut off")
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return &core.SyntaxError{File: opts.Source, Line: cr.lineAt(se.Offset), Msg: "k6 summary JSON: " + se.Error()}
		}
		var re *readError
		if errors.As(err, &re) {
			return core.ReadError(opts.Source, re.err)
		}
		if cr.n > k6SummaryMax {
			return &core.SyntaxError{File: opts.Source, Msg: fmt.Sprintf("k6 summary JSON larger than %d MiB", k6SummaryMax>>20)}
		}
		return &core.SyntaxError{File: opts.Source, Line: cr.lineAt(dec.InputOffset()), Msg: "k6 summary JSON: " + err.Error()}
	}
	if err := expectDelim(dec, '{'); err != nil {
		return fail(err)
	}
	sawMetrics := false
	for dec.More() {
		key, err := stringToken(dec)
		if err != nil {
			return fail(err)
		}
		switch key {
		case "metrics":
			sawMetrics = true
			err = sum.readMetrics(dec)
		case "state":
			err = sum.readState(dec)
		default:
			err = skipValue(dec)
		}
		if err != nil {
			return fail(err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return fail(err)
	}
	if !sawMetrics {
		return &core.SyntaxError{File: opts.Source, Line: 1, Msg: "k6 summary JSON without metrics"}
	}
	_, hasDur := sum.metrics["http_req_duration"]
	_, hasReqs := sum.metrics["http_reqs"]
	if !hasDur && !hasReqs {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"k6-summary"}}
	}
	run := sum.build()
	lab := core.Labeler{Labels: opts.Labels}
	core.FillCommon(&run, opts, 0, &lab)
	return sink.Run(run)
}

// readMetrics reads the "metrics" object, keeping the metrics wanted;
// http_req_duration's sub-metrics become notes (and their thresholds).
func (sum *summary) readMetrics(dec *json.Decoder) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		name, err := stringToken(dec)
		if err != nil {
			return err
		}
		if !summaryWanted(name) {
			if err := skipValue(dec); err != nil {
				return err
			}
			continue
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		m, err := decodeK6SummaryMetric(raw)
		if err != nil {
			return fmt.Errorf("metric %s: %w", name, err)
		}
		if !strings.HasPrefix(name, "http_req_duration{") {
			sum.metrics[name] = m
			continue
		}
		if len(sum.subs) < 32 && name != "http_req_duration{expected_response:true}" {
			sum.subs = append(sum.subs, subNote(name, m))
		}
		if len(m.thresholds) > 0 {
			sum.metrics[name] = summaryMetric{thresholds: m.thresholds}
		}
	}
	_, err := dec.Token()
	return err
}

// readState reads the "state" object: the test run's duration.
func (sum *summary) readState(dec *json.Decoder) error {
	var state struct {
		TestRunDurationMs *float64 `json:"testRunDurationMs"`
	}
	if err := dec.Decode(&state); err != nil {
		return err
	}
	if state.TestRunDurationMs != nil && core.Finite(*state.TestRunDurationMs) {
		sum.durationMs, sum.hasDur = *state.TestRunDurationMs, true
	}
	return nil
}

// subNote describes a sub-metric of http_req_duration for the notes.
func subNote(name string, m summaryMetric) string {
	var parts []string
	if c, ok := m.stats["count"]; ok {
		parts = append(parts, "n="+formatFloat(c))
	}
	for _, k := range []string{"med", "p(95)", "p(99)"} {
		if v, ok := m.stats[k]; ok {
			parts = append(parts, k+" "+formatFloat(v)+" ms")
		}
	}
	return name + " (" + strings.Join(parts, ", ") + ")"
}

// build turns the summary into a run.
func (sum *summary) build() results.RunWithPercentiles {
	run := results.RunWithPercentiles{Run: results.Run{Tool: "k6", LoadModel: results.LoadClosed, SourceLine: 1}}
	run.Percentiles = []results.Percentile{}
	if m, ok := sum.metrics["http_req_duration"]; ok {
		var t trend
		for k, v := range m.stats {
			if k == "count" {
				continue
			}
			if v >= 0 {
				t.set(k, v)
			}
		}
		t.fill(&run)
	}
	notes := sum.traffic(&run)
	sum.transfer(&run)
	if vus, ok := sum.maxVUs(); ok && vus >= 1 && vus < math.MaxInt32 {
		run.Connections = results.Ptr(int32(vus))
	}
	notes = append(notes, sum.notes()...)
	notes = append(notes, "executor not recorded in the summary JSON: closed model assumed")
	run.Notes = results.Ptr(strings.Join(notes, "; "))
	return run
}

// get is a metric's statistic.
func (sum *summary) get(metric, stat string) (float64, bool) {
	v, ok := sum.metrics[metric].stats[stat]
	return v, ok
}

// traffic sets the requests, rate, errors and duration; the notes say how
// the errors were found.
func (sum *summary) traffic(run *results.RunWithPercentiles) (notes []string) {
	count, hasCount := sum.get("http_reqs", "count")
	if hasCount && count >= 0 {
		run.Requests, _ = core.ToInt64(count)
	} else if c, ok := sum.get("http_req_duration", "count"); ok && c >= 0 {
		run.Requests, _ = core.ToInt64(c)
	}
	if rate, ok := sum.get("http_reqs", "rate"); ok && rate >= 0 {
		run.RPS = rate
	}
	if p, ok := sum.get("http_req_failed", "passes"); ok && p >= 0 {
		run.Errors, _ = core.ToInt64(p)
	} else if rate, ok := rateValue(sum.metrics["http_req_failed"]); ok && rate >= 0 && rate <= 1 {
		run.Errors, _ = core.ToInt64(rate * float64(run.Requests))
		notes = append(notes, "errors computed from the http_req_failed rate")
	} else {
		notes = append(notes, "errors unknown: no http_req_failed metric")
	}
	switch {
	case sum.hasDur && sum.durationMs > 0:
		run.DurationS = sum.durationMs / 1000
	case run.RPS > 0 && count > 0:
		run.DurationS = count / run.RPS
	}
	if run.RPS == 0 && run.DurationS > 0 {
		run.RPS = float64(run.Requests) / run.DurationS
	}
	return notes
}

// transfer sets the bytes received and their rate.
func (sum *summary) transfer(run *results.RunWithPercentiles) {
	b, ok := sum.get("data_received", "count")
	if !ok {
		return
	}
	if n, ok := core.ToInt64(b); ok {
		run.BytesIn = results.Ptr(n)
	}
	if r, ok := sum.get("data_received", "rate"); ok && r >= 0 {
		run.TransferBPS = results.Ptr(r)
	}
}

// maxVUs is the most VUs: vus_max's max or value, else vus's max.
func (sum *summary) maxVUs() (float64, bool) {
	if v, ok := sum.get("vus_max", "max"); ok {
		return v, true
	}
	if v, ok := sum.get("vus_max", "value"); ok {
		return v, true
	}
	return sum.get("vus", "max")
}

// notes are the thresholds crossed (by metric name), the checks, the
// dropped iterations and the sub-metrics.
func (sum *summary) notes() []string {
	var notes []string
	names := make([]string, 0, len(sum.metrics))
	for name := range sum.metrics {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, th := range sum.metrics[name].thresholds {
			notes = append(notes, "threshold crossed: "+name+" "+th)
		}
	}
	if p, ok := sum.get("checks", "passes"); ok {
		f, _ := sum.get("checks", "fails")
		notes = append(notes, fmt.Sprintf("checks: %.0f of %.0f passed", p, p+f))
	}
	if d, ok := sum.get("dropped_iterations", "count"); ok && d > 0 {
		notes = append(notes, fmt.Sprintf("dropped_iterations: %.0f", d))
	}
	if len(sum.subs) > 0 {
		slices.Sort(sum.subs)
		notes = append(notes, "sub-metrics: "+strings.Join(sum.subs, ", "))
	}
	return notes
}

// rateValue returns a rate metric's fraction ("rate" in handleSummary
// data, "value" in --summary-export).
func rateValue(m summaryMetric) (float64, bool) {
	if v, ok := m.stats["rate"]; ok {
		return v, true
	}
	v, ok := m.stats["value"]
	return v, ok
}

// expectDelim reads the next token and checks it is the delimiter d.
func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if got, ok := tok.(json.Delim); !ok || got != d {
		return fmt.Errorf("expected %q, got %v", d, tok)
	}
	return nil
}

// skipValue reads the next value without keeping it.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth <= 0 {
			return nil
		}
	}
}

// stringToken reads an object key.
func stringToken(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	s, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("expected an object key, got %v", tok)
	}
	return s, nil
}

// countingReader counts the bytes and line ends read through it and keeps
// the offsets of the line ends (up to k6MaxLineMarks), so that a byte offset
// can be turned into a line number.
type countingReader struct {
	r     io.Reader
	n     int64
	marks []int64 // offsets of '\n'
}

// k6MaxLineMarks bounds the line-end offsets kept.
const k6MaxLineMarks = 1 << 20

// readError wraps an error of the underlying reader.
type readError struct{ err error }

// Error returns the underlying error's message.
func (e *readError) Error() string { return e.err.Error() }

// Read reads from the underlying reader.
func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] == '\n' && len(c.marks) < k6MaxLineMarks {
			c.marks = append(c.marks, c.n+int64(i))
		}
	}
	c.n += int64(n)
	if err != nil && err != io.EOF {
		return n, &readError{err}
	}
	return n, err
}

// lineAt returns the 1-based line of byte offset off.
func (c *countingReader) lineAt(off int64) int {
	i, _ := slices.BinarySearch(c.marks, off)
	return i + 1
}
