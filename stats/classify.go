package stats

import (
	"math"
	"slices"
)

// Class is a warm-up class: a stable code (docs/SCHEMA.md), not words.
type Class string

// The warm-up classes of Barrett et al. (OOPSLA 2017), plus
// insufficient-data.
const (
	ClassFlat             Class = "flat"
	ClassWarmup           Class = "warmup"
	ClassSlowdown         Class = "slowdown"
	ClassNoSteadyState    Class = "no-steady-state"
	ClassInconsistent     Class = "inconsistent"
	ClassInsufficientData Class = "insufficient-data"
)

// DefaultDelta is the default relative equivalence band of TrendTest: the
// tolerance for one level of Barrett et al.'s classification.
const DefaultDelta = 0.02

// DefaultNoiseBand is the default relative noise band of ClassifyShort.
const DefaultNoiseBand = 0.03

// classOrder fixes the order in which CombineClasses counts classes.
var classOrder = []Class{ClassFlat, ClassWarmup, ClassSlowdown, ClassNoSteadyState, ClassInconsistent, ClassInsufficientData}

// ClassCount is how many runs had one class.
type ClassCount struct {
	Class Class
	N     int
}

// CombineClasses combines the classes of several runs of one group as
// Barrett et al. (OOPSLA 2017) do: all the same class gives that class; a
// mix of only flat and warmup gives inconsistent and good; any other mix
// gives inconsistent and not good. good is also true when all runs are flat
// or all are warmup (every run reached a steady state without slowing
// down), and false otherwise; no classes at all give insufficient-data.
// counts holds each class that occurs with its number of runs, in the
// order flat, warmup, slowdown, no-steady-state, inconsistent,
// insufficient-data, then any other class in lexical order; it is empty
// for no classes.
func CombineClasses(classes []Class) (class Class, good bool, counts []ClassCount) {
	if len(classes) == 0 {
		return ClassInsufficientData, false, nil
	}
	n := map[Class]int{}
	for _, c := range classes {
		n[c]++
	}
	for _, c := range classOrder {
		if n[c] > 0 {
			counts = append(counts, ClassCount{c, n[c]})
		}
	}
	var other []Class
	for c := range n {
		if !slices.Contains(classOrder, c) {
			other = append(other, c)
		}
	}
	slices.Sort(other)
	for _, c := range other {
		counts = append(counts, ClassCount{c, n[c]})
	}
	goodOnly := n[ClassFlat]+n[ClassWarmup] == len(classes)
	if len(counts) == 1 {
		return counts[0].Class, goodOnly, counts
	}
	return ClassInconsistent, goodOnly, counts
}

// ShortClassification is the result of ClassifyShort.
type ShortClassification struct {
	Class     Class
	ChangePct float64 // relative change from the second-last to the last value, in percent
	BandPct   float64 // half-width of the noise band used, in percent
	// Improving is true when the change is in the better direction
	// (higher when higherIsBetter, lower otherwise), false for none.
	Improving bool
	// ZeroBase is true when the last two values were both 0: no change,
	// though no relative change can be computed.
	ZeroBase bool
}

// ClassifyShort classifies a short across-run series (2 to 4 run values
// in execution order) by the relative change between its last two values
// against a noise band of ±max(band, cv) (STATISTICS.md): flat inside it,
// no-steady-state outside in either direction (Improving says which).
// band <= 0 (or NaN) selects DefaultNoiseBand; cv is a CV the caller
// observed elsewhere, as a fraction (0 if unknown), never the series' own.
// One value gives insufficient-data; of more than 4 only the last two
// count. x must be finite (else ErrEmpty or ErrNotFinite); an undefined
// relative change (x[n-2] = 0, or past float64) gives ErrZeroBase.
func ClassifyShort(x []float64, higherIsBetter bool, band, cv float64) (ShortClassification, error) {
	if err := checkFinite(x); err != nil {
		return ShortClassification{Class: ClassInsufficientData}, err
	}
	if !(band > 0) {
		band = DefaultNoiseBand
	}
	if cv > band {
		band = cv
	}
	r := ShortClassification{Class: ClassInsufficientData, BandPct: 100 * band}
	n := len(x)
	if n < 2 {
		return r, nil
	}
	prev, last := x[n-2], x[n-1]
	if prev == 0 {
		if last != 0 {
			return r, ErrZeroBase
		}
		r.Class, r.ZeroBase = ClassFlat, true
		return r, nil
	}
	change := (last - prev) / math.Abs(prev)
	if math.IsInf(100*change, 0) {
		// A base so small against the last value (1e-300 before 5e14)
		// that the relative change overflows: as undefined as from 0.
		return r, ErrZeroBase
	}
	r.ChangePct = 100 * change
	r.Improving = change != 0 && (change > 0) == higherIsBetter
	if math.Abs(change) <= band {
		r.Class = ClassFlat
		return r, nil
	}
	r.Class = ClassNoSteadyState
	return r, nil
}
