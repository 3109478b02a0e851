package experiment

import (
	"math"
	"slices"
	"time"

	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

// dropCopies removes from runs (named: see namer.name) those that are
// copies of another run of the same experiment and system, and returns
// the runs kept and the copies. One vegeta
// attack kept as attack.bin, its `vegeta encode` JSON and CSV and its
// `vegeta report` text and JSON is one run, not five: counting it five
// times would make five runs of evidence out of one, and name a system
// "report". The run kept is the first, in execution order, that has the
// per-request samples (else the first with a start time, else the first).
// sameRun says what a copy is. A copy may be of another system only when
// its system is not a name given to it (a rule or a label mapping) nor
// its target, but its file's name ("report", for vegeta's text summary):
// runs that two named systems share are compared as asked (an A/A pair
// of one file under two names compares equal). A system left with only
// copies is no longer a system.
func (n *namer) dropCopies(runs []results.Run) (kept []results.Run, copies []report.Copy) {
	// Leaders in rank order, so that a summary is matched against the log
	// it summarizes, at the summary's precision.
	order := make([]int, len(runs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return copyRank(runs[a]) - copyRank(runs[b]) })
	keep := make([]bool, len(runs))
	done := make([]bool, len(runs))
	of := make([]int, len(runs)) // a copy's kept run
	for k, i := range order {
		if done[i] {
			continue
		}
		keep[i], done[i] = true, true
		for _, j := range order[k+1:] {
			if !done[j] && sameRun(runs[i], runs[j]) && (runs[i].Label == runs[j].Label || n.fileNamed(runs[j])) {
				done[j], of[j] = true, i
			}
		}
	}
	for i, r := range runs {
		if keep[i] {
			kept = append(kept, r)
			continue
		}
		k := runs[of[i]]
		copies = append(copies, report.Copy{RunID: r.RunID, Source: r.Source, Index: r.Index,
			Of: report.Part{RunID: k.RunID, Source: k.Source, Index: k.Index}, Requests: r.Requests, Summary: !r.HasSamples})
	}
	n.known = slices.DeleteFunc(n.known, func(sys string) bool {
		return !slices.ContainsFunc(kept, func(r results.Run) bool { return r.Label == sys }) &&
			slices.ContainsFunc(runs, func(r results.Run) bool { return r.Label == sys && n.fileNamed(r) })
	})
	return kept, copies
}

// fileNamed reports whether run r's system is named after its file: no
// rule or label mapping named it, and it has no target.
func (n *namer) fileNamed(r results.Run) bool { return !n.named[r.RunID] && r.Target == "" }

// copyRank orders the runs of a group of copies: the one with samples
// first, then one with a start time.
func copyRank(r results.Run) int {
	switch {
	case r.HasSamples:
		return 0
	case r.StartedAt != nil:
		return 1
	}
	return 2
}

// sameRun reports whether a and b are the same test in two encodings: the
// same tool, endpoint, request and error counts, the same start when both
// state one, and the same duration and mean, minimum and maximum latency
// (at least three of the four stated by both). Two per-request logs, or a
// log and the tool's own summary of it, agree to the summary's printed
// precision (a relative 1e-3: vegeta prints 4 significant digits); two
// summaries without a start time must agree exactly (the same printed
// numbers), as different runs of a fixed request count can come close.
func sameRun(a, b results.Run) bool {
	if !sameTest(a, b) {
		return false
	}
	tol, ok := copyTolerance(a, b)
	if !ok {
		return false
	}
	near := func(x, y float64) bool { return math.Abs(x-y) <= tol*math.Max(math.Abs(x), math.Abs(y)) }
	var dur [2]*float64 // a duration of 0 is not stated
	if a.DurationS > 0 && b.DurationS > 0 {
		dur = [2]*float64{&a.DurationS, &b.DurationS}
	}
	stated := 0
	for _, p := range [][2]*float64{dur, {a.LatMeanMs, b.LatMeanMs}, {a.LatMinMs, b.LatMinMs}, {a.LatMaxMs, b.LatMaxMs}} {
		if p[0] == nil || p[1] == nil {
			continue
		}
		if !near(*p[0], *p[1]) {
			return false
		}
		stated++
	}
	return stated >= 3
}

// sameTest reports whether a and b can be one test: the same experiment,
// tool, endpoint, request and error counts, and target where both say.
func sameTest(a, b results.Run) bool {
	return a.Experiment == b.Experiment && a.Tool == b.Tool && a.Requests == b.Requests && a.Requests > 0 &&
		a.Errors == b.Errors && sameString(a.Endpoint, b.Endpoint) && (a.Target == "" || b.Target == "" || a.Target == b.Target)
}

// copyTolerance is the relative tolerance the figures of a and b must
// agree to: exact for two summaries without a start time; ok is false
// when both state a start and the starts differ by more than 1 ms.
func copyTolerance(a, b results.Run) (tol float64, ok bool) {
	switch {
	case a.StartedAt != nil && b.StartedAt != nil:
		d := a.StartedAt.Sub(*b.StartedAt)
		return 1e-3, d <= time.Millisecond && d >= -time.Millisecond
	case !a.HasSamples && !b.HasSamples:
		return 0, true
	}
	return 1e-3, true
}

func sameString(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
