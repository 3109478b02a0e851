package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"sync"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// The nightly Monte-Carlo (issue 31): synthetic nightly series with
// between-night variance, AR(1) wander and outlier nights, each night
// checked as a nightly job checks it (its runs through analyze.Analyze,
// the series so far through analyze.AnalyzeHistory, the gate read). It
// changes no verdict. The model (cost per night and run, the step night,
// the control sharing the machine's noise): docs/STATISTICS.md, "Nightly
// Monte-Carlo (issue 31)".

const (
	nightlyNights  = 20
	nightlyFirstAt = 6 // the step's earliest night, 0-based (night 7)
)

// nightlyCell is one cell of the model's grid.
type nightlyCell struct {
	Ratio float64 // sigma_b / sigma_r
	Phi   float64
	Runs  int
	Step  float64
}

// nightlyModel is the model's fixed parameters.
type nightlyModel struct {
	SigmaR      float64 // run-to-run sd of log cost
	OutlierProb float64
	Opts        analyze.Options
	// OddProb is the probability of an odd night for the control: a
	// disturbance of 3-5 sigma_r on the system's runs only (a neighbour
	// on its part of the job), which the control does not share.
	OddProb float64
	// Residual is a between-night sd on the system's runs only, as a
	// multiple of SigmaR, every night (independent): what a control
	// leaves of the night on real series (their nights' spread over the
	// control was 0.4-2.2 times the paired runs' noise of a night:
	// docs/STATISTICS.md, "What a control leaves of the night").
	Residual float64
	// RevertAfter, when positive, reverts the step that many nights
	// after it lands (the first night back at the old cost), if that is
	// within the series.
	RevertAfter int
	// StepFirst and StepLast are the nights (0-based) the step is drawn
	// among; both 0: nightlyFirstAt to nightlyNights-3 (nights 7..18).
	StepFirst, StepLast int
}

// stepNights is the model's window of step nights, 0-based.
func (m nightlyModel) stepNights() (int, int) {
	if m.StepFirst == 0 && m.StepLast == 0 {
		return nightlyFirstAt, nightlyNights - 3
	}
	return m.StepFirst, m.StepLast
}

// nightlySeries is one draw: per night the runs' throughput, the
// control's runs' throughput, their ratio run by run, and the step's
// night (-1: none).
type nightlySeries struct {
	Treat, Control, Ratio [][]float64
	At                    int
	// Revert is the first night back at the old cost (-1: none).
	Revert int
	// B and O are b_night and o_night (the checks of the generator).
	B, O    []float64
	Outlier []bool
}

// drawNightly draws one series of cell c.
func drawNightly(r *rand.Rand, c nightlyCell, m nightlyModel) nightlySeries {
	sb := c.Ratio * m.SigmaR
	s := nightlySeries{At: -1, Revert: -1}
	if c.Step != 0 {
		first, last := m.stepNights()
		s.At = first + r.IntN(last-first+1)
		if m.RevertAfter > 0 && s.At+m.RevertAfter < nightlyNights {
			s.Revert = s.At + m.RevertAfter
		}
	}
	// Every draw takes the same numbers from r whatever sigma_b, so that
	// cells differing only in sigma_b share them (common random numbers).
	b := r.NormFloat64() * sb / math.Sqrt(1-c.Phi*c.Phi)
	for i := range nightlyNights {
		if i > 0 {
			b = c.Phi*b + sb*r.NormFloat64()
		}
		o := 0.0
		out, size, sign := r.Float64() < m.OutlierProb, 3+2*r.Float64(), r.IntN(2)
		own := 0.0
		if m.OddProb > 0 {
			// Drawn only in a model with odd nights, so that the draws of
			// one without them stay as they were.
			u, usize, usign := r.Float64(), 3+2*r.Float64(), r.IntN(2)
			if u < m.OddProb {
				own = usize * m.SigmaR
				if usign == 0 {
					own = -own
				}
			}
		}
		if m.Residual > 0 {
			// Drawn only in a model with a residual, as odd nights are.
			own += m.Residual * m.SigmaR * r.NormFloat64()
		}
		if out {
			o = size * sb
			if sign == 0 {
				o = -o
			}
		}
		step := 1.0
		if s.At >= 0 && i >= s.At && (s.Revert < 0 || i < s.Revert) {
			step = 1 + c.Step
		}
		s.B, s.O, s.Outlier = append(s.B, b), append(s.O, o), append(s.Outlier, out)
		tr, ct, ra := make([]float64, c.Runs), make([]float64, c.Runs), make([]float64, c.Runs)
		for j := range c.Runs {
			tr[j] = 1000 / (step * math.Exp(b+o+own+m.SigmaR*r.NormFloat64()))
			ct[j] = 1000 / math.Exp(b+o+m.SigmaR*r.NormFloat64())
			ra[j] = 1000 * tr[j] / ct[j]
		}
		s.Treat, s.Control, s.Ratio = append(s.Treat, tr), append(s.Control, ct), append(s.Ratio, ra)
	}
	return s
}

