package vegeta

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// The JSON report of `vegeta report -type=json`: one object per report
// (several with -every), one line each or pretty-printed:
//
//	{"latencies":{"total":..,"mean":..,"50th":..,"90th":..,"95th":..,"99th":..,"max":..,"min":..},
//	 "bytes_in":{"total":..,"mean":..},"bytes_out":{..},"earliest":"..","latest":"..","end":"..",
//	 "duration":..,"wait":..,"requests":..,"rate":..,"throughput":..,"success":..,
//	 "status_codes":{"200":..},"errors":[..]}
//
// Durations are nanoseconds. Older versions wrote fewer keys (no min, 50th,
// 90th, rate, throughput, wait, earliest); what is absent stays null.
type ReportJSONParser struct{}

// Name returns "vegeta-report-json".
func (ReportJSONParser) Name() string { return "vegeta-report-json" }

// metrics is vegeta.Metrics as its JSON reporter writes it; pointers
// tell absent keys from zeros.
type metrics struct {
	Latencies *struct {
		Total *int64 `json:"total"`
		Mean  *int64 `json:"mean"`
		P50   *int64 `json:"50th"`
		P90   *int64 `json:"90th"`
		P95   *int64 `json:"95th"`
		P99   *int64 `json:"99th"`
		Max   *int64 `json:"max"`
		Min   *int64 `json:"min"`
	} `json:"latencies"`
	BytesIn *struct {
		Total *int64 `json:"total"`
	} `json:"bytes_in"`
	Earliest    *time.Time       `json:"earliest"`
	Duration    *int64           `json:"duration"`
	Wait        *int64           `json:"wait"`
	Requests    *int64           `json:"requests"`
	Rate        *float64         `json:"rate"`
	Throughput  *float64         `json:"throughput"`
	Success     *float64         `json:"success"`
	StatusCodes map[string]int64 `json:"status_codes"`
	Errors      []string         `json:"errors"`
}

// Detect reports whether head starts with a vegeta JSON report: an object
// with "latencies", "requests" and "status_codes" keys that decodes as one.
func (ReportJSONParser) Detect(head []byte) bool {
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF}), " \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	probe := head[:min(len(head), 64<<10)]
	for _, k := range []string{`"latencies"`, `"requests"`, `"status_codes"`} {
		if !bytes.Contains(probe, []byte(k)) {
			return false
		}
	}
	var m metrics
	dec := json.NewDecoder(bytes.NewReader(head))
	if err := dec.Decode(&m); err != nil {
		var se *json.SyntaxError
		// A report longer than head (a huge Error Set) is cut off.
		return errors.As(err, &se) && len(head) >= core.HeadSize-4 || errors.Is(err, io.ErrUnexpectedEOF) && len(head) >= core.HeadSize-4
	}
	return m.Latencies != nil && m.Requests != nil
}

// Parse streams the reports of r to sink.
func (ReportJSONParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	src := &core.TrackReader{R: r}
	g := core.NewJSONGuard(src, opts.Source, core.MaxJSONValue)
	lc := &core.LineCounter{R: g}
	dec := json.NewDecoder(lc)
	g.Consumed = dec.InputOffset
	lab := core.Labeler{Labels: opts.Labels}
	index := 0
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var raw json.RawMessage
		start := dec.InputOffset()
		err := dec.Decode(&raw)
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *json.SyntaxError
			line := lc.LineAt(start)
			if errors.As(err, &se) {
				line = lc.LineAt(se.Offset)
			}
			return core.DecodeError(src, opts.Source, line, "vegeta JSON report: ", err)
		}
		end := dec.InputOffset()
		startLine := lc.LineAt(end - int64(len(raw)))
		var m metrics
		if err := json.Unmarshal(raw, &m); err != nil {
			return &core.SyntaxError{File: opts.Source, Line: startLine, Msg: "vegeta JSON report: " + err.Error()}
		}
		run, err := m.run()
		if err != nil {
			return &core.SyntaxError{File: opts.Source, Line: startLine, Msg: "vegeta JSON report: " + err.Error()}
		}
		run.SourceLine = int32(min(startLine, math.MaxInt32))
		core.FillCommon(&run, opts, index, &lab)
		index++
		if err := sink.Run(run); err != nil {
			return err
		}
		// Keep the counted bytes bounded.
		lc.LineAt(end)
	}
	if index == 0 {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"vegeta-report-json"}}
	}
	return nil
}

