package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/internal/local"
)

// The duel family (issue 34): `loadverdict duel` run for real against two
// truth servers, each round's outputs and the duel's duel.json kept; the
// runner analyses the kept rounds again (local.Runner.ReplayDuel: the
// duel's looks and sequential test, no load) and grades the decision.

const familyDuel = "duel"

// Expected outcomes of the duel family, in the duel's words (its
// decisions, local.Duel*, are the observed outcomes).
const (
	// expectDuelSame: A/A; equivalent or undecided is right, a
	// difference claimed is wrong.
	expectDuelSame = "a-a"
	// expectDuelBBetterSmall and expectDuelBWorseSmall: a difference
	// near the ±2 % practical band (3 % more work): the right side,
	// equivalent or undecided is right (honest), the wrong side wrong.
	expectDuelBBetterSmall = "b-better-or-band"
	expectDuelBWorseSmall  = "b-worse-or-band"
)

// duelCPU is the CPU the duel family's servers and tools are pinned to,
// under the real-time FIFO policy (Pin.RT), as cmd/loadverdict's real
// duels pin theirs.
const duelCPU = 1

// drawDuel draws a real duel: the tool (wrk or hey, a closed model whose
// throughput is compared; vegeta at a fixed rate, whose mean latency
// is), the true difference (0, 3, 10 or 30 % more work and wait a
// request on A's or B's server), the round's length (1 or 2 s) and
// --max-rounds (8, 12 or 16).
func drawDuel(r *rand.Rand, s *Scenario) {
	tool := pick(r, toolWrk, toolVegeta, toolHey)
	effect := pick(r, 0.0, 3.0, 10.0, 30.0)
	slow := pick(r, "A", "B")
	roundS := pick(r, 1, 2)
	maxRounds := pick(r, 8, 12, 16)
	work := between(r, 15, 30) * 100
	delay, rate := 0.0, 0
	if tool == toolVegeta {
		delay, rate = round(uni(r, 1, 3), 1), between(r, 10, 20)*10
	}
	s.Params["effect_pct"], s.Params["round_s"], s.Params["max_rounds"] = effect, float64(roundS), float64(maxRounds)
	s.Params["work"], s.Params["delay_ms"], s.Params["rate"] = float64(work), delay, float64(rate)
	k := 1 + effect/100
	for _, sys := range []string{"A", "B"} {
		w, d := work, delay
		if sys == slow && effect > 0 {
			w, d = int(math.Round(float64(work)*k)), round(delay*k, 3)
		}
		s.Servers[sys] = abServer(r, s, w, d)
	}
	s.Pin = &Pin{ServerCPU: duelCPU, ToolCPU: duelCPU, RT: true}
	for _, sys := range []string{"A", "B"} {
		s.Runs = append(s.Runs, RunSpec{System: sys, Tool: tool, Args: duelToolArgs(tool, roundS, rate), DurationS: float64(roundS),
			File: "rounds/NNN-" + strings.ToLower(sys) + ".txt"})
	}
	s.Truth = Truth{Scope: familyDuel, SystemA: "A", SystemB: "B", EffectPct: effect}
	name := fmt.Sprintf("%s-%.0fpct", tool, effect)
	switch {
	case effect == 0:
		s.Truth.Expect, name = expectDuelSame, tool+"-aa"
		s.Truth.Note = "A/A: two servers with the same settings; a difference claimed is wrong"
	case slow == "A":
		s.Truth.Expect, s.Truth.Direction = local.DuelBBetter, "better"
		s.Truth.Note = fmt.Sprintf("every request of A costs %.0f %% more (work and wait) than B's: b is better", effect)
	default:
		s.Truth.Expect, s.Truth.Direction = local.DuelBWorse, "worse"
		s.Truth.Note = fmt.Sprintf("every request of B costs %.0f %% more (work and wait) than A's: b is worse", effect)
	}
	if effect > 0 && effect < 5 {
		s.Truth.Expect = map[string]string{local.DuelBBetter: expectDuelBBetterSmall, local.DuelBWorse: expectDuelBWorseSmall}[s.Truth.Expect]
		s.Truth.Note += "; near the ±2 % practical band, so equivalent or undecided is honest too"
	}
	s.Variant = name
}

// duelToolArgs is a round's arguments of the duel's tool.
func duelToolArgs(tool string, roundS, rate int) []string {
	d := strconv.Itoa(roundS) + "s"
	switch tool {
	case toolWrk:
		return []string{"-t1", "-c4", "-d" + d}
	case toolHey:
		return []string{"-z", d, "-c", "4"}
	}
	return []string{"-rate=" + strconv.Itoa(rate), "-duration=" + d, "-timeout=5s"}
}

// duelCommand is the shell command line of a system's rounds: the tool
// pinned as the servers are, its text report on stdout.
func duelCommand(run RunSpec, pin *Pin, url string) string {
	p := ""
	if pin != nil {
		p = "taskset -c " + strconv.Itoa(pin.ToolCPU) + " "
		if pin.RT {
			p += "chrt -f 1 "
		}
	}
	args := strings.Join(run.Args, " ")
	if run.Tool == toolVegeta {
		return fmt.Sprintf("echo 'GET %s' | %svegeta attack %s | vegeta report", url, p, args)
	}
	return fmt.Sprintf("%s%s %s %s", p, run.Tool, args, url)
}

// DuelMade is how a duel experiment was made: loadverdict duel's command
// line and exit status, and the share of the CPU others used meanwhile.
type DuelMade struct {
	Command      string   `json:"command"`
	Exit         int      `json:"exit"`
	OthersCPUPct *float64 `json:"others_cpu_pct,omitempty"`
}

