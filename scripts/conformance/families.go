package main

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"
)

// The tools the generator drives.
const (
	toolWrk    = "wrk"
	toolVegeta = "vegeta"
	toolHey    = "hey"
	// toolAb and toolBombardier are drawn by no family: gen -tool makes
	// closed-model series with them (held-out checks of another tool).
	toolAb         = "ab"
	toolBombardier = "bombardier"
)

// Scenario is one experiment as drawn from its family: the servers, the
// runs in execution order and the truth. It is what truth.json records
// (with what the run measured added by gen).
type Scenario struct {
	// ID is "<family>/<NNN>", the experiment's folder under the grid.
	ID      string `json:"id"`
	Family  string `json:"family"`
	Variant string `json:"variant"`
	Seed    uint64 `json:"seed"`
	// Params are the drawn parameters, by name.
	Params map[string]float64 `json:"params"`
	// Servers are the truth servers' flags per system (the address is
	// added at run time).
	Servers map[string][]string `json:"servers"`
	Runs    []RunSpec           `json:"runs"`
	// Pin, when set, pins the servers, hogs and tools to CPUs.
	Pin   *Pin  `json:"pin,omitempty"`
	Truth Truth `json:"truth"`
}

// RunSpec is one run of a load tool against one system's server.
type RunSpec struct {
	System string `json:"system"`
	Tool   string `json:"tool"`
	// Args are the tool's arguments without the target URL.
	Args []string `json:"args"`
	// DurationS is the planned length of the run.
	DurationS float64 `json:"duration_s"`
	// File is the output, relative to the experiment's folder.
	File string `json:"file"`
	// Hog, when set, is a busy loop that runs beside the server during
	// this run only (the outlier-round family).
	Hog *Hog `json:"hog,omitempty"`
}

// Hog is a co-running CPU hog: a busy loop pinned to the server's CPU
// (Scenario.Pin) at Nice levels below the generator's niceness, so that
// the kernel's fair scheduler gives it SharePct of that CPU while the
// server is busy (CFS weights: 1024 at the server's level, 1024/1.25^Nice
// at Nice levels below).
type Hog struct {
	Nice     int     `json:"nice"`
	SharePct float64 `json:"share_pct"`
}

// Pin pins an experiment's processes to CPUs: the servers (and a run's
// hog) to ServerCPU, the load tools to ToolCPU.
type Pin struct {
	ServerCPU int `json:"server_cpu"`
	ToolCPU   int `json:"tool_cpu"`
	// RT runs them under the real-time FIFO policy too (chrt -f 1; the
	// duel family), so that other processes on the machine do not share
	// their CPU.
	RT bool `json:"rt,omitempty"`
}

// Truth is what the experiment is, by construction.
type Truth struct {
	// Expect is the expected outcome (see outcome.go), e.g. "flat",
	// "warmup", "slowdown", "no-steady-state", "periodic-stalls",
	// "single-stall", "error-burst", "overload", "same" (A/A),
	// "A-faster"/"B-faster" (A/B), "B-worse-p99" (tail-only).
	Expect string `json:"expect"`
	// Scope is "across-runs" (rounds of one system), "within-run" (the
	// windows of one per-request run) or "compare" (two systems).
	Scope string `json:"scope"`
	// Direction is "better", "worse" or "" (none).
	Direction string `json:"direction,omitempty"`
	// ChangeFromS and ChangeToS are where the change starts and ends on
	// the server's clock (seconds since its first request); ChangeToS is
	// negative for a change that lasts to the end.
	ChangeFromS float64 `json:"change_from_s,omitempty"`
	ChangeToS   float64 `json:"change_to_s,omitempty"`
	// SizePct is the size of the change of the server's cost (work and
	// delay), in percent of the unchanged cost (+: slower).
	SizePct float64 `json:"size_pct,omitempty"`
	// SystemA and SystemB name the systems (compare); EffectPct is how
	// much more each request of the slower system costs in server work,
	// in percent (0 for A/A).
	SystemA   string  `json:"system_a,omitempty"`
	SystemB   string  `json:"system_b,omitempty"`
	EffectPct float64 `json:"effect_pct,omitempty"`
	// RunsA and RunsB are the runs per side; Layout is "interleaved" or
	// "blocks".
	RunsA  int    `json:"runs_a,omitempty"`
	RunsB  int    `json:"runs_b,omitempty"`
	Layout string `json:"layout,omitempty"`
	// PeriodS is the period of periodic stalls; StallS their length.
	PeriodS float64 `json:"period_s,omitempty"`
	StallS  float64 `json:"stall_s,omitempty"`
	// ErrorPctA and ErrorPctB are the shares of A's and B's requests
	// that answer 500 (the errors family), in percent.
	ErrorPctA float64 `json:"error_pct_a,omitempty"`
	ErrorPctB float64 `json:"error_pct_b,omitempty"`
	// SharePct is the share of the requests a pause holds, in percent
	// (the pauses family): for an open model (vegeta at a fixed rate)
	// the share of the time the server stalls, StallS/PeriodS; for hey's
	// workers at q requests a second each (q·StallS >= 1: every worker
	// is caught by every pause), one request per worker and pause,
	// 1/(q·PeriodS).
	SharePct float64 `json:"share_pct,omitempty"`
	// JitterS is how far each pause is moved at random (irregular
	// pauses).
	JitterS float64 `json:"jitter_s,omitempty"`
	// OutlierRound is the round (1-based) a hog disturbed (the
	// outlier-round family; 0: none) and HogSharePct the share of the
	// server's CPU it took.
	OutlierRound int     `json:"outlier_round,omitempty"`
	HogSharePct  float64 `json:"hog_share_pct,omitempty"`
	// Note says the truth in words.
	Note string `json:"note"`
}

