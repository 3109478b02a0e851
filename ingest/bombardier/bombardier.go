package bombardier

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

// The bombardier parsers read the output of bombardier
// (github.com/codesenberg/bombardier): "bombardier" its text result,
// wherever it sits in a file; "bombardier-json" `-o json` (one object per
// run). The layout and how the figures are derived (the duration the text
// does not print among them): docs/FORMATS.md, section
// ingest/bombardier/bombardier.go.
type Parser struct{}

// Name returns "bombardier".
func (Parser) Name() string { return "bombardier" }

// section is the part of a result a line belongs to.
type section uint8

const (
	bombardierSectionStats section = iota
	bombardierSectionDist
	bombardierSectionCodes
	bombardierSectionErrors
)

// intro is what the command line and the intro line say.
type intro struct {
	line     int
	cmd      string
	target   string
	conns    int64
	plannedS float64 // 0: not a timed test
	count    int64   // -n, 0 when not given
	rate     float64 // -r, 0 when not given
	timeoutS float64
	elapsedS float64 // last progress line, whole seconds
	elapsed  bool
}

// run accumulates one result block.
type run struct {
	core.FirstBad
	intro                     intro
	startLine, lastLine       int
	sec                       section
	rpsMean, rpsStdev, rpsMax float64
	hasRPS                    bool
	latMean, latStdev, latMax float64
	hasLat                    bool
	pcts                      []results.Percentile
	codes                     [5]int64
	hasCodes                  bool
	others                    int64
	hasOthers                 bool
	hasErrSection             bool
	timeouts                  int64
	tput                      float64
	hasTput                   bool
}

// state is the text parser's state over one input.
type state struct {
	core.RunState
	run     run
	pending intro
	f       [16][]byte
}

// Detect reports whether head holds a bombardier result: its Statistics
// header followed by a Reqs/sec row.
func (Parser) Detect(head []byte) bool {
	st := &state{RunState: core.RunState{Detect: true}}
	core.ScanHead(head, st.line, func() bool { return st.Found })
	return st.Found
}

// Parse streams the bombardier runs of r to sink in input order.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &state{RunState: core.RunState{Opts: opts, Sink: sink, Lab: core.Labeler{Labels: opts.Labels}}}
	return core.ParseLines(ctx, r, opts, "bombardier", st.line, st.close, func() int { return st.Index })
}

// isBombardierExe reports whether tok names the bombardier program.
func isBombardierExe(tok []byte) bool { return core.ExeNamed(tok, "bombardier") }

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if i := bytes.LastIndexByte(s, '\r'); i >= 0 {
		s = core.TrimLeft(s[i+1:]) // progress redrawn with carriage returns
	}
	if len(s) == 0 {
		return nil
	}
	f := core.Fields(s, st.f[:0])
	if len(f) == 4 && string(f[0]) == "Statistics" && string(f[1]) == "Avg" && string(f[2]) == "Stdev" && string(f[3]) == "Max" {
		return st.open(ln)
	}
	if st.Active {
		if ok, err := st.row(s, f, ln); ok || err != nil {
			return err
		}
	}
	// Outside a result: a command line, an intro, a progress line.
	if i := core.FindCommand(s, isBombardierExe); i >= 0 {
		if err := st.close(); err != nil {
			return err
		}
		st.pending = parseBombardierCommand(string(s[i:]), ln)
		return nil
	}
	if string(f[0]) == "Bombarding" && len(f) >= 6 {
		if err := st.close(); err != nil {
			return err
		}
		st.intro(f, ln)
		return nil
	}
	if !st.Active && st.pending.line > 0 {
		st.progress(f)
	}
	return nil
}

// open starts a result at its Statistics header, line ln, closing the
// one before.
func (st *state) open(ln int) error {
	if err := st.close(); err != nil {
		return err
	}
	st.Active = true
	st.run = run{intro: st.pending, startLine: ln, lastLine: ln, sec: bombardierSectionStats, pcts: st.run.pcts[:0]}
	if st.pending.line > 0 {
		st.run.startLine = st.pending.line
	}
	st.pending = intro{}
	return nil
}

