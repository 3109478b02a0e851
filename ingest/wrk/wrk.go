package wrk

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// The wrk parser reads the text output of wrk (github.com/wg/wrk) and wrk2
// (github.com/giltene/wrk2), wherever it sits in a file: bare, in terminal
// transcripts, in markdown or blog posts, several runs in a row.
//
// A run is the block of docs/FORMATS.md's layout.
//
// Lines are recognized one by one and move the current run forward; a line
// that belongs before what the current run already holds starts the next
// run. Unrecognized lines (prose, script output, `time` output) are skipped.
// A run is complete once its "requests in" line is seen; a run that got as
// far as its threads line (or further) but ends (next run or end of input)
// without that line is a *SyntaxError pointing at its last line.

type Parser struct{}

// Name returns "wrk"; the parser reads wrk2 output too and sets Run.Tool per run.
func (Parser) Name() string { return "wrk" }

// Formats returns the formats the parser reads.
func (Parser) Formats() []string { return []string{"wrk", "wrk2"} }

// kind is the kind of a line of wrk output.
type kind uint8

const (
	wrkKindNone kind = iota
	wrkKindRunning
	wrkKindThreads
	wrkKindCalib
	wrkKindHeader
	wrkKindLatRow
	wrkKindReqRow
	wrkKindDistHeader
	wrkKindPctRow
	wrkKindSpecHeader
	wrkKindSpecCols
	wrkKindSpecRow
	wrkKindHdrStats
	wrkKindRule
	wrkKindRequests
	wrkKindSocket
	wrkKindNon2xx
	wrkKindRPS
	wrkKindTransfer
)

// Phases of a run, in output order.
const (
	wrkPhaseRunning int8 = iota + 1
	wrkPhaseThreads
	wrkPhaseCalib
	wrkPhaseHeader
	wrkPhaseLatRow
	wrkPhaseReqRow
	wrkPhaseDist
	wrkPhaseRequests
	wrkPhaseSocket
	wrkPhaseNon2xx
	wrkPhaseRPS
	wrkPhaseTransfer
)

// wrkLead marks the bytes a line of a run can start with (classify's
// cases): a line starting with another is not split into fields.
var wrkLead = func() (t [256]bool) {
	for _, c := range []byte("RTLSNDV#-.0123456789") {
		t[c] = true
	}
	return t
}()

// classify returns the kind of a line from its fields by structure only;
// the handlers check the numbers.
func classify(f [][]byte) kind {
	if len(f) == 0 || len(f[0]) == 0 {
		return wrkKindNone
	}
	switch a := f[0]; a[0] {
	case 'R':
		return classifyR(f)
	case 'T':
		return classifyT(f)
	case 'L':
		return classifyL(f)
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '.':
		return classifyNumeric(f)
	default:
		return classifyOther(f)
	}
}

// classifyR classifies the lines starting with R: Running, Requests/sec
// and Req/Sec.
func classifyR(f [][]byte) kind {
	switch string(f[0]) {
	case "Running":
		if len(f) >= 5 && string(f[2]) == "test" && string(f[3]) == "@" {
			return wrkKindRunning
		}
	case "Requests/sec:":
		if len(f) == 2 {
			return wrkKindRPS
		}
	case "Req/Sec":
		if len(f) >= 4 && len(f) <= 5 {
			return wrkKindReqRow
		}
	}
	return wrkKindNone
}

// classifyT classifies the lines starting with T: the Thread Stats
// header, wrk2's calibration and Transfer/sec.
func classifyT(f [][]byte) kind {
	switch string(f[0]) {
	case "Thread":
		if len(f) >= 3 && string(f[1]) == "Stats" && string(f[2]) == "Avg" {
			return wrkKindHeader
		}
		if len(f) >= 2 && string(f[1]) == "calibration:" {
			return wrkKindCalib
		}
	case "Transfer/sec:":
		if len(f) == 2 {
			return wrkKindTransfer
		}
	}
	return wrkKindNone
}

// classifyL classifies the lines starting with L: the Latency row and
// the Latency Distribution header.
func classifyL(f [][]byte) kind {
	if string(f[0]) == "Latency" {
		if len(f) >= 2 && string(f[1]) == "Distribution" {
			return wrkKindDistHeader
		}
		if len(f) >= 4 && len(f) <= 5 {
			return wrkKindLatRow
		}
	}
	return wrkKindNone
}

