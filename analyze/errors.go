package analyze

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/results"
)

// Bounds of the error tally of one run (ErrorTally): they bound its memory
// whatever the size of the run.
const (
	// MaxErrorCauses is the number of distinct causes (status and
	// normalized message) a run's tally keeps; the failed requests of any
	// further cause are counted under one cause whose Message is
	// OtherErrors.
	MaxErrorCauses = 32
	// ErrorBucketS is the first width of a tally's time buckets, seconds;
	// when a run outlasts maxErrorBuckets buckets the width doubles.
	ErrorBucketS    = 0.5
	maxErrorBuckets = 1024
	// maxErrorMessage is the longest normalized message kept, in bytes.
	maxErrorMessage = 200
)

// OtherErrors is the Message of the cause that counts the failed requests
// of a run beyond its MaxErrorCauses distinct causes.
const OtherErrors = "(other causes)"

// ErrorTally counts the failed requests of one run with per-request data
// by cause, with the first and last time each was seen and its count per
// time bucket. It is fed the run's samples (Add) and read with Result.
// A sample failed when it has an error message or, when the run's log has
// HTTP statuses (its non2xx column is not null), a status outside
// 200-399 (0: no response).
type ErrorTally struct {
	run      results.Run
	http     bool
	requests int64
	bucketS  float64
	causes   []ErrorCause
	index    map[causeKey]int
	norm     map[string]string // raw message -> normalized, bounded cache
	shapes   map[string]string // shape of a raw message (shapeKey) -> normalized, bounded cache
}

type causeKey struct {
	status int32
	msg    string
}

// NewErrorTally returns the tally of run.
func NewErrorTally(run results.Run) *ErrorTally {
	return &ErrorTally{run: run, http: run.Non2xx != nil, bucketS: ErrorBucketS, index: map[causeKey]int{},
		norm: map[string]string{}, shapes: map[string]string{}}
}

// Add counts one sample of the run (samples of other runs are ignored).
func (t *ErrorTally) Add(s results.Sample) {
	if s.RunID != t.run.RunID {
		return
	}
	t.requests++
	failed := s.Error != nil && *s.Error != "" || t.http && (s.Status < 200 || s.Status >= 400)
	if !failed {
		return
	}
	raw := ""
	if s.Error != nil {
		raw = *s.Error
	}
	msg := t.normalize(raw, s.Status)
	k := causeKey{s.Status, msg}
	i, ok := t.index[k]
	if !ok {
		if len(t.causes) >= MaxErrorCauses-1 {
			k = causeKey{-1, OtherErrors}
			i, ok = t.index[k]
		}
		if !ok {
			i = len(t.causes)
			t.index[k] = i
			c := ErrorCause{Status: k.status, Message: k.msg, FirstS: s.TS, LastS: s.TS}
			if k.msg != OtherErrors {
				c.Example = clip(raw, maxErrorMessage)
			}
			t.causes = append(t.causes, c)
		}
	}
	c := &t.causes[i]
	c.Count++
	c.FirstS, c.LastS = math.Min(c.FirstS, s.TS), math.Max(c.LastS, s.TS)
	b := int(math.Floor(math.Max(s.TS, 0) / t.bucketS))
	for b >= maxErrorBuckets {
		t.widen()
		b = int(math.Floor(math.Max(s.TS, 0) / t.bucketS))
	}
	if b >= len(c.Counts) {
		c.Counts = append(c.Counts, make([]int64, b+1-len(c.Counts))...)
	}
	c.Counts[b]++
}

// maxNormCache bounds each of a tally's caches of normalized messages.
const maxNormCache = 1024

