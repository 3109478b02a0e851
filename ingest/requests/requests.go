package requests

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// Request is one request read from a per-request log.
type Request struct {
	// Start is when the request was sent, in nanoseconds on the log's
	// clock: Unix time, or an offset from the test's start (see
	// RequestRun.UnixTime).
	Start     int64
	LatencyMs float64
	Status    int32 // HTTP status, 0 when none (a transport error)
	BytesIn   int64
	Error     string // transport or protocol error, empty when none
}

// RequestRun is what a per-request format knows of a run beyond its
// requests: the parser passes it when a run's first request is read.
type RequestRun struct {
	Tool      string
	LoadModel string
	Target    string // URL, empty when the log does not show it
	// UnixTime says Request.Start values are Unix times, so the run's
	// started_at is known.
	UnixTime         bool
	Threads          *int32
	Connections      *int32
	TargetRPS        *float64
	PlannedDurationS *float64
	Command          *string
	Notes            []string
	// NoHTTPStatus says the log has no HTTP status (gRPC calls, Gatling's
	// OK/KO): a request failed when its Error is set, and non2xx stays null.
	NoHTTPStatus bool
	// NoBytes says the log has no response sizes: bytes_in and
	// transfer_bps stay null.
	NoBytes bool
	// Endpoint names the request the run is about (a sampler label, a
	// method and URL path); the run's endpoint column gets it when the
	// log's runs have more than one endpoint.
	Endpoint string
}

// Limits of the per-request aggregation; they bound its memory whatever
// the size of the log.
const (
	// ExactCap is the number of latencies per run kept for exact
	// percentiles; beyond it the run's HdrHistogram answers.
	ExactCap = 1 << 20
	// MaxWindows bounds the windows of a run: beyond it adjacent windows
	// merge and the window doubles.
	MaxWindows = 2048
	// originBuffer is how many of a run's first requests are held back to
	// find its earliest start.
	originBuffer = 10000
	// MaxBadLines is how many malformed lines are quoted in a note.
	MaxBadLines = 3
	// BadLimit is the share of malformed lines, and of malformed bytes,
	// beyond which a log is rejected.
	BadLimit = 0.01
)

// HdrHistogram ranges, in microseconds: the whole run's histogram keeps
// three significant digits (relative error <= 0.1 %) up to an hour, the
// per-window ones two (<= 1 %) up to a minute.
const (
	runHistMax    = int64(time.Hour / time.Microsecond)
	WindowHistMax = int64(time.Minute / time.Microsecond)
)

// Requests aggregates the requests of a per-request log into runs in one
// streaming pass: every request is passed on as a sample, and each run
// gets its summary, its latency percentiles (exact while they fit,
// otherwise from an HdrHistogram with 3 significant digits) and its
// series of windows (default 1 s; windows double when a run outgrows
// maxWindows). Runs are told apart by a key the parser chooses (e.g.
// method and URL).
type Requests struct {
	opts    core.Options
	sink    core.Sink
	lab     core.Labeler
	windowS float64
	index   map[string]int
	runs    []*reqRun
	good    int64
	bad     int64
	badMsgs []string
	badLine int

	tap *Tap // set: requests and bad lines go to it instead (SetTap)

	size     int64 // bytes of the log read (InputSize)
	recSize  int64 // bytes of the record being handled (Record)
	badBytes int64 // bytes of malformed records and unreadable input
}

// InputSize tells how many bytes of the log the parser read, all of
// them, before Close judges the share of malformed ones; without it, any
// malformed byte rejects the log.
func (a *Requests) InputSize(n int64) { a.size = n }

// Record tells the size in bytes of the record (a line, a CSV record, an
// XML element, a gob message) the parser is about to pass on with Add,
// Good or Bad: when it is malformed, that many bytes are.
func (a *Requests) Record(size int64) { a.recSize = size }

// NewRequests returns an aggregator that sends to sink.
func NewRequests(opts core.Options, sink core.Sink) *Requests {
	w := opts.WindowS
	if !(w > 0) {
		w = 1
	}
	return &Requests{opts: opts, sink: sink, windowS: w, index: map[string]int{}, lab: core.Labeler{Labels: opts.Labels}}
}