// classifyNumeric classifies the lines starting with a number:
// percentile rows, wrk2's detailed rows, the threads and connections line
// and the "requests in" line.
func classifyNumeric(f [][]byte) kind {
	a := f[0]
	switch len(f) {
	case 2:
		if a[len(a)-1] == '%' {
			return wrkKindPctRow
		}
	case 4:
		return wrkKindSpecRow
	case 5:
		if (string(f[1]) == "threads" || string(f[1]) == "thread") && string(f[2]) == "and" &&
			(string(f[4]) == "connections" || string(f[4]) == "connection") {
			return wrkKindThreads
		}
	case 6:
		if string(f[1]) == "requests" && string(f[2]) == "in" && string(f[5]) == "read" {
			return wrkKindRequests
		}
	}
	return wrkKindNone
}

// classifyOther classifies the other lines of a run: Socket errors,
// Non-2xx responses, wrk2's detailed percentile headers, HdrHistogram
// statistics and rules.
func classifyOther(f [][]byte) kind {
	a := f[0]
	switch {
	case bytes.HasPrefix(a, []byte("#[")):
		return wrkKindHdrStats
	case len(a) >= 3 && a[0] == '-' && a[1] == '-' && a[2] == '-' && len(f) == 1:
		return wrkKindRule
	case len(f) < 2:
		return wrkKindNone
	}
	switch string(a) {
	case "Socket":
		if len(f) >= 4 && string(f[1]) == "errors:" {
			return wrkKindSocket
		}
	case "Non-2xx":
		if len(f) >= 3 && string(f[len(f)-2]) == "responses:" {
			return wrkKindNon2xx
		}
	case "Detailed":
		if string(f[1]) == "Percentile" {
			return wrkKindSpecHeader
		}
	case "Value":
		if string(f[1]) == "Percentile" {
			return wrkKindSpecCols
		}
	}
	return wrkKindNone
}

// parseRequests parses "N requests in 10.04s, 4.12MB read".
func parseRequests(f [][]byte) (n int64, durS, bytesIn float64, ok bool) {
	n, ok = core.ParseUint(f[0])
	if !ok {
		return
	}
	d := f[3]
	if len(d) < 2 || d[len(d)-1] != ',' {
		return 0, 0, 0, false
	}
	if durS, ok = core.DurationS(d[:len(d)-1], 0); !ok {
		return
	}
	b := f[4]
	if len(b) < 2 || b[len(b)-1] != 'B' {
		return 0, 0, 0, false
	}
	bytesIn, ok = core.BinaryBytes(b)
	return
}

// parseThreads parses "N threads and M connections".
func parseThreads(f [][]byte) (t, c int64, ok bool) {
	if t, ok = core.ParseUint(f[0]); !ok {
		return
	}
	c, ok = core.ParseUint(f[3])
	return
}

// parseStats parses the three values of a Thread Stats row with conv.
func parseStats(f [][]byte, conv func([]byte) (float64, core.ValueKind)) (v [3]float64, k [3]core.ValueKind, ok bool) {
	for i := 0; i < 3; i++ {
		v[i], k[i] = conv(f[i+1])
		if k[i] == core.ValBad {
			return v, k, false
		}
	}
	if len(f) == 5 && !core.IsNaN(f[4]) {
		p := f[4]
		if len(p) == 0 || p[len(p)-1] != '%' {
			return v, k, false
		}
		if _, ok := core.ParseDec(p[:len(p)-1], 0); !ok {
			return v, k, false
		}
	}
	return v, k, true
}

// Detect reports whether head holds wrk or wrk2 output: a Thread Stats header
// together with a threads line, a Req/Sec row, a "requests in" line or a wrk2
// calibration line; or a "requests in" line with a Requests/sec line.
// One line alone is never enough (autocannon also prints "Running 10s test @",
// bombardier a "Latency Distribution", hey and oha "Requests/sec:").
func (Parser) Detect(head []byte) bool {
	var buf [24][]byte
	var header, reqIn, threads, reqRow, rps, calib bool
	for _, line := range core.HeadLines(head) {
		s := core.Normalize(line)
		if len(s) == 0 {
			continue
		}
		f := core.Fields(s, buf[:0])
		switch classify(f) {
		case wrkKindHeader:
			header = true
		case wrkKindRequests:
			_, _, _, ok := parseRequests(f)
			reqIn = reqIn || ok
		case wrkKindThreads:
			_, _, ok := parseThreads(f)
			threads = threads || ok
		case wrkKindReqRow:
			_, _, ok := parseStats(f, core.Metric)
			reqRow = reqRow || ok
		case wrkKindRPS:
			_, k := core.Metric(f[1])
			rps = rps || k == core.ValOK
		case wrkKindCalib:
			calib = true
		}
		if header && (reqIn || threads || reqRow || calib) || reqIn && rps {
			return true
		}
	}
	return false
}

// distKind says which distribution the rows being read belong to.
type distKind uint8

