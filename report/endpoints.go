package report

import (
	"fmt"
	"strconv"

	"github.com/loadverdict/loadverdict/analyze"
)

// SummaryEndpoint is one row of summary.json's endpoints: a system's runs
// of one endpoint (runs.endpoint) at one settings, for tests whose tool
// split them into several requests.
type SummaryEndpoint struct {
	Label            string   `json:"label"`
	Endpoint         string   `json:"endpoint"`
	Tool             string   `json:"tool"`
	Connections      *int32   `json:"connections"`
	Threads          *int32   `json:"threads"`
	TargetRPS        *float64 `json:"target_rps"`
	PlannedDurationS *float64 `json:"planned_duration_s"`
	Runs             int      `json:"runs"`
	Requests         int64    `json:"requests"`
	Errors           int64    `json:"errors"`
	ErrorRate        *float64 `json:"error_rate"`
	RPS              float64  `json:"rps"`
	LatMeanMs        *float64 `json:"lat_mean_ms"`
	LatP99Ms         *float64 `json:"lat_p99_ms"`
	LatMaxMs         *float64 `json:"lat_max_ms"`
	FromSteady       bool     `json:"from_steady"`
}

// summaryEndpoints lists, system by system in the verdict's order, the
// groups of runs of one endpoint: requests and errors summed over the
// group's runs (the error rate over the attempts, as analyze.ErrorRate
// counts them), throughput and latencies its representative values (the
// steady-state means, else the last run's).
func summaryEndpoints(v *analyze.Verdict) []SummaryEndpoint {
	var out []SummaryEndpoint
	for _, sys := range v.Systems {
		for _, g := range sys.Groups {
			if g.Endpoint == nil {
				continue
			}
			e := SummaryEndpoint{Label: sys.Label, Endpoint: *g.Endpoint, Tool: g.Tool, Connections: g.Connections, Threads: g.Threads,
				TargetRPS: g.TargetRPS, PlannedDurationS: g.PlannedDurationS, Runs: len(g.Runs), RPS: round(g.Rep.RPS, 2),
				LatMeanMs: r2p(g.Rep.LatMeanMs), LatP99Ms: r2p(g.Rep.LatP99Ms), LatMaxMs: r2p(g.Rep.LatMaxMs), FromSteady: g.Rep.FromSteady}
			var attempted int64
			for _, r := range g.Runs {
				e.Requests += r.Requests
				e.Errors += r.Errors
				attempted += analyze.Attempted(r)
			}
			if attempted > 0 {
				e.ErrorRate = ptr(sig(float64(e.Errors)/float64(attempted), 6))
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
		"Requests and errors are summed over the runs; req/s and latencies are the steady-state means where there is one, else the last run's.")))
	t := &tableBlock{Head: textRow("system", "endpoint", "settings", "runs", "requests", "errors", "req/s", "mean / p99 / max latency, ms"),
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
			errs := strconv.FormatInt(e.Errors, 10)
			if e.ErrorRate != nil {
				errs += " (" + pct(*e.ErrorRate) + ")"
			}
			src := "steady: mean / median / median"
			if !e.FromSteady {
				src = "last run"
			}
			r := textRow(e.Label, "", settings, strconv.Itoa(e.Runs), strconv.FormatInt(e.Requests, 10), errs, fmtF(e.RPS, 2),
				fmt.Sprintf("%s / %s / %s (%s)", optF(e.LatMeanMs), optF(e.LatP99Ms), optF(e.LatMaxMs), src))
			r[1] = []inline{mono(e.Endpoint)}
			t.Rows = append(t.Rows, r)
		}
	}
	sec.Blocks = append(sec.Blocks, t)
	return sec
}
