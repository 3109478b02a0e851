package h2load

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
	"github.com/loadverdict/loadverdict/results"
)

// The h2load parser reads the output of h2load (nghttp2's HTTP/2 and
// HTTP/1.1 benchmarking tool), wherever it sits in a file (layout: docs/FORMATS.md).
//
// Requests are the succeeded plus the failed ones (failed counts the
// errored, the timed out and those never started); errors are the
// failed ones, non2xx the 4xx and 5xx responses. "time for request" is
// the latency (min, max, mean, sd; h2load prints no percentiles), the
// per-client "req/s" row fills thread_rps_* (per client, that is per
// connection, not per thread), bytes_in is the traffic total in bytes
// (headers and framing included) and transfer_bps the rate of the
// "finished" line (binary units: 1KB = 1024 B). Timing-based tests (-D)
// count only the main duration: duration_s is it, the warm-up left out.
// The target comes from the command line, when shown.
type Parser struct{}

// Name returns "h2load".
func (Parser) Name() string { return "h2load" }

// run accumulates one run.
type run struct {
	core.FirstBad
	startLine, lastLine int
	cmd                 *command
	threads, clients    int64
	mainS, warmS        float64
	protocol            string
	finishedS, rps, bps float64
	hasFinished         bool
	total, done, ok     int64
	failed, errored     int64
	timeouts            int64
	hasRequests         bool
	codes               [4]int64
	hasCodes            bool
	traffic             int64
	hasTraffic          bool
	lat                 [4]float64 // min, max, mean, sd in ms
	hasLat              bool
	cliRPS              [4]float64 // min, max, mean, sd
	hasCliRPS           bool
}

// command is an h2load command line.
type command struct {
	raw, url         string
	line             int
	clients, threads int64
	requests         int64
	rate             int64
	h1               bool
}

// state is the parser's state over one input.
type state struct {
	core.RunState
	run     run
	pre     run // what came before the finished line
	hasPre  bool
	pending *command
	f       [24][]byte
}

// Detect reports whether head holds an h2load summary: a "finished in"
// line followed by its requests and status codes lines.
func (Parser) Detect(head []byte) bool {
	st := &state{RunState: core.RunState{Detect: true}}
	core.ScanHead(head, st.line, func() bool { return st.Found })
	return st.Found
}

// Parse streams the h2load runs of r to sink in input order.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &state{RunState: core.RunState{Opts: opts, Sink: sink, Lab: core.Labeler{Labels: opts.Labels}}}
	return core.ParseLines(ctx, r, opts, "h2load", st.line, st.close, func() int { return st.Index })
}

// isH2loadExe reports whether tok names the h2load program.
func isH2loadExe(tok []byte) bool { return core.ExeNamed(tok, "h2load") }

// num parses a count followed by a word ("2000 total,").
func num(f [][]byte, i int) (int64, bool) {
	if i >= len(f) {
		return 0, false
	}
	return core.ParseUint(f[i])
}

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if len(s) == 0 {
		return nil
	}
	f := core.Fields(s, st.f[:0])
	switch string(f[0]) {
	case "finished":
		// finished in 71.85ms, 27836.93 req/s, 3.45MB/s
		if len(f) == 6 && string(f[1]) == "in" && string(f[4]) == "req/s," {
			return st.finished(f, ln)
		}
	case "spawning":
		// spawning thread #0: 4 total client(s). 2000 total requests
		// spawning thread #0: 4 total client(s). Timing-based test with 1s of warm-up time and 2s of main duration for measurements.
		if len(f) >= 6 && string(f[1]) == "thread" && string(f[4]) == "total" {
			return st.spawning(f, ln)
		}
	case "Application":
		if len(f) == 3 && string(f[1]) == "protocol:" && st.hasPre {
			st.pre.protocol = string(f[2])
			return nil
		}
	}
	if !st.Active {
		return st.command(s, ln)
	}
	return st.summaryLine(s, f, ln)
}