const (
	wrkDistNone        distKind = iota
	wrkDistRecorded             // wrk's, or wrk2's corrected (Recorded) one
	wrkDistUncorrected          // wrk2 -U: kept out of the percentiles
)

// run accumulates one run.
type run struct {
	phase              int8
	startLine          int // first line, the command's when one is attached
	firstLine          int // first line of the output itself
	lastLine           int
	cmd                *command
	target             string
	hasTarget          bool
	planned            float64
	hasPlanned         bool
	threads, conns     int64
	hasThreads         bool
	wrk2               bool
	lat, rq            [3]float64
	latK, rqK          [3]core.ValueKind
	hasLat, hasRq      bool
	dist               distKind
	inSpec             bool
	sawUncorrected     bool
	summary, spec      []core.PctRow
	pctNoUnit          bool
	pctDropped         bool
	hdr                [3]float64 // mean, stdev, max from wrk2's #[...] lines
	hasHdr             [3]bool
	requests           int64
	duration, bytesIn  float64
	sock               bool
	sockErr            [4]int64 // connect, read, write, timeout
	non2xx             int64
	hasNon2xx          bool
	rps, tbps          float64
	hasRPS, hasTBPS    bool
	rpsNaN, threadsBad bool
}

// state is the parser's state over one input, or over a batch of its
// lines (see parseWrkBatches). emit receives each run without the fields
// fillCommon sets.
type state struct {
	opts    core.Options
	emit    func(results.RunWithPercentiles) error
	lab     core.Labeler
	active  bool
	run     run
	pending *command
	f       [24][]byte
	notes   []string
}

// Parse streams the wrk and wrk2 runs of r to sink in input order, parsing
// batches of lines in parallel (see parseWrkBatches).
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	return parseWrkBatches(ctx, r, opts, sink, wrkBatchBytes)
}

// fresh reports whether the state is that of the start of an input: no run
// open and no command waiting for one. (The fields of run are only read
// while a run is active, and start resets them.)
func (st *state) fresh() bool { return !st.active && st.pending == nil }

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if st.pending != nil && st.pending.more && st.continueCommand(s) {
		return nil
	}
	if len(s) == 0 {
		return nil
	}
	var f [][]byte
	if wrkLead[s[0]] {
		f = core.Fields(s, st.f[:0])
	}
	if h := wrkHandlers[classify(f)]; h != nil {
		if handled, err := h(st, s, f, ln); handled || err != nil {
			return err
		}
	}
	// Not part of a run: maybe a command line for the next one, or its
	// bare arguments.
	c, ok := (*command)(nil), false
	if i := findWrkCommand(s); i >= 0 {
		c, ok = parseWrkCommand(string(s[i:]), ln)
	} else {
		c, ok = parseBareWrkArgs(s, ln)
	}
	if ok {
		if err := st.close(); err != nil {
			return err
		}
		st.pending = c
	}
	return nil
}

// wrkHandlers handle the lines of each kind (classify): handled false
// when the line, on a closer look, is no part of a run.
var wrkHandlers = [...]func(st *state, s []byte, f [][]byte, ln int) (bool, error){
	wrkKindRunning:    (*state).onRunning,
	wrkKindThreads:    (*state).onThreads,
	wrkKindCalib:      (*state).onCalib,
	wrkKindHeader:     (*state).onHeader,
	wrkKindLatRow:     (*state).onLatRow,
	wrkKindReqRow:     (*state).onReqRow,
	wrkKindDistHeader: (*state).onDistHeader,
	wrkKindPctRow:     (*state).onPctRow,
	wrkKindSpecHeader: (*state).onSpecHeader,
	wrkKindSpecCols:   (*state).onSpecCols,
	wrkKindSpecRow:    (*state).onSpecRow,
	wrkKindHdrStats:   (*state).onHdrStats,
	wrkKindRule:       (*state).onRule,
	wrkKindRequests:   (*state).onRequests,
	wrkKindSocket:     (*state).onSocket,
	wrkKindNon2xx:     (*state).onNon2xx,
	wrkKindRPS:        (*state).onRPS,
	wrkKindTransfer:   (*state).onTransfer,
}

// onRunning handles a line of kind wrkKindRunning; false when the line, on a
// closer look, is no part of a run.
func (st *state) onRunning(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	d, ok := core.DurationS(f[1], 0)
	if !ok {
		return false, nil
	}
	if err := st.start(ln); err != nil {
		return true, err
	}
	r.phase, r.lastLine = wrkPhaseRunning, ln
	r.planned, r.hasPlanned = d, core.Finite(d)
	r.target, r.hasTarget = st.lab.Target(core.Rest(s, f[4])), true
	if r.cmd != nil && r.cmd.url != "" && r.cmd.url != r.target {
		r.cmd, r.startLine = nil, r.firstLine // the command was for another run
	}
	return true, nil
}

