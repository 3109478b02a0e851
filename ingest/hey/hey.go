package hey

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

// The hey parser reads the text summary of hey (github.com/rakyll/hey),
// wherever it sits in a file: bare, in terminal transcripts or markdown,
// several runs in a row, between the log lines of tools that embed hey's
// requester.
//
// A run is the block of docs/FORMATS.md's layout. hey does not print its target: the target (and the connections, -z,
// -t) come from a `hey ... URL` command line before the block, else the
// target is empty and the run is named after its file. hey records at most
// 1,000,000 results: beyond that the status counts fall short of
// Requests/sec × Total, and requests is taken from the latter.
//
// oha (github.com/hatoo/oha) prints a look-alike block (Summary: ...
// Requests/sec:); a block with oha's markers (Success rate:, Size/sec:,
// Response time distribution:, sizes in KiB/MiB) is skipped.
type Parser struct{}

// Name returns "hey".
func (Parser) Name() string { return "hey" }

// heyMaxResults is the number of results hey keeps for its report.
const heyMaxResults = 1_000_000

// section is the part of a hey block a line belongs to.
type section uint8

const (
	heySectionNone section = iota
	heySectionSummary
	heySectionHist
	heySectionLat
	heySectionDetails
	heySectionStatus
	heySectionErrors
)

// Summary keys, as bits of run.keys.
const (
	heyKeyTotal = 1 << iota
	heyKeySlowest
	heyKeyFastest
	heyKeyAverage
	heyKeyRPS
	heyKeyData
	heyKeySize
)

// run accumulates one block.
type run struct {
	core.FirstBad
	startLine, firstLine, lastLine int
	cmd                            *command
	sec                            section
	keys                           uint8
	sections                       uint8 // 1<<section for each section header seen
	oha                            bool
	total, slowest, fastest        float64 // ms
	average, rps                   float64 // ms, req/s
	averageNaN                     bool
	totalData, sizeReq             int64
	hist                           int64
	pcts                           []results.Percentile
	zeroRows                       int
	recorded, non2xx               int64
	statusRows                     int
	errs, timeouts                 int64
	errKinds                       int
}

// state is the parser's state over one input.
type state struct {
	core.RunState
	run     run
	pending *command
	f       [24][]byte
}

// Detect reports whether head holds a hey summary: a "Summary:" line
// followed by its Total and Requests/sec lines and at least two of
// Slowest, Fastest and Average, all in seconds, without oha's markers.
func (Parser) Detect(head []byte) bool {
	st := &state{RunState: core.RunState{Detect: true}}
	core.ScanHead(head, st.line, func() bool { return st.Found })
	if !st.Found {
		_ = st.close()
	}
	return st.Found
}

// Parse streams the hey runs of r to sink in input order.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &state{RunState: core.RunState{Opts: opts, Sink: sink, Lab: core.Labeler{Labels: opts.Labels}}}
	if err := core.EachLine(ctx, r, opts.Source, st.line); err != nil {
		return err
	}
	if err := st.close(); err != nil {
		return err
	}
	if st.Index == 0 {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"hey"}}
	}
	return nil
}

// secs parses "0.0183 secs" (f[i], f[i+1]) into milliseconds
// (correctly rounded); NaN is reported by nan.
func secs(f [][]byte, i int) (ms float64, nan, ok bool) {
	if len(f) < i+2 || string(core.TrimPunct(f[i+1])) != "secs" {
		return 0, false, false
	}
	if core.IsNaN(f[i]) {
		return 0, true, true
	}
	ms, ok = core.ParseDec(f[i], 3)
	return ms, false, ok
}

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if st.continued(s) {
		return nil
	}
	r := &st.run
	if len(s) == 0 {
		if st.Active && r.sec != heySectionSummary && r.sec != heySectionNone {
			r.sec = heySectionNone
		}
		return nil
	}
	f := core.Fields(s, st.f[:0])
	switch string(f[0]) {
	case "Summary:":
		if len(f) == 1 {
			if err := st.close(); err != nil {
				return err
			}
			st.start(ln)
			return nil
		}
	}
	if !st.Active {
		st.command(s, ln)
		return nil
	}
	if st.section(f, ln) {
		return nil
	}
	if st.sectionRow(s, f, ln) {
		return nil
	}
	// A hey command after a complete block (or in a block that is no hey
	// output) starts the next run.
	if r.keys&heyKeyTotal != 0 && r.keys&heyKeyRPS != 0 || r.keys == 0 {
		return st.nextCommand(s, ln)
	}
	return nil
}

