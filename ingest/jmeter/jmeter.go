package jmeter

import (
	"container/heap"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// JMeter results (JTL files), shared by the CSV and XML readers
// (jmeter_csv.go, jmeter_xml.go): a run is a scheme://host:port and sampler
// label, a request one sample (not transaction controller samples nor
// sub-results), a numeric code 100-599 its HTTP status. The rules in full
// (runs, requests, status and errors): docs/FORMATS.md, section
// ingest/jmeter/jmeter.go.

const (
	jmeterTool = "jmeter"
	// jtlMaxText bounds the URLs cached and taken as targets; labels and
	// error messages are capped with a hash (jtlClip).
	jtlMaxText = core.MaxText
	// jtlReorder is how many requests wait in the reorder buffer: JMeter
	// writes a sample when it ends, so samples come out of start order, by
	// up to the requests finished during the longest one.
	jtlReorder = 1 << 16
	// jtlMaxRecord bounds a CSV record (a quoted field may span lines).
	jtlMaxRecord = 1 << 20
)

// jtlSample is one JMeter sample as read from a CSV record or an XML element.
type jtlSample struct {
	line      int
	start     int64   // ns since the Unix epoch
	elapsedMs float64 // JMeter's elapsed time
	label     string
	code      string // responseCode
	message   string // responseMessage
	success   bool
	failure   string // failureMessage (CSV) or the first failed assertion's message (XML)
	bytes     int64
	threads   int64 // allThreads, else grpThreads; 0 when unknown
	url       string
}

// isJMeterTransaction reports whether a response message is that of a
// transaction controller's sample.
func isJMeterTransaction(message string) bool {
	return strings.HasPrefix(message, "Number of samples in transaction")
}

// jtlAgg turns JMeter samples into requests of runs: it keys runs, orders
// requests by start through a bounded reorder buffer and adds the notes
// and connections only known at the end.
type jtlAgg struct {
	opts    core.Options
	a       *requests.Requests
	sink    *jtlSink
	pending jtlHeap
	seq     int64

	urlCache map[string][2]string // URL -> {run key, target}

	transactions  int64 // transaction controller samples skipped
	nbad          int64 // malformed records
	okNoStatus    int64 // successful samples without an HTTP status
	okErrorStatus int64 // successful samples with a status >= 400
	fileNotes     []string
}

func newJTLAgg(opts core.Options, sink core.Sink) *jtlAgg {
	s := &jtlSink{Sink: sink}
	g := &jtlAgg{opts: opts, sink: s, urlCache: map[string][2]string{}}
	g.a = requests.NewRequests(opts, s)
	return g
}

// bad counts a malformed record.
func (g *jtlAgg) bad(line int, msg string) {
	g.nbad++
	g.a.Bad(line, msg)
}

// note adds a note given to every run of the file, once.
func (g *jtlAgg) note(n string) {
	for _, m := range g.fileNotes {
		if m == n {
			return
		}
	}
	g.fileNotes = append(g.fileNotes, n)
}

// runOf returns the run key and target of a sample.
func (g *jtlAgg) runOf(s *jtlSample) (key, target string, ok bool) {
	if s.url == "" || s.url == "null" {
		return "", "", false
	}
	if e, hit := g.urlCache[s.url]; hit {
		return e[0], e[1], e[0] != ""
	}
	key, target = jtlBase(s.url)
	target = strings.Clone(target)
	if len(g.urlCache) >= core.MaxCached {
		clear(g.urlCache)
	}
	if len(s.url) <= jtlMaxText {
		// Clone: s.url may share the memory of a whole CSV record.
		g.urlCache[strings.Clone(s.url)] = [2]string{key, target}
	}
	return key, target, key != ""
}

// jtlBase returns the run key (scheme://host:port, lower case, default
// port explicit) and the target (scheme://host[:port] as written) of a URL,
// or empty strings when it has no scheme and host.
func jtlBase(u string) (key, target string) {
	i := strings.Index(u, "://")
	if i <= 0 {
		return "", ""
	}
	for _, c := range u[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return "", ""
		}
	}
	end := len(u)
	if j := strings.IndexAny(u[i+3:], "/?#"); j >= 0 {
		end = i + 3 + j
	}
	target = u[:end]
	hp, ok := core.HostPort(target)
	if !ok || len(target) > jtlMaxText {
		return "", ""
	}
	return strings.ToLower(u[:i]) + "://" + hp, target
}

// add records one sample.
func (g *jtlAgg) add(s *jtlSample) error {
	h, req, ok := g.request(s)
	if !ok {
		return nil
	}
	g.seq++
	heap.Push(&g.pending, jtlPending{h: h, line: s.line, seq: g.seq, req: req})
	if g.pending.Len() > jtlReorder {
		p := heap.Pop(&g.pending).(jtlPending)
		return g.a.Add(p.h, p.line, p.req)
	}
	return nil
}

