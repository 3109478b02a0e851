package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/stats"
)

// Figure is a rendered figure the report shows: written next to
// report.md (Name), inlined in report.html (Image, of MediaType).
type Figure struct {
	Name  string // file name, e.g. "throughput.png"
	Title string
	Alt   string // one-sentence description
	// Image is the figure as report.html inlines it (SVG for crisp
	// lines, or the PNG), of MediaType "image/svg+xml" or "image/png";
	// nil leaves the figure out of report.html.
	Image     []byte
	MediaType string
}

// Meta is what the report says about how it was made.
type Meta struct {
	GeneratedBy string   // e.g. "loadverdict v0.1.0"
	Inputs      []string // the inputs, in the order given
	// Rejected are inputs that could not be read, with why.
	Rejected []Rejected
	// Removed are inputs whose upload was deleted, so their tables were
	// removed from the analysis.
	Removed []string
	// Parts are the parts of the runs merged at analysis, by the merged
	// run's run_id (summary.json's runs[].parts).
	Parts map[string][]Part
	// Copies are runs left out because another run of the experiment is
	// the same test in another encoding (summary.json's copies).
	Copies []Copy
	// OverTime and Errors count the latency-over-time and errors-over-time
	// figures drawn of those that could be (plots bounds them).
	OverTime, Errors FigureCount
}

// FigureCount is how many figures of a kind were drawn, of Total.
type FigureCount struct{ Drawn, Total int }

// leftOut words figures of a kind not drawn, or nil when none was left.
func (c FigureCount) leftOut(what, rest string) *paragraph {
	if c.Drawn >= c.Total {
		return nil
	}
	return para(tx(fmt.Sprintf("%s is drawn for %d of %d %s; %s.", what, c.Drawn, c.Total, rest,
		"the others' figures are in summary.json and the tables")))
}

// Part is a run of one source that analysis merged with others into one
// run (several load generators driving one test).
type Part struct {
	RunID  string `json:"run_id"`
	Source string `json:"source"`
	Index  int32  `json:"index"`
}

// Copy is a run left out of the analysis as a copy of another (Of): the
// same requests in another encoding, or the tool's own summary of them.
type Copy struct {
	RunID    string `json:"run_id"`
	Source   string `json:"source"`
	Index    int32  `json:"index"`
	Of       Part   `json:"of"`
	Requests int64  `json:"requests"`
	// Summary is true when the copy is a summary (no per-request samples).
	Summary bool `json:"summary"`
}

// Rejected is an input that could not be ingested.
type Rejected struct {
	Source string
	Error  string
}

// reportBuilder builds the report's document from a verdict.
type reportBuilder struct {
	v    *analyze.Verdict
	figs []Figure
	all  []analyze.Settings // the settings of every group
	said map[string]bool    // clauses the answers said, which findings need not repeat
	meta Meta
}

// at words settings by what tells them apart from the other groups'
// ("50 connections"), in full when there is nothing else.
func (b *reportBuilder) at(s analyze.Settings) string {
	if d := distinctSettings(s, b.all); d != "" {
		return d
	}
	return settingsText(s)
}

// common words the settings every group shares, "" when there is one
// setting (at words it in full then).
func (b *reportBuilder) common() string {
	if len(b.all) < 2 || distinctSettings(b.all[0], b.all) == "" {
		return ""
	}
	return strings.TrimSuffix(settingsText(pickSettings(b.all[0], b.all, false)), ", ")
}

// newReport builds the document both report.md and report.html render.
func newReport(v *analyze.Verdict, figs []Figure, meta Meta) *document {
	b := &reportBuilder{v: v, figs: figs, said: map[string]bool{}, meta: meta}
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			b.all = append(b.all, g.Settings)
		}
	}
	d := &document{Title: "loadverdict: " + v.Experiment, Lead: verdictLead(v, len(v.Gate.Reasons), numbersBlocks(v, -1))}
	d.Sections = []*section{b.answers(), b.systems(), b.endpoints(), b.errorsSection(), b.thresholds(), b.findings(), b.warmup(), b.latency(), b.capacity(), b.appendix(meta)}
	d.Sections = slices.DeleteFunc(d.Sections, func(s *section) bool { return s == nil })
	return d
}