// nightlyRun is one synthetic wrk run of system label at throughput
// rps.
func nightlyRun(label string, night, j int, rps float64) results.Run {
	conns, threads := int32(16), int32(2)
	seq := int32(j)
	return results.Run{
		RunID: fmt.Sprintf("%s-n%02dr%d", label, night, j), Experiment: fmt.Sprintf("night%02d", night+1), Source: "mc", Index: seq, Seq: seq,
		Tool: "wrk", LoadModel: results.LoadClosed, Label: label, Target: "http://127.0.0.1:8080/",
		DurationS: 10, PlannedDurationS: results.Ptr(10.0), Threads: &threads, Connections: &conns,
		Requests: int64(rps * 10), RPS: rps, LatMeanMs: results.Ptr(1000 * float64(conns) / rps),
	}
}

// gateNights runs the nightly job over a series of nights (each night's
// runs' throughput): every night its runs analysed as an experiment, the
// series up to it analysed by analyze.AnalyzeHistory, and the gate read.
// It returns per night whether the gate failed (exit 3) and the latest
// check's verdict on throughput. With control (its runs' throughput
// each night, nil for none) the control's runs are measured the same
// nights and named the control (Options.Control, --control control).
func gateNights(nights, control [][]float64, o analyze.Options) ([]bool, []analyze.CheckVerdict, error) {
	var exps []analyze.SeriesExperiment
	var failed []bool
	var verdicts []analyze.CheckVerdict
	if control != nil {
		o.Control = "control"
	}
	for i, x := range nights {
		set := analyze.Set{Experiment: fmt.Sprintf("night%02d", i+1)}
		for j, v := range x {
			set.Runs = append(set.Runs, nightlyRun("svc", i, j, v))
			if control != nil {
				set.Runs = append(set.Runs, nightlyRun("control", i, j, control[i][j]))
			}
		}
		v, err := analyze.Analyze(set, o)
		if err != nil {
			return nil, nil, err
		}
		exps = append(exps, analyze.SeriesExperiment{Name: set.Experiment, Verdict: v})
		h, err := analyze.AnalyzeHistory("mc", analyze.OrderAsGiven, exps, o)
		if err != nil {
			return nil, nil, err
		}
		verdict := analyze.CheckVerdict("")
		for _, tr := range h.Tracks {
			for _, mt := range tr.Metrics {
				if tr.System == "svc" && mt.Metric == analyze.MetricRPS && mt.Latest != nil {
					verdict = mt.Latest.Verdict
				}
			}
		}
		failed, verdicts = append(failed, h.Failed), append(verdicts, verdict)
	}
	return failed, verdicts, nil
}

