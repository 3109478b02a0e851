package report

import (
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordSameHost words a same-host finding.
func wordSameHost(f analyze.Finding) findingWords {
	s := f.Subject
	local := strings.Join(s.Systems, ", ")
	return findingWords{local,
		fmt.Sprintf("The load generator targeted a loopback address (%s), so it ran on the same machine as the server: the two compete for CPU and memory, and the generator's own limits become part of the result.", local),
		"Run the load generator on a separate machine on the same network (or at least pin generator and server to disjoint CPU sets with taskset, and report it)."}
}
