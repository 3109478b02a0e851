package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/internal/local"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/stats"
)

// The duel's bounds: the most rounds, and the largest output a command
// may write (stdout and stderr each).
const (
	duelMaxRoundsCap = 1000
	duelMaxOutputCap = 1 << 30
)

const duelHelp = `Run two load tests, A (the baseline) and B, in randomized interleaved rounds until the
comparison is decided (RMIT: Abedi and Brecht 2017; each round runs both, in an order drawn
from --seed, so that drift of the machine falls on both alike). CMD A and CMD B are shell
command lines (sh -c), typically the same tool against two servers or two builds:
  loadverdict duel -o out -- 'wrk -t1 -c4 -d5s http://127.0.0.1:8001/' 'wrk -t1 -c4 -d5s http://127.0.0.1:8002/'
The commands come after "--" as two arguments (or as --a CMD --b CMD), so that their own
flags are never read as duel's. Each round's stdout is kept as DIR/rounds/NNN-a.txt and NNN-b.txt (stderr beside it as
.stderr), read with the project's ingest (format detected by content; one run each) into
DIR as compare's tables. After every round the rounds are analysed as compare does: each side's
warm-up rounds (report's cut) are left out, the metric is the one compare leads with (throughput
under a closed model, mean latency at a fixed rate; --metric chooses), and the rounds whose
runs are both steady give the paired differences ln(B/A). A sequential test (Lai's confidence
sequence for their mean, with unknown variance; docs/STATISTICS.md) keeps its error rate at
alpha 0.05 however many rounds are looked at: the duel stops when its interval excludes 0 (B
better, or B worse), when it lies inside the practical band of ±2 % (equivalent), or, undecided,
at --max-rounds or --max-time. One line per round on stdout; at the end compare's table, and
in DIR compare's report of all the rounds (A's runs OLD, B's NEW) and duel.json (every round,
its interval, the decision, the seed); where compare's fixed-sample verdict and the duel's
differ, both say so. A command that fails (non-zero exit, output that is not one run) stops
the duel with an error naming the round and the command (exit 1).
Bounds: --max-rounds (at most 1000), --max-time (a command still running then is killed with
its process group), --max-output per command and stream (at most 1 GiB; a command writing
more is killed and is an error).
The gate (exit 3) is compare's with the duel's decision in place of its regression check: B
worse by more than the allowed regression (--max-regression, never below the band) fails
(regression); undecided fails (inconclusive) unless its interval rules out a regression beyond
the allowed one; no round within --max-time fails (no-comparison). --threshold, --fail-on,
--allow and --junit work as compare's (docs/GATE.md), the thresholds over all the rounds.`

