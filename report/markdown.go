package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/stats"
)

// Figure is a rendered figure the report links to, written next to it.
type Figure struct {
	Name  string // file name, e.g. "throughput.png"
	Title string
	Alt   string // one-sentence description
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
}

// Part is a run of one source that analysis merged with others into one
// run (several load generators driving one test).
type Part struct {
	RunID  string `json:"run_id"`
	Source string `json:"source"`
	Index  int32  `json:"index"`
}

// Rejected is an input that could not be ingested.
type Rejected struct {
	Source string
	Error  string
}

// Markdown writes the verdict as GitHub-flavoured markdown: the headline
// first, then the answers, systems, comparisons, warm-up, latency,
// capacity and methodology sections with their figures, and an appendix
// with every run. Everything taken from input is escaped and renders as
// plain text.
func Markdown(w io.Writer, v *analyze.Verdict, figs []Figure, meta Meta) error {
	bw := bufio.NewWriter(w)
	m := &md{w: bw, v: v, figs: figs}
	m.all(meta)
	if m.err != nil {
		return m.err
	}
	return bw.Flush()
}

type md struct {
	w    *bufio.Writer
	v    *analyze.Verdict
	figs []Figure
	err  error
}

func (m *md) p(format string, a ...any) {
	if m.err == nil {
		_, m.err = fmt.Fprintf(m.w, format, a...)
	}
}

func (m *md) all(meta Meta) {
	v := m.v
	m.p("# loadverdict: %s\n\n", text(v.Experiment))
	m.p("**Verdict:** %s\n\n", text(Headline(v)))
	if len(v.Options.FailOn) > 0 {
		m.p("**Gate:** %s\n\n", text(gateSummary(v, len(v.Gate.Reasons))))
	}
	m.answers()
	m.systems()
	m.endpoints()
	m.comparisons()
	m.thresholds()
	m.warmup()
	m.latency()
	m.capacity()
	m.findings()
	m.appendix(meta)
}

// answers gives the questions a reader comes with their short answers.
func (m *md) answers() {
	v := m.v
	m.p("## What the data can and cannot support\n\n")
	seen := map[string]bool{}
	for _, c := range v.Comparisons {
		if c.Metric != "rps" {
			continue
		}
		key := c.A + "\x00" + c.B + "\x00" + settingsText(c.Settings)
		if seen[key] {
			continue
		}
		seen[key] = true
		q := fmt.Sprintf("Is %s faster than %s at %s?", text(c.A), text(c.B), text(settingsText(c.Settings)))
		r := decidingRatio(c)
		switch c.Verdict {
		case analyze.AFaster:
			m.p("- %s **Yes**: %sx the throughput%s, p = %s (%d vs %d runs).\n", q, rel(r), estimateCI(c, false), relP(c.PValue), c.ARuns, c.BRuns)
		case analyze.BFaster:
			m.p("- %s **No, %s is**: %sx the throughput%s, p = %s (%d vs %d runs).\n", q, text(c.B), rel(1/r), estimateCI(c, true), relP(c.PValue), c.ARuns, c.BRuns)
		case analyze.NoDifference:
			m.p("- %s **No difference** (ratio %s; %s).\n", q, rel(r), text(strings.Join(reasonLines(c.Reasons, false), "; ")))
		default:
			need := ""
			if c.RunsNeeded != nil && !slices.ContainsFunc(c.Reasons, func(r analyze.Reason) bool { return r.Code == analyze.ReasonUnsettled }) {
				need = fmt.Sprintf(" About %d steady runs per system would settle it.", *c.RunsNeeded)
			}
			m.p("- %s **Not established.** The runs show a ratio of %s, but: %s.%s\n", q, rel(r), text(strings.Join(reasonLines(c.Reasons, false), "; ")), need)
		}
	}
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			q := fmt.Sprintf("Has %s warmed up at %s?", text(s.Label), text(settingsText(g.Settings)))
			switch g.Warmup.Class {
			case stats.ClassNoSteadyState:
				m.p("- %s **No**: %s.\n", q, text(warmupDetail(g.Warmup)))
			case stats.ClassInsufficientData:
				m.p("- %s **Cannot tell** from %s.\n", q, plural(len(g.Runs), "run"))
			case stats.ClassFlat:
				m.p("- %s **No change seen** across its %s (%s).\n", q, plural(len(g.Runs), "run"), text(warmupDetail(g.Warmup)))
			case stats.ClassLevelShift:
				m.p("- %s **Its level changed instead** (not a warm-up): %s.\n", q, text(warmupDetail(g.Warmup)))
			case stats.ClassSlowdown:
				m.p("- %s **It got slower** (%s).\n", q, text(warmupDetail(g.Warmup)))
			default:
				m.p("- %s **%s** (%s).\n", q, text(string(g.Warmup.Class)), text(warmupDetail(g.Warmup)))
			}
		}
	}
	for _, s := range v.Systems {
		for _, w := range s.WithinRunWarmup {
			if w.Instability != nil {
				m.p("- Is %s steady within run seq %d? **No**: %s.\n", text(s.Label), w.Seq, text(instabilityText(w.Instability)))
			}
		}
	}
	for _, s := range v.Systems {
		if s.Capacity.Saturated {
			word := "Saturated"
			if s.Capacity.Saturation != nil && s.Capacity.Saturation.Kind == analyze.SaturationOpenShortfall {
				word = "Overloaded"
			}
			m.p("- Is %s at capacity? **%s**: %s.\n", text(s.Label), word, text(saturationText(s.Capacity.Saturation)))
		}
	}
	if fixes := m.topFixes(); len(fixes) > 0 {
		m.p("\n**What to do instead:**\n\n")
		for i, f := range fixes {
			m.p("%d. %s\n", i+1, text(f))
		}
	}
	m.p("\n")
}