// request returns the run and the request of a sample; ok is false for a
// transaction controller's sample (counted, skipped).
func (g *jtlAgg) request(s *jtlSample) (h int, req requests.Request, ok bool) {
	if isJMeterTransaction(s.message) {
		g.transactions++
		g.a.Good()
		return 0, req, false
	}
	key, target, ok := g.runOf(s)
	label := jtlClip(s.label)
	meta := requests.RequestRun{Tool: jmeterTool, LoadModel: results.LoadClosed, UnixTime: true, Endpoint: core.EndpointOf("", label)}
	if ok {
		meta.Target = target
		key = "url " + key + "\x00" + label
	} else {
		key = "label " + label
		meta.Notes = []string{"JMeter sampler " + strconv.Quote(label) + " (the results do not show its URL)"}
	}
	h = g.a.Run(key, meta)
	g.sink.observe(h, s.threads)

	req = requests.Request{Start: s.start, LatencyMs: s.elapsedMs, BytesIn: max(s.bytes, 0)}
	status, isHTTP := jtlHTTPStatus(s.code)
	switch {
	case s.success && isHTTP:
		req.Status = status
		if status >= 400 {
			g.okErrorStatus++
		}
	case s.success:
		req.Status = 200
		g.okNoStatus++
	case isHTTP:
		req.Status = status
		switch {
		case s.failure != "":
			req.Error = jtlOneLine(s.failure)
		case status < 400:
			req.Error = jtlOneLine(strings.TrimSpace("JMeter sample failed: " + s.code + " " + s.message))
		}
	default:
		req.Error = jtlTransportError(s)
	}
	return h, req, true
}

// jtlTransportError is the error of a failed sample without an HTTP
// status: "java.net.ConnectException: Connection refused" from JMeter's
// "Non HTTP response code: ..." and "Non HTTP response message: ...".
func jtlTransportError(s *jtlSample) string {
	code := strings.TrimSpace(strings.TrimPrefix(s.code, "Non HTTP response code: "))
	msg := strings.TrimSpace(strings.TrimPrefix(s.message, "Non HTTP response message: "))
	var parts []string
	if code != "" {
		parts = append(parts, code)
	}
	if msg != "" && msg != code {
		parts = append(parts, msg)
	}
	e := strings.Join(parts, ": ")
	if f := strings.TrimSpace(s.failure); f != "" && !strings.Contains(e, f) {
		if e != "" {
			e += "; "
		}
		e += f
	}
	if e == "" {
		e = "JMeter sample failed"
	}
	return jtlOneLine(e)
}

// jtlHTTPStatus returns the HTTP status a response code holds, if any.
func jtlHTTPStatus(code string) (int32, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(code))
	if err != nil || n < 100 || n > 599 {
		return 0, false
	}
	return int32(n), true
}

// jtlOneLine folds the whitespace (multi-line assertion messages) of s and
// caps it (jtlClip).
func jtlOneLine(s string) string {
	if strings.ContainsAny(s, "\r\n\t") || strings.Contains(s, "  ") {
		s = strings.Join(strings.Fields(s), " ")
	}
	return jtlClip(s)
}

// jtlClip caps s to core.MaxText bytes (core.CapText): two labels that
// share their first bytes stay two runs.
func jtlClip(s string) string {
	v, _ := core.CapText(s)
	return v
}

// close flushes the reorder buffer and ends the log.
func (g *jtlAgg) close(ctx context.Context) error {
	for n := 0; g.pending.Len() > 0; n++ {
		if err := core.CheckCtx(ctx, n); err != nil {
			return err
		}
		p := heap.Pop(&g.pending).(jtlPending)
		if err := g.a.Add(p.h, p.line, p.req); err != nil {
			return err
		}
	}
	if g.transactions > 0 {
		n := fmt.Sprintf("%d transaction controller samples skipped: they total requests counted one by one", g.transactions)
		if g.a.Runs() == 0 {
			n += " (CSV results do not hold the requests of transactions that generate a parent sample: save as XML)"
		}
		g.note(n)
	}
	if g.okNoStatus > 0 {
		g.note(fmt.Sprintf("%d successful samples without an HTTP status (non-HTTP samplers) recorded with status 200", g.okNoStatus))
	}
	if g.okErrorStatus > 0 {
		g.note(fmt.Sprintf("%d samples JMeter marked successful have an HTTP status >= 400, counted as errors", g.okErrorStatus))
	}
	if g.a.Runs() == 0 && g.nbad == 0 {
		msg := "JMeter results without a request sample"
		if len(g.fileNotes) > 0 {
			msg += ": " + strings.Join(g.fileNotes, "; ")
		}
		return &core.SyntaxError{File: g.opts.Source, Msg: msg}
	}
	g.sink.notes = g.fileNotes
	return g.a.Close()
}

// jtlSink passes everything on, adding to each run what is known only at
// the end of the file: its connections and the file's notes.
type jtlSink struct {
	core.Sink
	threads []int64 // most active threads seen, by run handle
	notes   []string
}

