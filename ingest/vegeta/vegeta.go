package vegeta

import (
	"bytes"
	"context"
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

// The vegeta parsers read the outputs of vegeta (github.com/tsenart/vegeta):
// "vegeta", the text report of `vegeta report` (this file); "vegeta-report-json"
// and "vegeta-hdrplot" (vegeta_report_json.go, vegeta_hdrplot.go); and the
// per-request "vegeta-json", "vegeta-csv", "vegeta-gob" (vegeta_results.go).
// Every row of a text report is read by the names in its brackets (older
// versions print fewer); which rows start a run and which a run needs:
// docs/FORMATS.md, section ingest/vegeta/vegeta.go.
type TextParser struct{}

// Name returns "vegeta": the text report of `vegeta report`.
func (TextParser) Name() string { return "vegeta" }

// row is the kind of a report row; the values are the rows' order.
type row int8

const (
	vegetaRowNone row = iota
	vegetaRowRequests
	vegetaRowDuration
	vegetaRowLatencies
	vegetaRowBytesIn
	vegetaRowBytesOut
	vegetaRowSuccess
	vegetaRowStatus
	vegetaRowErrorSet
)

// vegetaRowNames maps the name before the brackets to the row kind.
var vegetaRowNames = map[string]row{
	"Requests": vegetaRowRequests, "Duration": vegetaRowDuration, "Latencies": vegetaRowLatencies,
	"Bytes In": vegetaRowBytesIn, "Bytes Out": vegetaRowBytesOut, "Success": vegetaRowSuccess, "Status Codes": vegetaRowStatus,
}

// rowOf splits a normalized line into its row kind, the names in its
// brackets and the text after them. It returns vegetaRowNone for other lines.
func rowOf(s []byte) (row, []string, []byte) {
	if bytes.HasPrefix(s, []byte("Error Set:")) {
		return vegetaRowErrorSet, nil, s[len("Error Set:"):]
	}
	if len(s) == 0 || (s[0] != 'R' && s[0] != 'D' && s[0] != 'L' && s[0] != 'B' && s[0] != 'S') {
		return vegetaRowNone, nil, nil
	}
	i := bytes.IndexByte(s, '[')
	if i < 0 || i > 40 {
		return vegetaRowNone, nil, nil
	}
	j := bytes.IndexByte(s[i:], ']')
	if j < 0 {
		return vegetaRowNone, nil, nil
	}
	j += i
	var nameBuf [3][]byte
	name := core.Fields(s[:i], nameBuf[:0])
	var kind row
	switch len(name) {
	case 1:
		kind = vegetaRowNames[string(name[0])]
	case 2:
		kind = vegetaRowNames[string(name[0])+" "+string(name[1])]
	}
	if kind == vegetaRowNone {
		return vegetaRowNone, nil, nil
	}
	keys := strings.Split(string(s[i+1:j]), ",")
	for k := range keys {
		keys[k] = strings.TrimSpace(keys[k])
	}
	return kind, keys, core.TrimLeft(s[j+1:])
}

// values splits the values of a row ("1200, 120.00, 65.87") and
// reports whether there are as many as keys.
func values(rest []byte, keys []string) ([]string, bool) {
	vals := strings.Split(string(rest), ",")
	for i := range vals {
		vals[i] = strings.TrimSpace(vals[i])
	}
	if len(vals) != len(keys) || len(keys) == 0 {
		return nil, false
	}
	return vals, true
}

// duration parses a non-negative Go duration ("1.5ms", "10m0s",
// "396.281µs", "1.2us").
func duration(s string) (time.Duration, bool) {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, false
	}
	return d, true
}

// durationMs parses a Go duration into milliseconds.
func durationMs(s string) (float64, bool) {
	d, ok := duration(s)
	return float64(d) / 1e6, ok
}

// quantile maps a latency column name ("50", "99.9") to a quantile.
func quantile(key string) (float64, bool) {
	q, ok := core.ParseDec([]byte(key), -2)
	if !ok || q <= 0 || q >= 1 {
		return 0, false
	}
	return q, true
}