// normalize is NormalizeError with two caches: by raw message, and by the
// message's shape (its digits all '0', with the status and whether the
// message starts with it), which holds a result only when every digit was
// folded away: NormalizeError's rules tell digits apart by class, never by
// value, so messages of one shape then normalize alike. A message per
// client port ("read tcp 127.0.0.1:41234->...") costs one regular
// expression pass per shape, not per request.
func (t *ErrorTally) normalize(raw string, status int32) string {
	if m, ok := t.norm[raw]; ok {
		return m
	}
	shape := shapeKey(raw, status)
	if m, ok := t.shapes[shape]; ok {
		return m
	}
	m := NormalizeError(raw, status)
	rest := m
	if status > 0 {
		rest = strings.TrimPrefix(m, strconv.Itoa(int(status))+" ")
	}
	if !strings.ContainsAny(rest, "0123456789") {
		if len(t.shapes) < maxNormCache {
			t.shapes[shape] = m
		}
	} else if len(t.norm) < maxNormCache {
		t.norm[raw] = m
	}
	return m
}

// shapeKey is the cache key of a message's shape (see normalize).
func shapeKey(raw string, status int32) string {
	b := make([]byte, 0, len(raw)+16)
	b = strconv.AppendInt(b, int64(status), 10)
	if status > 0 && strings.HasPrefix(raw, strconv.Itoa(int(status))+" ") {
		b = append(b, '+')
	}
	b = append(b, 0)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c >= '0' && c <= '9' {
			c = '0'
		}
		b = append(b, c)
	}
	return string(b)
}

// widen doubles the bucket width, adding adjacent buckets.
func (t *ErrorTally) widen() {
	t.bucketS *= 2
	for i := range t.causes {
		t.causes[i].Counts = halve(t.causes[i].Counts)
	}
}

// halve adds adjacent pairs of counts.
func halve(c []int64) []int64 {
	out := make([]int64, (len(c)+1)/2)
	for i, n := range c {
		out[i/2] += n
	}
	return out
}

// Result returns what the tally counted.
func (t *ErrorTally) Result() RunErrors {
	return RunErrors{RunID: t.run.RunID, Requests: t.requests, BucketS: t.bucketS, Causes: slices.Clone(t.causes)}
}

// RunErrors are the failed requests of one run with per-request data, by
// cause (ErrorTally): what Set.Errors carries.
type RunErrors struct {
	RunID string
	// Requests are the run's samples read.
	Requests int64
	// BucketS is the width of the causes' Counts buckets, seconds.
	BucketS float64
	// Causes in order of first sight.
	Causes []ErrorCause
}

// ErrorCause is one cause of a run's failed requests.
type ErrorCause struct {
	// Status is the HTTP status (0: no response; -1 for OtherErrors).
	Status int32
	// Message is the error message normalized by NormalizeError, empty
	// when the failed requests had none (a status alone).
	Message string
	// Example is the first raw message of the cause.
	Example string
	Count   int64
	// FirstS and LastS are the first and last send times of the cause's
	// requests, seconds since the run's start.
	FirstS, LastS float64
	// Counts are the cause's failed requests per bucket of the run's
	// BucketS, from the run's start.
	Counts []int64
}

// The folding rules of NormalizeError, applied in this order.
var (
	reUUID   = regexp.MustCompile(`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`)
	reIPv6   = regexp.MustCompile(`\[[0-9a-fA-F:.]*:[0-9a-fA-F:.]*\](:\d+)?`)
	reIPv4   = regexp.MustCompile(`\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b`)
	rePort   = regexp.MustCompile(`([A-Za-z0-9>\]-]):\d{1,5}\b`)
	reHexID  = regexp.MustCompile(`\b(?:0x)?[0-9a-fA-F]*[0-9][0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*\b|\b(?:0x)?[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*[0-9][0-9a-fA-F]*\b`)
	reNumber = regexp.MustCompile(`\b\d+(?:\.\d+)?`)
	reSpace  = regexp.MustCompile(`\s+`)
)

