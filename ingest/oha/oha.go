package oha

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

// The oha parsers read the output of oha (github.com/hatoo/oha): "oha" its
// text summary, wherever it sits in a file, in the old and the current
// layouts; "oha-json" --json. oha prints no request count: requests are the
// responses plus the errors. The layouts and how the figures are derived:
// docs/FORMATS.md, section ingest/oha/oha.go.
type Parser struct{}

// Name returns "oha".
func (Parser) Name() string { return "oha" }

// section is the part of a summary a line belongs to.
type section uint8

const (
	ohaSectionSummary section = iota
	ohaSectionOther           // histogram, details, breakdowns: skipped
	ohaSectionLat
	ohaSectionStatus
	ohaSectionErrors
)

// run accumulates one summary.
type run struct {
	core.FirstBad
	startLine, lastLine int
	cmd                 *command
	sec                 section
	success             bool
	keys                uint8
	totalMs, slow, fast float64
	avg, rps            float64
	nanLat              bool
	data, dataPerSec    float64
	hasData, hasPerSec  bool
	pcts                []results.Percentile
	codes               map[int64]int64
	hasStatus           bool
	errs, timeouts      int64
	aborted             int64
}

// command is an oha command line.
type command struct {
	raw, url            string
	line                int
	conns               int64
	durationS, timeoutS float64
	qps                 float64
}

// state is the text parser's state over one input.
type state struct {
	core.RunState
	run     run
	pending *command
	f       [16][]byte
}

// Detect reports whether head holds an oha summary: "Summary:", then its
// Success rate and Total lines.
func (Parser) Detect(head []byte) bool {
	st := &state{RunState: core.RunState{Detect: true}}
	core.ScanHead(head, st.line, func() bool { return st.Found })
	return st.Found
}

// Parse streams the oha runs of r to sink in input order.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &state{RunState: core.RunState{Opts: opts, Sink: sink, Lab: core.Labeler{Labels: opts.Labels}}}
	return core.ParseLines(ctx, r, opts, "oha", st.line, st.close, func() int { return st.Index })
}

// isOhaExe reports whether tok names the oha program.
func isOhaExe(tok []byte) bool { return core.ExeNamed(tok, "oha") }

// size parses "38.28" "MiB" (binary units) into bytes.
func size(num, unit []byte) (float64, bool) {
	mult := 1.0
	switch string(unit) {
	case "B":
	case "KiB":
		mult = 1 << 10
	case "MiB":
		mult = 1 << 20
	case "GiB":
		mult = 1 << 30
	case "TiB":
		mult = 1 << 40
	default:
		return 0, false
	}
	v, ok := core.ParseDec(num, 0)
	return v * mult, ok
}

// Summary keys, as bits of run.keys.
const (
	ohaKeyTotal = 1 << iota
	ohaKeySlow
	ohaKeyFast
	ohaKeyAvg
	ohaKeyRPS
)

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if len(s) == 0 {
		return nil
	}
	f := core.Fields(s, st.f[:0])
	r := &st.run
	if len(f) == 1 && string(f[0]) == "Summary:" {
		return st.open(ln)
	}
	if !st.Active {
		if i := core.FindCommand(s, isOhaExe); i >= 0 {
			st.pending = parseOhaCommand(string(core.TrimRight(s[i:])), ln)
		}
		return nil
	}
	if !r.success && !(len(f) >= 2 && string(f[0]) == "Success" && string(f[1]) == "rate:") {
		return st.close() // another tool's Summary (hey, ghz)
	}
	if bytes.HasSuffix(s, []byte(":")) && (len(f) > 1 || f[0][0] != '[') {
		if !r.heading(string(s)) {
			return st.close()
		}
		r.lastLine = ln
		return nil
	}
	if !st.sectionRow(s, f, ln) {
		return st.close()
	}
	r.lastLine = ln
	return nil
}

// open starts a summary at its "Summary:" line, closing the one before.
func (st *state) open(ln int) error {
	if err := st.close(); err != nil {
		return err
	}
	st.run = run{startLine: ln, lastLine: ln, cmd: st.pending, pcts: st.run.pcts[:0]}
	if st.pending != nil {
		st.run.startLine = st.pending.line
	}
	st.Active, st.pending = true, nil
	return nil
}

// sectionRow reads a line of the open section; false when it is none
// (the run's output ended).
func (st *state) sectionRow(s []byte, f [][]byte, ln int) bool {
	r := &st.run
	switch r.sec {
	case ohaSectionSummary:
		return st.summaryKey(f, ln)
	case ohaSectionLat:
		return r.latencyRow(f, ln)
	case ohaSectionStatus:
		return r.statusRow(f, ln)
	case ohaSectionErrors:
		return r.errorRow(s, f)
	}
	return true // histogram bars and details rows
}

// errorRow reads a row of the error distribution, "[9] aborted due to
// deadline"; false when the line is none.
func (r *run) errorRow(s []byte, f [][]byte) bool {
	n, ok := core.BracketedCount(f[0])
	if len(f) < 2 || !ok {
		return false
	}
	r.errs = core.AddSat(r.errs, n)
	msg := string(core.Rest(s, f[1]))
	if requests.IsTimeout(msg) {
		r.timeouts = core.AddSat(r.timeouts, n)
	}
	if strings.Contains(msg, "aborted due to deadline") {
		r.aborted = core.AddSat(r.aborted, n)
	}
	return true
}

