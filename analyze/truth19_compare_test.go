package analyze_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/stats"
)

// testdata/truth/order-from-time (scripts/truth/make-order-from-time.sh):
// the order runs ran in is read from their start times, not from the
// order of the inputs. Four draws: vegeta runs interleaved in time but
// read in blocks (d1: a1..a4 then b1..b4; d4: three B files then three A
// files, run A B B A A B), vegeta runs in blocks in time (B first) read
// alternating (d2), and wrk runs, which carry no start time, in blocks
// (d3: from the order of the inputs, and said so).
func TestTruthOrderFromTime(t *testing.T) {
	const a, b = "127.0.0.1:19621", "127.0.0.1:19622"
	for _, c := range []struct {
		dir          string
		flagged      bool
		first, from  string
		runsA, runsB int
	}{
		{"d1-interleaved-vegeta", false, "", "", 4, 4},
		{"d2-blocks-vegeta", true, b, analyze.OrderStartTime, 3, 3},
		{"d3-blocks-wrk", true, a, analyze.OrderArguments, 3, 3},
		{"d4-interleaved-vegeta", false, "", "", 3, 3},
	} {
		t.Run(c.dir, func(t *testing.T) {
			v := analyzeTruth(t, truthSet(t, nil, "order-from-time/"+c.dir))
			if len(v.Systems) != 2 || v.Systems[0].Runs+v.Systems[1].Runs != c.runsA+c.runsB {
				t.Fatalf("systems %d, want 2 with %d runs", len(v.Systems), c.runsA+c.runsB)
			}
			fs := findings(v, analyze.CodeNotInterleaved)
			if !c.flagged {
				if len(fs) > 0 {
					t.Fatalf("interleaved runs flagged: %+v", fs[0].Facts)
				}
				return
			}
			if len(fs) != 1 {
				t.Fatalf("%d not-interleaved findings, want 1", len(fs))
			}
			if x := fs[0].Facts.(analyze.NotInterleavedFacts); x.First != c.first || x.OrderFrom != c.from {
				t.Errorf("facts %+v, want %s first, from %s", x, c.first, c.from)
			}
		})
	}
}

// testdata/truth/error-bursts (scripts/truth/make-error-bursts.sh): every
// request arriving in the server's error window fails, the others
// succeed. The finding locates the window (to the 1 s windows of the
// series), holds all or nearly all of the errors, and names the status;
// errors spread evenly (every 8th request, d4) are no burst.
func TestTruthErrorBursts(t *testing.T) {
	type burst struct {
		from, to float64
		status   int32
	}
	for _, c := range []struct {
		file  string
		burst *burst
	}{
		{"d1-middle-vegeta/run.json.gz", &burst{3, 4, 503}},
		{"d2-start-vegeta/run.json.gz", &burst{0, 1, 500}},
		{"d3-end-hey/run.csv.gz", &burst{6, 8, 502}},
		{"d4-spread-vegeta/run.json.gz", nil},
		{"d5-twice-vegeta/run1.json.gz", &burst{1, 2, 503}},
		{"d5-twice-vegeta/run2.json.gz", &burst{5, 7, 503}},
	} {
		t.Run(c.file, func(t *testing.T) {
			v := analyzeTruth(t, truthSet(t, nil, "error-bursts/"+c.file))
			if len(findings(v, analyze.CodeErrors)) != 1 {
				t.Fatalf("want one errors finding: %+v", v.Findings)
			}
			fs := findings(v, analyze.CodeErrorBurst)
			if c.burst == nil {
				if len(fs) > 0 {
					t.Fatalf("spread errors called a burst: %+v", fs[0].Facts)
				}
				return
			}
			if len(fs) != 1 {
				t.Fatalf("%d error-burst findings, want 1", len(fs))
			}
			x := fs[0].Facts.(analyze.ErrorBurstFacts)
			if len(x.Bursts) != 1 || x.Share < 0.95 {
				t.Fatalf("facts %+v, want one burst with >= 95 %% of the errors", x)
			}
			b := x.Bursts[0]
			if b.FromS != c.burst.from || b.ToS != c.burst.to {
				t.Errorf("burst %v-%v s, want %v-%v s", b.FromS, b.ToS, c.burst.from, c.burst.to)
			}
			if len(b.Statuses) != 1 || b.Statuses[0].Status != c.burst.status || b.Statuses[0].N != b.Errors {
				t.Errorf("statuses %+v, want all %d", b.Statuses, c.burst.status)
			}
			// In the words: the headline says when (where the run is
			// the one its error rate is over), the finding the status.
			span := fmt.Sprintf("within %g-%g s", c.burst.from, c.burst.to)
			if h := report.Headline(v); strings.Contains(h, "failed") && !strings.Contains(h, span) {
				t.Errorf("headline %q lacks %q", h, span)
			}
			s := report.NewSummary(v, "")
			if !slices.ContainsFunc(s.Findings, func(f report.SummaryFinding) bool {
				return f.Code == "error-burst" && strings.Contains(f.Message, fmt.Sprintf("(%d x%d)", c.burst.status, b.Errors))
			}) {
				t.Errorf("summary.json has no error-burst finding naming %d x%d", c.burst.status, b.Errors)
			}
		})
	}
}

