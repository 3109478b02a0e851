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

// ghzJSONOptions are the options of a ghz report.
type ghzJSONOptions struct {
	Host        string   `json:"host"`
	Call        string   `json:"call"`
	Concurrency *int64   `json:"concurrency"`
	RPS         *float64 `json:"rps"`
	Timeout     *int64   `json:"timeout"`
	Total       *int64   `json:"total"`
}

// ghzDetail is one call of a report's details.
type ghzDetail struct {
	Timestamp time.Time `json:"timestamp"`
	Latency   int64     `json:"latency"`
	Error     string    `json:"error"`
	Status    string    `json:"status"`
}

// ghzReport is a ghz JSON report without its details.
type ghzReport struct {
	Date                   *time.Time       `json:"date"`
	Options                ghzJSONOptions   `json:"options"`
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
	lc := &core.LineCounter{R: g}
	dec := json.NewDecoder(lc)
	g.Consumed = dec.InputOffset
	syntax := func(err error) error {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		line := lc.LineAt(dec.InputOffset())
		switch {
		case errors.Is(err, core.ErrInput):
			return err // the guard's, or a decompressor's under it
		case errors.As(err, &se):
		case errors.As(err, &te):
		case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		case err != nil:
			return fmt.Errorf("%s: %w", opts.Source, err)
		}
		return &core.SyntaxError{File: opts.Source, Line: line, Msg: "ghz JSON: " + err.Error()}
	}
	tok, err := dec.Token()
	if err == io.EOF {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"ghz-json"}}
	}
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
		if err == nil {
			return &core.SyntaxError{File: opts.Source, Line: lc.LineAt(dec.InputOffset()), Msg: "ghz JSON: not a JSON object"}
		}
		return syntax(err)
	}
	// The summary's keys come first; they are kept in a small object and
	// the details, when they come, are streamed one call at a time.
	var rep ghzReport
	fields := map[string]json.RawMessage{}
	var a *requests.Requests
	h, calls := -1, 0
	for dec.More() {
		if err := ctx.Err(); err != nil {
			return err
		}
		kt, err := dec.Token()
		if err != nil {
			return syntax(err)
		}
		key, _ := kt.(string)
		if key != "details" {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return syntax(err)
			}
			if len(fields) < 64 {
				fields[key] = raw
			}
			continue
		}
		if err := ghzUnmarshal(fields, &rep); err != nil {
			return &core.SyntaxError{File: opts.Source, Line: lc.LineAt(dec.InputOffset()), Msg: "ghz JSON: " + err.Error()}
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			if err == nil {
				if t == nil {
					continue // "details": null
				}
				return &core.SyntaxError{File: opts.Source, Line: lc.LineAt(dec.InputOffset()), Msg: `ghz JSON: "details" is not a list`}
			}
			return syntax(err)
		}
		a = requests.NewRequests(opts, sink)
		for dec.More() {
			if err := core.CheckCtx(ctx, calls); err != nil {
				return err
			}
			line := lc.LineAt(dec.InputOffset())
			var d ghzDetail
			if err := dec.Decode(&d); err != nil {
				var te *json.UnmarshalTypeError
				var pe *time.ParseError
				if errors.As(err, &te) || errors.As(err, &pe) {
					a.Bad(line, err.Error()) // a call whose fields do not fit
					continue
				}
				return syntax(err)
			}
			calls++
			if h < 0 {
				h = a.Run("", rep.meta())
			}
			req := requests.Request{Start: d.Timestamp.UnixNano(), LatencyMs: float64(d.Latency) / 1e6}
			if d.Status != "OK" {
				req.Error = strings.TrimSpace(d.Status + ": " + d.Error)
			}
			if err := a.Add(h, line, req); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return syntax(err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return syntax(err)
	}
	if a != nil && calls > 0 {
		return a.Close()
	}
	if err := ghzUnmarshal(fields, &rep); err != nil {
		return &core.SyntaxError{File: opts.Source, Line: 1, Msg: "ghz JSON: " + err.Error()}
	}
	out, err := rep.run()
	if err != nil {
		return &core.SyntaxError{File: opts.Source, Line: 1, Msg: "ghz JSON: " + err.Error()}
	}
	lab := core.Labeler{Labels: opts.Labels}
	core.FillCommon(&out, opts, 0, &lab)
	return sink.Run(out)
}

// ghzUnmarshal decodes the summary's fields into rep.
func ghzUnmarshal(fields map[string]json.RawMessage, rep *ghzReport) error {
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
func (rep *ghzReport) meta() requests.RequestRun {
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
func (rep *ghzReport) run() (results.RunWithPercentiles, error) {
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
