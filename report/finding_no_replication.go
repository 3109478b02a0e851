package report

import (
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordNoReplication words a no-replication finding.
func wordNoReplication(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.NoReplicationFacts)
	var thin []string
	lo, hi := 0, 0
	for i, g := range s.Groups {
		thin = append(thin, fmt.Sprintf("%s at %s: %s", g.Label, settingsText(g.Settings), plural(g.Runs, "run")))
		if i == 0 || g.Runs < lo {
			lo = g.Runs
		}
		hi = max(hi, g.Runs)
	}
	rng := fmt.Sprint(lo)
	if hi != lo {
		rng = fmt.Sprintf("%d-%d", lo, hi)
	}
	groups := plural(len(s.Groups), "group")
	return findingWords{groups,
		fmt.Sprintf("%s of runs at equal settings had fewer than %d runs (%s): run-to-run variance is unknown, so no difference can be shown significant. %s.",
			groups, x.MinRuns, rng, strings.Join(thin, "; ")),
		fmt.Sprintf("Repeat each configuration at least %d times per system (5-10 is better), alternating the systems (A B A B ...), and compare the distributions of run results.", x.MinRuns)}
}
