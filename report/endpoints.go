package report

import (
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
)

// SummaryEndpoint is one row of summary.json's endpoints: a system's runs
// of one endpoint (runs.endpoint) at one settings, for tests whose tool
// split them into several requests. Its figures are the group's numbers
// (analyze.Numbers, summary.json's groups[].numbers): over its steady
// runs, else its only or last run. It is not SummaryNumbers: SCHEMA.md
// gives an endpoint fewer figures in another order.
type SummaryEndpoint struct {
	Label    string `json:"label"`
	Endpoint string `json:"endpoint"`
	Tool     string `json:"tool"`
	SummaryLoad
	Runs int `json:"runs"`
	// Basis is which of the runs the figures are over, as the group's
	// numbers: "one-run", "steady-runs" or "last-run".
	Basis     string   `json:"basis"`
	Requests  int64    `json:"requests"`
	Errors    int64    `json:"errors"`
	ErrorRate *float64 `json:"error_rate"`
	RPS       float64  `json:"rps"`
	SummaryLatencies
	FromSteady bool `json:"from_steady"`
}

// summaryEndpoints lists, system by system in the verdict's order, the
// groups of runs of one endpoint with their numbers (analyze.Numbers):
// requests and errors the totals, the error rate, throughput and
// latencies aggregated as every table of the verdict aggregates them.
func summaryEndpoints(v *analyze.Verdict) []SummaryEndpoint {
	var out []SummaryEndpoint
	for _, sys := range v.Systems {
		for _, g := range sys.Groups {
			if g.Endpoint == nil {
				continue
			}
			e := SummaryEndpoint{Label: sys.Label, Endpoint: *g.Endpoint, Tool: g.Tool, SummaryLoad: summaryLoad(g.Settings),
				Runs: len(g.Runs)}
			if n := summaryNumbers(g.Numbers, false); n != nil {
				e.Requests, e.Errors, e.ErrorRate, e.RPS = n.Requests, n.Errors, n.ErrorRate, n.RPS
				e.SummaryLatencies = n.SummaryLatencies
				e.FromSteady, e.Basis = n.Basis == analyze.NumbersSteadyRuns, n.Basis
			}
			out = append(out, e)
		}
	}
	return out
}

// endpoints is the endpoint table of the report, for tests split into
// several requests (nil otherwise).
func (b *reportBuilder) endpoints() *section {
	rows := summaryEndpoints(b.v)
	if len(rows) == 0 {
		return nil
	}
	var all []analyze.Settings
	for _, sys := range b.v.Systems {
		for _, g := range sys.Groups {
			if g.Endpoint != nil {
				s := g.Settings
				s.Endpoint = nil
				all = append(all, s)
			}
		}
	}
	sec := &section{Title: "Endpoints", ID: "endpoints"}
	sec.Blocks = append(sec.Blocks, para(tx("The tool named each request of the test, and each endpoint's runs are analysed on their own (a system's settings above include the endpoint). "+
		"The figures are as in the numbers at the top: over the steady runs where there are some, else the only or last run (runs column).")))
	t := &tableBlock{Head: textRow("system", "endpoint", "settings", "runs", "requests", "errors", "req/s", "min / mean / p50 / p90 / p95 / p99 / max latency, ms"),
		Numeric: []bool{false, false, false, true, true, true, true, true}}
	i := 0
	for _, sys := range b.v.Systems {
		for _, g := range sys.Groups {
			if g.Endpoint == nil {
				continue
			}
			e := rows[i]
			i++
			s := g.Settings
			s.Endpoint = nil
			settings := distinctSettings(s, all)
			if settings == "" {
				settings = "-"
			}
			n := g.Numbers
			var lat []string
			for _, l := range latencyFigures(n) {
				lat = append(lat, figText(l.fig))
			}
			r := textRow(e.Label, "", settings, runsCell(n, len(g.Runs)), strconv.FormatInt(e.Requests, 10), errorsText(n), num(n.RPS.Value),
				strings.Join(lat, " / "))
			r[1] = []inline{mono(e.Endpoint)}
			t.Rows = append(t.Rows, r)
		}
	}
	sec.Blocks = append(sec.Blocks, t)
	return sec
}
