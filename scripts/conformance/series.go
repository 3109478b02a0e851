package main

// The nightly grid family (issue 31): an experiment is a series of nights,
// each with the system under test (svc) and a same-night control,
// interleaved; the machine varied between nights by construction
// (scripts/cpuhog), the code changed on a chosen night. run analyses each
// series night by night as a nightly job does, without the control (family
// nightly) and with it (nightly-control), and grades each night against
// its truth; nights no method without a control can tell are tallied
// apart (nightly-untellable), never floored. The families:
// docs/CONFORMANCE.md.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
)

// The series families: the folder the series are recorded in, and the
// three tallies run makes of them.
const (
	seriesFolder          = "nightly"
	familyNightly         = "nightly"
	familyNightlyControl  = "nightly-control"
	familyNightlyUntellab = "nightly-untellable"
)

// The open-model series: vegeta at a fixed rate, gated on mean and p99
// latency (drawOpenSeries); their own folder and tallies.
const (
	openFolder                = "nightly-open"
	familyNightlyOpen         = "nightly-open"
	familyNightlyOpenControl  = "nightly-open-control"
	familyNightlyOpenUntellab = "nightly-open-untellable"
)

// seriesN and openSeriesN are how many series the committed grid holds
// of each kind.
const (
	seriesN     = 16
	openSeriesN = 10
)

// The night's expected outcomes.
const (
	expectPass      = "pass"       // svc's cost as the reference's: the gate passes
	expectFail      = "fail"       // a regression in effect since an earlier night: the gate fails
	expectStepNight = "step-night" // the night a regression lands: either (fails, or passes once as suspect)
	expectEither    = "either"     // a step measured within two standard errors of the allowed regression: either
)

// stepExpect is a regression night's expectation given the step its
// series measured (realizedStep: pct ± se, percent) and the gate's
// allowed regression: a step measured below the allowed regression is no
// regression to gate (pass), one within two standard errors of it either
// way is right both ways, and one beyond keeps the expectation drawn.
func stepExpect(drawn string, pct, se, allowed float64) string {
	switch {
	case drawn != expectFail && drawn != expectStepNight:
		return drawn
	case pct+2*se < allowed:
		return expectPass
	case pct-2*se <= allowed:
		return expectEither
	}
	return drawn
}

// SeriesScenario is a nightly series as drawn: what truth.json of
// nightly/<NNN>/ records (with what making it measured added by gen).
type SeriesScenario struct {
	ID      string             `json:"id"`
	Family  string             `json:"family"`
	Seed    uint64             `json:"seed"`
	Variant string             `json:"variant"`
	Params  map[string]float64 `json:"params"`
	// Tool is wrk (-t1 -c8 -d2s --latency), hey (-z 2s -c 8) or, in
	// the open-model series, vegeta at RatePerS requests a second
	// (-rate, -duration 2s); the same for every run; Runs are the runs a
	// night of each system.
	Tool      string      `json:"tool"`
	RatePerS  int         `json:"rate_per_s,omitempty"`
	Runs      int         `json:"runs"`
	DurationS float64     `json:"duration_s"`
	Nights    []NightSpec `json:"nights"`
	Note      string      `json:"note"`
}

// NightSpec is one night: the two servers' work, the machine and the
// truth.
type NightSpec struct {
	Name        string `json:"name"`
	SvcWork     int    `json:"svc_work"`
	ControlWork int    `json:"control_work"`
	// Machine is normal, outlier-fast (no hog on night 1), faster (no
	// hog), slower (a heavier hog) or varied (the normal hog's spin
	// moved by up to a quarter); HogSpinMs and HogSleepMs its hog's
	// cycle (0: none).
	Machine    string  `json:"machine"`
	HogSpinMs  float64 `json:"hog_spin_ms,omitempty"`
	HogSleepMs float64 `json:"hog_sleep_ms,omitempty"`
	// RegressionPct is how much more work a request of svc costs than
	// the control's this night (0: none).
	RegressionPct float64 `json:"regression_pct,omitempty"`
	// Expect is the right gate with the control; ExpectAlone without it,
	// "untellable" where no method without a control can tell.
	Expect      string `json:"expect"`
	ExpectAlone string `json:"expect_alone"`
	Date        string `json:"date"`
}

// untellable marks a night no method without a control can tell.
const untellable = "untellable"

// SeriesRecord is a series' truth.json.
type SeriesRecord struct {
	SeriesScenario
	Made SeriesMade `json:"made"`
}