// report accumulates one text report block.
type report struct {
	startLine, lastLine int
	phase               row
	cmd                 *command

	requests               int64
	hasRequests            bool
	rate, throughput       float64
	hasRate, hasThroughput bool
	durS                   float64
	hasDur                 bool
	lat                    map[string]float64 // column name -> ms
	latKeys                []string
	bytesIn                int64
	hasBytesIn             bool
	success                float64
	hasSuccess             bool
	codes                  codes
	hasCodes               bool
	errSet                 errorSet
	inErrSet               bool
}

// codes sums the Status Codes of a report.
type codes struct {
	total, failed, non2xx, transport int64 // transport: code 0
}

// add counts n responses of status code.
func (c *codes) add(code, n int64) {
	c.total = core.AddSat(c.total, n)
	if code < 200 || code >= 400 {
		c.failed = core.AddSat(c.failed, n)
		if code != 0 {
			c.non2xx = core.AddSat(c.non2xx, n)
		} else {
			c.transport = core.AddSat(c.transport, n)
		}
	}
}

// errorSet keeps what the Error Set of a report tells.
type errorSet struct {
	shown     bool
	n         int      // distinct errors
	first     []string // the first few, quoted in notes
	transport int      // errors that are not an HTTP status ("500 Internal Server Error")
	timeouts  int      // transport errors that are timeouts
}

const vegetaQuotedErrors = 3

func (e *errorSet) add(s string) {
	e.n++
	if len(e.first) < vegetaQuotedErrors {
		if len(s) > 200 {
			s = s[:200] + "..."
		}
		e.first = append(e.first, s)
	}
	if !isStatusText(s) {
		e.transport++
		if requests.IsTimeout(s) {
			e.timeouts++
		}
	}
}

// isStatusText reports whether s is an HTTP status line as vegeta records
// it for non-2xx responses ("500 Internal Server Error").
func isStatusText(s string) bool {
	return len(s) >= 3 && s[0] >= '1' && s[0] <= '5' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' && s[2] <= '9' &&
		(len(s) == 3 || s[3] == ' ')
}

// timeouts derives the timeout count: every request with status 0 when
// every transport error listed is a timeout, 0 when none is, unknown else.
func (e *errorSet) timeoutCount(transport int64, codesKnown bool) *int64 {
	if !e.shown || !codesKnown {
		return nil
	}
	switch {
	case e.timeouts == 0:
		return results.Ptr(int64(0))
	case e.timeouts == e.transport:
		return results.Ptr(transport)
	}
	return nil
}

// notes returns the Error Set as a note.
func (e *errorSet) note() string {
	if e.n == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d distinct error(s): %s", e.n, strings.Join(e.first, " | "))
	if e.n > len(e.first) {
		b.WriteString(" | ...")
	}
	return b.String()
}

// textState is the text parser's state over one input.
type textState struct {
	opts    core.Options
	sink    core.Sink
	lab     core.Labeler
	index   int
	open    bool
	rep     report
	pending *command
}

// Detect reports whether head holds a vegeta text report: a Requests row
// (`Requests [total...]`) and a Latencies row with values.
func (TextParser) Detect(head []byte) bool {
	var req, lat bool
	for _, line := range core.HeadLines(head) {
		kind, keys, rest := rowOf(core.Normalize(line))
		switch kind {
		case vegetaRowRequests:
			if vals, ok := values(rest, keys); ok && keys[0] == "total" {
				_, err := strconv.ParseInt(vals[0], 10, 64)
				req = req || err == nil
			}
		case vegetaRowLatencies:
			if vals, ok := values(rest, keys); ok {
				_, ok = durationMs(vals[0])
				lat = lat || ok
			}
		}
		if req && lat {
			return true
		}
	}
	return false
}

// Parse streams the runs of the text reports in r to sink.
func (TextParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &textState{opts: opts, sink: sink, lab: core.Labeler{Labels: opts.Labels}}
	if err := core.EachLine(ctx, r, opts.Source, st.line); err != nil {
		return err
	}
	if err := st.close(); err != nil {
		return err
	}
	if st.index == 0 {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"vegeta"}}
	}
	return nil
}