// makeDuel runs loadverdict duel (the binary lv) between the servers at
// addr (procs are theirs) and keeps its rounds' outputs under
// work/rounds and its duel.json; it returns the share of the CPU others
// used during the duel.
func makeDuel(ctx context.Context, lv string, s Scenario, addr map[string]string, procs []*exec.Cmd, work string, rec *Record) (float64, error) {
	out := filepath.Join(work, ".duel")
	cmds := map[string]string{}
	for _, run := range s.Runs {
		cmds[run.System] = duelCommand(run, s.Pin, "http://"+addr[run.System]+"/")
	}
	maxRounds := int(s.Params["max_rounds"])
	maxTime := time.Duration(2*s.Params["round_s"]*float64(maxRounds)+60) * time.Second
	args := []string{"duel", "-o", out, "--seed", strconv.FormatUint(s.Seed, 10), "--max-rounds", strconv.Itoa(maxRounds),
		"--max-time", maxTime.String(), "--figures", "svg", "--a", cmds["A"], "--b", cmds["B"]}
	var pids []int
	for _, p := range procs {
		pids = append(pids, p.Process.Pid)
	}
	m0, measured := markCPU(pids)
	t0 := time.Now()
	load := loadavg()
	cmd := exec.CommandContext(ctx, lv, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	err := cmd.Run()
	dm := &DuelMade{Command: "loadverdict " + strings.Join(quoteArgs(args), " ")}
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
		dm.Exit, err = 3, nil
	}
	if err != nil {
		return 0, fmt.Errorf("loadverdict duel: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	worst := 0.0
	if m1, ok := markCPU(pids); ok && measured {
		pct := othersPct(m0, m1, time.Since(t0).Seconds())
		dm.OthersCPUPct, worst = &pct, pct
	}
	rec.Made.Duel = dm
	if err := keepDuel(out, work, cmds, load, rec); err != nil {
		return 0, err
	}
	for i := range rec.Made.Runs {
		// Measured over the whole duel (its rounds and its looks).
		rec.Made.Runs[i].OthersCPUPct = dm.OthersCPUPct
	}
	for _, sys := range []string{"A", "B"} {
		os.Remove(filepath.Join(work, sys)) // startServers' empty folders
	}
	return worst, os.RemoveAll(out)
}

// keepDuel moves the duel's rounds' outputs (not their empty stderr)
// and duel.json from out into work, and lists the rounds in rec.
func keepDuel(out, work string, cmds map[string]string, load string, rec *Record) error {
	b, err := os.ReadFile(filepath.Join(out, "duel.json"))
	if err != nil {
		return err
	}
	var d duelFile
	if err := json.Unmarshal(b, &d); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(work, "rounds"), 0o755); err != nil {
		return err
	}
	for _, r := range d.Rounds {
		for sys, f := range map[string]string{"A": r.AOutput, "B": r.BOutput} {
			if err := os.Rename(filepath.Join(out, f), filepath.Join(work, f)); err != nil {
				return err
			}
			rec.Made.Runs = append(rec.Made.Runs, RunRecord{File: f, Command: cmds[sys], LoadBefore: load, LoadAfter: loadavg()})
		}
	}
	return os.WriteFile(filepath.Join(work, "duel.json"), b, 0o644)
}

// quoteArgs quotes the arguments holding blanks, for a command line in
// truth.json.
func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if strings.ContainsAny(a, " '|") {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return out
}

// duelFile is what the runner reads of a kept duel.json.
type duelFile struct {
	Metric   string `json:"metric"`
	Decision string `json:"decision"`
	Rounds   []struct {
		AOutput string `json:"a_output"`
		BOutput string `json:"b_output"`
	} `json:"rounds"`
}

// evaluateDuel grades a duel experiment: its kept rounds analysed again
// as the duel analyses them while it runs (local.Runner.ReplayDuel),
// the decision against the truth.
func evaluateDuel(ctx context.Context, dir string, r Result) Result {
	fail := func(err error) Result {
		r.Grade, r.Outcome, r.Err = gradeWrong, "error", err.Error()
		return r
	}
	b, err := os.ReadFile(filepath.Join(dir, "duel.json"))
	if err != nil {
		return fail(err)
	}
	var d duelFile
	if err := json.Unmarshal(b, &d); err != nil {
		return fail(fmt.Errorf("duel.json: %w", err))
	}
	var as, bs []string
	for _, rd := range d.Rounds {
		as, bs = append(as, filepath.Join(dir, filepath.FromSlash(rd.AOutput))), append(bs, filepath.Join(dir, filepath.FromSlash(rd.BOutput)))
	}
	tmp, err := os.MkdirTemp("", "conformance-duel-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	lr := &local.Runner{Stderr: io.Discard, Window: time.Second, GeneratedBy: "conformance"}
	rp, err := lr.ReplayDuel(ctx, filepath.Join(tmp, "o"), as, bs, d.Metric)
	if err != nil {
		return fail(err)
	}
	r.Outcome = rp.Decision
	r.Detail = fmt.Sprintf("%s after %d of %d kept rounds (recorded: %s)", rp.Metric, rp.Rounds, len(d.Rounds), d.Decision)
	if l := rp.Last; l.N > 0 && !math.IsInf(l.Lo, 0) {
		r.Detail += fmt.Sprintf("; b %+.1f %% against a, interval %+.1f to %+.1f %% over %d paired", 100*math.Expm1(l.Mean), 100*math.Expm1(l.Lo), 100*math.Expm1(l.Hi), l.N)
	}
	r.Grade = grade(r.Expect, r.observation)
	return r
}
