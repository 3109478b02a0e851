package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Record is an experiment's truth.json: the scenario drawn and what
// making it measured.
type Record struct {
	Scenario
	// Made says how and when the experiment was made.
	Made Made `json:"made"`
	// Derived is the truth in the runs' terms, computed from the runs'
	// measured times (e.g. the round the change ended in).
	Derived Derived `json:"derived"`
}

// Made is the environment and the commands of an experiment.
type Made struct {
	Date  string            `json:"date"`
	Host  string            `json:"host"`
	Tools map[string]string `json:"tools"`
	// Priority is the generator's niceness and its autogroup's
	// (/proc/self/autogroup), which the servers and tools inherit.
	Priority string `json:"priority"`
	// Servers are the truth servers' command lines, per system.
	Servers map[string]string `json:"servers"`
	Runs    []RunRecord       `json:"runs"`
	// WallS is how long making the experiment took.
	WallS float64 `json:"wall_s"`
	// Attempts is how many times the experiment was made before it was
	// recorded: an attempt during which other processes used more than
	// gen's -quiet share of the CPU in some run is made again (absent:
	// made before that rule).
	Attempts int `json:"attempts,omitempty"`
	// Duel is how loadverdict duel ran (the duel family; its rounds are
	// Runs).
	Duel *DuelMade `json:"duel,omitempty"`
}

// RunRecord is one run as it was made.
type RunRecord struct {
	File    string `json:"file"`
	Command string `json:"command"`
	// StartS and EndS are seconds since the first run's start (about the
	// servers' clock: it starts at their first request).
	StartS float64 `json:"start_s"`
	EndS   float64 `json:"end_s"`
	// LoadBefore and LoadAfter are /proc/loadavg's first three fields.
	LoadBefore string `json:"load_before"`
	LoadAfter  string `json:"load_after"`
	// Hog is the command line of the busy loop that ran beside the
	// server during the run (RunSpec.Hog), if any.
	Hog string `json:"hog,omitempty"`
	// OthersCPUPct is the share of the machine's CPU capacity that
	// processes other than the experiment's (this generator, its tools
	// and its servers) used during the run, in percent; steal time of
	// the host counts as others'. Absent in experiments made before it
	// was measured.
	OthersCPUPct *float64 `json:"others_cpu_pct,omitempty"`
	// Speed is how fast the run's server did its work (speed.go).
	// Absent in experiments made before it was measured.
	Speed *RunSpeed `json:"speed,omitempty"`
	Error string    `json:"error,omitempty"`
}

// Derived is the truth in terms of the runs.
type Derived struct {
	// ChangeRound is the round (1-based, across-run experiments) the
	// change starts in, and SteadyFromRound the first round that starts
	// after it ended (0: none; the change lasts to the end).
	ChangeRound     int `json:"change_round,omitempty"`
	SteadyFromRound int `json:"steady_from_round,omitempty"`
	// Rounds is the number of rounds.
	Rounds int `json:"rounds,omitempty"`
}

// genConfig is gen's command line.
type genConfig struct {
	seed    uint64
	out     string
	fams    []family
	n       int
	port    int
	timeout time.Duration
	reverse bool
	// quietPct is the largest share of the CPU (percent) other processes
	// may use during a run before the experiment is made again; 0: no
	// such rule.
	quietPct float64
	// lv is the loadverdict binary the duel family runs (built by gen).
	lv string
	// series are the kinds of nightly series to make (genSeries).
	series []seriesKind
	// tool, when set, is the tool of every closed-model series made in
	// place of the drawn one (withTool).
	tool string
}

