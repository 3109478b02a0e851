package stats

import (
	"math"
)

// ClassLevelShift is the class of a series whose level jumped to better
// and stayed, where the jump does not look like a warm-up (see
// ClassifySeries); a drop that stays is ClassSlowdown. Retired as a class
// in analysis version 5 (SelectModel): a step that stayed is a finding
// with its direction; ClassifySeries, which still gives it, is no longer
// called by package analyze.
const ClassLevelShift Class = "level-shift"

// MinStepRuns and MaxStepRuns bound the across-run series that
// ClassifyRuns segments with SegmentSteps: from 5 runs (fewer are the
// short-series rule's) up to 19 (from 20 PELT has the observations it
// needs).
const (
	MinStepRuns = 5
	MaxStepRuns = 19
)

// warmupTau is the Kendall tau toward the steady level that the runs before
// a late improving step need for the step to count as a warm-up.
const warmupTau = 0.6

// LevelShift is a change of level that stays: the series moved from one
// level to another at At and remained there.
type LevelShift struct {
	At            int     // the first observation at the new level
	Before, After float64 // the mean of the segment before At and of the observations from At on
}

// SeriesOptions are the parameters of ClassifySeries.
type SeriesOptions struct {
	// HigherIsBetter is true for throughput, false for latency.
	HigherIsBetter bool
	// Delta is Classify's relative equivalence band (<= 0: DefaultDelta).
	Delta float64
	// Alpha is the level of the trend test (<= 0: DefaultAlpha).
	Alpha float64
	// LevelShifts applies the warm-up rule, which tells a warm-up from a
	// level shift: for series of runs. Within a run every improving
	// change is a warm-up.
	LevelShifts bool
}

// SeriesClassification is the result of ClassifySeries.
type SeriesClassification struct {
	Classification
	// Shift is set for a change of level that stays and is not a
	// warm-up: a drop (ClassSlowdown) or a jump (ClassLevelShift).
	Shift *LevelShift
	// Trend is the trend test of the steady part (of the whole series
	// for a flat one), when it ran; when it found a persistent trend the
	// class says so and there is no steady state.
	Trend *Trend
	// TrendFrom is the first observation the trend test looked at.
	TrendFrom int
	// WarmupTau is the Kendall tau, toward the steady level, of the
	// observations before an improving change that the warm-up rule
	// looked at (LevelShifts only; 0 when it did not need it).
	WarmupTau float64
}

// ClassifySeries classifies a segmented series (segments as from PELT or
// SegmentSteps, x the series they cover) by Classify, then checks the
// steady state it claims.
//
//  1. A steady state must have levelled off: when TrendTest finds a
//     persistent trend in the observations from the steady start on (the
//     whole series for flat), then within a run (without LevelShifts) the
//     steady state starts at the first later observation (tried in up to
//     64 steps) after which TrendTest finds none, leaving at least
//     max(5, n/4) observations (fewer cannot show a trend at 5 %; a flat
//     series with such a trend becomes a warmup or slowdown). Across runs
//     there is no such search: a few runs cannot show where a trend ends,
//     and choosing the steady runs by their values biases comparisons.
//     When no steady start remains, the class becomes ClassSlowdown for a
//     worsening trend and ClassNoSteadyState for an improving one, and
//     SteadyStart is -1.
//  2. With LevelShifts (series of runs), an improving change at k (the
//     steady start) is a warm-up only when it looks like one (Barrett et
//     al. find warm-ups at the start of process executions; Kalibera &
//     Jones, "Rigorous benchmarking in reasonable time", ISMM 2013, treat
//     the first iterations as the warm-up to discard): every segment
//     before k is worse than the steady level, and either k is early
//     (at most max(2, n/3)) or, up to n/2, the observations before k
//     approach the steady level (Kendall tau >= 0.6 toward it, e.g. 1448,
//     1816, 2326 req/s before a steady 3500). Otherwise the series jumped
//     to a new level that stays: ClassLevelShift with Shift set (builds
//     mixed under one name, a neighbour leaving). A slowdown (a drop that
//     stays) always gets Shift.
//
// segs must tile x (as Classify requires) and x must be finite.
func ClassifySeries(segs []Segment, x []float64, o SeriesOptions) (SeriesClassification, error) {
	if err := checkFinite(x); err != nil {
		return SeriesClassification{Classification: Classification{Class: ClassInsufficientData, SteadySegment: -1, SteadyStart: -1, Decisive: -1}}, err
	}
	c, err := Classify(segs, o.HigherIsBetter, o.Delta)
	out := SeriesClassification{Classification: c}
	if err != nil {
		return out, err
	}
	if len(segs) > 0 && segs[len(segs)-1].End != len(x) {
		return out, ErrParameter
	}
	if c.Class == ClassNoSteadyState || c.Class == ClassInsufficientData {
		return out, nil
	}
	n := len(x)
	k := c.SteadyStart
	steadyMean := Mean(x[k:])
	better := func(a, b float64) bool { return (a > b) == o.HigherIsBetter && a != b }

	if o.LevelShifts && c.Class == ClassWarmup {
		warm := true
		for _, s := range segs[:c.SteadySegment] {
			if !better(steadyMean, s.Mean) {
				warm = false
			}
		}
		early := k <= max(2, n/3)
		if warm && !early {
			_, tau, _, _ := MannKendall(x[:k])
			if !o.HigherIsBetter {
				tau = -tau
			}
			out.WarmupTau = tau
			warm = k <= n/2 && tau >= warmupTau
		}
		if !warm {
			out.Class = ClassLevelShift
		}
	}
	if o.LevelShifts && (c.Class == ClassSlowdown || out.Class == ClassLevelShift) {
		out.Shift = &LevelShift{At: k, Before: segs[c.Decisive].Mean, After: steadyMean}
	}

	if n-k >= 3 {
		t, err := TrendTest(x[k:], o.Alpha, o.Delta)
		if err != nil {
			return out, err
		}
		out.Trend, out.TrendFrom = &t, k
		if t.Persistent {
			worse := better(0, t.Slope)
			// The steady state may begin later: the first start whose
			// rest has no persistent trend, leaving at least max(5, n/4)
			// observations (Barrett et al.'s tail), tried in up to 64
			// steps.
			last := n - max(5, n/4)
			if o.LevelShifts {
				last = k // runs: no search (see the doc comment)
			}
			step := max(1, (last-k)/64)
			for k2 := k + step; k2 <= last; k2 += step {
				t2, err := TrendTest(x[k2:], o.Alpha, o.Delta)
				if err != nil {
					return out, err
				}
				if !t2.Persistent {
					out.Trend, out.TrendFrom, out.SteadyStart = &t2, k2, k2
					for i, sg := range segs {
						if sg.Start <= k2 && k2 < sg.End {
							out.SteadySegment = i
						}
					}
					if out.Class == ClassFlat {
						out.Class, out.Decisive = ClassWarmup, 0
						if worse {
							out.Class = ClassSlowdown
						}
					}
					return out, nil
				}
			}
			out.Shift = nil
			out.SteadySegment, out.SteadyStart = -1, -1
			out.Class = ClassNoSteadyState
			if worse {
				out.Class = ClassSlowdown
			}
		}
	}
	if math.IsNaN(steadyMean) {
		return out, ErrNotFinite
	}
	return out, nil
}