// family is a kind of experiment and how to draw one.
type family struct {
	Name string
	// N is how many experiments the committed grid holds.
	N int
	// Doc says what the family is, for CONFORMANCE.md.
	Doc string
	// Draw draws experiment i from rng.
	Draw func(r *rand.Rand, s *Scenario)
	// Heavy marks the families whose runs load a CPU (wrk): gen runs
	// them apart from the light, per-request ones when asked to.
	Heavy bool
	// Series marks the tallies of the nightly series (series.go): their
	// experiments are series of nights under nightly/, drawn, made and
	// graded there, night by night; NoFloor those never floored.
	Series, NoFloor bool
}

// families are the grid's families, in the order the docs list them.
var families = []family{
	{Name: "flat", N: 36, Doc: "no change: a CPU-bound server measured in 6-10 wrk rounds, or one 12-16 s per-request run (vegeta, hey), also with a second mode (every 5th-20th request 4-15 ms slower) or a heavy (Lomax) tail", Draw: drawFlat},
	{Name: "warmup-rounds", N: 40, Heavy: true, Doc: "warm-up across wrk rounds: the server's cost starts 1.2-3x higher and falls to 1 over the first 1-6 rounds, abruptly (one step) or linearly, then 4-6 flat rounds", Draw: drawWarmupRounds},
	{Name: "warmup-within", N: 30, Doc: "warm-up within one 12-16 s per-request run: cost 1.5-3x falling over 2-7 s (short and long ramps, linear or in steps), then flat", Draw: drawWarmupWithin},
	{Name: "drift-small", N: 20, Doc: "a drift below the 2 % practical band (0.3-1.2 % over the whole test, up or down), across wrk rounds or within one run: truth flat", Draw: drawDriftSmall},
	{Name: "step", N: 40, Doc: "one abrupt step of 10-60 % (up = faster, down = slower), across 8-10 wrk rounds at round 3-6, or within a 12-16 s per-request run at 4-9 s", Draw: drawStep},
	{Name: "trend", N: 30, Doc: "a trend that never levels off: the cost changes linearly to the end, by 20-80 % over the test (mostly worse, some better), across wrk rounds or within one run", Draw: drawTrend},
	{Name: "trend-then-flat", N: 30, Doc: "a gradual slowdown of 20-100 % that then levels off for the last 40-60 % of the test, across wrk rounds or within one run", Draw: drawTrendThenFlat},
	{Name: "stalls", N: 30, Doc: "periodic stalls (all handling frozen for 0.4-1 s every 3-5 s) or one stall of 0.6-2 s, in a 14-18 s vegeta run", Draw: drawStalls},
	{Name: "error-burst", N: 20, Doc: "an error burst: the requests of a 1-4 s window answer 500 (all, or every 2nd/3rd), in a 14-18 s vegeta run", Draw: drawErrorBurst},
	{Name: "aa", N: 50, Heavy: true, Doc: "A/A: two identical servers, 3-10 runs a side (equal and unequal), interleaved or in blocks, wrk (1 s), vegeta or hey (2 s)", Draw: drawAA},
	{Name: "ab", N: 80, Heavy: true, Doc: "A/B: one server's requests cost 3-30 % more work, 3-10 runs a side (equal and unequal), interleaved or in blocks, wrk (1 s), vegeta or hey (2 s)", Draw: drawAB},
	{Name: "tail-only", N: 20, Doc: "open-model tail-only regression: vegeta at a fixed rate, 4-6 runs of 2 s a side; B's every 20th-40th request waits 8-25 ms more (its p99 worse, its median not)", Draw: drawTailOnly},
	{Name: "errors", N: 20, Heavy: true, Doc: "an error regression: B answers 0.3-5 % of its requests with 500 at the same latency (evenly spread), A none or 0.05-0.25 %; A/A with equal shares; 2-10 runs of 2 s a side, interleaved or in blocks, wrk, hey, vegeta closed (-rate=0) or open model (200-500 req/s), text reports", Draw: drawErrors},
	{Name: "pauses", N: 20, Doc: "short pauses: all handling frozen for 20-100 ms every 0.2-3 s, at a regular interval or moved at random by up to ±35-45 % of it, or never (control), in a 10-30 s run of vegeta (200-400 req/s) or hey (8 workers at a rate each)", Draw: drawPauses},
	{Name: "outlier-round", N: 20, Heavy: true, Doc: "an outlier round: 6-8 wrk or hey rounds (2-3 s) of a flat CPU-bound server pinned to one CPU, where during one drawn round a busy loop on that CPU takes 21-50 % of it (nice 0-6 below), a mild 5-8 % (nice 11-13), or none (control)", Draw: drawOutlierRound},
	{Name: familyNightly, N: seriesN, Series: true, Doc: "nightly series (issue 31), graded night by night without a control: 8-12 nights of svc and a same-night control (1-2 runs a night each, wrk or hey, 2 s), a step of 0, 8 or 15 % more work at night 4 or later, reverted or not, an outlier first night (no co-running hog) or not, the machine swung on chosen nights (the hog off, heavier, or moved by up to a quarter); the gate (--fail-on regression --max-regression 5) must pass where svc's cost is the reference's and fail where a regression is in effect (the night it lands either)"},
	{Name: familyNightlyControl, N: seriesN, Series: true, Doc: "the same series and nights, analysed with the control (Options.Control, --control control): every night's expectation holds, the machine's swings included"},
	{Name: familyNightlyUntellab, N: seriesN, Series: true, NoFloor: true, Doc: "the nights of the nightly series that no method without a control can tell (an unchanged build on a slower machine, a regression on a faster one), analysed without the control: tallied apart, never floored"},
	{Name: familyNightlyOpen, N: openSeriesN, Series: true, Doc: "open-model nightly series, graded night by night without a control: as nightly, but vegeta at a fixed rate of 30-45 % of the server's capacity (2 s, 2-3 runs a night each), steps of 0, 10 or 20 % more work; the gate reads mean and p99 latency, and a night in effect must fail only where its latency over the same night's control (interleaved) is measured beyond the allowed regression (pass below it, either within two standard errors): the same step costs more latency on a busier machine"},
	{Name: familyNightlyOpenControl, N: openSeriesN, Series: true, Doc: "the same open-model series and nights, analysed with the control"},
	{Name: familyNightlyOpenUntellab, N: openSeriesN, Series: true, NoFloor: true, Doc: "the open-model series' nights no method without a control can tell, analysed without it: tallied apart, never floored"},
	{Name: familyDuel, N: 24, Heavy: true, Doc: "real duels (loadverdict duel, issue 34): two servers, B's requests costing 0, 3, 10 or 30 % more or less work (and wait) than A's, wrk or hey (closed model: throughput) or vegeta at 100-200 req/s (mean latency), rounds of 1-2 s, --max-rounds 8-16, servers and tool pinned to one CPU at the real-time policy; each round's output and duel.json kept, the duel's looks re-analysed offline on the kept rounds; a difference claimed on A/A is wrong, equivalent or undecided honest near the band (3 %)", Draw: drawDuel},
	{Name: "overload", N: 12, Doc: "overload: a server with 2-4 workers of 5-10 ms (200-800 req/s) attacked by vegeta at 1.5-3x its capacity for 4-6 s with a 1 s timeout", Draw: drawOverload},
}

