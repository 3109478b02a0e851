package report

import (
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/stats"
)

// wordGeneratorBound words a generator-bound finding.
func wordGeneratorBound(f analyze.Finding) findingWords {
	s := f.Subject
	label := system(s, 0)
	return findingWords{label,
		fmt.Sprintf("%s's throughput stopped growing while connections stood idle (Little's law ratio below %s) and the generator shared its machine: the limit may be the load generator or something in front of the server, not the system under test.", label, rel(stats.LittleLow)),
		"Watch the generator's CPU during a run; use more generator threads or a second generator machine, and check the throughput of the backend alone."}
}