// SeriesMade is how a series was made.
type SeriesMade struct {
	Date     string            `json:"date"`
	Host     string            `json:"host"`
	Tools    map[string]string `json:"tools"`
	Priority string            `json:"priority"`
	// Pinned is the prefix every server, hog and tool ran under
	// (taskset -c 1 chrt -f 1 when it works here).
	Pinned string      `json:"pinned"`
	Nights []NightMade `json:"nights"`
	WallS  float64     `json:"wall_s"`
}

// NightMade is one night as made: the hog's report (its measured share
// of the wall time) and the runs.
type NightMade struct {
	Name        string      `json:"name"`
	HogReport   string      `json:"hog_report,omitempty"`
	HogSharePct float64     `json:"hog_share_pct"`
	Runs        []RunRecord `json:"runs"`
}

// seriesDraw is what drawSeries draws for a series before its nights.
type seriesDraw struct {
	n, work             int
	base, step, heavier float64
	stepAt, revertAt    int
	outlier             bool
	swing               string
	swingFrom, swingTo  int
}

// drawSeries draws series i from the grid's seed.
func drawSeries(seed uint64, i int) SeriesScenario {
	s, r := newSeries(seed, seriesFolder, i)
	d := seriesDraw{n: between(r, 8, 12)}
	s.Runs = pick(r, 1, 2)
	s.Tool = pick(r, toolWrk, toolWrk, toolHey)
	d.work = between(r, 80, 120) * 100
	d.base = round(uni(r, 1.2, 2.0), 2) // the normal hog's spin, ms of a 10 ms cycle
	d.step = pick(r, 0.0, 8.0, 15.0)
	d.shape(r, &s)
	return s
}

// newSeries starts series i of folder from the grid's seed: its id, its
// own seed (the grid's, the folder's and i hashed, so that one can be
// made again or more added without changing the others) and the draws'
// source, 2 s runs.
func newSeries(seed uint64, folder string, i int) (SeriesScenario, *rand.Rand) {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s-series/%d", seed, folder, i)
	es := h.Sum64()
	s := SeriesScenario{ID: fmt.Sprintf("%s/%03d", folder, i), Family: folder, Seed: es, Params: map[string]float64{}, DurationS: 2}
	return s, rand.New(rand.NewPCG(es, es^0x9e3779b97f4a7c15))
}

// openCapacity is the truth server's capacity on the grid's machine,
// requests a second times its work a request, with the normal hog (a
// closed model's throughput at 8 connections: about 886 req/s at
// -work 11000, nightly/014's nights 1-4).
const openCapacity = 9.7e6

// drawOpenSeries draws open-model series i from the grid's seed: as
// drawSeries, but vegeta at a fixed rate of 30-45 % of the server's
// capacity with the normal hog (so under the heavier hog 45-65 %, and a
// step takes it higher), 2-3 runs a night, and steps of 0, 10 or 20 %
// more work: the gate reads mean and p99 latency, whose change for the
// same step moves with the machine (queueing is not linear in load).
func drawOpenSeries(seed uint64, i int) SeriesScenario {
	s, r := newSeries(seed, openFolder, i)
	s.Tool = toolVegeta
	d := seriesDraw{n: between(r, 8, 12)}
	s.Runs = pick(r, 2, 3)
	d.work = between(r, 80, 120) * 100
	d.base = round(uni(r, 1.2, 2.0), 2)
	frac := uni(r, 0.30, 0.45)
	s.RatePerS = int(math.Round(frac * openCapacity / float64(d.work)))
	s.Params["load_fraction"] = round(frac, 2)
	d.step = pick(r, 0.0, 10.0, 20.0)
	d.shape(r, &s)
	return s
}

// shape draws the rest of a series after its tool, work, hog and step
// size: the step's night and revert, the outlier first night, the
// machine's swing, and the nights.
func (d *seriesDraw) shape(r *rand.Rand, s *SeriesScenario) {
	if d.step > 0 {
		d.stepAt = between(r, 4, d.n-2)
		if r.IntN(2) == 0 && d.stepAt+2 < d.n {
			d.revertAt = between(r, d.stepAt+2, d.n)
		}
	}
	d.outlier = r.IntN(3) == 0
	d.swing = pick(r, "none", "faster", "faster", "slower", "varied")
	d.swingFrom = between(r, 3, d.n-1)
	d.swingTo = min(d.swingFrom+between(r, 0, 2), d.n)
	s.Params["nights"], s.Params["work"], s.Params["hog_spin_ms"] = float64(d.n), float64(d.work), d.base
	s.Params["step_pct"], s.Params["step_night"], s.Params["revert_night"] = d.step, float64(d.stepAt), float64(d.revertAt)
	s.Params["swing_from"], s.Params["swing_to"] = float64(d.swingFrom), float64(d.swingTo)
	if d.outlier {
		s.Params["outlier_first"] = 1
	}
	d.heavier = round(uni(r, 1.5, 2.5), 2)
	for e := 1; e <= d.n; e++ {
		s.Nights = append(s.Nights, d.night(r, e))
	}
	tool := s.Tool
	if s.RatePerS > 0 {
		tool = fmt.Sprintf("%s at %d req/s", s.Tool, s.RatePerS)
	}
	s.Note = d.note(tool, s.Runs)
	s.Variant = d.variant()
}

