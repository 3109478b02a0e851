package ingest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/results"
)

// The Gatling parsers read the results of Gatling (gatling.io).
//
// "gatling-log" reads simulation.log, the per-request log of Gatling 2.x
// and 3.x up to 3.9 (3.10 and later write a binary log, not read here):
// tab-separated records
//
//	RUN	<simulation class>	<simulation id>	<start ms>	<description>	<version>
//	USER	<scenario>	START|END	<ms>                     (3.4+; older ones add a user id)
//	REQUEST		<name>	<start ms>	<end ms>	OK|KO	<message>   (3.4+)
//	REQUEST	<user id>		<name>	<start ms>	<end ms>	OK|KO	<message>   (3.0 to 3.3)
//	GROUP, ERROR, ASSERTION                                 (counted as well-formed, not requests)
//
// Each RUN line starts a run; its REQUEST records stream into samples
// and series through the Requests aggregator: latency is end - start
// (whole milliseconds), t_s counts from the earliest start. Gatling logs
// no HTTP status, size nor target: a KO (a failed check, or no response)
// is an error with its message, non2xx and bytes stay null, and the run
// is labelled after its file. The most users active at once (USER START
// and END records) is the run's connections. Gatling's injection
// profiles are open (users arrive at a rate) unless the simulation used
// the concurrent-users profiles, which the log does not tell: the load
// model is open and the notes say so.
//
// "gatling" reads the "Global Information" block Gatling prints on the
// console (and in its logs) at the end of a run:
//
//	---- Global Information --------------------------------------------------------
//	> request count                                       9537 (OK=4537   KO=5000  )
//	> min response time                                     68 (OK=123    KO=68    )
//	> max response time, mean response time, std deviation
//	> response time 50th percentile                        129 (OK=141    KO=70    )
//	> mean requests/sec                                 40.241 (OK=19.143 KO=21.097)
//	---- Response Time Distribution ------------------------------------------------
//
// The first column (all requests) is the run: requests, errors (KO),
// latencies in ms, percentiles (50/75/95/99th, or older "95th
// percentile" wording), rps. The block shows no duration: it is the last
// "Ns elapsed" of the periodic console reports before it, else requests /
// mean requests/sec, as the notes say.

func init() {
	Register(gatlingLogParser{})
	Register(gatlingParser{})
}

type gatlingLogParser struct{}

// Name returns "gatling-log".
func (gatlingLogParser) Name() string { return "gatling-log" }

// Detect reports whether head starts with a text simulation.log: a RUN
// record (after any ASSERTION records) followed by a known record.
func (gatlingLogParser) Detect(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	run := false
	for n := 0; len(head) > 0 && n < 64; n++ {
		var line []byte
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			line, head = head, nil
		}
		line = bytes.TrimRight(line, "\r")
		kind, _, ok := bytes.Cut(line, []byte("\t"))
		if !ok {
			return false
		}
		switch string(kind) {
		case "ASSERTION":
		case "RUN":
			f := bytes.Split(line, []byte("\t"))
			if len(f) < 5 {
				return false
			}
			if _, ok := parseUint(f[3]); !ok {
				return false
			}
			run = true
		case "USER", "REQUEST", "GROUP", "ERROR":
			return run
		default:
			return false
		}
	}
	return false
}

// gatlingUsers tracks the users active at once in a run.
type gatlingUsers struct {
	active, max int64
}

