package analyze

import (
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// The bases of Numbers: which runs the figures are over.
const (
	// NumbersOneRun: the group has one run; the figures are that run's,
	// as its tool printed them (or, for per-request data, over every
	// request).
	NumbersOneRun = "one-run"
	// NumbersSteadyRuns: the group's steady runs (after its warm-up),
	// those its comparisons and thresholds use.
	NumbersSteadyRuns = "steady-runs"
	// NumbersLastRun: the group has several runs but no steady state;
	// the figures are its last (warmest) run's, as Rep's.
	NumbersLastRun = "last-run"
)

// The aggregates of Numbers' figures beyond AggregateOf's.
const (
	// AggregateOneRun: the figure is one run's own.
	AggregateOneRun = "one-run"
	// AggregateSum: the runs' values added up (requests, errors,
	// duration).
	AggregateSum = "sum-of-runs"
)

// The metrics Numbers gives beyond the compared ones (names of columns
// of the runs table, and of summary.json's numbers).
const (
	MetricSentRPS    = "sent_rps"    // rate requests were sent at (open model), req/s
	MetricSuccessRPS = "success_rps" // rate of successful responses (open model), req/s
	MetricErrorRate  = "error_rate"  // errors over attempted requests (Attempted)
	MetricLatMinMs   = "lat_min_ms"  // minimum latency, ms
	MetricLatP90Ms   = "lat_p90_ms"  // p90 latency, ms
	MetricLatP95Ms   = "lat_p95_ms"  // p95 latency, ms
)

// Figure is one of Numbers' figures with how it sums up the runs it is
// over: AggregateOneRun for a single run, else AggregateOf(metric) (the
// mean of the runs' throughputs, mean latencies and error rates, the
// median of their percentiles, minima and maxima), as every comparison,
// threshold and table of the verdict aggregates that metric.
type Figure struct {
	Value     float64
	Aggregate string
}

// Numbers are the figures a reader looks for first, of one run or of a
// group of runs at equal settings: requests, duration, throughput (sent
// and successful for an open model), error rate and latency from minimum
// to maximum. A group's are over its RepRuns (Basis); a figure is nil
// when one of those runs does not report it.
type Numbers struct {
	// Basis is which runs the figures are over (NumbersOneRun,
	// NumbersSteadyRuns, NumbersLastRun), and Runs how many.
	Basis string
	Runs  int
	// Requests and Errors are the runs' requests (as the runs table
	// counts them) and errors, added up; Attempted the requests their
	// error rates are over (Attempted); DurationS their durations added
	// up, seconds.
	Requests, Errors, Attempted int64
	DurationS                   float64
	// RPS is the throughput the verdict compares (for an open model the
	// rate of successful responses); SentRPS and SuccessRPS are an open
	// model's rates of sending and of successful responses, when the
	// tool gives them.
	RPS                 Figure
	SentRPS, SuccessRPS *Figure
	ErrorRate           *Figure
	LatMinMs, LatMeanMs *Figure
	LatP50Ms, LatP90Ms  *Figure
	LatP95Ms, LatP99Ms  *Figure
	LatMaxMs            *Figure
	// HighestMaxMs is the highest of the runs' maximum latencies, 0 when
	// none says.
	HighestMaxMs float64
}

// numbersAggregate is how Numbers sums up runs' values of a metric:
// the rates as throughput (AggregateOf(MetricRPS)), totals added up,
// everything else as AggregateOf.
func numbersAggregate(metric string) string {
	switch metric {
	case MetricSentRPS, MetricSuccessRPS:
		return AggregateOf(MetricRPS)
	}
	return AggregateOf(metric)
}

// numbersOf returns the Numbers of runs (in seq order) over basis; p95
// gives a run's p95 latency (the percentiles table's 0.95), nil when it
// has none.
func numbersOf(runs []results.Run, basis string, p95 func(results.Run) *float64) Numbers {
	n := Numbers{Basis: basis, Runs: len(runs)}
	for _, r := range runs {
		n.Requests += r.Requests
		n.Errors += r.Errors
		n.Attempted += Attempted(r)
		n.DurationS += r.DurationS
		if r.LatMaxMs != nil {
			n.HighestMaxMs = max(n.HighestMaxMs, *r.LatMaxMs)
		}
	}
	fig := func(metric string, get func(results.Run) *float64) *Figure {
		var x []float64
		for _, r := range runs {
			p := get(r)
			if p == nil || !finite(*p) {
				return nil
			}
			x = append(x, *p)
		}
		if len(x) == 0 {
			return nil
		}
		if len(x) == 1 {
			return &Figure{Value: x[0], Aggregate: AggregateOneRun}
		}
		a := numbersAggregate(metric)
		if a == AggregateMedian {
			return &Figure{Value: stats.Median(x), Aggregate: a}
		}
		return &Figure{Value: stats.Mean(x), Aggregate: a}
	}
	n.RPS = *fig(MetricRPS, func(r results.Run) *float64 { return &r.RPS })
	n.SentRPS = fig(MetricSentRPS, func(r results.Run) *float64 { return r.SentRPS })
	n.SuccessRPS = fig(MetricSuccessRPS, func(r results.Run) *float64 { return r.SuccessRPS })
	n.ErrorRate = fig(MetricErrorRate, func(r results.Run) *float64 {
		if rate, ok := ErrorRate(r); ok {
			return &rate
		}
		return nil
	})
	n.LatMinMs = fig(MetricLatMinMs, func(r results.Run) *float64 { return r.LatMinMs })
	n.LatMeanMs = fig(MetricLatMeanMs, func(r results.Run) *float64 { return r.LatMeanMs })
	n.LatP50Ms = fig(MetricLatP50Ms, func(r results.Run) *float64 { return r.LatP50Ms })
	n.LatP90Ms = fig(MetricLatP90Ms, func(r results.Run) *float64 { return r.LatP90Ms })
	n.LatP95Ms = fig(MetricLatP95Ms, p95)
	n.LatP99Ms = fig(MetricLatP99Ms, func(r results.Run) *float64 { return r.LatP99Ms })
	n.LatMaxMs = fig(MetricLatMaxMs, func(r results.Run) *float64 { return r.LatMaxMs })
	return n
}

// numbers sets the Numbers of every run (Verdict.RunNumbers) and of every
// group (Group.Numbers, over its RepRuns) from the runs and their
// percentiles table.
func (v *Verdict) numbers(pcts map[string][]results.Percentile) {
	p95 := func(r results.Run) *float64 {
		for _, p := range pcts[r.RunID] {
			if p.Quantile == 0.95 {
				return results.Ptr(p.LatencyMs)
			}
		}
		return nil
	}
	v.RunNumbers = make([]Numbers, len(v.Runs))
	for i, r := range v.Runs {
		v.RunNumbers[i] = numbersOf([]results.Run{r}, NumbersOneRun, p95)
	}
	for si := range v.Systems {
		for gi := range v.Systems[si].Groups {
			g := &v.Systems[si].Groups[gi]
			runs, steady := g.RepRuns()
			if steady {
				runs = withoutOutlier(g, runs)
			} else if g.Outlier != nil {
				rest := withoutOutlier(g, g.Runs)
				runs = rest[len(rest)-1:]
			}
			basis := NumbersLastRun
			switch {
			case len(g.Runs) == 1:
				basis = NumbersOneRun
			case steady:
				basis = NumbersSteadyRuns
			}
			g.Numbers = numbersOf(runs, basis, p95)
		}
	}
}
