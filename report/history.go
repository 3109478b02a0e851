package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/stats"
)

// This file words a series' history: its headline, report.md, summary.md,
// summary.json and the gate's reasons.

// expWhere names an experiment for a sentence, a noun phrase that
// follows "since", "at" or a comma: "commit abc123 on 2026-11-30
// (exp05)", "2026-11-30 (exp05)" (no "on" without a commit or version:
// "since on 2026-11-30"), with what its meta has.
func expWhere(e analyze.SeriesExperiment) string {
	var parts []string
	switch {
	case e.Meta.Commit != "":
		parts = append(parts, "commit "+e.Meta.Commit)
	case e.Meta.Version != "":
		parts = append(parts, "version "+e.Meta.Version)
	}
	if e.Meta.Date != "" {
		if len(parts) > 0 {
			parts = append(parts, "on")
		}
		parts = append(parts, e.Meta.Date)
	}
	if len(parts) == 0 {
		return e.Name
	}
	return strings.Join(parts, " ") + " (" + e.Name + ")"
}

// changeText words a relative change of a metric: "regressed 16.9 %",
// "improved 4.1 %".
func changeText(c analyze.Comparison) string {
	worse := c.Deciding.WorsePct
	if worse > 0 {
		return fmt.Sprintf("regressed %s %%", rel(worse))
	}
	return fmt.Sprintf("improved %s %%", rel(-worse))
}