// progress reads a progress line: its last token is the elapsed time
// ("37s", "1m5s"), before "Done!" on the last one.
func (st *state) progress(f [][]byte) {
	last := f[len(f)-1]
	if string(last) == "Done!" && len(f) > 1 {
		last = f[len(f)-2]
	}
	if d, err := time.ParseDuration(string(last)); err == nil && d >= 0 {
		st.pending.elapsedS, st.pending.elapsed = d.Seconds(), true
	}
}

// intro reads "Bombarding URL with N request(s) using C connection(s)" or
// "Bombarding URL for 10s using C connection(s)".
func (st *state) intro(f [][]byte, ln int) {
	p := st.pending
	if p.line == 0 {
		p = intro{line: ln}
	}
	p.target = string(f[1])
	for i := 2; i+1 < len(f); i++ {
		switch string(f[i]) {
		case "with":
			if n, ok := core.ParseUint(f[i+1]); ok {
				p.count = n
			}
		case "for":
			if d, err := time.ParseDuration(string(f[i+1])); err == nil && d > 0 {
				p.plannedS = d.Seconds()
			}
		case "using":
			if n, ok := core.ParseUint(f[i+1]); ok {
				p.conns = n
			}
		}
	}
	st.pending = p
}

// bombardierArgOpts are bombardier's options that take a value.
var bombardierArgOpts = map[string]bool{"c": true, "connections": true, "n": true, "requests": true, "d": true, "duration": true,
	"r": true, "rate": true, "t": true, "timeout": true, "m": true, "method": true, "b": true, "body": true, "f": true,
	"body-file": true, "H": true, "header": true, "p": true, "print": true, "o": true, "format": true, "cert": true, "key": true}

// parseBombardierCommand reads the options of a bombardier command line
// (kingpin syntax: -c 10, -c10, --connections=10).
func parseBombardierCommand(s string, ln int) intro {
	p := intro{line: ln, cmd: strings.TrimSpace(s), conns: 125, timeoutS: 2}
	core.EachOption(core.ShellWords(s), bombardierArgOpts, func(name, val string) {
		switch name {
		case "c", "connections":
			if n, err := strconv.ParseInt(val, 10, 32); err == nil && n > 0 {
				p.conns = n
			}
		case "n", "requests":
			if n, err := strconv.ParseInt(val, 10, 64); err == nil && n > 0 {
				p.count = n
			}
		case "d", "duration":
			if d, err := time.ParseDuration(val); err == nil && d > 0 {
				p.plannedS = d.Seconds()
			}
		case "r", "rate":
			if v, err := strconv.ParseFloat(val, 64); err == nil && core.Finite(v) && v > 0 {
				p.rate = v
			}
		case "t", "timeout":
			if d, err := time.ParseDuration(val); err == nil && d > 0 {
				p.timeoutS = d.Seconds()
			}
		}
	}, func(a string) {
		if p.target == "" && strings.Contains(a, ":") {
			p.target = a
		}
	})
	return p
}

// row handles a line inside a result; it reports false for lines that
// are not part of it.
func (st *state) row(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	if string(f[0]) == "Throughput:" && len(f) == 2 {
		r.throughputRow(f[1], ln)
		r.lastLine = ln
		return true, st.close()
	}
	o := st.statsRow(f, ln)
	if o == rowNotOurs {
		o = r.sectionRow(s, f, ln)
	}
	switch o {
	case rowNotOurs:
		return false, nil
	case rowRead:
		r.lastLine = ln
	}
	return true, nil
}

// rowOutcome is what a result made of a line.
type rowOutcome int

const (
	rowNotOurs   rowOutcome = iota // not part of the result
	rowRead                        // read: the result's last line so far
	rowMalformed                   // part of it, malformed (noted)
)

