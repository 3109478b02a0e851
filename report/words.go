package report

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/stats"
)

// This file words the typed parts of a Verdict that are not findings or
// the headline: settings, warm-up bases, saturation, comparison reasons,
// warnings and the errors of the statistical routines.

// settingsText describes settings, e.g. "100 connections, 10 threads, 10 s,
// wrk", after the endpoint when there is one ("endpoint GET /a, ...").
func settingsText(s analyze.Settings) string {
	var parts []string
	if s.Endpoint != nil {
		parts = append(parts, "endpoint "+*s.Endpoint)
	}
	if s.TargetRPS != nil {
		parts = append(parts, fmt.Sprintf("%s req/s", num(*s.TargetRPS)))
	}
	if s.Connections != nil {
		parts = append(parts, unitsText(int64(*s.Connections), "connection"))
	}
	if s.Threads != nil {
		parts = append(parts, unitsText(int64(*s.Threads), "thread"))
	}
	if s.PlannedDurationS != nil {
		parts = append(parts, fmt.Sprintf("%s s", num(*s.PlannedDurationS)))
	}
	parts = append(parts, s.Tool)
	return strings.Join(parts, ", ")
}

// classWords words a warm-up class for a reader, not as its label
// ("no-steady-state", "insufficient-data"): where is "across runs",
// "within its runs" or "within the run".
func classWords(c stats.Class, where string) string {
	switch c {
	case stats.ClassInsufficientData:
		if where == "across runs" {
			return "too few runs to tell a warm-up"
		}
		return "too short " + where + " to tell a warm-up"
	case stats.ClassInconsistent:
		return "uneven " + where + " (no one level)"
	}
	return classAdj(c) + " " + where
}

// classAdj is a warm-up class as an adjective: "flat", "warming up".
func classAdj(c stats.Class) string {
	switch c {
	case stats.ClassWarmup:
		return "warming up"
	case stats.ClassSlowdown:
		return "slowing down"
	case stats.ClassNoSteadyState:
		return "never steady"
	case stats.ClassInconsistent:
		return "uneven"
	case stats.ClassInsufficientData:
		return "too little data to tell"
	}
	return string(c)
}

// notSteadyClass is what "not steady" adds for a class: "" where it
// would repeat it, else ": slowing down".
func notSteadyClass(c stats.Class) string {
	if c == stats.ClassNoSteadyState || c == "" {
		return ""
	}
	return ": " + classAdj(c)
}

