package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/stats"
)

// This file words a series' history: its headline, report.md, summary.md,
// summary.json and the gate's reasons.

// expWhere names an experiment for a sentence: "commit abc123 on
// 2026-11-30 (exp05)", with what its meta has.
func expWhere(e analyze.SeriesExperiment) string {
	var parts []string
	switch {
	case e.Meta.Commit != "":
		parts = append(parts, "commit "+e.Meta.Commit)
	case e.Meta.Version != "":
		parts = append(parts, "version "+e.Meta.Version)
	}
	if e.Meta.Date != "" {
		parts = append(parts, "on "+e.Meta.Date)
	}
	if len(parts) == 0 {
		return e.Name
	}
	return strings.Join(parts, " ") + " (" + e.Name + ")"
}

// changeText words a relative change of a metric: "regressed 16.9 %",
// "improved 4.1 %".
func changeText(c analyze.Comparison) string {
	worse := c.WorsePct()
	if worse > 0 {
		return fmt.Sprintf("regressed %s %%", rel(worse))
	}
	return fmt.Sprintf("improved %s %%", rel(-worse))
}

// decidingCI is the interval of the ratio that decides a comparison: the
// Hodges-Lehmann estimate's, else the bootstrap CI of the means' ratio.
func decidingCI(c analyze.Comparison) *stats.CI {
	if c.Estimate != nil && !math.IsInf(c.Estimate.Hi, 0) {
		return &stats.CI{Estimate: c.Estimate.Estimate, Lo: c.Estimate.Lo, Hi: c.Estimate.Hi, Level: c.Estimate.Level}
	}
	return c.CI
}

