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
// runs, else its only or last run.
type SummaryEndpoint struct {
	Label            string   `json:"label"`
	Endpoint         string   `json:"endpoint"`
	Tool             string   `json:"tool"`
	Connections      *int32   `json:"connections"`
	Threads          *int32   `json:"threads"`
	TargetRPS        *float64 `json:"target_rps"`
	PlannedDurationS *float64 `json:"planned_duration_s"`
	Runs             int      `json:"runs"`
	// Basis is which of the runs the figures are over, as the group's
	// numbers: "one-run", "steady-runs" or "last-run".
	Basis      string   `json:"basis"`
	Requests   int64    `json:"requests"`
	Errors     int64    `json:"errors"`
	ErrorRate  *float64 `json:"error_rate"`
	RPS        float64  `json:"rps"`
	LatMinMs   *float64 `json:"lat_min_ms"`
	LatMeanMs  *float64 `json:"lat_mean_ms"`
	LatP50Ms   *float64 `json:"lat_p50_ms"`
	LatP90Ms   *float64 `json:"lat_p90_ms"`
	LatP95Ms   *float64 `json:"lat_p95_ms"`
	LatP99Ms   *float64 `json:"lat_p99_ms"`
	LatMaxMs   *float64 `json:"lat_max_ms"`
	FromSteady bool     `json:"from_steady"`
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
			e := SummaryEndpoint{Label: sys.Label, Endpoint: *g.Endpoint, Tool: g.Tool, Connections: g.Connections, Threads: g.Threads,
				TargetRPS: g.TargetRPS, PlannedDurationS: g.PlannedDurationS, Runs: len(g.Runs)}
			if n := summaryNumbers(g.Numbers, false); n != nil {
				e.Requests, e.Errors, e.ErrorRate, e.RPS = n.Requests, n.Errors, n.ErrorRate, n.RPS
				e.LatMinMs, e.LatMeanMs, e.LatP50Ms, e.LatP90Ms, e.LatP95Ms, e.LatP99Ms, e.LatMaxMs = n.LatMinMs, n.LatMeanMs, n.LatP50Ms, n.LatP90Ms, n.LatP95Ms, n.LatP99Ms, n.LatMaxMs
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