// heading reads a section heading (h ends with a colon); false when it is
// none of oha's.
func (r *run) heading(h string) bool {
	switch {
	case h == "Latency distribution:" || h == "Response time distribution:":
		r.sec = ohaSectionLat
	case h == "Status code distribution:":
		r.sec, r.hasStatus = ohaSectionStatus, true
	case h == "Error distribution:":
		r.sec = ohaSectionErrors
	case strings.HasPrefix(h, "Response time ") || strings.HasPrefix(h, "Details ") || strings.HasPrefix(h, "Latency "):
		r.sec = ohaSectionOther
	default:
		return false
	}
	return true
}

// latencyRow reads a row of the latency distribution; false when the line
// is none (the run's output ended).
func (r *run) latencyRow(f [][]byte, ln int) bool {
	// 10.00% in 0.0014 secs; 10% in 0.1545 secs
	if len(f) != 4 || string(f[1]) != "in" || !bytes.HasSuffix(f[0], []byte("%")) {
		return false
	}
	q, ok := core.ParseDec(f[0][:len(f[0])-1], -2)
	if core.IsNaN(f[2]) {
		return true // no request completed
	}
	ms, ok2 := core.DurationsMs.Parse(f[2], f[3])
	if !ok || !ok2 || q > 1 {
		r.Malformed(ln, "distribution row")
	} else if len(r.pcts) < core.MaxPercentiles {
		r.pcts = append(r.pcts, results.Percentile{Quantile: q, LatencyMs: ms})
	}
	return true
}

// statusRow reads a row of the status code distribution; false when the
// line is none (the run's output ended).
func (r *run) statusRow(f [][]byte, ln int) bool {
	// [200] 20000 responses
	code, ok := core.BracketedCount(f[0])
	if len(f) != 3 || !ok || string(f[2]) != "responses" {
		return false
	}
	n, ok := core.ParseUint(f[1])
	if !ok || code > 999 {
		r.Malformed(ln, "status code row")
		return true
	}
	if r.codes == nil {
		r.codes = map[int64]int64{}
	}
	r.codes[code] = core.AddSat(r.codes[code], n)
	return true
}

// summaryKey reads a line of the Summary section; false when it is none.
func (st *state) summaryKey(f [][]byte, ln int) bool {
	r := &st.run
	key := string(f[0])
	switch {
	case key == "Success" && len(f) >= 2 && string(f[1]) == "rate:":
		r.success = true
	case key == "Requests/sec:" && len(f) == 2:
		r.rps = r.decimal(f[1], ln, "Requests/sec line")
		r.keys |= ohaKeyRPS
	case ohaDurationKeys[key] != 0 && len(f) == 3:
		if r.durationKey(key, f, ln) && key == "Total:" && st.Detect {
			st.Found = true
		}
	case key == "Total" && len(f) == 4 && string(f[1]) == "data:":
		r.data, r.hasData = r.size(f[2], f[3], ln, "Total data line")
	case key == "Size/sec:" && len(f) == 3:
		r.dataPerSec, r.hasPerSec = r.size(f[1], f[2], ln, "Size/sec line")
	case key == "Size/request:":
	default:
		return false
	}
	return true
}

// decimal reads a number (NaN when no request completed), noting what
// when it is malformed.
func (r *run) decimal(b []byte, ln int, what string) float64 {
	v, ok := core.ParseDec(b, 0)
	if !ok && !core.IsNaN(b) {
		r.Malformed(ln, what)
	}
	return v
}

// size reads a size and its unit, noting what when it is malformed.
func (r *run) size(num, unit []byte, ln int, what string) (float64, bool) {
	v, ok := size(num, unit)
	if !ok {
		r.Malformed(ln, what)
	}
	return v, ok
}

// ohaDurationKeys are the keys of the Summary's durations.
var ohaDurationKeys = map[string]uint8{"Total:": ohaKeyTotal, "Slowest:": ohaKeySlow, "Fastest:": ohaKeyFast, "Average:": ohaKeyAvg}

// durationKey reads "Total:", "Slowest:", "Fastest:" or "Average:" and
// its duration (NaN when no request completed); false when it did not
// parse.
func (r *run) durationKey(key string, f [][]byte, ln int) bool {
	bit := ohaDurationKeys[key]
	if core.IsNaN(f[1]) {
		r.nanLat = true
		r.keys |= bit
		return false
	}
	ms, ok := core.DurationsMs.Parse(f[1], f[2])
	if !ok {
		r.Malformed(ln, key+" line")
		return false
	}
	switch bit {
	case ohaKeyTotal:
		r.totalMs = ms
	case ohaKeySlow:
		r.slow = ms
	case ohaKeyFast:
		r.fast = ms
	case ohaKeyAvg:
		r.avg = ms
	}
	r.keys |= bit
	return true
}