func runDuel(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "duel", "-o DIR [--metric M] [--seed N] [--max-rounds N] [--max-time D] [--threshold EXPR]... [--max-regression PCT] [--allow LIST] [--junit FILE] -- 'CMD A' 'CMD B'  (or --a 'CMD A' --b 'CMD B')", duelHelp)
	out := fs.String("o", "", "output `DIR` (required): the rounds' outputs, compare's report, duel.json")
	metric := fs.String("metric", "auto", "the `metric` compared: auto (compare's lead: throughput under a closed model, mean latency at a fixed rate), rps, lat_mean_ms, lat_p50_ms or lat_p99_ms")
	seed := fs.Uint64("seed", 0, "`seed` of the rounds' order (0: drawn from the clock; recorded in duel.json)")
	maxRounds := fs.Int("max-rounds", 30, "stop undecided after `N` rounds (2 to 1000)")
	maxTime := fs.Duration("max-time", 30*time.Minute, "stop undecided after this `duration`; a command running then is killed")
	maxOutput := fs.Int64("max-output", 64<<20, "the most `bytes` a command may write to stdout, and to stderr, in a round (at most 1 GiB)")
	r := addInputFlags(fs, e)
	fs.Lookup("experiment").Usage = "experiment `name` of the report (default: a-vs-b)"
	cmdA := fs.String("a", "", "`CMD` A, the baseline (instead of the first argument after --)")
	cmdB := fs.String("b", "", "`CMD` B (instead of the second argument after --)")
	figs := addFiguresFlag(fs)
	gf := addGateFlags(fs)
	// No manifest: the gate's flags are all there is.
	fs.Lookup("allow").Usage = "do not exit 3 on `CONDITIONS` the gate guards by default, e.g. inconclusive,no-comparison (comma-separated, repeatable; what was allowed is reported)"
	fs.Lookup("fail-on").Usage = strings.Replace(fs.Lookup("fail-on").Usage, "; added to the manifest's gate.fail_on", "", 1)
	fs.Lookup("threshold").Usage = "an SLO `EXPR` such as lat_p99_ms<250 or rps{system=b}>=1000, checked over all the rounds (repeatable)"
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if args, err = duelCommands(*cmdA, *cmdB, args); err != nil {
		return err
	}
	if err := checkDuelFlags(*out, *maxRounds, *maxTime, *maxOutput); err != nil {
		return err
	}
	m, err := duelMetric(*metric)
	if err != nil {
		return err
	}
	rounds := local.RoundsDir(*out)
	if ents, err := os.ReadDir(rounds); err == nil && len(ents) > 0 {
		return usagef("duel: %s holds an earlier duel's rounds: give another -o DIR", rounds)
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	r.JUnit = gf.junit
	req := pipeline.Request{Figures: *figs}
	gf.apply(&req.Overrides)
	d, err := r.StartDuel(ctx, *out, "a", "b", req)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := os.MkdirAll(rounds, 0o755); err != nil {
		return err
	}
	opts := analyze.DefaultOptions()
	rec := duelRecord{Seed: *seed, Alpha: opts.Alpha, PracticalBand: opts.PracticalBand, Mixture: stats.DefaultSeqMixture,
		MaxRounds: *maxRounds, MaxTimeS: maxTime.Seconds(), Commands: map[string]string{"a": args[0], "b": args[1]}}
	if err := duelRounds(ctx, e, d, &rec, args, m, *maxTime, *maxOutput); err != nil {
		return err
	}
	if len(rec.Rounds) == 0 {
		// --max-time before any round completed: nothing compared.
		return gateExit(e, noComparisonGate(&rec, gf.allow), 0, gf.junit)
	}
	res, err := d.Finish(ctx)
	if err != nil {
		return err
	}
	v := res.Report.Verdict
	if v == nil {
		return fmt.Errorf("duel: %s", report.NoRunsHeadline)
	}
	rec.compareWith(v)
	g := duelGate(v, &rec)
	if err := writeDuelRecord(*out, &rec); err != nil {
		return err
	}
	return printDuelEnd(e, *out, v, &rec, g, gf.junit)
}

// duelCommands is the two commands, given after -- (args) or as --a and
// --b.
func duelCommands(cmdA, cmdB string, args []string) ([]string, error) {
	switch {
	case (cmdA != "") != (cmdB != ""):
		return nil, usagef("duel: --a and --b go together")
	case cmdA != "" && len(args) > 0:
		return nil, usagef("duel: the commands are given twice: --a and --b, and %d arguments", len(args))
	case cmdA != "":
		args = []string{cmdA, cmdB}
	}
	switch {
	case len(args) != 2:
		return nil, usagef("duel: want two commands, 'CMD A' 'CMD B' after -- (or --a CMD --b CMD), got %d arguments", len(args))
	case strings.TrimSpace(args[0]) == "" || strings.TrimSpace(args[1]) == "":
		return nil, usagef("duel: a command is empty")
	}
	return args, nil
}

