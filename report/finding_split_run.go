package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordSplitRun words a split-run finding.
func wordSplitRun(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.SplitRunFacts)
	label, at := system(s, 0), settingsOf(s)
	var seqs []string
	for _, r := range s.Runs {
		seqs = append(seqs, strconv.Itoa(int(r.Seq)))
	}
	return findingWords{fmt.Sprintf("%s at %s", label, at),
		fmt.Sprintf("%s at %s: runs %s come from %d inputs (%s) and overlap in time (by at least %s %% of the shorter): they look like the outputs of several load generators driving one test, and are counted here as repetitions of it.",
			label, at, strings.Join(seqs, ", "), len(x.Sources), strings.Join(x.Sources, ", "), rel(x.OverlapPct)),
		"If they are parts of one test, merge them into one run: the manifest's merge: [[pattern, ...]] or --merge PATH,PATH... (counts and throughput add up, percentiles come from their samples together)."}
}
