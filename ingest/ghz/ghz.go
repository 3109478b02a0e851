package ghz

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

// The ghz parsers read the output of ghz (github.com/bojand/ghz), the gRPC
// benchmarking tool: "ghz" its text summary (-O summary, the default),
// wherever it sits in a file; "ghz-json" -O json, whose per-call details
// stream into samples and series. The layout and how the figures are
// derived (gRPC has no HTTP status: non2xx stays null): docs/FORMATS.md,
// section ingest/ghz/ghz.go.
type Parser struct{}

// Name returns "ghz".
func (Parser) Name() string { return "ghz" }

// section is the part of a summary a line belongs to.
type section uint8

const (
	ghzSectionSummary section = iota
	ghzSectionHist
	ghzSectionLat
	ghzSectionStatus
	ghzSectionErrors
)

// run accumulates one summary.
type run struct {
	core.FirstBad
	startLine, lastLine   int
	cmd                   *command
	sec                   section
	count                 int64
	hasCount              bool
	totalMs, slow, fast   float64
	avg, rps              float64
	keys                  uint8
	pcts                  []results.Percentile
	ok, failed, deadlines int64
	hasStatus             bool
}

// command is a ghz command line.
type command struct {
	raw, host   string
	line        int
	concurrency int64
	rps         float64
	timeoutS    float64
	durationS   float64
}

// state is the text parser's state over one input.
type state struct {
	core.RunState
	run     run
	pending *command
	f       [16][]byte
}

// Detect reports whether head holds a ghz summary: "Summary:" followed
// by its Count and Total lines, Total with a time unit.
func (Parser) Detect(head []byte) bool {
	st := &state{RunState: core.RunState{Detect: true}}
	core.ScanHead(head, st.line, func() bool { return st.Found })
	return st.Found
}

// Parse streams the ghz runs of r to sink in input order.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &state{RunState: core.RunState{Opts: opts, Sink: sink, Lab: core.Labeler{Labels: opts.Labels}}}
	return core.ParseLines(ctx, r, opts, "ghz", st.line, st.close, func() int { return st.Index })
}

// isGhzExe reports whether tok names the ghz program.
func isGhzExe(tok []byte) bool { return core.ExeNamed(tok, "ghz") }

// Summary keys, as bits of run.keys.
const (
	ghzKeyTotal = 1 << iota
	ghzKeySlow
	ghzKeyFast
	ghzKeyAvg
	ghzKeyRPS
)

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if len(s) == 0 {
		return nil
	}
	f := core.Fields(s, st.f[:0])
	if len(f) == 1 && string(f[0]) == "Summary:" {
		return st.open(ln)
	}
	if !st.Active {
		if i := core.FindCommand(s, isGhzExe); i >= 0 {
			st.pending = parseGhzCommand(string(core.TrimRight(s[i:])), ln)
		}
		return nil
	}
	r := &st.run
	if sec, ok := heading(f); ok {
		r.sec = sec
		r.hasStatus = r.hasStatus || sec == ghzSectionStatus
	} else if !st.sectionRow(f, ln) {
		return st.close()
	}
	r.lastLine = ln
	return nil
}

// open starts a run at its "Summary:" line, closing the one before.
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

// ghzHeadings are the headings of a summary's sections.
var ghzHeadings = map[string]section{
	"Response time histogram:":  ghzSectionHist,
	"Latency distribution:":     ghzSectionLat,
	"Status code distribution:": ghzSectionStatus,
	"Error distribution:":       ghzSectionErrors,
}

// heading tells whether the fields f are a section's heading.
func heading(f [][]byte) (section, bool) {
	if len(f) < 2 || len(f) > 3 {
		return 0, false
	}
	sec, ok := ghzHeadings[string(bytes.Join(f, []byte(" ")))]
	return sec, ok
}

// sectionRow reads a line of the open section; false when it is none
// (the run's output ended).
func (st *state) sectionRow(f [][]byte, ln int) bool {
	r := &st.run
	switch r.sec {
	case ghzSectionSummary:
		return st.summaryKey(f, ln)
	case ghzSectionHist:
		return len(f) >= 2 && f[1][0] == '['
	case ghzSectionLat:
		return r.latencyRow(f, ln)
	case ghzSectionStatus:
		return r.statusRow(f, ln)
	case ghzSectionErrors:
		return len(f) >= 2 && f[0][0] == '['
	}
	return true
}