// checkDuelFlags checks the output folder and the bounds.
func checkDuelFlags(out string, maxRounds int, maxTime time.Duration, maxOutput int64) error {
	switch {
	case out == "":
		return usagef("duel: -o DIR is required (the rounds' outputs and the report are kept there)")
	case maxRounds < 2 || maxRounds > duelMaxRoundsCap:
		return usagef("duel: --max-rounds %d: want 2 to %d", maxRounds, duelMaxRoundsCap)
	case maxTime <= 0:
		return usagef("duel: --max-time must be positive, got %s", maxTime)
	case maxOutput <= 0 || maxOutput > duelMaxOutputCap:
		return usagef("duel: --max-output %d: want 1 to %d bytes", maxOutput, duelMaxOutputCap)
	}
	return nil
}

// duelMetric is --metric's metric, "" for auto (compare's lead).
func duelMetric(metric string) (string, error) {
	switch metric {
	case "auto":
		return "", nil
	case analyze.MetricRPS, analyze.MetricLatMeanMs, analyze.MetricLatP50Ms, analyze.MetricLatP99Ms:
		return metric, nil
	}
	return "", usagef("duel: --metric %q: want auto, rps, lat_mean_ms, lat_p50_ms or lat_p99_ms", metric)
}

// printDuelEnd prints compare's table of all the rounds and the duel's
// decision, names the files written, and exits by the duel's gate g
// (writing --junit FILE when asked).
func printDuelEnd(e *env, out string, v *analyze.Verdict, rec *duelRecord, g report.GateOutcome, junit string) error {
	fmt.Fprintln(e.stdout)
	if err := report.Compare(e.stdout, v, "text"); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "\n%s\n", rec.Summary)
	for _, l := range []string{rec.FixedDesign, rec.Disagreement} {
		if l != "" {
			fmt.Fprintln(e.stdout, l)
		}
	}
	fmt.Fprintln(e.stdout, "(The gate line above is compare's, over all the rounds at once; the exit status is the duel's gate: its decision in place of compare's regression check, compare's thresholds and error rates kept.)")
	gate := "passed"
	if g.Failed {
		gate = "failed"
	}
	fmt.Fprintf(e.stdout, "Duel gate: %s.\n", gate)
	writtenReports(e.stderr, out)
	fmt.Fprintf(e.stderr, "duel: %s\n", filepath.Join(out, "duel.json"))
	return gateExit(e, g, 0, junit)
}

// The duel's decisions (duel.json "decision").
const (
	duelBBetter    = local.DuelBBetter
	duelBWorse     = local.DuelBWorse
	duelEquivalent = local.DuelEquivalent
	duelUndecided  = local.DuelUndecided
)

// duelRecord is duel.json.
type duelRecord struct {
	Seed          uint64            `json:"seed"`
	Alpha         float64           `json:"alpha"`
	PracticalBand float64           `json:"practical_band"`
	Mixture       float64           `json:"mixture"`
	MaxRounds     int               `json:"max_rounds"`
	MaxTimeS      float64           `json:"max_time_s"`
	Commands      map[string]string `json:"commands"`
	Metric        string            `json:"metric"`
	Rounds        []duelRound       `json:"rounds"`
	// Decision is b-better, b-worse, equivalent or undecided; StoppedBy
	// says what ended the duel: decided, band, max-rounds, max-time.
	Decision  string `json:"decision"`
	StoppedBy string `json:"stopped_by"`
	Summary   string `json:"summary"`
	// FixedRunsNeeded is the runs per side that compare's fixed design
	// needs at alpha and power for the difference and scatter of the
	// paired rounds (analyze.FixedRunsNeeded).
	FixedRunsNeeded *int   `json:"fixed_runs_needed,omitempty"`
	Compare         string `json:"compare_verdict"`
	Disagreement    string `json:"disagreement,omitempty"`
	// FixedDesign compares the rounds the duel ran with the runs per
	// side compare states its fixed design needs, only where compare's
	// test of the same rounds is undecided and states more runs than it
	// holds (compare decided: its runs needed are the runs held).
	FixedDesign string `json:"fixed_design,omitempty"`
	// Gate is the duel's gate (duelGate), which sets the exit status.
	Gate *duelGateRecord `json:"gate,omitempty"`

	higherIsBetter bool
	a, b           []float64
}

