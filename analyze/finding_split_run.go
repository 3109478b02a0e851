package analyze

import (
	"math"
	"slices"

	"github.com/loadverdict/loadverdict/results"
)

// SplitRunFacts are the figures of a split-run finding.
type SplitRunFacts struct {
	Sources []string // the sources of Subject.Runs, in order
	// OverlapPct is the smallest overlap in time of two of the runs, in
	// percent of the shorter one.
	OverlapPct float64
}

func (SplitRunFacts) facts() {}

// splitOverlap is the overlap in time, as a share of the shorter run, from
// which two runs of different sources at the same system and settings
// look like parts of one test.
const splitOverlap = 0.5

// checkSplitRun finds, per group, the runs of different sources that
// overlap in time (each with at least one other by splitOverlap of the
// shorter): several load generators' outputs of one test, counted as
// repetitions unless merged. Runs without a start time cannot tell.
func checkSplitRun(v *Verdict, _ *findingContext) {
	for _, sys := range v.Systems {
		for _, g := range sys.Groups {
			var rs []results.Run
			for _, r := range g.Runs {
				if r.StartedAt != nil && r.DurationS > 0 {
					rs = append(rs, r)
				}
			}
			clusters, overlap := overlapClusters(rs)
			for i, c := range clusters {
				var refs []RunRef
				var srcs []string
				for _, r := range c {
					refs = append(refs, runRef(r))
					if !slices.Contains(srcs, r.Source) {
						srcs = append(srcs, r.Source)
					}
				}
				settings := g.Settings
				v.add(SeverityWarning, CodeSplitRun, Subject{Systems: []string{sys.Label}, Settings: &settings, Runs: refs},
					SplitRunFacts{Sources: srcs, OverlapPct: 100 * math.Min(overlap[i], 1)})
			}
		}
	}
}

// overlapClusters joins runs of different sources that overlap by
// splitOverlap of the shorter and returns the clusters of two runs or
// more, in the order of their first run, each with the smallest overlap
// share that joined it.
func overlapClusters(rs []results.Run) (clusters [][]results.Run, overlap []float64) {
	parent := make([]int, len(rs))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	minOverlap := map[int]float64{}
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			a, b := rs[i], rs[j]
			if a.Source == b.Source {
				continue
			}
			as, bs := float64(a.StartedAt.UnixNano())/1e9, float64(b.StartedAt.UnixNano())/1e9
			ov := math.Min(as+a.DurationS, bs+b.DurationS) - math.Max(as, bs)
			share := ov / math.Min(a.DurationS, b.DurationS)
			if share < splitOverlap {
				continue
			}
			ri, rj := find(i), find(j)
			m := math.Min(share, math.Min(mapOr(minOverlap, ri, 1), mapOr(minOverlap, rj, 1)))
			parent[rj] = ri
			minOverlap[ri] = m
		}
	}
	byRoot := map[int][]results.Run{}
	var roots []int
	for i := range rs {
		r := find(i)
		if _, ok := byRoot[r]; !ok {
			roots = append(roots, r)
		}
		byRoot[r] = append(byRoot[r], rs[i])
	}
	for _, root := range roots {
		if c := byRoot[root]; len(c) >= 2 {
			clusters = append(clusters, c)
			overlap = append(overlap, minOverlap[root])
		}
	}
	return clusters, overlap
}

func mapOr(m map[int]float64, k int, def float64) float64 {
	if v, ok := m[k]; ok {
		return v
	}
	return def
}