// changeCIText is a comparison's deciding CI as the change of side a,
// "(95 % CI -19.9 to -13.6 %, p = 0.0011)".
func changeCIText(c analyze.Comparison) string {
	var parts []string
	if ci := c.Deciding.CI; ci != nil {
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

// checkRank orders the check verdicts for the headline: the first of
// regression, drift, undecided, improved, no change.
func checkRank(v analyze.CheckVerdict) int {
	switch v {
	case analyze.CheckRegression:
		return 0
	case analyze.CheckDrift:
		return 1
	case analyze.CheckUndecided:
		return 2
	case analyze.CheckImproved:
		return 3
	}
	return 4
}

// headRank orders the checks for the headline: checkRank; among the
// no-change ones a suspect night (the next night decides) first, then
// one beyond the allowed regression but within the noise, then those
// within the allowed regression (only when every no-change check is
// within it may the headline say "on every metric checked").
func headRank(h *analyze.History, l *analyze.Latest) int {
	r := 3 * checkRank(l.Verdict)
	if l.Verdict == analyze.CheckNoChange && !l.Night.Suspect {
		r++
		if t := l.Night.Test; t == nil || t.WorsePct <= allowed(h) {
			r++
		}
	}
	return r
}

// pointName names the experiment of a track's point for a sentence.
func pointName(h *analyze.History, t analyze.Track, i int) string {
	return expWhere(h.Experiments[t.Points[i].Experiment])
}

// HistoryHeadline is the one-sentence verdict of a series on its latest
// experiment: exactly one of regression (since when, how much), drift,
// errors rose (the error check of a system and settings failed),
// undecided (why), improved, or no change
// shown, the first of these that any metric of any system and settings
// meets; how many other checks fail is added.
func HistoryHeadline(h *analyze.History) string {
	latest := h.Experiments[len(h.Experiments)-1]
	bestT, bestM := leadCheck(h)
	if noComparison(h) {
		return "Undecided: " + noComparisonText(h) + "."
	}
	if bestT < 0 {
		return fmt.Sprintf("No check of the latest experiment, %s: none of its systems and settings ran before it.", expWhere(latest))
	}
	t := h.Tracks[bestT]
	mt := t.Metrics[bestM]
	// Errors that rose lead unless a regression or drift does: a night
	// whose throughput is unusable for its errors is said to have more
	// errors, not to be undecided.
	et := errorsRoseTrack(h)
	leadErrors := et >= 0 && checkRank(mt.Latest.Verdict) >= 2
	var s string
	if leadErrors {
		s = errorCheckSentence(h, h.Tracks[et], *h.Tracks[et].Errors)
	} else {
		s = checkSentence(h, t, mt, true)
	}
	if others := otherFailing(h, bestT, bestM, et, leadErrors); others > 0 {
		s += fmt.Sprintf(" %s more: see the report.", plural(others, "check"))
	}
	return s
}

// leadCheck returns the track and metric of the gated check on the latest
// experiment that leads the headline (headRank), or -1, -1.
func leadCheck(h *analyze.History) (bestT, bestM int) {
	bestT, bestM = -1, -1
	for ti, t := range h.Tracks {
		for mi, mt := range t.Metrics {
			if mt.Latest == nil || !mt.Gated {
				continue
			}
			if bestT < 0 || headRank(h, mt.Latest) < headRank(h, h.Tracks[bestT].Metrics[bestM].Latest) {
				bestT, bestM = ti, mi
			}
		}
	}
	return bestT, bestM
}

// otherFailing counts the failing checks besides the one the headline
// words: the metric check (bestT, bestM) or, when leadErrors, the error
// check of track et. A metric unusable for the errors of a track whose
// error check fails is not counted again.
func otherFailing(h *analyze.History, bestT, bestM, et int, leadErrors bool) int {
	others := 0
	for ti, tr := range h.Tracks {
		for mi, m := range tr.Metrics {
			if (leadErrors || ti != bestT || mi != bestM) && m.Latest != nil && m.Gated && checkRank(m.Latest.Verdict) <= 2 &&
				!(tr.Errors != nil && tr.Errors.Fails && m.Latest.Unusable != nil && m.Latest.Unusable.Code == analyze.ReasonErrors) {
				others++
			}
		}
		if tr.Errors != nil && tr.Errors.Fails && (!leadErrors || ti != et) {
			others++
		}
	}
	return others
}

// checkSentence words the check of a metric on the latest experiment;
// lead starts it with the verdict ("Regression: ").
func checkSentence(h *analyze.History, t analyze.Track, mt analyze.MetricTrack, lead bool) string {
	l := mt.Latest
	nt := l.Night.Test
	latest := pointName(h, t, l.Point)
	what := trackText(t) + ": " + metricWords(mt.Metric)
	var s string
	switch l.Verdict {
	case analyze.CheckRegression:
		s = fmt.Sprintf("Regression: %s %s %% worse since %s (%s, not accepted) than the reference level (%s since %s)%s.",
			what, rel(nt.WorsePct), pointName(h, t, l.Night.Since), plural(nt.Nights, "experiment"), plural(nt.RefNights, "experiment"),
			pointName(h, t, l.Night.From), testText(nt))
	case analyze.CheckDrift:
		d := l.Night.Drift
		s = fmt.Sprintf("Drift: %s %s %% worse over the %s since %s, %s %% an experiment (Mann-Kendall p = %s, Theil-Sen slope), past the allowed %s %%.",
			what, rel(d.CumulativePct), plural(len(d.Points), "experiment"), pointName(h, t, d.Points[0]), signed(-sign(mt)*d.SlopePct),
			rel(d.P), rel(allowed(h)))
	case analyze.CheckUndecided:
		s = fmt.Sprintf("Undecided: %s of the latest experiment, %s: %s.", what, latest, undecidedText(h, t, l))
	case analyze.CheckImproved:
		s = fmt.Sprintf("Improved: %s %s %% better at %s than the reference level (%s since %s)%s; since %s. Not accepted, so the reference stays where it was: accept it (--accept %s) to guard the better level.",
			what, rel(-nt.WorsePct), latest, plural(nt.RefNights, "experiment"), pointName(h, t, l.Night.From), testText(nt),
			pointName(h, t, l.Night.ImprovedSince), h.Experiments[t.Points[l.Night.ImprovedSince].Experiment].Name)
	case analyze.CheckForming:
		s = fmt.Sprintf("Not guarded yet at %s: %s: the reference level is forming (%s of %d since %s); the noise between experiments is not known before, and one experiment's runs show only their own night's noise (all that compare's test of two experiments' runs sees), so nothing is decided and the gate passes.",
			latest, what, plural(len(l.Night.Reference)+len(l.Night.Outliers)+1, "experiment"), analyze.FormingNights, pointName(h, t, l.Night.From))
		if l.Night.From == l.Point {
			s = fmt.Sprintf("Not guarded yet at %s: the first experiment of %s (or the accepted one its reference starts again with): nothing before it to check it against.", latest, trackText(t))
		}
	default:
		switch {
		case nt == nil && l.Night.From == l.Point && h.Experiments[t.Points[l.Point].Experiment].Accepted != "":
			s = fmt.Sprintf("No change shown in the latest experiment, %s: it is accepted; the reference level starts again with it.", latest)
		case nt == nil:
			s = fmt.Sprintf("No change shown in the latest experiment, %s: the first of %s, nothing before it to check it against.", latest, trackText(t))
		case l.Night.Suspect:
			s = fmt.Sprintf("No change shown in the latest experiment, %s: %s %s %% worse than the reference level (%s since %s), beyond the allowed %s %%%s: suspect since %s, not yet shown to hold: one experiment may be a one-off (a busy machine that night); the next experiments decide, and the gate fails then if the change holds (at alpha %s).",
				latest, what, rel(nt.WorsePct), plural(nt.RefNights, "experiment"), pointName(h, t, l.Night.From), rel(allowed(h)), testText(nt), pointName(h, t, l.Night.Since), rel(h.Options.Alpha/5))
		case nt.WorsePct > allowed(h):
			s = fmt.Sprintf("No change shown in the latest experiment, %s: %s %s %% worse than the reference level (%s since %s), beyond the allowed %s %% but within the noise between experiments%s.",
				latest, what, rel(nt.WorsePct), plural(nt.RefNights, "experiment"), pointName(h, t, l.Night.From), rel(allowed(h)), testText(nt))
		default:
			s = fmt.Sprintf("No change shown in the latest experiment, %s: within the allowed regression (%s %%) of the reference level (%s since %s) on every metric checked.",
				latest, rel(allowed(h)), plural(nt.RefNights, "experiment"), pointName(h, t, l.Night.From))
		}
		if !lead {
			s = strings.TrimPrefix(s, "No change shown in the latest experiment, "+latest+": ")
		}
	}
	if n := l.Night; n.LookedBack && l.Verdict == analyze.CheckRegression && n.Test != nil {
		s += fmt.Sprintf(" Found looking back over the reference level: these experiments had each joined it, within the noise of the shorter reference before them; as a group they are worse than those before them (at alpha %s: alpha/5 over the %s of the level tried).",
			rel(n.Test.Alpha), plural(int(math.Round(h.Options.Alpha/5/n.Test.Alpha)), "split"))
	}
	if n := l.Night; n.RecoveredFrom >= 0 && l.Verdict != analyze.CheckRegression {
		s += fmt.Sprintf(" Recovered: the regression since %s ended at %s, back at the reference level.", pointName(h, t, n.RecoveredFrom), pointName(h, t, n.RecoveredAt))
	}
	if n := l.Night; len(n.Outliers) > 0 && l.Verdict != analyze.CheckForming {
		var rule []int
		for _, p := range n.Outliers {
			if !slices.Contains(n.OddNights, p) {
				rule = append(rule, p)
			}
		}
		if len(rule) > 0 {
			s += fmt.Sprintf(" Left out of the reference as outliers (more than %d robust standard deviations from its median): %s.", analyze.OutlierMADs, pointNames(h, t, rule))
		}
		if len(n.OddNights) > 0 {
			s += fmt.Sprintf(" Left out of the reference by the look-back that found a regression (more than %d robust standard deviations, never less than the runs' noise, from the median of the experiments before its step): %s.", analyze.OutlierMADs, pointNames(h, t, n.OddNights))
		}
	}
	if mt.Relative {
		s += fmt.Sprintf(" Checked relative to the control %s, measured in the same experiments: each experiment's value over the control's.", h.Options.Control)
	}
	return s
}

// ratioText words a value over the control's: 4 significant digits, as
// summary.json has it (sig).
func ratioText(x float64) string {
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// pointNames names the experiments of a track's points for a sentence.
func pointNames(h *analyze.History, t analyze.Track, pts []int) string {
	var names []string
	for _, p := range pts {
		names = append(names, pointName(h, t, p))
	}
	return strings.Join(names, ", ")
}

// sign is +1 when lower is better, -1 when higher is: the sign of a
// change in the metric's units that makes it worse.
func sign(mt analyze.MetricTrack) float64 {
	if mt.HigherIsBetter {
		return -1
	}
	return 1
}

// allowed is the largest change that is not a regression, percent.
func allowed(h *analyze.History) float64 {
	return max(h.Options.MaxRegressionPct, 100*h.Options.PracticalBand)
}

// testText words a night test's evidence: " (one-sided p = 0.003, up to
// 14.2 % at 95 %)" or, decided by the runs, compare's.
func testText(nt *analyze.NightTest) string {
	if math.IsNaN(nt.PWorse) {
		return ""
	}
	p := nt.PWorse
	if nt.WorsePct < 0 {
		p = nt.PBetter
	}
	noise := "between experiments"
	if nt.Floor {
		noise = "(the runs' own: the experiments varied less)"
	}
	return fmt.Sprintf(" (one-sided p = %s over the experiments' values, noise %s %% of the level %s with %s of freedom)", rel(p),
		rel(100*nt.SD/math.Abs(nt.RefMean)), noise, map[bool]string{true: "1 degree", false: strconv.Itoa(nt.DF) + " degrees"}[nt.DF == 1])
}

// undecidedText says why a check is undecided and how bad it could be.
func undecidedText(h *analyze.History, t analyze.Track, l *analyze.Latest) string {
	if l.Unusable != nil {
		return reasonLine(*l.Unusable)
	}
	nt := l.Night.Test
	if nt == nil {
		return "nothing to check it against"
	}
	if nt.DF == 0 {
		// Why compare may decide what history does not: history tests an
		// experiment against the spread between experiments (a machine
		// changes from night to night), compare the runs of two.
		return fmt.Sprintf("%s %% worse than the reference level, beyond the allowed %s %%, and the reference's %s cannot tell that from noise: the check weighs an experiment against the spread between experiments, which needs more of them; `loadverdict compare` weighs the runs of two experiments against each other, blind to a change of the machine between them",
			rel(nt.WorsePct), rel(allowed(h)), plural(nt.RefNights, "experiment"))
	}
	since := ""
	if l.Night.Since >= 0 && l.Night.Since != l.Point {
		since = fmt.Sprintf(" (the %s since %s together)", plural(nt.Nights, "experiment"), pointName(h, t, l.Night.Since))
	}
	return fmt.Sprintf("could be up to %s %% worse%s (%s %% estimated, beyond the allowed %s %%, but not significant: one-sided p = %s)",
		rel(nt.UpperPct), since, rel(nt.WorsePct), rel(allowed(h)), rel(nt.PWorse))
}

// noComparisonText says why nothing of the latest experiment could be
// checked (the no-comparison reason).
func noComparisonText(h *analyze.History) string {
	if h.Unread != "" {
		return fmt.Sprintf("no run of the latest experiment, %s, could be read (every input rejected or removed), so nothing of it was checked; the series shown ends at %s",
			h.Unread, expWhere(h.Experiments[len(h.Experiments)-1]))
	}
	return fmt.Sprintf("nothing of the latest experiment, %s, could be checked: none of its systems and settings ran (without errors) in the %s before it",
		expWhere(h.Experiments[len(h.Experiments)-1]), plural(len(h.Experiments)-1, "experiment"))
}

// noComparison tells whether a history met the no-comparison condition.
func noComparison(h *analyze.History) bool {
	for _, r := range h.Reasons {
		if r.Track < 0 {
			return true
		}
	}
	return false
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

// HistoryAllowed words the conditions a history met that would fail its
// gate but were allowed by name, one line each.
func HistoryAllowed(h *analyze.History) []string {
	var out []string
	for _, r := range h.Reasons {
		if r.Allowed {
			out = append(out, historyReasonText(h, r)+" (allowed)")
		}
	}
	return out
}

func historyReasonText(h *analyze.History, r analyze.HistoryGateReason) string {
	if r.Track < 0 {
		return string(r.Condition) + ": " + noComparisonText(h)
	}
	t := h.Tracks[r.Track]
	if r.Condition == gate.Errors {
		return string(r.Condition) + ": " + errorCheckText(h, t, *t.Errors)
	}
	mt := t.Metrics[r.Metric]
	s := checkSentence(h, t, mt, true)
	if i := strings.Index(s, ": "); i > 0 {
		s = s[i+2:]
	}
	return string(r.Condition) + ": " + s
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

// roleText words a point's roles in the history check: one role when
// every metric gives it the same, else each metric's.
func roleText(t analyze.Track, pi int) string {
	var parts []string
	same := true
	for mi, mt := range t.Metrics {
		r := "not used"
		if pi < len(mt.Check.Roles) && mt.Check.Roles[pi] != analyze.RoleUnused {
			r = string(mt.Check.Roles[pi])
		}
		parts = append(parts, metricWords(mt.Metric)+": "+r)
		if mi > 0 && r != strings.SplitN(parts[0], ": ", 2)[1] {
			same = false
		}
	}
	if len(parts) == 0 {
		return "–"
	}
	if same {
		return strings.SplitN(parts[0], ": ", 2)[1]
	}
	return strings.Join(parts, "; ")
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

// HistoryMarkdownAndHTML writes a series' report.md to md and report.html
// (index.html in a bucket) to page, both from one document built once:
// the HTML is the same document as one self-contained page (see MarkdownAndHTML).
func HistoryMarkdownAndHTML(md, page io.Writer, h *analyze.History, figs []Figure, generatedBy string) error {
	d := historyDoc(h, figs, generatedBy)
	if err := writeMarkdown(md, d); err != nil {
		return err
	}
	return writeHTML(page, d)
}

// historyDoc builds the document HistoryMarkdownAndHTML renders.
func historyDoc(h *analyze.History, figs []Figure, generatedBy string) *document {
	d := &document{Title: "Series " + h.Series}
	d.Lead = append(d.Lead, &paragraph{Runs: []inline{bold(HistoryHeadline(h))}, Class: "verdict"})
	d.Lead = append(d.Lead, historyGateLead(h)...)
	d.Lead = append(d.Lead, historySeriesLead(h)...)
	d.Sections = []*section{historyLatest(h), historyChanges(h, figs), historyExperiments(h), historyMethod(h, generatedBy)}
	return d
}

// textList is a list of sentences.
func textList(items []string) *list {
	l := &list{}
	for _, r := range items {
		l.Items = append(l.Items, listItem{Runs: []inline{tx(r)}})
	}
	return l
}

// historyGateLead says the gate's decision and its reasons, and what is
// allowed by name. History always gates (its regression conditions are
// guarded by default): the decision is said whether or not --fail-on was
// given.
func historyGateLead(h *analyze.History) []block {
	var bs []block
	if h.Failed {
		bs = append(bs, para(tx("Gate: "), bold("failed"), tx(".")), textList(HistoryGateReasons(h)))
	} else {
		bs = append(bs, para(tx("Gate: passed.")))
	}
	if al := HistoryAllowed(h); len(al) > 0 {
		bs = append(bs, para(tx("Allowed by name (--allow, gate.allow): these would fail the gate.")), textList(al))
	}
	return bs
}

// historySeriesLead says the accepted changes, the experiments and their
// order, and the control (or its absence).
func historySeriesLead(h *analyze.History) []block {
	var bs []block
	var acc []string
	for _, e := range h.Experiments {
		switch e.Accepted {
		case analyze.AcceptedByName:
			acc = append(acc, expWhere(e)+" (accepted)")
		case analyze.AcceptedBaseline:
			acc = append(acc, expWhere(e)+" (the pinned baseline: the experiments before it are not checked against)")
		}
	}
	if len(acc) > 0 {
		bs = append(bs, para(tx("Accepted changes: the reference level starts again at "+strings.Join(acc, ", ")+".")))
	}
	order := fmt.Sprintf("%s, ordered %s.", plural(len(h.Experiments), "experiment"), orderText(h.OrderBy))
	if h.Earlier > 0 {
		order += fmt.Sprintf(" The %s before them are left out (at most %d, the latest, are analysed).", plural(h.Earlier, "experiment"), analyze.MaxSeriesExperiments)
	}
	bs = append(bs, para(tx(order)))

	if h.Options.Control != "" {
		bs = append(bs, para(tx(fmt.Sprintf("Control: %s, measured in the same experiments; every other system is checked by its value over the control's in the same experiment, so that what the machine did that night cancels. The control's own values are shown, not gated.", h.Options.Control))))
	} else {
		bs = append(bs, para(tx("No control: a change of the machine between experiments (another tenant, a different host, a throttled CPU) cannot be told from a change of the code; the check allows for it only as noise between experiments. To tell them apart, measure an unchanged reference build or endpoint in the same job each night and name it: "),
			mono("--control LABEL"), tx(" (the manifest's "), mono("history.control"), tx(").")))
	}
	return bs
}

// historyLatest is the section on the latest experiment: each metric
// against its reference level, and the error rates.
func historyLatest(h *analyze.History) *section {
	latest := &section{Title: "The latest experiment", ID: "latest", Blocks: []block{
		para(tx(fmt.Sprintf("Each metric of the latest experiment (or, while a change is open, of the experiments since it began) against the reference level: "+
			"the experiments since the first or the latest accepted one, those in a regression, better ones (an improvement is reported and does not move the reference until accepted) and those with errors left out, "+
			"and, from %d experiments on, outliers (more than %d robust standard deviations from the median). "+
			"The test is over the experiments' log values: their difference from the reference's mean over the noise between experiments (the reference's standard deviation, allowing for the lag-1 autocorrelation between experiments, never below the runs' own noise), with Student's t. "+
			"The first %d experiments of a level form it: nothing is decided, the gate passes and says so. "+
			"One experiment beyond the allowed %s %% and the noise (one-sided p < %s) is suspect: no change shown, the next ones decide. "+
			"A regression is the experiments from a step on (the step sought among them and up to 3 before), significant at %s and worse by more than %s %%, the latest nearer the changed level than the reference; it fails every night until accepted or until an experiment is back at the reference (recovered).",
			8, analyze.OutlierMADs, analyze.FormingNights, rel(allowed(h)), rel(h.Options.Alpha), rel(h.Options.Alpha/5), rel(allowed(h)))))}}
	t := &tableBlock{Head: textRow("system and settings", "metric", "tested", "reference", "change", "up to (one-sided)", "p", "experiments", "verdict"),
		Numeric: []bool{false, false, true, true, true, true, true, true, false}, Class: "compare"}
	for _, tr := range h.Tracks {
		for i := range tr.Metrics {
			if mt := &tr.Metrics[i]; mt.Latest != nil {
				t.Rows = append(t.Rows, latestRow(h, tr, mt))
			}
		}
	}
	latest.Blocks = append(latest.Blocks, t)
	latest.Blocks = append(latest.Blocks, historyShownFrom(h)...)
	if et := historyErrorTable(h); et != nil {
		latest.Blocks = append(latest.Blocks, para(tx(fmt.Sprintf("Error rates: the latest experiment's runs against the reference's runs "+
			"(the experiments the throughput and latency check holds as its reference, those whose own error rate rose left out) by the tests of ")),
			mono("compare"), tx(fmt.Sprintf(": the exact permutation test over the runs' error rates, Fisher's exact test of the pooled requests where the runs are too few; "+
				"a rise fails the gate (errors) when its test shows it (two-sided p < %s, alpha/5: a stable night fails at most 1 %% of the time) and its estimate is beyond the ±%s pts band.", rel(h.ErrorAlpha), rel(h.Options.ErrorBandPts)))),
			et)
	}
	return latest
}

// historyShownFrom says, for each gated metric whose latest experiment
// was tested alone against a formed reference (no change open), how
// large a regression these experiments can show by its second night
// (analyze.Latest.ShownFromPct); nothing when there is none.
func historyShownFrom(h *analyze.History) []block {
	l := &list{}
	for _, tr := range h.Tracks {
		for i := range tr.Metrics {
			mt := &tr.Metrics[i]
			x := shownFrom(mt)
			if x == nil {
				continue
			}
			nt := mt.Latest.Night.Test
			l.Items = append(l.Items, listItem{Runs: []inline{tx(fmt.Sprintf("%s: %s: from %s %% (the noise between experiments %s %% with %s).",
				trackText(tr), metricWords(mt.Metric), rel(*x), rel(100*nt.SD/nt.RefMean), plural(nt.DF, "degree")+" of freedom"))}})
		}
	}
	if len(l.Items) == 0 {
		return nil
	}
	words := "What these experiments can show: a regression is shown no earlier than its second experiment, and only when the two are worse than the reference by more than the figure below on average (the allowed regression, or what the test of two experiments holds significant at alpha/5 on the noise between experiments, whichever is larger); a smaller one is more likely missed than shown by then."
	if h.Options.Control == "" {
		words += " A control measured in the same job each night takes the machine's share out of that noise."
	}
	return []block{para(tx(words)), l}
}

// shownFrom is the latest experiment's analyze.Latest.ShownFromPct on a
// gated metric; nil otherwise.
func shownFrom(mt *analyze.MetricTrack) *float64 {
	if !mt.Gated || mt.Latest == nil {
		return nil
	}
	return mt.Latest.ShownFromPct
}

// latestRow is a metric's row of the latest experiment's table.
func latestRow(h *analyze.History, tr analyze.Track, mt *analyze.MetricTrack) [][]inline {
	l := mt.Latest
	r := textRow(trackText(tr), metricWords(mt.Metric), "–", "–", "–", "–", "–", "–", "")
	if nt := l.Night.Test; nt != nil && l.Unusable == nil {
		value := func(x float64) string { return metricValue(mt.Metric, x) }
		if mt.Relative {
			// A value over the control's: a ratio, not the metric's unit.
			value = func(x float64) string { return ratioText(x) + " × control" }
		}
		r[2], r[3] = []inline{tx(value(nt.Mean))}, []inline{tx(value(nt.RefMean))}
		r[4] = []inline{tx(fmt.Sprintf("%s %% worse", signed(nt.WorsePct)))}
		if !math.IsNaN(nt.UpperPct) {
			r[5] = []inline{tx(fmt.Sprintf("%s %%", signed(nt.UpperPct)))}
			r[6] = []inline{tx(rel(nt.PWorse))}
		}
		r[7] = []inline{tx(fmt.Sprintf("%d/%d", nt.Nights, nt.RefNights))}
	}
	verdict := latestVerdict(h, tr, l)
	switch {
	case !mt.Gated:
		r[8] = []inline{tx(verdict + " (shown, not gated)")}
	case checkRank(l.Verdict) <= 2:
		r[8] = []inline{bold(verdict)}
	default:
		r[8] = []inline{tx(verdict)}
	}
	return r
}

// latestVerdict words a metric's verdict on the latest experiment.
func latestVerdict(h *analyze.History, tr analyze.Track, l *analyze.Latest) string {
	switch l.Verdict {
	case analyze.CheckRegression:
		return "regression since " + pointName(h, tr, l.Night.Since)
	case analyze.CheckDrift:
		return fmt.Sprintf("drift: %s %% over %s", signed(l.Night.Drift.CumulativePct), plural(len(l.Night.Drift.Points), "experiment"))
	case analyze.CheckUndecided:
		return "undecided: " + undecidedText(h, tr, l)
	case analyze.CheckNoChange:
		return "no change shown"
	}
	return string(l.Verdict)
}

// historyChanges is the section on the change points, with the figures.
// With a control, each other system's change points over the control
// come first: what the check reads, the machine's moves cancelled.
func historyChanges(h *analyze.History, figs []Figure) *section {
	changes := &section{Title: "Change points", ID: "changes"}
	item := func(tr analyze.Track, metric, over string, c analyze.Change) listItem {
		at := h.Experiments[tr.Points[c.At].Experiment]
		return listItem{Runs: []inline{tx(fmt.Sprintf("%s: %s%s %s%s at %s; E-Divisive p = %s, Welch p over experiments = %s, %s before and %s after.",
			trackText(tr), metricWords(metric), over, changeText(c.Comparison), changeCIText(c.Comparison), expWhere(at),
			rel(c.P), rel(c.WelchP), plural(len(c.Before), "experiment"), plural(len(c.After), "experiment")))}}
	}
	unconfirmed := func(tr analyze.Track, metric, over string, n int) listItem {
		return listItem{Runs: []inline{tx(fmt.Sprintf("%s: %s%s: %s found by E-Divisive but not confirmed (the experiments or the runs on either side do not differ enough).",
			trackText(tr), metricWords(metric), over, plural(n, "change point")))}}
	}
	changes.Blocks = append(changes.Blocks, para(tx("Where a level changed, looking back over every experiment: E-Divisive, confirmed over the experiments by Welch's t-test and over the runs by the tests of "),
		mono("compare"), tx(fmt.Sprintf(", at alpha %s; the runs show one night's noise, not the nights'. "+
			"This is not what the gate reads: the check of the latest experiment (above) holds it to the noise between experiments, a regression at alpha/5, so a change point the check does not show is a place to look, not a regression shown.", rel(h.Options.Alpha)))))
	n := 0
	if ctl := h.Options.Control; ctl != "" {
		over := " over the control"
		rl := &list{}
		for _, tr := range h.Tracks {
			for _, mt := range tr.Metrics {
				if !mt.Relative {
					continue
				}
				for _, c := range mt.RelativeChanges {
					n++
					rl.Items = append(rl.Items, item(tr, mt.Metric, over, c))
				}
				if mt.RelativeUnconfirmed > 0 {
					rl.Items = append(rl.Items, unconfirmed(tr, mt.Metric, over, mt.RelativeUnconfirmed))
				}
			}
		}
		changes.Blocks = append(changes.Blocks, para(tx(fmt.Sprintf("Over the control (%s): each experiment's value over the control's in the same experiment, what the check above reads; a move of the machine that the control shares cancels, so these are the systems' own changes.", ctl))))
		if len(rl.Items) == 0 {
			changes.Blocks = append(changes.Blocks, para(tx("None found over the control.")))
		} else {
			changes.Blocks = append(changes.Blocks, rl)
		}
		changes.Blocks = append(changes.Blocks, para(tx("As measured: each system's own values, a move of the machine in them (the control's own track shows it).")))
	}
	cl := &list{}
	for _, tr := range h.Tracks {
		for _, mt := range tr.Metrics {
			for _, c := range mt.Changes {
				n++
				cl.Items = append(cl.Items, item(tr, mt.Metric, "", c))
			}
			if mt.Unconfirmed > 0 {
				cl.Items = append(cl.Items, unconfirmed(tr, mt.Metric, "", mt.Unconfirmed))
			}
		}
	}
	switch {
	case n == 0:
		changes.Blocks = append(changes.Blocks, para(tx("None confirmed.")))
	case len(cl.Items) == 0:
		changes.Blocks = append(changes.Blocks, para(tx("None found as measured.")))
	}
	if len(cl.Items) > 0 {
		changes.Blocks = append(changes.Blocks, cl)
	}
	for _, f := range figs {
		changes.Blocks = append(changes.Blocks, &figureBlock{Figure: f})
	}
	return changes
}

// historyExperiments is the section with a table of the experiments
// per system and settings.
func historyExperiments(h *analyze.History) *section {
	exps := &section{Title: "Experiments", ID: "experiments"}
	for _, tr := range h.Tracks {
		et := &tableBlock{Head: textRow("#", "experiment", "commit", "version", "date", "runs", "throughput (95 % CI)", "mean latency", "p99 latency", "error rate", "status", "history check"),
			Numeric: []bool{true, false, false, false, false, true, true, true, true, true, false, false}, Class: "runs"}
		// With a control, each gated metric's value over the control's
		// that night: what the check reads.
		var over []int
		for mi, mt := range tr.Metrics {
			if mt.Relative && mt.Gated {
				over = append(over, mi)
				et.Head = append(et.Head, []inline{tx(metricWords(mt.Metric) + " over the control")})
				et.Numeric = append(et.Numeric, true)
			}
		}
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
				pointValueText(string(gate.ErrorRate), p.ErrorRate), statusText(p), roleText(tr, pi))
			if e.Meta.Commit != "" {
				r[2] = []inline{mono(e.Meta.Commit)}
			}
			for _, mi := range over {
				x := "–"
				if rs := tr.Metrics[mi].Ratios; pi < len(rs) && rs[pi] != nil {
					x = ratioText(*rs[pi])
				}
				r = append(r, []inline{tx(x)})
			}
			et.Rows = append(et.Rows, r)
		}
		exps.Blocks = append(exps.Blocks, &section{Title: trackText(tr), Blocks: []block{et}})
	}
	return exps
}

// historyMethod is the section on the method.
func historyMethod(h *analyze.History, generatedBy string) *section {
	method := &section{Title: "Method", ID: "method", Blocks: []block{para(
		tx(fmt.Sprintf("Per system and settings, each experiment's values are over its steady runs (all its runs, marked, when it has no steady state): the mean for throughput, mean latency and the error rate, the median of the runs' values for p99, with 95 %% CIs over the runs. "+
			"An experiment with an error rate of %s %% or more is not used; one that differs from both neighbours in the same direction (the tests of ", rel(100*h.Options.ErrorRateSevere))),
		mono("compare"), tx(") is a one-off disturbance, marked and not used. "),
		tx(fmt.Sprintf("Change points: E-Divisive means (Matteson & James 2014) over the runs, splitting only between experiments, at least 2 experiments a side, with its permutation test at alpha %s; a change point is reported when Welch's t-test over the experiments' values and ", rel(h.Options.Alpha))),
		mono("compare"), tx(fmt.Sprintf("'s tests over the runs (exact Mann-Whitney, the Hodges-Lehmann ratio's CI clear of ±%s %%) both confirm it. ", rel(100*h.Options.PracticalBand))),
		tx(fmt.Sprintf("The history check takes the experiments in order, each seeing only those before it, as a nightly job does (see \"The latest experiment\"); a drift is a Mann-Kendall trend over the reference level (p < %s, its variance corrected for the lag-1 autocorrelation: Yue & Wang 2004) that a line fits at least as well as one step, whose Theil-Sen change passes %s %%. "+
			"The gate reads throughput under a closed workload model, mean and p99 latency under an open one. docs/STATISTICS.md, \"History\", gives the details.", rel(h.Options.Alpha/2), rel(allowed(h)))))}}
	if generatedBy != "" {
		method.Blocks = append(method.Blocks, para(tx("Made by "+generatedBy+".")))
	}
	return method
}

// HistorySummaryMarkdown writes a series' summary.md, for a pull request
// or a chat message: the headline, the gate, the latest regressions and
// change points, and where report.md is (not a link); at most 25 lines and
// SummaryMDBytes bytes, values from the input shortened (shorten).
func HistorySummaryMarkdown(w io.Writer, h *analyze.History, reportLink string) error {
	lines := []string{"### Series " + text(shorten(h.Series, cellRunes)), "", "**" + text(shorten(HistoryHeadline(h), proseRunes)) + "**", ""}
	if h.Failed {
		lines = append(lines, "Gate: **failed**.")
		for _, r := range HistoryGateReasons(h) {
			lines = append(lines, "- "+text(shorten(r, proseRunes)))
		}
	} else {
		lines = append(lines, "Gate: passed.")
	}
	if al := HistoryAllowed(h); len(al) > 0 {
		lines = append(lines, "", "Allowed by name (--allow, gate.allow): these would fail the gate.")
		for _, r := range al {
			lines = append(lines, "- "+text(shorten(r, proseRunes)))
		}
	}
	lines = append(lines, "")
	// With a control, the other systems' change points over it first
	// (the machine's moves cancelled), then the control's own (the
	// machine's).
	var cps, machine []string
	for _, t := range h.Tracks {
		for _, mt := range t.Metrics {
			cs, over, to := mt.Changes, "", &cps
			switch {
			case mt.Relative:
				cs, over = mt.RelativeChanges, " over the control"
			case t.Control:
				over, to = " (the machine)", &machine
			}
			for _, c := range cs {
				*to = append(*to, fmt.Sprintf("- %s: %s%s %s at %s (p = %s)", text(shorten(trackText(t), cellRunes)), metricWords(mt.Metric), over, changeText(c.Comparison),
					text(shorten(expWhere(h.Experiments[t.Points[c.At].Experiment]), cellRunes)), rel(c.P)))
			}
		}
	}
	cps = append(cps, machine...)
	if len(cps) > 0 {
		lines = append(lines, "Change points (a look back over every experiment, not what the gate reads):")
		if len(cps) > 10 {
			cps = append(cps[:10], fmt.Sprintf("- and %d more", len(cps)-10))
		}
		lines = append(lines, cps...)
		lines = append(lines, "")
	}
	lines = append(lines, plural(len(h.Experiments), "experiment")+". "+fullReportLine(reportLink, "every experiment, figures"))
	// Cut lines before the link until 25 lines and SummaryMDBytes fit.
	size := 0
	for _, l := range lines {
		size += len(l) + 1
	}
	for len(lines) > 25 || size > SummaryMDBytes {
		n := len(lines) - 2
		size -= len(lines[n]) + 1
		lines = append(lines[:n], lines[n+1])
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
	// Allow is Gate.Allow (the conditions allowed by name, --allow and
	// the latest manifest's gate.allow), kept where it was first written.
	Allow   []string             `json:"allow"`
	Options SeriesSummaryOptions `json:"options"`
	// Control is the control system every other is checked relative to
	// (--control, history.control); null without one.
	Control *string `json:"control"`
	// Unread is the experiment after the latest shown of which no run
	// could be read (analyze.History.Unread); absent when none.
	Unread string `json:"unread,omitempty"`
}

// SeriesSummaryExp is one experiment of a series.
type SeriesSummaryExp struct {
	Name string       `json:"name"`
	Meta analyze.Meta `json:"meta"`
	// Accepted: "accept" (--accept, history.accept), "baseline"
	// (history.baseline) or "".
	Accepted string `json:"accepted,omitempty"`
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
	// Errors is the error check of the latest experiment (null when the
	// track did not run in it).
	Errors *SeriesSummaryErrors `json:"errors"`
}

// SeriesSummaryErrors is the history's error check of a track on the
// latest experiment (analyze.ErrorCheck): its runs' error rates (side a)
// against the reference experiments' runs (side b).
type SeriesSummaryErrors struct {
	Experiment string `json:"experiment"`
	// Verdict: rose, fell, no-change or undecided; Undecided why
	// (no-reference, accepted, not-tested, no-requests, overdispersed).
	Verdict   string `json:"verdict"`
	Undecided string `json:"undecided,omitempty"`
	// Fails: the check meets the gate condition errors.
	Fails bool `json:"fails"`
	// Reference are the reference experiments, ReferenceBy how they were
	// chosen (sequential, earlier).
	Reference   []string `json:"reference"`
	ReferenceBy string   `json:"reference_by"`
	// Comparison is compare's error test (null when not made).
	Comparison *SummaryErrorCompare `json:"comparison"`
}

// SeriesSummaryPoint is one experiment's values of a track.
type SeriesSummaryPoint struct {
	Experiment      string                        `json:"experiment"`
	Status          string                        `json:"status"`
	Runs            int                           `json:"runs"`
	SteadyRuns      int                           `json:"steady_runs"`
	Values          map[string]SeriesSummaryValue `json:"values"`
	DisturbedMetric string                        `json:"disturbed_metric,omitempty"`
	// Relative is, with a control, each metric's value over the
	// control's that night (what the check reads; null where either is
	// missing): null without a control and on the control's own track.
	Relative *map[string]*float64 `json:"relative"`
	// Check is the point's role in the history check, per metric
	// (reference, accepted, regression, improved; absent: not used).
	Check map[string]string `json:"check"`
}

// SeriesSummaryValue is a value with its CI.
type SeriesSummaryValue struct {
	Value *float64    `json:"value"`
	CI    [2]*float64 `json:"ci"`
}

// SeriesSummaryMetric is one metric of a track: its change points and
// the latest experiment's check.
type SeriesSummaryMetric struct {
	Metric string `json:"metric"`
	// Gated tells whether the gate and the headline read this metric.
	Gated       bool                  `json:"gated"`
	Changes     []SeriesSummaryChange `json:"changes"`
	Unconfirmed int                   `json:"unconfirmed"`
	// RelativeChanges are the change points over the control (each
	// experiment's value over the control's), with the count refused:
	// null without a control and on the control's own track.
	RelativeChanges     []SeriesSummaryChange `json:"relative_changes"`
	RelativeUnconfirmed *int                  `json:"relative_unconfirmed"`
	Latest              *SeriesSummaryLatest  `json:"latest"`
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

// SeriesSummaryLatest is the history check of the latest experiment.
type SeriesSummaryLatest struct {
	Experiment string `json:"experiment"`
	// Verdict: regression, drift, improved, no-change or undecided.
	Verdict string `json:"verdict"`
	// Since is the experiment an open regression (or undecided stretch)
	// began at; From where the reference level began; Reference its
	// experiments.
	Since     *string  `json:"since"`
	From      string   `json:"reference_from"`
	Reference []string `json:"reference"`
	// Outliers are the reference's experiments left out as outliers;
	// ImprovedSince the first of a better stretch (an improvement not
	// accepted, not the reference); RecoveredFrom and RecoveredAt the
	// latest regression of the level that ended and where (null: none);
	// Relative is true when the check is over the values over the
	// control's.
	Outliers      []string `json:"outliers"`
	ImprovedSince *string  `json:"improved_since"`
	RecoveredFrom *string  `json:"recovered_from"`
	RecoveredAt   *string  `json:"recovered_at"`
	Relative      bool     `json:"relative_to_control"`
	// Tested are the experiments tested (the latest, or those since Since).
	Tested    []string `json:"tested"`
	ChangePct *float64 `json:"worse_pct"`
	UpperPct  *float64 `json:"worse_upper_pct"`
	PValue    *float64 `json:"p_value"`
	NoisePct  *float64 `json:"noise_pct"`
	DF        int      `json:"df"`
	// ShownFromPct is how much worse than the reference two experiments
	// must be on average for a regression to be shown by its second
	// (analyze.ShownFromPct): on a gated metric tested alone against a
	// formed reference, no change open; null otherwise.
	ShownFromPct *float64 `json:"shown_from_pct"`
	// Alpha is the level PValue is held to (alpha, or half of it once
	// the drift test runs); Suspect is true on a night beyond the allowed
	// regression but not significant: no change shown, the next decides.
	Alpha   *float64 `json:"alpha"`
	Suspect bool     `json:"suspect"`
	// LookedBack is true on the night a regression was found by looking
	// back over the reference level (with a control): its experiments had
	// joined the reference; Alpha is then alpha/5 over the splits tried.
	LookedBack bool                `json:"looked_back,omitempty"`
	Drift      *SeriesSummaryDrift `json:"drift"`
	Reasons    []string            `json:"reasons"`
}

// SeriesSummaryDrift is the trend test of a history check.
type SeriesSummaryDrift struct {
	Experiments   []string `json:"experiments"`
	Tau           float64  `json:"tau"`
	PValue        float64  `json:"p_value"`
	SlopePct      float64  `json:"slope_pct"`
	CumulativePct float64  `json:"worse_cumulative_pct"`
	Drift         bool     `json:"drift"`
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
		Headline: HistoryHeadline(h), OrderBy: h.OrderBy, Earlier: h.Earlier, Experiments: []SeriesSummaryExp{}, Tracks: []SeriesSummaryTrack{}, Unread: h.Unread,
		Options: SeriesSummaryOptions{Alpha: h.Options.Alpha, PracticalBand: h.Options.PracticalBand, MinRuns: h.Options.MinRuns,
			Permutations: stats.DefaultPermutations, Seed: h.Options.Seed}}
	if h.Options.Control != "" {
		s.Control = ptr2(h.Options.Control)
	}
	for _, e := range h.Experiments {
		s.Experiments = append(s.Experiments, SeriesSummaryExp{Name: e.Name, Meta: e.Meta, Accepted: e.Accepted})
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
				Values: map[string]SeriesSummaryValue{}, DisturbedMetric: p.DisturbedMetric, Check: map[string]string{}}
			for _, mt := range t.Metrics {
				if pi < len(mt.Check.Roles) && mt.Check.Roles[pi] != analyze.RoleUnused {
					sp.Check[mt.Metric] = string(mt.Check.Roles[pi])
				}
			}
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
				if !mt.Relative {
					continue
				}
				if sp.Relative == nil {
					sp.Relative = &map[string]*float64{}
				}
				var x *float64
				if pi < len(mt.Ratios) && mt.Ratios[pi] != nil {
					x = ptr(sig(*mt.Ratios[pi], 4))
				}
				(*sp.Relative)[mt.Metric] = x
			}
			add(string(gate.ErrorRate), p.ErrorRate)
			st.Points = append(st.Points, sp)
		}
		for _, mt := range t.Metrics {
			summaryChanges := func(cs []analyze.Change) []SeriesSummaryChange {
				out := []SeriesSummaryChange{}
				for _, c := range cs {
					out = append(out, SeriesSummaryChange{Experiment: h.Experiments[t.Points[c.At].Experiment].Name, Regression: c.Regression,
						ChangePct: round(100*(c.Comparison.Deciding.Ratio-1), 1), CI: pctCI(c.Comparison.Deciding.CI), PValue: pSig(c.Comparison.PValue),
						EDivisiveP: sig(c.P, 6), WelchP: sig(c.WelchP, 6), Before: names(t, c.Before), After: names(t, c.After)})
				}
				return out
			}
			sm := SeriesSummaryMetric{Metric: mt.Metric, Gated: mt.Gated, Changes: summaryChanges(mt.Changes), Unconfirmed: mt.Unconfirmed}
			if mt.Relative {
				sm.RelativeChanges, sm.RelativeUnconfirmed = summaryChanges(mt.RelativeChanges), ptr(mt.RelativeUnconfirmed)
			}
			if l := mt.Latest; l != nil {
				sm.Latest = seriesLatest(h, t, mt, names)
			}
			st.Metrics = append(st.Metrics, sm)
		}
		if c := t.Errors; c != nil {
			se := &SeriesSummaryErrors{Experiment: h.Experiments[t.Points[c.Point].Experiment].Name, Verdict: string(c.Verdict),
				Undecided: c.Undecided, Fails: c.Fails, Reference: names(t, c.Reference), ReferenceBy: c.ReferenceBy}
			if c.Undecided != analyze.ErrorsNoReference && c.Undecided != analyze.ErrorsAccepted {
				e := summaryErrorCompare(c.Comparison)
				se.Comparison = &e
			}
			st.Errors = se
		}
		s.Tracks = append(s.Tracks, st)
	}
	// The gate as applied: the policy analyze decided it by, the
	// regression it allowed.
	s.Gate = NewSummaryGate(h.Policy, h.Options.MaxRegressionPct, allowed(h), h.Failed)
	s.Allow = s.Gate.Allow
	for _, r := range h.Reasons {
		msg := historyReasonText(h, r)
		if r.Allowed {
			msg += " (allowed)"
		}
		s.Gate.Reasons = append(s.Gate.Reasons, SummaryGateReason{Condition: string(r.Condition), Fails: r.Fails, Allowed: r.Allowed, Message: msg})
	}
	return s
}

// seriesLatest is the summary of a metric's check on the latest experiment.
func seriesLatest(h *analyze.History, t analyze.Track, mt analyze.MetricTrack, names func(analyze.Track, []int) []string) *SeriesSummaryLatest {
	l := mt.Latest
	n := l.Night
	sl := &SeriesSummaryLatest{Experiment: h.Experiments[t.Points[l.Point].Experiment].Name, Verdict: string(l.Verdict),
		Reference: names(t, n.Reference), Tested: []string{}, Reasons: []string{}}
	if len(n.Reference) > 0 {
		sl.From = h.Experiments[t.Points[n.From].Experiment].Name
	}
	if n.Since >= 0 {
		sl.Since = ptr2(h.Experiments[t.Points[n.Since].Experiment].Name)
	}
	sl.Suspect = n.Suspect && l.Unusable == nil
	sl.LookedBack = n.LookedBack && l.Verdict == analyze.CheckRegression && l.Unusable == nil
	sl.Outliers, sl.Relative = names(t, n.Outliers), mt.Relative
	if n.ImprovedSince >= 0 {
		sl.ImprovedSince = ptr2(h.Experiments[t.Points[n.ImprovedSince].Experiment].Name)
	}
	if n.RecoveredFrom >= 0 {
		sl.RecoveredFrom = ptr2(h.Experiments[t.Points[n.RecoveredFrom].Experiment].Name)
		sl.RecoveredAt = ptr2(h.Experiments[t.Points[n.RecoveredAt].Experiment].Name)
	}
	if l.Unusable != nil {
		sl.Reasons = append(sl.Reasons, reasonLine(*l.Unusable))
	} else if l.Verdict == analyze.CheckUndecided {
		sl.Reasons = append(sl.Reasons, undecidedText(h, t, l))
	}
	if nt := n.Test; nt != nil && l.Unusable == nil {
		if n.Since >= 0 {
			for i := n.Since; i <= n.Point; i++ {
				if i == n.Since || i == n.Point || mt.Check.Roles[i] == analyze.RoleRegression {
					sl.Tested = append(sl.Tested, h.Experiments[t.Points[i].Experiment].Name)
				}
			}
		} else {
			sl.Tested = append(sl.Tested, sl.Experiment)
		}
		sl.ChangePct = ptr(round(nt.WorsePct, 2))
		if !math.IsNaN(nt.UpperPct) {
			sl.UpperPct, sl.PValue = ptr(round(nt.UpperPct, 2)), ptr(sig(nt.PWorse, 6))
			sl.NoisePct = ptr(round(100*nt.SD/math.Abs(nt.RefMean), 2))
		}
		sl.DF, sl.Alpha = nt.DF, ptr(nt.Alpha)
		if x := shownFrom(&mt); x != nil {
			sl.ShownFromPct = ptr(round(*x, 2))
		}
	}
	if d := n.Drift; d != nil {
		sl.Drift = &SeriesSummaryDrift{Experiments: names(t, d.Points), Tau: sig(d.Tau, 6), PValue: sig(d.P, 6), SlopePct: round(d.SlopePct, 3),
			CumulativePct: round(d.CumulativePct, 2), Drift: d.Drift}
	}
	return sl
}

func ptr2(s string) *string { return &s }

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
