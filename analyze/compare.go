package analyze

import (
	"fmt"
	"math"

	"github.com/loadverdict/loadverdict/results"
)

// metric is one compared quantity of a run.
type metric struct {
	name           string
	higherIsBetter bool
	get            func(results.Run) *float64
	rep            func(Rep) *float64
}

var metrics = []metric{
	{"rps", true, func(r results.Run) *float64 { return &r.RPS }, func(r Rep) *float64 { return &r.RPS }},
	{"lat_mean_ms", false, func(r results.Run) *float64 { return r.LatMeanMs }, func(r Rep) *float64 { return r.LatMeanMs }},
	{"lat_p99_ms", false, func(r results.Run) *float64 { return r.LatP99Ms }, func(r Rep) *float64 { return r.LatP99Ms }},
	{"lat_max_ms", false, func(r results.Run) *float64 { return r.LatMaxMs }, func(r Rep) *float64 { return r.LatMaxMs }},
}

// pairs returns the pairs of systems to compare: every other system
// against the baseline when there is one, else every pair in the order the
// systems first ran. The caller checks that a baseline names a system
// (internal/pipeline: a usage error); one that has no runs compares every
// pair.
func (v *Verdict) pairs() [][2]*System {
	var out [][2]*System
	base := -1
	for i := range v.Systems {
		if v.Options.Baseline != "" && v.Systems[i].Label == v.Options.Baseline {
			base = i
		}
	}
	for i := range v.Systems {
		for j := i + 1; j < len(v.Systems); j++ {
			switch {
			case base < 0:
				out = append(out, [2]*System{&v.Systems[i], &v.Systems[j]})
			case j == base:
				out = append(out, [2]*System{&v.Systems[i], &v.Systems[j]})
			case i == base:
				out = append(out, [2]*System{&v.Systems[j], &v.Systems[i]})
			}
		}
	}
	return out
}

// compare compares every pair of systems in every group of settings they
// share, on throughput and on each latency figure both sides have.
func (v *Verdict) compare() {
	for _, p := range v.pairs() {
		a, b := p[0], p[1]
		for gi := range a.Groups {
			ga := &a.Groups[gi]
			for gj := range b.Groups {
				gb := &b.Groups[gj]
				if ga.key() != gb.key() {
					continue
				}
				for _, m := range metrics {
					if c, ok := v.compareMetric(a.Label, b.Label, ga, gb, m); ok {
						v.Comparisons = append(v.Comparisons, c)
					}
				}
			}
		}
	}
}