// finished starts a run's summary at its "finished" line.
func (st *state) finished(f [][]byte, ln int) error {
	if err := st.close(); err != nil {
		return err
	}
	st.begin(ln)
	r := &st.run
	d, k := core.TimeMs(core.TrimPunct(f[2]))
	rps, ok := core.ParseDec(f[3], 0)
	bps, ok2 := core.BinaryBytes(bytes.TrimSuffix(f[5], []byte("/s")))
	if k != core.ValOK || !ok || !ok2 || !bytes.HasSuffix(f[5], []byte("/s")) {
		r.Malformed(ln, "finished line")
	}
	r.finishedS, r.rps, r.bps, r.hasFinished = core.ShiftDec(d, -3), rps, bps, true
	return nil
}

// spawning reads a thread's "spawning" line before a run: its clients
// and the timing-based test's warm-up and main durations.
func (st *state) spawning(f [][]byte, ln int) error {
	if !st.hasPre || st.Active {
		if err := st.close(); err != nil {
			return err
		}
		st.pre = run{startLine: ln}
		st.hasPre = true
	}
	st.pre.threads++
	if n, ok := core.ParseUint(f[3]); ok {
		st.pre.clients = core.AddSat(st.pre.clients, n)
	}
	for i := 6; i+2 < len(f); i++ {
		if string(f[i+1]) != "of" {
			continue
		}
		d, err := time.ParseDuration(string(f[i]))
		if err != nil || d < 0 {
			continue
		}
		switch string(f[i+2]) {
		case "warm-up":
			st.pre.warmS = d.Seconds()
		case "main":
			st.pre.mainS = d.Seconds()
		}
	}
	return nil
}

// command reads an h2load command line for the next run.
func (st *state) command(s []byte, ln int) error {
	i := core.FindCommand(s, isH2loadExe)
	if i < 0 {
		return nil
	}
	c, ok := parseH2loadCommand(string(s[i:]), ln)
	if !ok {
		return nil
	}
	if err := st.close(); err != nil {
		return err
	}
	st.pending = c
	st.hasPre = false
	return nil
}

// begin starts the summary of a run at its "finished" line.
func (st *state) begin(ln int) {
	st.run = run{startLine: ln, lastLine: ln}
	if st.hasPre {
		p := st.pre
		st.run.threads, st.run.clients, st.run.mainS, st.run.warmS, st.run.protocol = p.threads, p.clients, p.mainS, p.warmS, p.protocol
		st.run.startLine = p.startLine
	}
	if c := st.pending; c != nil {
		st.run.cmd = c
		st.run.startLine = c.line
	}
	st.Active, st.hasPre, st.pending = true, false, nil
}

// summaryLine reads a line after the "finished" line; the req/s row ends
// the summary, and so does anything unknown (cut paste).
func (st *state) summaryLine(s []byte, f [][]byte, ln int) error {
	r := &st.run
	var ok bool
	switch {
	case string(f[0]) == "requests:":
		ok = r.requestsLine(f, ln)
	case string(f[0]) == "status" && len(f) >= 2 && string(f[1]) == "codes:":
		ok = r.codesLine(f, ln)
		if ok && st.Detect && r.hasRequests && r.hasFinished {
			st.Found = true
		}
	case string(f[0]) == "traffic:":
		ok = r.trafficLine(f, ln)
	case string(f[0]) == "min" && len(f) == 6:
		ok = true // the header of the statistics table
	case string(f[0]) == "time" && len(f) >= 8:
		ok = r.timeRow(f, ln)
	case string(f[0]) == "req/s" && len(f) == 7 && string(f[1]) == ":":
		if !r.rpsRow(f, ln) {
			return nil
		}
		r.lastLine = ln
		return st.close()
	default:
		return st.close()
	}
	if ok {
		r.lastLine = ln
	}
	return nil
}

// requestsLine reads "requests: 2000 total, 2000 started, 2000 done, 2000
// succeeded, 0 failed, 0 errored, 0 timeout"; false when malformed.
func (r *run) requestsLine(f [][]byte, ln int) bool {
	want := []string{"total,", "started,", "done,", "succeeded,", "failed,", "errored,", "timeout"}
	var v [7]int64
	if len(f) != 15 {
		r.Malformed(ln, "requests line")
		return false
	}
	for i, w := range want {
		n, ok := num(f, 1+2*i)
		if !ok || string(f[2+2*i]) != w {
			r.Malformed(ln, "requests line")
			return false
		}
		v[i] = n
	}
	r.total, r.done, r.ok, r.failed, r.errored, r.timeouts = v[0], v[2], v[3], v[4], v[5], v[6]
	r.hasRequests = true
	return true
}

