package main

import (
	"math"

	"github.com/loadverdict/loadverdict/analyze"
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
		v := verdicts[i]
		var s, c []float64
		for _, r := range v.Runs {
			if r.RPS <= 0 {
				continue
			}
			switch r.Label {
			case "svc":
				s = append(s, math.Log(r.RPS))
			case "control":
				c = append(c, math.Log(r.RPS))
			}
		}
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