// line handles one input line.
func (st *textState) line(b []byte, ln int) error {
	s := core.Normalize(b)
	r := &st.rep
	kind, keys, rest := rowOf(s)
	if kind == vegetaRowNone {
		if st.open && r.inErrSet {
			if len(s) == 0 || findVegetaCommand(s) >= 0 {
				r.inErrSet = false
			} else {
				r.errSet.add(string(s))
				r.lastLine = ln
				return nil
			}
		}
		if i := findVegetaCommand(s); i >= 0 {
			st.pending = parseVegetaCommand(string(s), i, ln)
		}
		return nil
	}
	if st.open {
		r.inErrSet = false
	}
	starter := kind == vegetaRowRequests || kind == vegetaRowDuration || kind == vegetaRowLatencies
	if !st.open || kind <= r.phase {
		if !starter {
			return nil // a repeated Status Codes or Error Set row, or one without a report
		}
		if !rowOK(kind, keys, rest) {
			return nil
		}
		if err := st.close(); err != nil {
			return err
		}
		st.open = true
		st.rep = report{startLine: ln, cmd: st.pending}
		if st.pending != nil {
			st.rep.startLine = st.pending.line
		}
		st.pending = nil
		r = &st.rep
	}
	if !r.row(kind, keys, rest) {
		return nil
	}
	r.phase = kind
	r.lastLine = ln
	return nil
}

// rowOK reports whether a row's values parse, without keeping them.
func rowOK(kind row, keys []string, rest []byte) bool {
	var r report
	return r.row(kind, keys, rest)
}

// row reads the values of a row into the report; it reports false, and
// leaves the report unchanged, when they do not parse.
func (r *report) row(kind row, keys []string, rest []byte) bool {
	switch kind {
	case vegetaRowErrorSet:
		r.errSet.shown = true
		r.inErrSet = true
		return true
	case vegetaRowStatus:
		return r.statusRow(keys, rest)
	}
	vals, ok := values(rest, keys)
	if !ok {
		return false
	}
	switch kind {
	case vegetaRowRequests:
		return r.requestsRow(keys, vals)
	case vegetaRowDuration:
		return r.durationRow(keys, vals)
	case vegetaRowLatencies:
		return r.latenciesRow(keys, vals)
	case vegetaRowBytesIn, vegetaRowBytesOut:
		return r.bytesRow(kind, keys, vals)
	case vegetaRowSuccess:
		return r.successRow(keys, vals)
	}
	return true
}

// statusRow reads "Status Codes [code:count]" and its code:count pairs.
func (r *report) statusRow(keys []string, rest []byte) bool {
	if len(keys) != 1 || keys[0] != "code:count" {
		return false
	}
	var c codes
	for _, f := range bytes.Fields(rest) {
		i := bytes.IndexByte(f, ':')
		if i <= 0 {
			return false
		}
		code, ok1 := core.ParseUint(f[:i])
		n, ok2 := core.ParseUint(f[i+1:])
		if !ok1 || !ok2 {
			return false
		}
		c.add(code, n)
	}
	r.codes, r.hasCodes = c, true
	return true
}

// requestsRow reads "Requests [total, rate, throughput]": total required.
func (r *report) requestsRow(keys, vals []string) bool {
	var v report
	for i, k := range keys {
		if k == "total" {
			n, ok := core.ParseUint([]byte(vals[i]))
			if !ok {
				return false
			}
			v.requests, v.hasRequests = n, true
			continue
		}
		if k != "rate" && k != "throughput" {
			return false
		}
		x, ok := core.ParseDec([]byte(vals[i]), 0)
		if !ok || !core.Finite(x) {
			return false
		}
		if k == "rate" {
			v.rate, v.hasRate = x, true
		} else {
			v.throughput, v.hasThroughput = x, true
		}
	}
	if !v.hasRequests {
		return false
	}
	r.requests, r.hasRequests = v.requests, true
	r.rate, r.hasRate, r.throughput, r.hasThroughput = v.rate, v.hasRate, v.throughput, v.hasThroughput
	return true
}

// durationRow reads "Duration [total, attack, wait]": the total kept.
func (r *report) durationRow(keys, vals []string) bool {
	if keys[0] != "total" || len(vals) > 3 {
		return false
	}
	var total time.Duration
	for i := range vals {
		d, ok := duration(vals[i])
		if !ok {
			return false
		}
		if i == 0 {
			total = d
		}
	}
	r.durS, r.hasDur = total.Seconds(), true
	return true
}