// codesLine reads "status codes: 2000 2xx, 0 3xx, 0 4xx, 0 5xx"; false
// when malformed.
func (r *run) codesLine(f [][]byte, ln int) bool {
	if len(f) != 10 {
		r.Malformed(ln, "status codes line")
		return false
	}
	for i := range r.codes {
		n, ok := num(f, 2+2*i)
		if !ok || string(core.TrimPunct(f[3+2*i])) != strconv.Itoa(i+2)+"xx" {
			r.Malformed(ln, "status codes line")
			return false
		}
		r.codes[i] = n
	}
	r.hasCodes = true
	return true
}

// trafficLine reads "traffic: 253.91KB (260000) total, ..." or, before
// h2load 1.7 (2016), "traffic: 149060220 bytes total, ..."; false when
// malformed.
func (r *run) trafficLine(f [][]byte, ln int) bool {
	var exact []byte
	switch {
	case len(f) >= 4 && bytes.HasPrefix(f[2], []byte("(")):
		exact = bytes.Trim(f[2], "()")
	case len(f) >= 4 && string(f[2]) == "bytes" && bytes.HasPrefix(f[3], []byte("total")):
		exact = f[1]
	default:
		r.Malformed(ln, "traffic line")
		return false
	}
	n, ok := core.ParseUint(exact)
	if !ok {
		r.Malformed(ln, "traffic line")
		return false
	}
	r.traffic, r.hasTraffic = n, true
	return true
}

// timeRow reads the "time for request:" row of the statistics table (the
// connect and first-byte rows are skipped); false when it is malformed.
func (r *run) timeRow(f [][]byte, ln int) bool {
	name := string(bytes.Join(f[:len(f)-5], []byte(" ")))
	vals := f[len(f)-5 : len(f)-1]
	if name != "time for request:" {
		if name != "time for connect:" && name != "time to 1st byte:" {
			r.Malformed(ln, "statistics row")
		}
		return true
	}
	for i, tok := range vals {
		ms, k := core.TimeMs(tok)
		if k != core.ValOK {
			r.Malformed(ln, "time for request row")
			return false
		}
		r.lat[i] = ms
	}
	r.hasLat = true
	return true
}

// rpsRow reads the "req/s :" row of the statistics table; false when it
// is malformed.
func (r *run) rpsRow(f [][]byte, ln int) bool {
	for i, tok := range f[2:6] {
		v, ok := core.ParseDec(tok, 0)
		if !ok {
			r.Malformed(ln, "req/s row")
			return false
		}
		r.cliRPS[i] = v
	}
	r.hasCliRPS = true
	return true
}

// close ends the current summary, emitting it when complete.
func (st *state) close() error {
	if !st.Active {
		return nil
	}
	st.Active = false
	r := &st.run
	if st.Detect {
		return nil
	}
	if r.Bad != "" {
		return st.Malformed("h2load", r.BadLine, r.Bad)
	}
	if !r.hasRequests || !r.hasCodes || !r.hasLat || !r.hasCliRPS {
		return &core.SyntaxError{File: st.Opts.Source, Line: r.lastLine,
			Msg: "h2load summary without its requests, status codes, time for request or req/s lines (cut paste?)"}
	}
	out := st.build()
	return st.Emit(out)
}

