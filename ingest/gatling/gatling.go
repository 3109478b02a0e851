package gatling

import (
	"bytes"
	"context"
	"io"
	"math"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// Parser ("gatling") reads the "Global Information" block Gatling prints on the
// console (and in its logs) at the end of a run (layout: docs/FORMATS.md).
//
// The first column (all requests) is the run: requests, errors (KO),
// latencies in ms, percentiles (50/75/95/99th, or older "95th
// percentile" wording), rps. The block shows no duration: it is the last
// "Ns elapsed" of the periodic console reports before it, else requests /
// mean requests/sec, as the notes say.
type Parser struct{}

// Name returns "gatling".
func (Parser) Name() string { return "gatling" }

// run accumulates one Global Information block.
type run struct {
	startLine, lastLine int
	count, ko           int64
	hasCount            bool
	min, max, mean, std *float64
	rps                 float64
	hasRPS              bool
	pcts                []results.Percentile
	elapsedS            float64
	bad                 string
	badLine             int
}

// state is the console parser's state over one input.
type state struct {
	core.RunState
	run      run
	elapsedS float64 // last "Ns elapsed" seen
}

// Detect reports whether head holds a Global Information block with its
// request count.
func (Parser) Detect(head []byte) bool {
	st := &state{RunState: core.RunState{Detect: true}}
	core.ScanHead(head, st.line, func() bool { return st.Found })
	return st.Found
}

// Parse streams the runs of r to sink in input order.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &state{RunState: core.RunState{Opts: opts, Sink: sink, Lab: core.Labeler{Labels: opts.Labels}}}
	return core.ParseLines(ctx, r, opts, "gatling", st.line, st.close, func() int { return st.Index })
}

// value parses a statistic line's "name total (OK=x KO=y)": the
// total, and the KO value (-1 for "-").
func value(s []byte) (total float64, ko float64, ok bool) {
	i := bytes.IndexByte(s, '(')
	if i < 0 {
		return 0, 0, false
	}
	var buf [16][]byte
	f := core.Fields(s[:i], buf[:0])
	if len(f) < 2 {
		return 0, 0, false
	}
	total, ok = core.ParseDec(f[len(f)-1], 0)
	if !ok {
		return 0, 0, false
	}
	ko = -1
	if j := bytes.Index(s[i:], []byte("KO=")); j >= 0 {
		v := bytes.TrimRight(core.TrimLeft(s[i+j+3:]), " )")
		if x, ok := core.ParseDec(v, 0); ok {
			ko = x
		}
	}
	return total, ko, true
}

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if len(s) == 0 {
		return nil
	}
	if bytes.HasPrefix(s, []byte("---- ")) {
		return st.heading(string(bytes.TrimSpace(bytes.Trim(s, "-"))), ln)
	}
	if bytes.HasSuffix(s, []byte(" elapsed")) {
		// 2024-01-15 10:00:05                                          5s elapsed
		var buf [8][]byte
		f := core.Fields(s, buf[:0])
		if d, ok := core.DurationS(f[len(f)-2], 0); ok && len(f) >= 2 {
			st.elapsedS = d
		}
		return nil
	}
	if !st.Active {
		return nil
	}
	if bytes.Trim(s, "=") == nil {
		return st.close() // the closing rule
	}
	i := bytes.IndexByte(s, '(')
	if i < 0 {
		return nil // errors and distribution rows without values of ours
	}
	name := string(core.TrimRight(s[:bytes.LastIndexAny(core.TrimRight(s[:i]), " \t")+1]))
	if name == "request count" && st.Detect {
		st.Found = true
	}
	total, ko, ok := value(s)
	if st.run.value(name, total, ko, ok, ln) {
		st.run.lastLine = ln
	}
	return nil
}

