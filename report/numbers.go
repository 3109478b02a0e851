package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
)

// This file words the figures a reader looks for first (analyze.Numbers):
// the numbers table that opens report.md, report.html and summary.md,
// the numbers of summary.json, and the headline's figures for one
// system. analyze computes every figure and its aggregate; this file
// only formats them.

// SummaryNumbers are summary.json's numbers of a group of runs or of one
// run (docs/SCHEMA.md): totals, throughput, error rate and latencies,
// with, for a group, how each figure sums up its runs.
type SummaryNumbers struct {
	// Basis is which runs the figures are over: "one-run",
	// "steady-runs" or "last-run".
	Basis     string   `json:"basis"`
	Runs      int      `json:"runs"`
	Requests  int64    `json:"requests"`
	Errors    int64    `json:"errors"`
	Attempted int64    `json:"attempted"`
	DurationS float64  `json:"duration_s"`
	RPS       float64  `json:"rps"`
	SentRPS   *float64 `json:"sent_rps"`
	// SuccessRPS is an open model's rate of successful responses, as the
	// tool gives it.
	SuccessRPS *float64 `json:"success_rps"`
	ErrorRate  *float64 `json:"error_rate"`
	SummaryLatencies
	// Aggregates name, per figure given, how it sums up the runs:
	// "one-run", "mean-of-runs", "median-of-runs"; requests, errors,
	// attempted and duration_s are always sums. Groups only.
	Aggregates map[string]string `json:"aggregates,omitempty"`
}

// SummaryLatencies are the latency figures of summary.json's numbers
// (embedded: a group's or run's numbers, an endpoint), in milliseconds,
// null where the runs do not give them.
type SummaryLatencies struct {
	LatMinMs  *float64 `json:"lat_min_ms"`
	LatMeanMs *float64 `json:"lat_mean_ms"`
	LatP50Ms  *float64 `json:"lat_p50_ms"`
	LatP90Ms  *float64 `json:"lat_p90_ms"`
	LatP95Ms  *float64 `json:"lat_p95_ms"`
	LatP99Ms  *float64 `json:"lat_p99_ms"`
	LatMaxMs  *float64 `json:"lat_max_ms"`
}

// summaryNumbers converts Numbers; withAggregates adds their aggregates
// (a group's). Rates are rounded to 0.01 req/s, latencies to 0.001 ms
// (vegeta prints microseconds), durations to 0.001 s and the error rate
// to 6 significant digits.
func summaryNumbers(n analyze.Numbers, withAggregates bool) *SummaryNumbers {
	if n.Basis == "" { // a verdict made without analyze.Analyze
		return nil
	}
	s := &SummaryNumbers{Basis: n.Basis, Runs: n.Runs, Requests: n.Requests, Errors: n.Errors, Attempted: n.Attempted,
		DurationS: round(n.DurationS, 3), RPS: round(n.RPS.Value, 2)}
	aggs := map[string]string{analyze.MetricRPS: n.RPS.Aggregate}
	set := func(dst **float64, metric string, f *analyze.Figure, rnd func(float64) float64) {
		if f == nil {
			return
		}
		*dst = ptr(rnd(f.Value))
		aggs[metric] = f.Aggregate
	}
	rate := func(x float64) float64 { return round(x, 2) }
	ms := func(x float64) float64 { return round(x, 3) }
	set(&s.SentRPS, analyze.MetricSentRPS, n.SentRPS, rate)
	set(&s.SuccessRPS, analyze.MetricSuccessRPS, n.SuccessRPS, rate)
	set(&s.ErrorRate, analyze.MetricErrorRate, n.ErrorRate, func(x float64) float64 { return sig(x, 6) })
	for _, l := range latencyFigures(n) {
		set(l.dst(s), l.metric, l.fig, ms)
	}
	if withAggregates {
		s.Aggregates = aggs
	}
	return s
}

// latencyFigure is one latency figure of Numbers, with its column's
// name and its short label.
type latencyFigure struct {
	metric, label string
	fig           *analyze.Figure
	dst           func(*SummaryNumbers) **float64
}

// latencyFigures lists n's latency figures from minimum to maximum.
func latencyFigures(n analyze.Numbers) []latencyFigure {
	return []latencyFigure{
		{analyze.MetricLatMinMs, "min", n.LatMinMs, func(s *SummaryNumbers) **float64 { return &s.LatMinMs }},
		{analyze.MetricLatMeanMs, "mean", n.LatMeanMs, func(s *SummaryNumbers) **float64 { return &s.LatMeanMs }},
		{analyze.MetricLatP50Ms, "p50", n.LatP50Ms, func(s *SummaryNumbers) **float64 { return &s.LatP50Ms }},
		{analyze.MetricLatP90Ms, "p90", n.LatP90Ms, func(s *SummaryNumbers) **float64 { return &s.LatP90Ms }},
		{analyze.MetricLatP95Ms, "p95", n.LatP95Ms, func(s *SummaryNumbers) **float64 { return &s.LatP95Ms }},
		{analyze.MetricLatP99Ms, "p99", n.LatP99Ms, func(s *SummaryNumbers) **float64 { return &s.LatP99Ms }},
		{analyze.MetricLatMaxMs, "max", n.LatMaxMs, func(s *SummaryNumbers) **float64 { return &s.LatMaxMs }},
	}
}