// duelRound is one round of duel.json.
type duelRound struct {
	Round   int      `json:"round"`
	First   string   `json:"first"` // a or b: which command ran first
	AOutput string   `json:"a_output"`
	BOutput string   `json:"b_output"`
	A       *float64 `json:"a,omitempty"` // the round's value of the metric
	B       *float64 `json:"b,omitempty"`
	// Paired counts the steady rounds of both sides the look used;
	// WarmupA and WarmupB the rounds left out as warm-up.
	Paired  int `json:"paired"`
	WarmupA int `json:"warmup_a"`
	WarmupB int `json:"warmup_b"`
	// MeanPct, LoPct and HiPct are B against A in percent with the
	// always-valid interval (null while unbounded).
	MeanPct  *float64 `json:"mean_pct,omitempty"`
	LoPct    *float64 `json:"lo_pct"`
	HiPct    *float64 `json:"hi_pct"`
	Decision string   `json:"decision"`
}

// duelRounds runs the rounds until the sequential test decides or a
// bound stops them, printing a line per round and filling rec.
func duelRounds(ctx context.Context, e *env, d *local.Duel, rec *duelRecord, cmds []string, metric string, maxTime time.Duration, maxOutput int64) error {
	opts := analyze.DefaultOptions()
	rng := rand.New(rand.NewPCG(rec.Seed, 34))
	tctx, cancel := context.WithTimeout(ctx, maxTime)
	defer cancel()
	rounds := local.RoundsDir(d.Dir())
	rec.Decision, rec.StoppedBy = duelUndecided, "max-rounds"
	for n := 1; n <= rec.MaxRounds; n++ {
		order := []int{0, 1}
		if rng.IntN(2) == 1 {
			order = []int{1, 0}
		}
		outs := [2]string{}
		for _, side := range order {
			name := "ab"[side : side+1]
			outs[side] = filepath.Join(rounds, fmt.Sprintf("%03d-%s.txt", n, name))
			err := runRoundCommand(tctx, cmds[side], outs[side], maxOutput)
			if err != nil && tctx.Err() != nil && ctx.Err() == nil {
				// --max-time: the round is not complete; the duel ends undecided.
				rec.StoppedBy = "max-time"
				fmt.Fprintf(e.stdout, "round %d: --max-time %s reached; the round is left out\n", n, maxTime)
				return rec.finishUndecided(n - 1)
			}
			if err != nil {
				return fmt.Errorf("duel: round %d: command %s (%s): %w", n, name, cmds[side], err)
			}
		}
		if err := d.AddRound(ctx, outs[0], outs[1]); err != nil {
			return fmt.Errorf("duel: round %d: %w", n, err)
		}
		look, err := d.Look(ctx, metric)
		if err != nil {
			return fmt.Errorf("duel: round %d: %w", n, err)
		}
		rec.Metric, rec.higherIsBetter = look.Metric, look.HigherIsBetter
		rec.a, rec.b = look.A, look.B
		l, dec, err := look.Decide(opts)
		if err != nil {
			return fmt.Errorf("duel: round %d: %w", n, err)
		}
		if dec == "" && n == rec.MaxRounds {
			dec = duelUndecided
		}
		rr := duelRound{Round: n, First: "ab"[order[0] : order[0]+1], AOutput: rel(d.Dir(), outs[0]), BOutput: rel(d.Dir(), outs[1]),
			Paired: l.N, WarmupA: look.WarmupA, WarmupB: look.WarmupB, Decision: cmp.Or(dec, stats.SeqContinue)}
		if k := len(look.Rounds); k > 0 && look.Rounds[k-1] == n {
			rr.A, rr.B = &look.A[k-1], &look.B[k-1]
		}
		if l.N > 0 {
			rr.MeanPct = pctOf(l.Mean)
		}
		rr.LoPct, rr.HiPct = pctOf(l.Lo), pctOf(l.Hi)
		rec.Rounds = append(rec.Rounds, rr)
		fmt.Fprintln(e.stdout, rec.roundLine(rr))
		if dec != "" {
			rec.Decision = dec
			switch dec {
			case duelEquivalent:
				rec.StoppedBy = "band"
			case duelBBetter, duelBWorse:
				rec.StoppedBy = "decided"
			}
			rec.Summary = rec.summary(n)
			return nil
		}
	}
	return nil
}

