package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// The families of issue 31 within one experiment: an error-rate
// regression between two systems (errors), short pauses within one run
// (pauses) and one round disturbed by a co-running CPU hog
// (outlier-round).

// Expected outcomes of the errors family.
const (
	// expectMoreErrors: B's requests fail more often than A's by more
	// than the error band (analyze.DefaultErrorBandPts).
	expectMoreErrors = "B-more-errors"
	// expectSameErrors: A and B fail equally often (A/A).
	expectSameErrors = "same-errors"
	// expectErrorsInBand: B fails more often, but by no more than the
	// band: either verdict is right, but for A having more.
	expectErrorsInBand = "errors-in-band"
)

// Expected outcomes of the pauses family.
const (
	expectPeriodicPauses  = "periodic-pauses"
	expectIrregularPauses = "irregular-pauses"
	expectNoPauses        = "no-pauses"
)

// Expected outcomes of the outlier-round family.
const (
	expectOutlierRound  = "outlier-round"
	expectOutlierEither = "outlier-either"
	expectNoOutlier     = "no-outlier"
)

// Tool variants of the errors family: vegeta's closed model (as many
// workers as wrk's connections, -rate=0) and open model (a fixed rate).
const (
	vegetaClosed = "vegeta-closed"
	vegetaOpen   = "vegeta-open"
)

// hogShare is the share (percent) of a CPU that a busy loop nice levels
// below a busy server gets from the fair scheduler: the CFS weights are
// 1024 at nice 0 and 1.25 times smaller per level.
func hogShare(nice int) float64 {
	w := math.Pow(1.25, -float64(nice))
	return round(100*w/(1+w), 1)
}

// drawErrors draws an error-rate comparison: B answers a share of its
// requests with 500 at the same latency (truthserver -fail-share: the
// failing requests evenly spread), A none or a small share; A/A
// experiments give B A's share. 2-10 runs of 2 s a side, interleaved or in
// blocks, with wrk, hey, or vegeta (closed or open model), text reports.
func drawErrors(r *rand.Rand, s *Scenario) {
	tool := pick(r, toolWrk, toolHey, vegetaClosed, vegetaOpen)
	na := between(r, 2, 10)
	nb := na
	if r.IntN(2) == 0 {
		nb = between(r, 2, 10)
	}
	layout := pick(r, "interleaved", "interleaved", "blocks")
	aPct := 0.0
	if r.IntN(2) == 0 {
		aPct = round(uni(r, 0.05, 0.25), 2)
	}
	aa := r.IntN(10) < 3
	bPct := aPct
	if !aa {
		bPct = round(uni(r, 0.3, 5), 2)
	}
	work := between(r, 15, 40) * 100
	c := pick(r, 4, 8)
	rate := between(r, 20, 50) * 10
	delay := 0.0
	if tool != toolWrk {
		delay = round(uni(r, 1, 3), 1)
	}
	s.Params["runs_a"], s.Params["runs_b"], s.Params["error_pct_a"], s.Params["error_pct_b"] = float64(na), float64(nb), aPct, bPct
	s.Params["work"], s.Params["delay_ms"], s.Params["connections"] = float64(work), delay, float64(c)
	for _, sys := range []string{"A", "B"} {
		pct := map[string]float64{"A": aPct, "B": bPct}[sys]
		s.Servers[sys] = abServer(r, s, work, delay)
		if pct > 0 {
			s.Servers[sys] = append(s.Servers[sys], "-fail-share", fl(round(pct/100, 6)))
		}
	}
	order := blocks(na, nb)
	if layout != "blocks" {
		order = alternated(na, nb)
	}
	if tool == vegetaOpen {
		s.Params["rate"] = float64(rate)
	}
	n := map[string]int{}
	for _, sys := range order {
		n[sys]++
		file := fmt.Sprintf("%s/run%02d.txt", sys, n[sys])
		s.Runs = append(s.Runs, RunSpec{System: sys, Tool: errorsTools[tool], Args: errorsArgs(tool, c, rate), DurationS: 2, File: file})
	}
	s.Variant = fmt.Sprintf("%s-%s", tool, layout)
	s.Truth = Truth{Scope: "compare", SystemA: "A", SystemB: "B", RunsA: na, RunsB: nb, Layout: layout, ErrorPctA: aPct, ErrorPctB: bPct}
	errorsTruth(s, aa, aPct, bPct)
}

