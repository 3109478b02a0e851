package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/stats"
)

// CompareFormats are the formats Compare writes.
var CompareFormats = []string{"text", "markdown", "json"}

// Compare writes what `loadverdict compare` prints, in benchstat's habit:
// the headline; per pair of systems and settings a table with one row per
// metric (throughput, mean latency, p99 latency where measured, max
// latency where a difference can be claimed, error rate): the baseline's
// value, the other's, the change with its CI, p and the runs of each
// side, `~` where no difference can be claimed; the reasons once, as
// numbered footnotes; then the thresholds and the gate. format is "text",
// "markdown" or "json" (the comparisons, thresholds and gate as in
// summary.json).
func Compare(w io.Writer, v *analyze.Verdict, format string) error {
	switch format {
	case "json":
		return compareJSON(w, v)
	case "markdown":
		_, err := io.WriteString(w, strings.Join(compareMarkdown(v, -1, 3), "\n")+"\n")
		return err
	case "text":
		return compareText(w, v)
	}
	return fmt.Errorf("report: unknown compare format %q: want one of %s", format, strings.Join(CompareFormats, ", "))
}

// CompareDoc is compare's --format json: the headline, the comparisons,
// thresholds and gate as in summary.json, and which system is the
// baseline (old) and which the other (new).
type CompareDoc struct {
	Experiment  string           `json:"experiment"`
	Headline    string           `json:"headline"`
	Old         string           `json:"old"`
	New         string           `json:"new"`
	Comparisons []SummaryCompare `json:"comparisons"`
	// ErrorComparisons compare the error rates (summary.json's).
	ErrorComparisons []SummaryErrorCompare `json:"error_comparisons,omitempty"`
	Thresholds       []SummaryCheck        `json:"thresholds"`
	Gate             SummaryGate           `json:"gate"`
}

