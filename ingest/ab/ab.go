package ab

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// The ab parser reads the text report of ApacheBench (ab, from Apache
// httpd's support tools), wherever it sits in a file: bare, in terminal
// transcripts or markdown, indented, several runs in a row, partial pastes
// that start at "Concurrency Level:".
//
// A run is the block
//
//	[ab [options] URL]                                   optional
//	This is ApacheBench, Version 2.3 <$Revision: 1903618 $>
//	Benchmarking localhost (be patient)[.....done]
//	Completed 1000 requests / Finished 10000 requests    progress
//	Server Software / Server Hostname / Server Port
//	SSL/TLS Protocol / Server Temp Key / TLS Server Name https only
//	Document Path / Document Length
//	Concurrency Level:      100
//	Time taken for tests:   0.439 seconds
//	Complete requests:      10000
//	Failed requests:        2454
//	   (Connect: 0, Receive: 818, Length: 818, Exceptions: 818)
//	Write errors / Non-2xx responses / Keep-Alive requests
//	Total transferred / Total body sent / HTML transferred
//	Requests per second:    22767.94 [#/sec] (mean)
//	Time per request:       4.392 [ms] (mean)
//	Time per request:       0.044 [ms] (mean, across all concurrent requests)
//	Transfer rate:          3179.51 [Kbytes/sec] received
//	Connection Times (ms)                                 min mean[+/-sd] median max (-S: min avg max)
//	Percentage of the requests served within a certain time (ms)
//	  50%      4 ... 100%     13 (longest request)      not with -d
//
// Target: http[s]://Server Hostname:Server Port + Document Path (https
// when the SSL/TLS Protocol line is shown). errors = Connect + Receive +
// Exceptions + Non-2xx: ab also counts as failed the responses whose
// length differs from the first one (Length), which are no errors for
// dynamic pages; they are noted. ab counts 3xx responses as Non-2xx too.
// Latency statistics come from the Total row of Connection Times (whole
// ms), percentiles from the percentage table.
//
// A run that starts ("This is ApacheBench" and the Benchmarking line) but
// ends without its report (ab aborted: "apr_socket_recv: Connection reset
// by peer (104)") is a *SyntaxError.
type Parser struct{}

// Name returns "ab".
func (Parser) Name() string { return "ab" }

// Groups of report lines, in report order; a line of an earlier group
// than the run has reached starts the next run.
const (
	abGroupBanner int8 = iota + 1
	abGroupProgress
	abGroupServer
	abGroupDoc
	abGroupConcurrency
	abGroupTime
	abGroupComplete
	abGroupFailed
	abGroupTransferred
	abGroupRate
	abGroupConnTimes
	abGroupPercent
)

// Keys of the report, as bits of abRun.keys: a repeated key starts the next run.
const (
	abKeyBanner = 1 << iota
	abKeyBenchmarking
	abKeySoftware
	abKeyHostname
	abKeyPort
	abKeyTLS
	abKeyPath
	abKeyDocLength
	abKeyConcurrency
	abKeyTime
	abKeyComplete
	abKeyFailed
	abKeyBreakdown
	abKeyWrite
	abKeyNon2xx
	abKeyKeepAlive
	abKeyTransferred
	abKeyBodySent
	abKeyHTML
	abKeyRPS
	abKeyTPR
	abKeyTPRAll
	abKeyRate
	abKeyConnTimes
	abKeyPercent
	abKeyTLSMore // Server Temp Key, TLS Server Name
)

// abRun accumulates one run.
type abRun struct {
	group                    int8
	keys                     uint32
	startLine, lastLine      int
	cmd                      *abCommand
	host, port, path         string
	tls                      bool
	conc                     int64
	timeS                    float64
	complete, failed         int64
	connect, receive, length int64
	except, write, non2xx    int64
	transferred              int64
	rps, tpr, rateKB         float64
	inConn, inPct            bool
	connCols                 int // 5: min mean sd median max; 3: min avg max (-S)
	total                    [5]float64
	hasTotal                 bool
	pcts                     []results.Percentile
	aborted                  string
	abortLine                int
	bad                      string
	badLine                  int
}

// abState is the parser's state over one input.
type abState struct {
	core.RunState
	run     abRun
	pending *abCommand
	f       [24][]byte
}