// Parse streams the requests of r to sink, one run per RUN record.
func (gatlingLogParser) Parse(ctx context.Context, r io.Reader, opts Options, sink Sink) error {
	a := NewRequests(opts, sink)
	h := -1
	runs := 0
	var users []gatlingUsers
	var errors int64
	err := eachLine(ctx, r, opts.Source, func(b []byte, ln int) error {
		b = bytes.TrimRight(b, "\r")
		if len(b) == 0 {
			return nil
		}
		f := bytes.Split(b, []byte("\t"))
		switch string(f[0]) {
		case "RUN":
			if len(f) < 5 {
				a.Bad(ln, "RUN record of "+strconv.Itoa(len(f))+" fields")
				return nil
			}
			a.Good()
			runs++
			meta := RequestRun{Tool: "gatling", LoadModel: results.LoadOpen, UnixTime: true, NoHTTPStatus: true, NoBytes: true,
				Notes: []string{"simulation " + string(f[1]),
					"load model taken as open: Gatling's injection profiles are, unless concurrent-users ones were used (the log does not tell)"}}
			if v := string(f[len(f)-1]); v != "" {
				meta.Notes = append(meta.Notes, "Gatling "+strings.TrimSpace(v))
			}
			h = a.Run("run#"+strconv.Itoa(runs), meta)
			users = append(users, gatlingUsers{})
		case "REQUEST":
			if h < 0 {
				a.Bad(ln, "REQUEST before the RUN record")
				return nil
			}
			req, bad := gatlingRequest(f)
			if bad != "" {
				a.Bad(ln, bad)
				return nil
			}
			return a.Add(h, ln, req)
		case "USER":
			if h < 0 {
				a.Bad(ln, "USER before the RUN record")
				return nil
			}
			a.Good()
			u := &users[len(users)-1]
			for _, tok := range f[2:] {
				switch string(tok) {
				case "START":
					u.active++
					u.max = max(u.max, u.active)
				case "END":
					u.active--
				}
			}
		case "ERROR":
			errors++
			a.Good()
		case "GROUP", "ASSERTION":
			a.Good()
		default:
			a.Bad(ln, fmt.Sprintf("unknown record %q", truncate(string(f[0]), 40)))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if runs == 0 {
		return &NoOutputError{File: opts.Source, LookedFor: []string{"gatling-log"}}
	}
	for i, u := range users {
		if i < a.Runs() && u.max > 0 {
			a.Meta(i).Connections = results.Ptr(int32(min(u.max, math.MaxInt32)))
		}
	}
	if errors > 0 && a.Runs() > 0 {
		m := a.Meta(a.Runs() - 1)
		m.Notes = append(m.Notes, fmt.Sprintf("%d ERROR records (errors outside requests)", errors))
	}
	return a.Close()
}

// truncate shortens s to n bytes.
func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// gatlingRequest reads a REQUEST record: the status (OK or KO) is the
// first such field after the name; the timestamps between the name and
// the status are its start (the first) and end (the last).
func gatlingRequest(f [][]byte) (Request, string) {
	k := -1
	for i := 3; i < len(f); i++ {
		if s := string(f[i]); s == "OK" || s == "KO" {
			k = i
			break
		}
	}
	if k < 0 {
		return Request{}, "REQUEST record without OK or KO"
	}
	// Timestamps: the run of numeric fields before the status.
	j := k
	for j > 1 {
		if _, ok := parseUint(f[j-1]); !ok {
			break
		}
		j--
	}
	if k-j < 2 || j < 2 {
		return Request{}, "REQUEST record without its start and end times"
	}
	start, _ := parseUint(f[j])
	end, _ := parseUint(f[k-1])
	if end < start || start > math.MaxInt64/1_000_000 {
		return Request{}, fmt.Sprintf("REQUEST ends (%d) before it starts (%d)", end, start)
	}
	req := Request{Start: start * 1e6, LatencyMs: float64(end - start)}
	if string(f[k]) == "KO" {
		msg := ""
		if k+1 < len(f) {
			msg = strings.TrimSpace(string(f[k+1]))
		}
		req.Error = "KO " + msg
		req.Error = strings.TrimSpace(req.Error)
	}
	return req, ""
}

type gatlingParser struct{}

// Name returns "gatling".
func (gatlingParser) Name() string { return "gatling" }

// gatlingRun accumulates one Global Information block.
type gatlingRun struct {
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

// gatlingState is the console parser's state over one input.
type gatlingState struct {
	opts     Options
	sink     Sink
	lab      labeler
	detect   bool
	found    bool
	index    int
	active   bool
	run      gatlingRun
	elapsedS float64 // last "Ns elapsed" seen
}

// Detect reports whether head holds a Global Information block with its
// request count.
func (gatlingParser) Detect(head []byte) bool {
	st := &gatlingState{detect: true}
	scanHead(head, st.line, func() bool { return st.found })
	return st.found
}

// Parse streams the runs of r to sink in input order.
func (gatlingParser) Parse(ctx context.Context, r io.Reader, opts Options, sink Sink) error {
	st := &gatlingState{opts: opts, sink: sink, lab: labeler{labels: opts.Labels}}
	return parseLines(ctx, r, opts, "gatling", st.line, st.close, func() int { return st.index })
}

// gatlingValue parses a statistic line's "name total (OK=x KO=y)": the
// total, and the KO value (-1 for "-").
func gatlingValue(s []byte) (total float64, ko float64, ok bool) {
	i := bytes.IndexByte(s, '(')
	if i < 0 {
		return 0, 0, false
	}
	var buf [16][]byte
	f := fields(s[:i], buf[:0])
	if len(f) < 2 {
		return 0, 0, false
	}
	total, ok = parseDec(f[len(f)-1], 0)
	if !ok {
		return 0, 0, false
	}
	ko = -1
	if j := bytes.Index(s[i:], []byte("KO=")); j >= 0 {
		v := bytes.TrimRight(trimLeft(s[i+j+3:]), " )")
		if x, ok := parseDec(v, 0); ok {
			ko = x
		}
	}
	return total, ko, true
}

// line handles one input line.
func (st *gatlingState) line(b []byte, ln int) error {
	s := normalize(b)
	if len(s) == 0 {
		return nil
	}
	if bytes.HasPrefix(s, []byte("---- ")) {
		title := string(bytes.TrimSpace(bytes.Trim(s, "-")))
		if title == "Global Information" {
			if err := st.close(); err != nil {
				return err
			}
			st.active = true
			st.run = gatlingRun{startLine: ln, lastLine: ln, elapsedS: st.elapsedS, pcts: st.run.pcts[:0]}
			return nil
		}
		if st.active && title != "Response Time Distribution" && title != "Errors" {
			return st.close()
		}
		return nil
	}
	if bytes.HasSuffix(s, []byte(" elapsed")) {
		// 2024-01-15 10:00:05                                          5s elapsed
		var buf [8][]byte
		f := fields(s, buf[:0])
		if d, ok := durationS(f[len(f)-2], 0); ok && len(f) >= 2 {
			st.elapsedS = d
		}
		return nil
	}
	if !st.active {
		return nil
	}
	r := &st.run
	if bytes.Trim(s, "=") == nil {
		return st.close() // the closing rule
	}
	i := bytes.IndexByte(s, '(')
	if i < 0 {
		return nil // errors and distribution rows without values of ours
	}
	name := string(trimRight(s[:bytes.LastIndexAny(trimRight(s[:i]), " \t")+1]))
	total, ko, ok := gatlingValue(s)
	switch {
	case name == "request count":
		if st.detect {
			st.found = true
		}
		if !ok {
			r.malformed(ln, "request count")
			break
		}
		r.count, _ = toInt64(total)
		r.ko, _ = toInt64(max(ko, 0))
		r.hasCount = true
	case name == "min response time", name == "max response time", name == "mean response time", name == "std deviation":
		if !ok {
			r.malformed(ln, name)
			break
		}
		dst := map[string]**float64{"min response time": &r.min, "max response time": &r.max, "mean response time": &r.mean, "std deviation": &r.std}[name]
		*dst = results.Ptr(total)
	case strings.Contains(name, "percentile"):
		// "response time 50th percentile", older "95th percentile"
		var q float64
		for _, w := range strings.Fields(name) {
			if n, ok := strings.CutSuffix(w, "th"); ok {
				if v, ok := parseDec([]byte(n), -2); ok && v <= 1 {
					q = v
				}
			}
		}
		if !ok || q == 0 {
			r.malformed(ln, name)
			break
		}
		if len(r.pcts) < maxPercentiles {
			r.pcts = append(r.pcts, results.Percentile{Quantile: q, LatencyMs: total})
		}
	case name == "mean requests/sec":
		if !ok {
			r.malformed(ln, name)
			break
		}
		r.rps, r.hasRPS = total, true
	default:
		return nil
	}
	r.lastLine = ln
	return nil
}

func (r *gatlingRun) malformed(ln int, msg string) {
	if r.bad == "" {
		r.bad, r.badLine = "\""+msg+"\" line", ln
	}
}

// close ends the current block, emitting it when complete.
func (st *gatlingState) close() error {
	if !st.active {
		return nil
	}
	st.active = false
	r := &st.run
	if st.detect {
		return nil
	}
	if r.bad != "" {
		return &SyntaxError{File: st.opts.Source, Line: r.badLine, Msg: "gatling: malformed " + r.bad}
	}
	if !r.hasCount || !r.hasRPS {
		return &SyntaxError{File: st.opts.Source, Line: r.lastLine,
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
		sortPercentiles(r.pcts)
		addPercentiles(&out, r.pcts)
	}
	notes = append(notes, "load model taken as open: Gatling's injection profiles are, unless concurrent-users ones were used (not shown)")
	out.Notes = results.Ptr(strings.Join(notes, "; "))
	fillCommon(&out, st.opts, st.index, &st.lab)
	st.index++
	return st.sink.Run(out)
}