// answers gives the questions a reader comes with their short answers,
// then the comparisons as one table whose notes give the reasons.
func (b *reportBuilder) answers() *section {
	v := b.v
	sec := &section{Title: "What the data can and cannot support", ID: "answers"}
	marks := map[int]string{}
	table := compareBlocks(v, -1, marks)
	items := b.comparisonAnswers(marks)
	items = append(items, b.warmupAnswers()...)
	for _, s := range v.Systems {
		for _, w := range s.WithinRunWarmup {
			if w.Instability != nil {
				items = append(items, listItem{Runs: []inline{tx(fmt.Sprintf("Is %s steady within run seq %d? ", s.Label, w.Seq)), bold("No"), tx(": " + instabilityText(w.Instability) + ".")}})
			}
		}
	}
	for _, s := range v.Systems {
		if s.Capacity.Saturated {
			word := "Saturated"
			if s.Capacity.Saturation != nil && s.Capacity.Saturation.Kind == analyze.SaturationOpenShortfall {
				word = "Overloaded"
			}
			items = append(items, listItem{Runs: []inline{tx(fmt.Sprintf("Is %s at capacity? ", s.Label)), bold(word), tx(": " + saturationText(s.Capacity.Saturation) + ".")}})
			b.said[saturationText(s.Capacity.Saturation)] = true
		}
	}
	if c := b.common(); c != "" {
		sec.Blocks = append(sec.Blocks, para(tx("Every run: "+c+".")))
	}
	if len(items) > 0 {
		sec.Blocks = append(sec.Blocks, &list{Items: items})
	}
	sec.Blocks = append(sec.Blocks, table...)
	if len(v.Comparisons) > 0 {
		sec.Blocks = append(sec.Blocks, para(tx(fmt.Sprintf("%s. delta: Hodges-Lehmann change over steady runs, %s %% CI; p: Mann-Whitney U (alpha %s, practical band ±%s %%); ~: no claimable difference.",
			aggregatesLegend(v), rel(100*v.Options.Level), rel(v.Options.Alpha), rel(100*v.Options.PracticalBand)))))
	}
	return sec
}

// comparisonAnswers asks, once per pair of systems and settings, whether
// one is faster than the other, on the metric that says "faster" there:
// throughput for a closed model, latency where the rate is fixed (open
// model), the throughput then being the rate asked for. marks are the
// note marks of the comparisons table, by comparison.
func (b *reportBuilder) comparisonAnswers(marks map[int]string) []listItem {
	var items []listItem
	seen := map[string]bool{}
	for i, c := range b.v.Comparisons {
		if !c.Leads {
			continue
		}
		key := c.A + "\x00" + c.B + "\x00" + settingsText(c.Settings)
		if seen[key] {
			continue
		}
		seen[key] = true
		q := tx(fmt.Sprintf("Is %s faster than %s at %s? ", c.A, c.B, b.at(c.Settings)))
		items = append(items, listItem{Runs: append([]inline{q}, comparisonAnswer(c, marks[i])...)})
	}
	return items
}

// comparisonAnswer is the answer to whether side A of c is faster; mark
// is its note mark in the comparisons table, if any.
func comparisonAnswer(c analyze.Comparison, mark string) []inline {
	r := c.Deciding.Ratio
	runs := runsText(c)
	why := ""
	if mark != "" {
		why = ", notes " + mark
	}
	switch c.Verdict {
	case analyze.AFaster:
		return []inline{bold("Yes"), tx(fmt.Sprintf(": %s the %s%s, p = %s (%s).", timesText(r), metricWords(c.Metric), estimateCI(c, false), relP(c.PValue), runs))}
	case analyze.BFaster:
		return []inline{bold("No, " + c.B + " is"), tx(fmt.Sprintf(": %s the %s%s, p = %s (%s).", timesText(1/r), metricWords(c.Metric), estimateCI(c, true), relP(c.PValue), runs))}
	case analyze.NoDifference:
		return []inline{bold("No difference"), tx(fmt.Sprintf(" (%s ratio %s, %s%s).", metricWords(c.Metric), rel(r), runs, why))}
	}
	need := ""
	if c.RunsNeeded != nil && !slices.ContainsFunc(c.Reasons, func(r analyze.Reason) bool { return r.Code == analyze.ReasonUnsettled }) {
		need = fmt.Sprintf("; about %d steady runs per system would settle it", *c.RunsNeeded)
	}
	return []inline{bold("Not established"), tx(fmt.Sprintf(": %s ratio %s (%s%s)%s.", metricWords(c.Metric), rel(r), runs, why, need))}
}

// warmupAnswers asks of every group whether its system has warmed up.
func (b *reportBuilder) warmupAnswers() []listItem {
	var items []listItem
	for _, s := range b.v.Systems {
		for _, g := range s.Groups {
			q := tx(fmt.Sprintf("Has %s warmed up at %s? ", s.Label, b.at(g.Settings)))
			items = append(items, listItem{Runs: append([]inline{q}, warmupAnswer(g)...)})
		}
	}
	return items
}