// night is night e of the series; r draws a varied machine's spin.
func (d seriesDraw) night(r *rand.Rand, e int) NightSpec {
	nt := NightSpec{Name: fmt.Sprintf("night%02d", e), ControlWork: d.work, SvcWork: d.work, Machine: "normal", HogSpinMs: d.base,
		Date: time.Date(2026, 11, 10+e, 0, 0, 0, 0, time.UTC).Format("2006-01-02")}
	switch {
	case e == 1 && d.outlier:
		nt.Machine, nt.HogSpinMs = "outlier-fast", 0
	case d.swing != "none" && e >= d.swingFrom && e <= d.swingTo:
		nt.Machine, nt.HogSpinMs = d.swing, d.swingSpin(r)
	}
	if nt.HogSpinMs > 0 {
		nt.HogSleepMs = round(10-nt.HogSpinMs, 2)
	}
	inEffect := d.step > 0 && e >= d.stepAt && (d.revertAt == 0 || e < d.revertAt)
	nt.Expect = expectPass
	if inEffect {
		nt.RegressionPct = d.step
		nt.SvcWork = int(float64(d.work)*(1+d.step/100) + 0.5)
		nt.Expect = expectFail
		if e == d.stepAt {
			nt.Expect = expectStepNight
		}
	}
	nt.ExpectAlone = nt.Expect
	if nt.Machine == "slower" && !inEffect || nt.Machine == "faster" && inEffect {
		// An unchanged build on a slower machine looks like a
		// regression, a regression on a faster machine like
		// nothing: only a control tells.
		nt.ExpectAlone = untellable
	}
	return nt
}

// swingSpin is the hog's spin on a night the machine swings.
func (d seriesDraw) swingSpin(r *rand.Rand) float64 {
	switch d.swing {
	case "faster":
		return 0
	case "slower":
		return round(d.base+d.heavier, 2)
	case "varied":
		return round(d.base*uni(r, 0.75, 1.25), 2)
	}
	return d.base
}

// note describes the series in a line.
func (d seriesDraw) note(tool string, runs int) string {
	parts := []string{fmt.Sprintf("%d nights", d.n), fmt.Sprintf("%s x%d a night", tool, runs)}
	switch {
	case d.step == 0:
		parts = append(parts, "no change")
	case d.revertAt > 0:
		parts = append(parts, fmt.Sprintf("+%.0f%% at night%02d", d.step, d.stepAt), fmt.Sprintf("reverted at night%02d", d.revertAt))
	default:
		parts = append(parts, fmt.Sprintf("+%.0f%% at night%02d", d.step, d.stepAt))
	}
	if d.outlier {
		parts = append(parts, "outlier first night")
	}
	if d.swing != "none" {
		parts = append(parts, fmt.Sprintf("machine %s nights %d-%d", d.swing, d.swingFrom, d.swingTo))
	}
	return strings.Join(parts, ", ")
}

// variant names the series' kind.
func (d seriesDraw) variant() string {
	v := "step"
	if d.step == 0 {
		v = "stable"
	} else if d.revertAt > 0 {
		v = "step-revert"
	}
	if d.outlier {
		v += "-outlier"
	}
	if d.swing != "none" {
		v += "-" + d.swing
	}
	return v
}

// seriesWanted says whether fams asks for the nightly series (by a
// series family's name, or all families).
func seriesWanted(names string) bool {
	return len(seriesKinds(names)) > 0
}

// seriesKind is a kind of series: its folder, how it is drawn and how
// many the committed grid holds.
type seriesKind struct {
	folder string
	draw   func(seed uint64, i int) SeriesScenario
	n      int
}

