package analyze

import (
	"errors"
	"math"
	"strconv"

	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// ThresholdStatus is the outcome of checking a threshold on one group.
type ThresholdStatus string

// The outcomes of a threshold check.
const (
	// ThresholdPass: the value and its CI over runs (the value alone,
	// without a CI) meet the limit.
	ThresholdPass ThresholdStatus = "pass"
	// ThresholdFail: the value lies on the wrong side of the limit,
	// whatever its CI.
	ThresholdFail ThresholdStatus = "fail"
	// ThresholdMarginal: the value meets the limit but its CI over runs
	// reaches past it: the runs cannot show that it holds.
	ThresholdMarginal ThresholdStatus = "marginal"
	// ThresholdUnknown: a run does not report the metric (p99 from wrk
	// without --latency, say).
	ThresholdUnknown ThresholdStatus = "unknown"
)

// ThresholdCheck is one threshold of Options.SLO checked on one system
// at one settings.
type ThresholdCheck struct {
	// Threshold is the index of the threshold in Options.SLO.
	Threshold int
	System    string
	Settings  Settings
	Status    ThresholdStatus
	// Value is the group's value of the metric over Runs runs: the mean
	// for rps, lat_mean_ms and error_rate, the median of the runs' values
	// for latency percentiles and the maximum (never averaged); nil when
	// unknown.
	Value *float64
	// CI is the Level interval of Value over the runs, when there are
	// enough (SteadyStateCI for a mean, MedianCI for a median).
	CI *stats.CI
	// Runs is the number of runs Value is over; Steady is false when the
	// group has no steady state, so Value is its last run's.
	Runs   int
	Steady bool
	// CINeed is the fewest runs a CI needs, when there is none because
	// there are fewer.
	CINeed int
	// Missing is the number of runs without the metric (unknown).
	Missing int
	// Aggregate is how Value sums up the runs (AggregateOf).
	Aggregate string
}

// RepRuns returns the runs a group's values stand for: its steady runs,
// or its last run when it has no steady state (steady is then false).
func (g *Group) RepRuns() (runs []results.Run, steady bool) {
	if sr := steadyRuns(g); len(sr) > 0 {
		return sr, true
	}
	return g.Runs[len(g.Runs)-1:], false
}

// ErrorRate returns the group's error rate: the mean of the error rates
// (ErrorRate) of its RepRuns; ok is false when one attempted no request.
func (g *Group) ErrorRate() (rate float64, ok bool) {
	runs, _ := g.RepRuns()
	x, missing := metricValues(runs, gate.ErrorRate)
	if missing > 0 || len(x) == 0 {
		return 0, false
	}
	return stats.Mean(x), true
}

// metricValues returns the runs' values of a threshold metric and how
// many runs lack it.
func metricValues(runs []results.Run, m gate.Metric) (x []float64, missing int) {
	for _, r := range runs {
		var p *float64
		switch m {
		case gate.RPS:
			p = &r.RPS
		case gate.LatMeanMs:
			p = r.LatMeanMs
		case gate.LatP50Ms:
			p = r.LatP50Ms
		case gate.LatP90Ms:
			p = r.LatP90Ms
		case gate.LatP99Ms:
			p = r.LatP99Ms
		case gate.LatP999Ms:
			p = r.LatP999Ms
		case gate.LatMaxMs:
			p = r.LatMaxMs
		case gate.ErrorRate:
			if rate, ok := ErrorRate(r); ok {
				p = &rate
			}
		}
		if p == nil || !finite(*p) {
			missing++
			continue
		}
		x = append(x, *p)
	}
	return x, missing
}

// medianMetric reports whether a metric's value over runs is their
// median: latency percentiles and the maximum are never averaged.
func medianMetric(m gate.Metric) bool {
	return m != gate.RPS && m != gate.LatMeanMs && m != gate.ErrorRate
}

// Applies reports whether a threshold's scope covers a system at some
// settings.
func Applies(t gate.Threshold, system string, s Settings) bool {
	sc := t.Scope
	return (sc.System == "" || sc.System == system) &&
		(sc.Connections == nil || s.Connections != nil && *s.Connections == *sc.Connections) &&
		(sc.Threads == nil || s.Threads != nil && *s.Threads == *sc.Threads) &&
		(sc.Rate == nil || s.TargetRPS != nil && sameRate(*s.TargetRPS, *sc.Rate))
}

// sameRate reports whether a scope's rate names a group's requested rate:
// equal to the 3 significant digits the settings show (rate=100.1 for
// 100.1001 req/s), or within RateTolerance of it, the distance within
// which inferred rates are one requested rate (rate=100 for 100.1001).
func sameRate(group, scope float64) bool {
	return strconv.FormatFloat(group, 'g', 3, 64) == strconv.FormatFloat(scope, 'g', 3, 64) ||
		math.Abs(group-scope) <= RateTolerance*math.Abs(group)
}

// thresholds checks every threshold of Options.SLO on every group its
// scope covers, in the order of the thresholds, systems and groups.
func (v *Verdict) thresholds() {
	for ti, t := range v.Options.SLO {
		for si := range v.Systems {
			s := &v.Systems[si]
			for gi := range s.Groups {
				if g := &s.Groups[gi]; Applies(t, s.Label, g.Settings) {
					v.Thresholds = append(v.Thresholds, v.checkThreshold(ti, t, s.Label, g))
				}
			}
		}
	}
}

// checkThreshold checks one threshold on one group's steady values.
func (v *Verdict) checkThreshold(ti int, t gate.Threshold, system string, g *Group) ThresholdCheck {
	o := v.Options
	runs, steady := g.RepRuns()
	c := ThresholdCheck{Threshold: ti, System: system, Settings: g.Settings, Runs: len(runs), Steady: steady,
		Aggregate: AggregateOf(string(t.Metric))}
	x, missing := metricValues(runs, t.Metric)
	if missing > 0 {
		c.Status, c.Missing = ThresholdUnknown, missing
		return c
	}
	var value float64
	var ci stats.CI
	var err error
	if medianMetric(t.Metric) {
		value = stats.Median(x)
		ci, err = stats.MedianCI(x, o.Level)
	} else {
		value = stats.Mean(x)
		err = &stats.TooFewError{Method: "threshold CI", Need: o.MinRuns, Have: len(x)}
		if len(x) >= o.MinRuns {
			ci, err = stats.SteadyStateCI(x, o.Resamples, o.Level, o.Seed)
		}
	}
	c.Value = &value
	var few *stats.TooFewError
	switch {
	case err == nil:
		c.CI = &ci
	case errors.As(err, &few):
		c.CINeed = few.Need
	}
	switch {
	case !t.Holds(value):
		c.Status = ThresholdFail
	case c.CI == nil || t.Holds(ci.Lo) && t.Holds(ci.Hi):
		c.Status = ThresholdPass
	default:
		c.Status = ThresholdMarginal
	}
	return c
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
