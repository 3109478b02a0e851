package autocannon

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

// The autocannon parsers read the output of autocannon
// (github.com/mcollina/autocannon): "autocannon" its text result, wherever
// it sits in a file, tables read by their column names; "autocannon-json"
// `autocannon -j`. The layout and how the figures are derived:
// docs/FORMATS.md, section ingest/autocannon/autocannon.go.
type Parser struct{}

// Name returns "autocannon".
func (Parser) Name() string { return "autocannon" }

// table is the kind of table a row belongs to.
type table uint8

const (
	autocannonTableNone table = iota
	autocannonTableStats
	autocannonTableCodes
	autocannonTablePercentiles
)

// run accumulates one run.
type run struct {
	core.FirstBad
	startLine, lastLine int
	cmd                 string
	target              string
	plannedS            float64
	amount              int64
	conns, pipelining   int64
	workers             int64
	table               table
	cols                []string // column names of the current stats table
	lat                 map[string]float64
	latStats            bool
	latRow              bool // a Latency row was seen, well-formed or not
	rps, rpsStats       map[string]float64
	bytesSec            map[string]float64
	pcts                []results.Percentile
	codes               map[int64]int64
	ok2xx, non2xx       int64
	hasResponses        bool
	sent                int64
	sentRounded         bool
	durS                float64
	bytesRead           float64
	hasEnd              bool
	errs, timeouts      int64
}

// state is the text parser's state over one input.
type state struct {
	core.RunState
	run     run
	pending *run // command and "Running" lines before the tables
	f       [16][]byte
}

// Detect reports whether head holds an autocannon result: a Latency row
// of its stats table and the "requests in" line.
func (Parser) Detect(head []byte) bool {
	st := &state{RunState: core.RunState{Detect: true}}
	core.ScanHead(head, st.line, func() bool { return st.Found })
	return st.Found
}

// Parse streams the autocannon runs of r to sink in input order.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &state{RunState: core.RunState{Opts: opts, Sink: sink, Lab: core.Labeler{Labels: opts.Labels}}}
	return core.ParseLines(ctx, r, opts, "autocannon", st.line, st.close, func() int { return st.Index })
}

// isAutocannonExe reports whether tok names the autocannon program.
func isAutocannonExe(tok []byte) bool {
	return core.ExeNamed(tok, "autocannon", "autocannon.cmd", "autocannon.js")
}

// splitCells splits a table row into its cells; ok is false for a
// line that is no row ("│ a │ b │" or "| a | b |").
func splitCells(s []byte) ([]string, bool) {
	sep := []byte("│")
	if !bytes.HasPrefix(s, sep) {
		sep = []byte("|")
		if !bytes.HasPrefix(s, sep) {
			return nil, false
		}
	}
	parts := bytes.Split(s, sep)
	if len(parts) < 3 || len(bytes.TrimSpace(parts[len(parts)-1])) != 0 {
		return nil, false
	}
	cells := make([]string, 0, len(parts)-2)
	for _, p := range parts[1 : len(parts)-1] {
		cells = append(cells, string(core.TrimRight(core.TrimLeft(p))))
	}
	return cells, true
}

// border reports whether s is a border line of a table.
func border(s []byte) bool {
	return bytes.HasPrefix(s, []byte("┌")) || bytes.HasPrefix(s, []byte("├")) || bytes.HasPrefix(s, []byte("└")) ||
		len(s) > 2 && (s[0] == '+' || s[0] == '-') && bytes.Trim(s, "+-=") == nil
}

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if len(s) == 0 || border(s) {
		return nil
	}
	if cells, ok := splitCells(s); ok {
		return st.row(cells, ln)
	}
	r := &st.run
	f := core.Fields(s, st.f[:0])
	if st.Active && r.hasEnd {
		if done, err := st.errorsLine(f, ln); done || err != nil {
			return err
		}
	}
	if len(f) >= 5 && string(f[0]) == "Running" && string(f[len(f)-2]) == "@" && string(f[len(f)-3]) == "test" {
		return st.startRun(f, ln)
	}
	if st.Active {
		st.resultLine(f, ln)
		return nil
	}
	if len(f) >= 2 && (string(f[1]) == "connections" || string(f[1]) == "workers") && st.pending != nil {
		st.loadLine(f)
		return nil
	}
	return st.command(s, ln)
}