// errorsTools is the tool that runs each of drawErrors' tools.
var errorsTools = map[string]string{toolWrk: toolWrk, toolHey: toolHey, vegetaClosed: toolVegeta, vegetaOpen: toolVegeta}

// errorsArgs is the arguments of a run of drawErrors' tool at c
// connections, or at rate for vegeta's open model.
func errorsArgs(tool string, c, rate int) []string {
	switch tool {
	case toolWrk:
		return []string{"-t2", "-c" + strconv.Itoa(c), "-d2s", "--latency"}
	case toolHey:
		return []string{"-z", "2s", "-c", strconv.Itoa(c)}
	case vegetaClosed:
		return []string{"-rate=0", "-max-workers=" + strconv.Itoa(c), "-duration=2s", "-timeout=5s"}
	case vegetaOpen:
		return []string{"-rate=" + strconv.Itoa(rate), "-duration=2s", "-timeout=5s"}
	}
	return nil
}

// blocks is na runs of A then nb of B.
func blocks(na, nb int) []string {
	var order []string
	for range na {
		order = append(order, "A")
	}
	for range nb {
		order = append(order, "B")
	}
	return order
}

// alternated is na runs of A and nb of B in turn, A first, the longer
// side's rest at the end.
func alternated(na, nb int) []string {
	var order []string
	for i := range max(na, nb) {
		if i < na {
			order = append(order, "A")
		}
		if i < nb {
			order = append(order, "B")
		}
	}
	return order
}

// errorsTruth says what an error comparison expects: the same errors
// (A/A), more errors beyond the 0.1-point band, or within it.
func errorsTruth(s *Scenario, aa bool, aPct, bPct float64) {
	diff := bPct - aPct
	switch {
	case aa:
		s.Variant = "aa-" + s.Variant
		s.Truth.Expect = expectSameErrors
		s.Truth.Note = fmt.Sprintf("A/A errors: both servers answer %.2f %% of their requests with 500, at the same latency", aPct)
	case diff > 0.1+1e-9:
		s.Truth.Expect, s.Truth.Direction = expectMoreErrors, "worse"
		s.Truth.Note = fmt.Sprintf("an error regression: B answers %.2f %% of its requests with 500, A %.2f %%, at the same latency: %.2f points more, beyond the 0.1-point band", bPct, aPct, diff)
	default:
		s.Truth.Expect, s.Truth.Direction = expectErrorsInBand, "worse"
		s.Truth.Note = fmt.Sprintf("B answers %.2f %% of its requests with 500, A %.2f %%: %.2f points more, within the 0.1-point band", bPct, aPct, diff)
	}
}

