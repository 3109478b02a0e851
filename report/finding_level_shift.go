package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/stats"
)

// wordLevelShift words a level-shift finding.
func wordLevelShift(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.LevelShiftFacts)
	label, at := system(s, 0), settingsOf(s)
	dir, what := "dropped", "it got slower"
	if x.Direction == stats.Improving || (x.Direction == "" && x.After > x.Before) {
		dir, what = "jumped", "it got faster"
	}
	return findingWords{fmt.Sprintf("%s at %s", label, at),
		fmt.Sprintf("%s at %s: throughput %s from %s to %s req/s (%s %%) at run seq %d and stayed there: a change of level (%s). Old and new builds mixed under one name, or a neighbour arriving or leaving, look like this; the runs on either side are not one system.",
			label, at, dir, num(x.Before), num(x.After), signed(x.ChangePct), x.AtSeq, what),
		"Find what changed at that run (build, configuration, other load on the machine); name the runs before and after as two systems (--system NAME=PATH) and compare them, or repeat the measurement under one condition."}
}