// seqNights is gateNights made fast: the sequential check itself
// (analyze.SequentialCheck) over the nights' values (the mean of their
// runs) and runs, each night's verdict the one a job run that night
// would have read (the check sees only that night and those before it),
// the gate failed on regression, drift and undecided (History's gate
// with --fail-on regression). With 1-3 runs a night it is the whole
// path's answer: a night's runs are all steady (Analyze finds no warm-up
// in so few), no night is marked disturbed and compare's run-level test
// never runs (both need Options.MinRuns runs a side, 4), and the change
// points E-Divisive finds do not gate; TestNightlyFastIsWhole checks
// that the two agree night by night. With control, the check's input
// is the history's: each night's mean over the control's, and the runs
// over the control's run by run (as many runs a night).
func seqNights(nights, control [][]float64, o analyze.Options) ([]bool, []analyze.CheckVerdict) {
	in := make([]analyze.NightInput, len(nights))
	for i, x := range nights {
		in[i] = analyze.NightInput{Value: stats.Mean(x), Runs: x, Used: true}
		if control != nil {
			in[i].Value /= stats.Mean(control[i])
			in[i].Runs = make([]float64, len(x))
			for j, v := range x {
				in[i].Runs[j] = v / control[i][j]
			}
		}
	}
	if control != nil {
		o.Control = "control"
	}
	s := analyze.SequentialCheck(in, true, o)
	failed := make([]bool, len(nights))
	verdicts := make([]analyze.CheckVerdict, len(nights))
	for _, n := range s.Nights {
		verdicts[n.Point] = n.Verdict
		failed[n.Point] = n.Point > 0 && (n.Verdict == analyze.CheckRegression || n.Verdict == analyze.CheckDrift || n.Verdict == analyze.CheckUndecided)
	}
	return failed, verdicts
}

// nightlyTally is the counts of one cell, without (0) or with (1) a
// control.
type nightlyTally struct {
	Series int
	// Stable nights (no change before them, the first night left out:
	// it has nothing to be checked against) and those the gate failed;
	// StableSeries and FailedSeries: step-free series, and those with a
	// failed night.
	Stable, Failed int
	// FailedAs splits Failed by the verdict: regression, drift,
	// undecided.
	FailedAs                   [3]int
	StableSeries, FailedSeries int
	// Steps: series with a step; Within[k]: the gate failed on one of
	// the k+1 nights from the step night (k = 0, 1, 2); Caught: on any
	// night from it (Steps - Caught never).
	Steps, Caught int
	Within        [3]int
	// RedBefore: step series whose gate already failed the night before
	// the step (a catch there is no detection of the step).
	RedBefore int
	// GreenWithin: Within, over the step series whose gate passed the
	// night before the step (Steps - RedBefore of them): a detection of
	// the step, not a failure that was there before it.
	GreenWithin [3]int
	// Held counts the nights in effect after the step's first failed
	// night (to the revert or the series' end), HeldPassed those the
	// gate passed (a regression ended by a night of noise, or not yet
	// re-opened); AfterRevert the nights from the revert on, and
	// AfterRevertFailed those it failed (the fix not recognised).
	Held, HeldPassed, AfterRevert, AfterRevertFailed int
}

// tally adds one series' gate results: failed per night, the step's
// night at (-1: none) and the revert's (-1: none).
func (t *nightlyTally) tally(failed []bool, verdicts []analyze.CheckVerdict, at, revert int) {
	t.Series++
	stableTo := len(failed)
	if at >= 0 {
		stableTo = at
		t.Steps++
	} else {
		t.StableSeries++
	}
	any := false
	for i := 1; i < stableTo; i++ {
		t.Stable++
		if failed[i] {
			t.Failed++
			any = true
			switch verdicts[i] {
			case analyze.CheckRegression:
				t.FailedAs[0]++
			case analyze.CheckDrift:
				t.FailedAs[1]++
			default:
				t.FailedAs[2]++
			}
		}
	}
	if at < 0 {
		if any {
			t.FailedSeries++
		}
		return
	}
	if failed[at-1] {
		t.RedBefore++
	}
	end := len(failed)
	if revert >= 0 {
		end = revert
		for _, f := range failed[revert:] {
			t.AfterRevert++
			if f {
				t.AfterRevertFailed++
			}
		}
	}
	first := -1
	for i := at; i < end; i++ {
		if failed[i] {
			first = i
			break
		}
	}
	if first < 0 {
		return
	}
	for _, f := range failed[first+1 : end] {
		t.Held++
		if !f {
			t.HeldPassed++
		}
	}
	t.Caught++
	for k := range t.Within {
		if first-at <= k {
			t.Within[k]++
			if !failed[at-1] {
				t.GreenWithin[k]++
			}
		}
	}
}

