package analyze

import (
	"slices"

	"github.com/loadverdict/loadverdict/results"
)

// NotInterleavedFacts are the figures of a not-interleaved finding.
type NotInterleavedFacts struct {
	First, Second string // the system that ran first, and the other
	// OrderFrom is what the order was read from: OrderStartTime, or
	// OrderArguments when a run of either group has no start time.
	OrderFrom string
}

func (NotInterleavedFacts) facts() {}

// The sources of a run order (NotInterleavedFacts.OrderFrom).
const (
	// OrderStartTime: the runs' own start times (runs.started_at).
	OrderStartTime = "start-time"
	// OrderArguments: the order the inputs were given in (runs.seq),
	// when some run has no start time.
	OrderArguments = "argument-order"
)

// checkNotInterleaved flags pairs of systems whose runs at equal settings
// were not interleaved: all of one system's runs before all of the
// other's.
func checkNotInterleaved(v *Verdict, _ *findingContext) {
	for i := range v.Systems {
		for j := i + 1; j < len(v.Systems); j++ {
			a, b := &v.Systems[i], &v.Systems[j]
			for _, ga := range a.Groups {
				for _, gb := range b.Groups {
					if ga.key() == gb.key() && len(ga.Runs) >= 2 && len(gb.Runs) >= 2 {
						v.notInterleaved(a.Label, b.Label, ga, gb)
					}
				}
			}
		}
	}
}

// notInterleaved adds the finding for groups ga (of a) and gb (of b) at
// equal settings when one's runs all came before the other's. The order
// is the runs' start times when every run of the two groups has one, else
// the order of the inputs (seq), and the finding says which.
func (v *Verdict) notInterleaved(a, b string, ga, gb Group) {
	pa, pb, from := runOrder(ga.Runs), runOrder(gb.Runs), OrderStartTime
	if pa == nil || pb == nil {
		pa, pb, from = seqOrder(ga.Runs), seqOrder(gb.Runs), OrderArguments
	}
	amax, bmin := slices.Max(pa), slices.Min(pb)
	bmax, amin := slices.Max(pb), slices.Min(pa)
	if amax >= bmin && bmax >= amin {
		return
	}
	first, second := a, b
	if bmax < amin {
		first, second = second, first
	}
	v.add(SeverityWarning, CodeNotInterleaved, Subject{Systems: []string{a, b}, Settings: ptrTo(ga.Settings)},
		NotInterleavedFacts{First: first, Second: second, OrderFrom: from})
}

// runOrder returns the runs' start times in nanoseconds since the epoch,
// or nil when one has none.
func runOrder(runs []results.Run) []int64 {
	out := make([]int64, len(runs))
	for i, r := range runs {
		if r.StartedAt == nil {
			return nil
		}
		out[i] = r.StartedAt.UnixNano()
	}
	return out
}

// seqOrder returns the runs' places in the order of the inputs.
func seqOrder(runs []results.Run) []int64 {
	out := make([]int64, len(runs))
	for i, r := range runs {
		out[i] = int64(r.Seq)
	}
	return out
}
