package siege

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// The siege parsers read the summary of siege (github.com/JoeDog/siege):
// "siege" the text on stderr, anywhere in a file (layout: docs/FORMATS.md).
//
// siege counts each request either as a transaction (a hit) or as a
// failed transaction (a socket failure, or a status siege counts as a
// failure, such as 5xx): requests are their sum, errors the failed ones,
// which Availability (transactions / requests) confirms. Response time
// is the mean latency; Longest and Shortest transaction the max and min;
// all are in seconds with two decimals (0.00 for sub-10 ms latencies,
// which the notes say). Data is binary MB (1 MB = 1024 × 1024 B). The
// Transaction rate is rps. The per-request lines of -v are skipped.
//
// "siege-json" reads the same summary as JSON (siege -j, or
// json_output = true in siege.conf, the default of Debian's template).
type Parser struct{}

// Name returns "siege".
func (Parser) Name() string { return "siege" }

// summary holds the twelve figures of a summary, as printed.
type summary struct {
	transactions, successful, failed int64
	availability, elapsedS, dataMB   float64
	respS, rate, tputMB, concurrency float64
	longestS, shortestS              float64
}

// siegeKeys are the summary's lines in order; bit i of run.keys is
// set when line i was read.
var siegeKeys = []string{"Transactions:", "Availability:", "Elapsed time:", "Data transferred:", "Response time:",
	"Transaction rate:", "Throughput:", "Concurrency:", "Successful transactions:", "Failed transactions:",
	"Longest transaction:", "Shortest transaction:"}

// siegeUnits are the units after each value ("" for none).
var siegeUnits = []string{"hits", "%", "secs", "MB", "secs", "trans/sec", "MB/sec", "", "", "", "", ""}

// command is a siege command line.
type command struct {
	raw, url string
	line     int
	users    int64
	plannedS float64
	reps     int64
}

// state is the text parser's state over one input.
type state struct {
	core.RunState
	start    int
	last     int
	keys     uint16
	sum      summary
	cmd      *command
	users    int64 // from "Preparing N concurrent users"
	pending  *command
	pendUser int64
	prepLine int
	bad      string
	badLine  int
}

// Detect reports whether head holds a siege summary: its Transactions,
// Availability and Elapsed time lines in a row.
func (Parser) Detect(head []byte) bool {
	st := &state{RunState: core.RunState{Detect: true}}
	core.ScanHead(head, st.line, func() bool { return st.Found })
	return st.Found
}

// Parse streams the siege runs of r to sink in input order.
func (Parser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	st := &state{RunState: core.RunState{Opts: opts, Sink: sink, Lab: core.Labeler{Labels: opts.Labels}}}
	return core.ParseLines(ctx, r, opts, "siege", st.line, st.close, func() int { return st.Index })
}

// isSiegeExe reports whether tok names the siege program.
func isSiegeExe(tok []byte) bool { return core.ExeNamed(tok, "siege") }

// key returns the index of the summary line s starts with, and the
// rest of the line; -1 when none.
func key(s []byte) (int, []byte) {
	for i, k := range siegeKeys {
		if bytes.HasPrefix(s, []byte(k)) {
			return i, core.TrimLeft(s[len(k):])
		}
	}
	return -1, nil
}

// line handles one input line.
func (st *state) line(b []byte, ln int) error {
	s := core.Normalize(b)
	if len(s) == 0 {
		return nil
	}
	k, rest := key(s)
	if k < 0 {
		if st.Active {
			if err := st.close(); err != nil {
				return err
			}
		}
		st.other(s, ln)
		return nil
	}
	if k == 0 {
		if err := st.close(); err != nil {
			return err
		}
		st.Active, st.start, st.keys, st.sum = true, ln, 0, summary{}
		st.cmd, st.users = st.pending, st.pendUser
		if st.prepLine > 0 {
			st.start = st.prepLine
		}
		if st.cmd != nil {
			st.start = st.cmd.line
		}
		st.pending, st.pendUser, st.prepLine = nil, 0, 0
	}
	if !st.Active {
		return nil
	}
	if st.keys&(1<<k) != 0 || k > 0 && st.keys&(1<<(k-1)) == 0 {
		// A line out of order: the summary ends before it.
		return st.close()
	}
	st.last = ln
	v, ok := value(rest, siegeUnits[k])
	if !ok {
		if st.bad == "" {
			st.bad, st.badLine = fmt.Sprintf("%s %q", siegeKeys[k], rest), ln
		}
		return nil
	}
	st.keys |= 1 << k
	st.set(k, v)
	if st.Detect && k == 2 {
		st.Found = true
	}
	if k == len(siegeKeys)-1 {
		return st.close()
	}
	return nil
}

// value parses "27158 hits", "100.00 %", "1.39 secs", "3.73".
func value(rest []byte, unit string) (float64, bool) {
	var buf [3][]byte
	f := core.Fields(rest, buf[:0])
	if unit == "" && len(f) != 1 || unit != "" && (len(f) != 2 || string(f[1]) != unit) {
		return 0, false
	}
	return core.ParseDec(f[0], 0)
}

// set stores the value of summary line k.
func (st *state) set(k int, v float64) {
	s := &st.sum
	n, _ := core.ToInt64(v)
	switch k {
	case 0:
		s.transactions = n
	case 1:
		s.availability = v
	case 2:
		s.elapsedS = v
	case 3:
		s.dataMB = v
	case 4:
		s.respS = v
	case 5:
		s.rate = v
	case 6:
		s.tputMB = v
	case 7:
		s.concurrency = v
	case 8:
		s.successful = n
	case 9:
		s.failed = n
	case 10:
		s.longestS = v
	case 11:
		s.shortestS = v
	}
}

