package gatling

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// LogParser ("gatling-log") reads simulation.log, the per-request log of Gatling 2.x
// and 3.x up to 3.9 (3.10 and later write a binary log, not read here):
// tab-separated RUN, USER, REQUEST, GROUP, ERROR and ASSERTION records,
// whose columns differ by version (layout: docs/FORMATS.md).
//
// Each RUN line starts a run; its REQUEST records stream into samples
// and series through the Requests aggregator: latency is end - start
// (whole milliseconds), t_s counts from the earliest start. Gatling logs
// no HTTP status, size nor target: a KO (a failed check, or no response)
// is an error with its message, non2xx and bytes stay null, and the run
// is labelled after its file. The most users active at once (USER START
// and END records) is the run's connections. The load model is open, as
// noted: the log does not tell a concurrent-users (closed) profile.
type LogParser struct{}

// Name returns "gatling-log".
func (LogParser) Name() string { return "gatling-log" }

// Detect reports whether head starts with a text simulation.log: a RUN
// record (after any ASSERTION records) followed by a known record.
func (LogParser) Detect(head []byte) bool {
	run := false
	for n, line := range core.HeadLines(bytes.TrimPrefix(head, core.UTF8BOM)) {
		if n > 64 {
			break
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
			if _, ok := core.ParseUint(f[3]); !ok {
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

// users tracks the users active at once in a run.
type users struct {
	active, max int64
}

// Parse streams the requests of r to sink, one run per RUN record.
func (LogParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	x := &log{a: requests.NewRequests(opts, sink)}
	err := core.EachLine(ctx, r, opts.Source, func(b []byte, ln int) error {
		b = bytes.TrimRight(b, "\r")
		if len(b) == 0 {
			return nil
		}
		return x.record(bytes.Split(b, []byte("\t")), ln)
	})
	if err != nil {
		return err
	}
	if x.runs == 0 {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"gatling-log"}}
	}
	a := x.a
	for h, run := range x.usersOf {
		if u := x.users[run]; u.max > 0 {
			a.Meta(h).Connections = results.Ptr(int32(min(u.max, math.MaxInt32)))
		}
	}
	if x.errors > 0 && a.Runs() > 0 {
		m := a.Meta(a.Runs() - 1)
		m.Notes = append(m.Notes, fmt.Sprintf("%d ERROR records (errors outside requests)", x.errors))
	}
	return a.Close()
}

// log is a simulation log being read: the runs (RUN records) so
// far, the users of each, and the RUN record of each run of requests (one
// per record and request name).
type log struct {
	a       *requests.Requests
	runs    int
	meta    requests.RequestRun
	users   []users
	usersOf []int
	errors  int64
}

// record reads one record of fields f.
func (x *log) record(f [][]byte, ln int) error {
	a := x.a
	switch string(f[0]) {
	case "RUN":
		x.run(f, ln)
	case "REQUEST":
		if x.runs == 0 {
			a.Bad(ln, "REQUEST before the RUN record")
			return nil
		}
		return x.request(f, ln)
	case "USER":
		x.user(f, ln)
	case "ERROR":
		x.errors++
		a.Good()
	case "GROUP", "ASSERTION":
		a.Good()
	default:
		a.Bad(ln, fmt.Sprintf("unknown record %q", truncate(string(f[0]), 40)))
	}
	return nil
}

// run reads a RUN record, which starts a run.
func (x *log) run(f [][]byte, ln int) {
	if len(f) < 5 {
		x.a.Bad(ln, "RUN record of "+strconv.Itoa(len(f))+" fields")
		return
	}
	x.a.Good()
	x.runs++
	x.meta = requests.RequestRun{Tool: "gatling", LoadModel: results.LoadOpen, UnixTime: true, NoHTTPStatus: true, NoBytes: true,
		Notes: []string{"simulation " + string(f[1]),
			"load model taken as open: Gatling's injection profiles are, unless concurrent-users ones were used (the log does not tell)"}}
	if v := string(f[len(f)-1]); v != "" {
		x.meta.Notes = append(x.meta.Notes, "Gatling "+strings.TrimSpace(v))
	}
	x.users = append(x.users, users{})
}

// request reads a REQUEST record into the run of its name.
func (x *log) request(f [][]byte, ln int) error {
	req, name, bad := request(f)
	if bad != "" {
		x.a.Bad(ln, bad)
		return nil
	}
	m := x.meta
	m.Notes = slices.Clone(x.meta.Notes)
	m.Endpoint = name
	h := x.a.Run("run#"+strconv.Itoa(x.runs)+"\x00"+name, m)
	if h == len(x.usersOf) {
		x.usersOf = append(x.usersOf, x.runs-1)
	}
	return x.a.Add(h, ln, req)
}

// user reads a USER record: a user started or ended.
func (x *log) user(f [][]byte, ln int) {
	if x.runs == 0 {
		x.a.Bad(ln, "USER before the RUN record")
		return
	}
	if len(f) < 3 {
		x.a.Bad(ln, "USER record of "+strconv.Itoa(len(f))+" fields")
		return
	}
	x.a.Good()
	u := &x.users[len(x.users)-1]
	for _, tok := range f[2:] {
		switch string(tok) {
		case "START":
			u.active++
			u.max = max(u.max, u.active)
		case "END":
			u.active--
		}
	}
}

// truncate shortens s to n bytes.
func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// request reads a REQUEST record: the status (OK or KO) is the
// first such field after the name; the timestamps between the name and
// the status are its start (the first) and end (the last).
func request(f [][]byte) (req requests.Request, name, bad string) {
	k := -1
	for i := 3; i < len(f); i++ {
		if s := string(f[i]); s == "OK" || s == "KO" {
			k = i
			break
		}
	}
	if k < 0 {
		return req, "", "REQUEST record without OK or KO"
	}
	// Timestamps: the run of numeric fields before the status.
	j := k
	for j > 1 {
		if _, ok := core.ParseUint(f[j-1]); !ok {
			break
		}
		j--
	}
	if k-j < 2 || j < 2 {
		return req, "", "REQUEST record without its start and end times"
	}
	start, _ := core.ParseUint(f[j])
	end, _ := core.ParseUint(f[k-1])
	if end < start || start > math.MaxInt64/1_000_000 {
		return req, "", fmt.Sprintf("REQUEST ends (%d) before it starts (%d)", end, start)
	}
	req = requests.Request{Start: start * 1e6, LatencyMs: float64(end - start)}
	if string(f[k]) == "KO" {
		msg := ""
		if k+1 < len(f) {
			msg = strings.TrimSpace(string(f[k+1]))
		}
		req.Error = "KO " + msg
		req.Error = strings.TrimSpace(req.Error)
	}
	// Capped with a hash: two long names stay two endpoints.
	name, _ = core.CapText(string(f[j-1]))
	return req, name, ""
}
