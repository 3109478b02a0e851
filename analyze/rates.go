package analyze

import (
	"cmp"
	"math"
	"slices"

	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// RateTolerance is the relative distance within which requested rates
// that were inferred from what a tool measured (vegeta's report without
// its command line, a per-request log's send times) are taken as one
// requested rate: 2 %. A generator on schedule sends within a fraction of
// a percent of its -rate (300.2-300.8 req/s for -rate 300 over 3 s), so
// runs of one -rate fall well inside it, while rates a test plan would
// set apart (300 and 310) do not.
const RateTolerance = 0.02

// mergeInferredRates makes runs of one requested rate one setting: a
// run's inferred requested rate (results.Run.RateInferred) within
// RateTolerance of a stated one at otherwise equal settings takes the
// stated rate; the remaining inferred rates are clustered (sorted, a
// cluster spans at most RateTolerance of its lowest rate) and each run
// takes its cluster's median. It changes runs in place and returns one
// rates-merged finding's facts and runs per cluster of two or more
// different rates.
func mergeInferredRates(runs []results.Run) (facts []RatesMergedFacts, members [][]RunRef) {
	// Settings other than the rate, which must be equal for a merge.
	other := func(r results.Run) string {
		s := settingsOf(r)
		s.TargetRPS = nil
		return s.key()
	}
	stated := map[string][]float64{}
	inferred := map[string][]int{}
	for i, r := range runs {
		if r.TargetRPS == nil || !(*r.TargetRPS > 0) {
			continue
		}
		k := other(r)
		if r.RateInferred() {
			inferred[k] = append(inferred[k], i)
		} else {
			stated[k] = append(stated[k], *r.TargetRPS)
		}
	}
	keys := make([]string, 0, len(inferred))
	for k := range inferred {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		idx := inferred[k]
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(*runs[a].TargetRPS, *runs[b].TargetRPS) })
		var cluster []int
		flush := func() {
			if len(cluster) == 0 {
				return
			}
			rates := make([]float64, len(cluster))
			for j, i := range cluster {
				rates[j] = *runs[i].TargetRPS
			}
			to := stats.Median(rates)
			if s, ok := nearestWithin(stated[k], to); ok {
				to = s
			}
			var refs []RunRef
			for _, i := range cluster {
				runs[i].TargetRPS = results.Ptr(to)
				refs = append(refs, runRef(runs[i]))
			}
			if rates[0] != rates[len(rates)-1] || len(stated[k]) > 0 && rates[0] != to {
				facts = append(facts, RatesMergedFacts{Rate: to, Lo: rates[0], Hi: rates[len(rates)-1], Tolerance: RateTolerance})
				members = append(members, refs)
			}
			cluster = nil
		}
		for _, i := range idx {
			x := *runs[i].TargetRPS
			if len(cluster) > 0 && x > *runs[cluster[0]].TargetRPS*(1+RateTolerance) {
				flush()
			}
			cluster = append(cluster, i)
		}
		flush()
	}
	return facts, members
}

// nearestWithin returns the value of xs nearest to x, if it lies within
// RateTolerance of x.
func nearestWithin(xs []float64, x float64) (float64, bool) {
	best, ok := 0.0, false
	for _, s := range xs {
		if math.Abs(s-x) <= RateTolerance*x && (!ok || math.Abs(s-x) < math.Abs(best-x)) {
			best, ok = s, true
		}
	}
	return best, ok
}
