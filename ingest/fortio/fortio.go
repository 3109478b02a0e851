package fortio

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

// The Fortio parsers read the result of `fortio load` (fortio.org/fortio):
// "fortio" the text it prints on stderr, wherever it sits in a file, with
// or without its log lines; "fortio-json" its -json result. The layout and
// how the figures are derived: docs/FORMATS.md, section
// ingest/fortio/fortio.go.
type Parser struct{}

// Name returns "fortio".
func (Parser) Name() string { return "fortio" }

// section is the histogram the "# target" lines belong to.
type section uint8

const (
	fortioSectionNone section = iota
	fortioSectionFunction
	fortioSectionOther
)

// run accumulates one run.
type run struct {
	core.FirstBad
	startLine, lastLine int
	cmd                 string
	target              string
	qps                 float64 // requested; <= 0: max
	plannedS            float64
	calls               int64 // -n
	threads             int64
	endedS              float64
	endedCalls          int64
	endedQPS            float64
	hasEnded            bool
	sec                 section
	count               int64
	avg, sd, lo, hi     float64
	hasFunc             bool
	pcts                []results.Percentile
	codes               map[int64]int64
	bytes               int64
	hasBytes            bool
	doneCalls           int64
	doneQPS             float64
	hasDone             bool
}

// state is the text parser's state over one input.
type state struct {
	core.RunState
	run     run
	pending string // a fortio command line
	pendLn  int
	f       [24][]byte
}

// Detect reports whether head holds a Fortio load result: its "running
// at" line and its "Aggregated Function Time" line.
func (Parser) Detect(head []byte) bool {
	st := &state{RunState: core.RunState{Detect: true}}
	core.ScanHead(head, st.line, func() bool { return st.Found })
	return st.Found
}

// Parse streams the Fortio runs of r to sink in input order.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &state{RunState: core.RunState{Opts: opts, Sink: sink, Lab: core.Labeler{Labels: opts.Labels}}}
	return core.ParseLines(ctx, r, opts, "fortio", st.line, st.close, func() int { return st.Index })
}

// isFortioExe reports whether tok names the fortio program.
func isFortioExe(tok []byte) bool { return core.ExeNamed(tok, "fortio") }

// stats parses "count 400 avg 0.0015 +/- 0.004877 min 3.8e-05 max 0.0446 sum 0.628",
// returning the values times 1000 (seconds as ms).
func stats(f [][]byte) (count int64, avg, sd, lo, hi, sum float64, ok bool) {
	if len(f) != 12 || string(f[0]) != "count" || string(f[2]) != "avg" || string(f[4]) != "+/-" || string(f[6]) != "min" ||
		string(f[8]) != "max" || string(f[10]) != "sum" {
		return 0, 0, 0, 0, 0, 0, false
	}
	count, ok = core.ParseUint(f[1])
	var v [5]float64
	for i, j := range []int{3, 5, 7, 9, 11} {
		x := core.ShiftDecString(string(f[j]), 3) // seconds to ms
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, 0, 0, 0, 0, 0, false
		}
		v[i] = x
	}
	return count, v[0], v[1], v[2], v[3], v[4], ok
}

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if len(s) == 0 || s[0] == '{' {
		return nil // blank, or a JSON log line
	}
	f := core.Fields(s, st.f[:0])
	switch {
	case string(f[0]) == "Fortio" && len(f) >= 9 && string(f[2]) == "running" && string(f[3]) == "at":
		return st.startRun(f, ln)
	case !st.Active:
		st.command(s, f, ln)
		return nil
	case string(f[0]) == "All" && len(f) >= 10 && string(f[1]) == "done":
		return st.done(f, ln)
	}
	st.runLine(s, f, ln)
	st.run.lastLine = ln
	return nil
}

// startRun begins a run at its first line:
// "Fortio 1.68.2 running at 200 queries per second, 2->2 procs, for 2s: URL".
func (st *state) startRun(f [][]byte, ln int) error {
	if err := st.close(); err != nil {
		return err
	}
	st.begin(ln)
	r := &st.run
	r.target = string(f[len(f)-1])
	if q, err := strconv.ParseFloat(string(f[4]), 64); err == nil && core.Finite(q) {
		r.qps = q
	}
	for i := 5; i+1 < len(f); i++ {
		if string(f[i]) == "for" {
			w := bytes.TrimSuffix(f[i+1], []byte(":"))
			if d, err := time.ParseDuration(string(w)); err == nil && d > 0 {
				r.plannedS = d.Seconds()
			} else if n, ok := core.ParseUint(w); ok && i+2 < len(f) && bytes.HasPrefix(f[i+2], []byte("calls")) {
				r.calls = n
			}
		}
	}
	return nil
}