// latenciesRow reads "Latencies [min, mean, 50, ..., max]".
func (r *report) latenciesRow(keys, vals []string) bool {
	lat := make(map[string]float64, len(keys))
	for i, k := range keys {
		if _, q := quantile(k); !q && k != "min" && k != "mean" && k != "max" {
			return false
		}
		v, ok := durationMs(vals[i])
		if !ok {
			return false
		}
		lat[k] = v
	}
	r.lat, r.latKeys = lat, keys
	return true
}

// bytesRow reads "Bytes In [total, mean]" (kept) or "Bytes Out" (checked).
func (r *report) bytesRow(kind row, keys, vals []string) bool {
	if keys[0] != "total" {
		return false
	}
	n, ok := core.ParseUint([]byte(vals[0]))
	if !ok {
		return false
	}
	if kind == vegetaRowBytesIn {
		r.bytesIn, r.hasBytesIn = n, true
	}
	return true
}

// successRow reads "Success [ratio]", a percentage up to 100.
func (r *report) successRow(keys, vals []string) bool {
	v := strings.TrimSuffix(vals[0], "%")
	x, ok := core.ParseDec([]byte(v), -2)
	if keys[0] != "ratio" || !ok || x > 1 {
		return false
	}
	r.success, r.hasSuccess = x, true
	return true
}

// close ends the open report: emits it, or fails when it was cut off
// before its Latencies row or has neither Requests nor Status Codes.
func (st *textState) close() error {
	if !st.open {
		return nil
	}
	st.open = false
	r := &st.rep
	if r.lat == nil || !r.hasRequests && !r.hasCodes {
		what := "Latencies"
		if r.lat != nil {
			what = "Requests"
		}
		return &core.SyntaxError{File: st.opts.Source, Line: r.lastLine,
			Msg: fmt.Sprintf("vegeta report cut off: the report starting at line %d has no %s row", r.startLine, what)}
	}
	run := r.run()
	core.FillCommon(&run, st.opts, st.index, &st.lab)
	st.index++
	return st.sink.Run(run)
}

// run converts the report block.
func (r *report) run() results.RunWithPercentiles {
	var out results.RunWithPercentiles
	var notes []string
	out.Tool, out.LoadModel = "vegeta", results.LoadOpen
	out.SourceLine = int32(min(r.startLine, math.MaxInt32))
	out.Requests = r.requests
	if !r.hasRequests {
		out.Requests = r.codes.total
		notes = append(notes, "no Requests row: requests counted from the status codes")
	}
	if r.hasDur {
		out.DurationS = r.durS
	}
	switch {
	case r.hasThroughput:
		out.RPS = r.throughput
	case r.hasRate:
		out.RPS = r.rate
	case out.DurationS > 0:
		out.RPS = float64(out.Requests) / out.DurationS
	}
	if r.hasRate {
		out.TargetRPS = results.Ptr(r.rate)
		out.SentRPS = results.Ptr(r.rate)
	}
	if r.hasThroughput {
		out.SuccessRPS = results.Ptr(r.throughput)
	}
	r.cmd.apply(&out, &notes)
	if r.hasRate && out.TargetRPS != nil && (r.cmd == nil || !r.cmd.hasRate) {
		notes = append(notes, fmt.Sprintf("requested rate %s %s measured rate (no -rate in the output)", strconv.FormatFloat(r.rate, 'g', 6, 64), results.NoteRateInferred))
	}
	if r.hasBytesIn {
		out.BytesIn = results.Ptr(r.bytesIn)
	}
	switch {
	case r.hasCodes:
		out.Errors = r.codes.failed
		out.Non2xx = results.Ptr(r.codes.non2xx)
		out.Timeouts = r.errSet.timeoutCount(r.codes.transport, true)
	case r.hasSuccess:
		out.Errors = int64(math.Round(float64(out.Requests) * (1 - r.success)))
		notes = append(notes, "errors estimated from the success ratio")
	}
	if out.Requests > 0 || !r.hasRequests {
		latencies(&out, r.lat, r.latKeys)
	} else {
		out.Percentiles = []results.Percentile{}
	}
	if n := r.errSet.note(); n != "" {
		notes = append(notes, n)
	}
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return out
}