// rel names f relative to the output folder dir (duel.json's names).
func rel(dir, f string) string {
	if r, err := filepath.Rel(dir, f); err == nil {
		return filepath.ToSlash(r)
	}
	return f
}

// pctOf is a difference of logs as a percent change; nil when infinite.
func pctOf(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	p := 100 * math.Expm1(x)
	return &p
}

// finishUndecided ends a duel stopped by --max-time after n complete
// rounds.
func (rec *duelRecord) finishUndecided(n int) error {
	if n == 0 {
		// Nothing compared: the gate fails closed, as compare's
		// no-comparison does.
		// runDuel's gate fails closed (no-comparison).
		return nil
	}
	rec.Decision = duelUndecided
	rec.Summary = rec.summary(n)
	return nil
}

// interval words a round's always-valid interval.
func interval(r duelRound) string {
	if r.LoPct == nil || r.HiPct == nil {
		return "interval unbounded yet"
	}
	return fmt.Sprintf("%.0f %% interval %+.1f to %+.1f %%", 100*(1-analyze.DefaultOptions().Alpha), *r.LoPct, *r.HiPct)
}

// roundLine is a round's line on stdout.
func (rec *duelRecord) roundLine(r duelRound) string {
	var b strings.Builder
	fmt.Fprintf(&b, "round %d (%s first):", r.Round, r.First)
	if r.A != nil && r.B != nil {
		fmt.Fprintf(&b, " a %.4g, b %.4g %s;", *r.A, *r.B, rec.Metric)
	} else {
		b.WriteString(" not paired (warm-up);")
	}
	fmt.Fprintf(&b, " %d paired", r.Paired)
	if r.MeanPct != nil {
		fmt.Fprintf(&b, ", b %+.1f %% against a, %s", *r.MeanPct, interval(r))
	}
	fmt.Fprintf(&b, ": %s", r.Decision)
	return b.String()
}

// summary is the duel's one sentence after n rounds.
func (rec *duelRecord) summary(n int) string {
	last := duelRound{}
	if k := len(rec.Rounds); k > 0 {
		last = rec.Rounds[k-1]
	}
	what := fmt.Sprintf("b's %s against a's", report.MetricWords(rec.Metric))
	if last.MeanPct != nil {
		what += fmt.Sprintf(" %+.1f %% over %d paired rounds (%s, valid at every look)", *last.MeanPct, last.Paired, interval(last))
	}
	switch rec.Decision {
	case duelBBetter:
		return fmt.Sprintf("Duel: b is better than a (the baseline) after %d rounds: %s.", n, what)
	case duelBWorse:
		return fmt.Sprintf("Duel: b is worse than a (the baseline) after %d rounds: %s.", n, what)
	case duelEquivalent:
		return fmt.Sprintf("Duel: a and b are within the practical band of ±%.0f %% after %d rounds: %s.", 100*rec.PracticalBand, n, what)
	}
	return fmt.Sprintf("Duel: undecided after %d rounds (stopped by %s): %s.", n, rec.StoppedBy, what)
}