// Run returns the handle of the run with the given key, creating it with
// meta when the key is new. Runs are numbered in order of first sight.
func (a *Requests) Run(key string, meta RequestRun) int {
	if h, ok := a.index[key]; ok {
		return h
	}
	h := len(a.runs)
	a.index[key] = h
	r := &reqRun{meta: meta, width: a.windowS, minLat: math.Inf(1)}
	r.id = results.RunID(a.opts.Source, h)
	a.runs = append(a.runs, r)
	return h
}

// Add records one request of run h and sends it on as a sample. A
// request with a negative or non-finite latency is counted as a malformed
// line instead.
func (a *Requests) Add(h int, line int, req Request) error {
	if math.IsNaN(req.LatencyMs) || math.IsInf(req.LatencyMs, 0) || req.LatencyMs < 0 {
		a.Bad(line, fmt.Sprintf("latency %v ms", req.LatencyMs))
		return nil
	}
	if a.tap != nil {
		return a.tap.Add(h, line, req)
	}
	a.good++
	a.recSize = 0
	// Capped here already: up to originBuffer requests wait below.
	req.Error, _ = core.CapText(req.Error)
	r := a.runs[h]
	if !r.started {
		// Logs are written in completion order, not start order: the
		// run's origin (t_s = 0) is the earliest start among its first
		// originBuffer requests, held back until then.
		r.pending = append(r.pending, req)
		if len(r.pending) < originBuffer {
			return nil
		}
		return a.start(r)
	}
	return a.record(r, req)
}

// start fixes a run's origin at the earliest pending start and records
// the pending requests.
func (a *Requests) start(r *reqRun) error {
	r.started = true
	if len(r.pending) == 0 {
		return nil
	}
	origin := r.pending[0].Start
	for _, q := range r.pending {
		origin = min(origin, q.Start)
	}
	r.origin, r.minStart, r.maxStart, r.maxEnd = origin, origin, origin, origin
	for _, q := range r.pending {
		if err := a.record(r, q); err != nil {
			return err
		}
	}
	r.pending = nil
	return nil
}

// record adds a request to its run and passes it on as a sample.
func (a *Requests) record(r *reqRun, req Request) error {
	r.add(req)
	var errPtr *string
	if req.Error != "" {
		e := req.Error
		errPtr = &e
	}
	return a.sink.Sample(results.Sample{RunID: r.id, TS: float64(req.Start-r.origin) / 1e9, LatencyMs: req.LatencyMs,
		Status: req.Status, BytesIn: req.BytesIn, Error: errPtr})
}

// Bad counts a malformed line (with the bytes of its record, see Record);
// the first few are quoted in the runs' notes.
func (a *Requests) Bad(line int, msg string) {
	if a.tap != nil {
		a.tap.Bad(line, msg)
		return
	}
	a.bad++
	a.badBytes += a.recSize
	a.recSize = 0
	if a.badLine == 0 {
		a.badLine = line
	}
	if len(a.badMsgs) < MaxBadLines {
		a.badMsgs = append(a.badMsgs, fmt.Sprintf("line %d: %s", line, msg))
	}
}

// Good counts a well-formed line that carries no request (a header, a
// metric point of no interest), so that the share of bad lines is fair.
func (a *Requests) Good() {
	a.good++
	a.recSize = 0
}

// Meta returns what is known of run h beyond its requests, for a parser
// that learns more of it while reading (e.g. the users active at once);
// changes must be made before Close.
func (a *Requests) Meta(h int) *RequestRun { return &a.runs[h].meta }

// Runs reports how many runs have been seen.
func (a *Requests) Runs() int { return len(a.runs) }

