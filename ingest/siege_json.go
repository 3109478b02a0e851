package ingest

import (
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/loadverdict/loadverdict/results"
)

// siegeJSONParser ("siege-json") reads siege's JSON output; siege.go describes both formats.
type siegeJSONParser struct{}

// Name returns "siege-json".
func (siegeJSONParser) Name() string { return "siege-json" }

// Detect reports whether head starts with siege's JSON summary.
func (siegeJSONParser) Detect(head []byte) bool {
	head = jsonHead(head)
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	probe := head[:min(len(head), 2048)]
	for _, k := range []string{`"transactions":`, `"availability":`, `"transaction_rate":`, `"failed_transactions":`} {
		if !bytes.Contains(probe, []byte(k)) {
			return false
		}
	}
	return true
}

// siegeJSON is siege's JSON summary.
type siegeJSON struct {
	Transactions *float64 `json:"transactions"`
	Availability *float64 `json:"availability"`
	Elapsed      *float64 `json:"elapsed_time"`
	Data         *float64 `json:"data_transferred"`
	Response     *float64 `json:"response_time"`
	Rate         *float64 `json:"transaction_rate"`
	Throughput   *float64 `json:"throughput"`
	Concurrency  *float64 `json:"concurrency"`
	Successful   *float64 `json:"successful_transactions"`
	Failed       *float64 `json:"failed_transactions"`
	Longest      *float64 `json:"longest_transaction"`
	Shortest     *float64 `json:"shortest_transaction"`
}

// Parse streams the runs of r, one per JSON summary, to sink.
func (siegeJSONParser) Parse(ctx context.Context, r io.Reader, opts Options, sink Sink) error {
	return jsonReports(ctx, r, opts, "siege-json", "siege JSON", func(m *siegeJSON, line int, fill func(*results.RunWithPercentiles)) error {
		vals := []*float64{m.Transactions, m.Availability, m.Elapsed, m.Data, m.Response, m.Rate, m.Throughput,
			m.Concurrency, m.Successful, m.Failed, m.Longest, m.Shortest}
		for i, p := range vals {
			if p == nil || !finite(*p) || *p >= 9e18 {
				return badJSON("%q missing or out of range", strings.ToLower(strings.TrimSuffix(siegeKeys[i], ":")))
			}
		}
		s := siegeSummary{availability: *m.Availability, elapsedS: *m.Elapsed, dataMB: *m.Data, respS: *m.Response,
			rate: *m.Rate, tputMB: *m.Throughput, concurrency: *m.Concurrency, longestS: *m.Longest, shortestS: *m.Shortest}
		s.transactions, _ = toInt64(*m.Transactions)
		s.successful, _ = toInt64(*m.Successful)
		s.failed, _ = toInt64(*m.Failed)
		out := siegeRun(&s, nil, 0, line)
		fill(&out)
		return sink.Run(out)
	})
}