// RunsClassification is the result of ClassifyRuns.
type RunsClassification struct {
	SeriesClassification
	Segments []Segment
	// Steps is set for series of MinStepRuns to MaxStepRuns runs: the
	// step-test segmentation.
	Steps *StepSegmentation
}

// RunsOptions are the parameters of ClassifyRuns.
type RunsOptions struct {
	HigherIsBetter bool
	Delta          float64 // Classify's equivalence band (<= 0: DefaultDelta)
	Alpha          float64 // level of the step and trend tests (<= 0: DefaultAlpha)
	// PenaltyFactor and MinSegment are PELT's, for 20 runs or more
	// (<= 0: the defaults); MinSegment is also the step test's.
	PenaltyFactor float64
	MinSegment    int
	Draws         int    // simulated series of the step test (<= 0: DefaultNullDraws)
	Seed          uint64 // seed of the step test
}

// ClassifyRuns classifies an across-run series (the throughput of a
// system's runs at equal settings, in execution order) of at least
// MinStepRuns values: from MinStepRuns to MaxStepRuns runs it is segmented
// by SegmentSteps (a penalty of 15 ln n cannot split so few points), from
// 20 on by PELT with PenaltyFactor·ln(n) after the outlier rule
// (SegmentSeries); then ClassifySeries with the warm-up rule. Fewer runs
// give a *TooFewError (see ClassifyShort).
func ClassifyRuns(x []float64, o RunsOptions) (RunsClassification, error) {
	none := RunsClassification{SeriesClassification: SeriesClassification{Classification: Classification{
		Class: ClassInsufficientData, SteadySegment: -1, SteadyStart: -1, Decisive: -1}}}
	if err := checkFinite(x); err != nil {
		return none, err
	}
	n := len(x)
	if n < MinStepRuns {
		return none, tooFew("runs classification", MinStepRuns, n)
	}
	var out RunsClassification
	if n <= MaxStepRuns {
		st, err := SegmentSteps(x, o.Alpha, o.MinSegment, o.Draws, o.Seed)
		if err != nil {
			return none, err
		}
		out.Steps, out.Segments = &st, st.Segments
	} else {
		seg, err := SegmentLongSeries(x, o.PenaltyFactor, o.MinSegment)
		if err != nil {
			return none, err
		}
		out.Segments = seg.Segments
	}
	sc, err := ClassifySeries(out.Segments, x, SeriesOptions{HigherIsBetter: o.HigherIsBetter, Delta: o.Delta, Alpha: o.Alpha, LevelShifts: true})
	out.SeriesClassification = sc
	return out, err
}
