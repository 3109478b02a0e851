package fortio

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// JSONParser ("fortio-json") reads fortio's JSON output; fortio.go describes both formats.
type JSONParser struct{}

// Name returns "fortio-json".
func (JSONParser) Name() string { return "fortio-json" }

// Detect reports whether head starts with a Fortio JSON result.
func (JSONParser) Detect(head []byte) bool {
	head = core.JSONHead(head)
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	probe := head[:min(len(head), 8192)]
	for _, k := range []string{`"RunType"`, `"ActualQPS"`, `"DurationHistogram"`} {
		if !bytes.Contains(probe, []byte(k)) {
			return false
		}
	}
	return true
}

// histogram is a histogram of the JSON result, in seconds or bytes.
type histogram struct {
	Count       int64   `json:"Count"`
	Min         float64 `json:"Min"`
	Max         float64 `json:"Max"`
	Sum         float64 `json:"Sum"`
	Avg         float64 `json:"Avg"`
	StdDev      float64 `json:"StdDev"`
	Percentiles []struct {
		Percentile float64 `json:"Percentile"`
		Value      float64 `json:"Value"`
	} `json:"Percentiles"`
}

// json is a Fortio JSON result.
type json struct {
	RunType           string           `json:"RunType"`
	StartTime         *time.Time       `json:"StartTime"`
	RequestedQPS      string           `json:"RequestedQPS"`
	RequestedDuration string           `json:"RequestedDuration"`
	ActualQPS         *float64         `json:"ActualQPS"`
	ActualDuration    *int64           `json:"ActualDuration"`
	NumThreads        *int64           `json:"NumThreads"`
	Exactly           int64            `json:"Exactly"`
	DurationHistogram *histogram       `json:"DurationHistogram"`
	RetCodes          map[string]int64 `json:"RetCodes"`
	Sizes             *histogram       `json:"Sizes"`
	URL               string           `json:"URL"`
	Destination       string           `json:"Destination"`
}

// Parse streams the runs of r, one per JSON object, to sink.
func (JSONParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	return core.JSONReports(ctx, r, opts, "fortio-json", "fortio JSON", func(m *json, line int, fill func(*results.RunWithPercentiles)) error {
		out, err := m.run(line)
		if err != nil {
			return err
		}
		fill(&out)
		return sink.Run(out)
	})
}

// run converts one result.
func (m *json) run(line int) (results.RunWithPercentiles, error) {
	var out results.RunWithPercentiles
	if err := m.check(); err != nil {
		return out, err
	}
	out = results.RunWithPercentiles{Run: results.Run{Tool: "fortio", LoadModel: results.LoadClosed,
		Target: cmp.Or(m.URL, m.Destination), DurationS: float64(*m.ActualDuration) / 1e9, RPS: *m.ActualQPS,
		SourceLine: int32(min(line, math.MaxInt32))}, Percentiles: []results.Percentile{}}
	if m.StartTime != nil {
		t := m.StartTime.UTC()
		out.StartedAt = &t
	}
	fig, err := m.figures()
	if err != nil {
		return out, err
	}
	var notes []string
	if m.RunType == "HTTP" || m.RunType == "" {
		if fig.codes, err = m.httpCodes(); err != nil {
			return out, err
		}
	} else {
		notes = append(notes, "run type "+m.RunType)
		if out.Errors, err = m.failedCalls(); err != nil {
			return out, err
		}
	}
	if m.Sizes != nil && m.Sizes.Sum >= 0 && m.Sizes.Sum < 9e18 {
		fig.bytes, fig.hasBytes = int64(m.Sizes.Sum), true
	}
	fill(&out, fig, &notes)
	return out, nil
}

// check demands the histogram, rate and duration, finite and not
// negative.
func (m *json) check() error {
	h := m.DurationHistogram
	if h == nil || m.ActualQPS == nil || m.ActualDuration == nil {
		return core.BadJSON("result without DurationHistogram, ActualQPS or ActualDuration")
	}
	for _, v := range []float64{*m.ActualQPS, h.Min, h.Max, h.Avg, h.StdDev} {
		if !core.Finite(v) {
			return core.BadJSON("value %v out of range", v)
		}
	}
	if *m.ActualDuration < 0 || h.Count < 0 {
		return core.BadJSON("negative duration or count")
	}
	return nil
}

// figures are the result's statistics in ms, its settings and its
// percentiles.
func (m *json) figures() (figures, error) {
	h := m.DurationHistogram
	fig := figures{count: h.Count, avgMs: core.ShiftDec(h.Avg, 3), sdMs: core.ShiftDec(h.StdDev, 3), minMs: core.ShiftDec(h.Min, 3),
		maxMs: core.ShiftDec(h.Max, 3), calls: m.Exactly}
	if q, err := strconv.ParseFloat(m.RequestedQPS, 64); err == nil && core.Finite(q) {
		fig.requested = q
	}
	if d, err := time.ParseDuration(m.RequestedDuration); err == nil && d > 0 {
		fig.plannedS = d.Seconds()
	}
	if m.NumThreads != nil {
		fig.threads = *m.NumThreads
	}
	for _, p := range h.Percentiles {
		q := core.ShiftDec(p.Percentile, -2)
		if !(q >= 0 && q <= 1) || !core.Finite(p.Value) {
			return fig, core.BadJSON("percentile %v: %v", p.Percentile, p.Value)
		}
		if len(fig.pcts) < core.MaxPercentiles {
			fig.pcts = append(fig.pcts, results.Percentile{Quantile: q, LatencyMs: core.ShiftDec(p.Value, 3)})
		}
	}
	return fig, nil
}

// httpCodes are the counts of an HTTP run's status codes.
func (m *json) httpCodes() (map[int64]int64, error) {
	codes := map[int64]int64{}
	for k, n := range m.RetCodes {
		code, err := strconv.ParseInt(k, 10, 32)
		if err != nil || n < 0 {
			return nil, core.BadJSON("RetCodes %q: %d", k, n)
		}
		codes[code] = core.AddSat(codes[code], n)
	}
	return codes, nil
}

// failedCalls are the calls of another run type (gRPC, TCP) that did not
// return SERVING or OK.
func (m *json) failedCalls() (int64, error) {
	var failed int64
	for k, n := range m.RetCodes {
		if n < 0 {
			return 0, core.BadJSON("RetCodes %q: %d", k, n)
		}
		if k != "SERVING" && k != "OK" {
			failed = core.AddSat(failed, n)
		}
	}
	return failed, nil
}