func (s *jtlSink) observe(h int, threads int64) {
	for len(s.threads) <= h {
		s.threads = append(s.threads, 0)
	}
	s.threads[h] = max(s.threads[h], threads)
}

// Run completes r and passes it on.
func (s *jtlSink) Run(r results.RunWithPercentiles) error {
	if i := int(r.Index); i >= 0 && i < len(s.threads) && s.threads[i] > 0 {
		r.Connections = results.Ptr(int32(min(s.threads[i], 1<<31-1)))
	}
	if len(s.notes) > 0 {
		notes := strings.Join(s.notes, "; ")
		if r.Notes != nil && *r.Notes != "" {
			notes = *r.Notes + "; " + notes
		}
		r.Notes = &notes
	}
	return s.Sink.Run(r)
}

// jtlPending is a request in the reorder buffer.
type jtlPending struct {
	h    int
	line int
	seq  int64 // input order, to keep equal starts stable
	req  requests.Request
}

type jtlHeap []jtlPending

func (q jtlHeap) Len() int { return len(q) }
func (q jtlHeap) Less(i, j int) bool {
	if q[i].req.Start != q[j].req.Start {
		return q[i].req.Start < q[j].req.Start
	}
	return q[i].seq < q[j].seq
}
func (q jtlHeap) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *jtlHeap) Push(x any)   { *q = append(*q, x.(jtlPending)) }
func (q *jtlHeap) Pop() any {
	old := *q
	x := old[len(old)-1]
	old[len(old)-1] = jtlPending{}
	*q = old[:len(old)-1]
	return x
}

// jtlEpochMs converts a time stamp in milliseconds since the epoch.
// jtlTimeRange says which time stamps are read, for the error about one
// that is not.
const jtlTimeRange = "not milliseconds since 1970 up to 9000000000000 (the year 2255), nor a date of the years 1970-2261"

func jtlEpochMs(s string) (int64, bool) {
	ms, err := strconv.ParseInt(s, 10, 64)
	// Up to year 2262, where nanoseconds overflow int64.
	if err != nil || ms < 0 || ms > 9_000_000_000_000 {
		return 0, false
	}
	return ms * 1e6, true
}

// jtlLayouts are the time stamp formats (jmeter.save.saveservice.
// timestamp_format, a SimpleDateFormat) read besides milliseconds.
var jtlLayouts = []struct {
	layout         string
	zone, fraction bool
}{
	{"2006/01/02 15:04:05.000", false, true},
	{"2006/01/02 15:04:05", false, false},
	{"2006-01-02 15:04:05.000", false, true},
	{"2006-01-02 15:04:05", false, false},
	{"2006-01-02 15:04:05,000", false, true},
	{"2006-01-02T15:04:05.000", false, true},
	{"2006-01-02T15:04:05", false, false},
	{time.RFC3339Nano, true, true},
	{"2006-01-02T15:04:05.000Z0700", true, true},
	{"2006/01/02 15:04:05.000 Z0700", true, true},
	{"2006/01/02 15:04:05.000 MST", true, true},
}

// jtlTime reads a time stamp: milliseconds since the epoch, or one of
// jtlLayouts (the last one that matched is tried first).
type jtlTime struct {
	last int // index in jtlLayouts + 1 of the last layout that matched
}

func (t *jtlTime) parse(s string, g *jtlAgg) (int64, bool) {
	if ns, ok := jtlEpochMs(s); ok {
		return ns, true
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, false
	}
	try := func(i int) (int64, bool) {
		l := jtlLayouts[i]
		tm, err := time.ParseInLocation(l.layout, s, time.UTC)
		if err != nil || tm.Year() < 1970 || tm.Year() > 2261 {
			return 0, false
		}
		t.last = i + 1
		if !l.zone {
			g.note("time stamps without a time zone read as UTC")
		}
		if !l.fraction {
			g.note("time stamps to the second: starts, durations and windows are approximate")
		}
		return tm.UnixNano(), true
	}
	if t.last > 0 {
		if ns, ok := try(t.last - 1); ok {
			return ns, true
		}
	}
	for i := range jtlLayouts {
		if ns, ok := try(i); ok {
			return ns, true
		}
	}
	return 0, false
}

// jtlElapsed reads an elapsed time in milliseconds.
func jtlElapsed(s string) (float64, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return float64(n), n >= 0
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil && f >= 0 && f < 1e12
}

// jtlInt reads a count (bytes, threads); empty or malformed gives 0.
func jtlInt(s string) (int64, bool) {
	if s == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return max(n, 0), err == nil
}

// jtlBool reads success: "true" or "false" (any case).
func jtlBool(s string) (v, ok bool) {
	switch {
	case strings.EqualFold(s, "true"):
		return true, true
	case strings.EqualFold(s, "false"):
		return false, true
	}
	return false, false
}