// statsRow reads the Reqs/sec and Latency rows and the section headers.
func (st *state) statsRow(f [][]byte, ln int) rowOutcome {
	r := &st.run
	key := string(f[0])
	switch {
	case key == "Reqs/sec" && len(f) == 4:
		v, ok := three(f, dec)
		if !ok {
			r.Malformed(ln, "Reqs/sec row")
			return rowMalformed
		}
		r.rpsMean, r.rpsStdev, r.rpsMax, r.hasRPS = v[0], v[1], v[2], true
		if st.Detect {
			st.Found = true
		}
	case key == "Latency" && len(f) == 4:
		v, ok := three(f, ms)
		if !ok {
			r.Malformed(ln, "Latency row")
			return rowMalformed
		}
		r.latMean, r.latStdev, r.latMax, r.hasLat = v[0], v[1], v[2], true
	case key == "Latency" && len(f) == 2 && string(f[1]) == "Distribution":
		r.sec = bombardierSectionDist
	case key == "HTTP" && len(f) == 2 && string(f[1]) == "codes:":
		r.sec = bombardierSectionCodes
	case key == "Errors:" && len(f) == 1:
		r.sec, r.hasErrSection = bombardierSectionErrors, true
	default:
		return rowNotOurs
	}
	return rowRead
}

// throughputRow reads "Throughput: 1.23MB/s", the result's last line.
func (r *run) throughputRow(v []byte, ln int) {
	tok := bytes.TrimSuffix(v, []byte("/s"))
	x, ok := core.BinaryBytes(tok)
	if !ok || len(tok) == len(v) {
		r.Malformed(ln, "Throughput row")
		return
	}
	r.tput, r.hasTput = x, true
}

// distRow reads a row of the latency distribution, "99% 1.20ms".
func (r *run) distRow(f [][]byte, ln int) {
	q, ok := core.ParseDec(f[0][:len(f[0])-1], -2)
	ms, k := core.TimeMs(f[1])
	if !ok || q > 1 || k != core.ValOK {
		r.Malformed(ln, "latency distribution row")
	} else if len(r.pcts) < core.MaxPercentiles {
		r.pcts = append(r.pcts, results.Percentile{Quantile: q, LatencyMs: ms})
	}
}

// sectionRow reads a row of the open section: a latency percentile, the
// HTTP codes, the other codes, or an error's count.
func (r *run) sectionRow(s []byte, f [][]byte, ln int) rowOutcome {
	switch {
	case r.sec == bombardierSectionDist && len(f) == 2 && bytes.HasSuffix(f[0], []byte("%")):
		r.distRow(f, ln)
	case r.sec == bombardierSectionCodes && bytes.HasPrefix(s, []byte("1xx - ")):
		if !r.codesRow(s, ln) {
			return rowMalformed
		}
	case r.sec == bombardierSectionCodes && string(f[0]) == "others" && len(f) == 3 && string(f[1]) == "-":
		n, ok := core.ParseUint(f[2])
		if !ok {
			r.Malformed(ln, "others row")
		}
		r.others, r.hasOthers = n, ok
	case r.sec == bombardierSectionErrors && len(f) >= 3 && string(f[len(f)-2]) == "-":
		n, ok := core.ParseUint(f[len(f)-1])
		if !ok {
			return rowNotOurs
		}
		if requests.IsTimeout(string(s)) {
			r.timeouts = core.AddSat(r.timeouts, n)
		}
	default:
		return rowNotOurs
	}
	return rowRead
}

// three converts the three values of a statistics row (Avg,
// Stdev, Max) with conv; false at the first it refuses.
func three(f [][]byte, conv func([]byte) (float64, bool)) ([3]float64, bool) {
	var v [3]float64
	for i := range v {
		x, ok := conv(f[i+1])
		if !ok {
			return v, false
		}
		v[i] = x
	}
	return v, true
}

// dec converts a plain decimal.
func dec(b []byte) (float64, bool) { return core.ParseDec(b, 0) }