// warmupAnswer is the answer to whether g's system has warmed up.
func warmupAnswer(g analyze.Group) []inline {
	w := g.Warmup
	from := ""
	if w.SteadyFromSeq != nil {
		from = fmt.Sprintf("; steady from run seq %d", *w.SteadyFromSeq)
	}
	switch {
	case w.Class == stats.ClassNoSteadyState && w.Direction == stats.Worsening:
		return []inline{bold("No, it is still getting slower"), tx(": " + warmupDetail(w) + ".")}
	case w.Class == stats.ClassNoSteadyState:
		return []inline{bold("No"), tx(": " + warmupDetail(w) + ".")}
	case w.Class == stats.ClassInsufficientData:
		return []inline{bold("Cannot tell"), tx(" from " + plural(len(g.Runs), "run") + ".")}
	case w.Class == stats.ClassFlat:
		return []inline{bold("No change seen"), tx(fmt.Sprintf(" across its %s (%s%s).", plural(len(g.Runs), "run"), warmupDetail(w), from))}
	case w.Class == stats.ClassSlowdown:
		return []inline{bold("It got slower"), tx(" and then stayed level (" + warmupDetail(w) + from + ").")}
	}
	return []inline{bold(string(w.Class)), tx(" (" + warmupDetail(w) + from + ").")}
}

// systems is the table of systems and their groups.
func (b *reportBuilder) systems() *section {
	p99 := false
	for _, s := range b.v.Systems {
		for _, g := range s.Groups {
			p99 = p99 || g.Rep.LatP99Ms != nil
		}
	}
	latHead := "mean / max latency, ms"
	if p99 {
		latHead = "mean / p99 / max latency, ms"
	}
	t := &tableBlock{Head: textRow("system", "settings", "runs (seq)", "warm-up across runs", "steady req/s (95 % CI)", latHead),
		Numeric: []bool{false, false, false, false, true, true}}
	for _, s := range b.v.Systems {
		for _, g := range s.Groups {
			steady := "-"
			if g.Steady.RPSMean != nil {
				steady = fmtF(*g.Steady.RPSMean, 2)
				if g.Steady.RPSCI != nil {
					steady += fmt.Sprintf(" (%s-%s)", fmtF(g.Steady.RPSCI.Lo, 2), fmtF(g.Steady.RPSCI.Hi, 2))
				}
			}
			src := "steady: mean / median"
			if p99 {
				src = "steady: mean / median / median"
			}
			if !g.Rep.FromSteady {
				src = "last run"
			}
			lat := fmt.Sprintf("%s / %s (%s)", optF(g.Rep.LatMeanMs), optF(g.Rep.LatMaxMs), src)
			if p99 {
				lat = fmt.Sprintf("%s / %s / %s (%s)", optF(g.Rep.LatMeanMs), optF(g.Rep.LatP99Ms), optF(g.Rep.LatMaxMs), src)
			}
			excl := ""
			if len(g.Excluded) > 0 {
				var seqs []int32
				for _, e := range g.Excluded {
					seqs = append(seqs, e.Run.Seq)
				}
				excl = fmt.Sprintf("; excluded: %s", seqList(seqs))
			}
			t.Rows = append(t.Rows, textRow(s.Label, b.at(g.Settings), fmt.Sprintf("%d (%s%s)", len(g.Runs), seqList(g.Seqs), excl),
				string(g.Warmup.Class), steady, lat))
		}
	}
	return &section{Title: "Systems", ID: "systems", Blocks: []block{t}}
}

// estimateCI words the deciding estimate's interval, e.g. ", 95 % CI
// 1.02-1.16"; inverted for the side b; "" when there is none.
func estimateCI(c analyze.Comparison, invert bool) string {
	e := c.Estimate
	if e == nil || math.IsInf(e.Hi, 1) {
		return ""
	}
	lo, hi := e.Lo, e.Hi
	if invert {
		lo, hi = 1/e.Hi, 1/e.Lo
	}
	return fmt.Sprintf(", %s %% CI %s", rel(100*e.Level), ratioRange(lo, hi))
}

func seqList(seqs []int32) string {
	parts := make([]string, len(seqs))
	for i, s := range seqs {
		parts[i] = strconv.Itoa(int(s))
	}
	return strings.Join(parts, ", ")
}

func fmtF(x float64, d int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return strconv.FormatFloat(round(x, d), 'f', -1, 64)
}

// relP formats an optional p-value, "-" for none.
func relP(p *float64) string {
	if p == nil {
		return "-"
	}
	return rel(*p)
}

func optF(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmtF(*p, 2)
}

func optI(p *int32) string {
	if p == nil {
		return "-"
	}
	return strconv.Itoa(int(*p))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