// command keeps, outside a run, a fortio load (or curl) command line for
// the run that follows.
func (st *state) command(s []byte, f [][]byte, ln int) {
	for i := 0; i+1 < len(f); i++ {
		if isFortioExe(f[i]) && (string(f[i+1]) == "load" || string(f[i+1]) == "curl") {
			st.pending, st.pendLn = string(core.TrimRight(core.Rest(s, f[i]))), ln
			break
		}
	}
}

// done ends a run at "All done 400 calls (plus 4 warmup) 1.571 ms avg,
// 199.2 qps".
func (st *state) done(f [][]byte, ln int) error {
	r := &st.run
	n, ok := core.ParseUint(f[2])
	q, ok2 := core.ParseDec(f[len(f)-2], 0)
	if !ok || !ok2 || string(f[len(f)-1]) != "qps" {
		r.Malformed(ln, "All done line")
	}
	r.doneCalls, r.doneQPS, r.hasDone = n, q, true
	r.lastLine = ln
	return st.close()
}

// runLine reads a line inside a run.
func (st *state) runLine(s []byte, f [][]byte, ln int) {
	r := &st.run
	if r.wordLine(f, ln) {
		return
	}
	switch {
	case bytes.HasPrefix(s, []byte("Aggregated Function Time :")):
		if r.functionTime(f, ln) && st.Detect {
			st.Found = true
		}
	case bytes.HasPrefix(s, []byte("Response Body/Total Sizes :")):
		r.sizes(f)
	case bytes.Contains(s, []byte(" : count ")):
		// another histogram: Sleep times, Error cases, connection timing
		r.sec = fortioSectionOther
	}
}

// wordLine reads the lines told by their first word; false for others.
func (r *run) wordLine(f [][]byte, ln int) bool {
	switch string(f[0]) {
	case "Starting":
		// Starting at 200 qps with 4 thread(s) [gomax 2] ...
		if len(f) < 6 || string(f[1]) != "at" || string(f[4]) != "with" {
			return false
		}
		if n, ok := core.ParseUint(f[5]); ok {
			r.threads = n
		}
	case "Ended":
		if len(f) != 7 || string(f[1]) != "after" {
			return false
		}
		r.ended(f, ln)
	case "target":
		// "# target 50% 0.000651724" (normalize drops the "# ")
		if len(f) != 3 {
			return false
		}
		if r.sec == fortioSectionFunction {
			r.percentile(f, ln)
		}
	case "range,", ">=", ">":
		// histogram rows and headers
	case "Code":
		if len(f) < 4 {
			return false
		}
		r.code(f, ln)
	default:
		return false
	}
	return true
}

// functionTime reads "Aggregated Function Time : count 400 avg ...", which
// opens the latency histogram; false when it is malformed.
func (r *run) functionTime(f [][]byte, ln int) bool {
	count, avg, sd, lo, hi, _, ok := stats(f[4:])
	if !ok {
		r.Malformed(ln, "Aggregated Function Time line")
		return false
	}
	r.count, r.avg, r.sd, r.lo, r.hi, r.hasFunc = count, avg, sd, lo, hi, true
	r.sec = fortioSectionFunction
	return true
}

// sizes reads "Response Body/Total Sizes : count ... sum S": the bytes
// received, in thousands as fortio sums them.
func (r *run) sizes(f [][]byte) {
	if _, _, _, _, _, sum, ok := stats(f[4:]); ok && sum >= 0 && sum < 9e21 {
		r.bytes, r.hasBytes = int64(math.Round(sum/1000)), true
	}
}

// ended reads "Ended after 2.008298329s : 400 calls. qps=199.17".
func (r *run) ended(f [][]byte, ln int) {
	d, err := time.ParseDuration(string(f[2]))
	n, ok := core.ParseUint(f[4])
	q, ok2 := core.ParseDec(bytes.TrimPrefix(f[6], []byte("qps=")), 0)
	if err != nil || d < 0 || !ok || !ok2 || !bytes.HasPrefix(f[6], []byte("qps=")) {
		r.Malformed(ln, "Ended line")
		return
	}
	r.endedS, r.endedCalls, r.endedQPS, r.hasEnded = d.Seconds(), n, q, true
}

// percentile reads a percentile of the function time: "target 50% 0.000651724".
func (r *run) percentile(f [][]byte, ln int) {
	q, ok := core.ParseDec(bytes.TrimSuffix(f[1], []byte("%")), -2)
	v := core.ShiftDecString(string(f[2]), 3)
	if !ok || q > 1 || !core.Finite(v) {
		r.Malformed(ln, "target line")
		return
	}
	if len(r.pcts) < core.MaxPercentiles {
		r.pcts = append(r.pcts, results.Percentile{Quantile: q, LatencyMs: v})
	}
}

