package main

import (
	"math"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
	"gonum.org/v1/gonum/stat"
)

// realizedStep is the step a series' construction made, measured: the
// regression of svc's throughput relative to the same night's control
// (an unchanged build, so the machine's swings cancel), its nights in
// effect against the others, pooled over the whole series. Percent
// worse and its standard error; ok false without a step or without
// nights on either side. The grid's steps are set in work per request,
// and a request costs more than its work (the server's parsing, the
// tool's share of the one CPU both run on), so a step of 8 % in work is
// less in throughput; the gate's allowed 5 % is judged against this.
func realizedStep(rec SeriesRecord, verdicts []*analyze.Verdict) (pct, se float64, ok bool) {
	var in, out []float64
	for i, nt := range rec.Nights {
		s, c := nightLogRPS(verdicts[i])
		if len(s) == 0 || len(c) == 0 {
			continue
		}
		d := stats.Mean(s) - stats.Mean(c)
		if nt.RegressionPct > 0 {
			in = append(in, d)
		} else {
			out = append(out, d)
		}
	}
	if len(in) < 2 || len(out) < 2 {
		return 0, 0, false
	}
	diff := stats.Mean(out) - stats.Mean(in) // > 0: svc slower in effect
	v := stat.Variance(in, nil)/float64(len(in)) + stat.Variance(out, nil)/float64(len(out))
	return 100 * (math.Exp(diff) - 1), 100 * math.Sqrt(v) * math.Exp(diff), true
}

// nightLogRPS is a night's runs' log throughput, svc's and the
// control's, in the order they ran (interleaved: run k of each paired).
func nightLogRPS(v *analyze.Verdict) (svc, control []float64) {
	for _, r := range v.Runs {
		if r.RPS <= 0 {
			continue
		}
		switch r.Label {
		case "svc":
			svc = append(svc, math.Log(r.RPS))
		case "control":
			control = append(control, math.Log(r.RPS))
		}
	}
	return svc, control
}

// residualFigure is what the control leaves of the night on one series
// (residualOverControl): the nights' spread over the control against
// the paired runs' noise of a night, squared; its weight (the nights'
// degrees of freedom); and the residual between-night variance it
// implies, in units of sigma_r².
type residualFigure struct {
	Ratio2   float64 `json:"ratio2"`
	Weight   float64 `json:"weight"`
	Residual float64 `json:"residual_var"`
}

// residualOverControl measures what the control leaves of the night on
// one series: the spread of svc's log throughput over the control's
// across the nights without the change, against the noise its paired
// runs give a night's value (the run-by-run log ratios' variance over
// the runs a night: what the check's floor is, and what the whole night
// would vary by if the control cancelled the machine entirely). The
// residual is in units of sigma_r², the run-to-run variance of one
// system's log cost (a night's ratio of n paired runs has variance
// 2·sigma_r²/n). Nil with fewer than 3 such nights or without 2 paired
// runs a night.
func residualOverControl(rec SeriesRecord, verdicts []*analyze.Verdict) *residualFigure {
	var nights []float64
	var ss float64
	df, runs := 0, 0
	for i, nt := range rec.Nights {
		if nt.RegressionPct > 0 {
			continue
		}
		s, c := nightLogRPS(verdicts[i])
		if len(s) < 2 || len(c) != len(s) {
			continue
		}
		d := make([]float64, len(s))
		for k := range s {
			d[k] = s[k] - c[k]
		}
		nights = append(nights, stats.Mean(d))
		ss += stat.Variance(d, nil) * float64(len(d)-1)
		df += len(d) - 1
		runs += len(d)
	}
	if len(nights) < 3 || df == 0 || ss == 0 {
		return nil
	}
	n := float64(runs) / float64(len(nights)) // runs a night
	ratio2 := stat.Variance(nights, nil) / (ss / float64(df) / n)
	return &residualFigure{Ratio2: ratio2, Weight: float64(len(nights) - 1), Residual: (ratio2 - 1) * 2 / n}
}