// ms converts a time with its unit to milliseconds.
func ms(b []byte) (float64, bool) {
	x, k := core.TimeMs(b)
	return x, k == core.ValOK
}

// codesRow reads "1xx - 0, 2xx - 58518, 3xx - 0, 4xx - 0, 5xx - 0"; false
// when it is malformed.
func (r *run) codesRow(s []byte, ln int) bool {
	for i, part := range bytes.Split(s, []byte(",")) {
		k, v, ok := bytes.Cut(core.TrimLeft(part), []byte(" - "))
		n, ok2 := core.ParseUint(core.TrimRight(v))
		if i >= 5 || !ok || !ok2 || len(k) != 3 || k[0] != byte('1'+i) {
			r.Malformed(ln, "HTTP codes row")
			return false
		}
		r.codes[i] = n
	}
	r.hasCodes = true
	return true
}

// close ends the current result, emitting it when complete.
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
		return st.Malformed("bombardier", r.BadLine, r.Bad)
	}
	if !r.hasRPS || !r.hasTput || !r.hasCodes {
		return &core.SyntaxError{File: st.Opts.Source, Line: r.lastLine,
			Msg: "bombardier result without its Reqs/sec, HTTP codes or Throughput lines (cut paste?)"}
	}
	out := st.build()
	return st.Emit(out)
}

// build makes the run of a complete result.
func (st *state) build() results.RunWithPercentiles {
	r := &st.run
	in := r.intro
	var notes []string
	out := results.RunWithPercentiles{Run: results.Run{
		Tool: "bombardier", LoadModel: results.LoadClosed, Target: in.target, RPS: r.rpsMean,
		SourceLine: int32(min(r.startLine, math.MaxInt32)),
	}, Percentiles: []results.Percentile{}}
	if in.cmd != "" {
		out.Command = results.Ptr(in.cmd)
		out.TimeoutS = results.Ptr(in.timeoutS)
	}
	if in.conns > 0 {
		out.Connections = results.Ptr(int32(min(in.conns, math.MaxInt32)))
	}
	if in.plannedS > 0 {
		out.PlannedDurationS = results.Ptr(in.plannedS)
	}
	if in.rate > 0 {
		notes = append(notes, fmt.Sprintf("rate limited to %g requests/s (-r)", in.rate))
	}
	for _, n := range r.codes {
		out.Requests = core.AddSat(out.Requests, n)
	}
	out.Requests = core.AddSat(out.Requests, r.others)
	non2xx := core.AddSat(core.AddSat(r.codes[0], r.codes[3]), r.codes[4])
	out.Non2xx = results.Ptr(non2xx)
	out.Errors = core.AddSat(non2xx, r.others)
	if r.hasErrSection || r.others == 0 {
		out.Timeouts = results.Ptr(r.timeouts)
	}
	switch {
	case in.plannedS > 0:
		out.DurationS = in.plannedS
		notes = append(notes, "bombardier prints no measured duration: duration_s is the planned one (-d)")
	case in.elapsed && in.elapsedS >= 1:
		out.DurationS = in.elapsedS
		notes = append(notes, "duration_s from the last progress line, rounded by bombardier to the second")
	case r.rpsMean > 0:
		out.DurationS = float64(out.Requests) / r.rpsMean
		notes = append(notes, "bombardier prints no measured duration: duration_s is requests / mean Reqs/sec")
	}
	out.TransferBPS = results.Ptr(r.tput)
	if r.hasLat { // bombardier's latencies include failed requests
		out.LatMeanMs, out.LatStdevMs, out.LatMaxMs = results.Ptr(r.latMean), results.Ptr(r.latStdev), results.Ptr(r.latMax)
	}
	core.AddPercentiles(&out, r.pcts)
	notes = append(notes, fmt.Sprintf("Reqs/sec sampled while running: stdev %g, max %g", r.rpsStdev, r.rpsMax))
	out.Notes = results.Ptr(strings.Join(notes, "; "))
	return out
}