// continued reads s as the continuation of a command line that ended
// with a backslash; false when it is none.
func (st *state) continued(s []byte) bool {
	p := st.pending
	if p == nil || !p.more {
		return false
	}
	if len(s) > 0 && len(p.raw) < 4096 {
		if c, ok := parseHeyCommand(p.raw+" "+string(s), p.line); ok {
			st.pending = c
			return true
		}
	}
	p.more = false
	return false
}

// nextCommand reads a hey command line that starts the next run.
func (st *state) nextCommand(s []byte, ln int) error {
	i := core.FindCommand(s, isHeyExe)
	if i < 0 {
		return nil
	}
	c, ok := parseHeyCommand(string(s[i:]), ln)
	if !ok {
		return nil
	}
	if err := st.close(); err != nil {
		return err
	}
	st.pending = c
	return nil
}

// sectionRow reads a row of the section the run is in; false when the
// line is none (and the section has ended).
func (st *state) sectionRow(s []byte, f [][]byte, ln int) bool {
	r := &st.run
	var ok bool
	switch r.sec {
	case heySectionSummary:
		if st.summaryKey(f) {
			r.lastLine = ln
			return true
		}
		return false
	case heySectionHist:
		ok = r.histRow(f, ln)
	case heySectionLat:
		// 10% in 0.0009 secs, 10%% in hey 0.1.5
		if ok = len(f) == 4 && string(f[1]) == "in"; ok {
			st.latRow(f, ln)
		}
	case heySectionDetails:
		if ok = detailRow(f); ok {
			r.lastLine = ln
		}
	case heySectionStatus:
		ok = r.statusRow(s, f, ln)
	case heySectionErrors:
		ok = r.errorRow(s, f, ln)
	default:
		return false
	}
	if !ok {
		r.sec = heySectionNone
	}
	return ok
}

// histRow reads a row of the histogram, "0.000 [1]	|■■■".
func (r *run) histRow(f [][]byte, ln int) bool {
	if len(f) < 2 {
		return false
	}
	if _, ok := core.ParseDec(f[0], 0); !ok {
		return false
	}
	n, ok := core.BracketedCount(f[1])
	if !ok {
		return false
	}
	r.hist = core.AddSat(r.hist, n)
	r.lastLine = ln
	return true
}

// statusRow reads a row of the status code distribution, "[200] 100
// responses"; a malformed one is noted.
func (r *run) statusRow(s []byte, f [][]byte, ln int) bool {
	if len(f) != 3 || string(f[2]) != "responses" {
		return false
	}
	code, ok1 := core.BracketedCount(f[0])
	n, ok2 := core.ParseUint(f[1])
	if !ok1 || !ok2 || code > 999 {
		r.Malformed(ln, "status code row "+strconv.Quote(string(s)))
		return true
	}
	r.recorded = core.AddSat(r.recorded, n)
	if code < 200 || code >= 400 {
		r.non2xx = core.AddSat(r.non2xx, n)
	}
	r.statusRows++
	r.lastLine = ln
	return true
}

// errorRow reads a row of the error distribution, "[12] Get ...: timeout".
func (r *run) errorRow(s []byte, f [][]byte, ln int) bool {
	if len(f) < 2 {
		return false
	}
	n, ok := core.BracketedCount(f[0])
	if !ok {
		return false
	}
	r.errs = core.AddSat(r.errs, n)
	if requests.IsTimeout(string(core.Rest(s, f[1]))) {
		r.timeouts = core.AddSat(r.timeouts, n)
	}
	r.errKinds++
	r.lastLine = ln
	return true
}

// command remembers a hey command line seen outside a block.
func (st *state) command(s []byte, ln int) {
	if i := core.FindCommand(s, isHeyExe); i >= 0 {
		if c, ok := parseHeyCommand(string(s[i:]), ln); ok {
			st.pending = c
		}
	}
}