func compareJSON(w io.Writer, v *analyze.Verdict) error {
	s := NewSummary(v, "")
	d := CompareDoc{Experiment: s.Experiment, Headline: s.Headline, Old: v.Options.Baseline, Comparisons: s.Comparisons,
		ErrorComparisons: s.ErrorComparisons, Thresholds: s.Thresholds, Gate: s.Gate}
	for _, sys := range v.Systems {
		if sys.Label != d.Old {
			d.New = sys.Label
			break
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}

// table is the comparisons of one pair of systems at one settings.
type table struct {
	a, b     string // b is the baseline (or the other side)
	based    bool   // b is the verdict's baseline
	settings analyze.Settings
	pair     int // the comparisons' Pair
	rows     []row
}

// row is one metric of a table, in words; notes are its footnotes' texts.
type row struct {
	metric, old, new, delta, ci, p, runs string
	notes                                []note
	comparison                           int    // index in Verdict.Comparisons, -1 for the error rate
	errComparison                        int    // index in Verdict.ErrorComparisons, -1 for other rows
	aggregate                            string // how its values sum up runs (analyze.Aggregate*)
}

// note is one footnote of a row: its text, shared by the rows it applies
// to, and what differs between them: the runs per side that would settle
// the row (0: none said).
type note struct {
	text string
	need int
}

// tables gathers the comparisons into tables, in the order of the
// comparisons.
func tables(v *analyze.Verdict) []table {
	var out []table
	find := func(c analyze.Comparison) *table {
		for i := range out {
			if out[i].pair == c.Pair {
				return &out[i]
			}
		}
		out = append(out, table{a: c.A, b: c.B, based: c.B == v.Options.Baseline, settings: c.Settings, pair: c.Pair})
		return &out[len(out)-1]
	}
	for i, c := range v.Comparisons {
		t := find(c)
		if c.Metric == analyze.MetricLatMaxMs && c.Verdict != analyze.AFaster && c.Verdict != analyze.BFaster {
			continue // the maximum is shown where a difference can be claimed
		}
		r := compareRow(c)
		r.comparison = i
		t.rows = append(t.rows, r)
	}
	for i := range out {
		t := &out[i]
		for j, e := range v.ErrorComparisons {
			if e.Pair == t.pair {
				r := errorRow(e, v.Options.Level)
				r.errComparison = j
				t.rows = append(t.rows, r)
			}
		}
	}
	return out
}

// errorRow words an error comparison as the error-rate row of a table:
// the sides' error rates, the difference in points where one is claimed,
// its CI and p, and footnotes for a test that is not the one over runs.
func errorRow(e analyze.ErrorComparison, level float64) row {
	r := row{metric: "error rate", old: metricValue("error_rate", e.BRate), new: metricValue("error_rate", e.ARate), delta: "~",
		p: relP(e.PValue), runs: strconv.Itoa(e.BRuns) + "/" + strconv.Itoa(e.ARuns), comparison: -1, errComparison: -1, aggregate: e.Aggregate}
	switch e.Verdict {
	case analyze.AMoreErrors:
		r.delta = signed(e.DiffPts) + " pts worse"
	case analyze.BMoreErrors:
		r.delta = signed(e.DiffPts) + " pts better"
	}
	if e.Lo != nil && e.Hi != nil {
		r.ci = signed(*e.Lo) + " to " + signed(*e.Hi) + " pts"
	}
	for _, n := range errorNotes(e, level) {
		r.notes = append(r.notes, note{text: n})
	}
	return r
}

// errorNotes words how an error comparison was tested, when not by the
// exact permutation test over runs, and why it is undecided.
func errorNotes(e analyze.ErrorComparison, level float64) []string {
	var notes []string
	switch {
	case e.Untested == analyze.ErrorUntestedNoRequests:
		notes = append(notes, "error rates not tested: a run attempted no request")
	case e.Untested == analyze.ErrorUntestedOverdispersed:
		notes = append(notes, "error rates not tested: too few runs for the permutation test over runs, and a side's runs vary beyond chance, so their pooled requests cannot be tested either")
	case e.Method == "":
		notes = append(notes, "error rates could not be tested")
	case e.Method == analyze.ErrorTestFisherPooled && e.AErrors+e.BErrors > 0: // without errors its assumption is moot
		notes = append(notes, "error rates: too few runs for the permutation test over runs; Fisher's exact test of the pooled requests, which assumes a side's runs differ by chance only")
	case e.Method == analyze.ErrorTestPermutationMC:
		notes = append(notes, fmt.Sprintf("error rates: permutation p from %d random relabellings of the runs", stats.PermutationExactLimit))
	}
	if e.Method != "" && e.Verdict == analyze.Inconclusive {
		notes = append(notes, fmt.Sprintf("error rates: the %s %% CI reaches across the ±%s pts band", rel(100*level), rel(e.BandPts)))
	}
	return notes
}

// aggregatesLegend names the aggregate of each metric the comparison
// tables show, once: "values: mean of runs (req/s, mean latency, error
// rate); median of runs (p99 latency)"; "" without comparisons.
func aggregatesLegend(v *analyze.Verdict) string {
	groups := map[string][]string{}
	var order []string
	for _, t := range tables(v) {
		for _, r := range t.rows {
			a := aggregateText(r.aggregate)
			if _, ok := groups[a]; !ok {
				order = append(order, a)
			}
			if !slices.Contains(groups[a], r.metric) {
				groups[a] = append(groups[a], r.metric)
			}
		}
	}
	if len(order) == 0 {
		return ""
	}
	var parts []string
	for _, a := range order {
		parts = append(parts, a+" ("+strings.Join(groups[a], ", ")+")")
	}
	return "values: " + strings.Join(parts, "; ")
}

// compareRow words one comparison as a row: b's value, a's, the change of
// a against b with its CI, p, the runs of b and a.
func compareRow(c analyze.Comparison) row {
	r := row{metric: metricWords(c.Metric), old: metricValue(c.Metric, c.BMean), new: metricValue(c.Metric, c.AMean),
		delta: "~", p: relP(c.PValue), runs: strconv.Itoa(c.BRuns) + "/" + strconv.Itoa(c.ARuns), errComparison: -1, aggregate: c.Aggregate}
	if c.Metric == analyze.MetricRPS {
		r.metric = "req/s"
		r.old, r.new = num(c.BMean), num(c.AMean)
	}
	switch c.Verdict {
	case analyze.AFaster:
		r.delta = signed(100*(c.Deciding.Ratio-1)) + " % better"
	case analyze.BFaster:
		r.delta = signed(100*(c.Deciding.Ratio-1)) + " % worse"
	}
	// The interval of the ratio that decides: Hodges-Lehmann when a test
	// ran, else none.
	if e := c.Estimate; e != nil && !math.IsInf(e.Hi, 0) {
		r.ci = signed(100*(e.Lo-1)) + " to " + signed(100*(e.Hi-1)) + " %"
	}
	for _, x := range c.Reasons {
		n := note{text: footnoteText(x)}
		if x.Code == analyze.ReasonUnsettled {
			n.need = x.RunsNeeded
		}
		r.notes = append(r.notes, n)
	}
	if lo := leftOutText(c); lo != "" {
		r.notes = append(r.notes, note{text: "left out: " + lo})
	}
	return r
}

// footnoteText words a reason as a footnote shared by rows: the figures a
// row shows (its CI and p) and the runs that would settle it (footnotes
// gathers them) are left out, so that one reason is one footnote.
func footnoteText(r analyze.Reason) string {
	switch r.Code {
	case analyze.ReasonWelch:
		return fmt.Sprintf("%d vs %d runs are below the exact test's reach (smallest attainable p %s): Welch's t-test on the runs' logs decides, its p and CI shown",
			r.ARuns, r.BRuns, minPText(r))
	case analyze.ReasonEquivalent:
		return fmt.Sprintf("no difference: the %s %% CI lies inside the ±%s %% practical band", rel(100*r.Level), rel(100*r.Band))
	case analyze.ReasonUnsettled:
		if r.Significant {
			return fmt.Sprintf("significant, but the %s %% CI reaches into the ±%s %% practical band", rel(100*r.Level), rel(100*r.Band))
		}
		return fmt.Sprintf("runs vary too much: the %s %% CI reaches across the edge of the ±%s %% practical band", rel(100*r.Level), rel(100*r.Band))
	case analyze.ReasonNotSignificant:
		return fmt.Sprintf("not significant: p >= alpha %s", rel(r.Alpha))
	case analyze.ReasonInsideBand:
		return fmt.Sprintf("significant, but the %s %% CI reaches into the ±%s %% practical band", rel(100*r.Level), rel(100*r.Band))
	case analyze.ReasonTooFewRuns:
		return fmt.Sprintf("too few runs for the exact test to reach alpha %s (smallest p 2/C(a+b,a))", rel(r.Alpha))
	}
	return reasonLine(r)
}

// footnotes numbers the distinct notes of rows in order of appearance and
// returns each row's markers ("(1,2)") and the notes, each once: the runs
// that would settle its rows said after it ("; about 9 runs per side
// would settle it", or per row when they differ).
func footnotes(rows []row) (marks []string, notes []string) {
	index := map[string]int{}
	type needOf struct {
		metric string
		n      int
	}
	needs := map[int][]needOf{}
	for _, r := range rows {
		var is []int
		for _, n := range r.notes {
			i, ok := index[n.text]
			if !ok {
				notes = append(notes, n.text)
				i = len(notes)
				index[n.text] = i
			}
			if n.need > 0 {
				needs[i] = append(needs[i], needOf{r.metric, n.need})
			}
			is = append(is, i)
		}
		slices.Sort(is)
		var ns []string
		for _, i := range slices.Compact(is) {
			ns = append(ns, strconv.Itoa(i))
		}
		m := ""
		if len(ns) > 0 {
			m = "(" + strings.Join(ns, ",") + ")"
		}
		marks = append(marks, m)
	}
	for i, ns := range needs {
		same := true
		for _, x := range ns {
			same = same && x.n == ns[0].n
		}
		if same {
			notes[i-1] += fmt.Sprintf("; about %d runs per side would settle %s", ns[0].n, map[bool]string{true: "it", false: "them"}[len(ns) == 1])
			continue
		}
		var parts []string
		for _, x := range ns {
			parts = append(parts, fmt.Sprintf("%d (%s)", x.n, x.metric))
		}
		notes[i-1] += "; about " + joinAnd(parts) + " runs per side would settle them"
	}
	return marks, notes
}

// title names a table: "new vs old (the baseline) at 16 connections, ...".
func (t table) title() string {
	b := t.b
	if t.based {
		b += " (the baseline)"
	}
	return fmt.Sprintf("%s vs %s at %s", t.a, b, settingsText(t.settings))
}

func compareText(w io.Writer, v *analyze.Verdict) error {
	var b strings.Builder
	ts := tables(v)
	fmt.Fprintf(&b, "%s\n\n", Headline(v))
	if len(ts) == 0 {
		fmt.Fprintln(&b, "No comparison: no setting has runs of both systems.")
	}
	var all []row
	for _, t := range ts {
		all = append(all, t.rows...)
	}
	marks, notes := footnotes(all)
	k := 0
	for _, t := range ts {
		fmt.Fprintln(&b, t.title())
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "\t%s\t%s\tdelta\t%s %% CI\tp\truns\t\n", t.b, t.a, rel(100*v.Options.Level))
		for _, r := range t.rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.metric, r.old, r.new, r.delta, r.ci, r.p, r.runs, marks[k])
			k++
		}
		tw.Flush()
		fmt.Fprintln(&b)
	}
	for i, n := range notes {
		fmt.Fprintf(&b, "(%d) %s\n", i+1, n)
	}
	if l := aggregatesLegend(v); l != "" {
		fmt.Fprintln(&b, l)
	}
	if len(notes) > 0 || aggregatesLegend(v) != "" {
		fmt.Fprintln(&b)
	}
	if len(v.Thresholds) > 0 {
		fmt.Fprintln(&b, "thresholds")
		writeChecks(&b, v)
		fmt.Fprintln(&b)
	}
	if gateAsked(v) {
		fmt.Fprintln(&b, "gate: "+gateSummary(v, 0))
		for _, r := range v.Gate.Reasons {
			if r.Fails || r.Allowed {
				fmt.Fprintln(&b, "  - "+map[bool]string{true: "allowed: "}[r.Allowed]+gateReasonShort(v, r))
			}
		}
	}
	// tabwriter pads the last cells: no line ends in blanks.
	lines := strings.Split(b.String(), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n"))
	return err
}

