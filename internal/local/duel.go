package local

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// Duel is loadverdict duel's output folder while the duel runs: its
// rounds' outputs are ingested into the folder's store one round at a
// time, each look analyses them as compare does (A the baseline), and
// the last writes compare's report. The folder is locked until Close.
type Duel struct {
	r      *Runner
	dir    string
	exp    string
	a, b   string // the systems' names
	p      *pipeline.Pipeline
	unlock func()
	// files are the rounds' outputs, a's and b's, in round order.
	aFiles, bFiles []string
	round          map[string]int // source name -> round (1-based)
	req            pipeline.Request
}

// StartDuel takes the output folder dir for a duel of systems a and b
// (a the baseline): locks it and opens its store; the experiment is
// Experiment, else a-vs-b. req carries the manifest-free settings of the
// final report (figures, the gate's overrides). Tables of the
// experiment already in the folder are removed.
func (r *Runner) StartDuel(ctx context.Context, dir, a, b string, req pipeline.Request) (*Duel, error) {
	if a == b {
		return nil, argErrorf("duel: both systems are named %q", a)
	}
	exp, err := r.experiment(store.SanitizeName(a + "-vs-" + b))
	if err != nil {
		return nil, err
	}
	if err := checkNotOwn("--junit", r.JUnit, dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockOutput(dir)
	if err != nil {
		return nil, err
	}
	p, err := r.Open(dir)
	if err != nil {
		unlock()
		return nil, err
	}
	// The rounds are the whole experiment: an earlier report's tables
	// of it in the folder go, as report's and compare's do.
	removed, err := p.Prune(ctx, exp, nil)
	if err != nil {
		unlock()
		return nil, err
	}
	if n := prunedSources(removed); n > 0 {
		fmt.Fprintf(r.Stderr, "loadverdict: experiment %s in %s held the tables of earlier inputs (%d), now removed: the duel's rounds are the whole experiment\n", exp, dir, n)
	}
	req.Experiment = exp
	req.Overrides.Baseline = a
	return &Duel{r: r, dir: dir, exp: exp, a: a, b: b, p: p, unlock: unlock, round: map[string]int{}, req: req}, nil
}

// Close releases the output folder.
func (d *Duel) Close() { d.unlock() }

// CheckRound parses one command's output of a round with the project's
// ingest (the format detected by content) and returns an error saying
// why when it holds no run or more than one.
func CheckRound(ctx context.Context, file string) error {
	fh, err := os.Open(file)
	if err != nil {
		return err
	}
	defer fh.Close()
	runs, err := ingest.ParseAll(ctx, fh, ingest.Options{Source: file})
	switch {
	case err != nil:
		return fmt.Errorf("%s: not a load generator's output loadverdict reads: %v", file, err)
	case len(runs) == 0:
		return fmt.Errorf("%s: holds no run", file)
	case len(runs) > 1:
		return fmt.Errorf("%s: holds %d runs, want one a round", file, len(runs))
	}
	return nil
}

// AddRound ingests round n's outputs of a and b (each checked with
// CheckRound first) into the folder's store.
func (d *Duel) AddRound(ctx context.Context, aFile, bFile string) error {
	for _, f := range []string{aFile, bFile} {
		if err := CheckRound(ctx, f); err != nil {
			return err
		}
	}
	if err := checkOutput(d.dir, []string{aFile, bFile}); err != nil {
		return err
	}
	_, rejected, err := d.r.ingestFiles(ctx, d.p, d.exp, []string{aFile, bFile})
	if err != nil {
		return err
	}
	if rejected > 0 {
		return fmt.Errorf("round %d: an output was rejected (said above)", len(d.aFiles)+1)
	}
	d.aFiles, d.bFiles = append(d.aFiles, aFile), append(d.bFiles, bFile)
	n := len(d.aFiles)
	d.round[sourceName(aFile)], d.round[sourceName(bFile)] = n, n
	return nil
}

// request is the analysis of the rounds so far: a's outputs one system,
// b's the other, a the baseline, the runs in round order.
func (d *Duel) request(verdictOnly bool) pipeline.Request {
	req := d.req
	req.VerdictOnly = verdictOnly
	req.Overrides.Systems = []experiment.SystemRule{
		{Name: d.a, Sources: sourceNames(d.aFiles), Flag: "A"},
		{Name: d.b, Sources: sourceNames(d.bFiles), Flag: "B"}}
	var order []string
	for i := range d.aFiles {
		order = append(order, sourceName(d.aFiles[i]), sourceName(d.bFiles[i]))
	}
	req.Overrides.Order = order
	return req
}

// DuelLook is what a look at the rounds so far found: the rounds both of
// whose runs are steady, as compare tests them, with each side's value
// of the metric.
type DuelLook struct {
	Metric         string // analyze.MetricRPS, ...
	HigherIsBetter bool
	Settings       analyze.Settings
	// Rounds are the paired rounds (1-based), A and B their values.
	Rounds []int
	A, B   []float64
	// WarmupA and WarmupB count each side's rounds before its steady
	// state (report's warm-up cut); 0 while it finds none and every
	// round is compared, as compare does.
	WarmupA, WarmupB int
}

// Look analyses the rounds so far as compare does and returns the
// steady rounds of both sides with their values of metric ("" for the
// one compare leads with at these settings: analyze.LeadMetric).
func (d *Duel) Look(ctx context.Context, metric string) (*DuelLook, error) {
	rep, err := d.p.Report(ctx, d.request(true))
	if err != nil {
		return nil, err
	}
	if rep.Verdict == nil {
		return nil, fmt.Errorf("duel: no run of the rounds could be read")
	}
	ga, gb, err := duelGroups(rep.Verdict, d.a, d.b)
	if err != nil {
		return nil, err
	}
	l := &DuelLook{Metric: metric, Settings: ga.Settings}
	if l.Metric == "" {
		l.Metric = analyze.LeadMetric(ga.Settings)
	}
	l.HigherIsBetter = l.Metric == analyze.MetricRPS
	sa, wa := steadyOf(ga)
	sb, wb := steadyOf(gb)
	l.WarmupA, l.WarmupB = wa, wb
	byRound := map[int]float64{}
	for _, r := range sa {
		if v, ok := RunMetric(r, l.Metric); ok {
			byRound[d.round[r.Source]] = v
		}
	}
	for _, r := range sb {
		n := d.round[r.Source]
		a, okA := byRound[n]
		v, ok := RunMetric(r, l.Metric)
		if okA && ok {
			l.Rounds, l.A, l.B = append(l.Rounds, n), append(l.A, a), append(l.B, v)
		}
	}
	return l, nil
}

// duelGroups returns the groups of a and b at the settings they share:
// the one group of each (rounds at several settings are an error).
func duelGroups(v *analyze.Verdict, a, b string) (*analyze.Group, *analyze.Group, error) {
	var ga, gb *analyze.Group
	for i := range v.Systems {
		s := &v.Systems[i]
		if s.Label != a && s.Label != b {
			continue
		}
		if len(s.Groups) != 1 {
			return nil, nil, fmt.Errorf("duel: the rounds of %s ran at %d different settings (tool, threads, connections, rate, duration): a duel compares one setting", s.Label, len(s.Groups))
		}
		if s.Label == a {
			ga = &s.Groups[0]
		} else {
			gb = &s.Groups[0]
		}
	}
	if ga == nil || gb == nil {
		return nil, nil, fmt.Errorf("duel: no runs of %s or of %s", a, b)
	}
	if !ga.Settings.Equal(gb.Settings) {
		return nil, nil, fmt.Errorf("duel: %s and %s ran at different settings (tool, threads, connections, rate, duration): nothing to compare", a, b)
	}
	return ga, gb, nil
}

// steadyOf returns a group's runs from its steady state on, and how many
// came before; all its runs when it has no steady state (as compare
// tests them).
func steadyOf(g *analyze.Group) ([]results.Run, int) {
	if g.Warmup.SteadyFromSeq != nil {
		for i, s := range g.Seqs {
			if s == *g.Warmup.SteadyFromSeq {
				return g.Runs[i:], i
			}
		}
	}
	return g.Runs, 0
}

// RunMetric returns a run's value of a compared metric (analyze.MetricRPS,
// MetricLatMeanMs, MetricLatP50Ms, MetricLatP99Ms); ok is false when the
// run does not report it or it is not positive and finite.
func RunMetric(r results.Run, metric string) (float64, bool) {
	p := analyze.RunValue(r, metric)
	if p == nil || !(*p > 0) || math.IsInf(*p, 0) {
		return 0, false
	}
	return *p, true
}

// Finish analyses every round as compare does and writes compare's
// report into the output folder (report.md, report.html, summary.md,
// summary.json, the tables).
func (d *Duel) Finish(ctx context.Context) (*Result, error) {
	if len(d.aFiles) == 0 {
		return nil, fmt.Errorf("duel: no round completed")
	}
	rep, err := d.p.Report(ctx, d.request(false))
	if err != nil {
		return nil, dropReport(ctx, d.p, d.dir, err)
	}
	if err := writeFiles(ctx, d.p, d.dir, rep.Files); err != nil {
		return nil, err
	}
	return &Result{Report: rep, Old: d.a, New: d.b}, nil
}

// RoundsDir is where a duel keeps its rounds' outputs under its output
// folder.
func RoundsDir(dir string) string { return filepath.Join(dir, "rounds") }

// Dir is the duel's output folder.
func (d *Duel) Dir() string { return d.dir }

// The duel's decisions (duel.json "decision").
const (
	DuelBBetter    = "b-better"
	DuelBWorse     = "b-worse"
	DuelEquivalent = "equivalent"
	DuelUndecided  = "undecided"
)

// Decide is the duel's sequential test at this look: Lai's confidence
// sequence (stats.Sequential at opts' alpha and practical band) for the
// mean of the paired rounds' ln(B/A), and its decision in the duel's
// terms: DuelBBetter, DuelBWorse (the interval excludes 0, read by the
// metric's direction), DuelEquivalent (it lies inside the band), or ""
// to go on.
func (l *DuelLook) Decide(opts analyze.Options) (stats.SequentialLook, string, error) {
	seq := stats.Sequential{Alpha: opts.Alpha, Band: math.Log1p(opts.PracticalBand)}
	diffs := make([]float64, len(l.A))
	for i := range diffs {
		diffs[i] = math.Log(l.B[i] / l.A[i])
	}
	s, err := seq.Look(diffs)
	if err != nil {
		return s, "", err
	}
	switch s.Decision {
	case stats.SeqEquivalent:
		return s, DuelEquivalent, nil
	case stats.SeqPositive, stats.SeqNegative:
		if (s.Decision == stats.SeqPositive) == l.HigherIsBetter {
			return s, DuelBBetter, nil
		}
		return s, DuelBWorse, nil
	}
	return s, "", nil
}

// DuelReplay is a duel analysed again on rounds already run.
type DuelReplay struct {
	// Decision is the first decision of the looks, DuelUndecided when
	// none decided within the rounds given; Rounds the rounds looked
	// at (up to the deciding one).
	Decision string
	Rounds   int
	Metric   string
	Last     stats.SequentialLook
}

// ReplayDuel analyses a duel's kept rounds again (aFiles[i] and
// bFiles[i] are round i+1's outputs) as loadverdict duel does while it
// runs, without running anything: the rounds are added one at a time
// into a store in dir (a new, empty folder), each look analyses them as
// compare does and the sequential test decides; the first decision ends
// it, and rounds that run out first leave it undecided.
func (r *Runner) ReplayDuel(ctx context.Context, dir string, aFiles, bFiles []string, metric string) (*DuelReplay, error) {
	if len(aFiles) != len(bFiles) || len(aFiles) == 0 {
		return nil, fmt.Errorf("duel replay: %d rounds of a and %d of b, want as many and some", len(aFiles), len(bFiles))
	}
	d, err := r.StartDuel(ctx, dir, "a", "b", pipeline.Request{})
	if err != nil {
		return nil, err
	}
	defer d.Close()
	opts := analyze.DefaultOptions()
	out := &DuelReplay{Decision: DuelUndecided}
	for i := range aFiles {
		if err := d.AddRound(ctx, aFiles[i], bFiles[i]); err != nil {
			return nil, fmt.Errorf("round %d: %w", i+1, err)
		}
		look, err := d.Look(ctx, metric)
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", i+1, err)
		}
		s, dec, err := look.Decide(opts)
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", i+1, err)
		}
		out.Rounds, out.Metric, out.Last = i+1, look.Metric, s
		if dec != "" {
			out.Decision = dec
			break
		}
	}
	return out, nil
}