// other reads a line outside a summary: a command line or siege's banner.
func (st *state) other(s []byte, ln int) {
	if i := core.FindCommand(s, isSiegeExe); i >= 0 {
		if c, ok := parseSiegeCommand(string(s[i:]), ln); ok {
			st.pending, st.pendUser, st.prepLine = c, 0, 0
		}
		return
	}
	// ** Preparing 4 concurrent users for battle.
	if bytes.HasPrefix(s, []byte("** Preparing ")) {
		var buf [8][]byte
		f := core.Fields(s, buf[:0])
		if len(f) >= 5 && string(f[3]) == "concurrent" {
			if n, ok := core.ParseUint(f[2]); ok {
				st.pendUser = n
				if st.pending == nil {
					st.prepLine = ln
				}
			}
		}
	}
}

// close ends the current summary, emitting it when complete.
func (st *state) close() error {
	if !st.Active {
		return nil
	}
	st.Active = false
	if st.Detect {
		return nil
	}
	if st.bad != "" {
		msg := "siege: malformed " + st.bad
		st.bad = ""
		return &core.SyntaxError{File: st.Opts.Source, Line: st.badLine, Msg: msg}
	}
	if st.keys != 1<<len(siegeKeys)-1 {
		return &core.SyntaxError{File: st.Opts.Source, Line: st.last,
			Msg: "siege summary cut off before its Shortest transaction line (cut paste?)"}
	}
	out := run(&st.sum, st.cmd, st.users, st.start)
	return st.Emit(out)
}

// run converts a summary.
func run(s *summary, cmd *command, users int64, startLine int) results.RunWithPercentiles {
	var notes []string
	out := results.RunWithPercentiles{Run: results.Run{
		Tool: "siege", LoadModel: results.LoadClosed, DurationS: s.elapsedS, RPS: s.rate,
		SourceLine: int32(min(startLine, math.MaxInt32)),
	}, Percentiles: []results.Percentile{}}
	out.Requests = core.AddSat(s.transactions, s.failed)
	out.Errors = s.failed
	if out.Requests > 0 {
		if a := 100 * float64(s.transactions) / float64(out.Requests); math.Abs(a-s.availability) > 0.01 {
			notes = append(notes, fmt.Sprintf("availability %.2f %% disagrees with transactions / (transactions + failed) = %.2f %%", s.availability, a))
		}
	}
	if s.successful != s.transactions {
		notes = append(notes, fmt.Sprintf("%d successful of %d transactions", s.successful, s.transactions))
	}
	out.BytesIn = results.Ptr(int64(math.Round(s.dataMB * (1 << 20))))
	out.TransferBPS = results.Ptr(s.tputMB * (1 << 20))
	if s.transactions > 0 {
		out.LatMeanMs = results.Ptr(s.respS * 1000)
		out.LatMaxMs = results.Ptr(s.longestS * 1000)
		out.LatMinMs = results.Ptr(s.shortestS * 1000)
		notes = append(notes, "siege prints times in seconds with two decimals: latencies are multiples of 10 ms")
	}
	notes = append(notes, fmt.Sprintf("bytes from %.2f MB (two decimals)", s.dataMB),
		fmt.Sprintf("concurrency (mean simultaneous connections) %g", s.concurrency))
	if users > 0 {
		out.Connections = results.Ptr(int32(min(users, math.MaxInt32)))
	}
	if cmd != nil {
		out.Target = cmd.url
		out.Command = results.Ptr(cmd.raw)
		if out.Connections == nil && cmd.users > 0 {
			out.Connections = results.Ptr(int32(min(cmd.users, math.MaxInt32)))
		}
		if cmd.plannedS > 0 {
			out.PlannedDurationS = results.Ptr(cmd.plannedS)
		}
	}
	out.Notes = results.Ptr(strings.Join(notes, "; "))
	return out
}

// siegeArgOpts are siege's options that take a value.
var siegeArgOpts = map[string]bool{"c": true, "concurrent": true, "r": true, "reps": true, "t": true, "time": true,
	"d": true, "delay": true, "f": true, "file": true, "R": true, "rc": true, "l": true, "log": true, "m": true, "mark": true,
	"H": true, "header": true, "A": true, "user-agent": true, "T": true, "content-type": true}

// parseSiegeCommand parses a siege command line.
func parseSiegeCommand(s string, line int) (*command, bool) {
	s = strings.TrimSpace(s)
	c := &command{raw: s, line: line}
	args := core.ShellWords(s)
	core.EachOption(args, siegeArgOpts, func(name, val string) {
		switch name {
		case "c", "concurrent":
			if n, err := strconv.ParseInt(val, 10, 32); err == nil && n > 0 {
				c.users = n
			}
		case "r", "reps":
			if n, err := strconv.ParseInt(val, 10, 64); err == nil && n > 0 {
				c.reps = n
			}
		case "t", "time":
			// 30S, 5M, 1H (case-insensitive)
			if d, ok := core.DurationS([]byte(strings.ToUpper(val)), 60); ok && d > 0 {
				c.plannedS = d
			}
		}
	}, func(a string) {
		switch {
		case c.url != "":
		case strings.Contains(a, "://"):
			c.url = a
		default:
			// siege takes a URL without its scheme as http (siege host.example.com)
			if u, err := url.Parse("http://" + a); err == nil && u.Host != "" && !strings.ContainsAny(a, " \\") &&
				(strings.ContainsAny(u.Host, ".:") || u.Hostname() == "localhost") {
				c.url = "http://" + a
			}
		}
	})
	return c, c.url != ""
}