// latencies fills the latency fields and percentiles of run from
// latency columns in ms: min, mean, max and quantiles ("50", "99").
func latencies(run *results.RunWithPercentiles, lat map[string]float64, keys []string) {
	run.Percentiles = []results.Percentile{}
	if v, ok := lat["min"]; ok {
		run.LatMinMs = results.Ptr(v)
		run.Percentiles = append(run.Percentiles, results.Percentile{Quantile: 0, LatencyMs: v})
	}
	if v, ok := lat["mean"]; ok {
		run.LatMeanMs = results.Ptr(v)
	}
	for _, k := range keys {
		q, ok := quantile(k)
		if !ok {
			continue
		}
		v := lat[k]
		run.Percentiles = append(run.Percentiles, results.Percentile{Quantile: q, LatencyMs: v})
		switch q {
		case 0.5:
			run.LatP50Ms = results.Ptr(v)
		case 0.9:
			run.LatP90Ms = results.Ptr(v)
		case 0.99:
			run.LatP99Ms = results.Ptr(v)
		case 0.999:
			run.LatP999Ms = results.Ptr(v)
		}
	}
	if v, ok := lat["max"]; ok {
		run.LatMaxMs = results.Ptr(v)
		run.Percentiles = append(run.Percentiles, results.Percentile{Quantile: 1, LatencyMs: v})
	}
}

// command is a `vegeta attack` command line found before a report.
type command struct {
	raw  string
	line int

	target           string
	rate             float64 // requests per second; 0 = as fast as possible
	hasRate          bool
	duration         float64
	hasDuration      bool
	timeout          float64
	hasTimeout       bool
	maxWorkers       int64
	hasMaxWorkers    bool
	unparsedRateFlag bool
}

// findVegetaCommand returns the offset in s of a `vegeta attack` command
// (or of the echo, printf or cat feeding it targets), or -1: a token naming
// the vegeta program ("vegeta", "./vegeta", "peterevans/vegeta:latest")
// followed by "attack", possibly after global options ("-cpus 4").
func findVegetaCommand(s []byte) int {
	start, _ := findVegetaAttack(s)
	return start
}

// findVegetaAttack returns the offsets in s of the command (see
// findVegetaCommand) and of its vegeta token, or -1, -1.
func findVegetaAttack(s []byte) (int, int) {
	from := 0
	for {
		i := bytes.Index(s[from:], []byte("vegeta"))
		if i < 0 {
			return -1, -1
		}
		i += from
		from = i + len("vegeta")
		start, end := core.TokenAround(s, i, from)
		if !isVegetaExe(s[start:end]) || !startsAttack(core.TrimLeft(s[end:])) {
			continue
		}
		for start < len(s) && (s[start] == '`' || s[start] == '(') {
			start++
		}
		return feedStart(s, i, start), i
	}
}

// startsAttack reports whether next (what follows the vegeta token) is
// "attack", possibly after global options, followed by an option, a
// redirection, a pipe or nothing.
func startsAttack(next []byte) bool {
	a := 0
	if !bytes.HasPrefix(next, []byte("attack")) {
		j := bytes.Index(next, []byte(" attack"))
		if len(next) == 0 || next[0] != '-' || j < 0 || j > 30 {
			return false
		}
		a = j + 1
	}
	rest := next[a+len("attack"):]
	after := core.TrimLeft(rest)
	if len(after) == 0 {
		return true
	}
	return len(after) != len(rest) && bytes.IndexByte([]byte("-<>|;&)`\"'"), after[0]) >= 0
}

// feedStart is where the echo, printf, cat or jq feeding the vegeta token
// at i its targets starts, else start.
func feedStart(s []byte, i, start int) int {
	for _, feed := range []string{"echo ", "printf ", "cat ", "jq "} {
		if k := bytes.LastIndex(s[:i], []byte(feed)); k >= 0 && (k == 0 || core.SpaceAt(s, k-1) != 0 || bytes.IndexByte([]byte("(`\"'"), s[k-1]) >= 0) {
			return k
		}
	}
	return start
}