// seriesKinds are the kinds of series names asks for: all for "" or
// "heavy", else those whose folder or one of whose tallies is named.
func seriesKinds(names string) []seriesKind {
	all := []seriesKind{{seriesFolder, drawSeries, seriesN}, {openFolder, drawOpenSeries, openSeriesN}}
	if names == "" || names == "heavy" {
		return all
	}
	var out []seriesKind
	for _, k := range all {
		for _, name := range strings.Split(names, ",") {
			if f, ok := familyByName(name); ok && f.Series && seriesFamilyFolder(name) == k.folder {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// seriesFamilyFolder is the folder of the series a series family tallies.
func seriesFamilyFolder(family string) string {
	switch family {
	case familyNightlyOpen, familyNightlyOpenControl, familyNightlyOpenUntellab:
		return openFolder
	}
	return seriesFolder
}

// pinPrefix is the prefix the series' processes run under: one CPU at
// the real-time class (as scripts/truth/lib.sh's PIN_CPU), when it
// works here (root); else none.
func pinPrefix() []string {
	p := []string{"taskset", "-c", "1", "chrt", "-f", "1"}
	if exec.Command(p[0], append(p[1:], "true")...).Run() == nil {
		return p
	}
	return nil
}

// prefixed is name args under prefix.
func prefixed(ctx context.Context, prefix []string, name string, args ...string) *exec.Cmd {
	all := append(slices.Clone(prefix), name)
	all = append(all, args...)
	return exec.CommandContext(ctx, all[0], all[1:]...)
}

// genSeries makes the series not yet recorded, up to n (0: seriesN).
func genSeries(ctx context.Context, cfg genConfig) error {
	tmp, err := os.MkdirTemp("", "conformance-series-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins := map[string]string{}
	for _, b := range []string{"truthserver", "cpuhog"} {
		bins[b] = filepath.Join(tmp, b)
		if out, err := exec.Command("go", "build", "-o", bins[b], "./scripts/"+b).CombinedOutput(); err != nil {
			return fmt.Errorf("building %s: %v\n%s", b, err, out)
		}
	}
	tools := toolVersions()
	made, skipped := 0, 0
	for _, k := range cfg.series {
		count := k.n
		if cfg.n > 0 {
			count = cfg.n
		}
		for i := range count {
			if ctx.Err() != nil {
				return errors.New("stopped")
			}
			s := withTool(k.draw(cfg.seed, i), cfg.tool)
			dir := filepath.Join(cfg.out, filepath.FromSlash(s.ID))
			if rec, err := loadSeries(dir); err == nil && equalSeries(rec.SeriesScenario, s) {
				skipped++
				continue
			}
			t0 := time.Now()
			if err := makeSeries(ctx, cfg, bins, tools, s, dir); err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", s.ID, err)
				continue
			}
			made++
			fmt.Printf("%s %s  %s (%.1f s)  load %s\n", time.Now().UTC().Format("15:04:05"), s.ID, s.Note, time.Since(t0).Seconds(), loadavg())
		}
	}
	fmt.Printf("made %d series, %d already recorded\n", made, skipped)
	return nil
}

// closedTools are the tools gen -tool takes: closed-model ones, run at
// 8 connections for the series' duration (seriesTool).
var closedTools = []string{toolWrk, toolHey, toolAb, toolBombardier}

// checkSeriesTool refuses a -tool gen cannot use: one it does not drive
// closed, or one asked of no closed-model series (the open-model series
// run vegeta at a fixed rate).
func checkSeriesTool(cfg genConfig) error {
	if cfg.tool == "" {
		return nil
	}
	if !slices.Contains(closedTools, cfg.tool) {
		return fmt.Errorf("-tool %q: want one of %s", cfg.tool, strings.Join(closedTools, ", "))
	}
	// seriesKinds gives each kind at most once.
	if len(cfg.fams) > 0 || len(cfg.series) != 1 || cfg.series[0].folder != seriesFolder {
		return fmt.Errorf("-tool is for the closed-model nightly series only: -family %s", seriesFolder)
	}
	return nil
}

// withTool is series s made with tool in place of the one drawn (its
// note says so); s itself when tool is empty or the one drawn. Nothing
// else of the draw changes: the same seed and index give the same
// nights, step and machine with either tool.
func withTool(s SeriesScenario, tool string) SeriesScenario {
	if tool == "" || tool == s.Tool {
		return s
	}
	s.Note = strings.Replace(s.Note, s.Tool+" x", tool+" x", 1)
	s.Tool = tool
	return s
}

// equalSeries tells whether a recorded series is the one drawn.
func equalSeries(a, b SeriesScenario) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// loadSeries reads a series' truth.json.
func loadSeries(dir string) (SeriesRecord, error) {
	var rec SeriesRecord
	b, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err != nil {
		return rec, err
	}
	return rec, json.Unmarshal(b, &rec)
}

var hogTook = regexp.MustCompile(`took ([0-9.]+) %`)

// makeSeries makes series s in dir (through a hidden folder renamed
// into place when complete), night after night: the night's hog, both
// servers freshly started, then for each run svc's and control's (svc
// first on odd runs, control first on even ones), all pinned to one CPU.
func makeSeries(ctx context.Context, cfg genConfig, bins, tools map[string]string, s SeriesScenario, dir string) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	work := workDir(dir)
	if err := os.RemoveAll(work); err != nil {
		return err
	}
	pin := pinPrefix()
	rec := SeriesRecord{SeriesScenario: s, Made: SeriesMade{Date: time.Now().UTC().Format(time.RFC3339), Host: host(), Tools: tools, Priority: priority(), Pinned: strings.Join(pin, " ")}}
	start := time.Now()
	for _, nt := range s.Nights {
		nm, err := makeNight(ctx, cfg, bins, pin, s, nt, filepath.Join(work, nt.Name))
		if err != nil {
			return fmt.Errorf("%s: %w", nt.Name, err)
		}
		rec.Made.Nights = append(rec.Made.Nights, nm)
	}
	rec.Made.WallS = round(time.Since(start).Seconds(), 1)
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(work, "truth.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return os.Rename(work, dir)
}

// makeNight makes one night in dir.
func makeNight(ctx context.Context, cfg genConfig, bins map[string]string, pin []string, s SeriesScenario, nt NightSpec, dir string) (NightMade, error) {
	nm := NightMade{Name: nt.Name}
	var procs []*exec.Cmd
	stop := func() {
		for _, p := range procs {
			p.Process.Signal(syscall.SIGTERM)
			p.Wait()
		}
		procs = nil
	}
	defer stop()
	var hogErr strings.Builder
	var hog *exec.Cmd
	if nt.HogSpinMs > 0 {
		hog = prefixed(ctx, pin, bins["cpuhog"], "-spin", dur(nt.HogSpinMs/1000), "-sleep", dur(nt.HogSleepMs/1000))
		hog.Stderr = &hogErr
		if err := hog.Start(); err != nil {
			return nm, err
		}
		defer func() {
			if hog != nil {
				hog.Process.Signal(syscall.SIGTERM)
				hog.Wait()
			}
		}()
	}
	addr := map[string]string{}
	for i, sys := range []string{"svc", "control"} {
		if err := os.MkdirAll(filepath.Join(dir, sys), 0o755); err != nil {
			return nm, err
		}
		w := nt.SvcWork
		if sys == "control" {
			w = nt.ControlWork
		}
		addr[sys] = "127.0.0.1:" + strconv.Itoa(cfg.port+i)
		logf, err := os.Create(filepath.Join(dir, "server-"+sys+".log"))
		if err != nil {
			return nm, err
		}
		cmd := prefixed(ctx, pin, bins["truthserver"], "-addr", addr[sys], "-procs", "1", "-work", strconv.Itoa(w))
		cmd.Stderr = logf
		err = cmd.Start()
		logf.Close()
		if err != nil {
			return nm, err
		}
		procs = append(procs, cmd)
		if err := waitHealthy(ctx, addr[sys]); err != nil {
			return nm, fmt.Errorf("server %s: %w", sys, err)
		}
	}
	var t0 time.Time
	var order []string
	for r := 1; r <= s.Runs; r++ {
		pair := []string{"svc", "control"}
		if r%2 == 0 {
			pair = []string{"control", "svc"}
		}
		for _, sys := range pair {
			file := fmt.Sprintf("%s/run%d.txt", sys, r)
			order = append(order, file)
			rr := RunRecord{File: file, LoadBefore: loadavg()}
			now := time.Now()
			if t0.IsZero() {
				t0 = now
			}
			rr.StartS = round(now.Sub(t0).Seconds(), 3)
			line, err := seriesTool(ctx, pin, s, "http://"+addr[sys]+"/", filepath.Join(dir, filepath.FromSlash(file)))
			rr.Command = line
			rr.EndS = round(time.Since(t0).Seconds(), 3)
			rr.LoadAfter = loadavg()
			if err == nil {
				rr.Speed, err = readSpeed(ctx, addr[sys])
			}
			if err != nil {
				return nm, fmt.Errorf("%s: %w", file, err)
			}
			nm.Runs = append(nm.Runs, rr)
		}
	}
	stop()
	if hog != nil {
		hog.Process.Signal(syscall.SIGTERM)
		hog.Wait()
		hog = nil
		nm.HogReport = strings.TrimSpace(hogErr.String())
		if m := hogTook.FindStringSubmatch(nm.HogReport); m != nil {
			nm.HogSharePct, _ = strconv.ParseFloat(m[1], 64)
		}
	}
	return nm, os.WriteFile(filepath.Join(dir, "loadverdict.yaml"), nightManifest(s, nt, order), 0o644)
}

// seriesTool runs one run of the series' tool against url and writes
// "$ <command line>" and the tool's text output to file.
func seriesTool(ctx context.Context, pin []string, s SeriesScenario, url, file string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Duration(s.DurationS*float64(time.Second))+30*time.Second)
	defer cancel()
	var args []string
	switch s.Tool {
	case toolWrk:
		args = []string{"-t1", "-c8", "-d" + dur(s.DurationS), "--latency", url}
	case toolHey:
		args = []string{"-z", dur(s.DurationS), "-c", "8", url}
	case toolAb:
		// -k: keep-alive, as the others; without it every request is a
		// new connection, and a night's 8,000 of them would hold the
		// loopback's ports in TIME_WAIT.
		args = []string{"-k", "-c", "8", "-t", strconv.FormatFloat(s.DurationS, 'f', -1, 64), url}
	case toolBombardier:
		// -p i,r: the intro (the settings) and the result, no progress bar.
		args = []string{"-c", "8", "-d", dur(s.DurationS), "-l", "-p", "i,r", url}
	case toolVegeta:
		return vegetaText(ctx, pin, url, file, "-rate="+strconv.Itoa(s.RatePerS), "-duration="+dur(s.DurationS))
	default:
		return "", fmt.Errorf("unknown tool %q", s.Tool)
	}
	line := s.Tool + " " + strings.Join(args, " ")
	out, err := prefixed(ctx, pin, s.Tool, args...).Output()
	if err != nil {
		return line, err
	}
	return line, os.WriteFile(file, append([]byte("$ "+line+"\n"), out...), 0o644)
}

// vegetaText runs vegeta attack with args against url (GET) under pin
// and writes to file the line "$ echo "GET url" | vegeta attack ARGS |
// vegeta report" (which tells the ingest the settings: an open model at
// -rate) and vegeta's text report.
func vegetaText(ctx context.Context, pin []string, url, file string, args ...string) (string, error) {
	line := "echo \"GET " + url + "\" | vegeta attack " + strings.Join(args, " ") + " | vegeta report"
	bin := file + ".bin"
	defer os.Remove(bin)
	out, err := os.Create(bin)
	if err != nil {
		return line, err
	}
	cmd := prefixed(ctx, pin, "vegeta", append([]string{"attack"}, args...)...)
	cmd.Stdin, cmd.Stdout = strings.NewReader("GET "+url+"\n"), out
	err = cmd.Run()
	out.Close()
	if err != nil {
		return line, err
	}
	rep, err := exec.CommandContext(ctx, "vegeta", "report", bin).Output()
	if err != nil {
		return line, err
	}
	return line, os.WriteFile(file, append([]byte("$ "+line+"\n"), rep...), 0o644)
}

// seriesName is the series' name in its manifests: nightly-NNN for
// nightly/NNN, nightly-open-NNN for nightly-open/NNN.
func seriesName(id string) string {
	return strings.Replace(id, "/", "-", 1)
}

// nightManifest is a night's loadverdict.yaml: the series, its meta,
// the systems svc and control and the order the runs ran in.
func nightManifest(s SeriesScenario, nt NightSpec, order []string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s/%s (%s): made by scripts/conformance gen; the truth is in ../truth.json.\n", s.ID, nt.Name, s.Variant)
	fmt.Fprintf(&b, "series: %s\nmeta:\n  version: work-%d\n  date: %s\n  note: \"machine %s\"\n", seriesName(s.ID), nt.SvcWork, nt.Date, nt.Machine)
	b.WriteString("systems:\n  svc: [svc]\n  control: [control]\norder:\n")
	for _, f := range order {
		fmt.Fprintf(&b, "  - %s\n", f)
	}
	return []byte(b.String())
}

// seriesDirs lists the recorded series under root; sample > 0 keeps
// that many, evenly spread.
func seriesDirs(root string, sample int) ([]string, error) {
	return seriesDirsOf(root, sample, seriesKinds(""))
}

// seriesDirsOf lists the recorded series of the kinds under root, as
// seriesDirs.
func seriesDirsOf(root string, sample int, kinds []seriesKind) ([]string, error) {
	var dirs []string
	for _, k := range kinds {
		d, err := recordedDirs(filepath.Join(root, k.folder), sample)
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, d...)
	}
	return dirs, nil
}

// recordedDirs lists the recorded folders under dir (those with a
// truth.json), by name; none when dir does not exist; sample > 0 keeps
// that many, evenly spread.
func recordedDirs(dir string, sample int) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range ents {
		d := filepath.Join(dir, e.Name())
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			if _, err := os.Stat(filepath.Join(d, "truth.json")); err == nil {
				dirs = append(dirs, d)
			}
		}
	}
	sort.Strings(dirs)
	if sample > 0 && len(dirs) > sample {
		picked := make([]string, 0, sample)
		for i := range sample {
			picked = append(picked, dirs[i*len(dirs)/sample])
		}
		dirs = picked
	}
	return dirs, nil
}