// gateReasonShort words a gate reason as compare's text gives it: a
// threshold's by its expression and system only, its line above saying
// the rest; a regression without the figures its row shows.
func gateReasonShort(v *analyze.Verdict, r analyze.GateReason) string {
	switch {
	case r.Check >= 0 && r.Check < len(v.Thresholds):
		c := v.Thresholds[r.Check]
		return fmt.Sprintf("%s: %s (%s), above", gateConditionWords(r.Condition), thresholdOf(v, c).Expr, c.System)
	case r.Condition == gate.Regression:
		c := v.Comparisons[r.Comparison]
		return fmt.Sprintf("regression: %s of %s is %s %% worse than %s at %s, beyond the allowed %s %%",
			metricWords(c.Metric), c.A, rel(r.WorsePct), c.B, settingsText(c.Settings), rel(r.MaxPct))
	}
	return gateReasonText(v, r)
}

// gateConditionWords names a threshold's gate condition as its reason
// line does.
func gateConditionWords(c gate.Condition) string {
	switch c {
	case gate.ThresholdFailed:
		return "threshold failed"
	case gate.Unknown:
		return "unknown"
	}
	return string(c)
}

// checkMarks are the marks of threshold statuses in compare's text, as
// k6 prints its thresholds: ✓ passed, ✗ failed; marginal and unknown are
// neither, and say so.
var checkMarks = map[analyze.ThresholdStatus]string{
	analyze.ThresholdPass: "✓", analyze.ThresholdFail: "✗",
	analyze.ThresholdMarginal: "~ marginal:", analyze.ThresholdUnknown: "? unknown:",
}