// isVegetaExe reports whether tok names the vegeta program.
func isVegetaExe(tok []byte) bool {
	tok = bytes.TrimLeft(tok, "`(\"'")
	if i := bytes.LastIndexAny(tok, `/\`); i >= 0 {
		tok = tok[i+1:]
	}
	if j := bytes.IndexByte(tok, ':'); j >= 0 {
		tok = tok[:j]
	}
	tok = bytes.TrimSuffix(tok, []byte(".exe"))
	return string(tok) == "vegeta"
}

// vegetaMethods are the HTTP methods recognized in an echoed target.
var vegetaMethods = []string{"GET ", "POST ", "PUT ", "PATCH ", "DELETE ", "HEAD ", "OPTIONS "}

// vegetaSyntax is how vegeta attack reads its options: Go's flag package,
// its boolean flags taking no value.
var vegetaSyntax = core.OptionSyntax{TakesValue: func(name string) bool {
	switch name {
	case "chunked", "http2", "h2c", "insecure", "lazy", "keepalive", "session-tickets":
		return false
	}
	return true
}}

// parseVegetaCommand reads the target (from an echoed "METHOD URL") and the
// options of a `vegeta attack` command starting at offset i of s (as
// findVegetaCommand returns it).
func parseVegetaCommand(s string, i, line int) *command {
	c := &command{raw: strings.TrimRight(s[i:], " \t\\`"), line: line}
	_, v := findVegetaAttack([]byte(s))
	if v < 0 {
		return c
	}
	feed := s[:v]
	for _, m := range vegetaMethods {
		k := strings.Index(feed, m)
		if k < 0 {
			continue
		}
		u := strings.TrimLeft(feed[k+len(m):], " ")
		if e := strings.IndexAny(u, " \t\"'|`\\"); e >= 0 {
			u = u[:e]
		}
		if strings.Contains(u, "://") {
			c.target = u
		}
		break
	}
	a := strings.Index(s[v:], "attack")
	if a < 0 {
		return c
	}
	vegetaSyntax.Scan(core.ShellWords(s[v+a+len("attack"):]), func(name, val string) bool {
		switch name {
		case "rate":
			if r, ok := rate(val); ok {
				c.rate, c.hasRate = r, true
			} else {
				c.unparsedRateFlag = true
			}
		case "duration":
			if d, err := time.ParseDuration(val); err == nil && d >= 0 {
				c.duration, c.hasDuration = d.Seconds(), true
			}
		case "timeout":
			if d, err := time.ParseDuration(val); err == nil && d >= 0 {
				c.timeout, c.hasTimeout = d.Seconds(), true
			}
		case "max-workers":
			if n, err := strconv.ParseInt(val, 10, 32); err == nil && n > 0 {
				c.maxWorkers, c.hasMaxWorkers = n, true
			}
		}
		return true
	}, func(string) bool { return true })
	return c
}

// rate parses vegeta's -rate value ("50", "50/1s", "1/100ms", "0",
// "infinity") into requests per second; 0 means as fast as possible.
func rate(v string) (float64, bool) {
	if v == "infinity" {
		return 0, true
	}
	freq, per, found := strings.Cut(v, "/")
	if !found {
		per = "1s"
	}
	n, err := strconv.Atoi(freq)
	if err != nil || n < 0 {
		return 0, false
	}
	if n == 0 {
		return 0, true
	}
	switch per {
	case "ns", "us", "µs", "ms", "s", "m", "h":
		per = "1" + per
	}
	d, err := time.ParseDuration(per)
	if err != nil || d <= 0 {
		return 0, false
	}
	return float64(n) / d.Seconds(), true
}

// apply sets what the command tells on run: command, target, requested
// rate, planned duration, timeout; -rate=0 (as fast as possible, with at
// most -max-workers workers) is a closed workload.
func (c *command) apply(run *results.RunWithPercentiles, notes *[]string) {
	if c == nil {
		return
	}
	run.Command = results.Ptr(c.raw)
	if c.target != "" {
		run.Target = c.target
	}
	if c.hasRate {
		if c.rate == 0 {
			run.LoadModel = results.LoadClosed
			run.TargetRPS = nil
			if c.hasMaxWorkers {
				run.Connections = results.Ptr(int32(c.maxWorkers))
			}
			*notes = append(*notes, "-rate=0: requests sent as fast as the workers allow (closed workload)")
		} else {
			run.TargetRPS = results.Ptr(c.rate)
		}
	}
	if c.hasDuration && c.duration > 0 {
		run.PlannedDurationS = results.Ptr(c.duration)
	}
	if c.hasTimeout {
		run.TimeoutS = results.Ptr(c.timeout)
	}
}