// Close ends the log: it rejects it when more than 1 % of its lines, or
// more than 1 % of its bytes (see Record and InputSize), were malformed, and
// otherwise sends every run's series and then the run, in order of first
// sight.
func (a *Requests) Close() error {
	if total := a.good + a.bad; a.bad > 0 && float64(a.bad) > BadLimit*float64(total) {
		return &core.SyntaxError{File: a.opts.Source, Line: a.badLine, Msg: fmt.Sprintf(
			"%d of %d lines malformed (more than %g %%): %s", a.bad, total, 100*BadLimit, strings.Join(a.badMsgs, "; "))}
	}
	if a.badBytes > 0 && float64(a.badBytes) > BadLimit*float64(a.size) {
		return &core.SyntaxError{File: a.opts.Source, Line: a.badLine, Msg: fmt.Sprintf(
			"%d of %d bytes malformed (more than %g %%): %s", a.badBytes, a.size, 100*BadLimit, strings.Join(a.badMsgs, "; "))}
	}
	if len(a.runs) == 0 && a.bad > 0 {
		return &core.SyntaxError{File: a.opts.Source, Line: a.badLine, Msg: "no well-formed request: " + strings.Join(a.badMsgs, "; ")}
	}
	for _, r := range a.runs {
		if err := a.start(r); err != nil {
			return err
		}
	}
	endpoints := map[string]bool{}
	for _, r := range a.runs {
		if r.meta.Endpoint != "" {
			endpoints[r.meta.Endpoint] = true
		}
	}
	for i, r := range a.runs {
		if a.bad > 0 {
			r.meta.Notes = append(r.meta.Notes, fmt.Sprintf("%d malformed lines skipped (%s)", a.bad, strings.Join(a.badMsgs, "; ")))
		}
		for _, s := range r.series() {
			if err := a.sink.Series(s); err != nil {
				return err
			}
		}
		run := r.summary()
		if len(endpoints) > 1 && r.meta.Endpoint != "" {
			run.Endpoint = results.Ptr(r.meta.Endpoint)
		}
		core.FillCommon(&run, a.opts, i, &a.lab)
		if err := a.sink.Run(run); err != nil {
			return err
		}
	}
	return nil
}

// reqRun accumulates one run.
type reqRun struct {
	id   string
	meta RequestRun

	started bool      // origin fixed
	pending []Request // the first requests, until the origin is fixed

	n, errors, non2xx, timeouts int64
	bytesIn                     int64
	maxStart                    int64   // the latest start: the attack's end
	mean, m2                    float64 // Welford
	minLat, maxLat              float64
	origin, minStart, maxEnd    int64

	exact exactLats               // latencies while n <= exactCap, empty after
	over  bool                    // exact was dropped
	hist  *hdrhistogram.Histogram // every latency, once over

	width float64 // window width, seconds
	base  int     // index of windows[0]
	wins  []window
	open  []int // indices of the windows with a dense histogram
}

// window accumulates one window of a run. Its histogram is sparse (a
// PackedHistogram: the buckets it holds, with counts of 1 to 8 bytes), so
// that a run's windows cost memory in proportion to their requests, not to
// their number; it answers the same quantiles as a dense one. The latest
// windows record into a dense histogram first (see openWindows).
type window struct {
	n, errors     int64
	statuses      []StatusCount // of the failed requests, at most maxStatuses
	sum, min, max float64
	hist          *hdrhistogram.PackedHistogram
	dense         *hdrhistogram.Histogram // while open (see openWindows)
}

// StatusCount is how many failed requests of a window had one status (0:
// no response, a transport error).
type StatusCount struct {
	Status int32
	N      int64
}

// MaxStatuses bounds the statuses a window counts: maxStatuses-1
// distinct ones, and the failed requests of any further status under
// otherStatus.
const MaxStatuses = 16

// OtherStatus stands for the statuses beyond maxStatuses.
const OtherStatus = -1

// AddStatus counts one failed request of status s into c.
func AddStatus(c []StatusCount, s int32, n int64) []StatusCount {
	for i := range c {
		if c[i].Status == s {
			c[i].N += n
			return c
		}
	}
	if s != OtherStatus && len(c) >= MaxStatuses-1 {
		return AddStatus(c, OtherStatus, n) // the last slot is otherStatus's
	}
	return append(c, StatusCount{s, n})
}

// StatusesText words a window's failed statuses as the series table's
// error_statuses: "503:200,0:3", most frequent first (then by status);
// -1 counts the statuses beyond maxStatuses.
func StatusesText(c []StatusCount) *string {
	if len(c) == 0 {
		return nil
	}
	c = slices.Clone(c)
	slices.SortFunc(c, func(a, b StatusCount) int { return cmp.Or(cmp.Compare(b.N, a.N), cmp.Compare(a.Status, b.Status)) })
	var b strings.Builder
	for i, x := range c {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(x.Status)))
		b.WriteByte(':')
		b.WriteString(strconv.FormatInt(x.N, 10))
	}
	return results.Ptr(b.String())
}

func Micros(ms float64) int64 { return int64(math.Round(ms * 1000)) }

