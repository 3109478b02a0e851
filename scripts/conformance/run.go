package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/stats"
)

// Result is one experiment's verdict graded against its truth.
type Result struct {
	ID      string `json:"id"`
	Family  string `json:"family"`
	Variant string `json:"variant"`
	Expect  string `json:"expect"`
	observation
	Grade string `json:"grade"`
	// PositionOK is whether the steady state starts where the truth's
	// does (±1 round, ±2 s within a run), for right warm-ups, slowdowns
	// and steps; nil when not checked.
	PositionOK *bool `json:"position_ok,omitempty"`
	// Unsteady are the codes of the verdict's findings about a run's
	// steadiness in time (stalls, periodic stalls, error bursts), in
	// order, repeated per run: what the families without stalls or
	// bursts must not gain.
	Unsteady []string `json:"unsteady,omitempty"`
	// Outliers are the outlier rounds the verdict flagged (system seq N),
	// and Rounds6 is set when a group has the 6 rounds or more that the
	// outlier rule needs: no grid experiment has a disturbed round by
	// construction (issue 31).
	Outliers []string `json:"outliers,omitempty"`
	Rounds6  bool     `json:"rounds6,omitempty"`
	// PerRequest is set when some run has per-request data (a series
	// of windows in which such findings can be made).
	PerRequest bool `json:"per_request,omitempty"`
	// Explain says, for a comparison family, what the primary
	// comparison tested and why it decided as it did (run -explain).
	Explain string `json:"explain,omitempty"`
	// Gate is whether the verdict's default gate, asked for a
	// regression check of A against B (compare --fail-on regression
	// with B the baseline), fails, and on what; "" for series families.
	Gate string `json:"gate,omitempty"`
	// P50 is the outcome of the comparison of A and B on median latency
	// (the robust figure, issue 19 item 4), for comparison families;
	// reported beside the graded primary metric, never graded.
	P50 string `json:"p50,omitempty"`
	// SeriesChanges is set on a nightly series' last night with the
	// control: its svc throughput's change points against the steps and
	// reverts made (seriesChanges), over the control and as measured.
	SeriesChanges *[2]changeTally `json:"series_changes,omitempty"`
	// Residual is set on a closed-model series' last night with the
	// control: what the control leaves of the night
	// (residualOverControl).
	Residual *residualFigure `json:"residual_over_control,omitempty"`
	Err      string          `json:"error,omitempty"`
	rec      Record
}

// loadRecord reads an experiment's truth.json.
func loadRecord(dir string) (Record, error) {
	var rec Record
	b, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err != nil {
		return rec, err
	}
	return rec, json.Unmarshal(b, &rec)
}

// experiments lists the recorded experiments under root (folders with a
// truth.json), family by family in the order of families, then by id.
// sample > 0 keeps that many per family, evenly spread.
func experiments(root string, sample int) ([]string, error) {
	var out []string
	for _, f := range families {
		if f.Series {
			continue
		}
		dirs, err := recordedDirs(filepath.Join(root, f.Name), sample)
		if err != nil {
			return nil, err
		}
		out = append(out, dirs...)
	}
	return out, nil
}

