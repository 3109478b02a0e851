package artillery

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// The Artillery parsers read the results of `artillery run` (Artillery
// 2.x, and the 1.x console layout): "artillery" the console output,
// wherever it sits in a file, its periods as series; "artillery-json" the
// report of `artillery run --output FILE`. The layouts and which metrics
// give which figures: docs/FORMATS.md, section ingest/artillery/artillery.go.
type Parser struct{}

// Name returns "artillery".
func (Parser) Name() string { return "artillery" }

// metrics are the metrics of a period or of the whole test.
type metrics struct {
	counters  map[string]float64
	rates     map[string]float64
	summaries map[string]map[string]float64
}

func newArtilleryMetrics() metrics {
	return metrics{counters: map[string]float64{}, rates: map[string]float64{}, summaries: map[string]map[string]float64{}}
}

// stats returns the statistics of the summary name, adding it.
func (m metrics) stats(name string) map[string]float64 {
	stats := m.summaries[name]
	if stats == nil {
		stats = map[string]float64{}
		m.summaries[name] = stats
	}
	return stats
}

// period is a period block of the console.
type period struct {
	toS, widthS float64 // end (seconds of the day) and width
	m           metrics
}

// state is the console parser's state over one input.
type state struct {
	core.RunState
	block   int // 0 none, 1 period, 2 summary
	cur     metrics
	summary string // the summary metric nested lines belong to
	periods []period
	period  period
	start   int // line where the run's output starts
	sumLine int
	last    int
	totalS  float64
	cmd     string
	cmdLine int
	hasHTTP bool
	v1Sec   string // Artillery 1.x: the section nested lines belong to
	v1      bool   // the block is an Artillery 1.x report
	bad     string
	badLine int
	dropped int
}

// maxArtilleryPeriods bounds the periods kept for one run.
const maxArtilleryPeriods = 100_000

// Detect reports whether head holds an Artillery summary report with
// HTTP metrics.
func (Parser) Detect(head []byte) bool {
	st := &state{RunState: core.RunState{Detect: true}}
	core.ScanHead(head, st.line, func() bool { return st.Found })
	return st.Found
}

// Parse streams the Artillery runs of r to sink in input order.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &state{RunState: core.RunState{Opts: opts, Sink: sink, Lab: core.Labeler{Labels: opts.Labels}}}
	return core.ParseLines(ctx, r, opts, "artillery", st.line, st.endBlock, func() int { return st.Index })
}

// clock parses "19:28:00(+0000)" into seconds of the day.
func clock(b []byte) (float64, bool) {
	if i := bytes.IndexByte(b, '('); i >= 0 {
		b = b[:i]
	}
	t, err := time.Parse("15:04:05", string(b))
	if err != nil {
		return 0, false
	}
	return float64(t.Hour()*3600 + t.Minute()*60 + t.Second()), true
}

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if len(s) == 0 || bytes.Trim(s, "-") == nil {
		return nil
	}
	switch {
	case bytes.HasPrefix(s, []byte("Summary report @ ")) || bytes.HasPrefix(s, []byte("Complete report @ ")):
		if err := st.endBlock(); err != nil {
			return err
		}
		st.block, st.cur, st.summary, st.sumLine, st.last = 2, newArtilleryMetrics(), "", ln, ln
		if st.start == 0 {
			st.start = ln
		}
		return nil
	case bytes.HasPrefix(s, []byte("Metrics for period to: ")):
		// Metrics for period to: 19:28:00(+0000) (width: 5.603s)
		if err := st.endBlock(); err != nil {
			return err
		}
		st.startPeriod(s, ln)
		return nil
	case bytes.HasPrefix(s, []byte("All VUs finished. Total time: ")):
		if err := st.endBlock(); err != nil {
			return err
		}
		st.totalS = totalTime(string(s[len("All VUs finished. Total time: "):]))
		return nil
	}
	if st.block == 0 {
		st.command(s, ln)
		return nil
	}
	return st.metricLine(s, ln)
}