// ClampRecord records v in h, clamped to [1, hi].
func ClampRecord[H interface{ RecordValue(int64) error }](h H, v, hi int64) {
	_ = h.RecordValue(min(max(v, 1), hi))
}

// Failed reports whether a request failed: an error, or (in a log with
// HTTP statuses) no status or one outside 200 to 399.
func Failed(q Request, noHTTPStatus bool) bool {
	return q.Error != "" || !noHTTPStatus && (q.Status == 0 || q.Status < 200 || q.Status >= 400)
}

func (r *reqRun) add(q Request) {
	r.n++
	d := q.LatencyMs - r.mean
	r.mean += d / float64(r.n)
	r.m2 += d * (q.LatencyMs - r.mean)
	r.minLat, r.maxLat = math.Min(r.minLat, q.LatencyMs), math.Max(r.maxLat, q.LatencyMs)
	r.minStart = min(r.minStart, q.Start)
	r.maxStart = max(r.maxStart, q.Start)
	r.maxEnd = max(r.maxEnd, q.Start+int64(q.LatencyMs*1e6))
	r.bytesIn += q.BytesIn
	failed := Failed(q, r.meta.NoHTTPStatus)
	if failed {
		r.errors++
	}
	if q.Status != 0 && (q.Status < 200 || q.Status >= 400) {
		r.non2xx++
	}
	if q.Error != "" && IsTimeout(q.Error) {
		r.timeouts++
	}
	us := Micros(q.LatencyMs)
	if !r.over && r.exact.len() == ExactCap {
		// Too many for exact percentiles: the run's histogram takes over,
		// with the latencies kept so far.
		r.hist = hdrhistogram.New(1, runHistMax, 3)
		r.exact.each(func(v float64) { ClampRecord(r.hist, Micros(v), runHistMax) })
		r.exact, r.over = exactLats{}, true
	}
	if r.over {
		ClampRecord(r.hist, us, runHistMax)
	} else {
		r.exact.add(q.LatencyMs)
	}
	w, k := r.window(float64(q.Start-r.origin) / 1e9)
	if w.n == 0 || q.LatencyMs < w.min {
		w.min = q.LatencyMs
	}
	w.n++
	w.sum += q.LatencyMs
	w.max = math.Max(w.max, q.LatencyMs)
	if failed {
		w.errors++
		w.statuses = AddStatus(w.statuses, q.Status, 1)
	}
	r.recordWindow(w, k, us)
}

// openWindows is how many of a run's windows record into a dense
// histogram at once: the latest ones, where a log written in completion
// order puts nearly every request (a dense histogram records in constant
// time, a sparse one searches its buckets). When a later window opens, the
// earliest open one's counts move into its sparse histogram; a request of
// a window older than every open one is recorded there directly.
const openWindows = 4

// recordWindow records latency us in window w (index k).
func (r *reqRun) recordWindow(w *window, k int, us int64) {
	v := min(max(us, 1), WindowHistMax)
	if w.dense == nil {
		if len(r.open) == openWindows {
			oldest := 0
			for i, o := range r.open {
				if o < r.open[oldest] {
					oldest = i
				}
			}
			if k < r.open[oldest] {
				if w.hist == nil {
					w.hist = newWindowHist()
				}
				_ = w.hist.RecordValue(v)
				return
			}
			w.dense = r.closeWindow(r.open[oldest])
			r.open[oldest] = k
		} else {
			w.dense = hdrhistogram.New(1, WindowHistMax, 2)
			r.open = append(r.open, k)
		}
	}
	_ = w.dense.RecordValue(v)
}

// closeWindow moves the counts of open window k into its sparse histogram
// and returns its dense one, reset.
func (r *reqRun) closeWindow(k int) *hdrhistogram.Histogram {
	w := &r.wins[k-r.base]
	if w.hist == nil {
		w.hist = newWindowHist()
	}
	w.hist.MergeFrom(w.dense)
	d := w.dense
	d.Reset()
	w.dense = nil
	return d
}

// closeWindows closes every open window.
func (r *reqRun) closeWindows() {
	for _, k := range r.open {
		r.closeWindow(k)
	}
	r.open = r.open[:0]
}

// newWindowHist returns an empty sparse histogram of a window.
func newWindowHist() *hdrhistogram.PackedHistogram {
	return hdrhistogram.NewPacked(1, WindowHistMax, 2)
}

