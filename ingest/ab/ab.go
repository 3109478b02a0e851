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
// httpd's support tools), wherever it sits in a file. A run is the block of
// docs/FORMATS.md's layout; how its figures are derived (target, errors
// without ab's Length failures, latencies from the Total row), and that a
// run aborted before its report is a *SyntaxError: docs/FORMATS.md,
// section ingest/ab/ab.go.
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

// Keys of the report, as bits of run.keys: a repeated key starts the next run.
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

// run accumulates one run.
type run struct {
	group                    int8
	keys                     uint32
	startLine, lastLine      int
	cmd                      *command
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

// state is the parser's state over one input.
type state struct {
	core.RunState
	run     run
	pending *command
	f       [24][]byte
}

// Detect reports whether head holds an ab report: the "This is
// ApacheBench" banner with the Benchmarking line or a report line, or,
// for partial pastes, three of ab's report lines.
func (Parser) Detect(head []byte) bool {
	st := &state{RunState: core.RunState{Detect: true}}
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
func (r *run) recognized() bool {
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
	st := &state{RunState: core.RunState{Opts: opts, Sink: sink, Lab: core.Labeler{Labels: opts.Labels}}}
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

// value returns the value of a "Key:   value" line: the text after the
// first colon, trimmed.
func value(s []byte) []byte {
	i := bytes.IndexByte(s, ':')
	if i < 0 {
		return nil
	}
	return bytes.TrimSpace(core.TrimLeft(s[i+1:]))
}

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
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

// classify returns the key and group of a report line (abLines).
func (st *state) classify(s []byte, f [][]byte) (uint32, int8, bool) {
	for _, l := range abLinesByWord[string(f[0])] {
		if l.matches(s, f) {
			return l.key, l.group, true
		}
	}
	return 0, 0, false
}

// line is the form of a report line: its words ("" any) from the first,
// at least n fields (exactly n with exact), a prefix of or a fragment in
// the whole line, and the key and group it gives.
type line struct {
	words            []string
	n                int
	exact            bool
	prefix, contains string
	key              uint32
	group            int8
}

// abLines are the report's lines, tried in order.
var abLines = []line{
	{words: []string{"This"}, n: 1, prefix: "This is ApacheBench", key: abKeyBanner, group: abGroupBanner},
	{words: []string{"Benchmarking"}, n: 1, contains: "(be patient)", key: abKeyBenchmarking, group: abGroupProgress},
	{words: []string{"Server", "Software:"}, n: 2, key: abKeySoftware, group: abGroupServer},
	{words: []string{"Server", "Hostname:"}, n: 2, key: abKeyHostname, group: abGroupServer},
	{words: []string{"Server", "Port:"}, n: 2, key: abKeyPort, group: abGroupServer},
	{words: []string{"Server", "Temp"}, n: 2, key: abKeyTLSMore, group: abGroupServer},
	{words: []string{"SSL/TLS", "Protocol:"}, n: 2, key: abKeyTLS, group: abGroupServer},
	{words: []string{"TLS", "Server", "Name:"}, n: 3, key: abKeyTLSMore, group: abGroupServer},
	{words: []string{"Document", "Path:"}, n: 2, key: abKeyPath, group: abGroupDoc},
	{words: []string{"Document", "Length:"}, n: 2, key: abKeyDocLength, group: abGroupDoc},
	{words: []string{"Concurrency", "Level:"}, n: 3, exact: true, key: abKeyConcurrency, group: abGroupConcurrency},
	{words: []string{"Time", "taken", "", "tests:", "", "seconds"}, n: 6, exact: true, key: abKeyTime, group: abGroupTime},
	{words: []string{"Time", "per", "request:", "", "[ms]", "(mean,"}, n: 6, key: abKeyTPRAll, group: abGroupRate},
	{words: []string{"Time", "per", "request:", "", "[ms]"}, n: 6, key: abKeyTPR, group: abGroupRate},
	{words: []string{"Complete", "requests:"}, n: 3, exact: true, key: abKeyComplete, group: abGroupComplete},
	{words: []string{"Failed", "requests:"}, n: 3, exact: true, key: abKeyFailed, group: abGroupFailed},
	{words: []string{"(Connect:"}, n: 1, key: abKeyBreakdown, group: abGroupFailed},
	{words: []string{"Write", "errors:"}, n: 3, exact: true, key: abKeyWrite, group: abGroupFailed},
	{words: []string{"Non-2xx", "responses:"}, n: 3, exact: true, key: abKeyNon2xx, group: abGroupFailed},
	{words: []string{"Keep-Alive", "requests:"}, n: 3, exact: true, key: abKeyKeepAlive, group: abGroupFailed},
	{words: []string{"Total", "transferred:"}, n: 3, key: abKeyTransferred, group: abGroupTransferred},
	{words: []string{"Total", "body", "sent:"}, n: 4, key: abKeyBodySent, group: abGroupTransferred},
	{words: []string{"HTML", "transferred:"}, n: 3, key: abKeyHTML, group: abGroupTransferred},
	{words: []string{"Requests", "per", "second:", "", "[#/sec]"}, n: 5, key: abKeyRPS, group: abGroupRate},
	{words: []string{"Transfer", "rate:", "", "[Kbytes/sec]"}, n: 4, key: abKeyRate, group: abGroupRate},
	{words: []string{"Connection", "Times", "(ms)"}, n: 3, exact: true, key: abKeyConnTimes, group: abGroupConnTimes},
	{words: []string{"Percentage"}, n: 1, prefix: "Percentage of the requests served within a certain time", key: abKeyPercent, group: abGroupPercent},
}

// abLinesByWord are abLines by their first word, in order.
var abLinesByWord = func() map[string][]line {
	m := map[string][]line{}
	for _, l := range abLines {
		m[l.words[0]] = append(m[l.words[0]], l)
	}
	return m
}()

// matches reports whether the line s, of fields f, has the form l (its
// first word already matched).
func (l *line) matches(s []byte, f [][]byte) bool {
	if len(f) < l.n || l.exact && len(f) != l.n {
		return false
	}
	for i, w := range l.words[1:] {
		if w != "" && string(f[i+1]) != w {
			return false
		}
	}
	if l.prefix != "" && !bytes.HasPrefix(s, []byte(l.prefix)) {
		return false
	}
	return l.contains == "" || bytes.Contains(s, []byte(l.contains))
}

// value stores the value of a report line.
func (st *state) value(key uint32, s []byte, f [][]byte, ln int) {
	r := &st.run
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
		r.host = string(value(s))
	case abKeyPort:
		r.port = string(value(s))
	case abKeyTLS:
		r.tls = true
	case abKeyPath:
		r.path = string(value(s))
	case abKeyBreakdown:
		r.breakdown(s, f, ln)
	case abKeyConnTimes:
		r.inConn = true
	case abKeyPercent:
		r.inPct = true
	default:
		r.number(key, s, f, ln)
	}
}

// num reads a count of the line s at ln, noting a malformed one.
func (r *run) num(b, s []byte, ln int) int64 {
	n, ok := core.ParseUint(b)
	if !ok {
		r.malformed(ln, string(s))
	}
	return n
}

// dec reads a decimal of the line s at ln, noting a malformed one.
func (r *run) dec(b, s []byte, ln int) float64 {
	v, ok := core.ParseDec(b, 0)
	if !ok {
		r.malformed(ln, string(s))
	}
	return v
}

// number stores the number of a count or rate line.
func (r *run) number(key uint32, s []byte, f [][]byte, ln int) {
	switch key {
	case abKeyConcurrency:
		r.conc = r.num(f[2], s, ln)
	case abKeyTime:
		r.timeS = r.dec(f[4], s, ln)
	case abKeyComplete:
		r.complete = r.num(f[2], s, ln)
	case abKeyFailed:
		r.failed = r.num(f[2], s, ln)
	case abKeyWrite:
		r.write = r.num(f[2], s, ln)
	case abKeyNon2xx:
		r.non2xx = r.num(f[2], s, ln)
	case abKeyTransferred:
		r.transferred = r.num(f[2], s, ln)
	case abKeyRPS:
		r.rps = r.dec(f[3], s, ln)
	case abKeyTPR:
		r.tpr = r.dec(f[3], s, ln)
	case abKeyRate:
		r.rateKB = r.dec(f[2], s, ln)
	}
}

// breakdown reads "(Connect: 0, Receive: 818, Length: 818, Exceptions: 818)".
func (r *run) breakdown(s []byte, f [][]byte, ln int) {
	if len(f) != 8 || string(f[2]) != "Receive:" || string(f[4]) != "Length:" || string(f[6]) != "Exceptions:" {
		r.malformed(ln, string(s))
		return
	}
	r.connect, r.receive = r.num(core.TrimPunct(f[1]), s, ln), r.num(core.TrimPunct(f[3]), s, ln)
	r.length, r.except = r.num(core.TrimPunct(f[5]), s, ln), r.num(core.TrimPunct(f[7]), s, ln)
}

// connRow handles a line of the Connection Times table.
func (st *state) connRow(f [][]byte) bool {
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
func (st *state) pctRow(f [][]byte, ln int) bool {
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
func (st *state) other(s []byte, f [][]byte, ln int) error {
	if st.Active && st.run.progressOrAbort(s, f, ln) {
		return nil
	}
	i := core.FindCommand(s, isABExe)
	if i < 0 {
		return nil
	}
	c, ok := parseABCommand(string(s[i:]), ln)
	if !ok {
		return nil
	}
	if st.Active && st.run.keys&(abKeyComplete|abKeyTime) != 0 {
		if err := st.close(); err != nil {
			return err
		}
	}
	st.pending = c
	return nil
}

// progressOrAbort reads a progress line of the run ("Completed 100
// requests", "Total of 1234 requests completed" after an abort) or the
// message of an abort; false for other lines.
func (r *run) progressOrAbort(s []byte, f [][]byte, ln int) bool {
	switch string(f[0]) {
	case "Completed", "Finished":
		if len(f) == 3 && string(f[2]) == "requests" {
			if _, ok := core.ParseUint(f[1]); ok {
				r.lastLine = ln
				return true
			}
		}
	case "Total":
		if len(f) == 5 && string(f[1]) == "of" && string(f[3]) == "requests" {
			r.lastLine = ln
			return true
		}
	}
	if bytes.HasPrefix(s, []byte("apr_")) || bytes.HasPrefix(s, []byte("SSL read failed")) ||
		bytes.HasPrefix(s, []byte("ab: ")) || bytes.HasPrefix(s, []byte("Test aborted")) {
		if r.aborted == "" && r.keys&abKeyComplete == 0 {
			r.aborted, r.abortLine = string(s), ln
		}
		return true
	}
	return false
}

func (r *run) malformed(ln int, s string) {
	if r.bad == "" {
		r.bad, r.badLine = strconv.Quote(s), ln
	}
}

// start begins a run.
func (st *state) start(ln int) {
	st.Active = true
	st.run = run{startLine: ln, lastLine: ln, pcts: st.run.pcts[:0]}
}

// close ends the current run, emitting it when it has its report.
func (st *state) close() error {
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
func (r *run) target() string {
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
func (st *state) build() results.RunWithPercentiles {
	r := &st.run
	out := results.RunWithPercentiles{Run: results.Run{
		Tool: "ab", LoadModel: results.LoadClosed, Target: r.target(), DurationS: r.timeS,
		Requests: r.complete, SourceLine: int32(r.startLine),
	}, Percentiles: []results.Percentile{}}
	r.settings(&out)
	notes := r.errors(&out)
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
	notes = append(notes, r.latency(&out)...)
	core.AddPercentiles(&out, r.pcts)
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return out
}

// settings sets the connections (the report's, else -c), the command,
// the time limit and the timeout.
func (r *run) settings(out *results.RunWithPercentiles) {
	if r.keys&abKeyConcurrency != 0 && r.conc <= 1<<31-1 {
		out.Connections = results.Ptr(int32(r.conc))
	}
	c := r.cmd
	if c == nil {
		return
	}
	out.Command = results.Ptr(c.raw)
	if c.timeLimit > 0 {
		out.PlannedDurationS = results.Ptr(c.timeLimit)
	}
	out.TimeoutS = results.Ptr(c.timeout)
	if out.Connections == nil && c.conc > 0 {
		out.Connections = results.Ptr(int32(c.conc))
	}
}

// errors sets the errors: from the breakdown of the failed requests
// (Length failures are no errors), else all failed requests, plus the
// non-2xx responses.
func (r *run) errors(out *results.RunWithPercentiles) (notes []string) {
	if r.keys&abKeyFailed == 0 {
		return []string{"no Failed requests line: errors not known"}
	}
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
	return notes
}

// latency sets the latency from the Total row of Connection Times (whole
// ms), else the mean from ab's Time per request.
func (r *run) latency(out *results.RunWithPercentiles) (notes []string) {
	if r.hasTotal {
		out.LatMinMs, out.LatMeanMs, out.LatMaxMs = results.Ptr(r.total[0]), results.Ptr(r.total[1]), results.Ptr(r.total[4])
		if r.total[2] >= 0 {
			out.LatStdevMs = results.Ptr(r.total[2])
		}
		if len(r.pcts) == 0 && r.total[3] >= 0 {
			out.LatP50Ms = results.Ptr(r.total[3])
			out.Percentiles = append(out.Percentiles, results.Percentile{Quantile: 0.5, LatencyMs: r.total[3]})
		}
		return nil
	}
	if r.keys&abKeyTPR != 0 && r.complete > 0 {
		out.LatMeanMs = results.Ptr(r.tpr)
		return []string{"no Connection Times table: lat_mean_ms is ab's Time per request (concurrency × time taken / requests)"}
	}
	return nil
}

// command is an ab command line found before a report.
type command struct {
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
func parseABCommand(s string, line int) (*command, bool) {
	s = strings.TrimSpace(s)
	c := &command{raw: s, line: line, timeout: 30}
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

func (c *command) option(o byte, val string) {
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