// Detect reports whether head holds an ab report: the "This is
// ApacheBench" banner with the Benchmarking line or a report line, or,
// for partial pastes, three of ab's report lines.
func (Parser) Detect(head []byte) bool {
	st := &abState{RunState: core.RunState{Detect: true}}
	for ln, line := range core.HeadLines(head) {
		if st.Found {
			break
		}
		_ = st.line(line, ln)
		if st.Active && st.run.recognized() {
			return true
		}
	}
	return st.Found
}

// recognized reports whether the run's lines are surely ab's.
func (r *abRun) recognized() bool {
	if r.keys&abKeyBanner != 0 && r.keys&^abKeyBanner != 0 {
		return true
	}
	n := 0
	for k := r.keys; k != 0; k &= k - 1 {
		n++
	}
	return n >= 3
}

// Parse streams the ab runs of r to sink in input order.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &abState{RunState: core.RunState{Opts: opts, Sink: sink, Lab: core.Labeler{Labels: opts.Labels}}}
	if err := core.EachLine(ctx, r, opts.Source, st.line); err != nil {
		return err
	}
	if err := st.close(); err != nil {
		return err
	}
	if st.Index == 0 {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"ab"}}
	}
	return nil
}

// abValue returns the value of a "Key:   value" line: the text after the
// first colon, trimmed.
func abValue(s []byte) []byte {
	i := bytes.IndexByte(s, ':')
	if i < 0 {
		return nil
	}
	return bytes.TrimSpace(core.TrimLeft(s[i+1:]))
}

// line handles one input line.
func (st *abState) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if len(s) == 0 {
		return nil
	}
	f := core.Fields(s, st.f[:0])
	r := &st.run
	if st.Active && r.inConn {
		if st.connRow(f) {
			r.lastLine = ln
			return nil
		}
		r.inConn = false
	}
	if st.Active && r.inPct {
		if st.pctRow(f, ln) {
			return nil
		}
		r.inPct = false
	}
	key, group, ok := st.classify(s, f)
	if !ok {
		return st.other(s, f, ln)
	}
	if st.Active && (group < r.group || r.keys&key != 0) {
		if err := st.close(); err != nil {
			return err
		}
	}
	if !st.Active {
		st.start(ln)
	}
	r.keys |= key
	r.group = max(r.group, group)
	r.lastLine = ln
	st.value(key, s, f, ln)
	return nil
}

// classify returns the key and group of a report line.
func (st *abState) classify(s []byte, f [][]byte) (uint32, int8, bool) {
	if k, g, ok := abClassifyHead(s, f); ok {
		return k, g, ok
	}
	if k, g, ok := abClassifyCounts(s, f); ok {
		return k, g, ok
	}
	return abClassifyRates(s, f)
}

// abClassifyHead classifies the banner, progress, server and document lines and the concurrency (see classify).
func abClassifyHead(s []byte, f [][]byte) (uint32, int8, bool) {
	switch string(f[0]) {
	case "This":
		if bytes.HasPrefix(s, []byte("This is ApacheBench")) {
			return abKeyBanner, abGroupBanner, true
		}
	case "Benchmarking":
		if bytes.Contains(s, []byte("(be patient)")) {
			return abKeyBenchmarking, abGroupProgress, true
		}
	case "Server":
		if len(f) >= 2 {
			switch string(f[1]) {
			case "Software:":
				return abKeySoftware, abGroupServer, true
			case "Hostname:":
				return abKeyHostname, abGroupServer, true
			case "Port:":
				return abKeyPort, abGroupServer, true
			case "Temp":
				return abKeyTLSMore, abGroupServer, true
			}
		}
	case "SSL/TLS":
		if len(f) >= 2 && string(f[1]) == "Protocol:" {
			return abKeyTLS, abGroupServer, true
		}
	case "TLS":
		if len(f) >= 3 && string(f[1]) == "Server" && string(f[2]) == "Name:" {
			return abKeyTLSMore, abGroupServer, true
		}
	case "Document":
		if len(f) >= 2 {
			switch string(f[1]) {
			case "Path:":
				return abKeyPath, abGroupDoc, true
			case "Length:":
				return abKeyDocLength, abGroupDoc, true
			}
		}
	case "Concurrency":
		if len(f) == 3 && string(f[1]) == "Level:" {
			return abKeyConcurrency, abGroupConcurrency, true
		}
	}
	return 0, 0, false
}