// drawPauses draws one per-request run whose server freezes all
// handling for D = 20-100 ms (at most a quarter of the period) every P =
// 0.2-3 s: at a regular interval (periodic), moved by up to ±35-45 % of
// the period at random (irregular), or never (control); 10-30 s, at
// least 6 periods and 2 s; vegeta at a fixed rate (open model) or hey's
// 8 workers at a rate each (q·D >= 1.2).
func drawPauses(r *rand.Rand, s *Scenario) {
	s.Servers["S"] = sleepServer(r, s)
	k := r.IntN(10)
	period := round(uni(r, 0.2, 3), 2)
	stall := math.Round(uni(r, 20, math.Min(100, 250*period)))
	d := math.Min(30, math.Max(float64(between(r, 10, 16)), math.Ceil(6*period)+2))
	tool := pick(r, toolVegeta, toolVegeta, toolHey)
	s.Params["duration_s"], s.Params["period_s"], s.Params["stall_ms"] = d, period, stall
	var q float64
	switch tool {
	case toolVegeta:
		rate := between(r, 20, 40) * 10
		s.Params["rate"] = float64(rate)
		perRequestRun(s, "S", toolVegeta, d, rate, "run")
	case toolHey:
		q = math.Max(25, math.Ceil(1200/stall))
		s.Params["rate_per_worker"] = q
		s.Runs = append(s.Runs, RunSpec{System: "S", Tool: toolHey, DurationS: d,
			Args: []string{"-z", dur(d), "-c", "8", "-q", fl(q), "-o", "csv"}, File: "S/run.csv.gz"})
	}
	share := 100 * stall / 1000 / period
	if tool == toolHey {
		share = 100 / (q * period)
	}
	s.Truth = Truth{Scope: "within-run", PeriodS: period, StallS: stall / 1000}
	switch {
	case k < 6:
		s.Variant = "periodic-" + tool
		s.Servers["S"] = append(s.Servers["S"], "-stall-every", dur(period), "-stall-for", dur(stall/1000))
		s.Truth.Expect, s.Truth.SharePct = expectPeriodicPauses, round(share, 2)
		s.Truth.Note = fmt.Sprintf("periodic pauses: all handling frozen for %.0f ms every %.2f s; %.2f %% of the requests held", stall, period, share)
	case k < 8:
		j := round(uni(r, 0.35, 0.45)*period, 3)
		s.Params["jitter_s"] = j
		s.Variant = "irregular-" + tool
		s.Servers["S"] = append(s.Servers["S"], "-stall-every", dur(period), "-stall-for", dur(stall/1000), "-stall-jitter", dur(j))
		s.Truth.Expect, s.Truth.SharePct, s.Truth.JitterS = expectIrregularPauses, round(share, 2), j
		s.Truth.Note = fmt.Sprintf("irregular pauses: all handling frozen for %.0f ms about every %.2f s, each moved by a uniform draw in ±%.3f s: not periodic", stall, period, j)
	default:
		s.Variant = "none-" + tool
		s.Truth.PeriodS, s.Truth.StallS = 0, 0
		s.Truth.Expect = expectNoPauses
		s.Truth.Note = "no pauses: the server's cost is the same throughout"
	}
}

// drawOutlierRound draws 6-8 rounds (wrk or hey, 2-3 s) of a flat,
// CPU-bound server pinned to CPU 1 (the tool to CPU 0) where, during one
// drawn round (any position), a busy loop pinned to the server's CPU
// takes a share of it: 21-50 % (nice 0-6 below the generator), a mild
// 5-8 % (nice 11-13), or none (control).
func drawOutlierRound(r *rand.Rand, s *Scenario) {
	s.Pin = &Pin{ServerCPU: 1, ToolCPU: 0}
	s.Servers["S"] = cpuServer(r, s)
	n := between(r, 6, 8)
	d := pick(r, 2.0, 2.0, 3.0)
	tool := pick(r, toolWrk, toolWrk, toolHey)
	c := pick(r, 4, 8)
	s.Params["rounds"], s.Params["round_s"], s.Params["connections"] = float64(n), d, float64(c)
	for i := 1; i <= n; i++ {
		run := RunSpec{System: "S", Tool: tool, DurationS: d, File: fmt.Sprintf("S/round%02d.txt", i)}
		switch tool {
		case toolWrk:
			run.Args = []string{"-t1", "-c" + strconv.Itoa(c), "-d" + dur(d), "--latency"}
		case toolHey:
			run.Args = []string{"-z", dur(d), "-c", strconv.Itoa(c)}
		}
		s.Runs = append(s.Runs, run)
	}
	k := r.IntN(10)
	s.Truth = Truth{Scope: "across-runs"}
	if k >= 8 {
		s.Variant = "control-" + tool
		s.Truth.Expect = expectNoOutlier
		s.Truth.Note = "no hog: the server is flat in every round"
		return
	}
	nice := between(r, 0, 6)
	s.Variant = "hog-" + tool
	s.Truth.Expect = expectOutlierRound
	if k >= 6 {
		nice = between(r, 11, 13)
		s.Variant = "mild-hog-" + tool
		s.Truth.Expect = expectOutlierEither
	}
	round := between(r, 1, n)
	share := hogShare(nice)
	s.Params["hog_round"], s.Params["hog_nice"], s.Params["hog_share_pct"] = float64(round), float64(nice), share
	s.Runs[round-1].Hog = &Hog{Nice: nice, SharePct: share}
	s.Truth.OutlierRound, s.Truth.HogSharePct = round, share
	s.Truth.Note = fmt.Sprintf("a flat server; during round %d of %d only a busy loop on the server's CPU (nice +%d) takes about %.0f %% of it", round, n, nice, share)
}
