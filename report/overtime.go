package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/stats"
)

// runWarmupItems words the within-run warm-up of a system's runs in
// short items: a run whose steady state starts after a warm-up (or a
// slowdown) says where, with MSER-5's cut; an unstable run says how; the
// other runs are listed together by class ("runs 0, 1, 2: flat"), unless
// all the system's runs are of one class (its groups' lines say so). The
// latency-over-time figures mark the same ends.
func runWarmupItems(s analyze.System) []listItem {
	var items []listItem
	var order []stats.Class
	rest := map[stats.Class][]int32{}
	for _, w := range s.WithinRunWarmup {
		if w.WarmupEndS != nil && *w.WarmupEndS <= 0 {
			w.WarmupEndS, w.MSEREndS = nil, nil // steady from its start: nothing to mark
		}
		if w.WarmupEndS == nil && w.Instability == nil {
			if rest[w.Class] == nil {
				order = append(order, w.Class)
			}
			rest[w.Class] = append(rest[w.Class], w.Seq)
			continue
		}
		runs := []inline{tx(fmt.Sprintf("%s run %d: ", s.Label, w.Seq)), mono(string(w.Class))}
		if w.WarmupEndS != nil {
			t := fmt.Sprintf(", steady from %s s", num(*w.WarmupEndS))
			if w.MSEREndS != nil {
				t += fmt.Sprintf(" (MSER-5: %s s)", num(*w.MSEREndS))
			}
			runs = append(runs, tx(t))
		}
		if w.Instability != nil {
			runs = append(runs, tx("; "), bold("unstable"), tx(": "+instabilityText(w.Instability)))
		}
		items = append(items, listItem{Runs: append(runs, tx("."))})
	}
	if len(order) == 1 && len(items) == 0 {
		return nil // every run of one class: the group's line says it
	}
	for _, c := range order {
		seqs := rest[c]
		what := fmt.Sprintf("%s run %d: ", s.Label, seqs[0])
		if len(seqs) > 1 {
			what = fmt.Sprintf("%s runs %s: ", s.Label, seqList(seqs))
		}
		items = append(items, listItem{Runs: []inline{tx(what), mono(string(c)), tx(".")}})
	}
	return items
}