// analyseDir analyses the experiment in dir as `loadverdict report
// --manifest <id>/loadverdict.yaml <id>/<system>...` does from the
// grid's folder: every run file
// ingested into a local store (a temporary folder), the manifest naming
// the systems and the order, the verdict of internal/pipeline.
//
// baseline, when not empty, names the baseline (as compare OLD NEW
// does with OLD), which asks the gate for a regression check.
func analyseDir(ctx context.Context, dir string, rec Record, baseline string) (*analyze.Verdict, error) {
	tmp, err := os.MkdirTemp("", "conformance-run-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	st, err := store.NewLocal(tmp)
	if err != nil {
		return nil, err
	}
	p := &pipeline.Pipeline{Store: st, GeneratedBy: "conformance"}
	const exp = "conformance"
	// Sources are named by their path in the grid (<family>/<NNN>/A/...),
	// as the command line names them when run from the grid's folder, so
	// that the verdict does not depend on where the grid lies.
	var files []string
	for _, r := range rec.Runs {
		name := rec.ID + "/" + r.File
		files = append(files, name)
		fh, err := os.Open(filepath.Join(dir, filepath.FromSlash(r.File)))
		if err != nil {
			return nil, err
		}
		_, err = p.IngestSource(ctx, pipeline.Source{Name: name, Experiment: exp, Body: fh})
		fh.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	mpath := filepath.Join(dir, "loadverdict.yaml")
	b, err := os.ReadFile(mpath)
	if err != nil {
		return nil, err
	}
	m, err := experiment.ParseManifest(mpath, b)
	if err != nil {
		return nil, err
	}
	m.Dir = rec.ID
	return p.Verdict(ctx, pipeline.Request{Experiment: exp, Manifest: m, Overrides: experiment.Overrides{Order: files, Baseline: baseline}})
}

// evaluate analyses and grades the experiments in dirs, jobs at a time.
// withGate also analyses each comparison experiment with A as the
// baseline and records the default gate's decision (Result.Gate).
func evaluate(ctx context.Context, dirs []string, jobs int, withGate ...bool) []Result {
	gateToo := len(withGate) > 0 && withGate[0]
	out := make([]Result, len(dirs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = evaluateOne(ctx, dirs[i], gateToo)
			}
		}()
	}
	for i := range dirs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// evaluateOne analyses and grades one experiment.
func evaluateOne(ctx context.Context, dir string, gateToo bool) Result {
	rec, err := loadRecord(dir)
	r := Result{ID: rec.ID, Family: rec.Family, Variant: rec.Variant, Expect: rec.Truth.Expect, rec: rec}
	if err != nil {
		r.ID, r.Grade, r.Err, r.Outcome = dir, gradeWrong, err.Error(), "error"
		return r
	}
	if rec.Family == familyDuel {
		return evaluateDuel(ctx, dir, r)
	}
	base := ""
	if rec.Family == "errors" {
		// The gate's condition errors is part of the outcome: analysed as
		// compare A B (A the baseline).
		base = "A"
	}
	v, err := analyseDir(ctx, dir, rec, base)
	if err != nil || v == nil {
		r.Grade, r.Outcome, r.Err = gradeWrong, "error", "no verdict: every input rejected"
		if err != nil {
			r.Err = err.Error()
		}
		return r
	}
	r.observation = observe(rec, v)
	r.Grade = grade(r.Expect, r.observation)
	r.noteChecks(rec, v)
	if m := explainMetric(rec); m != "" {
		r.explain(ctx, dir, rec, v, m, gateToo)
	}
	if r.Grade == gradeRight {
		r.PositionOK = position(rec, r.observation)
	}
	return r
}

// noteChecks notes what the checks every family is under read: the
// unsteadiness findings, whether the runs hold requests, groups of 6
// rounds or more and the outlier rounds flagged.
func (r *Result) noteChecks(rec Record, v *analyze.Verdict) {
	for _, f := range v.Findings {
		if unsteadyCode(f.Code) {
			r.Unsteady = append(r.Unsteady, string(f.Code))
		}
	}
	for _, run := range rec.Runs {
		// A text report (.txt) holds no requests.
		r.PerRequest = r.PerRequest || run.Tool != toolWrk && !strings.HasSuffix(run.File, ".txt")
	}
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			r.Rounds6 = r.Rounds6 || len(g.Runs) >= stats.OutlierMinRounds
			if g.Outlier != nil {
				r.Outliers = append(r.Outliers, fmt.Sprintf("%s seq %d", s.Label, g.Outlier.Run.Seq))
			}
		}
	}
}

// explain notes the explanation of the comparison on metric m (and on
// p50), p50's outcome, and with gateToo the default gate's decision.
func (r *Result) explain(ctx context.Context, dir string, rec Record, v *analyze.Verdict, m string, gateToo bool) {
	r.Explain = explainComparison(v, m)
	r.P50 = compareOutcome(v, analyze.MetricLatP50Ms).Outcome
	if m != analyze.MetricLatP50Ms {
		r.Explain += "\n    " + explainComparison(v, analyze.MetricLatP50Ms)
	}
	if !gateToo {
		return
	}
	if vg, err := analyseDir(ctx, dir, rec, "A"); err == nil && vg != nil {
		r.Gate = gateOutcome(vg)
	} else {
		r.Gate = fmt.Sprintf("error: %v", err)
	}
}