// resultLine reads the lines after a run's tables: its responses and its
// "requests in" line.
func (st *state) resultLine(f [][]byte, ln int) {
	switch {
	case len(f) == 7 && string(f[1]) == "2xx" && string(f[2]) == "responses," && string(f[4]) == "non":
		st.run.responsesLine(f, ln)
	case len(f) >= 6 && string(f[1]) == "requests" && string(f[2]) == "in":
		// 251k requests in 10.05s, 27.9 MB read
		st.end(f, ln)
	}
}

// responsesLine reads "2000 2xx responses, 0 non 2xx responses".
func (r *run) responsesLine(f [][]byte, ln int) {
	a, ok1 := core.ParseUint(f[0])
	n, ok2 := core.ParseUint(f[3])
	if !ok1 || !ok2 {
		r.Malformed(ln, "responses line")
		return
	}
	r.ok2xx, r.non2xx, r.hasResponses = a, n, true
	r.lastLine = ln
}

// command reads an autocannon command line, announcing the next run.
func (st *state) command(s []byte, ln int) error {
	i := core.FindCommand(s, isAutocannonExe)
	if i < 0 {
		return nil
	}
	if err := st.close(); err != nil {
		return err
	}
	st.pending = &run{startLine: ln, cmd: string(core.TrimRight(s[i:]))}
	return nil
}

// errorsLine reads "N errors (M timeouts)", the line after a run's end,
// and closes the run; done false (and the run closed) when the line is
// another.
func (st *state) errorsLine(f [][]byte, ln int) (done bool, err error) {
	r := &st.run
	if len(f) >= 2 && string(f[1]) == "errors" {
		if n, ok := core.ParseUint(f[0]); ok {
			r.errs = n
			if len(f) == 4 && string(f[3]) == "timeouts)" {
				if m, ok := core.ParseUint(bytes.TrimPrefix(f[2], []byte("("))); ok {
					r.timeouts = m
				}
			}
			r.lastLine = ln
			return true, st.close()
		}
	}
	return false, st.close()
}

// startRun reads "Running 10s test @ URL" or "Running 3000 requests test @
// URL", the line before a run's tables.
func (st *state) startRun(f [][]byte, ln int) error {
	// Running 10s test @ URL; Running 3000 requests test @ URL
	if err := st.close(); err != nil {
		return err
	}
	p := st.pendingRun(ln)
	p.target = string(f[len(f)-1])
	if len(f) == 5 {
		if d, ok := core.DurationS(f[1], 0); ok {
			p.plannedS = d
		}
	} else if len(f) == 6 && string(f[2]) == "requests" {
		if n, ok := core.ParseUint(f[1]); ok {
			p.amount = n
		}
	}
	return nil
}

// loadLine reads the connections (and pipelining) or workers line of the
// run about to start.
func (st *state) loadLine(f [][]byte) {
	n, ok := core.ParseUint(f[0])
	if !ok {
		return
	}
	if string(f[1]) == "workers" {
		st.pending.workers = n
		return
	}
	st.pending.conns = n
	if len(f) == 6 && string(f[2]) == "with" && string(f[4]) == "pipelining" {
		if p, ok := core.ParseUint(f[3]); ok {
			st.pending.pipelining = p
		}
	}
}

// pendingRun returns the run being announced, starting one at line ln.
func (st *state) pendingRun(ln int) *run {
	if st.pending == nil || st.pending.target != "" {
		st.pending = &run{startLine: ln}
	}
	return st.pending
}

// end reads the "requests in" line.
func (st *state) end(f [][]byte, ln int) {
	r := &st.run
	r.lastLine = ln
	num, suffix := core.SplitNum(f[0])
	n, ok := core.ParseDec(num, 0)
	switch string(suffix) {
	case "":
	case "k":
		n *= 1e3
		r.sentRounded = true
	case "M":
		n *= 1e6
		r.sentRounded = true
	default:
		ok = false
	}
	d, ok2 := core.DurationS(core.TrimPunct(f[3]), 0)
	var bytesRead float64
	ok3 := len(f) == 7 && string(f[6]) == "read"
	if ok3 {
		bytesRead, ok3 = core.DecimalBytes.Parse(f[4], f[5])
	}
	if !ok || !ok2 || !ok3 {
		r.Malformed(ln, "requests line")
	}
	r.sent, _ = core.ToInt64(n)
	r.durS, r.bytesRead, r.hasEnd = d, bytesRead, true
	if st.Detect && r.latRow {
		st.Found = true
	}
}

