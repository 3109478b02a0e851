package ghz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// JSONParser ("ghz-json") reads ghz's JSON output; ghz.go describes both formats.
type JSONParser struct{}

// Name returns "ghz-json".
func (JSONParser) Name() string { return "ghz-json" }

// Detect reports whether head starts with ghz's JSON report.
func (JSONParser) Detect(head []byte) bool {
	head = core.JSONHead(head)
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	probe := head[:min(len(head), 16<<10)]
	for _, k := range []string{`"statusCodeDistribution"`, `"latencyDistribution"`, `"options"`, `"average"`} {
		if !bytes.Contains(probe, []byte(k)) {
			return false
		}
	}
	return true
}

// jsonOptions are the options of a ghz report.
type jsonOptions struct {
	Host        string   `json:"host"`
	Call        string   `json:"call"`
	Concurrency *int64   `json:"concurrency"`
	RPS         *float64 `json:"rps"`
	Timeout     *int64   `json:"timeout"`
	Total       *int64   `json:"total"`
}

// detail is one call of a report's details.
type detail struct {
	Timestamp time.Time `json:"timestamp"`
	Latency   int64     `json:"latency"`
	Error     string    `json:"error"`
	Status    string    `json:"status"`
}

// report is a ghz JSON report without its details.
type report struct {
	Date                   *time.Time       `json:"date"`
	Options                jsonOptions      `json:"options"`
	Count                  *int64           `json:"count"`
	Total                  *int64           `json:"total"`
	Average                *int64           `json:"average"`
	Fastest                *int64           `json:"fastest"`
	Slowest                *int64           `json:"slowest"`
	RPS                    *float64         `json:"rps"`
	StatusCodeDistribution map[string]int64 `json:"statusCodeDistribution"`
	LatencyDistribution    []struct {
		Percentage float64 `json:"percentage"`
		Latency    int64   `json:"latency"`
	} `json:"latencyDistribution"`
}

// Parse streams the report of r to sink: its calls, when it lists them,
// else its summary.
func (JSONParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	g := core.NewJSONGuard(r, opts.Source, core.MaxJSONValue)
	x := &jsonFile{lc: &core.LineCounter{R: g}, opts: opts, sink: sink, fields: map[string]json.RawMessage{}, h: -1}
	x.dec = json.NewDecoder(x.lc)
	g.Consumed = x.dec.InputOffset
	tok, err := x.dec.Token()
	if err == io.EOF {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"ghz-json"}}
	}
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
		if err == nil {
			return x.syntaxAt("not a JSON object")
		}
		return x.syntax(err)
	}
	// The summary's keys come first; they are kept in a small object and
	// the details, when they come, are streamed one call at a time.
	for x.dec.More() {
		if err := ctx.Err(); err != nil {
			return err
		}
		kt, err := x.dec.Token()
		if err != nil {
			return x.syntax(err)
		}
		if key, _ := kt.(string); key != "details" {
			err = x.keep(key)
		} else {
			err = x.details(ctx)
		}
		if err != nil {
			return err
		}
	}
	if _, err := x.dec.Token(); err != nil {
		return x.syntax(err)
	}
	if x.a != nil && x.calls > 0 {
		return x.a.Close()
	}
	return x.summary()
}

// jsonFile is a ghz JSON report being read: the summary's fields so far,
// and the requests of its details.
type jsonFile struct {
	dec      *json.Decoder
	lc       *core.LineCounter
	opts     core.Options
	sink     core.Sink
	rep      report
	fields   map[string]json.RawMessage
	a        *requests.Requests
	h, calls int
}

// syntax turns a decoding error into the error to return: the input's
// (a *SyntaxError) unless the reader failed.
func (x *jsonFile) syntax(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, core.ErrInput):
		return err // the guard's, or a decompressor's under it
	case errors.As(err, &se):
	case errors.As(err, &te):
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
	case err != nil:
		return fmt.Errorf("%s: %w", x.opts.Source, err)
	}
	return x.syntaxAt(err.Error())
}

// syntaxAt reports what is wrong at the current line.
func (x *jsonFile) syntaxAt(msg string) error {
	return &core.SyntaxError{File: x.opts.Source, Line: x.lc.LineAt(x.dec.InputOffset()), Msg: "ghz JSON: " + msg}
}

// keep keeps a field of the summary (at most 64).
func (x *jsonFile) keep(key string) error {
	var raw json.RawMessage
	if err := x.dec.Decode(&raw); err != nil {
		return x.syntax(err)
	}
	if len(x.fields) < 64 {
		x.fields[key] = raw
	}
	return nil
}

// details streams the calls of "details" (null: none) as requests.
func (x *jsonFile) details(ctx context.Context) error {
	if err := unmarshal(x.fields, &x.rep); err != nil {
		return x.syntaxAt(err.Error())
	}
	if t, err := x.dec.Token(); err != nil || t != json.Delim('[') {
		if err != nil {
			return x.syntax(err)
		}
		if t == nil {
			return nil // "details": null
		}
		return x.syntaxAt(`"details" is not a list`)
	}
	x.a = requests.NewRequests(x.opts, x.sink)
	for x.dec.More() {
		if err := core.CheckCtx(ctx, x.calls); err != nil {
			return err
		}
		if err := x.call(); err != nil {
			return err
		}
	}
	if _, err := x.dec.Token(); err != nil {
		return x.syntax(err)
	}
	return nil
}