// position checks where a right warm-up, slowdown or step puts the
// start of the steady state: across runs within one round of the first
// round after the change, within a run within 2 s of the change's end.
func position(rec Record, o observation) *bool {
	t := rec.Truth
	if t.Expect != "warmup" && t.Expect != "slowdown" || t.ChangeToS < 0 {
		return nil
	}
	ok := false
	switch t.Scope {
	case "across-runs":
		if rec.Derived.SteadyFromRound > 0 && o.SteadyFrom != nil {
			ok = math.Abs(*o.SteadyFrom-float64(rec.Derived.SteadyFromRound)) <= 1
		}
	case "within-run":
		if o.SteadyFrom != nil {
			ok = math.Abs(*o.SteadyFrom-t.ChangeToS) <= 2
		}
	default:
		return nil
	}
	return &ok
}

func runRun(args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	dir := fs.String("dir", "testdata/conformance", "the grid's `folder`")
	sample := fs.Int("sample", 0, "analyse only this many experiments per family, evenly spread (0: all)")
	jobs := fs.Int("j", runtime.GOMAXPROCS(0), "experiments analysed at once")
	list := fs.Bool("list", false, "also list every experiment's outcome")
	jsonOut := fs.String("json", "", "write the results as JSON to `FILE`")
	family := fs.String("family", "", "analyse only these `families` (comma-separated; default all)")
	withGate := fs.Bool("gate", false, "also analyse each comparison experiment with A as the baseline (compare A B) and report how often the default gate fails")
	explain := fs.Bool("explain", false, "with -list: also show, for each compared experiment, what its primary comparison tested and why it decided as it did")
	fs.BoolVar(&explainValues, "values", false, "with -explain: also list each run's throughput and latencies")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dirs, err := experiments(*dir, *sample)
	if err != nil {
		return err
	}
	if *family != "" {
		keep := strings.Split(*family, ",")
		dirs = slices.DeleteFunc(dirs, func(d string) bool {
			return !slices.Contains(keep, filepath.Base(filepath.Dir(d)))
		})
	}
	if len(dirs) == 0 && !seriesWanted(*family) {
		return fmt.Errorf("no experiments under %s (gen makes them)", *dir)
	}
	t0 := time.Now()
	res := evaluate(context.Background(), dirs, *jobs, *withGate)
	if *family == "" || seriesWanted(*family) {
		sd, err := seriesDirsOf(*dir, *sample, seriesKinds(*family))
		if err != nil {
			return err
		}
		res = append(res, evaluateSeries(context.Background(), sd)...)
	}
	el := time.Since(t0)
	if *list {
		for _, r := range res {
			fmt.Printf("%-22s %-28s expect %-16s got %-28s %s %s\n", r.ID, r.Variant, r.Expect, r.Outcome, r.Grade, r.Err)
			if r.Detail != "" {
				fmt.Printf("    %s\n", r.Detail)
			}
			if *explain && r.Explain != "" {
				fmt.Printf("    %s\n", r.Explain)
			}
			if r.Gate != "" {
				fmt.Printf("    gate (compare A B): %s\n", r.Gate)
			}
		}
		fmt.Println()
	}
	writeSummary(os.Stdout, res, "text")
	writeRobust(os.Stdout, res)
	if *withGate {
		writeGate(os.Stdout, res)
	}
	fmt.Printf("\n%d experiments analysed in %.1f s (%d at once)\n", len(res), el.Seconds(), *jobs)
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(res, "", "  ")
		if err := os.WriteFile(*jsonOut, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// familyStats is a family's tally.
type familyStats struct {
	Name                 string
	N, Right, Undecided  int
	Matrix               map[string]map[string]int // expected -> observed -> count
	PosChecked, PosRight int
}

// Accuracy is the share of right outcomes.
func (f familyStats) Accuracy() float64 {
	if f.N == 0 {
		return 0
	}
	return float64(f.Right) / float64(f.N)
}

// tally groups results by family, in the order of families.
func tally(res []Result) []familyStats {
	by := map[string]*familyStats{}
	for _, r := range res {
		f := by[r.Family]
		if f == nil {
			f = &familyStats{Name: r.Family, Matrix: map[string]map[string]int{}}
			by[r.Family] = f
		}
		f.N++
		switch r.Grade {
		case gradeRight:
			f.Right++
		case gradeUndecided:
			f.Undecided++
		}
		if f.Matrix[r.Expect] == nil {
			f.Matrix[r.Expect] = map[string]int{}
		}
		f.Matrix[r.Expect][r.Outcome]++
		if r.PositionOK != nil {
			f.PosChecked++
			if *r.PositionOK {
				f.PosRight++
			}
		}
	}
	var out []familyStats
	for _, f := range families {
		if s := by[f.Name]; s != nil {
			out = append(out, *s)
		}
	}
	return out
}

// matrix formats a family's confusion matrix: a row per expected
// outcome, a column per observed one.
func matrix(w io.Writer, f familyStats, md bool) {
	var cols []string
	for _, row := range f.Matrix {
		for c := range row {
			if !slices.Contains(cols, c) {
				cols = append(cols, c)
			}
		}
	}
	sort.Strings(cols)
	rows := make([]string, 0, len(f.Matrix))
	for r := range f.Matrix {
		rows = append(rows, r)
	}
	sort.Strings(rows)
	if md {
		fmt.Fprintf(w, "| expected \\ observed | %s |\n|---|%s\n", strings.Join(cols, " | "), strings.Repeat("---:|", len(cols)))
		for _, r := range rows {
			fmt.Fprintf(w, "| %s |", r)
			for _, c := range cols {
				fmt.Fprintf(w, " %d |", f.Matrix[r][c])
			}
			fmt.Fprintln(w)
		}
		return
	}
	fmt.Fprintf(w, "  %-18s", "expected\\observed")
	for _, c := range cols {
		fmt.Fprintf(w, " %*s", max(len(c), 3), c)
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		fmt.Fprintf(w, "  %-18s", r)
		for _, c := range cols {
			fmt.Fprintf(w, " %*d", max(len(c), 3), f.Matrix[r][c])
		}
		fmt.Fprintln(w)
	}
}

// rates are the grid's rates beside the per-family accuracy.
type rates struct {
	AA, AASignificant, AANoDiff int
	// Power cells: effect bin x runs-per-side bin -> detected, total.
	Power map[[2]string][2]int
	// PowerAll are A/B experiments: detected, undecided, wrong, total.
	ABDetected, ABUndecided, ABWrong, AB int
	// SteadyOverTrend counts steady states claimed on a series that
	// trends to its end (family trend); TrendN the trend experiments.
	SteadyOverTrend, TrendN int
	// DirectionWrong counts right no-steady-state classes whose stated
	// direction is the opposite of the truth's; DirectionMissing those
	// without one.
	DirectionWrong, DirectionMissing int
	// FalseUnsteady lists the experiments with per-request runs whose
	// truth has neither stalls nor an error burst but whose verdict
	// makes a stall or burst finding (id: codes); PerRequestN counts
	// such experiments.
	FalseUnsteady []string
	PerRequestN   int
	// Outliers lists the experiments with a group of 6 rounds or more
	// where an outlier round was flagged (id: rounds); Rounds6N counts
	// such experiments.
	Outliers []string
	Rounds6N int
	// SeriesChanges sums the nightly series' change points against the
	// changes made: over the control, as measured; OpenChanges the
	// open-model series' (mean latency).
	SeriesChanges, OpenChanges [2]changeTally
	// Residual pools the closed-model series' Residual.
	Residual residualSum
	Errors   []string
}

// unsteadyCode tells whether a finding is about a run's steadiness in
// time: the findings the stalls and error-burst families expect.
func unsteadyCode(c analyze.Code) bool {
	switch c {
	case analyze.CodeUnstable, analyze.CodeStall, analyze.CodePeriodicStalls, analyze.CodeErrorBurst, analyze.CodePeriodicPauses:
		return true
	}
	return false
}

// effectBins and runBins are the power table's bins.
var (
	effectBins = []struct {
		name   string
		lo, hi float64
	}{{"3-5 %", 3, 5}, {"5-10 %", 5, 10}, {"10-20 %", 10, 20}, {"20-30 %", 20, 30.01}}
	runBins = []struct {
		name   string
		lo, hi int
	}{{"3-4", 3, 4}, {"5-7", 5, 7}, {"8-10", 8, 10}}
)

func effectBin(e float64) string {
	for _, b := range effectBins {
		if e >= b.lo && e < b.hi {
			return b.name
		}
	}
	return "other"
}

func runBin(n int) string {
	for _, b := range runBins {
		if n >= b.lo && n <= b.hi {
			return b.name
		}
	}
	return "other"
}

// computeRates computes the grid's rates.
func computeRates(res []Result) rates {
	rt := rates{Power: map[[2]string][2]int{}}
	for _, r := range res {
		rt.addChecks(r)
		switch r.Family {
		case "aa":
			rt.addAA(r)
		case "ab":
			rt.addAB(r)
		case "trend":
			rt.addTrend(r)
		}
	}
	return rt
}

// addChecks counts r into the checks every family is under: errors,
// false stall or burst findings, and outlier rounds flagged.
func (rt *rates) addChecks(r Result) {
	if r.Err != "" {
		rt.Errors = append(rt.Errors, r.ID+": "+r.Err)
	}
	if r.PerRequest && r.Family != "stalls" && r.Family != "error-burst" && r.Family != "pauses" {
		rt.PerRequestN++
		if len(r.Unsteady) > 0 {
			rt.FalseUnsteady = append(rt.FalseUnsteady, r.ID+": "+strings.Join(r.Unsteady, ", "))
		}
	}
	if c := r.SeriesChanges; c != nil {
		sum := &rt.SeriesChanges
		if r.Family == familyNightlyOpenControl {
			sum = &rt.OpenChanges
		}
		for i := range c {
			sum[i].Made += c[i].Made
			sum[i].Found += c[i].Found
			sum[i].Elsewhere += c[i].Elsewhere
		}
	}
	if r.Residual != nil {
		rt.Residual.add(*r.Residual)
	}
	if r.Rounds6 && r.Family != "outlier-round" {
		rt.Rounds6N++
		if len(r.Outliers) > 0 {
			rt.Outliers = append(rt.Outliers, r.ID+": "+strings.Join(r.Outliers, ", "))
		}
	}
}

// addAA counts an A/A experiment.
func (rt *rates) addAA(r Result) {
	rt.AA++
	if r.Grade == gradeWrong {
		rt.AASignificant++
	}
	if r.Outcome == "no-difference" {
		rt.AANoDiff++
	}
}

// addAB counts an A/B experiment, and into its power cell.
func (rt *rates) addAB(r Result) {
	rt.AB++
	switch r.Grade {
	case gradeRight:
		rt.ABDetected++
	case gradeUndecided:
		rt.ABUndecided++
	default:
		rt.ABWrong++
	}
	t := r.rec.Truth
	k := [2]string{effectBin(t.EffectPct), runBin(min(t.RunsA, t.RunsB))}
	c := rt.Power[k]
	c[1]++
	if r.Grade == gradeRight {
		c[0]++
	}
	rt.Power[k] = c
}

// addTrend counts a trend experiment: a steady state claimed over it,
// and a right class's direction.
func (rt *rates) addTrend(r Result) {
	rt.TrendN++
	if r.SteadyClaimed {
		rt.SteadyOverTrend++
	}
	if r.Grade != gradeRight {
		return
	}
	switch r.Direction {
	case "":
		rt.DirectionMissing++
	case r.rec.Truth.Direction:
	default:
		rt.DirectionWrong++
	}
}

// disturbedPct is the share of the CPU (percent) other processes may take
// in a run of an experiment counted as made on a quiet machine.
const disturbedPct = 60.0

// The classes of splitRight.
const (
	classWithin = iota // measured, within the bound
	classBeyond        // measured, beyond it
	classUnmeasured
)

// splitRight counts right and all experiments (a series' nights left
// out: they are graded per night, not per experiment made) in the
// classes class puts them in.
func splitRight(res []Result, class func(Result) int) (c [3][2]int) {
	for _, r := range res {
		if f, _ := familyByName(r.Family); f.Series {
			continue
		}
		k := class(r)
		c[k][1]++
		if r.Grade == gradeRight {
			c[k][0]++
		}
	}
	return c
}

// quietClass classes an experiment by how quiet the machine was while it
// was made: every run's others_cpu_pct at most disturbedPct, some run
// above it, or not measured.
func quietClass(r Result) int {
	worst, measured := 0.0, false
	for _, run := range r.rec.Made.Runs {
		if run.OthersCPUPct != nil {
			measured = true
			worst = max(worst, *run.OthersCPUPct)
		}
	}
	switch {
	case !measured:
		return classUnmeasured
	case worst <= disturbedPct:
		return classWithin
	}
	return classBeyond
}

// movedPct is how far the machine may move during an experiment, as its
// servers' work saw it (machineMovedPct), for the experiment to count as
// made on a steady machine: the practical band is 2 %, and a verdict's
// shapes (a warm-up, a step, a trend) are graded at 5 % and more.
const movedPct = 5.0

// machineClass classes an experiment by how far its machine moved
// (machineMovedPct): at most movedPct, more, or not measured.
func machineClass(r Result) int {
	m := machineMovedPct(r.rec.Made.Runs)
	switch {
	case math.IsNaN(m):
		return classUnmeasured
	case m <= movedPct:
		return classWithin
	}
	return classBeyond
}

// movedWrong lists the wrong experiments made while the machine moved
// beyond movedPct, with how far.
func movedWrong(res []Result) []string {
	var out []string
	for _, r := range res {
		if f, _ := familyByName(r.Family); f.Series || r.Grade == gradeRight || machineClass(r) != classBeyond {
			continue
		}
		out = append(out, fmt.Sprintf("%s %.0f %%", r.ID, machineMovedPct(r.rec.Made.Runs)))
	}
	return out
}

// writeSummary writes the per-family matrices, accuracies and the rates,
// as text or markdown (md).
func writeSummary(w io.Writer, res []Result, format string) {
	md := format == "md"
	fams := tally(res)
	rt := computeRates(res)
	writeAccuracies(w, fams, md)
	fmt.Fprintln(w)
	for _, f := range fams {
		if md {
			fmt.Fprintf(w, "**%s** (%d experiments, accuracy %.1f %%)\n\n", f.Name, f.N, 100*f.Accuracy())
		} else {
			fmt.Fprintf(w, "%s (%d, accuracy %.1f %%):\n", f.Name, f.N, 100*f.Accuracy())
		}
		matrix(w, f, md)
		fmt.Fprintln(w)
	}
	bullet := ""
	if md {
		bullet = "- "
	}
	writeRates(w, rt, res, bullet)
	fmt.Fprintln(w)
	writePower(w, rt, md)
	if len(rt.Errors) > 0 {
		fmt.Fprintf(w, "\n%d experiments could not be analysed:\n", len(rt.Errors))
		for _, e := range rt.Errors {
			fmt.Fprintf(w, "%s%s\n", bullet, e)
		}
	}
}

// writeAccuracies writes the table of the families' accuracies.
func writeAccuracies(w io.Writer, fams []familyStats, md bool) {
	if md {
		fmt.Fprintln(w, "| family | experiments | right | undecided | accuracy | steady start placed right |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	} else {
		fmt.Fprintf(w, "%-16s %5s %6s %9s %9s %s\n", "family", "n", "right", "undecided", "accuracy", "steady-start-placed")
	}
	for _, f := range fams {
		pos := "-"
		if f.PosChecked > 0 {
			pos = fmt.Sprintf("%d/%d", f.PosRight, f.PosChecked)
		}
		if md {
			fmt.Fprintf(w, "| %s | %d | %d | %d | %.1f %% | %s |\n", f.Name, f.N, f.Right, f.Undecided, 100*f.Accuracy(), pos)
		} else {
			fmt.Fprintf(w, "%-16s %5d %6d %9d %8.1f%% %s\n", f.Name, f.N, f.Right, f.Undecided, 100*f.Accuracy(), pos)
		}
	}
}

// ratio is a/b as "a/b = x %", "n/a" when b is 0.
func ratio(a, b int) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%d/%d = %.1f %%", a, b, 100*float64(a)/float64(b))
}

// writeRates writes the grid's rates, a line each after bullet.
func writeRates(w io.Writer, rt rates, res []Result, bullet string) {
	fmt.Fprintf(w, "%sA/A false positives (a significant difference between identical servers): %s; \"no difference\": %s\n", bullet, ratio(rt.AASignificant, rt.AA), ratio(rt.AANoDiff, rt.AA))
	fmt.Fprintf(w, "%sA/B: detected in the right direction %s, undecided %s, wrong %s\n", bullet, ratio(rt.ABDetected, rt.AB), ratio(rt.ABUndecided, rt.AB), ratio(rt.ABWrong, rt.AB))
	q := splitRight(res, quietClass)
	fmt.Fprintf(w, "%sright by how quiet the machine was (others' share of the CPU in the experiment's busiest run): at most %.0f %%: %s; above: %s; not measured: %s\n", bullet, disturbedPct,
		ratio(q[classWithin][0], q[classWithin][1]), ratio(q[classBeyond][0], q[classBeyond][1]), ratio(q[classUnmeasured][0], q[classUnmeasured][1]))
	m := splitRight(res, machineClass)
	fmt.Fprintf(w, "%sright by how far the machine moved (its servers' work per iteration, runs without a planned busy loop, across runs and within them by the second): at most %.0f %%: %s; more: %s; not measured: %s", bullet, movedPct,
		ratio(m[classWithin][0], m[classWithin][1]), ratio(m[classBeyond][0], m[classBeyond][1]), ratio(m[classUnmeasured][0], m[classUnmeasured][1]))
	writeListed(w, movedWrong(res))
	fmt.Fprintf(w, "%ssteady state claimed while the series still trends at its end: %d of %d trend experiments (must be 0)\n", bullet, rt.SteadyOverTrend, rt.TrendN)
	fmt.Fprintf(w, "%strend classes right but with the opposite direction: %d; without a direction: %d\n", bullet, rt.DirectionWrong, rt.DirectionMissing)
	fmt.Fprintf(w, "%sstall or error-burst findings on per-request experiments that have neither: %s", bullet, ratio(len(rt.FalseUnsteady), rt.PerRequestN))
	writeListed(w, rt.FalseUnsteady)
	fmt.Fprintf(w, "%soutlier rounds flagged on experiments with a group of 6 rounds or more (none disturbed by construction): %s", bullet, ratio(len(rt.Outliers), rt.Rounds6N))
	writeListed(w, rt.Outliers)
	for _, c := range []struct {
		what string
		sc   [2]changeTally
	}{{"svc's throughput over each nightly series", rt.SeriesChanges}, {"svc's mean latency over each open-model nightly series", rt.OpenChanges}} {
		if sc := c.sc; sc[0].Made+sc[1].Made+sc[0].Elsewhere+sc[1].Elsewhere > 0 {
			fmt.Fprintf(w, "%schange points of %s at its last night, against the steps and reverts made (found: within a night of one): over the control found %s, elsewhere %d; as measured found %s, elsewhere %d\n",
				bullet, c.what, ratio(sc[0].Found, sc[0].Made), sc[0].Elsewhere, ratio(sc[1].Found, sc[1].Made), sc[1].Elsewhere)
		}
	}
	if rs := rt.Residual; rs.N > 0 {
		fmt.Fprintf(w, "%swhat the control leaves of the night, on the unchanged nights of each nightly series with 2 or more paired runs a night: their spread over the control against the paired runs' noise of a night, %.2f-%.2f (%d series), pooled %.2f (squared %.2f, weighted by the nights' degrees of freedom, %.0f): a residual between-night sd of %.2f sigma_r that the control does not cancel (nightly-mc -residual)\n",
			bullet, rs.Min, rs.Max, rs.N, math.Sqrt(rs.R2/rs.W), rs.R2/rs.W, rs.W, math.Sqrt(max(rs.V/rs.W, 0)))
	}
}

// writeListed ends a line with the list ids, if any.
func writeListed(w io.Writer, ids []string) {
	if len(ids) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(ids, "; "))
	}
	fmt.Fprintln(w)
}