// section handles a section header; it reports false for other lines.
func (st *state) section(f [][]byte, ln int) bool {
	r := &st.run
	var sec section
	switch string(f[0]) {
	case "Response":
		if len(f) == 3 && string(f[1]) == "time" {
			switch string(f[2]) {
			case "histogram:":
				sec = heySectionHist
			case "distribution:": // oha
				r.oha = true
				sec = heySectionLat
			}
		}
	case "Latency":
		if len(f) == 2 && string(f[1]) == "distribution:" {
			sec = heySectionLat
		}
	case "Details":
		if len(f) >= 2 && bytes.HasPrefix(f[1], []byte("(average")) {
			sec = heySectionDetails
		}
	case "Status":
		if len(f) == 3 && string(f[1]) == "code" && string(f[2]) == "distribution:" {
			sec = heySectionStatus
		}
	case "Error":
		if len(f) == 2 && string(f[1]) == "distribution:" {
			sec = heySectionErrors
		}
	}
	if sec == heySectionNone {
		return false
	}
	r.sec = sec
	r.sections |= 1 << sec
	r.lastLine = ln
	return true
}

// summaryKey handles a line of the Summary section.
func (st *state) summaryKey(f [][]byte) bool {
	r := &st.run
	key := string(f[0])
	switch {
	case key == "Total" && len(f) >= 2 && string(f[1]) == "data:":
		// Total data: 122400 bytes (oha: 38.28 MiB)
		return r.sizeKey(f, 4, &r.totalData, heyKeyData)
	case key == "Size/request:" && len(f) >= 2:
		return r.sizeKey(f, 3, &r.sizeReq, heyKeySize)
	case key == "Success" && len(f) >= 2 && string(f[1]) == "rate:", key == "Size/sec:" && len(f) >= 2:
		r.oha = true
		return true
	case key == "Requests/sec:" && len(f) == 2:
		return r.rpsKey(f[1])
	}
	return r.secondsKey(key, f)
}

// sizeKey reads a size line of n fields ending "N bytes" into dst; a
// size in other units is oha's.
func (r *run) sizeKey(f [][]byte, n int, dst *int64, bit uint8) bool {
	if len(f) != n {
		return false
	}
	if string(f[n-1]) != "bytes" {
		r.oha = true
		return true
	}
	v, ok := core.ParseUint(f[n-2])
	if !ok {
		return false
	}
	*dst = v
	r.keys |= bit
	return true
}

// rpsKey reads the value of "Requests/sec:" (NaN or Inf when hey divided
// by nothing).
func (r *run) rpsKey(v []byte) bool {
	if x, ok := core.ParseDec(v, 0); ok {
		r.rps = x
		r.keys |= heyKeyRPS
		return true
	}
	if core.IsNaN(v) || strings.Contains(string(v), "Inf") {
		r.keys |= heyKeyRPS
		return true
	}
	return false
}

// secondsKey reads "Total:", "Slowest:", "Fastest:" or "Average:" and its
// seconds; a repeated key keeps the first value.
func (r *run) secondsKey(key string, f [][]byte) bool {
	var bit uint8
	var dst *float64
	switch key {
	case "Total:":
		bit, dst = heyKeyTotal, &r.total
	case "Slowest:":
		bit, dst = heyKeySlowest, &r.slowest
	case "Fastest:":
		bit, dst = heyKeyFastest, &r.fastest
	case "Average:":
		bit, dst = heyKeyAverage, &r.average
	default:
		return false
	}
	v, nan, ok := secs(f, 1)
	if !ok || len(f) != 3 {
		return false
	}
	if r.keys&bit != 0 {
		return true
	}
	r.keys |= bit
	*dst = v
	if nan && bit == heyKeyAverage {
		r.averageNaN = true
	}
	return true
}