// residualSum pools the series' residualFigures: the weighted ratios
// squared and residual variances, the weight, the series, and the
// smallest and largest ratio (not squared).
type residualSum struct {
	R2, V, W float64
	N        int
	Min, Max float64
}

func (s *residualSum) add(f residualFigure) {
	r := math.Sqrt(f.Ratio2)
	if s.N == 0 || r < s.Min {
		s.Min = r
	}
	s.Max = max(s.Max, r)
	s.R2, s.V, s.W = s.R2+f.Weight*f.Ratio2, s.V+f.Weight*f.Residual, s.W+f.Weight
	s.N++
}

// nightStep is the step one night of an open-model series measured in
// mean latency ([0]) and p99 latency ([1]): svc's over the same night's
// control (its runs interleaved with svc's), against that ratio on the
// series' nights without the change; percent worse and standard errors
// (the night's runs' spread and the reference nights' mean's).
type nightStep struct {
	pct, se [2]float64
	ok      [2]bool
}

// expect is a regression night's expectation given the latencies it
// measured (stepExpect on each): the drawn one (fail, or step-night)
// when either latency is beyond the allowed regression by two standard
// errors; pass when both are below it by as much; else either. Under an
// open model the same step in work costs more latency on a busier
// machine, so the truth of a night is what its latency over the control
// says, not the work alone.
func (s nightStep) expect(drawn string, allowed float64) string {
	if !s.ok[0] && !s.ok[1] {
		return drawn
	}
	out := expectPass
	for k := range s.pct {
		if !s.ok[k] {
			continue
		}
		switch e := stepExpect(drawn, s.pct[k], s.se[k], allowed); e {
		case drawn:
			return drawn
		case expectEither:
			out = expectEither
		}
	}
	return out
}

// realizedLatencySteps measures every night's step in an open-model
// series (nightStep), aligned with rec.Nights; a night without both
// systems' latencies, or a series without two nights free of the change,
// measures nothing (ok false).
func realizedLatencySteps(rec SeriesRecord, verdicts []*analyze.Verdict) []nightStep {
	out := make([]nightStep, len(rec.Nights))
	for k, lat := range []func(r results.Run) *float64{
		func(r results.Run) *float64 { return r.LatMeanMs },
		func(r results.Run) *float64 { return r.LatP99Ms },
	} {
		d := make([]float64, len(rec.Nights)) // log svc/control of the night
		v := make([]float64, len(rec.Nights)) // its variance from the runs
		ok := make([]bool, len(rec.Nights))
		var free []float64
		for i, nt := range rec.Nights {
			var s, c []float64
			for _, r := range verdicts[i].Runs {
				if x := lat(r); x != nil && *x > 0 {
					switch r.Label {
					case "svc":
						s = append(s, math.Log(*x))
					case "control":
						c = append(c, math.Log(*x))
					}
				}
			}
			if len(s) < 2 || len(c) < 2 {
				continue
			}
			d[i], ok[i] = stats.Mean(s)-stats.Mean(c), true
			v[i] = stat.Variance(s, nil)/float64(len(s)) + stat.Variance(c, nil)/float64(len(c))
			if nt.RegressionPct == 0 {
				free = append(free, d[i])
			}
		}
		if len(free) < 2 {
			continue
		}
		base, freeV := stats.Mean(free), stat.Variance(free, nil)
		for i := range rec.Nights {
			if !ok[i] {
				continue
			}
			// A night's ratio moves from night to night even for an
			// unchanged build (the machine's load does not cancel fully
			// in latency): its error is at least that spread's, and
			// never below its own runs'.
			x := d[i] - base
			se := math.Sqrt(max(v[i], freeV) + freeV/float64(len(free)))
			out[i].pct[k], out[i].se[k], out[i].ok[k] = 100*math.Expm1(x), 100*se*math.Exp(x), true
		}
	}
	return out
}