// NormalizeError folds what varies between occurrences of one cause out
// of an error message, so that one cause is one row: UUIDs and hex ids of
// 8 or more digits become <id>, IPv6 and IPv4 addresses <ip>, ports
// (":41234" after a host or address) ":<port>", other numbers <n>, and
// runs of white space one space; the text is clipped to 200 bytes. A
// message that starts with the request's HTTP status ("503 Service
// Unavailable") keeps it. "dial tcp 127.0.0.1:41234: connect: connection
// refused" becomes "dial tcp <ip>:<port>: connect: connection refused".
func NormalizeError(msg string, status int32) string {
	msg = strings.TrimSpace(reSpace.ReplaceAllString(msg, " "))
	if msg == "" {
		return ""
	}
	prefix := ""
	if status > 0 {
		if p := strconv.Itoa(int(status)) + " "; strings.HasPrefix(msg, p) {
			prefix, msg = p, msg[len(p):]
		}
	}
	msg = reUUID.ReplaceAllString(msg, "<id>")
	msg = reIPv6.ReplaceAllStringFunc(msg, func(s string) string {
		if strings.Contains(s, "]:") {
			return "<ip>:<port>"
		}
		return "<ip>"
	})
	msg = reIPv4.ReplaceAllString(msg, "<ip>")
	msg = rePort.ReplaceAllString(msg, "$1:<port>")
	msg = reHexID.ReplaceAllStringFunc(msg, func(s string) string {
		if len(strings.TrimPrefix(s, "0x")) >= 8 {
			return "<id>"
		}
		return s
	})
	msg = reNumber.ReplaceAllString(msg, "<n>")
	return clip(prefix+msg, maxErrorMessage)
}

// clip cuts s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + "…"
}

// ErrorBreakdown is the failed requests of one system (and endpoint), by
// status and by cause: the runs' counts from the runs table, their causes
// from the per-request data of the runs that have it (Set.Errors).
type ErrorBreakdown struct {
	System string
	// Endpoint is the endpoint of the runs (runs.endpoint), nil for runs
	// over the whole test.
	Endpoint *string
	// Runs, Requests and Errors are the system's (endpoint's) runs and
	// their requests and failed requests (runs table).
	Runs     int
	Requests int64
	Errors   int64
	// ErrorShare is Errors over Requests.
	ErrorShare      float64
	RunIDs          []string
	Seqs            []int32
	PerRequestRuns  int   // runs whose failed requests are in the rows by cause
	PerRequestError int64 // their failed requests
	// ByStatus are the failed requests by HTTP status (0: no response),
	// most first; Message is empty. Runs without per-request data add
	// rows from their counters (Counter set).
	ByStatus []ErrorRow
	// Causes are the failed requests by status and normalized message,
	// most first, then first seen.
	Causes []ErrorRow
	// BucketS is the width of the rows' Counts buckets, seconds.
	BucketS float64
}

// ErrorRow is one row of an ErrorBreakdown.
type ErrorRow struct {
	// Status is the HTTP status (0: no response, -1: not told).
	Status int32
	// Message is the normalized message (NormalizeError), Example one
	// raw message; a Counter row's Message names its counter.
	Message, Example string
	Count            int64
	// ShareErrors is Count over the breakdown's Errors, ShareRequests
	// over its Requests.
	ShareErrors, ShareRequests float64
	// First and Last are when the row's failed requests were first and
	// last seen; nil for a Counter row.
	First, Last *ErrorSeen
	// Counts are the row's failed requests per BucketS of the
	// breakdown, from each run's start, added over the runs.
	Counts []int64
	// Counter is set for a row counted by a tool's summary (no time,
	// no message): "non-2xx", "timeout", "connect", "read", "write",
	// "other".
	Counter string
}

// ErrorSeen is a moment a cause was seen: a run and the time since its
// start (and the clock time, when the run's start is known). Its JSON is
// summary.json's errors[].causes[].first_seen (rounded there).
type ErrorSeen struct {
	RunID string     `json:"run_id"`
	Seq   int32      `json:"seq"`
	AtS   float64    `json:"at_s"`
	At    *time.Time `json:"at,omitempty"`
}