// latRow handles a row of the latency distribution.
func (st *state) latRow(f [][]byte, ln int) {
	r := &st.run
	p := f[0]
	p = bytes.TrimSuffix(p, []byte("%"))
	p = bytes.TrimSuffix(p, []byte("%"))
	if len(p) == len(f[0]) {
		r.Malformed(ln, "latency row "+strconv.Quote(string(bytes.Join(f, []byte(" ")))))
		return
	}
	if bytes.IndexByte(p, '.') >= 0 {
		r.oha = true // oha prints 10.00%
	}
	pct, ok := core.ParseDec(p, 0)
	v, nan, ok2 := secs(f, 2)
	if !ok || !ok2 || pct > 100 {
		r.Malformed(ln, "latency row "+strconv.Quote(string(bytes.Join(f, []byte(" ")))))
		return
	}
	r.lastLine = ln
	if pct == 0 || nan {
		r.zeroRows++ // hey prints unset points as "0% in 0.0000 secs"
		return
	}
	if len(r.pcts) < core.MaxPercentiles {
		r.pcts = append(r.pcts, results.Percentile{Quantile: pct / 100, LatencyMs: v})
	}
}

// detailRow reports whether f is a row of hey's Details section
// ("DNS+dialup: 0.0001 secs, 0.0004 secs, 0.0074 secs").
func detailRow(f [][]byte) bool {
	i := 1
	switch string(f[0]) {
	case "DNS+dialup:", "DNS-lookup:":
	case "req", "resp":
		if len(f) < 2 || (string(f[1]) != "write:" && string(f[1]) != "wait:" && string(f[1]) != "read:") {
			return false
		}
		i = 2
	default:
		return false
	}
	for ; i+1 < len(f); i += 2 {
		if _, _, ok := secs(f, i); !ok {
			return false
		}
	}
	return i == len(f)
}

// start begins a block at its Summary line.
func (st *state) start(ln int) {
	st.Active = true
	st.run = run{startLine: ln, firstLine: ln, lastLine: ln, sec: heySectionSummary, pcts: st.run.pcts[:0]}
	if c := st.pending; c != nil && !c.csv {
		st.run.cmd = c
		st.run.startLine = c.line
	}
	st.pending = nil
}

// isHey reports whether the block is a hey run (complete or not), and
// whether it is complete.
func (r *run) isHey() (hey, complete bool) {
	if r.oha {
		return false, false
	}
	n := 0
	for _, b := range []uint8{heyKeyTotal, heyKeySlowest, heyKeyFastest, heyKeyAverage, heyKeyRPS} {
		if r.keys&b != 0 {
			n++
		}
	}
	complete = r.keys&heyKeyTotal != 0 && r.keys&heyKeyRPS != 0 && n >= 4
	return complete || n >= 2, complete
}

// close ends the current block, emitting it when it is a hey run.
func (st *state) close() error {
	if !st.Active {
		return nil
	}
	st.Active = false
	r := &st.run
	hey, complete := r.isHey()
	if !hey {
		if r.cmd != nil && st.pending == nil && r.keys == 0 {
			st.pending = r.cmd // a "Summary:" of something else: the command waits for its output
		}
		return nil
	}
	if !complete {
		if st.Detect {
			return nil
		}
		return &core.SyntaxError{File: st.Opts.Source, Line: r.lastLine,
			Msg: "hey summary without its Total, Requests/sec or latency lines (cut paste?)"}
	}
	if r.Bad != "" && !st.Detect {
		return st.Malformed("hey", r.BadLine, r.Bad)
	}
	st.Found = true
	if st.Detect {
		return nil
	}
	out := st.build()
	return st.Emit(out)
}