// writePower writes the power table: effect by the smaller side's runs.
func writePower(w io.Writer, rt rates, md bool) {
	if md {
		fmt.Fprintf(w, "Power on the grid (A/B detected in the right direction / experiments), by effect and by the smaller side's runs:\n\n| effect \\ runs a side | %s |\n|---|%s\n", strings.Join(binNames(runBins), " | "), strings.Repeat("---:|", len(runBins)))
	} else {
		fmt.Fprintf(w, "power (detected/experiments) by effect x runs on the smaller side:\n  %-8s", "effect")
		for _, b := range runBins {
			fmt.Fprintf(w, " %8s", b.name)
		}
		fmt.Fprintln(w)
	}
	cellf, rowf := " %8s", "  %-8s"
	if md {
		cellf, rowf = " %s |", "| %s |"
	}
	for _, e := range effectBins {
		fmt.Fprintf(w, rowf, e.name)
		for _, b := range runBins {
			c := rt.Power[[2]string{e.name, b.name}]
			cell := "-"
			if c[1] > 0 {
				cell = fmt.Sprintf("%d/%d", c[0], c[1])
			}
			fmt.Fprintf(w, cellf, cell)
		}
		fmt.Fprintln(w)
	}
}

func binNames(bs []struct {
	name   string
	lo, hi int
}) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.name)
	}
	return out
}