// testdata/truth/unequal-runs (scripts/truth/make-unequal-runs.sh): real
// wrk and hey runs at unequal sizes. Whatever the noise of the shared
// machine made of each draw: a comparison is blocked for too few runs
// exactly when the exact test's smallest p at the sizes held reaches
// alpha and a side has fewer than 3 runs for Welch's t-test (none here:
// d4's 3 vs 3 is Welch's, analysis version 6); a test's p is the exact
// Mann-Whitney p (Welch's for d4) of the runs it counts (tested + left
// out = held); runs needed are never below
// the runs held. d6: A's first runs are slow (the server's warm-up), left
// out as warm-up and said so, and A is faster over the 4 vs 6 runs left.
func TestTruthUnequalRuns(t *testing.T) {
	for _, c := range []struct {
		dir       string
		heldA     int
		heldB     int
		blocked   bool
		wantRPS   string // the throughput verdict, "" for any
		leftOutsA int    // A's runs left out as warm-up (d6), -1 for any
	}{
		{"d1-3v8-wrk", 3, 8, false, "", -1},
		{"d2-2v10-hey", 10, 2, false, "", -1}, // B ran first: it is side a
		{"d3-5v3-wrk", 5, 3, false, "", -1},
		{"d4-3v3-wrk", 3, 3, false, "", -1}, // below the exact test's reach: Welch's
		{"d5-4v4-aa-wrk", 4, 4, false, "", -1},
		{"d6-warm-wrk", 6, 6, false, analyze.AFaster, 2},
	} {
		t.Run(c.dir, func(t *testing.T) {
			v := analyzeTruth(t, truthSet(t, nil, "unequal-runs/"+c.dir))
			for _, cmp := range v.Comparisons {
				if cmp.AHeld != c.heldA || cmp.BHeld != c.heldB {
					t.Fatalf("%s: held %d/%d, want %d/%d", cmp.Metric, cmp.AHeld, cmp.BHeld, c.heldA, c.heldB)
				}
				tooFew := slices.ContainsFunc(cmp.Reasons, func(r analyze.Reason) bool { return r.Code == analyze.ReasonTooFewRuns })
				// Decidable: the exact test reaches alpha, or both sides
				// hold 3 runs for Welch's t-test (analysis version 6).
				decidable := stats.MinAttainableP(c.heldA, c.heldB) < 0.05 || min(c.heldA, c.heldB) >= analyze.WelchMinRuns
				if tooFew != c.blocked || tooFew != !decidable {
					t.Errorf("%s: too-few-runs %v, want %v", cmp.Metric, tooFew, c.blocked)
				}
				if cmp.RunsNeeded != nil && cmp.Verdict == analyze.Inconclusive && *cmp.RunsNeeded < max(c.heldA, c.heldB) {
					t.Errorf("%s: runs needed %d beside %d/%d runs held", cmp.Metric, *cmp.RunsNeeded, c.heldA, c.heldB)
				}
				if cmp.PValue == nil {
					continue
				}
				if cmp.ARuns+cmp.BRuns+len(cmp.LeftOut) != cmp.AHeld+cmp.BHeld {
					t.Errorf("%s: %d + %d tested and %d left out of %d + %d held", cmp.Metric, cmp.ARuns, cmp.BRuns, len(cmp.LeftOut), cmp.AHeld, cmp.BHeld)
				}
				// The p is the one of the runs counted.
				ga, gb := v.Group(cmp.A, cmp.Settings), v.Group(cmp.B, cmp.Settings)
				xa, xb := tested(ga, cmp, "a"), tested(gb, cmp, "b")
				if len(xa) != cmp.ARuns || len(xb) != cmp.BRuns {
					t.Fatalf("%s: %d/%d runs left after the left-out ones, counted %d/%d", cmp.Metric, len(xa), len(xb), cmp.ARuns, cmp.BRuns)
				}
				if cmp.Metric == analyze.MetricRPS {
					p := math.NaN()
					if cmp.Estimate != nil && cmp.Estimate.Method == stats.MethodWelchLog {
						_, p, _ = stats.WelchLogRatio(xa, xb, 0.95)
					} else {
						_, p, _ = stats.MannWhitney(xa, xb)
					}
					if math.Abs(p-*cmp.PValue) > 1e-12 {
						t.Errorf("p %v, but the %d vs %d runs counted give %v", *cmp.PValue, len(xa), len(xb), p)
					}
				}
			}
			rps := comparisonOf(t, v, analyze.MetricRPS)
			if c.wantRPS != "" && rps.Verdict != c.wantRPS {
				t.Errorf("throughput: %s, want %s (%+v)", rps.Verdict, c.wantRPS, rps.Reasons)
			}
			if c.leftOutsA >= 0 {
				var seqs []int32
				for _, l := range rps.LeftOut {
					if l.Side == "a" && l.Why == analyze.LeftOutWarmup {
						seqs = append(seqs, l.Run.Seq)
					}
				}
				ga := v.Group(rps.A, rps.Settings)
				if len(seqs) != c.leftOutsA || !slices.Equal(seqs, ga.Seqs[:len(seqs)]) {
					t.Errorf("A's runs left out as warm-up: seq %v, want its first %d (%v)", seqs, c.leftOutsA, ga.Seqs)
				}
			}
		})
	}
}

// tested returns the throughput of a side's runs that its comparison did
// not leave out.
func tested(g *analyze.Group, c analyze.Comparison, side string) []float64 {
	var x []float64
	for _, r := range g.Runs {
		if !slices.ContainsFunc(c.LeftOut, func(l analyze.LeftOut) bool { return l.Side == side && l.Run.RunID == r.RunID }) {
			x = append(x, r.RPS)
		}
	}
	return x
}

func comparisonOf(t *testing.T, v *analyze.Verdict, metric string) analyze.Comparison {
	t.Helper()
	for _, c := range v.Comparisons {
		if c.Metric == metric {
			return c
		}
	}
	t.Fatalf("no %s comparison", metric)
	return analyze.Comparison{}
}