// abClassifyCounts classifies the time taken and the counts of requests and errors (see classify).
func abClassifyCounts(s []byte, f [][]byte) (uint32, int8, bool) {
	switch string(f[0]) {
	case "Time":
		if len(f) == 6 && string(f[1]) == "taken" && string(f[3]) == "tests:" && string(f[5]) == "seconds" {
			return abKeyTime, abGroupTime, true
		}
		if len(f) >= 6 && string(f[1]) == "per" && string(f[2]) == "request:" && string(f[4]) == "[ms]" {
			if string(f[5]) == "(mean," {
				return abKeyTPRAll, abGroupRate, true
			}
			return abKeyTPR, abGroupRate, true
		}
	case "Complete":
		if len(f) == 3 && string(f[1]) == "requests:" {
			return abKeyComplete, abGroupComplete, true
		}
	case "Failed":
		if len(f) == 3 && string(f[1]) == "requests:" {
			return abKeyFailed, abGroupFailed, true
		}
	case "(Connect:":
		return abKeyBreakdown, abGroupFailed, true
	case "Write":
		if len(f) == 3 && string(f[1]) == "errors:" {
			return abKeyWrite, abGroupFailed, true
		}
	case "Non-2xx":
		if len(f) == 3 && string(f[1]) == "responses:" {
			return abKeyNon2xx, abGroupFailed, true
		}
	case "Keep-Alive":
		if len(f) == 3 && string(f[1]) == "requests:" {
			return abKeyKeepAlive, abGroupFailed, true
		}
	}
	return 0, 0, false
}

// abClassifyRates classifies the bytes transferred, the rates, the connection times and percentages headers (see classify).
func abClassifyRates(s []byte, f [][]byte) (uint32, int8, bool) {
	switch string(f[0]) {
	case "Total":
		if len(f) >= 3 && string(f[1]) == "transferred:" {
			return abKeyTransferred, abGroupTransferred, true
		}
		if len(f) >= 4 && string(f[1]) == "body" && string(f[2]) == "sent:" {
			return abKeyBodySent, abGroupTransferred, true
		}
	case "HTML":
		if len(f) >= 3 && string(f[1]) == "transferred:" {
			return abKeyHTML, abGroupTransferred, true
		}
	case "Requests":
		if len(f) >= 5 && string(f[1]) == "per" && string(f[2]) == "second:" && string(f[4]) == "[#/sec]" {
			return abKeyRPS, abGroupRate, true
		}
	case "Transfer":
		if len(f) >= 4 && string(f[1]) == "rate:" && string(f[3]) == "[Kbytes/sec]" {
			return abKeyRate, abGroupRate, true
		}
	case "Connection":
		if len(f) == 3 && string(f[1]) == "Times" && string(f[2]) == "(ms)" {
			return abKeyConnTimes, abGroupConnTimes, true
		}
	case "Percentage":
		if bytes.HasPrefix(s, []byte("Percentage of the requests served within a certain time")) {
			return abKeyPercent, abGroupPercent, true
		}
	}
	return 0, 0, false
}

// value stores the value of a report line.
func (st *abState) value(key uint32, s []byte, f [][]byte, ln int) {
	r := &st.run
	num := func(b []byte) int64 {
		n, ok := core.ParseUint(b)
		if !ok {
			r.malformed(ln, string(s))
		}
		return n
	}
	dec := func(b []byte) float64 {
		v, ok := core.ParseDec(b, 0)
		if !ok {
			r.malformed(ln, string(s))
		}
		return v
	}
	switch key {
	case abKeyBanner:
		if c := st.pending; c != nil {
			r.cmd = c
			r.startLine = c.line
			st.pending = nil
		}
	case abKeyBenchmarking:
		// "Benchmarking host (be patient)...apr_socket_recv: Connection refused (111)"
		if i := bytes.Index(s, []byte("apr_")); i >= 0 && r.aborted == "" {
			r.aborted, r.abortLine = string(s[i:]), ln
		}
	case abKeyHostname:
		r.host = string(abValue(s))
	case abKeyPort:
		r.port = string(abValue(s))
	case abKeyTLS:
		r.tls = true
	case abKeyPath:
		r.path = string(abValue(s))
	case abKeyConcurrency:
		r.conc = num(f[2])
	case abKeyTime:
		r.timeS = dec(f[4])
	case abKeyComplete:
		r.complete = num(f[2])
	case abKeyFailed:
		r.failed = num(f[2])
	case abKeyBreakdown:
		// (Connect: 0, Receive: 818, Length: 818, Exceptions: 818)
		if len(f) != 8 || string(f[2]) != "Receive:" || string(f[4]) != "Length:" || string(f[6]) != "Exceptions:" {
			r.malformed(ln, string(s))
			return
		}
		r.connect, r.receive = num(core.TrimPunct(f[1])), num(core.TrimPunct(f[3]))
		r.length, r.except = num(core.TrimPunct(f[5])), num(core.TrimPunct(f[7]))
	case abKeyWrite:
		r.write = num(f[2])
	case abKeyNon2xx:
		r.non2xx = num(f[2])
	case abKeyTransferred:
		r.transferred = num(f[2])
	case abKeyRPS:
		r.rps = dec(f[3])
	case abKeyTPR:
		r.tpr = dec(f[3])
	case abKeyRate:
		r.rateKB = dec(f[2])
	case abKeyConnTimes:
		r.inConn = true
	case abKeyPercent:
		r.inPct = true
	}
}