// latencyRow reads a row of the latency distribution; false when the line
// is none (the run's output ended).
func (r *run) latencyRow(f [][]byte, ln int) bool {
	// 10 % in 1.48 ms; ghz 0.1.x wrote 10% in 1.48 ms
	if len(f) == 4 && len(f[0]) > 1 && f[0][len(f[0])-1] == '%' {
		f = [][]byte{f[0][:len(f[0])-1], []byte("%"), f[1], f[2], f[3]}
	}
	if len(f) != 5 || string(f[1]) != "%" || string(f[2]) != "in" {
		return false
	}
	q, ok := core.ParseDec(f[0], -2)
	ms, ok2 := core.DurationsMs.Parse(f[3], f[4])
	if !ok || !ok2 || q > 1 {
		r.Malformed(ln, "latency distribution row")
	} else if len(r.pcts) < core.MaxPercentiles {
		r.pcts = append(r.pcts, results.Percentile{Quantile: q, LatencyMs: ms})
	}
	return true
}

// statusRow reads a row of the status code distribution; false when the
// line is none (the run's output ended).
func (r *run) statusRow(f [][]byte, ln int) bool {
	// [OK]            320 responses
	if len(f) != 3 || f[0][0] != '[' || f[0][len(f[0])-1] != ']' || string(f[2]) != "responses" {
		return false
	}
	n, ok := core.ParseUint(f[1])
	if !ok {
		r.Malformed(ln, "status code row")
		return true
	}
	switch string(f[0][1 : len(f[0])-1]) {
	case "OK":
		r.ok = core.AddSat(r.ok, n)
	case "DeadlineExceeded":
		r.deadlines = core.AddSat(r.deadlines, n)
		r.failed = core.AddSat(r.failed, n)
	default:
		r.failed = core.AddSat(r.failed, n)
	}
	return true
}

// summaryKey reads a line of the Summary section; false when it is none.
func (st *state) summaryKey(f [][]byte, ln int) bool {
	r := &st.run
	switch string(f[0]) {
	case "Count:":
		n, ok := core.ParseUint(f[len(f)-1])
		if len(f) != 2 || !ok {
			r.Malformed(ln, "Count line")
			return true
		}
		r.count, r.hasCount = n, true
	case "Requests/sec:":
		v, ok := core.ParseDec(f[len(f)-1], 0)
		if len(f) != 2 || !ok {
			r.Malformed(ln, "Requests/sec line")
			return true
		}
		r.rps = v
		r.keys |= ghzKeyRPS
	case "Total:", "Slowest:", "Fastest:", "Average:":
		if len(f) != 3 {
			return false
		}
		ms, ok := core.DurationsMs.Parse(f[1], f[2])
		if !ok {
			r.Malformed(ln, string(f[0])+" line")
			return true
		}
		switch string(f[0]) {
		case "Total:":
			r.totalMs = ms
			r.keys |= ghzKeyTotal
			if st.Detect && r.hasCount {
				st.Found = true
			}
		case "Slowest:":
			r.slow = ms
			r.keys |= ghzKeySlow
		case "Fastest:":
			r.fast = ms
			r.keys |= ghzKeyFast
		case "Average:":
			r.avg = ms
			r.keys |= ghzKeyAvg
		}
	default:
		return false
	}
	return true
}