// runPlan prints the experiments gen would make (all of them, recorded
// or not): id, variant, planned seconds of load, runs, servers' flags.
func runPlan(args []string) error {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	seed := fs.Uint64("seed", 19, "the grid's seed")
	fam := fs.String("family", "", "comma-separated families (default: all)")
	n := fs.Int("n", 0, "experiments per family (default: each family's committed count)")
	tool := fs.String("tool", "", "as gen -tool: the closed-model nightly series with this `tool`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fams, err := experimentFamilies(*fam)
	if err != nil {
		return err
	}
	if err := checkSeriesTool(genConfig{fams: fams, series: seriesKinds(*fam), tool: *tool}); err != nil {
		return err
	}
	total := 0.0
	for _, f := range fams {
		c := f.N
		if *n > 0 {
			c = *n
		}
		sum := 0.0
		for i := range c {
			s := draw(f, *seed, i)
			d := 0.0
			for _, r := range s.Runs {
				d += r.DurationS
			}
			if f.Name == familyDuel {
				d *= s.Params["max_rounds"] // at most: a duel that decides stops sooner
			}
			sum += d
			fmt.Printf("%-20s %-28s %5.0f s %3d runs  expect %-16s %v\n", s.ID, s.Variant, d, len(s.Runs), s.Truth.Expect, s.Servers)
		}
		fmt.Printf("# %s: %d experiments, %.0f s of load\n", f.Name, c, sum)
		total += sum
	}
	for _, k := range seriesKinds(*fam) {
		c := k.n
		if *n > 0 {
			c = *n
		}
		sum := 0.0
		for i := range c {
			s := withTool(k.draw(*seed, i), *tool)
			d := float64(2*s.Runs*len(s.Nights)) * s.DurationS
			sum += d
			fmt.Printf("%-20s %-28s %5.0f s  %s\n", s.ID, s.Variant, d, s.Note)
		}
		fmt.Printf("# %s: %d series, %.0f s of load\n", k.folder, c, sum)
		total += sum
	}
	fmt.Printf("# total %.0f s of load\n", total)
	return nil
}

func runGen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	seed := fs.Uint64("seed", 19, "the grid's seed: every experiment's parameters are drawn from it")
	out := fs.String("out", "testdata/conformance", "the grid's `folder`")
	fam := fs.String("family", "", "comma-separated families to make (default: all); \"heavy\" or \"light\" for the wrk or per-request ones")
	n := fs.Int("n", 0, "experiments per family (default: each family's committed count)")
	port := fs.Int("port", 19400, "first loopback port of the truth servers (two are used)")
	timeout := fs.Duration("timeout", 3*time.Minute, "bound on one experiment")
	reverse := fs.Bool("reverse", false, "make the experiments from the last index down (a second gen, on other ports, then shares the work)")
	quiet := fs.Float64("quiet", 10, "make an experiment again (up to 3 times) when other processes used more than this `percent` of the CPU during one of its runs; 0: never")
	tool := fs.String("tool", "", "make the closed-model nightly series with this `tool` (wrk, hey, ab or bombardier) in place of the drawn one: a held-out check of another tool (the rest of each series is drawn as before)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg := genConfig{seed: *seed, out: *out, n: *n, port: *port, timeout: *timeout, reverse: *reverse, quietPct: *quiet, series: seriesKinds(*fam), tool: *tool}
	var err error
	if cfg.fams, err = experimentFamilies(*fam); err != nil {
		return err
	}
	if err := checkSeriesTool(cfg); err != nil {
		return err
	}
	if len(cfg.fams) > 0 {
		if err := gen(cfg); err != nil {
			return err
		}
	}
	if seriesWanted(*fam) {
		// The nightly series (series.go): made after the others.
		if _, err := os.Stat("go.mod"); err != nil {
			return errors.New("run gen from the repository's root (go run ./scripts/conformance gen)")
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return genSeries(ctx, cfg)
	}
	return nil
}

// experimentFamilies are the families of single experiments (not the
// nightly series) that names asks gen for: all for "", the wrk or the
// per-request ones for "heavy" or "light", else those named.
func experimentFamilies(names string) ([]family, error) {
	var fams []family
	for _, f := range families {
		if f.Series {
			continue
		}
		switch names {
		case "":
			fams = append(fams, f)
		case "heavy", "light":
			if f.Heavy == (names == "heavy") {
				fams = append(fams, f)
			}
		}
	}
	if names == "" || names == "heavy" || names == "light" {
		return fams, nil
	}
	for _, name := range strings.Split(names, ",") {
		f, ok := familyByName(name)
		if !ok {
			return nil, fmt.Errorf("no family %q", name)
		}
		if !f.Series {
			fams = append(fams, f)
		}
	}
	return fams, nil
}

// gen makes the experiments not yet recorded, the families in turn (one
// experiment of each, then the next of each), so that a run stopped
// early leaves every family some.
func gen(cfg genConfig) error {
	if _, err := os.Stat("go.mod"); err != nil {
		return errors.New("run gen from the repository's root (go run ./scripts/conformance gen)")
	}
	tmp, err := os.MkdirTemp("", "conformance-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	server := filepath.Join(tmp, "truthserver")
	if out, err := exec.Command("go", "build", "-o", server, "./scripts/truthserver").CombinedOutput(); err != nil {
		return fmt.Errorf("building the truth server: %v\n%s", err, out)
	}
	tools := toolVersions()
	if slices.ContainsFunc(cfg.fams, func(f family) bool { return f.Name == familyDuel }) {
		cfg.lv = filepath.Join(tmp, "loadverdict")
		if out, err := exec.Command("go", "build", "-o", cfg.lv, "./cmd/loadverdict").CombinedOutput(); err != nil {
			return fmt.Errorf("building loadverdict: %v\n%s", err, out)
		}
	}
	max := 0
	for _, f := range cfg.fams {
		max = maxInt(max, count(cfg, f))
	}
	// SIGINT or SIGTERM stops the tool under way and the servers, and
	// leaves the experiment under way unrecorded.
	sigCtx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	made, skipped := 0, 0
	for j := range max {
		i := j
		if cfg.reverse {
			i = max - 1 - j
		}
		for _, f := range cfg.fams {
			if i >= count(cfg, f) {
				continue
			}
			if sigCtx.Err() != nil {
				return errors.New("stopped")
			}
			s := draw(f, cfg.seed, i)
			dir := filepath.Join(cfg.out, filepath.FromSlash(s.ID))
			if rec, err := loadRecord(dir); err == nil {
				if reflect.DeepEqual(rec.Servers, s.Servers) && reflect.DeepEqual(rec.Runs, s.Runs) {
					skipped++
					continue
				}
				// Recorded from another draw (an older generator): made again.
				fmt.Printf("%s: recorded from another draw; made again\n", s.ID)
			}
			if st, err := os.Stat(workDir(dir)); err == nil && time.Since(st.ModTime()) < cfg.timeout {
				fmt.Printf("%s: under way in another gen; skipped\n", s.ID)
				continue
			}
			t0 := time.Now()
			err := makeQuiet(sigCtx, cfg, server, tmp, tools, s, dir)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", s.ID, err)
				continue
			}
			made++
			fmt.Printf("%s %s  %s (%.1f s)  load %s\n", time.Now().UTC().Format("15:04:05"), s.ID, s.Variant, time.Since(t0).Seconds(), loadavg())
		}
	}
	fmt.Printf("made %d experiments, %d already recorded\n", made, skipped)
	return nil
}

// count is how many experiments of f to make.
func count(cfg genConfig, f family) int {
	if cfg.n > 0 {
		return cfg.n
	}
	return f.N
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// attempts bounds how often an experiment disturbed by other processes
// is made again.
const attempts = 3

// makeQuiet makes scenario s, again when other processes used more than
// cfg.quietPct of the CPU during a run (after a pause for them to end),
// up to attempts times; the last attempt is recorded whatever it
// measured, with its shares in truth.json.
func makeQuiet(ctx context.Context, cfg genConfig, server, tmp string, tools map[string]string, s Scenario, dir string) error {
	for a := 1; ; a++ {
		ctx1, cancel := context.WithTimeout(ctx, cfg.timeout)
		worst, err := makeExperiment(ctx1, cfg, server, tmp, tools, s, dir, a, a < attempts)
		cancel()
		if err != errDisturbed {
			return err
		}
		fmt.Printf("%s: other processes used %.1f %% of the CPU during a run; made again\n", s.ID, worst)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Second):
		}
	}
}

// errDisturbed says an attempt was disturbed and not recorded.
var errDisturbed = errors.New("disturbed by other processes")

// makeExperiment makes scenario s in dir: it writes into a hidden
// folder beside it and renames it into place when complete, so that an
// interrupted experiment is made again from scratch.
// It returns the largest share of the CPU other processes used during a
// run, and errDisturbed without recording when that passed cfg.quietPct
// and retry is set.
func makeExperiment(ctx context.Context, cfg genConfig, server, tmp string, tools map[string]string, s Scenario, dir string, attempt int, retry bool) (float64, error) {
	work := workDir(dir)
	if err := os.RemoveAll(work); err != nil {
		return 0, err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return 0, err
	}
	rec := Record{Scenario: s, Made: Made{Date: time.Now().UTC().Format(time.RFC3339), Host: host(), Tools: tools, Priority: priority(), Servers: map[string]string{}}}
	start := time.Now()
	systems := slices.Sorted(maps.Keys(s.Servers))
	var procs []*exec.Cmd
	defer func() { stopAll(procs) }()
	addr, err := startServers(ctx, cfg, server, s, systems, work, &rec, &procs)
	if err != nil {
		return 0, err
	}
	var worst float64
	if s.Family == familyDuel {
		worst, err = makeDuel(ctx, cfg.lv, s, addr, procs, work, &rec)
	} else {
		worst, err = makeRuns(ctx, s, addr, procs, work, tmp, &rec)
	}
	if err != nil {
		return 0, err
	}
	stopAll(procs)
	procs = nil
	if retry && cfg.quietPct > 0 && worst > cfg.quietPct {
		return worst, errDisturbed
	}
	rec.Made.Attempts = attempt
	rec.Derived = derive(rec)
	rec.Made.WallS = round(time.Since(start).Seconds(), 1)
	var m []byte
	if s.Family != familyDuel { // a duel's rounds are listed in its duel.json
		m = manifest(s, systems)
	}
	if err := writeExperiment(work, rec, m); err != nil {
		return 0, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return 0, err
	}
	return worst, os.Rename(work, dir)
}

// stopAll stops the servers and reaps them.
func stopAll(procs []*exec.Cmd) {
	for _, p := range procs {
		p.Process.Signal(syscall.SIGTERM)
		p.Wait()
	}
}

// startServers starts a truthserver per system (appended to *procs as
// each starts, so that the caller stops them) and waits until each is
// healthy; it returns each system's address and notes the command
// lines in rec.
func startServers(ctx context.Context, cfg genConfig, server string, s Scenario, systems []string, work string, rec *Record, procs *[]*exec.Cmd) (map[string]string, error) {
	addr := map[string]string{}
	for i, sys := range systems {
		if err := os.MkdirAll(filepath.Join(work, sys), 0o755); err != nil {
			return nil, err
		}
		addr[sys] = "127.0.0.1:" + strconv.Itoa(cfg.port+i)
		args := append([]string{"-addr", addr[sys]}, s.Servers[sys]...)
		rec.Made.Servers[sys] = "truthserver " + strings.Join(args, " ")
		cmd := exec.Command(server, args...)
		if s.Pin != nil {
			pin := []string{"-c", strconv.Itoa(s.Pin.ServerCPU)}
			if s.Pin.RT {
				pin = append(pin, "chrt", "-f", "1")
			}
			cmd = exec.Command("taskset", append(append(pin, server), args...)...)
			rec.Made.Servers[sys] = "taskset " + strings.Join(pin, " ") + " " + rec.Made.Servers[sys]
		}
		if err := startLogged(cmd, filepath.Join(work, "server-"+sys+".log")); err != nil {
			return nil, err
		}
		*procs = append(*procs, cmd)
		if err := waitHealthy(ctx, addr[sys]); err != nil {
			return nil, fmt.Errorf("server %s: %w", sys, err)
		}
	}
	return addr, nil
}

// startLogged starts cmd with its standard error in the file log.
func startLogged(cmd *exec.Cmd, log string) error {
	logf, err := os.Create(log)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd.Stderr = logf
	return cmd.Start()
}

// makeRuns makes the scenario's runs against the servers at addr (procs
// are theirs, whose CPU is the experiment's own), appending each run's
// record to rec; it returns the largest share of the CPU others used.
func makeRuns(ctx context.Context, s Scenario, addr map[string]string, procs []*exec.Cmd, work, tmp string, rec *Record) (float64, error) {
	var pids []int
	for _, p := range procs {
		pids = append(pids, p.Process.Pid)
	}
	var t0 time.Time
	worst := 0.0
	for i, run := range s.Runs {
		r := RunRecord{File: run.File, LoadBefore: loadavg()}
		m0, measured := markCPU(pids)
		now := time.Now()
		if i == 0 {
			t0 = now
		}
		r.StartS = round(now.Sub(t0).Seconds(), 3)
		if err := makeRun(ctx, s.Pin, run, "http://"+addr[run.System]+"/", work, tmp, &r); err != nil {
			return 0, err
		}
		r.EndS = round(time.Since(t0).Seconds(), 3)
		r.LoadAfter = loadavg()
		sp, err := readSpeed(ctx, addr[run.System])
		if err != nil {
			return 0, fmt.Errorf("%s: %w", run.File, err)
		}
		r.Speed = sp
		if m1, ok := markCPU(pids); ok && measured {
			pct := othersPct(m0, m1, time.Since(now).Seconds())
			r.OthersCPUPct = &pct
			worst = max(worst, pct)
		}
		rec.Made.Runs = append(rec.Made.Runs, r)
	}
	return worst, nil
}

// makeRun makes one run with its hog if it has one, noting the hog's
// and the tool's command lines in r.
func makeRun(ctx context.Context, pin *Pin, run RunSpec, url, work, tmp string, r *RunRecord) error {
	var hog *exec.Cmd
	if run.Hog != nil {
		var err error
		if hog, err = startHog(pin, run.Hog); err != nil {
			return fmt.Errorf("%s: hog: %w", run.File, err)
		}
		r.Hog = hog.String()
	}
	cmdline, err := runTool(ctx, run, pin, url, filepath.Join(work, filepath.FromSlash(run.File)), tmp)
	if hog != nil {
		// Stopped and reaped before the CPU account is read: its time
		// is the experiment's own (RUSAGE_CHILDREN), not others'.
		hog.Process.Kill()
		hog.Wait()
	}
	r.Command = cmdline
	if err != nil {
		return fmt.Errorf("%s: %w", run.File, err)
	}
	return nil
}

// writeExperiment writes the experiment's manifest and its truth.json
// (rec) into work.
func writeExperiment(work string, rec Record, manifest []byte) error {
	if manifest != nil {
		if err := os.WriteFile(filepath.Join(work, "loadverdict.yaml"), manifest, 0o644); err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(work, "truth.json"), append(b, '\n'), 0o644)
}

// workDir is the hidden folder an experiment is made in.
func workDir(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp")
}

// manifest is the experiment's loadverdict.yaml: each system is the
// folder of its runs, and the order is the order they ran in.
func manifest(s Scenario, systems []string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s (%s): made by scripts/conformance gen; the truth is in truth.json.\nsystems:\n", s.ID, s.Variant)
	for _, sys := range systems {
		fmt.Fprintf(&b, "  %s: [%s]\n", sys, sys)
	}
	b.WriteString("order:\n")
	for _, r := range s.Runs {
		fmt.Fprintf(&b, "  - %s\n", r.File)
	}
	return b.Bytes()
}

// derive computes the truth in the runs' terms from their times.
func derive(rec Record) Derived {
	var d Derived
	if rec.Truth.Scope != "across-runs" {
		return d
	}
	d.Rounds = len(rec.Made.Runs)
	t := rec.Truth
	if t.Expect == "flat" || t.Expect == "no-steady-state" {
		return d
	}
	for i, r := range rec.Made.Runs {
		if d.ChangeRound == 0 && t.ChangeFromS < r.EndS {
			d.ChangeRound = i + 1
		}
		if d.SteadyFromRound == 0 && t.ChangeToS >= 0 && r.StartS >= t.ChangeToS {
			d.SteadyFromRound = i + 1
		}
	}
	return d
}

// waitHealthy polls the server's /healthz until it answers.
func waitHealthy(ctx context.Context, addr string) error {
	c := &http.Client{Timeout: time.Second}
	for range 100 {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/healthz", nil)
		if resp, err := c.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return errors.New("did not answer /healthz within 10 s")
}

// startHog starts a busy loop on the server's CPU, h.Nice levels below
// the generator's niceness (RunSpec.Hog).
func startHog(pin *Pin, h *Hog) (*exec.Cmd, error) {
	if pin == nil {
		return nil, errors.New("a hog needs the server pinned (Scenario.Pin)")
	}
	cmd := exec.Command("taskset", "-c", strconv.Itoa(pin.ServerCPU), "nice", "-n", strconv.Itoa(h.Nice), "sh", "-c", "while :; do :; done")
	return cmd, cmd.Start()
}

// command is the command name args, pinned to the tools' CPU when pin is
// set.
func command(ctx context.Context, pin *Pin, name string, args ...string) *exec.Cmd {
	if pin == nil {
		return exec.CommandContext(ctx, name, args...)
	}
	return exec.CommandContext(ctx, "taskset", append([]string{"-c", strconv.Itoa(pin.ToolCPU), name}, args...)...)
}

// runTool runs one load-tool run and writes its output to file; it
// returns the command line. A file named .txt holds the tool's text
// report after a line "$ <command>" (which tells the ingest the
// settings); vegeta's is `vegeta report`'s.
func runTool(ctx context.Context, run RunSpec, pin *Pin, url, file, tmp string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Duration(run.DurationS*float64(time.Second))+30*time.Second)
	defer cancel()
	text := strings.HasSuffix(file, ".txt")
	switch run.Tool {
	case toolWrk, toolHey:
		if run.Tool == toolHey && !text {
			break
		}
		args := append(slices.Clone(run.Args), url)
		line := run.Tool + " " + strings.Join(args, " ")
		out, err := command(ctx, pin, run.Tool, args...).Output()
		if err != nil {
			return line, err
		}
		return line, os.WriteFile(file, append([]byte("$ "+line+"\n"), out...), 0o644)
	}
	switch run.Tool {
	case toolVegeta:
		bin := filepath.Join(tmp, "attack.bin")
		line := "echo 'GET " + url + "' | vegeta attack " + strings.Join(run.Args, " ") + " | vegeta encode --to json | gzip"
		cmd := command(ctx, pin, "vegeta", append([]string{"attack"}, run.Args...)...)
		cmd.Stdin = strings.NewReader("GET " + url + "\n")
		if text {
			line = "echo \"GET " + url + "\" | vegeta attack " + strings.Join(run.Args, " ") + " | vegeta report"
		}
		out, err := os.Create(bin)
		if err != nil {
			return line, err
		}
		cmd.Stdout = out
		err = cmd.Run()
		out.Close()
		if err != nil {
			return line, err
		}
		if text {
			rep, err := exec.CommandContext(ctx, "vegeta", "report", bin).Output()
			if err != nil {
				return line, err
			}
			return line, os.WriteFile(file, append([]byte("$ "+line+"\n"), rep...), 0o644)
		}
		enc := exec.CommandContext(ctx, "vegeta", "encode", "--to", "json", bin)
		return line, gzipOutput(enc, file)
	case toolHey:
		args := append(slices.Clone(run.Args), url)
		line := "hey " + strings.Join(args, " ") + " | gzip"
		return line, gzipOutput(command(ctx, pin, "hey", args...), file)
	}
	return "", fmt.Errorf("unknown tool %q", run.Tool)
}

// gzipOutput runs cmd and writes its standard output, gzipped, to file.
func gzipOutput(cmd *exec.Cmd, file string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	cmd.Stdout = zw
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// loadavg is /proc/loadavg's first three fields.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// priority is the process's niceness and its autogroup's.
func priority() string {
	nice, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	out := "nice unknown"
	if err == nil {
		// The raw system call returns 20 - nice.
		out = fmt.Sprintf("nice %d", 20-nice)
	}
	if b, err := os.ReadFile("/proc/self/autogroup"); err == nil {
		out += "; " + strings.TrimSpace(string(b))
	}
	return out
}

// host describes the machine.
func host() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%d CPUs, %s, %s/%s", runtime.NumCPU(), model, runtime.GOOS, runtime.GOARCH)
}

// toolVersions are the load tools' versions (and Go's).
func toolVersions() map[string]string {
	v := map[string]string{"go": runtime.Version()}
	if out, _ := exec.Command("wrk", "-v").CombinedOutput(); len(out) > 0 {
		v["wrk"] = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	}
	if out, _ := exec.Command("ab", "-V").CombinedOutput(); len(out) > 0 {
		v["ab"] = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	}
	for _, tool := range []string{"vegeta", "hey", "bombardier"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			continue
		}
		out, _ := exec.Command("go", "version", "-m", p).Output()
		for _, l := range strings.Split(string(out), "\n") {
			if f := strings.Fields(l); len(f) >= 3 && f[0] == "mod" {
				v[tool] = f[1] + " " + f[2]
			}
		}
	}
	return v
}