// onThreads handles a line of kind wrkKindThreads; false when the line, on a
// closer look, is no part of a run.
func (st *state) onThreads(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	t, c, ok := parseThreads(f)
	if !ok {
		return false, nil
	}
	if ok, err := st.enter(wrkPhaseThreads, ln, true, false); !ok || err != nil {
		return true, err
	}
	if t > 1<<31-1 || c > 1<<31-1 {
		r.threadsBad = true
		return true, nil
	}
	r.threads, r.conns, r.hasThreads = t, c, true
	if cmd := r.cmd; cmd != nil && (cmd.hasThreads && cmd.threads != t || cmd.hasConns && cmd.connections != c) {
		r.cmd, r.startLine = nil, r.firstLine
	}
	return true, nil
}

// onCalib handles a line of kind wrkKindCalib; false when the line, on a
// closer look, is no part of a run.
func (st *state) onCalib(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	if ok, err := st.enter(wrkPhaseCalib, ln, true, true); !ok || err != nil {
		return true, err
	}
	r.wrk2 = true
	return true, nil
}

// onHeader handles a line of kind wrkKindHeader; false when the line, on a
// closer look, is no part of a run.
func (st *state) onHeader(s []byte, f [][]byte, ln int) (bool, error) {
	_, err := st.enter(wrkPhaseHeader, ln, true, false)
	return true, err
}

// onLatRow handles a line of kind wrkKindLatRow; false when the line, on a
// closer look, is no part of a run.
func (st *state) onLatRow(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	if !st.active || r.phase < wrkPhaseHeader {
		return false, nil // rows belong under a Thread Stats header (bombardier prints a Latency row too)
	}
	v, k, ok := parseStats(f, core.TimeMs)
	if !ok {
		return false, nil
	}
	if ok, err := st.enter(wrkPhaseLatRow, ln, false, false); ok && err == nil {
		r.lat, r.latK, r.hasLat = v, k, true
	}
	return true, nil
}

// onReqRow handles a line of kind wrkKindReqRow; false when the line, on a
// closer look, is no part of a run.
func (st *state) onReqRow(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	if !st.active || r.phase < wrkPhaseHeader {
		return false, nil // rows belong under a Thread Stats header (bombardier prints a Latency row too)
	}
	v, k, ok := parseStats(f, core.Metric)
	if !ok {
		return false, nil
	}
	if ok, err := st.enter(wrkPhaseReqRow, ln, false, false); ok && err == nil {
		r.rq, r.rqK, r.hasRq = v, k, true
	}
	return true, nil
}

// onDistHeader handles a line of kind wrkKindDistHeader; false when the line, on a
// closer look, is no part of a run.
func (st *state) onDistHeader(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	if !st.active || r.phase < wrkPhaseHeader {
		return false, nil
	}
	if ok, err := st.enter(wrkPhaseDist, ln, false, true); !ok || err != nil {
		return true, err
	}
	r.inSpec = false
	r.dist = wrkDistRecorded
	if bytes.Contains(s, []byte("HdrHistogram")) {
		r.wrk2 = true
	}
	if bytes.Contains(s, []byte("Uncorrected")) {
		r.dist, r.sawUncorrected = wrkDistUncorrected, true
	}
	return true, nil
}

// onPctRow handles a line of kind wrkKindPctRow; false when the line, on a
// closer look, is no part of a run.
func (st *state) onPctRow(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	if !st.active || r.phase != wrkPhaseDist || r.dist == wrkDistNone || r.inSpec {
		return false, nil
	}
	p := f[0]
	q, ok := core.ParseDec(p[:len(p)-1], -2)
	if !ok || q > 1 {
		return false, nil
	}
	ms, k := core.TimeMs(f[1])
	switch k {
	case core.ValBad:
		return true, nil
	case core.ValOK:
		if r.dist == wrkDistRecorded && core.Finite(ms) {
			r.addPct(&r.summary, core.PctRow{Q: q, Ms: ms})
		}
	case core.ValNoUnit:
		r.pctNoUnit = true
	}
	r.lastLine = ln
	return true, nil
}

// onSpecHeader handles a line of kind wrkKindSpecHeader; false when the line, on a
// closer look, is no part of a run.
func (st *state) onSpecHeader(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	if st.active && r.phase == wrkPhaseDist {
		r.inSpec, r.wrk2, r.lastLine = true, true, ln
		return true, nil
	}
	return false, nil
}