// row handles a table row.
func (st *state) row(cells []string, ln int) error {
	r := &st.run
	switch cells[0] {
	case "Stat":
		if len(cells) < 2 {
			return nil
		}
		if !st.Active || r.hasEnd || r.latStats && cells[1] == "2.5%" {
			if err := st.close(); err != nil {
				return err
			}
			st.begin(ln)
			r = &st.run
		}
		r.table, r.cols = autocannonTableStats, append(r.cols[:0], cells[1:]...)
	case "Code":
		if st.Active && len(cells) == 2 {
			r.table = autocannonTableCodes
		}
	case "Percentile":
		if st.Active && len(cells) == 2 {
			r.table = autocannonTablePercentiles
		}
	default:
		if !st.Active {
			return nil
		}
		r.lastLine = ln
		switch r.table {
		case autocannonTableStats:
			st.statsRow(cells, ln)
		case autocannonTableCodes:
			r.codesRow(cells, ln)
		case autocannonTablePercentiles:
			r.percentileRow(cells, ln)
		}
	}
	return nil
}

// codesRow reads a row of the status codes table (-j's --renderStatusCodes).
func (r *run) codesRow(cells []string, ln int) {
	if len(cells) != 2 {
		r.Malformed(ln, "status code row")
		return
	}
	code, ok1 := core.ParseUint([]byte(cells[0]))
	n, ok2 := core.ParseUint([]byte(strings.ReplaceAll(cells[1], ",", "")))
	if !ok1 || !ok2 {
		r.Malformed(ln, "status code row")
		return
	}
	if r.codes == nil {
		r.codes = map[int64]int64{}
	}
	r.codes[code] = core.AddSat(r.codes[code], n)
}

// percentileRow reads a row of the latency distribution table (-l).
func (r *run) percentileRow(cells []string, ln int) {
	q, ok1 := core.ParseDec([]byte(cells[0]), -2)
	v, ok2 := core.ParseDec([]byte(cells[len(cells)-1]), 0)
	if len(cells) != 2 || !ok1 || !ok2 || q > 1 {
		r.Malformed(ln, "latency percentile row")
		return
	}
	if len(r.pcts) < core.MaxPercentiles {
		r.pcts = append(r.pcts, results.Percentile{Quantile: q, LatencyMs: v})
	}
}

// begin starts a run at its first table.
func (st *state) begin(ln int) {
	st.run = run{startLine: ln, lastLine: ln}
	if p := st.pending; p != nil {
		st.run.startLine, st.run.cmd, st.run.target = p.startLine, p.cmd, p.target
		st.run.plannedS, st.run.amount, st.run.conns, st.run.pipelining, st.run.workers = p.plannedS, p.amount, p.conns, p.pipelining, p.workers
	}
	st.Active, st.pending = true, nil
}

// statsRow reads a Latency, Req/Sec or Bytes/Sec row.
func (st *state) statsRow(cells []string, ln int) {
	r := &st.run
	if len(cells) != len(r.cols)+1 {
		r.Malformed(ln, "table row of "+strconv.Itoa(len(cells))+" cells under "+strconv.Itoa(len(r.cols)+1)+" columns")
		return
	}
	vals := map[string]float64{}
	name := cells[0]
	if name == "Latency" || name == "Latency (ms)" {
		r.latRow = true
	}
	for i, c := range cells[1:] {
		var v float64
		var ok bool
		switch name {
		case "Latency", "Latency (ms)":
			c = strings.TrimSuffix(c, " ms")
			v, ok = core.ParseDec([]byte(strings.ReplaceAll(c, ",", "")), 0)
		case "Req/Sec":
			v, ok = core.ParseDec([]byte(strings.ReplaceAll(c, ",", "")), 0)
		case "Bytes/Sec":
			num, unit, _ := strings.Cut(c, " ")
			v, ok = core.DecimalBytes.Parse([]byte(strings.ReplaceAll(num, ",", "")), []byte(unit))
		default:
			return // another tool's table
		}
		if !ok {
			r.Malformed(ln, fmt.Sprintf("%s cell %q", name, c))
			return
		}
		vals[r.cols[i]] = v
	}
	switch name {
	case "Latency", "Latency (ms)":
		r.lat, r.latStats = vals, true
	case "Req/Sec":
		r.rps = vals
	case "Bytes/Sec":
		r.bytesSec = vals
	}
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
		return st.Malformed("autocannon", r.BadLine, r.Bad)
	}
	if !r.latStats || r.rps == nil || !r.hasEnd {
		return &core.SyntaxError{File: st.Opts.Source, Line: r.lastLine,
			Msg: "autocannon result without its Latency or Req/Sec row or its \"requests in\" line (cut paste?)"}
	}
	out := st.build()
	return st.Emit(out)
}