// compareMetric compares one metric of two groups at equal settings; ok is
// false when a side lacks the metric.
func (v *Verdict) compareMetric(la, lb string, ga, gb *Group, m metric) (Comparison, bool) {
	o := v.Options
	ra, rb := m.rep(ga.Rep), m.rep(gb.Rep)
	if ra == nil || rb == nil || *rb == 0 {
		return Comparison{}, false
	}
	c := Comparison{A: la, B: lb, Settings: ga.Settings, Metric: m.name, HigherIsBetter: m.higherIsBetter,
		AMean: *ra, BMean: *rb, Ratio: *ra / *rb}
	sa, sb := steadyRuns(ga), steadyRuns(gb)
	xa, xb := column(sa, m.get), column(sb, m.get)
	c.ARuns, c.BRuns = len(ga.Runs), len(gb.Runs)

	// Reasons that make the comparison inconclusive.
	if len(ga.Runs) < o.MinRuns || len(gb.Runs) < o.MinRuns {
		c.Reasons = append(c.Reasons, fmt.Sprintf("need >= %d runs per system to detect a difference at alpha %s (have %d and %d)",
			o.MinRuns, fmtNum(o.Alpha), len(ga.Runs), len(gb.Runs)))
	}
	for _, s := range []struct {
		label string
		g     *Group
	}{{la, ga}, {lb, gb}} {
		switch {
		case len(steadyRuns(s.g)) == 0 && s.g.Warmup.Class == ClassInsufficientData:
			c.Reasons = append(c.Reasons, fmt.Sprintf("%s: a single run cannot show a steady state", s.label))
		case len(steadyRuns(s.g)) == 0:
			change := ""
			if s.g.Warmup.ChangePct != nil {
				change = fmt.Sprintf(" (%+.1f %% between its last two runs)", *s.g.Warmup.ChangePct)
			}
			c.Reasons = append(c.Reasons, fmt.Sprintf("%s not steady: %s%s", s.label, s.g.Warmup.Class, change))
		case s.g.Warmup.Class == ClassInconsistent && s.g.Warmup.Good != nil && !*s.g.Warmup.Good:
			c.Reasons = append(c.Reasons, fmt.Sprintf("%s: runs behave inconsistently", s.label))
		case len(steadyRuns(s.g)) < o.MinRuns && len(s.g.Runs) >= o.MinRuns:
			c.Reasons = append(c.Reasons, fmt.Sprintf("%s: only %d steady runs after warm-up", s.label, len(steadyRuns(s.g))))
		}
	}
	if m.name != "rps" && len(c.Reasons) == 0 && (xa == nil || xb == nil) {
		c.Reasons = append(c.Reasons, "not every steady run reports "+m.name)
	}
	if (m.name == "lat_p99_ms" || m.name == "lat_max_ms") && ga.LoadModel == results.LoadClosed {
		c.Reasons = appendNote(c.Reasons, "closed-model tails are lower bounds (coordinated omission)")
	}

	// Runs needed: from the observed CV of both sides and the observed
	// difference (at least the practical band).
	cvs := []float64{}
	for _, x := range [][]float64{column(ga.Runs, m.get), column(gb.Runs, m.get)} {
		if len(x) >= 2 {
			cvs = append(cvs, coefVar(x))
		}
	}
	if len(cvs) > 0 {
		s := 0.0
		for _, cv := range cvs {
			s += cv * cv
		}
		cv := math.Sqrt(s / float64(len(cvs)))
		delta := math.Max(math.Abs(c.Ratio-1), o.PracticalBand)
		if n, err := RunsPerSide(cv, delta, o.Alpha, o.Power); err == nil {
			c.RunsNeeded = &n
		}
	}

	if hasBlocking(c.Reasons) {
		c.Verdict = Inconclusive
		return c, true
	}
	// Both sides steady with enough runs: test and estimate.
	_, p, err := MannWhitney(xa, xb)
	if err != nil {
		c.Verdict = Inconclusive
		c.Reasons = append(c.Reasons, err.Error())
		return c, true
	}
	c.PValue = &p
	c.AMean, c.BMean = mean(xa), mean(xb)
	c.Ratio = c.AMean / c.BMean
	if ci, err := BootstrapRatioCI(xa, xb, o.Resamples, o.Level, o.Seed); err == nil {
		c.CI = &ci
	}
	outside := c.CI != nil && (c.CI.Lo > 1+o.PracticalBand || c.CI.Hi < 1-o.PracticalBand)
	switch {
	case p < o.Alpha && outside:
		aBetter := (c.Ratio > 1) == m.higherIsBetter
		c.Verdict = BFaster
		if aBetter {
			c.Verdict = AFaster
		}
	case p < o.Alpha:
		c.Verdict = NoDifference
		c.Reasons = append(c.Reasons, fmt.Sprintf("significant (p = %s) but the %s %% CI of the ratio reaches into the ±%s %% practical band",
			fmtP(p), fmtNum(100*o.Level), fmtNum(100*o.PracticalBand)))
	default:
		c.Verdict = NoDifference
		c.Reasons = append(c.Reasons, fmt.Sprintf("p = %s >= alpha %s", fmtP(p), fmtNum(o.Alpha)))
	}
	return c, true
}

// noteReason marks reasons that explain but do not by themselves make a
// comparison inconclusive.
const noteReason = "note: "

func appendNote(reasons []string, note string) []string {
	return append(reasons, noteReason+note)
}

func hasBlocking(reasons []string) bool {
	for _, r := range reasons {
		if len(r) < len(noteReason) || r[:len(noteReason)] != noteReason {
			return true
		}
	}
	return false
}