// onSpecCols handles a line of kind wrkKindSpecCols; false when the line, on a
// closer look, is no part of a run.
func (st *state) onSpecCols(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	if st.active && r.phase == wrkPhaseDist {
		return true, nil
	}
	return false, nil
}

// onSpecRow handles a line of kind wrkKindSpecRow; false when the line, on a
// closer look, is no part of a run.
func (st *state) onSpecRow(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	if !st.active || r.phase != wrkPhaseDist || !r.inSpec {
		return false, nil
	}
	ms, ok1 := core.ParseDec(f[0], 0)
	q, ok2 := core.ParseDec(f[1], 0)
	n, ok3 := core.ParseUint(f[2])
	if !ok1 || !ok2 || !ok3 || q > 1 || !core.Finite(ms) {
		return false, nil
	}
	if string(f[3]) != "inf" {
		if _, ok := core.ParseDec(f[3], 0); !ok {
			return false, nil
		}
	}
	if r.dist == wrkDistRecorded {
		r.addPct(&r.spec, core.PctRow{Q: q, Ms: ms, Count: n, HasCount: true})
	}
	r.lastLine = ln
	return true, nil
}

// onHdrStats handles a line of kind wrkKindHdrStats; false when the line, on a
// closer look, is no part of a run.
func (st *state) onHdrStats(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	if !st.active || r.phase != wrkPhaseDist {
		return false, nil
	}
	r.inSpec, r.lastLine = false, ln
	if r.dist != wrkDistRecorded {
		return true, nil
	}
	for i := 1; i+1 < len(f); i++ {
		if string(f[i]) != "=" {
			continue
		}
		v, ok := core.ParseDec(core.TrimPunct(f[i+1]), 0)
		if !ok {
			continue
		}
		switch string(f[i-1]) {
		case "#[Mean":
			r.hdr[0], r.hasHdr[0] = v, true
		case "StdDeviation":
			r.hdr[1], r.hasHdr[1] = v, true
		case "#[Max":
			r.hdr[2], r.hasHdr[2] = v, true
		}
	}
	return true, nil
}

// onRule handles a line of kind wrkKindRule; false when the line, on a
// closer look, is no part of a run.
func (st *state) onRule(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	if st.active && r.phase == wrkPhaseDist {
		r.inSpec, r.lastLine = false, ln
	}
	return true, nil
}

// onRequests handles a line of kind wrkKindRequests; false when the line, on a
// closer look, is no part of a run.
func (st *state) onRequests(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	n, d, by, ok := parseRequests(f)
	if !ok {
		return false, nil
	}
	if ok, err := st.enter(wrkPhaseRequests, ln, true, false); !ok || err != nil {
		return true, err
	}
	r.requests, r.duration, r.bytesIn = n, d, by
	return true, nil
}

// onSocket handles a line of kind wrkKindSocket; false when the line, on a
// closer look, is no part of a run.
func (st *state) onSocket(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	var v [4]int64
	ok := true
	for i := 2; i+1 < len(f); i += 2 {
		n, good := core.ParseUint(core.TrimPunct(f[i+1]))
		if !good {
			ok = false
			break
		}
		switch string(f[i]) {
		case "connect":
			v[0] = n
		case "read":
			v[1] = n
		case "write":
			v[2] = n
		case "timeout":
			v[3] = n
		default:
			ok = false
		}
	}
	if !ok {
		return false, nil
	}
	if ok, err := st.enter(wrkPhaseSocket, ln, false, false); ok && err == nil {
		r.sock, r.sockErr = true, v
	}
	return true, nil
}

// onNon2xx handles a line of kind wrkKindNon2xx; false when the line, on a
// closer look, is no part of a run.
func (st *state) onNon2xx(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	n, ok := core.ParseUint(f[len(f)-1])
	if !ok {
		return false, nil
	}
	if ok, err := st.enter(wrkPhaseNon2xx, ln, false, false); ok && err == nil {
		r.non2xx, r.hasNon2xx = n, true
	}
	return true, nil
}

// onRPS handles a line of kind wrkKindRPS; false when the line, on a
// closer look, is no part of a run.
func (st *state) onRPS(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	v, k := core.Metric(f[1])
	if k == core.ValBad || k == core.ValNoUnit {
		return false, nil
	}
	if ok, err := st.enter(wrkPhaseRPS, ln, false, false); ok && err == nil {
		r.rps, r.hasRPS, r.rpsNaN = v, true, k == core.ValNaN
	}
	return true, nil
}