// heading reads a "---- title ----" line: Global Information starts a
// block, which other titles than its own sections end.
func (st *state) heading(title string, ln int) error {
	if title == "Global Information" {
		if err := st.close(); err != nil {
			return err
		}
		st.Active = true
		st.run = run{startLine: ln, lastLine: ln, elapsedS: st.elapsedS, pcts: st.run.pcts[:0]}
		return nil
	}
	if st.Active && title != "Response Time Distribution" && title != "Errors" {
		return st.close()
	}
	return nil
}

// value keeps the value of a statistics line (total, and ko for the
// request count; ok false when they did not parse); false when the line
// is none of ours.
func (r *run) value(name string, total, ko float64, ok bool, ln int) bool {
	var q float64
	switch {
	case name == "request count", name == "min response time", name == "max response time",
		name == "mean response time", name == "std deviation", name == "mean requests/sec":
	case strings.Contains(name, "percentile"):
		q = quantile(name)
		ok = ok && q != 0
	default:
		return false
	}
	if !ok {
		r.malformed(ln, name)
		return true
	}
	switch name {
	case "request count":
		r.count, _ = core.ToInt64(total)
		r.ko, _ = core.ToInt64(max(ko, 0))
		r.hasCount = true
	case "min response time":
		r.min = results.Ptr(total)
	case "max response time":
		r.max = results.Ptr(total)
	case "mean response time":
		r.mean = results.Ptr(total)
	case "std deviation":
		r.std = results.Ptr(total)
	case "mean requests/sec":
		r.rps, r.hasRPS = total, true
	default:
		if len(r.pcts) < core.MaxPercentiles {
			r.pcts = append(r.pcts, results.Percentile{Quantile: q, LatencyMs: total})
		}
	}
	return true
}

// quantile is the quantile of "response time 50th percentile" (or
// the older "95th percentile"), 0 when it has none.
func quantile(name string) float64 {
	var q float64
	for _, w := range strings.Fields(name) {
		if n, ok := strings.CutSuffix(w, "th"); ok {
			if v, ok := core.ParseDec([]byte(n), -2); ok && v <= 1 {
				q = v
			}
		}
	}
	return q
}

func (r *run) malformed(ln int, msg string) {
	if r.bad == "" {
		r.bad, r.badLine = "\""+msg+"\" line", ln
	}
}

// close ends the current block, emitting it when complete.
func (st *state) close() error {
	if !st.Active {
		return nil
	}
	st.Active = false
	r := &st.run
	if st.Detect {
		return nil
	}
	if r.bad != "" {
		return st.Malformed("gatling", r.badLine, r.bad)
	}
	if !r.hasCount || !r.hasRPS {
		return &core.SyntaxError{File: st.Opts.Source, Line: r.lastLine,
			Msg: "Gatling Global Information without its request count or mean requests/sec (cut paste?)"}
	}
	var notes []string
	out := results.RunWithPercentiles{Run: results.Run{Tool: "gatling", LoadModel: results.LoadOpen, Requests: r.count,
		Errors: r.ko, RPS: r.rps, SourceLine: int32(min(r.startLine, math.MaxInt32))}, Percentiles: []results.Percentile{}}
	switch {
	case r.elapsedS > 0:
		out.DurationS = r.elapsedS
		notes = append(notes, "duration_s from the last console report's elapsed time (whole seconds)")
	case r.rps > 0:
		out.DurationS = float64(r.count) / r.rps
		notes = append(notes, "Gatling prints no duration here: duration_s is requests / mean requests/sec")
	}
	if r.count > 0 {
		out.LatMinMs, out.LatMaxMs, out.LatMeanMs, out.LatStdevMs = r.min, r.max, r.mean, r.std
		core.SortPercentiles(r.pcts)
		core.AddPercentiles(&out, r.pcts)
	}
	notes = append(notes, "load model taken as open: Gatling's injection profiles are, unless concurrent-users ones were used (not shown)")
	out.Notes = results.Ptr(strings.Join(notes, "; "))
	return st.Emit(out)
}