// command reads an "artillery run" or "artillery quick" command line.
func (st *state) command(s []byte, ln int) {
	var buf [16][]byte
	f := core.Fields(s, buf[:0])
	for i := 0; i+1 < len(f); i++ {
		base := f[i][bytes.LastIndexAny(f[i], `/\`)+1:]
		if string(base) == "artillery" && (string(f[i+1]) == "run" || string(f[i+1]) == "quick") {
			st.cmd, st.cmdLine = string(core.TrimRight(core.Rest(s, f[i]))), ln
			if st.start == 0 {
				st.start = ln
			}
			return
		}
	}
}

// startPeriod starts a period's block at "Metrics for period to:
// 19:28:00(+0000) (width: 5.603s)".
func (st *state) startPeriod(s []byte, ln int) {
	var buf [8][]byte
	f := core.Fields(s, buf[:0])
	p := period{m: newArtilleryMetrics()}
	ok1, ok2 := false, false
	if len(f) == 7 {
		p.toS, ok1 = clock(f[4])
		p.widthS, ok2 = core.DurationS(bytes.TrimSuffix(f[6], []byte(")")), 0)
	}
	if !ok1 || !ok2 {
		st.malformed(ln, "period line")
	}
	st.block, st.period, st.cur, st.summary = 1, p, p.m, ""
	if st.start == 0 {
		st.start = ln
	}
}

// artilleryV1Keys maps the top-level lines of Artillery 1.x reports to
// the 2.x metrics they are ("" for lines read but not kept).
var artilleryV1Keys = map[string]string{"Scenarios launched": "vusers.created", "Scenarios completed": "vusers.completed",
	"Requests completed": "http.responses", "RPS sent": "http.request_rate", "Mean response/sec": "http.request_rate",
	"Concurrent users": ""}

// v1Line reads a line of an Artillery 1.x report ("Requests completed:
// 10000", "Request latency:" with "min: 36.9" below, "Codes:" with
// "200: 1085", "Errors:" with "ETIMEDOUT: 58"); it reports false for the
// 2.x lines (with dot leaders) and for lines it does not know.
func (st *state) v1Line(s, name, val []byte, hasVal bool, ln int) bool {
	val = core.TrimLeft(val)
	if hasVal && len(val) > 0 && val[0] == '.' {
		return false // 2.x
	}
	if !hasVal {
		return st.v1Heading(string(bytes.TrimSuffix(s, []byte(":"))), ln)
	}
	f := bytes.Fields(val)
	if len(f) == 0 {
		return false
	}
	key := string(name)
	v, perr := strconv.ParseFloat(string(f[0]), 64)
	if m, ok := artilleryV1Keys[key]; ok {
		st.v1Top(key, m, val, v, perr == nil && core.Finite(v), ln)
		return true
	}
	if st.v1Sec == "" || bytes.ContainsAny(name, " \t") {
		return false
	}
	st.last = ln
	switch st.v1Sec {
	case "latency":
		if core.IsNaN(f[0]) {
			return true // no response: NaN statistics
		}
		if perr != nil || !core.Finite(v) {
			st.malformed(ln, fmt.Sprintf("request latency %s %q", key, val))
			return true
		}
		st.cur.stats("http.response_time")[key] = v
	case "Codes", "Errors":
		st.v1Count(key, val, v, perr == nil && core.Finite(v), ln)
	}
	return true
}

// v1Heading reads the heading of a section of a 1.x report; false when
// key is none.
func (st *state) v1Heading(key string, ln int) bool {
	switch key {
	case "Request latency", "Response time (msec)":
		st.v1Sec, st.summary, st.last = "latency", "", ln
	case "Codes", "Errors", "Scenario duration", "Scenario counts":
		st.v1Sec, st.summary, st.last = key, "", ln
	default:
		return false
	}
	return true
}

// v1Top reads a top-level line of a 1.x report into its 2.x metric m (ok
// false: its value v did not parse).
func (st *state) v1Top(key, m string, val []byte, v float64, ok bool, ln int) {
	st.v1Sec, st.last, st.v1 = "", ln, true
	if !ok {
		st.malformed(ln, fmt.Sprintf("%s %q", key, val))
		return
	}
	switch {
	case m == "http.request_rate":
		st.cur.rates[m] = v
	case m != "":
		st.cur.counters[m] = v
	}
	if m == "http.responses" {
		st.hasHTTP = true
		if st.Detect && st.block == 2 {
			st.Found = true
		}
	}
}

// v1Count reads a row of the Codes or Errors section of a 1.x report.
func (st *state) v1Count(key string, val []byte, v float64, ok bool, ln int) {
	if !ok {
		st.malformed(ln, fmt.Sprintf("%s %s %q", st.v1Sec, key, val))
		return
	}
	if len(st.cur.counters) < 4096 {
		prefix := "http.codes."
		if st.v1Sec == "Errors" {
			prefix = "errors."
		}
		st.cur.counters[prefix+key] += v
	}
}

// totalTime parses "13 seconds", "1 minute, 5 seconds".
func totalTime(s string) float64 {
	var t float64
	for _, part := range strings.Split(s, ",") {
		f := strings.Fields(part)
		if len(f) != 2 {
			return 0
		}
		n, err := strconv.ParseFloat(f[0], 64)
		if err != nil || !core.Finite(n) {
			return 0
		}
		switch strings.TrimSuffix(f[1], "s") {
		case "second":
			t += n
		case "minute":
			t += 60 * n
		case "hour":
			t += 3600 * n
		default:
			return 0
		}
	}
	return t
}

// metricLine reads "name: ....... value" or a summary's nested statistic.
func (st *state) metricLine(s []byte, ln int) error {
	name, val, ok := bytes.Cut(s, []byte(": "))
	if handled := st.v1Line(s, name, val, ok, ln); handled {
		return nil
	}
	if !ok {
		if bytes.HasSuffix(s, []byte(":")) && !bytes.ContainsAny(s, " \t") {
			st.summary = string(s[:len(s)-1]) // "http.response_time:"
			st.last = ln
			return nil
		}
		return st.endBlock() // something else: the block is over
	}
	val = bytes.TrimLeft(core.TrimLeft(val), ".")
	val = core.TrimLeft(val)
	if len(name) == 0 || bytes.ContainsAny(name, " \t") || len(val) == 0 {
		return st.endBlock()
	}
	st.last = ln
	key := string(name)
	if !strings.Contains(key, ".") && st.summary != "" {
		st.summaryStat(key, val, ln)
		return nil
	}
	st.summary = ""
	if len(st.cur.counters)+len(st.cur.rates) < 4096 {
		st.metric(key, val, ln)
	}
	return nil
}

// summaryStat reads a statistic of the summary above: min, max, mean,
// median, p95 ...
func (st *state) summaryStat(key string, val []byte, ln int) {
	v, err := strconv.ParseFloat(string(val), 64)
	if err != nil || !core.Finite(v) {
		st.malformed(ln, fmt.Sprintf("%s %s %q", st.summary, key, val))
		return
	}
	if st.cur.summaries[st.summary] == nil && len(st.cur.summaries) >= 4096 {
		return
	}
	st.cur.stats(st.summary)[key] = v
}

// metric reads a rate ("12/sec") or a counter.
func (st *state) metric(key string, val []byte, ln int) {
	if r, ok := bytes.CutSuffix(val, []byte("/sec")); ok {
		v, err := strconv.ParseFloat(string(r), 64)
		if err != nil || !core.Finite(v) {
			st.malformed(ln, fmt.Sprintf("rate %s %q", key, val))
			return
		}
		st.cur.rates[key] = v
		return
	}
	v, err := strconv.ParseFloat(string(val), 64)
	if err != nil || !core.Finite(v) {
		st.malformed(ln, fmt.Sprintf("counter %s %q", key, val))
		return
	}
	st.cur.counters[key] = v
	if strings.HasPrefix(key, "http.") {
		st.hasHTTP = true
		if st.Detect && st.block == 2 && (key == "http.requests" || strings.HasPrefix(key, "http.codes.")) {
			st.Found = true
		}
	}
}

func (st *state) malformed(ln int, msg string) {
	if st.bad == "" {
		st.bad, st.badLine = msg, ln
	}
}

// v1Requests counts the requests of a 1.x report, which counts completed
// requests: the errors had no response.
func (m metrics) v1Requests() {
	resp, ok := m.counters["http.responses"]
	if !ok {
		return
	}
	req := resp
	for k, v := range m.counters {
		if strings.HasPrefix(k, "errors.") {
			req += v
		}
	}
	m.counters["http.requests"] = req
}

// endBlock ends a period (kept for the run's series) or the summary
// report (the run).
func (st *state) endBlock() error {
	block := st.block
	st.block, st.summary = 0, ""
	switch block {
	case 1:
		if len(st.periods) < maxArtilleryPeriods {
			st.periods = append(st.periods, st.period)
		} else {
			st.dropped++
		}
		return nil
	case 2:
	default:
		return nil
	}
	if st.Detect {
		return nil
	}
	defer func() {
		st.periods, st.start, st.totalS, st.cmd, st.hasHTTP, st.bad, st.dropped, st.v1 = st.periods[:0], 0, 0, "", false, "", 0, false
	}()
	if st.bad != "" {
		return st.Malformed("artillery", st.badLine, st.bad)
	}
	m := st.cur
	st.v1Sec = ""
	if _, ok := m.counters["http.requests"]; !ok && st.v1 {
		m.v1Requests()
	}
	if _, ok := m.counters["http.requests"]; !ok {
		if !st.hasHTTP {
			return nil // a test of another engine (websocket, playwright)
		}
		return &core.SyntaxError{File: st.Opts.Source, Line: st.last,
			Msg: "artillery summary report without its http.requests counter (cut paste?)"}
	}
	out := run(m)
	out.SourceLine = int32(min(st.start, math.MaxInt32))
	if st.cmd != "" {
		out.Command = results.Ptr(st.cmd)
	}
	var notes []string
	if out.Notes != nil {
		notes = append(notes, *out.Notes)
	}
	if n := st.duration(&out); n != "" {
		notes = append(notes, n)
	}
	if st.dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d periods beyond %d left out of the series", st.dropped, maxArtilleryPeriods))
	}
	out.Notes = results.Ptr(strings.Join(notes, "; "))
	core.FillCommon(&out, st.Opts, st.Index, &st.Lab)
	st.Index++
	if err := st.series(out.RunID); err != nil {
		return err
	}
	return st.Sink.Run(out)
}

// duration sets the run's duration: the sum of the periods' widths, else
// Artillery's total time, else requests over the request rate; the note
// says which.
func (st *state) duration(out *results.RunWithPercentiles) string {
	switch {
	case len(st.periods) > 0:
		for _, p := range st.periods {
			out.DurationS += p.widthS
		}
		out.DurationS = math.Round(out.DurationS*1e6) / 1e6
		return "duration_s is the sum of the periods' widths"
	case st.totalS > 0:
		out.DurationS = st.totalS
		return "duration_s is Artillery's Total time (whole seconds, start-up included)"
	case out.RPS > 0:
		out.DurationS = float64(out.Requests) / out.RPS
		return "Artillery printed no duration: duration_s is requests / request rate"
	}
	return ""
}

// series sends the periods of the run runID as its series, timed from
// the first period's start.
func (st *state) series(runID string) error {
	if len(st.periods) == 0 {
		return nil
	}
	start := st.periods[0].toS - st.periods[0].widthS
	for _, p := range st.periods {
		t := p.toS - p.widthS - start
		if t < -43200 { // the clock passed midnight
			t += 86400
		}
		if err := st.Sink.Series(series(runID, math.Max(0, t), p.widthS, p.m)); err != nil {
			return err
		}
	}
	return nil
}

// run makes a run of the whole test's metrics.
func run(m metrics) results.RunWithPercentiles {
	out := results.RunWithPercentiles{Run: results.Run{Tool: "artillery", LoadModel: results.LoadOpen},
		Percentiles: []results.Percentile{}}
	req, errs, non2xx, timeouts := counts(m)
	out.Requests, out.Errors = req, core.AddSat(errs, non2xx)
	out.Non2xx, out.Timeouts = results.Ptr(non2xx), results.Ptr(timeouts)
	var notes []string
	if m.counters["http.responses"] > 0 && !slices.ContainsFunc(slices.Collect(maps.Keys(m.counters)), func(k string) bool { return strings.HasPrefix(k, "http.codes.") }) {
		out.Non2xx = nil
		notes = append(notes, "no status codes printed: non-2xx responses unknown, errors count the requests without a response")
	}
	out.RPS = m.rates["http.request_rate"]
	if b, ok := m.counters["http.downloaded_bytes"]; ok {
		n, _ := core.ToInt64(b)
		out.BytesIn = results.Ptr(n)
	}
	if v, ok := m.counters["vusers.created"]; ok {
		if f, ok := m.counters["vusers.failed"]; ok {
			notes = append(notes, fmt.Sprintf("%g virtual users created, %g failed", v, f))
		} else {
			notes = append(notes, fmt.Sprintf("%g virtual users created", v))
		}
	}
	if rt, ok := m.summaries["http.response_time"]; ok && m.counters["http.responses"] > 0 {
		for k, dst := range map[string]**float64{"mean": &out.LatMeanMs, "min": &out.LatMinMs, "max": &out.LatMaxMs} {
			if v, ok := rt[k]; ok {
				*dst = results.Ptr(v)
			}
		}
		core.AddPercentiles(&out, percentiles(rt))
	}
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return out
}

// counts returns requests, errors without response, non-2xx/3xx
// responses and timeouts.
func counts(m metrics) (req, errs, non2xx, timeouts int64) {
	req, _ = core.ToInt64(m.counters["http.requests"])
	for k, v := range m.counters {
		n, _ := core.ToInt64(v)
		switch {
		case strings.HasPrefix(k, "errors."):
			errs = core.AddSat(errs, n)
			if code := k[len("errors."):]; code == "ETIMEDOUT" || code == "ESOCKETTIMEDOUT" || requests.IsTimeout(code) {
				timeouts = core.AddSat(timeouts, n)
			}
		case strings.HasPrefix(k, "http.codes."):
			code, err := strconv.Atoi(k[len("http.codes."):])
			if err == nil && (code < 200 || code >= 400) {
				non2xx = core.AddSat(non2xx, n)
			}
		}
	}
	return req, errs, non2xx, timeouts
}

// percentiles returns the quantiles of a summary ("median",
// "p50", "p95", "p999" ...), in order.
func percentiles(rt map[string]float64) []results.Percentile {
	pts := map[float64]float64{}
	for k, v := range rt {
		var q float64
		switch {
		case k == "median":
			q = 0.5
		case len(k) > 1 && k[0] == 'p':
			// p95 -> 0.95, p999 -> 0.999, p9999 -> 0.9999
			d, ok := core.ParseDec([]byte(k[1:]), -len(k[1:]))
			if !ok || len(k) < 3 {
				continue
			}
			q = d
		default:
			continue
		}
		pts[q] = v
	}
	var out []results.Percentile
	for q, v := range pts {
		out = append(out, results.Percentile{Quantile: q, LatencyMs: v})
	}
	core.SortPercentiles(out)
	return out
}

// series makes a series window of a period's metrics.
func series(runID string, t, width float64, m metrics) results.Series {
	req, errs, non2xx, _ := counts(m)
	s := results.Series{RunID: runID, TS: t, WindowS: width, Requests: req, Errors: core.AddSat(errs, non2xx)}
	if width > 0 {
		s.RPS = float64(req) / width
	}
	if rt, ok := m.summaries["http.response_time"]; ok {
		get := func(k string) *float64 {
			if v, ok := rt[k]; ok {
				return results.Ptr(v)
			}
			return nil
		}
		s.LatMeanMs, s.LatMaxMs, s.LatP99Ms = get("mean"), get("max"), get("p99")
		s.LatP50Ms = get("median")
		if s.LatP50Ms == nil {
			s.LatP50Ms = get("p50")
		}
	}
	return s
}