// The counters of runs without per-request data (ErrorRow.Counter).
const (
	CounterNon2xx  = "non-2xx"
	CounterTimeout = "timeout"
	CounterConnect = "connect"
	CounterRead    = "read"
	CounterWrite   = "write"
	CounterOther   = "other"
)

// errorBreakdowns builds Verdict.Errors: one breakdown per system and
// endpoint whose runs failed, in the order of their first run.
func (v *Verdict) errorBreakdowns(tallies []RunErrors) {
	byRun := map[string]RunErrors{}
	for _, t := range tallies {
		byRun[t.RunID] = t
	}
	runOf := map[string]results.Run{}
	for _, r := range v.Runs {
		runOf[r.RunID] = r
	}
	for _, b := range groupErrorBreakdowns(v.Runs) {
		if b.Errors > 0 {
			fillBreakdown(&b, byRun, runOf)
			v.Errors = append(v.Errors, b)
		}
	}
}

// groupErrorBreakdowns counts the runs, requests and errors of each
// system and endpoint, in the order of their first run.
func groupErrorBreakdowns(runs []results.Run) []ErrorBreakdown {
	type key struct{ label, ep string }
	idx := map[key]int{}
	var out []ErrorBreakdown
	for _, r := range runs {
		ep := ""
		if r.Endpoint != nil {
			ep = *r.Endpoint
		}
		k := key{r.Label, ep}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, ErrorBreakdown{System: r.Label, Endpoint: r.Endpoint})
		}
		b := &out[i]
		b.Runs++
		b.Requests += r.Requests
		b.Errors += r.Errors
		b.RunIDs = append(b.RunIDs, r.RunID)
		b.Seqs = append(b.Seqs, r.Seq)
	}
	return out
}

// fillBreakdown adds to a breakdown with errors its share, bucket and
// rows by cause and by status, from its runs' tallies (byRun) or, for a
// run without per-request data, its counters.
func fillBreakdown(b *ErrorBreakdown, byRun map[string]RunErrors, runOf map[string]results.Run) {
	b.ErrorShare = share(b.Errors, b.Requests)
	b.BucketS = ErrorBucketS
	for _, id := range b.RunIDs {
		if t, ok := byRun[id]; ok {
			b.BucketS = math.Max(b.BucketS, t.BucketS)
		}
	}
	rows := newErrorRows()
	for _, id := range b.RunIDs {
		r := runOf[id]
		t, ok := byRun[id]
		if !ok {
			rows.addCounters(r)
			continue
		}
		b.PerRequestRuns++
		b.PerRequestError += rows.addTally(r, t, int(math.Round(b.BucketS/t.BucketS)))
	}
	for _, k := range rows.order {
		b.Causes = append(b.Causes, *rows.causes[k])
	}
	for _, s := range rows.sorder {
		b.ByStatus = append(b.ByStatus, *rows.statuses[s])
	}
	for _, rows := range [][]ErrorRow{b.Causes, b.ByStatus} {
		for j := range rows {
			rows[j].ShareErrors = share(rows[j].Count, b.Errors)
			rows[j].ShareRequests = share(rows[j].Count, b.Requests)
		}
		slices.SortStableFunc(rows, func(x, y ErrorRow) int {
			return cmp.Or(cmp.Compare(y.Count, x.Count), cmpSeen(x.First, y.First))
		})
	}
}

// errorRows gathers a breakdown's rows by cause and by status, each in
// the order first met.
type errorRows struct {
	causes   map[causeKey]*ErrorRow
	statuses map[int32]*ErrorRow
	order    []causeKey
	sorder   []int32
}

func newErrorRows() *errorRows {
	return &errorRows{causes: map[causeKey]*ErrorRow{}, statuses: map[int32]*ErrorRow{}}
}

// cause is k's row, made from first when new.
func (e *errorRows) cause(k causeKey, first ErrorRow) *ErrorRow {
	row := e.causes[k]
	if row == nil {
		row = &first
		e.causes[k] = row
		e.order = append(e.order, k)
	}
	return row
}