func (t *nightlyTally) add(u nightlyTally) {
	t.Series += u.Series
	t.Stable += u.Stable
	t.Failed += u.Failed
	for k := range t.FailedAs {
		t.FailedAs[k] += u.FailedAs[k]
	}
	t.StableSeries += u.StableSeries
	t.FailedSeries += u.FailedSeries
	t.Steps += u.Steps
	t.Caught += u.Caught
	t.RedBefore += u.RedBefore
	for k := range t.Within {
		t.Within[k] += u.Within[k]
		t.GreenWithin[k] += u.GreenWithin[k]
	}
	t.Held += u.Held
	t.HeldPassed += u.HeldPassed
	t.AfterRevert += u.AfterRevert
	t.AfterRevertFailed += u.AfterRevertFailed
}

// nightlyResult is the Monte-Carlo's figures: per cell, without and
// with a control.
type nightlyResult struct {
	Model  nightlyModel
	Draws  int
	Ratios []float64
	Phis   []float64
	Runs   []int
	Steps  []float64
	Cells  map[nightlyCell][2]nightlyTally
	// Oracle is the oracle's bound (oracleCatch) for the 10 % step's
	// cells, at the targets' false-fail rate.
	Oracle map[nightlyCell][2]float64
}

// The acceptance's targets: the false-fail rate, and the share of 10 %
// steps caught within 3 nights at 2 runs a night.
const (
	targetFalse = 0.01
	targetCatch = 0.90
	targetStep  = 0.10
)

// nightlyMC draws draws series per cell of the grid and gates each
// night, without and with a control, on j goroutines; whole: by the
// whole history path (gateNights), else by the sequential check
// (seqNights, the same answer at 1-3 runs a night, 1000 times faster).
func nightlyMC(m nightlyModel, draws int, seed uint64, ratios, phis []float64, runs []int, steps []float64, j int, whole bool) (*nightlyResult, error) {
	res := &nightlyResult{Model: m, Draws: draws, Ratios: ratios, Phis: phis, Runs: runs, Steps: steps, Cells: map[nightlyCell][2]nightlyTally{}}
	var cells []nightlyCell
	for _, ra := range ratios {
		for _, ph := range phis {
			for _, n := range runs {
				for _, st := range steps {
					cells = append(cells, nightlyCell{Ratio: ra, Phi: ph, Runs: n, Step: st})
				}
			}
		}
	}
	var mu sync.Mutex
	var firstErr error
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(j, 1) {
		wg.Go(func() {
			for ci := range work {
				c := cells[ci]
				// One stream per cell, whatever the cells' order or j; the
				// same for cells differing only in sigma_b (common random
				// numbers: their differences are sigma_b's, and with a
				// control, which cancels the night, their tallies agree).
				r := rand.New(rand.NewPCG(seed, uint64(ci%(len(phis)*len(runs)*len(steps)))))
				var tl [2]nightlyTally
				for range draws {
					s := drawNightly(r, c, m)
					for k, control := range [][][]float64{nil, s.Control} {
						var f []bool
						var v []analyze.CheckVerdict
						if whole {
							var err error
							if f, v, err = gateNights(s.Treat, control, m.Opts); err != nil {
								mu.Lock()
								firstErr = err
								mu.Unlock()
								return
							}
						} else {
							f, v = seqNights(s.Treat, control, m.Opts)
						}
						tl[k].tally(f, v, s.At, s.Revert)
					}
				}
				mu.Lock()
				res.Cells[c] = tl
				mu.Unlock()
			}
		})
	}
	for ci := range cells {
		work <- ci
	}
	close(work)
	wg.Wait()
	res.Oracle = map[nightlyCell][2]float64{}
	for _, c := range cells {
		if c.Step == targetStep {
			res.Oracle[c] = oracleCatch(c, m, draws, seed, targetFalse)
		}
	}
	return res, firstErr
}

// sum adds the tallies of the cells that keep says yes to, control k.
func (res *nightlyResult) sum(k int, keep func(nightlyCell) bool) nightlyTally {
	var t nightlyTally
	for c, tl := range res.Cells {
		if keep(c) {
			t.add(tl[k])
		}
	}
	return t
}

func pctOf(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(a)/float64(b))
}