func IsTimeout(e string) bool {
	e = strings.ToLower(e)
	return strings.Contains(e, "timeout") || strings.Contains(e, "deadline exceeded") || strings.Contains(e, "timed out") ||
		strings.Contains(e, "deadlineexceeded") // gRPC's status name
}

// window returns the window holding offset t (seconds from the origin)
// and its index, growing the windows, and doubling their width when there
// would be more than maxWindows.
func (r *reqRun) window(t float64) (*window, int) {
	k := int(math.Floor(t / r.width))
	for {
		lo, hi := min(r.base, k), max(r.base+len(r.wins)-1, k)
		if len(r.wins) == 0 {
			lo, hi = k, k
		}
		if hi-lo+1 <= MaxWindows {
			break
		}
		r.double()
		k = int(math.Floor(t / r.width))
	}
	r.wins, r.base = GrowWindows(r.wins, r.base, k)
	return &r.wins[k-r.base], k
}

// GrowWindows returns the windows wins, whose first has index base,
// grown (at either end) to hold index k, and the new base.
func GrowWindows[W any](wins []W, base, k int) ([]W, int) {
	if len(wins) == 0 {
		base = k
	}
	if k < base {
		wins = append(make([]W, base-k), wins...)
		base = k
	}
	for k >= base+len(wins) {
		var w W
		wins = append(wins, w)
	}
	return wins, base
}

// double merges adjacent windows pairwise: the width doubles.
func (r *reqRun) double() {
	r.closeWindows()
	nb := FloorDiv(r.base, 2)
	merged := make([]window, FloorDiv(r.base+len(r.wins)-1, 2)-nb+1)
	for i := range r.wins {
		m := &merged[FloorDiv(r.base+i, 2)-nb]
		w := &r.wins[i]
		if w.n > 0 && (m.n == 0 || w.min < m.min) {
			m.min = w.min
		}
		m.n += w.n
		m.errors += w.errors
		for _, c := range w.statuses {
			m.statuses = AddStatus(m.statuses, c.Status, c.N)
		}
		m.sum += w.sum
		m.max = math.Max(m.max, w.max)
		if w.hist != nil {
			if m.hist == nil {
				m.hist = w.hist
			} else {
				m.hist.Merge(w.hist)
			}
		}
	}
	r.wins, r.base, r.width = merged, nb, r.width*2
}

// FloorDiv is a/b rounded toward minus infinity.
func FloorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// quantiles are the points of each run's distribution in the
// percentiles table.
var quantiles = []float64{0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.975, 0.99, 0.995, 0.999, 0.9995, 0.9999, 0.99999, 1}

// percentile returns the latency at quantile q: exact (the smallest value
// with at least q of the requests at or below it) when the latencies were
// kept, else the HdrHistogram's value.
func (r *reqRun) percentile(q float64) float64 {
	if n := r.exact.len(); !r.over && n > 0 {
		if q <= 0 {
			return r.exact.at(0)
		}
		i := int(math.Ceil(q*float64(n))) - 1
		return r.exact.at(min(max(i, 0), n-1))
	}
	switch q {
	case 0:
		return r.minLat
	case 1:
		return r.maxLat
	}
	return ClampMs(float64(r.hist.ValueAtQuantile(100*q))/1000, r.minLat, r.maxLat)
}

// ClampMs keeps a percentile from a histogram within the exact minimum
// and maximum of the latencies it summarises.
func ClampMs(v, lo, hi float64) float64 {
	return min(max(v, lo), hi)
}