// status is a status's row, made when new.
func (e *errorRows) status(st int32) *ErrorRow {
	s := e.statuses[st]
	if s == nil {
		s = &ErrorRow{Status: st}
		e.statuses[st] = s
		e.sorder = append(e.sorder, st)
	}
	return s
}

// addCounters adds the rows of a run without per-request data.
func (e *errorRows) addCounters(r results.Run) {
	for _, c := range counterRows(r) {
		e.cause(causeKey{c.Status, "\x00" + c.Counter}, ErrorRow{Status: c.Status, Counter: c.Counter, Message: c.Message}).Count += c.Count
		e.status(c.Status).Count += c.Count
	}
}

// addTally adds a run's per-request causes, their counts over time
// merged factor buckets to one, and returns the errors they hold.
func (e *errorRows) addTally(r results.Run, t RunErrors, factor int) int64 {
	var n int64
	for _, c := range t.Causes {
		n += c.Count
		first, last := seen(r, c.FirstS), seen(r, c.LastS)
		for _, row := range []*ErrorRow{
			e.cause(causeKey{c.Status, c.Message}, ErrorRow{Status: c.Status, Message: c.Message, Example: c.Example}),
			e.status(c.Status),
		} {
			row.Count += c.Count
			row.Counts = addCounts(row.Counts, c.Counts, factor)
			if row.First == nil || earlier(first, row.First) {
				row.First = first
			}
			if row.Last == nil || earlier(row.Last, last) {
				row.Last = last
			}
		}
	}
	return n
}

// counterRows are the rows of a run without per-request data, from its
// counters: non-2xx responses, then timeouts and socket errors, and what
// its error count holds beyond them as "other".
func counterRows(r results.Run) []ErrorRow {
	var rows []ErrorRow
	var sum int64
	for _, c := range []struct {
		p       *int64
		status  int32
		counter string
		what    string
	}{
		{r.Non2xx, -1, CounterNon2xx, "non-2xx/3xx responses"},
		{r.Timeouts, 0, CounterTimeout, "timeouts"},
		{r.ConnectErrors, 0, CounterConnect, "connect errors"},
		{r.ReadErrors, 0, CounterRead, "read errors"},
		{r.WriteErrors, 0, CounterWrite, "write errors"},
	} {
		if c.p != nil && *c.p > 0 {
			rows = append(rows, ErrorRow{Status: c.status, Counter: c.counter, Message: c.what, Count: *c.p})
			sum += *c.p
		}
	}
	if r.Errors > sum {
		rows = append(rows, ErrorRow{Status: -1, Counter: CounterOther, Message: "failed requests the summary does not break down", Count: r.Errors - sum})
	}
	return rows
}

// addCounts adds src, whose buckets are factor times narrower, to dst.
func addCounts(dst, src []int64, factor int) []int64 {
	factor = max(factor, 1)
	n := (len(src) + factor - 1) / factor
	if n > len(dst) {
		dst = append(dst, make([]int64, n-len(dst))...)
	}
	for i, c := range src {
		dst[i/factor] += c
	}
	return dst
}

func seen(r results.Run, atS float64) *ErrorSeen {
	s := &ErrorSeen{RunID: r.RunID, Seq: r.Seq, AtS: atS}
	if r.StartedAt != nil {
		t := r.StartedAt.Add(time.Duration(atS * float64(time.Second))).UTC()
		s.At = &t
	}
	return s
}

// earlier reports whether a was seen before b: by clock time when both
// have one, otherwise by run, then time in the run.
func earlier(a, b *ErrorSeen) bool { return cmpSeen(a, b) < 0 }

func cmpSeen(a, b *ErrorSeen) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	case a.At != nil && b.At != nil && !a.At.Equal(*b.At):
		return a.At.Compare(*b.At)
	}
	return cmp.Or(cmp.Compare(a.Seq, b.Seq), cmp.Compare(a.AtS, b.AtS))
}

func share(n, of int64) float64 {
	if of <= 0 {
		return 0
	}
	return float64(n) / float64(of)
}