// compareWith records compare's fixed-sample verdict on the same rounds
// and, when it differs from the duel's, one sentence saying so; and the
// fixed design's runs needed.
func (rec *duelRecord) compareWith(v *analyze.Verdict) {
	rec.Compare = duelUndecided
	for _, c := range v.Comparisons {
		if c.Metric != rec.Metric || c.A != "b" || c.B != "a" {
			continue
		}
		rec.FixedDesign = rec.fixedDesign(c)
		switch c.Verdict {
		case analyze.AFaster:
			rec.Compare = duelBBetter
		case analyze.BFaster:
			rec.Compare = duelBWorse
		case analyze.NoDifference:
			rec.Compare = duelEquivalent
		}
	}
	if len(rec.a) > 0 {
		rec.FixedRunsNeeded = analyze.FixedRunsNeeded(v.Options, rec.b, rec.a, stats.Mean(rec.b)/stats.Mean(rec.a))
	}
	if rec.Compare != rec.Decision {
		rec.Disagreement = fmt.Sprintf("The duel's sequential test says %s while compare's fixed-sample test over the same rounds says %s: compare's test is valid at one look fixed in advance, the duel's interval at every look, so either may decide where the other does not.",
			rec.Decision, rec.Compare)
	}
}

// fixedDesign is the sentence that sets the rounds the duel ran beside
// the runs per side compare's comparison c of the same rounds states its
// fixed design needs: only when c is undecided and states more runs
// than it holds ("" otherwise: a comparison that decided states the
// runs held, and saying the duel needed fewer would not be true).
func (rec *duelRecord) fixedDesign(c analyze.Comparison) string {
	if c.Verdict != analyze.Inconclusive || c.RunsNeeded == nil || *c.RunsNeeded <= max(c.AHeld, c.BHeld) {
		return ""
	}
	n, need := len(rec.Rounds), *c.RunsNeeded
	if rec.Decision == duelUndecided {
		return fmt.Sprintf("Compare's fixed-sample test of the same %d rounds is undecided too and states %d runs per side needed: allow more rounds (--max-rounds, --max-time) or longer ones.", n, need)
	}
	return fmt.Sprintf("The duel decided in %d rounds, where compare's fixed-sample test of the same rounds is undecided and states %d runs per side needed for a fixed design.", n, need)
}

// writeDuelRecord writes duel.json into dir.
func writeDuelRecord(dir string, rec *duelRecord) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "duel.json"), append(b, '\n'), 0o644)
}

// runRoundCommand runs a command line through sh -c, its stdout into
// out and its stderr into out's .stderr beside it, each at most limit
// bytes (more kills it and is an error). A non-zero exit is an error
// with the last line of its stderr.
func runRoundCommand(ctx context.Context, line, out string, limit int64) error {
	fo, err := os.Create(out)
	if err != nil {
		return err
	}
	defer fo.Close()
	errPath := strings.TrimSuffix(out, filepath.Ext(out)) + ".stderr"
	fe, err := os.Create(errPath)
	if err != nil {
		return err
	}
	defer fe.Close()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(cctx, "sh", "-c", line)
	inGroup(cmd)
	so := &cappedWriter{w: fo, left: limit, over: cancel}
	se := &cappedWriter{w: fe, left: limit, over: cancel}
	cmd.Stdout, cmd.Stderr = so, se
	cmd.WaitDelay = 5 * time.Second
	err = cmd.Run()
	switch {
	case so.exceeded || se.exceeded:
		return fmt.Errorf("wrote more than --max-output %d bytes: killed", limit)
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return fmt.Errorf("%v%s", err, lastLine(errPath))
	}
	return nil
}

// lastLine returns ": " and the last non-empty line of the file, or "".
func lastLine(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		if len(l) > 200 {
			l = l[:200] + "..."
		}
		return fmt.Sprintf(" (stderr %s: %s)", path, l)
	}
	return ""
}

// cappedWriter writes at most left bytes to w; past that it calls over
// (which kills the command) and fails.
type cappedWriter struct {
	w        io.Writer
	left     int64
	over     func()
	exceeded bool
}

var errTooMuchOutput = errors.New("output beyond --max-output")

func (c *cappedWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > c.left {
		c.exceeded = true
		c.over()
		return 0, errTooMuchOutput
	}
	c.left -= int64(len(p))
	return c.w.Write(p)
}