// close ends the current summary, emitting it when it is oha's.
func (st *state) close() error {
	if !st.Active {
		return nil
	}
	st.Active = false
	r := &st.run
	if !r.success || st.Detect {
		if !r.success && r.cmd != nil && st.pending == nil {
			st.pending = r.cmd
		}
		return nil
	}
	if r.Bad != "" {
		return st.Malformed("oha", r.BadLine, r.Bad)
	}
	if r.keys != ohaKeyTotal|ohaKeySlow|ohaKeyFast|ohaKeyAvg|ohaKeyRPS || !r.hasStatus {
		return &core.SyntaxError{File: st.Opts.Source, Line: r.lastLine,
			Msg: "oha summary without its Total, Slowest, Fastest, Average, Requests/sec or status code lines (cut paste?)"}
	}
	var notes []string
	out := results.RunWithPercentiles{Run: results.Run{Tool: "oha", LoadModel: results.LoadClosed,
		DurationS: core.ShiftDec(r.totalMs, -3), RPS: r.rps, SourceLine: int32(min(r.startLine, math.MaxInt32))},
		Percentiles: []results.Percentile{}}
	if c := r.cmd; c != nil {
		applyCommand(&out, c, &notes)
	}
	responses := counts(&out, r.codes, r.errs, r.timeouts, r.aborted, &notes)
	if r.hasData {
		out.BytesIn = results.Ptr(int64(math.Round(r.data)))
		notes = append(notes, "bytes_in from oha's size with two decimals")
	}
	if r.hasPerSec {
		out.TransferBPS = results.Ptr(r.dataPerSec)
	}
	if responses > 0 && !r.nanLat {
		out.LatMeanMs, out.LatMinMs, out.LatMaxMs = results.Ptr(r.avg), results.Ptr(r.fast), results.Ptr(r.slow)
		core.AddPercentiles(&out, r.pcts)
	}
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return st.Emit(out)
}

// counts sets requests, errors, non2xx and timeouts from the status
// and error distributions and returns the number of responses.
func counts(out *results.RunWithPercentiles, codes map[int64]int64, errs, timeouts, aborted int64, notes *[]string) int64 {
	var responses, non2xx int64
	for code, n := range codes {
		responses = core.AddSat(responses, n)
		if code < 200 || code >= 400 {
			non2xx = core.AddSat(non2xx, n)
		}
	}
	out.Requests = core.AddSat(responses, errs)
	out.Non2xx = results.Ptr(non2xx)
	out.Errors = core.AddSat(non2xx, errs)
	out.Timeouts = results.Ptr(timeouts)
	if aborted > 0 {
		*notes = append(*notes, fmt.Sprintf("%d requests aborted at the end of -z (in flight) counted as errors, as oha does", aborted))
	}
	return responses
}

// applyCommand fills what a command line tells.
func applyCommand(out *results.RunWithPercentiles, c *command, notes *[]string) {
	out.Target = c.url
	out.Command = results.Ptr(c.raw)
	out.Connections = results.Ptr(int32(min(c.conns, math.MaxInt32)))
	if c.durationS > 0 {
		out.PlannedDurationS = results.Ptr(c.durationS)
	}
	if c.timeoutS > 0 {
		out.TimeoutS = results.Ptr(c.timeoutS)
	}
	if c.qps > 0 {
		out.TargetRPS = results.Ptr(c.qps)
		*notes = append(*notes, "-q limits the rate of the -c workers, which wait for each response")
	}
}

// ohaArgOpts are oha's options that take a value.
var ohaArgOpts = map[string]bool{"n": true, "c": true, "p": true, "z": true, "q": true, "burst-delay": true, "burst-rate": true,
	"rand-regex-url": true, "max-repeat": true, "dump-urls": true, "o": true, "output-format": true, "m": true, "method": true,
	"H": true, "t": true, "timeout": true, "A": true, "d": true, "D": true, "T": true, "a": true, "x": true, "http-version": true,
	"host": true, "connect-to": true, "ipv4": false, "unix-socket": true, "db-url": true, "time-unit": true, "u": true,
	"cacert": true, "cert": true, "key": true, "Z": true, "F": true}

// parseOhaCommand parses an oha command line (clap syntax).
func parseOhaCommand(s string, line int) *command {
	c := &command{raw: s, line: line, conns: 50}
	args := core.ShellWords(s)
	core.EachOption(args, ohaArgOpts, func(name, val string) {
		switch name {
		case "c":
			if n, err := strconv.ParseInt(val, 10, 32); err == nil && n > 0 {
				c.conns = n
			}
		case "z":
			if d, err := time.ParseDuration(val); err == nil && d > 0 {
				c.durationS = d.Seconds()
			}
		case "t", "timeout":
			if d, err := time.ParseDuration(val); err == nil && d > 0 {
				c.timeoutS = d.Seconds()
			}
		case "q":
			if v, err := strconv.ParseFloat(val, 64); err == nil && core.Finite(v) && v > 0 {
				c.qps = v
			}
		}
	}, func(a string) {
		if c.url == "" && strings.Contains(a, "://") {
			c.url = a
		}
	})
	return c
}