// build makes the run of a complete result.
func (st *state) build() results.RunWithPercentiles {
	r := &st.run
	out := results.RunWithPercentiles{Run: results.Run{
		Tool: "autocannon", LoadModel: results.LoadClosed, Target: r.target, DurationS: r.durS,
		SourceLine: int32(min(r.startLine, math.MaxInt32)),
	}, Percentiles: []results.Percentile{}}
	notes := r.setup(&out)
	notes = append(notes, r.counts(&out)...)
	answered := r.ok2xx+r.non2xx > 0
	if !r.hasResponses {
		// All timed out: autocannon prints zeros for the latency.
		answered = r.errs == 0 || r.lat["Max"] > 0
	}
	if answered {
		r.latency(&out)
	}
	if r.rps != nil {
		notes = append(notes, fmt.Sprintf("Req/Sec sampled once per second: stdev %g", r.rps["Stdev"]))
	}
	out.Notes = results.Ptr(strings.Join(notes, "; "))
	return out
}

// setup sets the command, planned duration and connections; pipelining,
// workers and a planned amount are noted.
func (r *run) setup(out *results.RunWithPercentiles) (notes []string) {
	if r.cmd != "" {
		out.Command = results.Ptr(r.cmd)
	}
	if r.plannedS > 0 {
		out.PlannedDurationS = results.Ptr(r.plannedS)
	}
	if r.conns > 0 {
		out.Connections = results.Ptr(int32(min(r.conns, math.MaxInt32)))
	}
	if r.pipelining > 1 {
		notes = append(notes, fmt.Sprintf("%d requests pipelined per connection", r.pipelining))
	}
	if r.workers > 0 {
		notes = append(notes, fmt.Sprintf("%d workers", r.workers))
	}
	if r.amount > 0 {
		notes = append(notes, fmt.Sprintf("%d requests planned (-a)", r.amount))
	}
	return notes
}

// counts sets the requests (the responses, from the codes table when
// there was no responses line, and the errors; else the sent count), the
// errors, timeouts, bytes and rates.
func (r *run) counts(out *results.RunWithPercentiles) (notes []string) {
	if r.codes != nil && !r.hasResponses {
		for code, n := range r.codes {
			if code >= 200 && code < 300 {
				r.ok2xx = core.AddSat(r.ok2xx, n)
			} else {
				r.non2xx = core.AddSat(r.non2xx, n)
			}
		}
		r.hasResponses = true
	}
	if r.hasResponses {
		out.Requests = core.AddSat(core.AddSat(r.ok2xx, r.non2xx), r.errs)
	} else {
		out.Requests = r.sent
		if r.sentRounded {
			notes = append(notes, fmt.Sprintf("requests: the sent count as printed, rounded by autocannon (%d)", r.sent))
		}
	}
	// autocannon prints the non-2xx line whenever some responses were
	// not 2xx: without it they were all 2xx.
	out.Non2xx = results.Ptr(r.non2xx)
	out.Errors = core.AddSat(r.non2xx, r.errs)
	out.Timeouts = results.Ptr(r.timeouts)
	b, _ := core.ToInt64(r.bytesRead)
	out.BytesIn = results.Ptr(b)
	out.RPS = r.rps["Avg"]
	if v, ok := r.bytesSec["Avg"]; ok {
		out.TransferBPS = results.Ptr(v)
	}
	return notes
}

// latency sets the latency statistics and percentiles: the table's
// columns, and the whole distribution of -l where printed.
func (r *run) latency(out *results.RunWithPercentiles) {
	for _, c := range []struct {
		col string
		dst **float64
	}{{"Avg", &out.LatMeanMs}, {"Stdev", &out.LatStdevMs}, {"Max", &out.LatMaxMs}, {"Min", &out.LatMinMs}} {
		if v, ok := r.lat[c.col]; ok {
			*c.dst = results.Ptr(v)
		}
	}
	pts := map[float64]float64{}
	for col, v := range r.lat {
		if strings.HasSuffix(col, "%") {
			if q, ok := core.ParseDec([]byte(strings.TrimSuffix(col, "%")), -2); ok && q <= 1 {
				pts[q] = v
			}
		}
	}
	for _, p := range r.pcts {
		pts[p.Quantile] = p.LatencyMs
	}
	var pcts []results.Percentile
	for q, v := range pts {
		pcts = append(pcts, results.Percentile{Quantile: q, LatencyMs: v})
	}
	core.SortPercentiles(pcts)
	core.AddPercentiles(out, pcts)
}
