package artillery

import (
	"bytes"
	"context"
	"io"
	"math"
	"slices"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// JSONParser ("artillery-json") reads artillery's JSON output; artillery.go describes both formats.
type JSONParser struct{}

// Name returns "artillery-json".
func (JSONParser) Name() string { return "artillery-json" }

// Detect reports whether head starts with an Artillery JSON report.
func (JSONParser) Detect(head []byte) bool {
	head = core.JSONHead(head)
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	probe := head[:min(len(head), 64<<10)]
	for _, k := range []string{`"aggregate"`, `"counters"`, `"summaries"`, `"firstMetricAt"`} {
		if !bytes.Contains(probe, []byte(k)) {
			return false
		}
	}
	return true
}

// jsonMetrics is the aggregate or one intermediate period.
type jsonMetrics struct {
	Counters      map[string]float64            `json:"counters"`
	Rates         map[string]*float64           `json:"rates"`
	Summaries     map[string]map[string]float64 `json:"summaries"`
	FirstMetricAt *int64                        `json:"firstMetricAt"`
	LastMetricAt  *int64                        `json:"lastMetricAt"`
}

// metrics converts to the console's form, checking the values.
func (j *jsonMetrics) metrics() (metrics, error) {
	m := newArtilleryMetrics()
	for k, v := range j.Counters {
		if !core.Finite(v) || v >= 9e18 {
			return m, core.BadJSON("counter %s %v", k, v)
		}
		m.counters[k] = v
	}
	for k, v := range j.Rates {
		if v != nil {
			if !core.Finite(*v) {
				return m, core.BadJSON("rate %s %v", k, *v)
			}
			m.rates[k] = *v
		}
	}
	for k, st := range j.Summaries {
		for s, v := range st {
			if !core.Finite(v) {
				return m, core.BadJSON("summary %s %s %v", k, s, v)
			}
		}
		m.summaries[k] = st
	}
	if j.FirstMetricAt != nil && j.LastMetricAt != nil && (*j.FirstMetricAt < 0 || *j.LastMetricAt < *j.FirstMetricAt) {
		return m, core.BadJSON("firstMetricAt %d after lastMetricAt %d", *j.FirstMetricAt, *j.LastMetricAt)
	}
	return m, nil
}

// Parse streams the report of r (and any appended after it) to sink.
func (JSONParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	return core.JSONReports(ctx, r, opts, "artillery-json", "artillery JSON", func(rep *jsonReport, line int, fill func(*results.RunWithPercentiles)) error {
		a := rep.Aggregate
		if a == nil || a.Counters == nil {
			return core.BadJSON(`report without "aggregate" counters`)
		}
		m, err := a.metrics()
		if err != nil {
			return err
		}
		if _, ok := m.counters["http.requests"]; !ok {
			return core.BadJSON("aggregate without http.requests (not an HTTP test)")
		}
		out := run(m)
		out.SourceLine = int32(min(line, math.MaxInt32))
		if a.FirstMetricAt != nil && a.LastMetricAt != nil {
			t := time.UnixMilli(*a.FirstMetricAt).UTC()
			out.StartedAt = &t
			out.DurationS = float64(*a.LastMetricAt-*a.FirstMetricAt) / 1000
		}
		fill(&out)
		periods := slices.Clone(rep.Intermediate)
		slices.SortStableFunc(periods, func(x, y jsonMetrics) int {
			return int(min(max(ptrOr(x.FirstMetricAt)-ptrOr(y.FirstMetricAt), -1), 1))
		})
		for _, p := range periods {
			pm, err := p.metrics()
			if err != nil {
				return err
			}
			if p.FirstMetricAt == nil || p.LastMetricAt == nil || a.FirstMetricAt == nil {
				continue
			}
			t := float64(*p.FirstMetricAt-*a.FirstMetricAt) / 1000
			if err := sink.Series(series(out.RunID, math.Max(0, t), float64(*p.LastMetricAt-*p.FirstMetricAt)/1000, pm)); err != nil {
				return err
			}
		}
		return sink.Run(out)
	})
}

// jsonReport is the report of artillery run --output.
type jsonReport struct {
	Aggregate    *jsonMetrics  `json:"aggregate"`
	Intermediate []jsonMetrics `json:"intermediate"`
}

// ptrOr returns *p, or 0 for nil.
func ptrOr(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