// unitsText is n with its unit, singular for 1: "1 thread", "8 threads".
func unitsText(n int64, unit string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, unit)
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// timesText words a ratio as "1.23x", with the figures that tell it from 1
// when it rounds to 1 ("1.0002x"); exactly 1 is "1x".
func timesText(r float64) string {
	s := rel(r)
	for d := 4; s == "1" && r != 1 && d <= 9 && !math.IsNaN(r); d++ {
		s = strconv.FormatFloat(r, 'f', d, 64)
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s + "x"
}

// seriesName names the series a warm-up class was found in.
func seriesName(metric string) string {
	switch metric {
	case analyze.MetricRPS:
		return "throughput"
	case analyze.MetricLatP50Ms:
		return "median latency per window"
	}
	return "mean latency per window"
}

// warmupDetail says what a group's warm-up class rests on.
func warmupDetail(w analyze.Warmup) string {
	s := basisText(w.Method, w.Basis, w.ChangePct)
	if w.Shift != nil {
		s += "; " + shiftText(w.Shift)
	}
	if w.UnstableRuns > 0 {
		s += fmt.Sprintf("; %s stalled or kept leaving its level", plural(w.UnstableRuns, "run"))
	}
	return s
}

// runWarmupDetail says what a run's within-run class rests on.
func runWarmupDetail(w analyze.RunWarmup) string {
	s := basisText(w.Method, w.Basis, nil)
	if w.Instability != nil {
		s += "; unstable: " + instabilityText(w.Instability)
	}
	return s
}

// basisText words the basis of a warm-up classification made by method.
func basisText(method string, b analyze.Basis, changePct *float64) string {
	var s string
	switch {
	case method == analyze.MethodSingleRun:
		return "one run: whether it had warmed up cannot be told"
	case method == analyze.MethodPerRun:
		return classCounts(b.Counts)
	case b.MinN > 0:
		s = fmt.Sprintf("%d windows with requests, need %d", b.N, b.MinN)
	case b.Err != nil:
		s = errorText(b.Err)
	case method == analyze.MethodShortSeries:
		s = seriesName(b.Metric) + ": " + shortSeriesText(b, changePct)
	case method == analyze.MethodModel || method == analyze.MethodModelMSER:
		what := fmt.Sprintf("%s of %d runs", seriesName(b.Metric), b.N)
		if b.Metric != analyze.MetricRPS {
			what = seriesName(b.Metric)
		}
		s = fmt.Sprintf("%s: %s (%s), changes under ±%s %% ignored", what, shapeText(b.Shape), plural(b.Segments, "level"), rel(b.ThresholdPct))
	case method == analyze.MethodStepTest:
		s = fmt.Sprintf("%s of %d runs: %d level(s) (step test", seriesName(b.Metric), b.N, b.Segments)
		if b.StepP != nil {
			s += fmt.Sprintf(", p = %s", rel(*b.StepP))
		}
		s += ")"
	case b.Metric == analyze.MetricRPS:
		s = fmt.Sprintf("%s of %d runs: %d segment(s)", seriesName(b.Metric), b.N, b.Segments)
	default:
		s = fmt.Sprintf("%s: %d segment(s)", seriesName(b.Metric), b.Segments)
	}
	if t := b.Trend; t != nil {
		s += "; " + trendText(b.Metric, t, b.Shape)
	}
	if m := b.MSER; m != nil {
		switch {
		case b.Metric != analyze.MetricRPS && m.NeedsMoreData:
			s += "; MSER-5: needs more data"
		case b.Metric != analyze.MetricRPS:
		case m.NeedsMoreData:
			s += "; MSER-5 says more runs are needed"
		default:
			s += fmt.Sprintf("; MSER-5 truncates the first %d runs", m.Truncate)
		}
	}
	return s
}

// shapeText words the shape stats.SelectModel chose.
func shapeText(sh stats.Shape) string {
	switch sh {
	case stats.ShapeSteps:
		return "steps"
	case stats.ShapeTrend:
		return "a straight trend"
	case stats.ShapeTrendFlat:
		return "a trend, then flat"
	case stats.ShapeFlatTrend:
		return "flat, then a trend"
	case stats.ShapeRamp:
		return "flat, a change, then flat"
	}
	return "flat"
}

// trendText words a trend that never levelled off, e.g. "still rising by
// 29 ms (+93.5 %) to the end, p = 7.5e-33"; for a shape that levels off
// (a change that ended in the last quarter, too late for a steady state),
// "rising by ... and levelling off only at the very end".
func trendText(metric string, t *stats.Trend, shape stats.Shape) string {
	dir := "rising"
	if t.Change < 0 {
		dir = "falling"
	}
	unit := "req/s"
	if metric != analyze.MetricRPS {
		unit = "ms"
	}
	pct := ""
	if t.Level != 0 {
		pct = fmt.Sprintf(" (%s %%)", signed(100*t.Change/t.Level))
	}
	switch shape {
	case stats.ShapeSteps, stats.ShapeTrendFlat, stats.ShapeRamp:
		return fmt.Sprintf("%s by %s %s%s, levelling off only at the very end (Mann-Kendall p = %s): no steady state", dir, num(math.Abs(t.Change)), unit, pct, rel(t.P))
	}
	return fmt.Sprintf("still %s by %s %s%s to the end (Mann-Kendall p = %s): it never levelled off", dir, num(math.Abs(t.Change)), unit, pct, rel(t.P))
}

// shiftText words a level shift across runs, e.g. "throughput moved from
// 3010 to 3455 req/s (+14.8 %) at run seq 5 and stayed there".
func shiftText(sh *analyze.Shift) string {
	change := ""
	if sh.Before != 0 {
		change = fmt.Sprintf(" (%s %%)", signed(100*(sh.After-sh.Before)/sh.Before))
	}
	dir := "rose"
	if sh.Direction == stats.Worsening || (sh.Direction == "" && sh.After < sh.Before) {
		dir = "fell"
	}
	return fmt.Sprintf("throughput %s from %s to %s req/s%s at run seq %d and stayed there", dir, num(sh.Before), num(sh.After), change, sh.AtSeq)
}

// instabilityText words how a run's windows kept leaving their level.
func instabilityText(in *analyze.Instability) string {
	when := "at irregular times"
	if in.Periodic && in.PeriodS != nil {
		when = fmt.Sprintf("every %s s", num(*in.PeriodS))
	}
	return fmt.Sprintf("%d stalls %s, each about %s s long: mean latency %s ms in them against %s ms otherwise (worst window %s ms); %s of the time and %s of the requests",
		in.Excursions, when, num(in.StallS), num(in.StallMeanMs), num(in.LevelMs), num(in.StallPeakMs), pct(in.ShareTime), pct(in.ShareRequests))
}

// shortSeriesText words the short-series rule's outcome: the change
// between the last two runs against the noise band.
func shortSeriesText(b analyze.Basis, changePct *float64) string {
	switch {
	case b.ZeroBase:
		return "no change between the last two runs"
	case changePct == nil || b.N < 2:
		return "one run: no trend can be seen"
	case math.Abs(*changePct) <= b.BandPct:
		return fmt.Sprintf("last two runs differ by %s %%, inside the ±%s %% noise band", signed(*changePct), rel(b.BandPct))
	case b.Improving:
		return fmt.Sprintf("improving by %s %% between the last two runs (noise band ±%s %%): still warming up", rel(math.Abs(*changePct)), rel(b.BandPct))
	}
	return fmt.Sprintf("worsening by %s %% between the last two runs (noise band ±%s %%): getting slower", rel(math.Abs(*changePct)), rel(b.BandPct))
}

// classCounts words the classes of a group's runs, e.g. "1 flat, 2 warmup".
func classCounts(counts []stats.ClassCount) string {
	if len(counts) == 0 {
		return "no runs"
	}
	parts := make([]string, len(counts))
	for i, c := range counts {
		parts[i] = fmt.Sprintf("%d %s", c.N, c.Class)
	}
	return strings.Join(parts, ", ")
}

// saturationText words the evidence of saturation.
func saturationText(s *analyze.Saturation) string {
	if s == nil {
		return ""
	}
	if s.Kind == analyze.SaturationOpenShortfall {
		sent := ""
		if s.SentRPS != nil && *s.SentRPS < 0.9*s.TargetRPS {
			sent = fmt.Sprintf("; the generator itself sent only %s req/s", num(*s.SentRPS))
		}
		return fmt.Sprintf("at a requested %s req/s it achieved %s successful responses per second (%s %%)%s",
			num(s.TargetRPS), num(s.RPS), rel(100*s.RPS/s.TargetRPS), sent)
	}
	lo, hi := s.From, s.To
	if lo.LatMeanMs == nil || hi.LatMeanMs == nil {
		return fmt.Sprintf("from %d to %d connections", lo.Connections, hi.Connections)
	}
	dx := hi.RPS/lo.RPS - 1
	dl := *hi.LatMeanMs / *lo.LatMeanMs - 1
	return fmt.Sprintf("from %d to %d connections throughput changed %s %% (%s -> %s req/s) while mean latency rose %s %% (%s -> %s ms)",
		lo.Connections, hi.Connections, signed(100*dx), num(lo.RPS), num(hi.RPS), signed(100*dl), num(*lo.LatMeanMs), num(*hi.LatMeanMs))
}

// notePrefix marks the reasons that explain but do not decide.
const notePrefix = "note: "

// reasonLine words a comparison's reason as summary.json and the report
// list it: notes are prefixed "note: ".
func reasonLine(r analyze.Reason) string {
	if r.Note {
		return notePrefix + reasonText(r)
	}
	return reasonText(r)
}

// reasonLines words every reason of a comparison; decidingOnly leaves the
// notes out.
func reasonLines(rs []analyze.Reason, decidingOnly bool) []string {
	out := []string{}
	for _, r := range rs {
		if !decidingOnly || !r.Note {
			out = append(out, reasonLine(r))
		}
	}
	return out
}

// reasonText words one reason of a comparison's verdict.
func reasonText(r analyze.Reason) string {
	switch r.Code {
	case analyze.ReasonTooFewRuns:
		return fmt.Sprintf("%d vs %d runs cannot show a difference at alpha %s: the exact test's smallest attainable p is %s",
			r.ARuns, r.BRuns, rel(r.Alpha), minPText(r))
	case analyze.ReasonSingleRun:
		return fmt.Sprintf("%s: a single run cannot show a steady state", r.System)
	case analyze.ReasonNotSteady:
		change := ""
		if r.ChangePct != nil {
			change = fmt.Sprintf(" (%s %% between its last two runs)", signed(*r.ChangePct))
		}
		if r.Note {
			return fmt.Sprintf("%s not steady%s%s; all its runs are compared", r.System, notSteadyClass(r.Class), change)
		}
		return fmt.Sprintf("%s not steady%s%s", r.System, notSteadyClass(r.Class), change)
	case analyze.ReasonWelch:
		return fmt.Sprintf("%d vs %d runs are below the exact test's reach (smallest attainable p %s): decided by Welch's t-test on the runs' logs (p = %s)",
			r.ARuns, r.BRuns, minPText(r), rel(r.P))
	case analyze.ReasonInconsistent:
		return fmt.Sprintf("%s: runs behave inconsistently", r.System)
	case analyze.ReasonFewSteadyRuns:
		if r.Note {
			return fmt.Sprintf("%s: only %d steady runs after warm-up, too few to test; all its runs are compared", r.System, r.SteadyRuns)
		}
		if r.MinP > 0 {
			return fmt.Sprintf("%s: only %d steady runs after warm-up; %d vs %d steady runs cannot show a difference at alpha %s (smallest attainable p %s)",
				r.System, r.SteadyRuns, r.ARuns, r.BRuns, rel(r.Alpha), minPText(r))
		}
		return fmt.Sprintf("%s: only %d steady runs after warm-up", r.System, r.SteadyRuns)
	case analyze.ReasonMetricMissing:
		return "not every steady run reports " + r.Metric
	case analyze.ReasonControlMissing:
		return fmt.Sprintf("the control %s has no usable %s in this experiment at these settings (errors, missing or not run), so nothing can be checked relative to it", r.System, r.Metric)
	case analyze.ReasonClosedModelTails:
		return "closed-model tails are lower bounds (coordinated omission)"
	case analyze.ReasonTestFailed:
		return "the test could not be computed: " + errorText(r.Err)
	case analyze.ReasonEquivalent:
		return fmt.Sprintf("the %s %% CI of the %s, %s, lies inside the ±%s %% practical band (p = %s)",
			rel(100*r.Level), ratioName(r.Method), ciRange(r.Lo, r.Hi), rel(100*r.Band), rel(r.P))
	case analyze.ReasonUnsettled:
		return unsettledText(r)
	case analyze.ReasonInsideBand:
		return fmt.Sprintf("significant (p = %s) but the %s %% CI of the ratio reaches into the ±%s %% practical band",
			rel(r.P), rel(100*r.Level), rel(100*r.Band))
	case analyze.ReasonNotSignificant:
		return fmt.Sprintf("p = %s >= alpha %s", rel(r.P), rel(r.Alpha))
	case analyze.ReasonErrors:
		return fmt.Sprintf("%s: error rate %s %%, its values are not used", r.System, rel(100*r.Rate))
	}
	return string(r.Code)
}

// unsettledText words an unsettled comparison's reason: a difference
// shown whose size is not (Significant), or runs that vary too much.
func unsettledText(r analyze.Reason) string {
	need := runsNeededText(r)
	if r.Significant {
		// A difference shown, its size not: not "runs vary too much".
		return fmt.Sprintf("a difference significant at p = %s, but not shown to pass the ±%s %% practical band: the %s %% CI of the %s, %s, reaches into it%s",
			rel(r.P), rel(100*r.Band), rel(100*r.Level), ratioName(r.Method), ratioRangeOff1(r.Lo, r.Hi), need)
	}
	return fmt.Sprintf("runs vary too much: the %s %% CI of the %s, %s, reaches across the edge of the ±%s %% practical band (p = %s)%s",
		rel(100*r.Level), ratioName(r.Method), ciRange(r.Lo, r.Hi), rel(100*r.Band), rel(r.P), need)
}

// runsNeededText words an unsettled comparison's runs needed, e.g. ";
// about 147 runs per side would settle it"; "" when unknown.
func runsNeededText(r analyze.Reason) string {
	if r.RunsNeeded <= 0 {
		return ""
	}
	return fmt.Sprintf("; about %d runs per side would settle it", r.RunsNeeded)
}

// ratioName names the deciding ratio by its interval's method: the
// Hodges-Lehmann ratio, or the ratio of geometric means (Welch) below the
// exact test's reach.
func ratioName(method string) string {
	if method == stats.MethodWelchLog {
		return "ratio of geometric means (Welch)"
	}
	return "Hodges-Lehmann ratio"
}

// aggregateText names an aggregate over runs (a Comparison's or
// ThresholdCheck's Aggregate, an ErrorComparison's): "mean of runs",
// "median of runs" or "pooled over runs".
func aggregateText(aggregate string) string {
	switch aggregate {
	case analyze.AggregateMedian:
		return "median of runs"
	case analyze.AggregatePooled:
		return "pooled over runs"
	}
	return "mean of runs"
}

// aggregateWord is aggregateText's "mean" or "median" alone.
func aggregateWord(aggregate string) string {
	if aggregate == analyze.AggregateMedian {
		return "median"
	}
	return "mean"
}

// minPText words the smallest p the exact test can give at a reason's
// sizes: "2/C(6,3) = 0.1".
func minPText(r analyze.Reason) string {
	return fmt.Sprintf("2/C(%d,%d) = %s", r.ARuns+r.BRuns, min(r.ARuns, r.BRuns), rel(r.MinP))
}

// runsText words the runs a comparison rests on, "4 vs 6 runs", and the
// runs it left out and why: "4 vs 6 runs; left out: A seq 0, 2 as warm-up".
func runsText(c analyze.Comparison) string {
	s := fmt.Sprintf("%d vs %d runs", c.ARuns, c.BRuns)
	if lo := leftOutText(c); lo != "" {
		s += "; left out: " + lo
	}
	return s
}

// leftOutText words the runs a comparison's test left out, per side and
// reason: "A seq 0, 2 as warm-up; B seq 5 as contradictory"; "" for none.
func leftOutText(c analyze.Comparison) string {
	var parts []string
	for _, side := range []string{"a", "b"} {
		label := c.A
		if side == "b" {
			label = c.B
		}
		var whys []string
		seqs := map[string][]string{}
		for _, l := range c.LeftOut {
			if l.Side != side {
				continue
			}
			if _, ok := seqs[l.Why]; !ok {
				whys = append(whys, l.Why)
			}
			seqs[l.Why] = append(seqs[l.Why], strconv.Itoa(int(l.Run.Seq)))
		}
		for _, w := range whys {
			why := "as " + w
			if w == analyze.LeftOutMetricMissing {
				why = "for want of the metric"
			}
			parts = append(parts, fmt.Sprintf("%s seq %s %s", label, strings.Join(seqs[w], ", "), why))
		}
	}
	return strings.Join(parts, "; ")
}

// ciRange words an interval of ratios; an unbounded one (too few runs for
// any interval) as "unbounded".
func ciRange(lo, hi float64) string {
	if math.IsInf(hi, 1) {
		return "unbounded"
	}
	return ratioRange(lo, hi)
}

// warningText words a statistical caveat.
func warningText(w analyze.Warning) string {
	switch w.Code {
	case analyze.WarnAcrossRunWarmup:
		where := w.System
		if w.Settings != nil {
			where = settingsText(*w.Settings)
		}
		return fmt.Sprintf("%s: %s", where, errorText(w.Err))
	case analyze.WarnWithinRunWarmup:
		return fmt.Sprintf("run %s: %s", w.RunID, errorText(w.Err))
	case analyze.WarnUSLFit:
		return fmt.Sprintf("%s: USL fit failed: %s", w.System, errorText(w.Err))
	}
	if w.Err != nil {
		return fmt.Sprintf("%s: %s", w.Code, errorText(w.Err))
	}
	return string(w.Code)
}

// warningLines words every warning of a verdict.
func warningLines(v *analyze.Verdict) []string {
	out := []string{}
	for _, w := range v.Warnings {
		out = append(out, warningText(w))
	}
	return out
}

// errorText words an error of the statistical routines for a reader.
func errorText(err error) string {
	var few *stats.TooFewError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &few):
		return fmt.Sprintf("too few observations: %s needs at least %d, has %d", few.Method, few.Need, few.Have)
	case errors.Is(err, stats.ErrZeroBase):
		return "the relative change from 0 is undefined"
	case errors.Is(err, stats.ErrEmpty):
		return "no observations"
	case errors.Is(err, stats.ErrNotFinite):
		return "the values include NaN or infinity"
	case errors.Is(err, stats.ErrNoConvergence):
		return "the fit did not converge"
	case errors.Is(err, stats.ErrParameter):
		return "a parameter is out of range"
	}
	return err.Error()
}
