package autocannon

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// JSONParser ("autocannon-json") reads autocannon's JSON output; autocannon.go describes both formats.
type JSONParser struct{}

// Name returns "autocannon-json".
func (JSONParser) Name() string { return "autocannon-json" }

// Detect reports whether head starts with autocannon's JSON result.
func (JSONParser) Detect(head []byte) bool {
	head = core.JSONHead(head)
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	probe := head[:min(len(head), 4096)]
	for _, k := range []string{`"latency":`, `"requests":`, `"throughput":`, `"connections":`, `"p97_5":`} {
		if !bytes.Contains(probe, []byte(k)) {
			return false
		}
	}
	return true
}

// jsonStats is one of the statistics objects of -j.
type jsonStats map[string]float64

// json is one object of `autocannon -j`.
type json struct {
	URL         string     `json:"url"`
	Connections *int64     `json:"connections"`
	Pipelining  *int64     `json:"pipelining"`
	Workers     *int64     `json:"workers"`
	Duration    *float64   `json:"duration"`
	Start       *time.Time `json:"start"`
	Errors      *int64     `json:"errors"`
	Timeouts    *int64     `json:"timeouts"`
	Non2xx      *int64     `json:"non2xx"`
	Latency     jsonStats  `json:"latency"`
	Requests    jsonStats  `json:"requests"`
	Throughput  jsonStats  `json:"throughput"`
}

// Parse streams the runs of r, one per JSON object, to sink.
func (JSONParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	return core.JSONReports(ctx, r, opts, "autocannon-json", "autocannon JSON", func(m *json, line int, fill func(*results.RunWithPercentiles)) error {
		out, err := m.run(line)
		if err != nil {
			return err
		}
		fill(&out)
		return sink.Run(out)
	})
}

// run converts one object.
func (m *json) run(line int) (results.RunWithPercentiles, error) {
	out := results.RunWithPercentiles{Run: results.Run{Tool: "autocannon", LoadModel: results.LoadClosed, Target: m.URL,
		SourceLine: int32(min(line, math.MaxInt32))}, Percentiles: []results.Percentile{}}
	if err := m.check(); err != nil {
		return out, err
	}
	out.DurationS = *m.Duration
	if m.Start != nil {
		t := m.Start.UTC()
		out.StartedAt = &t
	}
	notes := m.setup(&out)
	responses, _ := core.ToInt64(m.Requests["total"])
	notes = append(notes, m.counts(&out, responses)...)
	if responses > 0 {
		m.latency(&out)
	}
	if v, ok := m.Requests["stddev"]; ok {
		notes = append(notes, fmt.Sprintf("requests sampled once per second: stdev %g", v))
	}
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return out, nil
}

// check demands the fields a run needs, counts that are not negative and
// finite statistics.
func (m *json) check() error {
	_, ok := m.Requests["total"]
	if m.Duration == nil || m.Errors == nil || m.Non2xx == nil || !ok || m.Latency == nil {
		return core.BadJSON("object without duration, errors, non2xx, requests.total or latency")
	}
	for _, p := range []*int64{m.Connections, m.Pipelining, m.Workers, m.Errors, m.Timeouts, m.Non2xx} {
		if p != nil && *p < 0 {
			return core.BadJSON("negative count %d", *p)
		}
	}
	for _, st := range []jsonStats{m.Latency, m.Requests, m.Throughput} {
		for k, v := range st {
			if !core.Finite(v) || v >= 9e18 {
				return core.BadJSON("%s %v out of range", k, v)
			}
		}
	}
	if !core.Finite(*m.Duration) {
		return core.BadJSON("duration %v", *m.Duration)
	}
	return nil
}

// setup sets the connections; pipelining and workers are noted.
func (m *json) setup(out *results.RunWithPercentiles) (notes []string) {
	if m.Connections != nil && *m.Connections > 0 {
		out.Connections = results.Ptr(int32(min(*m.Connections, math.MaxInt32)))
	}
	if m.Pipelining != nil && *m.Pipelining > 1 {
		notes = append(notes, fmt.Sprintf("%d requests pipelined per connection", *m.Pipelining))
	}
	if m.Workers != nil && *m.Workers > 0 {
		notes = append(notes, fmt.Sprintf("%d workers", *m.Workers))
	}
	return notes
}

// counts sets the requests (the responses and the errors), the errors
// (non-2xx and errors), timeouts, rate and bytes; requests still
// unanswered at the end are noted.
func (m *json) counts(out *results.RunWithPercentiles, responses int64) (notes []string) {
	out.Requests = core.AddSat(responses, *m.Errors)
	out.Non2xx = results.Ptr(*m.Non2xx)
	out.Errors = core.AddSat(*m.Non2xx, *m.Errors)
	if m.Timeouts != nil {
		out.Timeouts = results.Ptr(*m.Timeouts)
	}
	if sent, ok := m.Requests["sent"]; ok {
		if n, _ := core.ToInt64(sent); n > out.Requests {
			notes = append(notes, fmt.Sprintf("%d requests sent, %d still unanswered at the end", n, n-out.Requests))
		}
	}
	out.RPS = m.Requests["average"]
	if v, ok := m.Throughput["total"]; ok {
		b, _ := core.ToInt64(v)
		out.BytesIn = results.Ptr(b)
	}
	if v, ok := m.Throughput["average"]; ok {
		out.TransferBPS = results.Ptr(v)
	}
	return notes
}

// latency sets the latency statistics and the percentiles ("p99",
// "p99_9").
func (m *json) latency(out *results.RunWithPercentiles) {
	for k, dst := range map[string]**float64{"mean": &out.LatMeanMs, "stddev": &out.LatStdevMs, "min": &out.LatMinMs, "max": &out.LatMaxMs} {
		if v, ok := m.Latency[k]; ok {
			*dst = results.Ptr(v)
		}
	}
	var pcts []results.Percentile
	for k, v := range m.Latency {
		if len(k) < 2 || k[0] != 'p' {
			continue
		}
		q, ok := core.ParseDec([]byte(strings.ReplaceAll(k[1:], "_", ".")), -2)
		if !ok || q > 1 {
			continue
		}
		pcts = append(pcts, results.Percentile{Quantile: q, LatencyMs: v})
	}
	core.SortPercentiles(pcts)
	core.AddPercentiles(out, pcts)
}