// build makes the run of a complete block.
func (st *state) build() results.RunWithPercentiles {
	r := &st.run
	out := results.RunWithPercentiles{Run: results.Run{
		Tool: "hey", LoadModel: results.LoadClosed, DurationS: r.total / 1000, RPS: r.rps,
		SourceLine: int32(r.startLine),
	}, Percentiles: []results.Percentile{}}
	notes := r.settings(&out)
	hasStatus := r.sections&(1<<heySectionStatus) != 0
	n, meanFix, countNotes := r.requests(hasStatus)
	notes = append(notes, countNotes...)
	out.Requests = n
	if hasStatus || r.errs > 0 {
		out.Errors = core.AddSat(r.errs, r.non2xx)
		out.Non2xx = results.Ptr(r.non2xx)
		out.Timeouts = results.Ptr(r.timeouts)
	}
	if r.keys&heyKeyData != 0 {
		out.BytesIn = results.Ptr(r.totalData)
		if durS := r.total / 1000; durS > 0 {
			out.TransferBPS = results.Ptr(float64(r.totalData) / durS)
		}
	}
	// Latency: meaningful when responses were recorded (all failed: hey
	// prints Average NaN and 0.0000 for the others).
	if (r.recorded > 0 || !hasStatus) && !r.averageNaN {
		r.latency(&out, meanFix)
	}
	core.AddPercentiles(&out, r.pcts)
	if r.zeroRows > 0 && r.recorded > 0 {
		notes = append(notes, fmt.Sprintf("%d latency distribution rows printed as \"0%% in 0.0000 secs\" (too few results for them): left out", r.zeroRows))
	}
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return out
}

// settings sets what the command line tells: target, connections,
// planned duration, timeout; a rate limit is noted.
func (r *run) settings(out *results.RunWithPercentiles) (notes []string) {
	c := r.cmd
	if c == nil {
		return nil
	}
	out.Target = c.url
	out.Command = results.Ptr(c.raw)
	out.Connections = results.Ptr(int32(c.conns))
	if c.duration > 0 {
		out.PlannedDurationS = results.Ptr(c.duration)
	}
	if c.timeout > 0 {
		out.TimeoutS = results.Ptr(c.timeout)
	}
	if c.qps > 0 {
		notes = append(notes, fmt.Sprintf("rate limited to %g requests/s per worker (-q), %g in all", c.qps, c.qps*float64(c.conns)))
	}
	return notes
}

// requests are the run's requests: the recorded results plus the errors,
// checked against Requests/sec × Total (hey keeps at most 1,000,000
// results, Requests/sec counts them all); meanFix is the factor for hey's
// Average when its cap inflated it.
func (r *run) requests(hasStatus bool) (n int64, meanFix float64, notes []string) {
	durS := r.total / 1000
	est := r.rps * durS
	tol := 1 + r.rps*1e-4 + durS*1e-4 + est*1e-5
	n = core.AddSat(r.recorded, r.errs)
	switch {
	case !hasStatus:
		n, _ = core.ToInt64(est)
		return n, 1, []string{"no status code distribution: requests estimated from Requests/sec × Total, errors not known"}
	case r.recorded >= heyMaxResults && est > float64(n)+tol:
		return r.cappedRequests(n, est, tol)
	case math.Abs(est-float64(n)) > tol:
		notes = append(notes, fmt.Sprintf("status and error counts (%d) disagree with Requests/sec × Total (%.0f)", n, est))
	}
	return n, 1, notes
}

// cappedRequests counts the requests of a run past hey's cap of results
// (recorded of them recorded) from Requests/sec × Total (est, good to
// tol), or from -n without -z when it agrees, and corrects hey's Average.
func (r *run) cappedRequests(recorded int64, est, tol float64) (n int64, meanFix float64, notes []string) {
	n, _ = core.ToInt64(est)
	src := "Requests/sec × Total"
	// Requests/sec and Total are printed to 4 decimals, so est is good
	// to about ±1; a -n without -z says the exact count (each of the -c
	// workers sends n/c requests).
	if c := r.cmd; c != nil && c.requests > 0 && c.duration == 0 && c.conns > 0 {
		if sent := c.requests / c.conns * c.conns; math.Abs(float64(sent)-est) <= tol {
			n, src = sent, "-n, as Requests/sec × Total agrees"
		}
	}
	notes = append(notes, fmt.Sprintf("hey reports at most %d results: requests (%d) from %s, status counts and latencies cover %d of them",
		heyMaxResults, n, src, recorded))
	// hey sums the latencies of every successful response but divides by
	// the results it kept (at most 1,000,000): its Average is the true
	// mean times successes/kept. Corrected like the count.
	meanFix = 1
	if ok := n - r.errs; ok > r.recorded && r.keys&heyKeyAverage != 0 && !r.averageNaN {
		meanFix = float64(r.recorded) / float64(ok)
		notes = append(notes, fmt.Sprintf("hey's Average (%s ms) sums all %d successful responses over the %d it kept: mean latency corrected by x%.6g",
			strconv.FormatFloat(r.average, 'g', 6, 64), ok, r.recorded, meanFix))
	}
	return n, meanFix, notes
}