// topFixes returns the distinct fixes of the warnings and errors, most
// severe first.
func (m *md) topFixes() []string {
	var out []string
	seen := map[analyze.Code]bool{}
	for _, f := range m.v.Findings {
		if f.Severity == analyze.SeverityInfo || seen[f.Code] {
			continue
		}
		seen[f.Code] = true
		out = append(out, wordFinding(f).Fix)
	}
	return out
}

func (m *md) systems() {
	m.p("## Systems\n\n")
	m.p("| system | settings | runs (seq) | warm-up across runs | steady req/s (95 %% CI) | mean / p99 / max latency, ms |\n")
	m.p("|---|---|---|---|---|---|\n")
	for _, s := range m.v.Systems {
		for _, g := range s.Groups {
			steady := "-"
			if g.Steady.RPSMean != nil {
				steady = fmtF(*g.Steady.RPSMean, 2)
				if g.Steady.RPSCI != nil {
					steady += fmt.Sprintf(" (%s-%s)", fmtF(g.Steady.RPSCI.Lo, 2), fmtF(g.Steady.RPSCI.Hi, 2))
				}
			}
			src := "steady mean"
			if !g.Rep.FromSteady {
				src = "last run"
			}
			lat := fmt.Sprintf("%s / %s / %s (%s)", optF(g.Rep.LatMeanMs), optF(g.Rep.LatP99Ms), optF(g.Rep.LatMaxMs), src)
			excl := ""
			if len(g.Excluded) > 0 {
				var seqs []int32
				for _, e := range g.Excluded {
					seqs = append(seqs, e.Run.Seq)
				}
				excl = fmt.Sprintf("; excluded: %s", seqList(seqs))
			}
			m.p("| %s | %s | %d (%s%s) | %s | %s | %s |\n", text(s.Label), text(settingsText(g.Settings)), len(g.Runs), seqList(g.Seqs), excl,
				text(string(g.Warmup.Class)), steady, lat)
		}
	}
	m.p("\n")
}