// figText formats an optional figure: 4 significant figures, "-" for none.
func figText(f *analyze.Figure) string {
	if f == nil {
		return "-"
	}
	return num(f.Value)
}

// numbersRow is one row of the numbers table: a system at one settings.
type numbersRow struct {
	system string
	g      *analyze.Group
}

// numbersRows lists the groups of every system, in the verdict's order.
func numbersRows(v *analyze.Verdict) []numbersRow {
	var out []numbersRow
	for si := range v.Systems {
		for gi := range v.Systems[si].Groups {
			if v.Systems[si].Groups[gi].Numbers.Basis == "" { // a verdict made without analyze.Analyze
				continue
			}
			out = append(out, numbersRow{v.Systems[si].Label, &v.Systems[si].Groups[gi]})
		}
	}
	return out
}

// runsCell words which runs a group's numbers are over: "1", "4 steady",
// "last of 3".
func runsCell(n analyze.Numbers, held int) string {
	switch n.Basis {
	case analyze.NumbersSteadyRuns:
		if n.Runs == held {
			return strconv.Itoa(n.Runs) + " steady"
		}
		return fmt.Sprintf("%d steady of %d", n.Runs, held)
	case analyze.NumbersLastRun:
		return fmt.Sprintf("last of %d", held)
	}
	return strconv.Itoa(n.Runs)
}

// rpsText words a throughput: "2597", or for an open model whose tool
// gives its sending rate "489.9 (sent 500.2)".
func rpsText(n analyze.Numbers) string {
	s := num(n.RPS.Value)
	if n.SentRPS != nil {
		s += " (sent " + num(n.SentRPS.Value) + ")"
	}
	return s
}

// errorsText words the errors: "50 (2 %)", "0".
func errorsText(n analyze.Numbers) string {
	s := strconv.FormatInt(n.Errors, 10)
	if n.ErrorRate != nil && n.Errors > 0 {
		s += " (" + pct(n.ErrorRate.Value) + ")"
	}
	return s
}

// numbersBlocks is the numbers table that opens a report: one row per
// system and settings, at most maxRows (all for maxRows < 0, saying how
// many were left to the full report), and the legend of what each
// figure is over.
func numbersBlocks(v *analyze.Verdict, maxRows int) []block {
	tableBuilds.Add(1)
	rows := numbersRows(v)
	if len(rows) == 0 {
		return nil
	}
	var all []analyze.Settings
	for _, r := range rows {
		all = append(all, r.g.Settings)
	}
	maxHead := "max"
	if medianMax(rows) {
		maxHead = "median max"
	}
	t := &tableBlock{Head: textRow("system", "settings", "runs", "requests", "errors", "req/s", "min ms", "mean", "p50", "p90", "p95", "p99", maxHead),
		Numeric: []bool{false, false, true, true, true, true, true, true, true, true, true, true, true}, Class: "numbers"}
	keep := len(rows)
	if maxRows >= 0 && keep > maxRows {
		keep = maxRows
	}
	for _, r := range rows[:keep] {
		n := r.g.Numbers
		settings := distinctSettings(r.g.Settings, all)
		if settings == "" {
			settings = settingsText(r.g.Settings)
		}
		cells := []string{r.system, settings, runsCell(n, len(r.g.Runs)),
			fmt.Sprintf("%d (%s s)", n.Requests, num(n.DurationS)), errorsText(n), rpsText(n)}
		for _, l := range latencyFigures(n) {
			cells = append(cells, figText(l.fig))
		}
		t.Rows = append(t.Rows, textRow(cells...))
	}
	out := []block{t}
	legend := numbersLegend(v, rows)
	if keep < len(rows) {
		legend = numbersMore(len(rows)-keep) + legend
	}
	return append(out, &paragraph{Runs: []inline{tx(legend)}, Class: "legend"})
}

// medianMax reports whether a row's max is the median of its runs' maxima:
// the column is then named so, never plain "max".
func medianMax(rows []numbersRow) bool {
	return slices.ContainsFunc(rows, func(r numbersRow) bool {
		f := r.g.Numbers.LatMaxMs
		return f != nil && f.Aggregate == analyze.AggregateMedian
	})
}

// numbersMore opens the numbers' legend when n rows were left out.
func numbersMore(n int) string { return fmt.Sprintf("%d more in the full report. ", n) }