// nightlyTargets are the acceptance targets of issue 31, measured: the
// worst stable-night false-fail rate at ratios up to maxRatio, and the
// fewest 10 % steps caught within 3 nights at 2 runs a night; k 0
// without a control (up to 3x), 1 with one (up to 10x).
type nightlyTarget struct {
	Control              bool
	MaxRatio             float64
	WorstFalse           float64
	WorstFalseCell       nightlyCell
	WorstCatch           float64
	WorstCatchCell       nightlyCell
	FalseMet, CatchMet   bool
	HaveFalse, HaveCatch bool
	// OracleCatch: the oracle's bound in the worst catch's cell.
	OracleCatch float64
}

func (res *nightlyResult) targets() []nightlyTarget {
	var out []nightlyTarget
	for k, maxRatio := range []float64{3, 10} {
		tg := nightlyTarget{Control: k == 1, MaxRatio: maxRatio}
		for _, ra := range res.Ratios {
			if ra > maxRatio {
				continue
			}
			for _, ph := range res.Phis {
				for _, n := range res.Runs {
					// The false fails of a (ratio, phi, runs): every step's
					// stable nights.
					c := nightlyCell{Ratio: ra, Phi: ph, Runs: n}
					t := res.sum(k, func(x nightlyCell) bool { return x.Ratio == ra && x.Phi == ph && x.Runs == n })
					if t.Stable > 0 {
						if f := float64(t.Failed) / float64(t.Stable); !tg.HaveFalse || f > tg.WorstFalse {
							tg.WorstFalse, tg.WorstFalseCell, tg.HaveFalse = f, c, true
						}
					}
					if n != 2 {
						continue
					}
					c.Step = targetStep
					if tl, ok := res.Cells[c]; ok && tl[k].Steps > tl[k].RedBefore {
						// Caught: the gate passed the night before the step
						// and failed within 3 nights of it.
						if f := float64(tl[k].GreenWithin[2]) / float64(tl[k].Steps-tl[k].RedBefore); !tg.HaveCatch || f < tg.WorstCatch {
							tg.WorstCatch, tg.WorstCatchCell, tg.HaveCatch = f, c, true
							tg.OracleCatch = res.Oracle[c][k]
						}
					}
				}
			}
		}
		tg.FalseMet = tg.HaveFalse && tg.WorstFalse <= targetFalse
		tg.CatchMet = tg.HaveCatch && tg.WorstCatch >= targetCatch
		out = append(out, tg)
	}
	return out
}

