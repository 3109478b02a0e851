package analyze_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// openRun makes an open-model vegeta run of label at requested rate rate,
// inferred (a note says so, as the ingest writes it) or stated.
func openRun(label string, seq int, rate float64, inferred bool) results.Run {
	r := results.Run{
		RunID: results.RunID("rates", seq), Experiment: "t", Source: "test", Index: int32(seq), Seq: int32(seq),
		Tool: "vegeta", LoadModel: results.LoadOpen, Label: label, Target: "http://" + label + "/",
		DurationS: 3, Requests: int64(3 * rate), RPS: rate, TargetRPS: results.Ptr(rate), LatMeanMs: results.Ptr(5.0),
	}
	if inferred {
		r.Notes = results.Ptr(fmt.Sprintf("requested rate %g %s send times", rate, results.NoteRateInferred))
	}
	return r
}

// Runs of one requested rate are one setting, whatever the rates their
// tool measured (issue 20: four `vegeta attack -rate 300` runs split as
// 300.2 (3 runs) and 300.8 (1 run)); rates further apart than the
// tolerance, or stated by the tool, stay apart; the merge is a finding.
func TestInferredRatesMerge(t *testing.T) {
	groups := func(v *analyze.Verdict) []int {
		var n []int
		for _, s := range v.Systems {
			for _, g := range s.Groups {
				n = append(n, len(g.Runs))
			}
		}
		return n
	}
	merged := func(v *analyze.Verdict) int {
		n := 0
		for _, f := range v.Findings {
			if f.Code == analyze.CodeRatesMerged {
				n++
			}
		}
		return n
	}
	// The named case.
	var runs []results.Run
	for i, r := range []float64{300.2, 300.2, 300.8, 300.2} {
		runs = append(runs, openRun("a", i, r, true))
	}
	v := mustAnalyze(t, runs, nil)
	if g := groups(v); len(g) != 1 || g[0] != 4 || merged(v) != 1 {
		t.Fatalf("300.2 x3 + 300.8: groups %v, rates-merged findings %d; want one group of 4 and one finding", g, merged(v))
	}
	// The family: rates, run counts, positions of the odd run and two
	// systems, drawn at random; jitter within ±0.8 % of the rate.
	rng := rand.New(rand.NewPCG(20, 3))
	for k := range 200 {
		rate := []float64{50, 100, 300, 1000, 2500, 20000}[rng.IntN(6)]
		n := 2 + rng.IntN(7)
		runs = nil
		for i := range 2 * n {
			label := []string{"a", "b"}[i%2]
			runs = append(runs, openRun(label, i, rate*(1+0.016*(rng.Float64()-0.5)), true))
		}
		v := mustAnalyze(t, runs, nil)
		if g := groups(v); len(g) != 2 || g[0] != n || g[1] != n {
			t.Fatalf("draw %d: rate %g, %d runs a side: groups %v", k, rate, n, g)
		}
		cmp := 0
		for _, c := range v.Comparisons {
			if c.Metric == analyze.MetricRPS {
				cmp++
			}
		}
		if cmp != 1 {
			t.Fatalf("draw %d: %d throughput comparisons, want 1 (one shared setting)", k, cmp)
		}
	}
	// Apart: 300 and 310 req/s inferred (3.3 %), and stated rates.
	for _, tc := range []struct {
		rates    []float64
		inferred bool
		want     int
	}{
		{[]float64{300.1, 300.3, 309.9, 310.2}, true, 2},
		{[]float64{300, 300, 301, 301}, false, 2}, // stated: -rate 300 and -rate 301 are two settings
		{[]float64{1000.4, 999.2, 1003.9, 1001}, true, 1},
	} {
		runs = nil
		for i, r := range tc.rates {
			runs = append(runs, openRun("a", i, r, tc.inferred))
		}
		if g := groups(mustAnalyze(t, runs, nil)); len(g) != tc.want {
			t.Errorf("rates %v (inferred %v): %d groups, want %d", tc.rates, tc.inferred, len(g), tc.want)
		}
	}
	// An inferred rate near a stated one takes it.
	runs = []results.Run{openRun("a", 0, 300, false), openRun("a", 1, 300, false), openRun("a", 2, 300.9, true), openRun("a", 3, 299.4, true)}
	if g := groups(mustAnalyze(t, runs, nil)); len(g) != 1 {
		t.Errorf("stated 300 with inferred 300.9 and 299.4: groups %v, want one", g)
	}
}