func (r *reqRun) summary() results.RunWithPercentiles {
	m := r.meta
	run := results.RunWithPercentiles{Run: results.Run{
		Tool: m.Tool, LoadModel: m.LoadModel, Target: m.Target, Threads: m.Threads, Connections: m.Connections,
		TargetRPS: m.TargetRPS, PlannedDurationS: m.PlannedDurationS, Command: m.Command,
		Requests: r.n, Errors: r.errors, Non2xx: results.Ptr(r.non2xx), Timeouts: results.Ptr(r.timeouts),
		BytesIn: results.Ptr(r.bytesIn), HasSamples: true,
	}, Percentiles: []results.Percentile{}}
	if m.NoHTTPStatus {
		run.Non2xx = nil
	}
	if m.NoBytes {
		run.BytesIn = nil
	}
	if m.UnixTime {
		t := time.Unix(0, r.minStart).UTC()
		run.StartedAt = &t
	}
	if d := float64(r.maxEnd-r.minStart) / 1e9; d > 0 {
		run.DurationS = d
		run.RPS = float64(r.n) / d
		if !m.NoBytes {
			run.TransferBPS = results.Ptr(float64(r.bytesIn) / d)
		}
	}
	r.rates(&run.Run, &m)
	if r.n > 0 {
		run.LatMeanMs, run.LatMinMs, run.LatMaxMs = results.Ptr(r.mean), results.Ptr(r.minLat), results.Ptr(r.maxLat)
		if r.n > 1 {
			run.LatStdevMs = results.Ptr(math.Sqrt(r.m2 / float64(r.n-1)))
		}
		if r.over {
			m.Notes = append(m.Notes, fmt.Sprintf("percentiles from an HdrHistogram with 3 significant digits (relative error <= 0.1 %%): more than %d requests", ExactCap))
		}
		for _, q := range quantiles {
			run.Percentiles = append(run.Percentiles, results.Percentile{Quantile: q, LatencyMs: r.percentile(q)})
		}
		for _, c := range []struct {
			q   float64
			dst **float64
		}{{0.5, &run.LatP50Ms}, {0.9, &run.LatP90Ms}, {0.99, &run.LatP99Ms}, {0.999, &run.LatP999Ms}} {
			*c.dst = results.Ptr(r.percentile(c.q))
		}
	}
	if len(m.Notes) > 0 {
		run.Notes = results.Ptr(strings.Join(m.Notes, "; "))
	}
	return run
}

// rates sets, for an open model, the rates a per-request log shows as
// vegeta's report does: sent_rps, the requests over the time from the
// first to the last send (vegeta's "rate"), and success_rps, the
// successful responses over the time from the first send to the last
// response (its "throughput"). The achieved throughput of an open model
// is its successful responses, so rps is success_rps (vegeta's report
// prints it as its rps too), and a requested rate the log does not state
// is taken from the sends (a generator on schedule sends at the requested
// rate), with a note. A closed model's rps stays all responses over the
// duration, as its tools print it.
func (r *reqRun) rates(run *results.Run, m *RequestRun) {
	d := float64(r.maxEnd-r.minStart) / 1e9
	if m.LoadModel != results.LoadOpen || d <= 0 {
		return
	}
	if span := float64(r.maxStart-r.minStart) / 1e9; span > 0 && r.n > 1 {
		run.SentRPS = results.Ptr(float64(r.n) / span)
	}
	run.SuccessRPS = results.Ptr(float64(r.n-r.errors) / d)
	run.RPS = *run.SuccessRPS
	if run.TargetRPS == nil && run.SentRPS != nil {
		run.TargetRPS = results.Ptr(*run.SentRPS)
		m.Notes = append(m.Notes, fmt.Sprintf("requested rate %s req/s taken from the send times", strconv.FormatFloat(*run.SentRPS, 'g', 6, 64)))
	}
}

// series returns the run's windows; per-window p50, p90 and p99 come from an
// HdrHistogram with 2 significant digits (relative error <= 1 %), clamped
// to the window's exact minimum and maximum: the histogram's bucket
// values can lie beyond them (p99 33.023 ms in a window whose maximum is
// 33 ms; 0.001 ms for samples of 0 ms, which it records as 1 µs).
func (r *reqRun) series() []results.Series {
	r.closeWindows()
	out := make([]results.Series, 0, len(r.wins))
	for i, w := range r.wins {
		s := results.Series{RunID: r.id, TS: float64(r.base+i) * r.width, WindowS: r.width, Requests: w.n, Errors: w.errors,
			RPS: float64(w.n) / r.width, ErrorStatuses: StatusesText(w.statuses)}
		if w.n > 0 {
			s.LatMeanMs = results.Ptr(w.sum / float64(w.n))
			s.LatMaxMs = results.Ptr(w.max)
			s.LatP50Ms = results.Ptr(ClampMs(float64(w.hist.ValueAtPercentile(50))/1000, w.min, w.max))
			s.LatP90Ms = results.Ptr(ClampMs(float64(w.hist.ValueAtPercentile(90))/1000, w.min, w.max))
			s.LatP99Ms = results.Ptr(ClampMs(float64(w.hist.ValueAtPercentile(99))/1000, w.min, w.max))
		}
		out = append(out, s)
	}
	return out
}