// run converts one report.
func (m *metrics) run() (results.RunWithPercentiles, error) {
	var out results.RunWithPercentiles
	if m.Requests == nil || m.Latencies == nil {
		return out, errors.New(`not a report: no "requests" or no "latencies"`)
	}
	out.Tool, out.LoadModel = "vegeta", results.LoadOpen
	if err := m.check(); err != nil {
		return out, err
	}
	out.Requests = *m.Requests
	if m.Duration != nil {
		d := *m.Duration
		if m.Wait != nil {
			d = core.AddSat(d, *m.Wait)
		}
		out.DurationS = float64(d) / 1e9
	}
	notes := m.rates(&out)
	if m.Earliest != nil && timeOK(*m.Earliest) && out.Requests > 0 {
		t := m.Earliest.UTC()
		out.StartedAt = &t
	}
	if m.BytesIn != nil && m.BytesIn.Total != nil {
		out.BytesIn = results.Ptr(*m.BytesIn.Total)
	}
	var es errorSet
	es.shown = m.Errors != nil
	for _, e := range m.Errors {
		es.add(e)
	}
	estimated, err := m.failures(&out, &es)
	if err != nil {
		return out, err
	}
	if estimated {
		notes = append(notes, "errors estimated from the success ratio")
	}
	lat, keys, err := m.latencies()
	if err != nil {
		return out, err
	}
	if out.Requests > 0 {
		latencies(&out, lat, keys)
	} else {
		out.Percentiles = []results.Percentile{}
	}
	if n := es.note(); n != "" {
		notes = append(notes, n)
	}
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return out, nil
}

// check rejects negative counts and durations and rates that are negative
// or not finite.
func (m *metrics) check() error {
	if *m.Requests < 0 {
		return fmt.Errorf("requests %d", *m.Requests)
	}
	for _, c := range []struct {
		name string
		p    *int64
	}{{"duration", m.Duration}, {"wait", m.Wait}} {
		if c.p != nil && *c.p < 0 {
			return fmt.Errorf("%s %d", c.name, *c.p)
		}
	}
	for _, c := range []struct {
		name string
		p    *float64
	}{{"rate", m.Rate}, {"throughput", m.Throughput}, {"success", m.Success}} {
		if c.p != nil && (!core.Finite(*c.p) || *c.p < 0) {
			return fmt.Errorf("%s %v", c.name, *c.p)
		}
	}
	if m.BytesIn != nil && m.BytesIn.Total != nil && *m.BytesIn.Total < 0 {
		return fmt.Errorf("bytes_in %d", *m.BytesIn.Total)
	}
	return nil
}

// rates sets the throughput (the successful rate, else the rate, else
// requests over duration), and the requested rate, which the report only
// gives as the measured one: the note says so.
func (m *metrics) rates(out *results.RunWithPercentiles) (notes []string) {
	switch {
	case m.Throughput != nil:
		out.RPS = *m.Throughput
	case m.Rate != nil:
		out.RPS = *m.Rate
	case out.DurationS > 0:
		out.RPS = float64(out.Requests) / out.DurationS
	}
	if m.Rate != nil {
		out.TargetRPS = results.Ptr(*m.Rate)
		out.SentRPS = results.Ptr(*m.Rate)
		notes = append(notes, fmt.Sprintf("requested rate %s %s measured rate (the report does not state -rate)", strconv.FormatFloat(*m.Rate, 'g', 6, 64), results.NoteRateInferred))
	}
	if m.Throughput != nil {
		out.SuccessRPS = results.Ptr(*m.Throughput)
	}
	return notes
}

// failures counts the failed requests from the status codes, or estimates
// them from the success ratio (estimated true).
func (m *metrics) failures(out *results.RunWithPercentiles, es *errorSet) (estimated bool, err error) {
	switch {
	case m.StatusCodes != nil:
		var c codes
		for code, n := range m.StatusCodes {
			v, err := strconv.ParseUint(code, 10, 16)
			if err != nil || n < 0 {
				return false, fmt.Errorf("status code %q: %d", code, n)
			}
			c.add(int64(v), n)
		}
		out.Errors = c.failed
		out.Non2xx = results.Ptr(c.non2xx)
		out.Timeouts = es.timeoutCount(c.transport, true)
	case m.Success != nil && *m.Success <= 1:
		out.Errors = int64(math.Round(float64(out.Requests) * (1 - *m.Success)))
		return true, nil
	}
	return false, nil
}

// latencies are the report's latencies in ms by key, and the keys given,
// in order.
func (m *metrics) latencies() (map[string]float64, []string, error) {
	l := m.Latencies
	lat := map[string]float64{}
	var keys []string
	for _, c := range []struct {
		key string
		v   *int64
	}{{"min", l.Min}, {"mean", l.Mean}, {"50", l.P50}, {"90", l.P90}, {"95", l.P95}, {"99", l.P99}, {"max", l.Max}} {
		if c.v == nil {
			continue
		}
		if *c.v < 0 {
			return nil, nil, fmt.Errorf("latency %s %d", c.key, *c.v)
		}
		lat[c.key] = float64(*c.v) / 1e6
		keys = append(keys, c.key)
	}
	return lat, keys, nil
}