// connRow handles a line of the Connection Times table.
func (st *abState) connRow(f [][]byte) bool {
	r := &st.run
	switch string(f[0]) {
	case "min":
		switch {
		case len(f) == 4 && string(f[1]) == "mean[+/-sd]":
			r.connCols = 5
		case len(f) == 3 && string(f[1]) == "avg":
			r.connCols = 3
		default:
			return false
		}
		return true
	case "Connect:", "Processing:", "Waiting:", "Total:":
	default:
		// The warnings ab prints under the table.
		return bytes.HasPrefix(f[0], []byte("WARNING")) || string(f[0]) == "These"
	}
	if r.connCols == 0 || len(f) != r.connCols+1 {
		return false
	}
	var v [5]float64
	for i := 1; i < len(f); i++ {
		x, ok := core.ParseDec(f[i], 0)
		if !ok {
			return false
		}
		v[i-1] = x
	}
	if string(f[0]) == "Total:" {
		if r.connCols == 3 { // min avg max
			v = [5]float64{v[0], v[1], -1, -1, v[2]}
		}
		r.total, r.hasTotal = v, true
	}
	return true
}

// pctRow handles a row of the percentage table ("50%   1747",
// "100%  63958 (longest request)").
func (st *abState) pctRow(f [][]byte, ln int) bool {
	r := &st.run
	if len(f) != 2 && !(len(f) == 4 && string(f[2]) == "(longest" && string(f[3]) == "request)") {
		return false
	}
	p := f[0]
	if len(p) < 2 || p[len(p)-1] != '%' {
		return false
	}
	pct, ok1 := core.ParseUint(p[:len(p)-1])
	ms, ok2 := core.ParseDec(f[1], 0)
	if !ok1 || !ok2 || pct > 100 {
		return false
	}
	if len(r.pcts) < core.MaxPercentiles {
		r.pcts = append(r.pcts, results.Percentile{Quantile: float64(pct) / 100, LatencyMs: ms})
	}
	r.lastLine = ln
	return true
}

// other handles a line that is no report line: progress, abort messages,
// command lines.
func (st *abState) other(s []byte, f [][]byte, ln int) error {
	r := &st.run
	if st.Active {
		switch string(f[0]) {
		case "Completed", "Finished":
			if len(f) == 3 && string(f[2]) == "requests" {
				if _, ok := core.ParseUint(f[1]); ok {
					r.lastLine = ln
					return nil
				}
			}
		case "Total":
			// Total of 1234 requests completed (after an abort)
			if len(f) == 5 && string(f[1]) == "of" && string(f[3]) == "requests" {
				r.lastLine = ln
				return nil
			}
		}
		if bytes.HasPrefix(s, []byte("apr_")) || bytes.HasPrefix(s, []byte("SSL read failed")) ||
			bytes.HasPrefix(s, []byte("ab: ")) || bytes.HasPrefix(s, []byte("Test aborted")) {
			if r.aborted == "" && r.keys&abKeyComplete == 0 {
				r.aborted, r.abortLine = string(s), ln
			}
			return nil
		}
	}
	if i := core.FindCommand(s, isABExe); i >= 0 {
		if c, ok := parseABCommand(string(s[i:]), ln); ok {
			if st.Active && r.keys&(abKeyComplete|abKeyTime) != 0 {
				if err := st.close(); err != nil {
					return err
				}
			}
			st.pending = c
		}
	}
	return nil
}