// call reads one call; one whose fields do not fit is a bad record.
func (x *jsonFile) call() error {
	line := x.lc.LineAt(x.dec.InputOffset())
	var d detail
	if err := x.dec.Decode(&d); err != nil {
		var te *json.UnmarshalTypeError
		var pe *time.ParseError
		if errors.As(err, &te) || errors.As(err, &pe) {
			x.a.Bad(line, err.Error())
			return nil
		}
		return x.syntax(err)
	}
	x.calls++
	if x.h < 0 {
		x.h = x.a.Run("", x.rep.meta())
	}
	req := requests.Request{Start: d.Timestamp.UnixNano(), LatencyMs: float64(d.Latency) / 1e6}
	if d.Status != "OK" {
		req.Error = strings.TrimSpace(d.Status + ": " + d.Error)
	}
	return x.a.Add(x.h, line, req)
}

// summary sends the run of the summary, for a report without calls.
func (x *jsonFile) summary() error {
	if err := unmarshal(x.fields, &x.rep); err != nil {
		return &core.SyntaxError{File: x.opts.Source, Line: 1, Msg: "ghz JSON: " + err.Error()}
	}
	out, err := x.rep.run()
	if err != nil {
		return &core.SyntaxError{File: x.opts.Source, Line: 1, Msg: "ghz JSON: " + err.Error()}
	}
	lab := core.Labeler{Labels: x.opts.Labels}
	core.FillCommon(&out, x.opts, 0, &lab)
	return x.sink.Run(out)
}

// unmarshal decodes the summary's fields into rep.
func unmarshal(fields map[string]json.RawMessage, rep *report) error {
	b, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, rep); err != nil {
		return err
	}
	if rep.Count == nil || rep.Total == nil || rep.RPS == nil || rep.Options.Host == "" && rep.Options.Call == "" {
		return errors.New(`report without "count", "total", "rps" or "options"`)
	}
	for _, p := range []*int64{rep.Count, rep.Total, rep.Average, rep.Fastest, rep.Slowest, rep.Options.Concurrency, rep.Options.Timeout} {
		if p != nil && *p < 0 {
			return fmt.Errorf("negative value %d", *p)
		}
	}
	if !core.Finite(*rep.RPS) {
		return fmt.Errorf("rps %v", *rep.RPS)
	}
	return nil
}

// meta is what the report's summary says of the run its details make.
func (rep *report) meta() requests.RequestRun {
	m := requests.RequestRun{Tool: "ghz", LoadModel: results.LoadClosed, Target: rep.Options.Host, UnixTime: true,
		NoHTTPStatus: true, NoBytes: true}
	if c := rep.Options.Concurrency; c != nil && *c > 0 {
		m.Connections = results.Ptr(int32(min(*c, math.MaxInt32)))
	}
	if r := rep.Options.RPS; r != nil && *r > 0 && core.Finite(*r) {
		m.TargetRPS = results.Ptr(*r)
		m.Notes = append(m.Notes, "--rps limits the rate of the workers, which wait for each response")
	}
	m.Notes = append(m.Notes, fmt.Sprintf("ghz's own summary: count %d, rps %g", *rep.Count, *rep.RPS))
	if rep.Options.Call != "" {
		m.Notes = append(m.Notes, "call "+rep.Options.Call)
	}
	return m
}

// run makes the run of a report without details.
func (rep *report) run() (results.RunWithPercentiles, error) {
	out := results.RunWithPercentiles{Run: results.Run{Tool: "ghz", LoadModel: results.LoadClosed, Target: rep.Options.Host,
		DurationS: float64(*rep.Total) / 1e9, RPS: *rep.RPS, Requests: *rep.Count, SourceLine: 1}, Percentiles: []results.Percentile{}}
	m := rep.meta()
	out.Connections, out.TargetRPS = m.Connections, m.TargetRPS
	if rep.Date != nil {
		t := rep.Date.UTC()
		out.StartedAt = &t
	}
	var ok, failed, deadlines int64
	for k, n := range rep.StatusCodeDistribution {
		if n < 0 {
			return out, fmt.Errorf("status %q: %d", k, n)
		}
		switch k {
		case "OK":
			ok = core.AddSat(ok, n)
		case "DeadlineExceeded":
			deadlines = core.AddSat(deadlines, n)
			failed = core.AddSat(failed, n)
		default:
			failed = core.AddSat(failed, n)
		}
	}
	out.Errors, out.Timeouts = failed, results.Ptr(deadlines)
	if ok > 0 {
		ns := func(p *int64) *float64 {
			if p == nil {
				return nil
			}
			return results.Ptr(float64(*p) / 1e6)
		}
		out.LatMeanMs, out.LatMinMs, out.LatMaxMs = ns(rep.Average), ns(rep.Fastest), ns(rep.Slowest)
		var pcts []results.Percentile
		for _, p := range rep.LatencyDistribution {
			q := core.ShiftDec(p.Percentage, -2)
			if !(q >= 0 && q <= 1) || p.Latency < 0 {
				return out, fmt.Errorf("latency distribution %v: %d", p.Percentage, p.Latency)
			}
			pcts = append(pcts, results.Percentile{Quantile: q, LatencyMs: float64(p.Latency) / 1e6})
		}
		core.SortPercentiles(pcts)
		core.AddPercentiles(&out, pcts)
	}
	var notes []string
	if out.TargetRPS != nil {
		notes = append(notes, "--rps limits the rate of the workers, which wait for each response")
	}
	if ok == 0 && out.Requests > 0 {
		notes = append(notes, "no call succeeded: ghz's latency figures (over successful calls) left out")
	}
	if rep.Options.Call != "" {
		notes = append(notes, "call "+rep.Options.Call)
	}
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return out, nil
}