// close ends the current summary, emitting it when it is ghz's.
func (st *state) close() error {
	if !st.Active {
		return nil
	}
	st.Active = false
	r := &st.run
	if !r.hasCount || st.Detect {
		return nil // another tool's "Summary:" (hey, oha)
	}
	if r.Bad != "" {
		return st.Malformed("ghz", r.BadLine, r.Bad)
	}
	if r.keys != ghzKeyTotal|ghzKeySlow|ghzKeyFast|ghzKeyAvg|ghzKeyRPS || !r.hasStatus {
		return &core.SyntaxError{File: st.Opts.Source, Line: r.lastLine,
			Msg: "ghz summary without its Total, Slowest, Fastest, Average, Requests/sec or status code lines (cut paste?)"}
	}
	var notes []string
	out := results.RunWithPercentiles{Run: results.Run{Tool: "ghz", LoadModel: results.LoadClosed,
		DurationS: core.ShiftDec(r.totalMs, -3), RPS: r.rps, Requests: r.count, Errors: r.failed, Timeouts: results.Ptr(r.deadlines),
		SourceLine: int32(min(r.startLine, math.MaxInt32))}, Percentiles: []results.Percentile{}}
	if c := r.cmd; c != nil {
		applyCommand(&out, c, &notes)
	}
	if n := core.AddSat(r.ok, r.failed); n != r.count {
		notes = append(notes, fmt.Sprintf("status counts (%d) differ from Count (%d)", n, r.count))
	}
	if r.ok > 0 {
		out.LatMeanMs, out.LatMinMs, out.LatMaxMs = results.Ptr(r.avg), results.Ptr(r.fast), results.Ptr(r.slow)
		core.AddPercentiles(&out, r.pcts)
	} else if r.count > 0 {
		notes = append(notes, "no call succeeded: ghz's latency figures (over successful calls) left out")
	}
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return st.Emit(out)
}

// applyCommand fills what a command line tells.
func applyCommand(out *results.RunWithPercentiles, c *command, notes *[]string) {
	out.Target = c.host
	out.Command = results.Ptr(c.raw)
	out.Connections = results.Ptr(int32(min(c.concurrency, math.MaxInt32)))
	if c.timeoutS > 0 {
		out.TimeoutS = results.Ptr(c.timeoutS)
	}
	if c.durationS > 0 {
		out.PlannedDurationS = results.Ptr(c.durationS)
	}
	if c.rps > 0 {
		out.TargetRPS = results.Ptr(c.rps)
		*notes = append(*notes, "--rps limits the rate of the -c workers, which wait for each response")
	}
}

// ghzArgOpts are ghz's options that take a value.
var ghzArgOpts = map[string]bool{"proto": true, "protoset": true, "call": true, "cacert": true, "cert": true, "key": true,
	"cname": true, "config": true, "i": true, "import-paths": true, "c": true, "concurrency": true, "n": true, "total": true,
	"q": true, "qps": true, "r": true, "rps": true, "t": true, "timeout": true, "z": true, "duration": true, "x": true,
	"max-duration": true, "duration-stop": true, "d": true, "data": true, "D": true, "data-file": true, "b": true,
	"binary-file": true, "m": true, "metadata": true, "M": true, "metadata-file": true, "si": true, "stream-interval": true,
	"reflect-metadata": true, "o": true, "output": true, "O": true, "format": true, "connections": true,
	"connect-timeout": true, "keepalive": true, "name": true, "tags": true, "cpus": true, "load-schedule": true,
	"load-start": true, "load-end": true, "load-step": true, "load-step-duration": true, "load-max-duration": true,
	"concurrency-schedule": true, "concurrency-start": true, "concurrency-end": true, "concurrency-step": true,
	"concurrency-step-duration": true, "concurrency-max-duration": true, "authority": true, "lb-strategy": true}

// parseGhzCommand parses a ghz command line (kingpin syntax).
func parseGhzCommand(s string, line int) *command {
	c := &command{raw: s, line: line, concurrency: 50, timeoutS: 20}
	args := core.ShellWords(s)
	core.EachOption(args, ghzArgOpts, func(name, val string) {
		switch name {
		case "c", "concurrency":
			if n, err := strconv.ParseInt(val, 10, 32); err == nil && n > 0 {
				c.concurrency = n
			}
		case "r", "rps", "q", "qps":
			if v, err := strconv.ParseFloat(val, 64); err == nil && core.Finite(v) && v > 0 {
				c.rps = v
			}
		case "t", "timeout":
			if d, err := time.ParseDuration(val); err == nil && d >= 0 {
				c.timeoutS = d.Seconds()
			}
		case "z", "duration":
			if d, err := time.ParseDuration(val); err == nil && d > 0 {
				c.durationS = d.Seconds()
			}
		}
	}, func(a string) {
		if c.host == "" && strings.Contains(a, ":") && !strings.Contains(a, "/") {
			c.host = a
		}
	})
	return c
}