func (r *abRun) malformed(ln int, s string) {
	if r.bad == "" {
		r.bad, r.badLine = strconv.Quote(s), ln
	}
}

// start begins a run.
func (st *abState) start(ln int) {
	st.Active = true
	st.run = abRun{startLine: ln, lastLine: ln, pcts: st.run.pcts[:0]}
}

// close ends the current run, emitting it when it has its report.
func (st *abState) close() error {
	if !st.Active {
		return nil
	}
	st.Active = false
	r := &st.run
	if r.keys&(abKeyComplete|abKeyTime) != abKeyComplete|abKeyTime {
		if !r.recognized() || st.Detect {
			return nil
		}
		if r.aborted != "" {
			return &core.SyntaxError{File: st.Opts.Source, Line: r.abortLine, Msg: "ab stopped before its report: " + r.aborted}
		}
		if r.keys&^(abKeyBanner|abKeyBenchmarking) == 0 {
			return nil // ab -V, or a banner quoted alone
		}
		return &core.SyntaxError{File: st.Opts.Source, Line: r.lastLine,
			Msg: "ab report without its Time taken for tests or Complete requests line (cut paste?)"}
	}
	if r.bad != "" && !st.Detect {
		return &core.SyntaxError{File: st.Opts.Source, Line: r.badLine, Msg: "ab: malformed line " + r.bad}
	}
	st.Found = true
	if st.Detect {
		return nil
	}
	out := st.build()
	return st.Emit(out)
}

// target returns the URL of the run.
func (r *abRun) target() string {
	if r.host == "" {
		if r.cmd != nil {
			return r.cmd.url
		}
		return ""
	}
	host := r.host
	if strings.IndexByte(host, ':') >= 0 && !strings.HasPrefix(host, "[") {
		host = "[" + host + "]"
	}
	scheme := "http://"
	if r.tls {
		scheme = "https://"
	}
	t := scheme + host
	if r.port != "" {
		t += ":" + r.port
	}
	if r.path == "" {
		r.path = "/"
	}
	return t + r.path
}

// build makes the run of a complete report.
func (st *abState) build() results.RunWithPercentiles {
	r := &st.run
	var notes []string
	out := results.RunWithPercentiles{Run: results.Run{
		Tool: "ab", LoadModel: results.LoadClosed, Target: r.target(), DurationS: r.timeS,
		Requests: r.complete, SourceLine: int32(r.startLine),
	}, Percentiles: []results.Percentile{}}
	if r.keys&abKeyConcurrency != 0 && r.conc <= 1<<31-1 {
		out.Connections = results.Ptr(int32(r.conc))
	}
	if c := r.cmd; c != nil {
		out.Command = results.Ptr(c.raw)
		if c.timeLimit > 0 {
			out.PlannedDurationS = results.Ptr(c.timeLimit)
		}
		out.TimeoutS = results.Ptr(c.timeout)
		if out.Connections == nil && c.conc > 0 {
			out.Connections = results.Ptr(int32(c.conc))
		}
	}
	// Errors.
	if r.keys&abKeyFailed != 0 {
		switch {
		case r.keys&abKeyBreakdown != 0:
			out.Errors = core.AddSat(core.AddSat(r.connect, r.receive), r.except)
			out.ConnectErrors = results.Ptr(r.connect)
			out.ReadErrors = results.Ptr(r.receive)
			if r.length > 0 {
				notes = append(notes, fmt.Sprintf("%d Length failures (responses whose length differs from the first one's; ab counts them as failed requests): not counted as errors", r.length))
			}
		case r.failed > 0:
			out.Errors = r.failed
			notes = append(notes, "Failed requests without their breakdown line: all counted as errors")
		default:
			out.ConnectErrors, out.ReadErrors = results.Ptr[int64](0), results.Ptr[int64](0)
		}
		out.WriteErrors = results.Ptr(r.write)
		out.Non2xx = results.Ptr(r.non2xx)
		out.Errors = core.AddSat(out.Errors, r.non2xx)
		if r.write > 0 {
			notes = append(notes, fmt.Sprintf("%d write errors", r.write))
		}
		if r.non2xx > 0 {
			notes = append(notes, "ab's Non-2xx responses include 3xx responses")
		}
	} else {
		notes = append(notes, "no Failed requests line: errors not known")
	}
	if r.keys&abKeyTransferred != 0 {
		out.BytesIn = results.Ptr(r.transferred)
	}
	switch {
	case r.keys&abKeyRPS != 0:
		out.RPS = r.rps
	case r.timeS > 0:
		out.RPS = float64(r.complete) / r.timeS
		notes = append(notes, "no Requests per second line: rps computed from requests and duration")
	}
	if r.keys&abKeyRate != 0 {
		out.TransferBPS = results.Ptr(r.rateKB * 1024)
	}
	// Latency: the Total row of Connection Times (whole ms).
	if r.hasTotal {
		out.LatMinMs, out.LatMeanMs, out.LatMaxMs = results.Ptr(r.total[0]), results.Ptr(r.total[1]), results.Ptr(r.total[4])
		if r.total[2] >= 0 {
			out.LatStdevMs = results.Ptr(r.total[2])
		}
		if len(r.pcts) == 0 && r.total[3] >= 0 {
			out.LatP50Ms = results.Ptr(r.total[3])
			out.Percentiles = append(out.Percentiles, results.Percentile{Quantile: 0.5, LatencyMs: r.total[3]})
		}
	} else if r.keys&abKeyTPR != 0 && r.complete > 0 {
		out.LatMeanMs = results.Ptr(r.tpr)
		notes = append(notes, "no Connection Times table: lat_mean_ms is ab's Time per request (concurrency × time taken / requests)")
	}
	for _, p := range r.pcts {
		out.Percentiles = append(out.Percentiles, p)
		switch p.Quantile {
		case 0.5:
			out.LatP50Ms = results.Ptr(p.LatencyMs)
		case 0.9:
			out.LatP90Ms = results.Ptr(p.LatencyMs)
		case 0.99:
			out.LatP99Ms = results.Ptr(p.LatencyMs)
		}
	}
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return out
}