func (m *md) comparisons() {
	m.p("## Comparisons\n\n")
	if len(m.v.Comparisons) == 0 {
		m.p("No two systems ran at the same settings, so none could be compared.\n\n")
		return
	}
	m.p("Ratios are a/b (throughput: above 1 means a is faster; latency: below 1 means a is faster). ")
	m.p("The verdict rests on the Hodges-Lehmann ratio of the steady runs and its distribution-free %s %% CI, which agrees with the Mann-Whitney U test over runs (alpha %s): ",
		rel(100*m.v.Options.Level), rel(m.v.Options.Alpha))
	m.p("a difference when the CI lies outside the practical band ±%s %%, none when it lies inside, otherwise inconclusive. ", rel(100*m.v.Options.PracticalBand))
	m.p("The ratio of means and its bootstrap CI are shown beside it; one disturbed run can move them a long way.\n\n")
	m.p("| a vs b | settings | metric | Hodges-Lehmann a/b (%s %% CI) | ratio of means (CI) | p | verdict | runs needed per side |\n", rel(100*m.v.Options.Level))
	m.p("|---|---|---|---|---|---|---|---|\n")
	for _, c := range m.v.Comparisons {
		ratio := fmtF(c.Ratio, 3)
		if c.CI != nil {
			ratio += fmt.Sprintf(" (%s-%s)", fmtF(c.CI.Lo, 3), fmtF(c.CI.Hi, 3))
		}
		hl := "-"
		if e := c.Estimate; e != nil {
			hl = fmtF(e.Estimate, 3) + " (" + fmtF(e.Lo, 3) + "-" + fmtF(e.Hi, 3) + ")"
		}
		need := "-"
		if c.RunsNeeded != nil {
			need = strconv.Itoa(*c.RunsNeeded)
		}
		m.p("| %s vs %s | %s | %s | %s | %s | %s | %s | %s |\n", text(c.A), text(c.B), text(settingsText(c.Settings)), c.Metric, hl, ratio,
			relP(c.PValue), text(verdictWords(c)), need)
	}
	m.p("\n")
}

// decidingRatio returns the ratio a/b that decides a comparison: the
// Hodges-Lehmann estimate when a test ran, else the ratio of the
// representative values.
func decidingRatio(c analyze.Comparison) float64 {
	if c.Estimate != nil {
		return c.Estimate.Estimate
	}
	return c.Ratio
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

// thresholds lists the threshold checks, when thresholds were given.
func (m *md) thresholds() {
	v := m.v
	if len(v.Options.SLO) == 0 {
		return
	}
	m.p("## Thresholds\n\n")
	m.p("Each threshold is checked on each system's steady runs (the last run where there is no steady state): ")
	m.p("`pass` or `fail` when the %s %% CI over the runs lies on one side of the limit (the value decides where there are too few runs for a CI), ", rel(100*v.Options.Level))
	m.p("`marginal` when it straddles the limit, `unknown` when a run does not report the metric.\n\n")
	if len(v.Thresholds) == 0 {
		m.p("No system ran at settings a threshold applies to.\n\n")
		return
	}
	m.p("| threshold | system | settings | status | value |\n|---|---|---|---|---|\n")
	for _, c := range v.Thresholds {
		m.p("| %s | %s | %s | %s | %s |\n", code(thresholdOf(v, c).Expr, true), text(c.System), text(settingsText(c.Settings)),
			c.Status, text(checkValue(v, c)))
	}
	m.p("\n")
}

// verdictWords says a comparison's verdict in words.
func verdictWords(c analyze.Comparison) string {
	switch c.Verdict {
	case analyze.AFaster:
		return c.A + " better"
	case analyze.BFaster:
		return c.B + " better"
	case analyze.NoDifference:
		return "~ no difference"
	}
	return "inconclusive: " + strings.Join(reasonLines(c.Reasons, true), "; ")
}

func (m *md) figure(name string) {
	for _, f := range m.figs {
		if f.Name == name {
			m.p("![%s](%s)\n\n*%s*\n\n", text(f.Alt), f.Name, text(f.Title))
		}
	}
}

func (m *md) warmup() {
	v := m.v
	m.p("## Warm-up and steady state\n\n")
	m.p("Across runs, a group's throughput in execution order is classified (flat, warmup, slowdown, no-steady-state); ")
	m.p("within runs with per-request data, the mean latency per window is (PELT changepoints, Barrett et al. 2017; MSER-5 cross-check).\n\n")
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			from := ""
			if g.Warmup.SteadyFromSeq != nil {
				from = fmt.Sprintf(", steady from run seq %d", *g.Warmup.SteadyFromSeq)
			}
			m.p("- **%s** at %s: `%s`%s; %s (method: %s).\n", text(s.Label), text(settingsText(g.Settings)), g.Warmup.Class, from,
				text(warmupDetail(g.Warmup)), text(g.Warmup.Method))
			if g.WithinRun != nil {
				m.p("  Within its runs: `%s` (%s).\n", g.WithinRun.Class, text(warmupDetail(*g.WithinRun)))
			}
		}
		for _, w := range s.WithinRunWarmup {
			end := "-"
			if w.WarmupEndS != nil {
				end = num(*w.WarmupEndS) + " s"
			}
			mser := "-"
			if w.MSEREndS != nil {
				mser = num(*w.MSEREndS) + " s"
			}
			unstable := ""
			if w.Instability != nil {
				unstable = "; **unstable**: " + text(instabilityText(w.Instability))
			}
			m.p("  - run seq %d (%s): `%s`, warm-up ends at %s (MSER-5: %s), %d windows%s.\n", w.Seq, code(w.RunID, false), w.Class, end, mser, w.Windows, unstable)
		}
	}
	m.p("\n")
	m.figure("throughput.png")
	for _, f := range m.figs {
		if strings.HasPrefix(f.Name, "timeline-") {
			m.figure(f.Name)
		}
	}
}

