package bombardier

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// JSONParser ("bombardier-json") reads bombardier's JSON output; bombardier.go describes both formats.
type JSONParser struct{}

// Name returns "bombardier-json".
func (JSONParser) Name() string { return "bombardier-json" }

// bombardierJSONPrefix starts every `bombardier -o json` object.
var bombardierJSONPrefix = []byte(`{"spec":{"numberOfConnections":`)

// Detect reports whether head starts with bombardier's JSON result.
func (JSONParser) Detect(head []byte) bool {
	head = core.JSONHead(head)
	return bytes.HasPrefix(head, bombardierJSONPrefix) && bytes.Contains(head, []byte(`"result":{`))
}

// json is one object of `bombardier -o json`.
type json struct {
	Spec struct {
		NumberOfConnections *int64   `json:"numberOfConnections"`
		TestType            string   `json:"testType"`
		NumberOfRequests    *int64   `json:"numberOfRequests"`
		TestDurationSeconds *float64 `json:"testDurationSeconds"`
		Method              string   `json:"method"`
		URL                 string   `json:"url"`
		TimeoutSeconds      *float64 `json:"timeoutSeconds"`
		Rate                *float64 `json:"rate"`
		Client              string   `json:"client"`
	} `json:"spec"`
	Result *struct {
		BytesRead        *int64   `json:"bytesRead"`
		TimeTakenSeconds *float64 `json:"timeTakenSeconds"`
		Req1xx           *int64   `json:"req1xx"`
		Req2xx           *int64   `json:"req2xx"`
		Req3xx           *int64   `json:"req3xx"`
		Req4xx           *int64   `json:"req4xx"`
		Req5xx           *int64   `json:"req5xx"`
		Others           *int64   `json:"others"`
		Errors           []struct {
			Description string `json:"description"`
			Count       int64  `json:"count"`
		} `json:"errors"`
		Latency struct {
			Mean        *float64           `json:"mean"`
			Stddev      *float64           `json:"stddev"`
			Max         *float64           `json:"max"`
			Percentiles map[string]float64 `json:"percentiles"`
		} `json:"latency"`
		RPS struct {
			Mean   *float64 `json:"mean"`
			Stddev *float64 `json:"stddev"`
			Max    *float64 `json:"max"`
		} `json:"rps"`
	} `json:"result"`
}

// Parse streams the runs of r, one per JSON object, to sink.
func (JSONParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	return core.JSONReports(ctx, r, opts, "bombardier-json", "bombardier JSON", func(m *json, line int, fill func(*results.RunWithPercentiles)) error {
		out, err := m.run(line)
		if err != nil {
			return err
		}
		fill(&out)
		return sink.Run(out)
	})
}

// run converts one object; it reports what is missing or out of range.
func (m *json) run(line int) (results.RunWithPercentiles, error) {
	out := results.RunWithPercentiles{Run: results.Run{Tool: "bombardier", LoadModel: results.LoadClosed,
		Target: m.Spec.URL, SourceLine: int32(min(line, math.MaxInt32))}, Percentiles: []results.Percentile{}}
	if err := m.check(); err != nil {
		return out, err
	}
	res := m.Result
	notes := m.spec(&out)
	out.DurationS = *res.TimeTakenSeconds
	out.RPS = *res.RPS.Mean
	m.counts(&out)
	if res.BytesRead != nil {
		out.BytesIn = results.Ptr(*res.BytesRead)
		if out.DurationS > 0 {
			out.TransferBPS = results.Ptr(float64(*res.BytesRead) / out.DurationS)
		}
	}
	if err := m.latency(&out); err != nil {
		return out, err
	}
	if res.RPS.Stddev != nil && res.RPS.Max != nil {
		notes = append(notes, fmt.Sprintf("rps sampled while running: stdev %g, max %g", *res.RPS.Stddev, *res.RPS.Max))
	}
	if len(notes) > 0 {
		out.Notes = results.Ptr(strings.Join(notes, "; "))
	}
	return out, nil
}