// abCommand is an ab command line found before a report.
type abCommand struct {
	raw       string
	line      int
	url       string
	conc      int64
	timeLimit float64
	timeout   float64
}

// isABExe reports whether tok names the ab program.
func isABExe(tok []byte) bool {
	tok = bytes.TrimLeft(tok, "`(\"'")
	if i := bytes.LastIndexAny(tok, `/\`); i >= 0 {
		tok = tok[i+1:]
	}
	tok = bytes.TrimSuffix(tok, []byte(".exe"))
	return string(tok) == "ab" || string(tok) == "abs"
}

// abArgOpts are ab's options that take a value.
const abArgOpts = "ncstbBpuTvxyzCHAPXgemZfE"

// abSyntax is how ab reads its options: getopt's, one letter each,
// clustered ("-kc10"), no long options.
var abSyntax = core.OptionSyntax{TakesValue: func(o string) bool { return strings.Contains(abArgOpts, o) }, Short: true}

// parseABCommand parses the command line s (starting at the ab token). It
// reports false when no URL follows the options.
func parseABCommand(s string, line int) (*abCommand, bool) {
	s = strings.TrimSpace(s)
	c := &abCommand{raw: s, line: line, timeout: 30}
	prog, args := core.CommandWords(make([]string, 0, 16), s)
	if !isABExe([]byte(prog)) {
		return nil, false
	}
	found := false
	abSyntax.Scan(args, func(name, val string) bool {
		c.option(name[0], val)
		return true
	}, func(a string) bool {
		if a == "" {
			return true
		}
		if u, _, ok := core.TargetArg(a); ok {
			c.url, found = u, true
		} else if strings.IndexByte(a, '/') > 0 {
			c.url, found = "http://"+a, true
		}
		return false
	})
	if !found {
		return nil, false
	}
	return c, true
}

func (c *abCommand) option(o byte, val string) {
	switch o {
	case 'c':
		if n, err := strconv.ParseInt(val, 10, 32); err == nil && n > 0 {
			c.conc = n
		}
	case 't':
		if n, err := strconv.ParseInt(val, 10, 32); err == nil && n > 0 {
			c.timeLimit = float64(n)
		}
	case 's':
		if n, err := strconv.ParseInt(val, 10, 32); err == nil && n > 0 {
			c.timeout = float64(n)
		}
	}
}