// onTransfer handles a line of kind wrkKindTransfer; false when the line, on a
// closer look, is no part of a run.
func (st *state) onTransfer(s []byte, f [][]byte, ln int) (bool, error) {
	r := &st.run
	v, ok := core.BinaryBytes(f[1])
	nan := core.IsNaN(f[1])
	if !ok && !nan {
		return false, nil
	}
	if ok, err := st.enter(wrkPhaseTransfer, ln, false, false); !ok || err != nil {
		return true, err
	}
	r.tbps, r.hasTBPS = v, ok && core.Finite(v)
	return true, st.close()
}

// continueCommand joins s to a pending command that ends with a backslash
// or lacks its URL, reporting whether s was consumed.
func (st *state) continueCommand(s []byte) bool {
	c := st.pending
	cont := strings.HasSuffix(c.raw, "\\")
	if len(s) > 0 && !cont {
		var buf [2][]byte
		first := core.Fields(s, buf[:0])[0]
		cont = s[0] == '-' || bytes.Contains(first, []byte("://"))
	}
	if cont && len(s) > 0 {
		joined := strings.TrimSpace(strings.TrimSuffix(c.raw, "\\")) + " " + string(s)
		if nc, ok := parseWrkCommand(joined, c.line); ok {
			st.pending = nc
			return true
		}
	}
	c.more = false
	if c.url == "" && !c.placeholder {
		st.pending = nil
	}
	return false
}

// start closes the current run and begins a new one at line ln, taking the
// pending command.
func (st *state) start(ln int) error {
	if err := st.close(); err != nil {
		return err
	}
	st.run = run{summary: st.run.summary[:0], spec: st.run.spec[:0]}
	st.active = true
	st.run.startLine, st.run.firstLine = ln, ln
	if c := st.pending; c != nil && (c.url != "" || c.placeholder) {
		st.run.cmd = c
		st.run.startLine = c.line
	}
	st.pending = nil
	return nil
}

// enter moves the current run to phase ph for a line at ln. A line of a
// phase the run is already past starts a new run when starter is set and is
// ignored otherwise; repeatable phases (calibration, distributions) may
// repeat. It reports whether the line was taken.
func (st *state) enter(ph int8, ln int, starter, repeatable bool) (bool, error) {
	r := &st.run
	if st.active && (ph > r.phase || repeatable && ph == r.phase) {
		if ph > wrkPhaseRequests && r.phase < wrkPhaseRequests {
			return false, nil // summary lines need the "requests in" line first
		}
		r.phase, r.lastLine = ph, ln
		return true, nil
	}
	if !starter {
		return false, nil
	}
	if err := st.start(ln); err != nil {
		return false, err
	}
	st.run.phase, st.run.lastLine = ph, ln
	return true, nil
}

// addPct appends a distribution point, up to maxPercentiles per run.
func (r *run) addPct(dst *[]core.PctRow, p core.PctRow) {
	if len(r.summary)+len(r.spec) >= core.MaxPercentiles {
		r.pctDropped = true
		return
	}
	*dst = append(*dst, p)
}

// close ends the current run: emits it when complete (its "requests in"
// line seen), fails when it was cut off after its threads line or later,
// and drops it when it held only a Running line (autocannon prints one too).
func (st *state) close() error {
	if !st.active {
		return nil
	}
	st.active = false
	r := &st.run
	switch {
	case r.phase >= wrkPhaseRequests:
		return st.emitRun()
	case r.phase >= wrkPhaseThreads:
		return &core.SyntaxError{File: st.opts.Source, Line: r.lastLine,
			Msg: fmt.Sprintf("wrk output cut off after this line: the run starting at line %d has no \"N requests in ...\" line", r.startLine)}
	}
	return nil
}

// wrkImplausibleS is the measured duration beyond which a wrk duration is taken
// as the overflow garbage of old versions (e.g. "307445734491.24m").
const wrkImplausibleS = 1e7

// backing holds the values of a run's nullable fields, one slot per
// field (a value set again, such as a second "50%" row, overwrites its
// slot): one allocation per run instead of one per field.
type backing struct {
	planned, targetRPS, timeout, tbps float64
	lat, thr                          [3]float64 // mean, stdev, max
	min, p50, p90, p99, p999          float64
	bytesIn, non2xx                   int64
	sock                              [4]int64
	threads, conns                    int32
	cmd, script                       string
	corrected                         bool
}

// set stores v in slot and returns the slot.
func set[T any](slot *T, v T) *T { *slot = v; return slot }