// seriesGate is the nightly job's gate: --fail-on regression
// --max-regression 5, with the control named or not.
func seriesGate(control string) analyze.Options {
	o := analyze.DefaultOptions()
	o.FailOn, o.MaxRegressionPct, o.Control = []gate.Condition{gate.Regression}, 5, control
	return o
}

// evaluateSeries analyses every series in dirs night by night and
// returns one Result per night from night02 on and per variant: family
// nightly (without the control; untellable nights in
// nightly-untellable), nightly-control (with it).
func evaluateSeries(ctx context.Context, dirs []string) []Result {
	var out []Result
	for _, dir := range dirs {
		out = append(out, evaluateSeriesOne(ctx, dir)...)
	}
	return out
}

// evaluateSeriesOne analyses one series.
func evaluateSeriesOne(ctx context.Context, dir string) []Result {
	rec, err := loadSeries(dir)
	if err != nil {
		return []Result{{ID: dir, Family: familyNightly, Expect: "?", Grade: gradeWrong, Err: err.Error(), observation: observation{Outcome: "error"}}}
	}
	exps := make([]analyze.SeriesExperiment, 0, len(rec.Nights))
	for _, nt := range rec.Nights {
		v, m, err := analyseNight(ctx, filepath.Join(dir, nt.Name), rec.ID+"/"+nt.Name)
		if err != nil {
			return []Result{{ID: rec.ID + "/" + nt.Name, Family: familyNightly, Variant: rec.Variant, Expect: nt.Expect, Grade: gradeWrong, Err: err.Error(), observation: observation{Outcome: "error"}}}
		}
		exps = append(exps, analyze.SeriesExperiment{Name: nt.Name, Meta: m.Meta, Verdict: v})
	}
	vs := make([]*analyze.Verdict, len(exps))
	for i, e := range exps {
		vs[i] = e.Verdict
	}
	step, stepSE, measured := realizedStep(rec, vs)
	allowed := seriesGate("").MaxRegressionPct
	fams := [3]string{familyNightly, familyNightlyControl, familyNightlyUntellab}
	var latency []nightStep
	if rec.Family == openFolder {
		fams = [3]string{familyNightlyOpen, familyNightlyOpenControl, familyNightlyOpenUntellab}
		latency = realizedLatencySteps(rec, vs)
	}
	moved := nightMovedPct(rec)
	var residual *residualFigure
	if rec.Family != openFolder {
		residual = residualOverControl(rec, vs)
	}
	var out []Result
	for to := 2; to <= len(exps); to++ {
		nt := rec.Nights[to-1]
		// The machine moved beyond the allowed regression, as the
		// servers' work measured it: slower on a night without the
		// change (it looks like a regression), faster on one with it
		// (it hides it); unplanned, so not in ExpectAlone.
		mv := moved[to-1]
		machineHides := nt.RegressionPct == 0 && mv > allowed || nt.RegressionPct > 0 && mv < -allowed
		for _, control := range []string{"", "control"} {
			r := Result{ID: rec.ID + "/" + nt.Name + "+control", Family: fams[1], Variant: rec.Variant, Expect: nt.Expect}
			if control == "" {
				r.ID, r.Family, r.Expect = rec.ID+"/"+nt.Name, fams[0], nt.ExpectAlone
				if nt.ExpectAlone == untellable || machineHides {
					r.Family, r.Expect = fams[2], nt.Expect
				}
				if machineHides {
					way := "slower"
					if mv < 0 {
						way = "faster"
					}
					r.Detail = fmt.Sprintf("the machine moved (unplanned): its servers' work %.1f %% %s than on the nights before", math.Abs(mv), way)
				}
			}
			switch {
			case latency != nil && nt.RegressionPct > 0:
				ls := latency[to-1]
				r.Detail = strings.TrimPrefix(r.Detail+"; "+fmt.Sprintf("step made %.0f %% in work, measured over the same night's control: mean latency %+.1f ± %.1f %%, p99 %+.1f ± %.1f %%", nt.RegressionPct, ls.pct[0], ls.se[0], ls.pct[1], ls.se[1]), "; ")
				r.Expect = ls.expect(r.Expect, allowed)
			case nt.RegressionPct > 0 && measured:
				r.Detail = strings.TrimPrefix(r.Detail+"; "+fmt.Sprintf("step made %.0f %% in work, measured %.1f ± %.1f %% in throughput against the control", nt.RegressionPct, step, stepSE), "; ")
				r.Expect = stepExpect(r.Expect, step, stepSE, allowed)
			}
			if r.Family == fams[2] && nt.RegressionPct > 0 && r.Expect == expectPass {
				// A step measured within the allowed regression: a pass
				// any method can tell.
				r.Family = fams[0]
			}
			h, err := analyze.AnalyzeHistory(seriesName(rec.ID), analyze.OrderAsGiven, exps[:to], seriesGate(control))
			if err != nil {
				r.Grade, r.Outcome, r.Err = gradeWrong, "error", err.Error()
				out = append(out, r)
				continue
			}
			r.Outcome = expectPass
			if h.Failed {
				r.Outcome = expectFail
			}
			if control != "" && to == len(exps) {
				r.SeriesChanges, r.Residual = seriesChanges(h, rec), residual
			}
			r.Grade = gradeWrong
			if r.Outcome == r.Expect || r.Expect == expectStepNight || r.Expect == expectEither {
				r.Grade = gradeRight
			}
			out = append(out, r)
		}
	}
	return out
}