// gridTable writes a table of the grid: a row per sigma_b and phi, a
// cell per run count without and with a control (k 0, 1), and a blank
// line.
func (res *nightlyResult) gridTable(w io.Writer, cell func(c nightlyCell, k int) string) {
	nightlyHeader(w, res.Runs)
	for _, ra := range res.Ratios {
		for _, ph := range res.Phis {
			fmt.Fprintf(w, "| %g | %g |", ra, ph)
			for k := range 2 {
				for _, n := range res.Runs {
					fmt.Fprintf(w, " %s |", cell(nightlyCell{Ratio: ra, Phi: ph, Runs: n}, k))
				}
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w)
}

// writeNightly writes the figures as markdown tables.
func writeNightly(w io.Writer, res *nightlyResult) {
	m := res.Model
	disturbed := ""
	if m.OddProb > 0 {
		disturbed = fmt.Sprintf("odd night (3-5 sigma_r on the system's runs only, not the control's) probability %.2f; ", m.OddProb)
	}
	if m.Residual > 0 {
		disturbed += fmt.Sprintf("a residual between-night sd on the system's runs only, not the control's, %g sigma_r every night; ", m.Residual)
	}
	if m.RevertAfter > 0 {
		disturbed += fmt.Sprintf("each step reverted %d nights after it lands (within the series); ", m.RevertAfter)
	}
	fmt.Fprintf(w, "Model: %d nights a series; sigma_r %.1f %% (run-to-run, log cost); outlier night probability %.2f; %s"+
		"gate: loadverdict history --fail-on regression --max-regression %g (allowed %g %%); %d series a cell.\n\n",
		nightlyNights, 100*m.SigmaR, m.OutlierProb, disturbed, m.Opts.MaxRegressionPct, max(m.Opts.MaxRegressionPct, 100*m.Opts.PracticalBand), res.Draws)
	ctl := []string{"without a control", "with a same-night control (ratio)"}
	fmt.Fprintf(w, "**False fails**: the gate's exit 3 on nights with no change before them (night 1 left out), every step's series pooled; "+
		"in brackets, the step-free series with at least one failed night.\n\n")
	res.gridTable(w, func(c nightlyCell, k int) string {
		t := res.sum(k, func(x nightlyCell) bool { return x.Ratio == c.Ratio && x.Phi == c.Phi && x.Runs == c.Runs })
		return fmt.Sprintf("%s (%s)", pctOf(t.Failed, t.Stable), pctOf(t.FailedSeries, t.StableSeries))
	})
	fmt.Fprintf(w, "The failed stable nights by verdict (regression / drift / undecided), every phi and run count:\n\n| sigma_b/sigma_r | no control | control |\n|---:|---|---|\n")
	for _, ra := range res.Ratios {
		fmt.Fprintf(w, "| %g |", ra)
		for k := range ctl {
			t := res.sum(k, func(x nightlyCell) bool { return x.Ratio == ra })
			fmt.Fprintf(w, " %s / %s / %s of %d |", pctOf(t.FailedAs[0], t.Failed), pctOf(t.FailedAs[1], t.Failed), pctOf(t.FailedAs[2], t.Failed), t.Failed)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	for _, st := range res.Steps {
		if st == 0 {
			continue
		}
		first, last := res.Model.stepNights()
		fmt.Fprintf(w, "**A %.0f %% step** (%.0f %% more cost per request from a night in %d..%d): the gate fails within 1 / 2 / 3 nights of it; never (to night %d); red: the series whose gate already failed the night before the step.\n\n",
			100*st, 100*st, first+1, last+1, nightlyNights)
		res.gridTable(w, func(c nightlyCell, k int) string {
			c.Step = st
			return nightsToDetect(res.Cells[c][k])
		})
	}
	fmt.Fprintf(w, "**A regression held, and a revert recognised** (%.0f %% steps): of the nights in effect after the gate's first failed one, the share it passed (a regression ended by a night of noise, or not yet open again); "+
		"of the nights from the revert on, the share it failed (with -revert-after).\n\n", 100*targetStep)
	res.gridTable(w, func(c nightlyCell, k int) string {
		c.Step = targetStep
		t := res.Cells[c][k]
		out := "passed " + pctOf(t.HeldPassed, t.Held)
		if t.AfterRevert > 0 {
			out += "; failed after the revert " + pctOf(t.AfterRevertFailed, t.AfterRevert)
		}
		return out
	})
	fmt.Fprintf(w, "**The oracle's bound**: the share of %.0f %% steps caught within 3 nights by a detector that knows the reference level and the noise law, "+
		"its threshold set to fail %.0f %% of stable nights (the best of the mean of the last 1, 2 or 3 nights and the median of the last 3). "+
		"A check that must estimate the level and the noise from the nights does worse than one that knows them: a reference ceiling (for these statistics, not a proof over all).\n\n", 100*targetStep, 100*targetFalse)
	res.gridTable(w, func(c nightlyCell, k int) string {
		c.Step = targetStep
		return fmt.Sprintf("%.0f %%", 100*res.Oracle[c][k])
	})
	fmt.Fprintf(w, "**Issue 31's acceptance**, measured:\n\n")
	for _, tg := range res.targets() {
		name := "without a control, sigma_b up to 3x sigma_r"
		if tg.Control {
			name = "with a control, sigma_b up to 10x sigma_r"
		}
		fmt.Fprintf(w, "- %s: false fails <= 1 %% of stable nights: %s", name, metWord(tg.FalseMet, tg.HaveFalse))
		if tg.HaveFalse {
			fmt.Fprintf(w, " (worst %.1f %% at %gx, phi %g, %d run%s)", 100*tg.WorstFalse, tg.WorstFalseCell.Ratio, tg.WorstFalseCell.Phi, tg.WorstFalseCell.Runs, plural(tg.WorstFalseCell.Runs))
		}
		fmt.Fprintf(w, "; >= 90 %% of 10 %% steps caught within 3 nights at 2 runs a night (of the series whose gate passed the night before the step): %s", metWord(tg.CatchMet, tg.HaveCatch))
		if tg.HaveCatch {
			fmt.Fprintf(w, " (worst %.1f %% at %gx, phi %g; the oracle's bound there %.0f %%)", 100*tg.WorstCatch, tg.WorstCatchCell.Ratio, tg.WorstCatchCell.Phi, 100*tg.OracleCatch)
		}
		fmt.Fprintln(w, ".")
	}
	fmt.Fprintln(w)
}

func nightsToDetect(t nightlyTally) string {
	if t.Steps == 0 {
		return "-"
	}
	p := func(a int) float64 { return 100 * float64(a) / float64(t.Steps) }
	return fmt.Sprintf("%.0f / %.0f / %.0f; %.0f; red %.0f", p(t.Within[0]), p(t.Within[1]), p(t.Within[2]), p(t.Steps-t.Caught), p(t.RedBefore))
}

func metWord(met, have bool) string {
	switch {
	case !have:
		return "not measured"
	case met:
		return "met"
	}
	return "MISSED"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// nightlyOpts is the gate of the nightly job README recommends:
// loadverdict history --fail-on regression --max-regression pct.
func nightlyOpts(pct float64) analyze.Options {
	o := analyze.DefaultOptions()
	o.FailOn, o.MaxRegressionPct = []gate.Condition{gate.Regression}, pct
	return o
}

func runNightlyMC(args []string) error {
	fs := flag.NewFlagSet("nightly-mc", flag.ContinueOnError)
	draws := fs.Int("draws", 200, "series per cell of the grid")
	seed := fs.Uint64("seed", 31, "the draws' seed")
	sigmaR := fs.Float64("sigma-r", 0.02, "run-to-run sd of the log cost")
	maxReg := fs.Float64("max-regression", 5, "the gate's --max-regression, percent")
	outlier := fs.Float64("outlier", 0.1, "probability of an outlier night")
	odd := fs.Float64("odd", 0, "probability of an odd night for the control: 3-5 sigma_r on the system's runs only")
	revertAfter := fs.Int("revert-after", 0, "revert each step this many `nights` after it lands (0: never)")
	residual := fs.Float64("residual", 0, "a between-night sd on the system's runs only (what a control leaves of the night), a multiple of sigma_r, every night")
	jobs := fs.Int("j", 1, "goroutines")
	steps := fs.String("step-nights", "7-18", "the nights (1-based, first-last) a step is drawn among; 4-6 puts it on a short reference")
	whole := fs.Bool("whole", false, "gate each night by the whole history path (Analyze, AnalyzeHistory: slow) rather than the sequential check")
	if err := fs.Parse(args); err != nil {
		return err
	}
	m := nightlyModel{SigmaR: *sigmaR, OutlierProb: *outlier, OddProb: *odd, Residual: *residual, RevertAfter: *revertAfter, Opts: nightlyOpts(*maxReg)}
	var first, last int
	if _, err := fmt.Sscanf(*steps, "%d-%d", &first, &last); err != nil || first < 3 || last < first || last > nightlyNights-2 {
		return fmt.Errorf("nightly-mc: -step-nights %q: want FIRST-LAST, nights 3..%d (the reference forms on nights 1-2; 2 nights after the step are read)", *steps, nightlyNights-2)
	}
	m.StepFirst, m.StepLast = first-1, last-1
	res, err := nightlyMC(m, *draws, *seed, []float64{0, 1, 3, 10}, []float64{0, 0.5}, []int{1, 2, 3}, []float64{0, 0.05, 0.10, 0.20}, *jobs, *whole)
	if err != nil {
		return err
	}
	writeNightly(os.Stdout, res)
	return nil
}

// nightlyHeader writes the head of a table of the grid: a column for each
// run count, without a control and then with one.
func nightlyHeader(w io.Writer, runs []int) {
	fmt.Fprintf(w, "| sigma_b/sigma_r | phi |")
	for _, ctl := range []string{"no control", "control"} {
		for _, n := range runs {
			fmt.Fprintf(w, " %d run%s, %s |", n, plural(n), ctl)
		}
	}
	fmt.Fprintf(w, "\n|---:|---:|%s\n", strings.Repeat("---:|", 2*len(runs)))
}