// emitRun converts the current run and passes it to emit.
func (st *state) emitRun() error {
	r := &st.run
	bk := new(backing)
	var out results.RunWithPercentiles
	notes := st.notes[:0]
	cmd := r.cmd

	out.Tool, out.LoadModel = "wrk", results.LoadClosed
	if r.wrk2 || cmd != nil && cmd.wrk2 {
		out.Tool, out.LoadModel = "wrk2", results.LoadOpen
		out.LatencyCorrected = set(&bk.corrected, true)
	}
	out.SourceLine = int32(min(r.startLine, math.MaxInt32))
	if r.hasTarget {
		out.Target = r.target
	} else if cmd != nil {
		out.Target = cmd.url
	}

	notes = st.emitSizes(&out, bk, notes)
	notes = st.emitErrors(&out, bk, notes)
	notes = st.emitThroughput(&out, bk, notes)
	notes = st.emitLatency(&out, bk, notes)
	notes = st.emitPercentiles(&out, bk, notes)
	if len(notes) > 0 {
		out.Notes = new(string)
		*out.Notes = strings.Join(notes, "; ")
	}
	st.notes = notes[:0]

	return st.emit(out)
}

// emitSizes sets the run's requests, durations, threads, connections, the command's settings and the bytes read from what the lines gave, and returns notes with its
// remarks added.
func (st *state) emitSizes(out *results.RunWithPercentiles, bk *backing, notes []string) []string {
	r := &st.run
	cmd := r.cmd
	// Sizes and durations.
	out.Requests = r.requests
	out.DurationS = r.duration
	if !core.Finite(r.duration) || r.duration > wrkImplausibleS {
		out.DurationS = 0
		repl := "0"
		switch {
		case r.hasPlanned:
			out.DurationS, repl = r.planned, "the planned duration"
		case cmd != nil && cmd.hasDur:
			out.DurationS, repl = cmd.duration, "the planned duration"
		}
		notes = append(notes, fmt.Sprintf("measured duration %.4gs is implausible (overflow in old wrk versions); duration_s set to %s", r.duration, repl))
	}
	if r.hasPlanned {
		out.PlannedDurationS = set(&bk.planned, r.planned)
	} else if cmd != nil && cmd.hasDur {
		out.PlannedDurationS = set(&bk.planned, cmd.duration)
	}
	switch {
	case r.hasThreads:
		out.Threads, out.Connections = set(&bk.threads, int32(r.threads)), set(&bk.conns, int32(r.conns))
	case cmd != nil:
		if cmd.hasThreads {
			out.Threads = set(&bk.threads, int32(cmd.threads))
		}
		if cmd.hasConns {
			out.Connections = set(&bk.conns, int32(cmd.connections))
		}
	}
	if r.threadsBad {
		notes = append(notes, "threads or connections out of range: left empty")
	}
	if cmd != nil {
		if cmd.hasRate {
			out.TargetRPS = set(&bk.targetRPS, cmd.rate)
		}
		if cmd.hasTime {
			out.TimeoutS = set(&bk.timeout, cmd.timeout)
		}
		if cmd.hasScript {
			out.Script = set(&bk.script, cmd.script)
		}
		out.Command = set(&bk.cmd, cmd.raw)
	}
	if n, ok := core.ToInt64(r.bytesIn); ok {
		out.BytesIn = set(&bk.bytesIn, n)
	} else {
		notes = append(notes, "bytes read out of range: left empty")
	}
	return notes
}

// emitErrors sets the run's error counts from what the lines gave, and returns notes with its
// remarks added.
func (st *state) emitErrors(out *results.RunWithPercentiles, bk *backing, notes []string) []string {
	r := &st.run
	// Errors. wrk prints the socket-error and non-2xx lines only when a
	// count is non-zero, so their absence means zero once the tail of the
	// summary (Requests/sec or Transfer/sec, printed after them) is there.
	tail := r.hasRPS || r.hasTBPS
	if r.sock || tail {
		names := [...]**int64{&out.ConnectErrors, &out.ReadErrors, &out.WriteErrors, &out.Timeouts}
		for i, p := range names {
			*p = set(&bk.sock[i], r.sockErr[i])
			out.Errors = core.AddSat(out.Errors, r.sockErr[i])
		}
	}
	if r.hasNon2xx || tail {
		out.Non2xx = set(&bk.non2xx, r.non2xx)
		out.Errors = core.AddSat(out.Errors, r.non2xx)
	}
	if !tail {
		notes = append(notes, "output ends after the \"requests in\" line: error counts not known")
	}
	return notes
}

// emitThroughput sets the run's rps and transfer rate from what the lines gave, and returns notes with its
// remarks added.
func (st *state) emitThroughput(out *results.RunWithPercentiles, bk *backing, notes []string) []string {
	r := &st.run
	// Throughput.
	switch {
	case r.hasRPS && !r.rpsNaN && core.Finite(r.rps):
		out.RPS = r.rps
	case out.DurationS > 0:
		out.RPS = float64(r.requests) / out.DurationS
		if r.hasRPS {
			notes = append(notes, "Requests/sec printed as nan: rps computed from requests and duration")
		} else {
			notes = append(notes, "no Requests/sec line: rps computed from requests and duration")
		}
	case r.hasRPS:
		notes = append(notes, "Requests/sec printed as nan: rps left 0")
	default:
		notes = append(notes, "no Requests/sec line: rps left 0")
	}
	if r.hasTBPS {
		out.TransferBPS = set(&bk.tbps, r.tbps)
	}
	return notes
}