// writeChecks writes a line per threshold check: its mark, the
// expression, the system, the settings (when the checks' settings
// differ) and the value.
func writeChecks(w io.Writer, v *analyze.Verdict) {
	var all []analyze.Settings
	for _, c := range v.Thresholds {
		all = append(all, c.Settings)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range v.Thresholds {
		mark, ok := checkMarks[c.Status]
		if !ok {
			mark = string(c.Status) + ":"
		}
		at := ""
		if d := distinctSettings(c.Settings, all); d != "" {
			at = "\t" + d
		}
		fmt.Fprintf(tw, "  %s %s\t%s%s\t%s\n", mark, thresholdOf(v, c).Expr, c.System, at, checkValue(v, c))
	}
	tw.Flush()
}

// compareMarkdown renders the headline, the comparison tables, their
// footnotes, the thresholds and the gate (with at most gateReasons of
// its reasons) as markdown lines; maxRows >= 0 keeps at most that many
// rows of the tables and of the thresholds together (summary.md), saying
// how many were left out.
func compareMarkdown(v *analyze.Verdict, maxRows, gateReasons int) []string {
	return append(markdownBlocks(verdictLead(v, gateReasons, nil)), markdownBlocks(compareBlocks(v, maxRows, nil))...)
}

// verdictLead is the verdict's lead: when a gate was asked for, its
// state first (passed, failed, or passed with conditions allowed), with
// at most gateReasons reasons; then nums (the numbers table, if any);
// then the verdict's paragraph, the headline.
func verdictLead(v *analyze.Verdict, gateReasons int, nums []block) []block {
	var out []block
	if gateAsked(v) {
		state := "passed"
		switch {
		case v.Gate.Failed:
			state = "failed"
		case len(AllowedReasons(v)) > 0:
			state = "allowed"
		}
		out = append(out, &paragraph{Runs: []inline{bold("Gate: " + state), tx(strings.TrimPrefix(strings.TrimPrefix(gateSummary(v, gateReasons), "passed"), "failed"))},
			Class: "gate " + state})
	}
	out = append(out, nums...)
	return append(out, &paragraph{Runs: []inline{bold("Verdict:"), tx(" " + Headline(v))}, Class: "verdict"})
}

// tableBuilds counts the builds of the comparison and numbers tables
// (tests: summary.md builds each once, however many rows it cuts).
var tableBuilds atomic.Int64

// compareBlocks makes the comparisons one table with their footnotes, then
// the thresholds; maxRows as in compareMarkdown. When marks is not nil,
// it gets the footnote marks of each row of a comparison's lead metric
// (analyze.LeadMetric), by the
// comparison's index in v.Comparisons.
func compareBlocks(v *analyze.Verdict, maxRows int, marks map[int]string) []block {
	tableBuilds.Add(1)
	var out []block
	ts := tables(v)
	nChecks := len(v.Thresholds)
	rows := flatRows(ts)
	keepRows, keepChecks := len(rows), nChecks
	if maxRows >= 0 {
		keepRows, keepChecks = splitRows(maxRows, len(rows), nChecks)
	}
	if len(ts) == 0 {
		out = append(out, para(tx("No comparison: no setting has runs of both systems.")))
	}
	if len(rows) > 0 {
		out = append(out, comparisonTable(v, ts, rows, keepRows, marks)...)
	}
	if nChecks > 0 {
		out = append(out, thresholdsTable(v, keepChecks))
	}
	return out
}

// comparisonTable is the one table of the comparison rows (the first
// keepRows of rows, the rows of ts) with its title when every row
// compares the same pair, and its footnotes; marks as in compareBlocks.
func comparisonTable(v *analyze.Verdict, ts []table, rows []row, keepRows int, marks map[int]string) []block {
	var out []block
	where, distinct := rowPlaces(ts)
	rowMarks, ns := footnotes(rows[:keepRows])
	onePair := true
	for _, t := range ts {
		onePair = onePair && t.a == ts[0].a && t.b == ts[0].b
	}
	level := rel(100 * v.Options.Level)
	tb := &tableBlock{Head: textRow("", "side b", "side a", "delta", level+" % CI", "p", "runs b/a"),
		Numeric: []bool{false, true, true, false, false, true, true}, Class: "compare"}
	if onePair {
		title := ts[0].title()
		if len(ts) > 1 {
			title, _, _ = strings.Cut(title, " at ")
		}
		out = append(out, para(bold(title)))
		tb.Head = textRow("", ts[0].b, ts[0].a, "delta", level+" % CI", "p", "runs")
	}
	for i, r := range rows[:keepRows] {
		metric := r.metric
		switch {
		case !onePair:
			metric = r.metric + ", " + where[i]
		case len(ts) > 1:
			metric = r.metric + ", " + distinct[i]
		}
		delta := r.delta
		if rowMarks[i] != "" {
			delta += " " + rowMarks[i]
		}
		if c := r.comparison; marks != nil && c >= 0 && v.Comparisons[c].Leads {
			marks[r.comparison] = rowMarks[i]
		}
		tb.Rows = append(tb.Rows, textRow(metric, r.old, r.new, delta, r.ci, r.p, r.runs))
	}
	if keepRows < len(rows) {
		tb.Rows = append(tb.Rows, moreRow(len(rows)-keepRows, "row", 7))
	}
	out = append(out, tb)
	if len(ns) > 0 {
		n := &notes{}
		for _, x := range ns {
			n.Items = append(n.Items, []inline{tx(x)})
		}
		out = append(out, n)
	}
	return out
}

// rowPlaces returns, for every row of ts in order, its table's title and
// the settings that set its table apart from the others.
func rowPlaces(ts []table) (where, distinct []string) {
	var all []analyze.Settings
	for _, t := range ts {
		all = append(all, t.settings)
	}
	for _, t := range ts {
		title, d := t.title(), distinctSettings(t.settings, all)
		for range t.rows {
			where = append(where, title)
			distinct = append(distinct, d)
		}
	}
	return where, distinct
}

// thresholdsTable is the table of the first keep threshold checks.
func thresholdsTable(v *analyze.Verdict, keep int) *tableBlock {
	tb := &tableBlock{Head: textRow("threshold", "system", "settings", "status", "value"), Class: "thresholds"}
	for _, c := range v.Thresholds[:keep] {
		status := tx(string(c.Status))
		if c.Status == analyze.ThresholdFail {
			status = bold("fail")
		}
		tb.Rows = append(tb.Rows, [][]inline{{mono(thresholdOf(v, c).Expr)}, {tx(c.System)}, {tx(settingsText(c.Settings))},
			{status}, {tx(checkValue(v, c))}})
	}
	if keep < len(v.Thresholds) {
		tb.Rows = append(tb.Rows, moreRow(len(v.Thresholds)-keep, "check", 5))
	}
	return tb
}

// flatRows are the rows of ts, in order.
func flatRows(ts []table) []row {
	var rows []row
	for _, t := range ts {
		rows = append(rows, t.rows...)
	}
	return rows
}

// splitRows shares maxRows between nRows comparison rows and nChecks
// threshold rows: the larger gives up rows first, the thresholds when
// even (as many of each as can be).
func splitRows(maxRows, nRows, nChecks int) (keepRows, keepChecks int) {
	d := max(nRows+nChecks-max(maxRows, 0), 0)
	if nRows > nChecks {
		a := min(d, nRows-nChecks)
		nRows, d = nRows-a, d-a
	} else {
		a := min(d, nChecks-nRows)
		nChecks, d = nChecks-a, d-a
	}
	return nRows - d/2, nChecks - (d+1)/2
}

// moreRow is the last row of a cut table of cols columns: how many of
// what are in the full report.
func moreRow(n int, what string, cols int) [][]inline {
	r := make([][]inline, cols)
	r[0] = []inline{tx(fmt.Sprintf("… %d more %s in the full report", n, pluralWord(n, what)))}
	return r
}

// pluralWord is word, with an s unless n is 1.
func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// distinctSettings words only the settings of s that differ among all,
// e.g. "50 connections" in a ladder of connection counts.
func distinctSettings(s analyze.Settings, all []analyze.Settings) string {
	return strings.TrimSuffix(settingsText(pickSettings(s, all, true)), ", ")
}

// pickSettings keeps the settings of s that differ among all (differ), or
// those that are the same in all (!differ).
func pickSettings(s analyze.Settings, all []analyze.Settings, differ bool) analyze.Settings {
	keep := func(f func(analyze.Settings) string) bool {
		for _, o := range all {
			if f(o) != f(s) {
				return differ
			}
		}
		return !differ
	}
	var k analyze.Settings
	if keep(func(x analyze.Settings) string {
		if x.Endpoint == nil {
			return "-"
		}
		return "=" + *x.Endpoint
	}) {
		k.Endpoint = s.Endpoint
	}
	if keep(func(x analyze.Settings) string { return keyPart(x.TargetRPS) }) {
		k.TargetRPS = s.TargetRPS
	}
	if keep(func(x analyze.Settings) string { return keyPart(x.Connections) }) {
		k.Connections = s.Connections
	}
	if keep(func(x analyze.Settings) string { return keyPart(x.Threads) }) {
		k.Threads = s.Threads
	}
	if keep(func(x analyze.Settings) string { return keyPart(x.PlannedDurationS) }) {
		k.PlannedDurationS = s.PlannedDurationS
	}
	if keep(func(x analyze.Settings) string { return x.Tool + x.LoadModel }) {
		k.Tool = s.Tool
	}
	return k
}

// keyPart formats an optional setting for comparing settings.
func keyPart[T int32 | float64](p *T) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}