// analyseNight analyses one night's experiment as `loadverdict report
// --manifest <night>/loadverdict.yaml <night>/svc <night>/control` does
// (analyseDir's way), returning its verdict and manifest.
func analyseNight(ctx context.Context, dir, id string) (*analyze.Verdict, *experiment.Manifest, error) {
	tmp, err := os.MkdirTemp("", "conformance-night-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	st, err := store.NewLocal(tmp)
	if err != nil {
		return nil, nil, err
	}
	p := &pipeline.Pipeline{Store: st, GeneratedBy: "conformance"}
	mpath := filepath.Join(dir, "loadverdict.yaml")
	b, err := os.ReadFile(mpath)
	if err != nil {
		return nil, nil, err
	}
	m, err := experiment.ParseManifest(mpath, b)
	if err != nil {
		return nil, nil, err
	}
	m.Dir = id
	const exp = "conformance"
	var files []string
	for _, f := range m.Order {
		name := id + "/" + f
		files = append(files, name)
		fh, err := os.Open(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return nil, nil, err
		}
		_, err = p.IngestSource(ctx, pipeline.Source{Name: name, Experiment: exp, Body: fh})
		fh.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	v, err := p.Verdict(ctx, pipeline.Request{Experiment: exp, Manifest: m, Overrides: experiment.Overrides{Order: files}})
	if err == nil && v == nil {
		err = errors.New("no verdict: every input rejected")
	}
	return v, m, err
}

// changeTally counts change points against the changes made: Made
// changes, Found of them with a change point within a night, and the
// change points Elsewhere.
type changeTally struct{ Made, Found, Elsewhere int }

// seriesChanges tallies the change points of svc's throughput (mean
// latency in an open-model series) in h (a whole series with the
// control) against its made step and revert: over the control ([0],
// what the check reads) and as measured ([1]).
func seriesChanges(h *analyze.History, rec SeriesRecord) *[2]changeTally {
	metric := analyze.MetricRPS
	if rec.Family == openFolder {
		metric = analyze.MetricLatMeanMs
	}
	var made []int // 0-based night indices where svc's work changed
	for i := 1; i < len(rec.Nights); i++ {
		if rec.Nights[i].SvcWork != rec.Nights[i-1].SvcWork {
			made = append(made, i)
		}
	}
	var out [2]changeTally
	for _, t := range h.Tracks {
		if t.System != "svc" {
			continue
		}
		for _, mt := range t.Metrics {
			if mt.Metric != metric {
				continue
			}
			for k, cs := range [2][]analyze.Change{mt.RelativeChanges, mt.Changes} {
				at := make([]int, len(cs))
				for j, c := range cs {
					at[j] = t.Points[c.At].Experiment
				}
				near := func(a, b int) bool { return a-b <= 1 && b-a <= 1 }
				out[k].Made = len(made)
				for _, m := range made {
					if slices.ContainsFunc(at, func(a int) bool { return near(a, m) }) {
						out[k].Found++
					}
				}
				for _, a := range at {
					if !slices.ContainsFunc(made, func(m int) bool { return near(a, m) }) {
						out[k].Elsewhere++
					}
				}
			}
		}
	}
	return &out
}