func (m *md) latency() {
	m.p("## Latency\n\n")
	m.p("Per-run mean, stdev, p99 and max. Closed-model tools (wrk, hey, ab, ...) under-report the tail: see the coordinated-omission finding.\n\n")
	m.figure("latency.png")
	m.figure("percentiles.png")
}

func (m *md) capacity() {
	m.p("## Capacity\n\n")
	for _, s := range m.v.Systems {
		c := s.Capacity
		m.p("**%s**", text(s.Label))
		if len(c.LittlesLawRatio) > 0 {
			var r []string
			for _, x := range c.LittlesLawRatio {
				r = append(r, rel(x))
			}
			m.p(": Little's law ratio (rps x mean latency / connections, 1 when every connection is busy) %s", strings.Join(r, ", "))
		}
		if c.Saturated {
			m.p("; **saturated**: %s", text(saturationText(c.Saturation)))
		} else if len(c.Levels) >= 2 {
			m.p("; not saturated over %d concurrency levels", len(c.Levels))
		}
		if u := c.USL; u != nil {
			m.p("; USL fit: sigma %s, kappa %s, lambda %s req/s, peak at N = %d (%s req/s), R² %s",
				num(u.Sigma), num(u.Kappa), num(u.Lambda), u.NMax, num(u.XMax), rel(u.R2))
			if u.NegativeSigma || u.NegativeKappa {
				m.p(" (a negative coefficient: the fit is a curve, not a model of the system)")
			}
		}
		m.p(".\n\n")
	}
	m.figure("scaling.png")
}

func (m *md) findings() {
	m.p("## Methodology findings\n\n")
	if len(m.v.Findings) == 0 {
		m.p("None.\n\n")
		return
	}
	for _, f := range m.v.Findings {
		w := wordFinding(f)
		m.p("- **%s** `%s` (%s): %s\n  **Fix:** %s\n", strings.ToUpper(string(f.Severity)), f.Code, text(w.Subject), text(w.Message), text(w.Fix))
	}
	m.p("\n")
}

func (m *md) appendix(meta Meta) {
	v := m.v
	m.p("## Appendix\n\n### Runs\n\n")
	m.p("| seq | system | tool | model | threads | conns | rate | duration s | requests | errors | req/s | mean ms | stdev ms | p50 ms | p90 ms | p99 ms | max ms | target | source |\n")
	m.p("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range v.Runs {
		m.p("| %d | %s | %s | %s | %s | %s | %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.Seq, text(r.Label), text(r.Tool), text(r.LoadModel), optI(r.Threads), optI(r.Connections), optF(r.TargetRPS),
			fmtF(r.DurationS, 2), r.Requests, r.Errors, fmtF(r.RPS, 2), optF(r.LatMeanMs), optF(r.LatStdevMs),
			optF(r.LatP50Ms), optF(r.LatP90Ms), optF(r.LatP99Ms), optF(r.LatMaxMs), code(r.Target, true),
			code(fmt.Sprintf("%s:%d", r.Source, r.SourceLine), true))
	}
	m.p("\n### Inputs\n\n")
	for _, in := range meta.Inputs {
		m.p("- %s\n", code(in, false))
	}
	m.rejectedRemoved(meta)
	if len(v.Warnings) > 0 {
		m.p("\n### Warnings\n\n")
		for _, w := range warningLines(v) {
			m.p("- %s\n", text(w))
		}
	}
	opts, _ := json.MarshalIndent(v.Options, "", "  ")
	m.p("\n### How this report was made\n\n%s, analysis version %d, options:\n\n```json\n%s\n```\n",
		text(meta.GeneratedBy), v.AnalysisVersion, strings.ReplaceAll(string(opts), "`", "'"))
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
