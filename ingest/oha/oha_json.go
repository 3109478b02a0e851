package oha

import (
	"bytes"
	"context"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// JSONParser ("oha-json") reads oha's JSON output; oha.go describes both formats.
type JSONParser struct{}

// Name returns "oha-json".
func (JSONParser) Name() string { return "oha-json" }

// Detect reports whether head starts with oha's JSON output.
func (JSONParser) Detect(head []byte) bool {
	head = core.JSONHead(head)
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	probe := head[:min(len(head), 16<<10)]
	for _, k := range []string{`"summary"`, `"requestsPerSec"`, `"statusCodeDistribution"`, `"latencyPercentiles"`} {
		if !bytes.Contains(probe, []byte(k)) {
			return false
		}
	}
	return true
}

// json is oha's JSON output (the parts read).
type json struct {
	Summary *struct {
		SuccessRate    *float64 `json:"successRate"`
		Total          *float64 `json:"total"`
		Slowest        *float64 `json:"slowest"`
		Fastest        *float64 `json:"fastest"`
		Average        *float64 `json:"average"`
		RequestsPerSec *float64 `json:"requestsPerSec"`
		TotalData      *float64 `json:"totalData"`
		SizePerSec     *float64 `json:"sizePerSec"`
	} `json:"summary"`
	LatencyPercentiles     map[string]*float64 `json:"latencyPercentiles"`
	StatusCodeDistribution map[string]int64    `json:"statusCodeDistribution"`
	ErrorDistribution      map[string]int64    `json:"errorDistribution"`
}

// Parse streams the runs of r, one per JSON object, to sink.
func (JSONParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	return core.JSONReports(ctx, r, opts, "oha-json", "oha JSON", func(m *json, line int, fill func(*results.RunWithPercentiles)) error {
		out, err := m.run(line)
		if err != nil {
			return err
		}
		fill(&out)
		return sink.Run(out)
	})
}

// run converts one output.
func (m *json) run(line int) (results.RunWithPercentiles, error) {
	var out results.RunWithPercentiles
	s := m.Summary
	if s == nil || s.Total == nil || s.RequestsPerSec == nil {
		return out, core.BadJSON(`output without "summary" (total, requestsPerSec)`)
	}
	for _, p := range []*float64{s.SuccessRate, s.Total, s.Slowest, s.Fastest, s.Average, s.RequestsPerSec, s.TotalData, s.SizePerSec} {
		if p != nil && (!core.Finite(*p) || *p >= 9e18) {
			return out, core.BadJSON("summary value %v out of range", *p)
		}
	}
	var notes []string
	out = results.RunWithPercentiles{Run: results.Run{Tool: "oha", LoadModel: results.LoadClosed,
		DurationS: *s.Total, RPS: *s.RequestsPerSec, SourceLine: int32(min(line, math.MaxInt32))}, Percentiles: []results.Percentile{}}
	codes, err := m.codes()
	if err != nil {
		return out, err
	}
	errs, timeouts, aborted, err := m.errors()
	if err != nil {
		return out, err
	}
	responses := counts(&out, codes, errs, timeouts, aborted, &notes)
	if s.TotalData != nil {
		out.BytesIn = results.Ptr(int64(*s.TotalData))
	}
	if s.SizePerSec != nil {
		out.TransferBPS = results.Ptr(*s.SizePerSec)
	}
	if responses > 0 {
		if err := m.latency(&out); err != nil {
			return out, err
		}
	}
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return out, nil
}

// codes are the counts of the status codes.
func (m *json) codes() (map[int64]int64, error) {
	codes := map[int64]int64{}
	for k, n := range m.StatusCodeDistribution {
		code, err := strconv.ParseInt(k, 10, 32)
		if err != nil || n < 0 {
			return nil, core.BadJSON("statusCodeDistribution %q: %d", k, n)
		}
		codes[code] = core.AddSat(codes[code], n)
	}
	return codes, nil
}

// errors counts the errors, the timeouts and the requests aborted at the
// deadline among them.
func (m *json) errors() (errs, timeouts, aborted int64, err error) {
	for msg, n := range m.ErrorDistribution {
		if n < 0 {
			return 0, 0, 0, core.BadJSON("errorDistribution %q: %d", msg, n)
		}
		errs = core.AddSat(errs, n)
		if requests.IsTimeout(msg) {
			timeouts = core.AddSat(timeouts, n)
		}
		if strings.Contains(msg, "aborted due to deadline") {
			aborted = core.AddSat(aborted, n)
		}
	}
	return errs, timeouts, aborted, nil
}

// latency sets the latency statistics and percentiles, given in seconds,
// in ms.
func (m *json) latency(out *results.RunWithPercentiles) error {
	s := m.Summary
	ms := func(p *float64) *float64 {
		if p == nil {
			return nil
		}
		return results.Ptr(core.ShiftDec(*p, 3))
	}
	out.LatMeanMs, out.LatMinMs, out.LatMaxMs = ms(s.Average), ms(s.Fastest), ms(s.Slowest)
	var pcts []results.Percentile
	for k, v := range m.LatencyPercentiles {
		q, ok := core.ParseDec([]byte(strings.TrimPrefix(k, "p")), -2)
		if !ok || q > 1 || !strings.HasPrefix(k, "p") {
			return core.BadJSON("latencyPercentiles key %q", k)
		}
		if v == nil {
			continue
		}
		if !core.Finite(*v) {
			return core.BadJSON("latencyPercentiles %s: %v", k, *v)
		}
		pcts = append(pcts, results.Percentile{Quantile: q, LatencyMs: core.ShiftDec(*v, 3)})
	}
	core.SortPercentiles(pcts)
	core.AddPercentiles(out, pcts)
	return nil
}