// numbersLegend says what the numbers table's figures are over and how
// each sums up its runs, once per aggregate, as analyze chose them.
func numbersLegend(v *analyze.Verdict, rows []numbersRow) string {
	byAgg := map[string][]string{}
	var order []string
	add := func(agg, label string) {
		if agg == analyze.AggregateOneRun {
			return
		}
		if _, ok := byAgg[agg]; !ok {
			order = append(order, agg)
		}
		if !slices.Contains(byAgg[agg], label) {
			byAgg[agg] = append(byAgg[agg], label)
		}
	}
	several := false
	for _, r := range rows {
		n := r.g.Numbers
		if n.Runs < 2 {
			continue
		}
		several = true
		add(n.RPS.Aggregate, "req/s")
		if n.ErrorRate != nil {
			add(n.ErrorRate.Aggregate, "error rate")
		}
		for _, l := range latencyFigures(n) {
			if l.fig == nil {
				continue
			}
			if l.metric == analyze.MetricLatMaxMs && l.fig.Aggregate == analyze.AggregateMedian {
				continue // its column's name says it: median max
			}
			add(l.fig.Aggregate, l.label)
		}
	}
	var b strings.Builder
	b.WriteString("Over each row's steady runs, else its only or last run; latencies in ms. ")
	if several {
		b.WriteString("Several runs: requests, errors and duration summed")
		for _, a := range order {
			fmt.Fprintf(&b, "; %s: %s", strings.Join(byAgg[a], ", "), aggregateName(a))
		}
		b.WriteString(". ")
	} else {
		b.WriteString("One run per row: its own figures. ")
	}
	if s := percentileSource(v); s != "" {
		b.WriteString(s + " ")
	}
	return strings.TrimSuffix(b.String(), " ")
}

// aggregateName words an aggregate code: "median of runs".
func aggregateName(a string) string {
	switch a {
	case analyze.AggregateMedian:
		return "median of runs"
	case analyze.AggregateMean:
		return "mean of runs"
	case analyze.AggregateSum:
		return "total of runs"
	}
	return "one run's"
}

// percentileSource says where the runs' percentiles come from when it
// matters to a reader comparing with the tool's own report: computed
// from every request (exact), or vegeta's own t-digest estimates.
func percentileSource(v *analyze.Verdict) string {
	var exact, exactVegeta, digest bool
	for _, r := range v.Runs {
		switch {
		case r.HasSamples:
			exact = true
			exactVegeta = exactVegeta || r.Tool == "vegeta"
		case r.Tool == "vegeta":
			digest = true
		}
	}
	var s []string
	switch {
	case exactVegeta:
		s = append(s, "Percentiles of per-request results are exact, from every request (nearest rank; vegeta report's own p50-p99 are t-digest estimates and can differ, most in the tail; its min, mean and max are exact, as these are).")
	case exact:
		s = append(s, "Percentiles of per-request results are exact, from every request (nearest rank).")
	}
	if digest {
		s = append(s, "Percentiles of vegeta's own reports are its t-digest estimates.")
	}
	return strings.Join(s, " ")
}

// numbersSentence words one group's numbers for the headline: "489.9
// req/s (sent 500.2), 2 % errors, latency p50 2.479, p90 3.171, p99
// 15.03, max 49.84 ms", with the aggregate of each kind of figure when
// they are over several runs.
//
// Over several runs "max" is the median of their maxima, so it is named
// so, with the highest of them (highest, 0: unknown) when that is higher.
func numbersSentence(n analyze.Numbers, highest float64) string {
	s := num(n.RPS.Value) + " req/s"
	if n.SentRPS != nil {
		s += " successful (" + num(n.SentRPS.Value) + " sent)"
	}
	if n.ErrorRate != nil {
		s += ", " + pct(n.ErrorRate.Value) + " errors"
	}
	var lat []string
	var agg string
	for _, l := range latencyFigures(n) {
		if l.fig != nil && l.metric != analyze.MetricLatMinMs && l.metric != analyze.MetricLatMeanMs && l.metric != analyze.MetricLatP95Ms {
			label := l.label
			if l.metric == analyze.MetricLatMaxMs && n.Runs > 1 {
				label = "median max"
				if highest > l.fig.Value && num(highest) != num(l.fig.Value) {
					lat = append(lat, "median max "+num(l.fig.Value)+", highest max "+num(highest))
					continue
				}
			}
			lat = append(lat, label+" "+num(l.fig.Value))
			agg = l.fig.Aggregate
		}
	}
	if len(lat) > 0 {
		s += ", latency " + strings.Join(lat, ", ") + " ms"
	}
	if n.Runs > 1 {
		s += fmt.Sprintf(" (the %s req/s and %s latencies of %s)", strings.TrimSuffix(n.RPS.Aggregate, "-of-runs"),
			strings.TrimSuffix(agg, "-of-runs"), plural(n.Runs, "steady run"))
	}
	return s
}