// countsOf are the result's counts: the five classes of codes and the
// others (the requests), then the bytes read.
func (m *json) countsOf() []*int64 {
	res := m.Result
	return []*int64{res.Req1xx, res.Req2xx, res.Req3xx, res.Req4xx, res.Req5xx, res.Others, res.BytesRead}
}

// check demands the result's required fields, counts that are not
// negative and finite values.
func (m *json) check() error {
	res := m.Result
	if res == nil || res.TimeTakenSeconds == nil || res.Req2xx == nil || res.Others == nil || res.RPS.Mean == nil {
		return core.BadJSON("object without its result (timeTakenSeconds, req2xx, others, rps)")
	}
	for _, p := range m.countsOf() {
		if p != nil && *p < 0 {
			return core.BadJSON("negative count %d", *p)
		}
	}
	floats := []*float64{res.TimeTakenSeconds, res.RPS.Mean, res.RPS.Stddev, res.RPS.Max, res.Latency.Mean, res.Latency.Stddev,
		res.Latency.Max, m.Spec.TestDurationSeconds, m.Spec.TimeoutSeconds, m.Spec.Rate}
	for _, p := range floats {
		if p != nil && !core.Finite(*p) {
			return core.BadJSON("value %v out of range", *p)
		}
	}
	return nil
}

// spec sets what the spec tells of the test: connections, planned
// duration, timeout; a rate limit is noted.
func (m *json) spec(out *results.RunWithPercentiles) (notes []string) {
	if n := m.Spec.NumberOfConnections; n != nil && *n > 0 {
		out.Connections = results.Ptr(int32(min(*n, math.MaxInt32)))
	}
	if d := m.Spec.TestDurationSeconds; d != nil && *d > 0 && m.Spec.TestType == "timed" {
		out.PlannedDurationS = results.Ptr(*d)
	}
	if t := m.Spec.TimeoutSeconds; t != nil && *t > 0 {
		out.TimeoutS = results.Ptr(*t)
	}
	if r := m.Spec.Rate; r != nil && *r > 0 {
		notes = append(notes, fmt.Sprintf("rate limited to %g requests/s (-r)", *r))
	}
	return notes
}

// counts sets the requests, the non-2xx (1xx, 4xx, 5xx), the errors
// (those and the others) and the timeouts among the errors.
func (m *json) counts(out *results.RunWithPercentiles) {
	res := m.Result
	val := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	for _, p := range m.countsOf()[:6] {
		out.Requests = core.AddSat(out.Requests, val(p))
	}
	non2xx := core.AddSat(core.AddSat(val(res.Req1xx), val(res.Req4xx)), val(res.Req5xx))
	out.Non2xx = results.Ptr(non2xx)
	out.Errors = core.AddSat(non2xx, *res.Others)
	var timeouts int64
	for _, e := range res.Errors {
		if e.Count > 0 && requests.IsTimeout(e.Description) {
			timeouts = core.AddSat(timeouts, e.Count)
		}
	}
	out.Timeouts = results.Ptr(timeouts)
}

// latency sets the latencies, given in µs, in ms.
func (m *json) latency(out *results.RunWithPercentiles) error {
	l := &m.Result.Latency
	us := func(p *float64) *float64 {
		if p == nil {
			return nil
		}
		return results.Ptr(core.ShiftDec(*p, -3))
	}
	out.LatMeanMs, out.LatStdevMs, out.LatMaxMs = us(l.Mean), us(l.Stddev), us(l.Max)
	var pcts []results.Percentile
	for k, v := range l.Percentiles {
		q, ok := core.ParseDec([]byte(k), -2)
		if !ok || q > 1 || !core.Finite(v) {
			return core.BadJSON("latency percentile %q: %v", k, v)
		}
		pcts = append(pcts, results.Percentile{Quantile: q, LatencyMs: core.ShiftDec(v, -3)})
	}
	core.SortPercentiles(pcts)
	core.AddPercentiles(out, pcts)
	return nil
}