// code reads a status count: "Code 200 : 267 (66.8 %)", "Code  -1 : 12 (100.0 %)".
func (r *run) code(f [][]byte, ln int) {
	code, err := strconv.ParseInt(string(f[1]), 10, 32)
	n, ok := core.ParseUint(f[3])
	if err != nil || !ok || string(f[2]) != ":" {
		r.Malformed(ln, "Code line")
		return
	}
	if r.codes == nil {
		r.codes = map[int64]int64{}
	}
	r.codes[code] = core.AddSat(r.codes[code], n)
}

// begin starts a run at its "running at" line.
func (st *state) begin(ln int) {
	st.run = run{startLine: ln, lastLine: ln}
	if st.pending != "" {
		st.run.cmd, st.run.startLine = st.pending, st.pendLn
	}
	st.Active, st.pending = true, ""
}

// close ends the current run, emitting it when complete.
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
		return st.Malformed("fortio", r.BadLine, r.Bad)
	}
	if !r.hasFunc || !r.hasDone {
		return &core.SyntaxError{File: st.Opts.Source, Line: r.lastLine,
			Msg: "fortio result without its Aggregated Function Time or All done line (cut paste?)"}
	}
	var notes []string
	out := results.RunWithPercentiles{Run: results.Run{Tool: "fortio", LoadModel: results.LoadClosed, Target: r.target,
		SourceLine: int32(min(r.startLine, math.MaxInt32))}, Percentiles: []results.Percentile{}}
	if r.cmd != "" {
		out.Command = results.Ptr(r.cmd)
	}
	switch {
	case r.hasEnded:
		out.DurationS, out.RPS = r.endedS, r.endedQPS
	case r.doneQPS > 0:
		out.DurationS, out.RPS = float64(r.doneCalls)/r.doneQPS, r.doneQPS
		notes = append(notes, "no Ended line (-quiet): duration_s is calls / qps as rounded in the All done line")
	}
	fill(&out, figures{
		requested: r.qps, plannedS: r.plannedS, calls: r.calls, threads: r.threads, count: r.count,
		avgMs: r.avg, sdMs: r.sd, minMs: r.lo, maxMs: r.hi, pcts: r.pcts, codes: r.codes, bytes: r.bytes, hasBytes: r.hasBytes,
	}, &notes)
	return st.Emit(out)
}

// figures are what the text and JSON results both give.
type figures struct {
	requested    float64 // qps; <= 0: max
	plannedS     float64
	calls        int64
	threads      int64
	count        int64
	avgMs, sdMs  float64
	minMs, maxMs float64
	pcts         []results.Percentile // in ms
	codes        map[int64]int64
	bytes        int64
	hasBytes     bool
}

// fill sets the run's counts, latencies and load from fig.
func fill(out *results.RunWithPercentiles, fig figures, notes *[]string) {
	if fig.requested > 0 {
		out.TargetRPS = results.Ptr(fig.requested)
		*notes = append(*notes, "-qps paces each thread, which waits for every response (no coordinated-omission correction)")
	}
	if fig.plannedS > 0 {
		out.PlannedDurationS = results.Ptr(fig.plannedS)
	}
	if fig.calls > 0 {
		*notes = append(*notes, fmt.Sprintf("%d calls requested (-n)", fig.calls))
	}
	if fig.threads > 0 {
		out.Connections = results.Ptr(int32(min(fig.threads, math.MaxInt32)))
	}
	out.Requests = fig.count
	if fig.codes != nil {
		var total, bad, non2xx, sock int64
		for code, n := range fig.codes {
			total = core.AddSat(total, n)
			switch {
			case code < 0:
				sock = core.AddSat(sock, n)
			case code < 200 || code >= 400:
				non2xx = core.AddSat(non2xx, n)
			}
		}
		bad = core.AddSat(non2xx, sock)
		out.Requests = total
		out.Non2xx = results.Ptr(non2xx)
		out.Errors = bad
		if sock > 0 {
			*notes = append(*notes, fmt.Sprintf("%d calls got no response (code -1: socket error or timeout)", sock))
		}
	}
	if fig.hasBytes {
		out.BytesIn = results.Ptr(fig.bytes)
		if out.DurationS > 0 {
			out.TransferBPS = results.Ptr(float64(fig.bytes) / out.DurationS)
		}
	}
	if fig.count > 0 {
		out.LatMeanMs, out.LatStdevMs = results.Ptr(fig.avgMs), results.Ptr(fig.sdMs)
		out.LatMinMs, out.LatMaxMs = results.Ptr(fig.minMs), results.Ptr(fig.maxMs)
		core.SortPercentiles(fig.pcts)
		core.AddPercentiles(out, fig.pcts)
	}
	if len(*notes) > 0 {
		out.Notes = results.Ptr(strings.Join(*notes, "; "))
	}
}