// build makes the run of a complete summary.
func (st *state) build() results.RunWithPercentiles {
	r := &st.run
	var notes []string
	out := results.RunWithPercentiles{Run: results.Run{
		Tool: "h2load", LoadModel: results.LoadClosed, DurationS: r.finishedS, RPS: r.rps,
		SourceLine: int32(min(r.startLine, math.MaxInt32)), TransferBPS: results.Ptr(r.bps),
	}, Percentiles: []results.Percentile{}}
	if r.mainS > 0 {
		out.DurationS = r.mainS
		out.PlannedDurationS = results.Ptr(r.mainS)
		notes = append(notes, fmt.Sprintf("timing-based test (-D): figures cover the %g s main duration, the %g s warm-up left out (finished in %g s in all)",
			r.mainS, r.warmS, r.finishedS))
	}
	clients, threads := r.clients, r.threads
	if c := r.cmd; c != nil {
		out.Target = c.url
		out.Command = results.Ptr(c.raw)
		if clients == 0 {
			clients, threads = c.clients, c.threads
		}
		if c.rate > 0 {
			notes = append(notes, fmt.Sprintf("-r %d: clients started at that rate per second", c.rate))
		}
	}
	if clients > 0 {
		out.Connections = results.Ptr(int32(min(clients, math.MaxInt32)))
	}
	if threads > 0 {
		out.Threads = results.Ptr(int32(min(threads, math.MaxInt32)))
	}
	if r.protocol != "" {
		notes = append(notes, "application protocol "+r.protocol)
	}
	out.Requests = core.AddSat(r.ok, r.failed)
	out.Errors = r.failed
	out.Non2xx = results.Ptr(core.AddSat(r.codes[2], r.codes[3]))
	out.Timeouts = results.Ptr(r.timeouts)
	if r.hasTraffic {
		out.BytesIn = results.Ptr(r.traffic)
	}
	if r.done > 0 {
		out.LatMinMs, out.LatMaxMs = results.Ptr(r.lat[0]), results.Ptr(r.lat[1])
		out.LatMeanMs, out.LatStdevMs = results.Ptr(r.lat[2]), results.Ptr(r.lat[3])
		out.ThreadRPSMean, out.ThreadRPSStdev, out.ThreadRPSMax = results.Ptr(r.cliRPS[2]), results.Ptr(r.cliRPS[3]), results.Ptr(r.cliRPS[1])
		notes = append(notes, "thread_rps_* are h2load's per-client req/s (one client, one connection)")
	}
	if n := r.total - r.ok - r.failed; n > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d requests neither succeeded nor failed (still running at the end)", n, r.total))
	}
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return out
}

// h2loadArgOpts are h2load's options that take a value.
var h2loadArgOpts = map[string]bool{"n": true, "requests": true, "c": true, "clients": true, "t": true, "threads": true,
	"i": true, "input-file": true, "m": true, "max-concurrent-streams": true, "w": true, "window-bits": true,
	"W": true, "connection-window-bits": true, "H": true, "header": true, "ciphers": true, "tls13-ciphers": true,
	"d": true, "data": true, "r": true, "rate": true, "rate-period": true, "D": true, "duration": true,
	"warm-up-time": true, "T": true, "connection-active-timeout": true, "N": true, "connection-inactivity-timeout": true,
	"timing-script-file": true, "B": true, "base-uri": true, "npn-list": true, "p": true, "no-tls-proto": true,
	"header-table-size": true, "encoder-header-table-size": true, "log-file": true, "connect-to": true, "groups": true,
	"sni": true, "max-frame-size": true, "ktls": false}

// parseH2loadCommand parses an h2load command line (getopt syntax).
func parseH2loadCommand(s string, line int) (*command, bool) {
	s = strings.TrimSpace(s)
	c := &command{raw: s, line: line, clients: 1, threads: 1, requests: 1}
	args := core.ShellWords(s)
	core.EachOption(args, h2loadArgOpts, func(name, val string) {
		switch name {
		case "c", "clients":
			if n, err := strconv.ParseInt(val, 10, 32); err == nil && n > 0 {
				c.clients = n
			}
		case "t", "threads":
			if n, err := strconv.ParseInt(val, 10, 32); err == nil && n > 0 {
				c.threads = n
			}
		case "n", "requests":
			if n, err := strconv.ParseInt(val, 10, 64); err == nil && n >= 0 {
				c.requests = n
			}
		case "r", "rate":
			if n, err := strconv.ParseInt(val, 10, 64); err == nil && n > 0 {
				c.rate = n
			}
		case "h1":
			c.h1 = true
		}
	}, func(a string) {
		if strings.Contains(a, "://") && c.url == "" {
			c.url = a
		}
	})
	if c.url == "" {
		return nil, false
	}
	return c, true
}