// latency sets the mean (times meanFix), least and greatest latency.
func (r *run) latency(out *results.RunWithPercentiles, meanFix float64) {
	if r.keys&heyKeyAverage != 0 {
		out.LatMeanMs = results.Ptr(r.average * meanFix)
	}
	if r.keys&heyKeyFastest != 0 {
		out.LatMinMs = results.Ptr(r.fastest)
	}
	if r.keys&heyKeySlowest != 0 {
		out.LatMaxMs = results.Ptr(r.slowest)
	}
}

// command is a hey command line found before a run's output.
type command struct {
	raw      string
	line     int
	url      string
	conns    int64
	requests int64 // -n, 0 when not given
	duration float64
	timeout  float64
	qps      float64
	csv      bool // -o csv: the output that follows is not a summary
	more     bool // ends with a backslash: the next line continues it
}

// isHeyExe reports whether tok names the hey program.
func isHeyExe(tok []byte) bool {
	tok = bytes.TrimLeft(tok, "`(\"'")
	if i := bytes.LastIndexAny(tok, `/\`); i >= 0 {
		tok = tok[i+1:]
	}
	if j := bytes.IndexByte(tok, ':'); j >= 0 { // docker image tag
		tok = tok[:j]
	}
	tok = bytes.TrimSuffix(tok, []byte(".exe"))
	return string(tok) == "hey" || bytes.HasPrefix(tok, []byte("hey_"))
}

// heyBoolFlags are hey's options without a value.
var heyBoolFlags = map[string]bool{"h2": true, "disable-compression": true, "disable-keepalive": true, "disable-redirects": true}

// heySyntax is how hey reads its options: Go's flag package.
var heySyntax = core.OptionSyntax{TakesValue: func(name string) bool { return !heyBoolFlags[name] }, EndOfOptions: true}

// parseHeyCommand parses the command line s (starting at the hey token)
// with the rules of Go's flag package: options before the URL, -x v,
// -x=v or --x v. It reports false when no URL (or placeholder) follows.
func parseHeyCommand(s string, line int) (*command, bool) {
	s = strings.TrimSpace(s)
	c := &command{raw: s, line: line, conns: 50, timeout: 20}
	if strings.HasSuffix(s, "\\") {
		c.more = true
		s = strings.TrimSpace(strings.TrimSuffix(s, "\\"))
		c.raw = s
	}
	prog, args := core.CommandWords(make([]string, 0, 16), s)
	if !isHeyExe([]byte(prog)) {
		return nil, false
	}
	placeholder, usable := false, true
	heySyntax.Scan(args, func(name, val string) bool {
		c.option(name, val)
		return true
	}, func(a string) bool {
		if a == "" {
			return true
		}
		c.url, placeholder, usable = core.TargetArg(a)
		return false // Go's flag package stops at the first argument
	})
	if !usable {
		return nil, false
	}
	if c.url == "" && !placeholder {
		if c.more {
			return c, true
		}
		return nil, false
	}
	c.more = c.more && c.url == "" && !placeholder
	return c, true
}

func (c *command) option(name, val string) {
	switch name {
	case "c":
		if n, err := strconv.ParseInt(val, 10, 32); err == nil && n > 0 {
			c.conns = n
		}
	case "n":
		if n, err := strconv.ParseInt(val, 10, 64); err == nil && n > 0 {
			c.requests = n
		}
	case "z":
		if d, err := time.ParseDuration(val); err == nil && d > 0 {
			c.duration = d.Seconds()
		}
	case "t":
		if n, err := strconv.ParseInt(val, 10, 32); err == nil && n >= 0 {
			c.timeout = float64(n) // 0: no timeout
		}
	case "q":
		if v, err := strconv.ParseFloat(val, 64); err == nil && core.Finite(v) {
			c.qps = v
		}
	case "o":
		c.csv = val == "csv"
	}
}