// changeCIText is a comparison's deciding CI as the change of side a,
// "(95 % CI -19.9 to -13.6 %, p = 0.0011)".
func changeCIText(c analyze.Comparison) string {
	var parts []string
	if ci := decidingCI(c); ci != nil {
		parts = append(parts, fmt.Sprintf("%s %% CI %s to %s %%", rel(100*ci.Level), signed(100*(ci.Lo-1)), signed(100*(ci.Hi-1))))
	}
	if c.PValue != nil {
		parts = append(parts, "p = "+rel(*c.PValue))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// trackText names a track: "127.0.0.1:19121 at 16 connections, 2 threads, 6 s, wrk".
func trackText(t analyze.Track) string {
	return t.System + " at " + settingsText(t.Settings)
}

// HistoryHeadline is the one-sentence verdict of a series, the latest
// experiment first: a regression of the latest against the segment before
// it, else the last change point, else that nothing changed.
func HistoryHeadline(h *analyze.History) string {
	latest := h.Experiments[len(h.Experiments)-1]
	for _, t := range h.Tracks {
		for _, mt := range t.Metrics {
			if l := mt.Latest; l != nil && l.Regression {
				return fmt.Sprintf("%s: %s %s%s at %s, the latest experiment, against the %s before it.",
					trackText(t), metricWords(mt.Metric), changeText(l.Comparison), changeCIText(l.Comparison), expWhere(latest),
					plural(len(l.Baseline), "experiment"))
			}
		}
	}
	var last *analyze.Change
	var lt analyze.Track
	var lm string
	for _, t := range h.Tracks {
		for _, mt := range t.Metrics {
			for i := range mt.Changes {
				c := &mt.Changes[i]
				if last == nil || t.Points[c.At].Experiment > lt.Points[last.At].Experiment {
					last, lt, lm = c, t, mt.Metric
				}
			}
		}
	}
	lead := fmt.Sprintf("No regression in the latest experiment, %s", expWhere(latest))
	if last == nil {
		return fmt.Sprintf("%s; no change point in %s.", lead, plural(len(h.Experiments), "experiment"))
	}
	at := h.Experiments[lt.Points[last.At].Experiment]
	return fmt.Sprintf("%s; the last change point: %s: %s %s%s at %s (E-Divisive p = %s).", lead, trackText(lt), metricWords(lm),
		changeText(last.Comparison), changeCIText(last.Comparison), expWhere(at), rel(last.P))
}

// HistoryGateReasons words why a history's gate fails, one line each.
func HistoryGateReasons(h *analyze.History) []string {
	var out []string
	for _, r := range h.Reasons {
		if r.Fails {
			out = append(out, historyReasonText(h, r))
		}
	}
	return out
}

func historyReasonText(h *analyze.History, r analyze.HistoryGateReason) string {
	t := h.Tracks[r.Track]
	mt := t.Metrics[r.Metric]
	latest := h.Experiments[len(h.Experiments)-1]
	switch r.Condition {
	case gate.Regression:
		return fmt.Sprintf("regression: %s: %s %s%s at %s against the segment before it (allowed: %s %%)",
			trackText(t), metricWords(mt.Metric), changeText(mt.Latest.Comparison), changeCIText(mt.Latest.Comparison), expWhere(latest), rel(r.MaxPct))
	case gate.Inconclusive:
		return fmt.Sprintf("inconclusive: %s: %s of %s: %s", trackText(t), metricWords(mt.Metric), expWhere(latest),
			strings.Join(reasonLines(mt.Latest.Comparison.Reasons, true), "; "))
	}
	return string(r.Condition)
}

// pointValueText is a point's value with its CI and unit.
func pointValueText(metric string, v analyze.PointValue) string {
	if v.Value == nil {
		return "–"
	}
	s := metricValue(metric, *v.Value)
	if v.CI != nil {
		s += " (" + metricRange(metric, v.CI.Lo, v.CI.Hi) + ")"
	}
	return s
}

// statusText words a point's status.
func statusText(p analyze.Point) string {
	switch p.Status {
	case analyze.PointNotSteady:
		return "not steady: all its runs used"
	case analyze.PointErrors:
		return "errors: not used"
	case analyze.PointDisturbed:
		dir := "better"
		if p.DisturbedWorse {
			dir = "worse"
		}
		return fmt.Sprintf("disturbed: %s %s than both neighbours, not used", metricWords(p.DisturbedMetric), dir)
	}
	return "used"
}

// orderText says how the experiments were ordered.
func orderText(by string) string {
	switch by {
	case analyze.OrderByDate:
		return "by their meta.date"
	case analyze.OrderByStarted:
		return "by the start times of their runs (not every experiment has a meta.date)"
	}
	return "as given (neither every experiment's meta.date nor its runs' start times are known)"
}

// HistoryMarkdown writes a series' report.md: the headline, the latest
// experiment's checks, the change points, a table of every experiment per
// system and settings, the trend figures and the method.
func HistoryMarkdown(w io.Writer, h *analyze.History, figs []Figure, generatedBy string) error {
	return writeMarkdown(w, historyDoc(h, figs, generatedBy))
}

// HistoryMarkdownAndHTML writes a series' report.md to md and report.html
// (index.html in a bucket) to page, both from one document built once:
// the HTML is the same document as one self-contained page (see HTML).
func HistoryMarkdownAndHTML(md, page io.Writer, h *analyze.History, figs []Figure, generatedBy string) error {
	d := historyDoc(h, figs, generatedBy)
	if err := writeMarkdown(md, d); err != nil {
		return err
	}
	return writeHTML(page, d)
}

// historyDoc builds the document HistoryMarkdown and
// HistoryMarkdownAndHTML render.
func historyDoc(h *analyze.History, figs []Figure, generatedBy string) *document {
	d := &document{Title: "Series " + h.Series}
	d.Lead = append(d.Lead, &paragraph{Runs: []inline{bold(HistoryHeadline(h))}, Class: "verdict"})
	if len(h.Options.FailOn) > 0 {
		if h.Failed {
			d.Lead = append(d.Lead, para(tx("Gate: "), bold("failed"), tx(".")))
			l := &list{}
			for _, r := range HistoryGateReasons(h) {
				l.Items = append(l.Items, listItem{Runs: []inline{tx(r)}})
			}
			d.Lead = append(d.Lead, l)
		} else {
			d.Lead = append(d.Lead, para(tx("Gate: passed.")))
		}
	}
	order := fmt.Sprintf("%s, ordered %s.", plural(len(h.Experiments), "experiment"), orderText(h.OrderBy))
	if h.Earlier > 0 {
		order += fmt.Sprintf(" The %s before them are left out (at most %d, the latest, are analysed).", plural(h.Earlier, "experiment"), analyze.MaxSeriesExperiments)
	}
	d.Lead = append(d.Lead, para(tx(order)))

	latest := &section{Title: "The latest experiment", ID: "latest", Blocks: []block{
		para(tx("Each metric of the latest experiment against the experiments since the last change point (disturbed ones and those with errors left out), by the tests of "),
			mono("compare"), tx("."))}}
	t := &tableBlock{Head: textRow("system and settings", "metric", "latest", "baseline", "change (95 % CI)", "p", "runs", "verdict"),
		Numeric: []bool{false, false, true, true, true, true, true, false}, Class: "compare"}
	for _, tr := range h.Tracks {
		for _, mt := range tr.Metrics {
			l := mt.Latest
			if l == nil {
				continue
			}
			c := l.Comparison
			change := "–"
			if ci := decidingCI(c); ci != nil {
				change = fmt.Sprintf("%s %% (%s to %s %%)", signed(100*(decidingRatio(c)-1)), signed(100*(ci.Lo-1)), signed(100*(ci.Hi-1)))
			}
			verdict := []inline{tx("~")}
			switch {
			case l.Regression:
				verdict = []inline{bold("regression")}
			case c.Verdict == analyze.BFaster:
				verdict = []inline{tx("worse, within --max-regression")}
			case c.Verdict == analyze.AFaster:
				verdict = []inline{tx("better")}
			case c.Verdict == analyze.Inconclusive:
				verdict = []inline{tx("inconclusive: " + strings.Join(reasonLines(c.Reasons, true), "; "))}
			}
			r := textRow(trackText(tr), metricWords(mt.Metric), metricValueOr(mt.Metric, c.AMean, c.ARuns), metricValueOr(mt.Metric, c.BMean, c.BRuns),
				change, relP(c.PValue), fmt.Sprintf("%d/%d", c.ARuns, c.BRuns), "")
			r[7] = verdict
			t.Rows = append(t.Rows, r)
		}
	}
	latest.Blocks = append(latest.Blocks, t)

	changes := &section{Title: "Change points", ID: "changes"}
	cl := &list{}
	n := 0
	for _, tr := range h.Tracks {
		for _, mt := range tr.Metrics {
			for _, c := range mt.Changes {
				n++
				at := h.Experiments[tr.Points[c.At].Experiment]
				cl.Items = append(cl.Items, listItem{Runs: []inline{tx(fmt.Sprintf("%s: %s %s%s at %s; E-Divisive p = %s, Welch p over experiments = %s, %s before and %s after.",
					trackText(tr), metricWords(mt.Metric), changeText(c.Comparison), changeCIText(c.Comparison), expWhere(at),
					rel(c.P), rel(c.WelchP), plural(len(c.Before), "experiment"), plural(len(c.After), "experiment")))}})
			}
			if mt.Unconfirmed > 0 {
				cl.Items = append(cl.Items, listItem{Runs: []inline{tx(fmt.Sprintf("%s: %s: %s found by E-Divisive but not confirmed (the experiments or the runs on either side do not differ enough).",
					trackText(tr), metricWords(mt.Metric), plural(mt.Unconfirmed, "change point")))}})
			}
		}
	}
	if n == 0 {
		changes.Blocks = append(changes.Blocks, para(tx("None confirmed.")))
	}
	if len(cl.Items) > 0 {
		changes.Blocks = append(changes.Blocks, cl)
	}
	for _, f := range figs {
		changes.Blocks = append(changes.Blocks, &figureBlock{Figure: f})
	}

	exps := &section{Title: "Experiments", ID: "experiments"}
	for _, tr := range h.Tracks {
		et := &tableBlock{Head: textRow("#", "experiment", "commit", "version", "date", "runs", "throughput (95 % CI)", "mean latency", "p99 latency", "error rate", "status"),
			Numeric: []bool{true, false, false, false, false, true, true, true, true, true, false}, Class: "runs"}
		for pi, p := range tr.Points {
			e := h.Experiments[p.Experiment]
			vals := make([]string, len(tr.Metrics))
			for mi, mt := range tr.Metrics {
				vals[mi] = pointValueText(mt.Metric, mt.Values[pi])
			}
			for len(vals) < 3 {
				vals = append(vals, "–")
			}
			r := textRow(fmt.Sprint(p.Experiment+1), e.Name, "", e.Meta.Version, e.Meta.Date, fmt.Sprint(p.Runs), vals[0], vals[1], vals[2],
				pointValueText(string(gate.ErrorRate), p.ErrorRate), statusText(p))
			if e.Meta.Commit != "" {
				r[2] = []inline{mono(e.Meta.Commit)}
			}
			et.Rows = append(et.Rows, r)
		}
		exps.Blocks = append(exps.Blocks, &section{Title: trackText(tr), Blocks: []block{et}})
	}

	method := &section{Title: "Method", ID: "method", Blocks: []block{para(
		tx(fmt.Sprintf("Per system and settings, each experiment's values are over its steady runs (all its runs, marked, when it has no steady state): the mean for throughput, mean latency and the error rate, the median of the runs' values for p99, with 95 %% CIs over the runs. "+
			"An experiment with an error rate of %s %% or more is not used; one that differs from both neighbours in the same direction (the tests of ", rel(100*h.Options.ErrorRateSevere))),
		mono("compare"), tx(") is a one-off disturbance, marked and not used. "),
		tx(fmt.Sprintf("Change points: E-Divisive means (Matteson & James 2014) over the runs, splitting only between experiments, at least 2 experiments a side, with its permutation test at alpha %s; a change point is reported when Welch's t-test over the experiments' values and ", rel(h.Options.Alpha))),
		mono("compare"), tx(fmt.Sprintf("'s tests over the runs (exact Mann-Whitney, the Hodges-Lehmann ratio's CI clear of ±%s %%) both confirm it. docs/STATISTICS.md, \"History\", gives the details.", rel(100*h.Options.PracticalBand))))}}
	if generatedBy != "" {
		method.Blocks = append(method.Blocks, para(tx("Made by "+generatedBy+".")))
	}
	d.Sections = []*section{latest, changes, exps, method}
	return d
}

// metricValueOr is a metric's value, or "–" without runs.
func metricValueOr(metric string, x float64, runs int) string {
	if runs == 0 {
		return "–"
	}
	return metricValue(metric, x)
}

// HistorySummaryMarkdown writes a series' summary.md, for a pull request
// or a chat message: the headline, the gate, the latest regressions and
// change points, and a link to report.md; at most 25 lines.
func HistorySummaryMarkdown(w io.Writer, h *analyze.History, reportLink string) error {
	lines := []string{"### Series " + text(h.Series), "", "**" + text(HistoryHeadline(h)) + "**", ""}
	if len(h.Options.FailOn) > 0 {
		if h.Failed {
			lines = append(lines, "Gate: **failed**.")
			for _, r := range HistoryGateReasons(h) {
				lines = append(lines, "- "+text(r))
			}
		} else {
			lines = append(lines, "Gate: passed.")
		}
		lines = append(lines, "")
	}
	var cps []string
	for _, t := range h.Tracks {
		for _, mt := range t.Metrics {
			for _, c := range mt.Changes {
				cps = append(cps, fmt.Sprintf("- %s: %s %s at %s (p = %s)", text(trackText(t)), metricWords(mt.Metric), changeText(c.Comparison),
					text(expWhere(h.Experiments[t.Points[c.At].Experiment])), rel(c.P)))
			}
		}
	}
	if len(cps) > 0 {
		lines = append(lines, "Change points:")
		if len(cps) > 10 {
			cps = append(cps[:10], fmt.Sprintf("- and %d more", len(cps)-10))
		}
		lines = append(lines, cps...)
		lines = append(lines, "")
	}
	lines = append(lines, fmt.Sprintf("%s. [Full report](%s)", plural(len(h.Experiments), "experiment"), reportLink))
	if len(lines) > 25 {
		lines = append(lines[:24], lines[len(lines)-1])
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

// SeriesSummary is a series' summary.json (docs/SCHEMA.md, "series").
type SeriesSummary struct {
	Series          string               `json:"series"`
	GeneratedBy     string               `json:"generated_by"`
	AnalysisVersion int                  `json:"analysis_version"`
	Headline        string               `json:"headline"`
	OrderBy         string               `json:"order_by"`
	Earlier         int                  `json:"earlier_experiments"`
	Experiments     []SeriesSummaryExp   `json:"experiments"`
	Tracks          []SeriesSummaryTrack `json:"tracks"`
	Gate            SummaryGate          `json:"gate"`
	Options         SeriesSummaryOptions `json:"options"`
}

// SeriesSummaryExp is one experiment of a series.
type SeriesSummaryExp struct {
	Name string       `json:"name"`
	Meta analyze.Meta `json:"meta"`
}

// SeriesSummaryTrack is one system and settings across a series.
type SeriesSummaryTrack struct {
	System           string                `json:"system"`
	Tool             string                `json:"tool"`
	Connections      *int32                `json:"connections"`
	Threads          *int32                `json:"threads"`
	TargetRPS        *float64              `json:"target_rps"`
	PlannedDurationS *float64              `json:"planned_duration_s"`
	Points           []SeriesSummaryPoint  `json:"points"`
	Metrics          []SeriesSummaryMetric `json:"metrics"`
}

// SeriesSummaryPoint is one experiment's values of a track.
type SeriesSummaryPoint struct {
	Experiment      string                        `json:"experiment"`
	Status          string                        `json:"status"`
	Runs            int                           `json:"runs"`
	SteadyRuns      int                           `json:"steady_runs"`
	Values          map[string]SeriesSummaryValue `json:"values"`
	DisturbedMetric string                        `json:"disturbed_metric,omitempty"`
}

// SeriesSummaryValue is a value with its CI.
type SeriesSummaryValue struct {
	Value *float64    `json:"value"`
	CI    [2]*float64 `json:"ci"`
}

// SeriesSummaryMetric is one metric of a track: its change points and
// the latest experiment's check.
type SeriesSummaryMetric struct {
	Metric      string                `json:"metric"`
	Changes     []SeriesSummaryChange `json:"changes"`
	Unconfirmed int                   `json:"unconfirmed"`
	Latest      *SeriesSummaryLatest  `json:"latest"`
}

// SeriesSummaryChange is a change point.
type SeriesSummaryChange struct {
	Experiment string      `json:"experiment"`
	Regression bool        `json:"regression"`
	ChangePct  float64     `json:"change_pct"`
	CI         [2]*float64 `json:"ci"`
	PValue     *float64    `json:"p_value"`
	EDivisiveP float64     `json:"edivisive_p"`
	WelchP     float64     `json:"welch_p"`
	Before     []string    `json:"before"`
	After      []string    `json:"after"`
}

// SeriesSummaryLatest is the check of the latest experiment.
type SeriesSummaryLatest struct {
	Experiment string      `json:"experiment"`
	Baseline   []string    `json:"baseline"`
	Verdict    string      `json:"verdict"`
	Regression bool        `json:"regression"`
	ChangePct  *float64    `json:"change_pct"`
	CI         [2]*float64 `json:"ci"`
	PValue     *float64    `json:"p_value"`
	Runs       [2]int      `json:"runs"`
	Reasons    []string    `json:"reasons"`
}

// SeriesSummaryOptions are the parameters of the analysis.
type SeriesSummaryOptions struct {
	Alpha         float64 `json:"alpha"`
	PracticalBand float64 `json:"practical_band"`
	MinRuns       int     `json:"min_runs"`
	Permutations  int     `json:"permutations"`
	Seed          uint64  `json:"seed"`
}

func ciPair(ci *stats.CI, scale func(float64) float64) [2]*float64 {
	if ci == nil {
		return [2]*float64{}
	}
	return [2]*float64{ptr(scale(ci.Lo)), ptr(scale(ci.Hi))}
}

// roundMetric rounds a value as summary.json rounds its column.
func roundMetric(metric string, x float64) float64 {
	if metric == string(gate.ErrorRate) {
		return sig(x, 6)
	}
	return round(x, 2)
}

// NewSeriesSummary builds a series' summary.json.
func NewSeriesSummary(h *analyze.History, generatedBy string) *SeriesSummary {
	s := &SeriesSummary{Series: h.Series, GeneratedBy: generatedBy, AnalysisVersion: analyze.AnalysisVersion,
		Headline: HistoryHeadline(h), OrderBy: h.OrderBy, Earlier: h.Earlier, Experiments: []SeriesSummaryExp{}, Tracks: []SeriesSummaryTrack{},
		Options: SeriesSummaryOptions{Alpha: h.Options.Alpha, PracticalBand: h.Options.PracticalBand, MinRuns: h.Options.MinRuns,
			Permutations: stats.DefaultPermutations, Seed: h.Options.Seed}}
	for _, e := range h.Experiments {
		s.Experiments = append(s.Experiments, SeriesSummaryExp{Name: e.Name, Meta: e.Meta})
	}
	names := func(t analyze.Track, pts []int) []string {
		out := []string{}
		for _, i := range pts {
			out = append(out, h.Experiments[t.Points[i].Experiment].Name)
		}
		return out
	}
	pctCI := func(ci *stats.CI) [2]*float64 {
		return ciPair(ci, func(x float64) float64 { return round(100*(x-1), 1) })
	}
	for _, t := range h.Tracks {
		st := SeriesSummaryTrack{System: t.System, Tool: t.Settings.Tool, Connections: t.Settings.Connections, Threads: t.Settings.Threads,
			TargetRPS: t.Settings.TargetRPS, PlannedDurationS: t.Settings.PlannedDurationS, Points: []SeriesSummaryPoint{}, Metrics: []SeriesSummaryMetric{}}
		for pi, p := range t.Points {
			sp := SeriesSummaryPoint{Experiment: h.Experiments[p.Experiment].Name, Status: string(p.Status), Runs: p.Runs, SteadyRuns: p.Steady,
				Values: map[string]SeriesSummaryValue{}, DisturbedMetric: p.DisturbedMetric}
			add := func(metric string, v analyze.PointValue) {
				sv := SeriesSummaryValue{}
				if v.Value != nil {
					sv.Value = ptr(roundMetric(metric, *v.Value))
					sv.CI = ciPair(v.CI, func(x float64) float64 { return roundMetric(metric, x) })
				}
				sp.Values[metric] = sv
			}
			for _, mt := range t.Metrics {
				add(mt.Metric, mt.Values[pi])
			}
			add(string(gate.ErrorRate), p.ErrorRate)
			st.Points = append(st.Points, sp)
		}
		for _, mt := range t.Metrics {
			sm := SeriesSummaryMetric{Metric: mt.Metric, Changes: []SeriesSummaryChange{}, Unconfirmed: mt.Unconfirmed}
			for _, c := range mt.Changes {
				sm.Changes = append(sm.Changes, SeriesSummaryChange{Experiment: h.Experiments[t.Points[c.At].Experiment].Name, Regression: c.Regression,
					ChangePct: round(100*(decidingRatio(c.Comparison)-1), 1), CI: pctCI(decidingCI(c.Comparison)), PValue: pSig(c.Comparison.PValue),
					EDivisiveP: sig(c.P, 6), WelchP: sig(c.WelchP, 6), Before: names(t, c.Before), After: names(t, c.After)})
			}
			if l := mt.Latest; l != nil {
				c := l.Comparison
				sl := &SeriesSummaryLatest{Experiment: h.Experiments[t.Points[l.Point].Experiment].Name, Baseline: names(t, l.Baseline),
					Verdict: c.Verdict, Regression: l.Regression, CI: pctCI(decidingCI(c)), PValue: pSig(c.PValue), Runs: [2]int{c.ARuns, c.BRuns},
					Reasons: reasonLines(c.Reasons, false)}
				if r := decidingRatio(c); c.ARuns > 0 && c.BRuns > 0 && r != 0 {
					sl.ChangePct = ptr(round(100*(r-1), 1))
				}
				sm.Latest = sl
			}
			st.Metrics = append(st.Metrics, sm)
		}
		s.Tracks = append(s.Tracks, st)
	}
	s.Gate = SummaryGate{FailOn: []string{}, Allow: []string{}, MaxRegressionPct: h.Options.MaxRegressionPct, Failed: h.Failed, Reasons: []SummaryGateReason{}}
	for _, c := range h.Options.FailOn {
		s.Gate.FailOn = append(s.Gate.FailOn, string(c))
	}
	for _, r := range h.Reasons {
		s.Gate.Reasons = append(s.Gate.Reasons, SummaryGateReason{Condition: string(r.Condition), Fails: r.Fails, Message: historyReasonText(h, r)})
	}
	return s
}

func pSig(p *float64) *float64 {
	if p == nil {
		return nil
	}
	return ptr(sig(*p, 6))
}

// HistoryJSON writes a series' summary.json.
func HistoryJSON(w io.Writer, h *analyze.History, generatedBy string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewSeriesSummary(h, generatedBy))
}