// emitLatency sets the run's latency statistics and thread Req/Sec from what the lines gave, and returns notes with its
// remarks added.
func (st *state) emitLatency(out *results.RunWithPercentiles, bk *backing, notes []string) []string {
	r := &st.run
	// Latency statistics (ms) and thread Req/Sec.
	if r.hasLat {
		dst := [3]**float64{&out.LatMeanMs, &out.LatStdevMs, &out.LatMaxMs}
		for i, p := range dst {
			if r.latK[i] == core.ValOK && core.Finite(r.lat[i]) {
				*p = set(&bk.lat[i], r.lat[i])
			}
		}
		if r.latK[0] == core.ValNoUnit || r.latK[1] == core.ValNoUnit || r.latK[2] == core.ValNoUnit {
			notes = append(notes, "latency printed without units (very old wrk): latency statistics left empty")
		}
	}
	if out.Tool == "wrk2" {
		// HdrHistogram's own figures: the same values with more digits.
		dst := [3]**float64{&out.LatMeanMs, &out.LatStdevMs, &out.LatMaxMs}
		for i, p := range dst {
			if r.hasHdr[i] && core.Finite(r.hdr[i]) {
				*p = set(&bk.lat[i], r.hdr[i])
			}
		}
	}
	if r.hasRq {
		dst := [3]**float64{&out.ThreadRPSMean, &out.ThreadRPSStdev, &out.ThreadRPSMax}
		for i, p := range dst {
			if r.rqK[i] == core.ValOK && core.Finite(r.rq[i]) {
				*p = set(&bk.thr[i], r.rq[i])
			}
		}
	}
	return notes
}

// emitPercentiles sets the run's percentiles from what the lines gave, and returns notes with its
// remarks added.
func (st *state) emitPercentiles(out *results.RunWithPercentiles, bk *backing, notes []string) []string {
	r := &st.run
	// Percentiles: the spectrum rows, plus summary rows at quantiles the
	// spectrum lacks, in quantile order.
	out.Percentiles = mergePct(r.summary, r.spec)
	for _, p := range out.Percentiles {
		switch p.Quantile {
		case 0:
			if len(r.spec) > 0 {
				out.LatMinMs = set(&bk.min, p.LatencyMs)
			}
		case 0.5:
			out.LatP50Ms = set(&bk.p50, p.LatencyMs)
		case 0.9:
			out.LatP90Ms = set(&bk.p90, p.LatencyMs)
		case 0.99:
			out.LatP99Ms = set(&bk.p99, p.LatencyMs)
		case 0.999:
			out.LatP999Ms = set(&bk.p999, p.LatencyMs)
		}
	}
	if r.pctNoUnit {
		notes = append(notes, "latency distribution printed without units: those rows left out")
	}
	if r.pctDropped {
		notes = append(notes, "latency distribution truncated to "+strconv.Itoa(core.MaxPercentiles)+" points")
	}
	if r.sawUncorrected {
		notes = append(notes, "uncorrected latency distribution also printed (-U); percentiles are the corrected (recorded) ones")
	}
	return notes
}

// mergePct merges the summary rows and the spectrum rows (both in quantile
// order) into percentiles; at equal quantiles the spectrum row wins.
func mergePct(summary, spec []core.PctRow) []results.Percentile {
	if len(summary)+len(spec) == 0 {
		return []results.Percentile{}
	}
	out := make([]results.Percentile, 0, len(summary)+len(spec))
	var counts []int64
	if len(spec) > 0 {
		counts = make([]int64, len(spec))
	}
	i, j := 0, 0
	for i < len(summary) || j < len(spec) {
		if j < len(spec) && (i >= len(summary) || spec[j].Q <= summary[i].Q) {
			if i < len(summary) && spec[j].Q == summary[i].Q {
				i++
			}
			p := results.Percentile{Quantile: spec[j].Q, LatencyMs: spec[j].Ms}
			if spec[j].HasCount {
				counts[j] = spec[j].Count
				p.TotalCount = &counts[j]
			}
			out = append(out, p)
			j++
			continue
		}
		out = append(out, results.Percentile{Quantile: summary[i].Q, LatencyMs: summary[i].Ms})
		i++
	}
	return out
}