// familyByName returns the family named name.
func familyByName(name string) (family, bool) {
	for _, f := range families {
		if f.Name == name {
			return f, true
		}
	}
	return family{}, false
}

// draw draws experiment i of family f from the grid's seed: each
// experiment has a seed of its own (the grid's, the family's name and i
// hashed), so that one can be made again, or more added, without
// changing the others.
func draw(f family, seed uint64, i int) Scenario {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%d", seed, f.Name, i)
	es := h.Sum64()
	r := rand.New(rand.NewPCG(es, es^0x9e3779b97f4a7c15))
	s := Scenario{ID: fmt.Sprintf("%s/%03d", f.Name, i), Family: f.Name, Seed: es, Params: map[string]float64{}, Servers: map[string][]string{}}
	f.Draw(r, &s)
	return s
}

// uni draws uniformly from [lo, hi).
func uni(r *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }

// between draws an integer uniformly from [lo, hi].
func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// pick draws one of xs.
func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// round rounds x to d decimals.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

// dur formats seconds as a Go duration flag value, to the microsecond.
func dur(s float64) string {
	return (time.Duration(math.Round(s*1e6)) * time.Microsecond).String()
}

// fl formats a float flag value.
func fl(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// cpuServer is a CPU-bound server on one core: work iterations per
// request (about 0.08 ms per 1,000 on this machine).
func cpuServer(r *rand.Rand, s *Scenario) []string {
	work := between(r, 15, 40) * 100
	s.Params["work"] = float64(work)
	return []string{"-procs", "1", "-work", strconv.Itoa(work)}
}

// sleepServer is a server whose requests cost some work and a wait, for
// per-request logs at a modest rate (latency in milliseconds).
func sleepServer(r *rand.Rand, s *Scenario) []string {
	work := between(r, 5, 20) * 100
	delay := round(uni(r, 1, 3), 1)
	s.Params["work"] = float64(work)
	s.Params["delay_ms"] = delay
	return []string{"-procs", "1", "-work", strconv.Itoa(work), "-delay", dur(delay / 1000)}
}

// wrkRounds appends n wrk rounds of d seconds of system sys.
func wrkRounds(s *Scenario, sys string, n int, d float64, r *rand.Rand) {
	c := pick(r, 4, 8, 16)
	s.Params["connections"] = float64(c)
	s.Params["rounds"] = float64(n)
	s.Params["round_s"] = d
	for i := 1; i <= n; i++ {
		s.Runs = append(s.Runs, RunSpec{System: sys, Tool: toolWrk, DurationS: d,
			Args: []string{"-t2", "-c" + strconv.Itoa(c), "-d" + dur(d), "--latency"}, File: fmt.Sprintf("%s/round%02d.txt", sys, i)})
	}
}

// perRequestRun appends one per-request run (vegeta or hey) of d seconds
// at about rate requests per second, named name.
func perRequestRun(s *Scenario, sys, tool string, d float64, rate int, name string) {
	switch tool {
	case toolVegeta:
		s.Runs = append(s.Runs, RunSpec{System: sys, Tool: toolVegeta, DurationS: d,
			Args: []string{"-rate=" + strconv.Itoa(rate), "-duration=" + dur(d), "-timeout=5s"}, File: sys + "/" + name + ".json.gz"})
	case toolHey:
		// hey's -q is per worker: 4 workers at rate/4 each.
		s.Runs = append(s.Runs, RunSpec{System: sys, Tool: toolHey, DurationS: d,
			Args: []string{"-z", dur(d), "-c", "4", "-q", strconv.Itoa(rate / 4), "-o", "csv"}, File: sys + "/" + name + ".csv.gz"})
	}
}

// oneRun appends one per-request run of 12-16 s with the tool drawn.
func oneRun(r *rand.Rand, s *Scenario, tools ...string) {
	tool := pick(r, tools...)
	d := float64(between(r, 12, 16))
	rate := between(r, 10, 20) * 10
	s.Params["duration_s"] = d
	s.Params["rate"] = float64(rate)
	perRequestRun(s, "S", tool, d, rate, "run")
}

func drawFlat(r *rand.Rand, s *Scenario) {
	s.Variant = pick(r, "wrk-rounds", "wrk-rounds", "per-request", "per-request", "bimodal", "heavy-tail")
	s.Truth = Truth{Expect: "flat", Note: "no change: the server's cost is the same throughout"}
	switch s.Variant {
	case "wrk-rounds":
		s.Servers["S"] = cpuServer(r, s)
		wrkRounds(s, "S", between(r, 6, 10), 1, r)
		s.Truth.Scope = "across-runs"
	case "per-request":
		s.Servers["S"] = sleepServer(r, s)
		oneRun(r, s, toolVegeta, toolHey)
		s.Truth.Scope = "within-run"
	case "bimodal":
		every := between(r, 5, 20)
		slow := round(uni(r, 4, 15), 1)
		s.Params["slow_every"], s.Params["slow_delay_ms"] = float64(every), slow
		s.Servers["S"] = append(sleepServer(r, s), "-slow-every", strconv.Itoa(every), "-slow-delay", dur(slow/1000))
		oneRun(r, s, toolVegeta)
		s.Truth.Scope = "within-run"
		s.Truth.Note = fmt.Sprintf("no change; bimodal latency: every %d-th request waits %.1f ms more", every, slow)
	case "heavy-tail":
		scale := round(uni(r, 0.5, 2), 2)
		alpha := round(uni(r, 1.5, 2.5), 2)
		s.Params["tail_scale_ms"], s.Params["tail_alpha"] = scale, alpha
		s.Servers["S"] = append(sleepServer(r, s), "-tail-scale", dur(scale/1000), "-tail-alpha", fl(alpha))
		oneRun(r, s, toolVegeta)
		s.Truth.Scope = "within-run"
		s.Truth.Note = fmt.Sprintf("no change; heavy tail: every request waits an extra Lomax(alpha %.2f, scale %.2f ms) draw", alpha, scale)
	}
}

func drawWarmupRounds(r *rand.Rand, s *Scenario) {
	warm := between(r, 1, 6)
	d := pick(r, 1.0, 1.0, 2.0)
	factor := round(uni(r, 1.2, 3), 2)
	steps := pick(r, 0, 1)
	s.Variant = map[int]string{0: "gradual", 1: "abrupt"}[steps]
	s.Params["warm_rounds"], s.Params["factor"] = float64(warm), factor
	s.Servers["S"] = append(cpuServer(r, s), "-warmup", dur(float64(warm)*d), "-warmup-factor", fl(factor), "-warmup-steps", strconv.Itoa(steps))
	wrkRounds(s, "S", warm+between(r, 4, 6), d, r)
	s.Truth = Truth{Expect: "warmup", Scope: "across-runs", Direction: "better", ChangeFromS: 0, ChangeToS: float64(warm) * d, SizePct: round(100*(factor-1), 1),
		Note: fmt.Sprintf("warm-up: cost x%.2f at the start, falling %s to x1 at %.0f s (the end of round %d), then flat", factor, s.Variant, float64(warm)*d, warm)}
}

func drawWarmupWithin(r *rand.Rand, s *Scenario) {
	s.Servers["S"] = sleepServer(r, s)
	oneRun(r, s, toolVegeta, toolVegeta, toolHey)
	total := s.Params["duration_s"]
	long := r.IntN(2) == 1
	t := round(uni(r, 2, 3.5), 1)
	if long {
		t = round(uni(r, 4.5, math.Min(7, total/2)), 1)
	}
	factor := round(uni(r, 1.5, 3), 2)
	steps := pick(r, 0, 0, 2, 3)
	s.Variant = map[bool]string{false: "short-ramp", true: "long-ramp"}[long]
	s.Params["warmup_s"], s.Params["factor"], s.Params["steps"] = t, factor, float64(steps)
	s.Servers["S"] = append(s.Servers["S"], "-warmup", dur(t), "-warmup-factor", fl(factor), "-warmup-steps", strconv.Itoa(steps))
	s.Truth = Truth{Expect: "warmup", Scope: "within-run", Direction: "better", ChangeFromS: 0, ChangeToS: t, SizePct: round(100*(factor-1), 1),
		Note: fmt.Sprintf("warm-up within the run: cost x%.2f at 0 s falling to x1 at %.1f s (%d steps; 0 = linear), then flat", factor, t, steps)}
}

func drawDriftSmall(r *rand.Rand, s *Scenario) {
	size := round(uni(r, 0.3, 1.2), 2)
	if r.IntN(2) == 0 {
		size = -size
	}
	var total float64
	if r.IntN(2) == 0 {
		s.Variant = "rounds"
		s.Servers["S"] = cpuServer(r, s)
		wrkRounds(s, "S", between(r, 6, 10), 1, r)
		total = s.Params["rounds"] * 1.05
		s.Truth.Scope = "across-runs"
	} else {
		s.Variant = "within-run"
		s.Servers["S"] = sleepServer(r, s)
		oneRun(r, s, toolVegeta)
		total = s.Params["duration_s"]
		s.Truth.Scope = "within-run"
	}
	s.Params["drift_pct"] = size
	s.Servers["S"] = append(s.Servers["S"], "-slowdown-at", "0s", "-slowdown-for", dur(total), "-slowdown-factor", fl(1+size/100))
	s.Truth.Expect = "flat"
	s.Truth.SizePct = size
	s.Truth.ChangeToS = -1
	s.Truth.Note = fmt.Sprintf("a drift of %+.2f %% of the cost over the whole test, below the 2 %% practical band: flat", size)
}

func drawStep(r *rand.Rand, s *Scenario) {
	size := round(uni(r, 10, 60), 1)
	better := r.IntN(2) == 0
	factor := 1 + size/100
	if better {
		factor = 1 / factor
	}
	var at float64
	if r.IntN(2) == 0 {
		s.Variant = "rounds"
		s.Servers["S"] = cpuServer(r, s)
		n := between(r, 8, 10)
		k := between(r, 3, 6)
		wrkRounds(s, "S", n, 1, r)
		// At the end of round k-1 on the server's clock (rounds are a
		// little over 1 s apart: the step falls in round k-1's last
		// few tens of milliseconds).
		at = float64(k - 1)
		s.Truth.Scope = "across-runs"
		s.Params["step_round"] = float64(k)
	} else {
		s.Variant = "within-run"
		s.Servers["S"] = sleepServer(r, s)
		oneRun(r, s, toolVegeta, toolVegeta, toolHey)
		at = round(uni(r, 4, 9), 1)
		s.Truth.Scope = "within-run"
	}
	s.Params["step_at_s"], s.Params["size_pct"] = at, size
	s.Servers["S"] = append(s.Servers["S"], "-slowdown-at", dur(at), "-slowdown-factor", fl(round(factor, 4)))
	s.Truth.ChangeFromS, s.Truth.ChangeToS = at, at
	if better {
		s.Variant += "-up"
		s.Truth.Expect, s.Truth.Direction, s.Truth.SizePct = "warmup", "better", -round(100*(1-factor), 1)
		s.Truth.Note = fmt.Sprintf("a step up (faster): cost x%.3f from %.1f s on, then flat (a step up is a warm-up)", factor, at)
	} else {
		s.Variant += "-down"
		s.Truth.Expect, s.Truth.Direction, s.Truth.SizePct = "slowdown", "worse", size
		s.Truth.Note = fmt.Sprintf("a step down (slower): cost x%.3f from %.1f s on, then flat (a step down is a slowdown)", factor, at)
	}
}

// seriesShape draws a rounds or within-run series for the trend
// families and returns its planned length in server seconds.
func seriesShape(r *rand.Rand, s *Scenario) float64 {
	if r.IntN(2) == 0 {
		s.Variant = "rounds"
		s.Servers["S"] = cpuServer(r, s)
		wrkRounds(s, "S", between(r, 8, 10), 1, r)
		s.Truth.Scope = "across-runs"
		return s.Params["rounds"] * 1.03
	}
	s.Variant = "within-run"
	s.Servers["S"] = sleepServer(r, s)
	oneRun(r, s, toolVegeta, toolVegeta, toolHey)
	s.Truth.Scope = "within-run"
	return s.Params["duration_s"]
}

func drawTrend(r *rand.Rand, s *Scenario) {
	total := seriesShape(r, s)
	size := round(uni(r, 20, 80), 1)
	better := r.IntN(10) < 3
	// The factor reaches 1+size at the test's end and would go on rising:
	// the ramp is planned twice as long as the test.
	end := 1 + size/100
	if better {
		end = 1 / end
	}
	k := 1 + 2*(end-1)
	if k <= 0.05 {
		k = 0.05
	}
	s.Params["size_pct"] = size
	s.Servers["S"] = append(s.Servers["S"], "-slowdown-at", "0s", "-slowdown-for", dur(2*total), "-slowdown-factor", fl(round(k, 4)))
	s.Truth.Expect = "no-steady-state"
	s.Truth.ChangeFromS, s.Truth.ChangeToS = 0, -1
	if better {
		s.Variant += "-improving"
		s.Truth.Direction, s.Truth.SizePct = "better", -round(100*(1-end), 1)
	} else {
		s.Variant += "-worsening"
		s.Truth.Direction, s.Truth.SizePct = "worse", size
	}
	s.Truth.Note = fmt.Sprintf("a trend to the end: the cost changes linearly from x1 at 0 s to about x%.3f at the end (%.0f s), still changing", end, total)
}

func drawTrendThenFlat(r *rand.Rand, s *Scenario) {
	total := seriesShape(r, s)
	size := round(uni(r, 20, 100), 1)
	from := round(uni(r, 0, 0.2)*total, 1)
	until := round(uni(r, 0.4, 0.6)*total, 1)
	s.Params["size_pct"], s.Params["from_s"], s.Params["until_s"] = size, from, until
	s.Servers["S"] = append(s.Servers["S"], "-slowdown-at", dur(from), "-slowdown-for", dur(until-from), "-slowdown-factor", fl(1+size/100))
	s.Truth = Truth{Expect: "slowdown", Scope: s.Truth.Scope, Direction: "worse", ChangeFromS: from, ChangeToS: until, SizePct: size,
		Note: fmt.Sprintf("a gradual slowdown: cost from x1 at %.1f s to x%.2f at %.1f s, then flat to the end (%.0f s)", from, 1+size/100, until, total)}
}

func drawStalls(r *rand.Rand, s *Scenario) {
	s.Servers["S"] = sleepServer(r, s)
	d := float64(between(r, 14, 18))
	rate := between(r, 10, 20) * 10
	s.Params["duration_s"], s.Params["rate"] = d, float64(rate)
	perRequestRun(s, "S", toolVegeta, d, rate, "run")
	s.Truth.Scope = "within-run"
	if r.IntN(2) == 0 {
		s.Variant = "periodic"
		every := round(uni(r, 3, 5), 1)
		length := round(uni(r, 0.4, 1), 2)
		at := round(uni(r, 1, 3), 1)
		s.Params["every_s"], s.Params["stall_s"], s.Params["at_s"] = every, length, at
		s.Servers["S"] = append(s.Servers["S"], "-stall-every", dur(every), "-stall-for", dur(length), "-stall-at", dur(at))
		s.Truth = Truth{Expect: "periodic-stalls", Scope: "within-run", ChangeFromS: at, PeriodS: every, StallS: length,
			Note: fmt.Sprintf("periodic stalls: all handling frozen for %.2f s every %.1f s from %.1f s", length, every, at)}
		return
	}
	s.Variant = "single"
	length := round(uni(r, 0.6, 2), 2)
	at := round(uni(r, 4, d-5), 1)
	s.Params["stall_s"], s.Params["at_s"] = length, at
	s.Servers["S"] = append(s.Servers["S"], "-stall-every", "1h", "-stall-for", dur(length), "-stall-at", dur(at))
	s.Truth = Truth{Expect: "single-stall", Scope: "within-run", ChangeFromS: at, ChangeToS: at + length, StallS: length,
		Note: fmt.Sprintf("one stall: all handling frozen for %.2f s from %.1f s", length, at)}
}

func drawErrorBurst(r *rand.Rand, s *Scenario) {
	s.Servers["S"] = sleepServer(r, s)
	d := float64(between(r, 14, 18))
	rate := between(r, 10, 20) * 10
	s.Params["duration_s"], s.Params["rate"] = d, float64(rate)
	perRequestRun(s, "S", toolVegeta, d, rate, "run")
	at := round(uni(r, 3, d-6), 1)
	length := round(uni(r, 1, 4), 1)
	every := pick(r, 1, 1, 2, 3)
	s.Variant = map[int]string{1: "all", 2: "half", 3: "third"}[every]
	s.Params["at_s"], s.Params["length_s"], s.Params["every"] = at, length, float64(every)
	s.Servers["S"] = append(s.Servers["S"], "-burst-at", dur(at), "-burst-for", dur(length), "-burst-every", strconv.Itoa(every))
	s.Truth = Truth{Expect: "error-burst", Scope: "within-run", ChangeFromS: at, ChangeToS: at + length,
		Note: fmt.Sprintf("an error burst: from %.1f s to %.1f s every %d-th request answers 500; none outside", at, at+length, every)}
}

// comparison draws the runs of an A/B or A/A experiment: runs per side,
// layout and tool, and appends them.
func comparison(r *rand.Rand, s *Scenario) {
	na := between(r, 3, 10)
	nb := na
	if r.IntN(2) == 0 {
		nb = between(r, 3, 10)
	}
	layout := pick(r, "interleaved", "blocks")
	tool := pick(r, toolWrk, toolWrk, toolVegeta, toolHey)
	c := pick(r, 4, 8)
	rate := between(r, 10, 25) * 10
	s.Params["runs_a"], s.Params["runs_b"] = float64(na), float64(nb)
	var order []string
	if layout == "blocks" {
		order = blocks(na, nb)
		if r.IntN(2) == 0 { // B first, sometimes
			slices.Reverse(order)
		}
	} else {
		a, b := na, nb
		first := pick(r, "A", "B")
		for a+b > 0 {
			for _, sys := range []string{first, map[string]string{"A": "B", "B": "A"}[first]} {
				if sys == "A" && a > 0 {
					order = append(order, "A")
					a--
				} else if sys == "B" && b > 0 {
					order = append(order, "B")
					b--
				}
			}
		}
	}
	n := map[string]int{}
	for _, sys := range order {
		n[sys]++
		switch tool {
		case toolWrk:
			s.Runs = append(s.Runs, RunSpec{System: sys, Tool: toolWrk, DurationS: 1,
				Args: []string{"-t2", "-c" + strconv.Itoa(c), "-d1s", "--latency"}, File: fmt.Sprintf("%s/run%02d.txt", sys, n[sys])})
		default:
			perRequestRun(s, sys, tool, 2, rate, fmt.Sprintf("run%02d", n[sys]))
		}
	}
	s.Variant = fmt.Sprintf("%s-%s-%s", tool, layout, map[bool]string{true: "equal", false: "unequal"}[na == nb])
	s.Truth.Scope = "compare"
	s.Truth.SystemA, s.Truth.SystemB = "A", "B"
	s.Truth.RunsA, s.Truth.RunsB, s.Truth.Layout = na, nb, layout
}

// abServer is the server of a comparison: CPU-bound for wrk (throughput
// is compared), work and a wait for per-request tools (latency is).
func abServer(r *rand.Rand, s *Scenario, work int, delayMs float64) []string {
	if delayMs == 0 {
		return []string{"-procs", "1", "-work", strconv.Itoa(work)}
	}
	return []string{"-procs", "1", "-work", strconv.Itoa(work), "-delay", dur(delayMs / 1000)}
}

func drawAA(r *rand.Rand, s *Scenario) {
	comparison(r, s)
	work := between(r, 15, 40) * 100
	delay := 0.0
	if s.Runs[0].Tool != toolWrk {
		delay = round(uni(r, 1, 3), 1)
	}
	s.Params["work"], s.Params["delay_ms"] = float64(work), delay
	s.Servers["A"] = abServer(r, s, work, delay)
	s.Servers["B"] = abServer(r, s, work, delay)
	s.Truth.Expect = "same"
	s.Truth.Note = "A/A: two servers with the same settings; any difference is noise"
}

func drawAB(r *rand.Rand, s *Scenario) {
	comparison(r, s)
	work := between(r, 15, 40) * 100
	delay := 0.0
	if s.Runs[0].Tool != toolWrk {
		delay = round(uni(r, 1, 3), 1)
	}
	effect := round(uni(r, 3, 30), 1)
	slow := pick(r, "A", "B")
	k := 1 + effect/100
	s.Params["work"], s.Params["delay_ms"], s.Params["effect_pct"] = float64(work), delay, effect
	for _, sys := range []string{"A", "B"} {
		w, d := work, delay
		if sys == slow {
			w, d = int(math.Round(float64(work)*k)), round(delay*k, 3)
		}
		s.Servers[sys] = abServer(r, s, w, d)
	}
	fast := map[string]string{"A": "B", "B": "A"}[slow]
	s.Truth.Expect = fast + "-faster"
	s.Truth.EffectPct = effect
	s.Truth.Note = fmt.Sprintf("A/B: every request of %s costs %.1f %% more (work and wait) than %s's: %s is faster", slow, effect, fast, fast)
}

func drawTailOnly(r *rand.Rand, s *Scenario) {
	n := between(r, 4, 6)
	rate := between(r, 15, 25) * 10
	every := between(r, 20, 40)
	slow := round(uni(r, 8, 25), 1)
	work := between(r, 5, 20) * 100
	delay := round(uni(r, 1, 3), 1)
	s.Params["runs"], s.Params["rate"], s.Params["slow_every"], s.Params["slow_delay_ms"] = float64(n), float64(rate), float64(every), slow
	s.Params["work"], s.Params["delay_ms"] = float64(work), delay
	s.Servers["A"] = abServer(r, s, work, delay)
	s.Servers["B"] = append(abServer(r, s, work, delay), "-slow-every", strconv.Itoa(every), "-slow-delay", dur(slow/1000))
	s.Variant = "interleaved"
	for i := 1; i <= n; i++ {
		for _, sys := range []string{"A", "B"} {
			perRequestRun(s, sys, toolVegeta, 2, rate, fmt.Sprintf("run%02d", i))
		}
	}
	s.Truth = Truth{Expect: "B-worse-p99", Scope: "compare", Direction: "worse", SystemA: "A", SystemB: "B", RunsA: n, RunsB: n, Layout: "interleaved",
		Note: fmt.Sprintf("tail-only regression: B's every %d-th request (%.1f %%) waits %.1f ms more; the rest as A's", every, 100/float64(every), slow)}
}

func drawOverload(r *rand.Rand, s *Scenario) {
	workers := between(r, 2, 4)
	svc := float64(between(r, 5, 10))
	capacity := float64(workers) * 1000 / svc
	rate := int(math.Round(capacity * uni(r, 1.5, 3) / 10 * 10))
	d := float64(between(r, 4, 6))
	s.Params["workers"], s.Params["service_ms"], s.Params["capacity_rps"], s.Params["rate"], s.Params["duration_s"] = float64(workers), svc, capacity, float64(rate), d
	s.Servers["S"] = []string{"-workers", strconv.Itoa(workers), "-delay", dur(svc / 1000)}
	s.Variant = fmt.Sprintf("x%.1f", float64(rate)/capacity)
	s.Runs = append(s.Runs, RunSpec{System: "S", Tool: toolVegeta, DurationS: d,
		Args: []string{"-rate=" + strconv.Itoa(rate), "-duration=" + dur(d), "-timeout=1s"}, File: "S/run.json.gz"})
	s.Truth = Truth{Expect: "overload", Scope: "within-run",
		Note: fmt.Sprintf("overload: capacity %.0f req/s (%d workers of %.0f ms), attacked at %d req/s", capacity, workers, svc, rate)}
}
