package report

import (
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordErrors words an errors finding.
func wordErrors(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.ErrorsFacts)
	run := runSubject(s)
	return findingWords{run,
		fmt.Sprintf("%s had %d errors in %d requests attempted (%s): %s.", run, x.Errors, x.Attempted, pct(x.Rate), errorBreakdown(x)),
		"Find the cause (server logs, connection limits, ulimit -n, timeouts) and re-run: a run with errors measures error handling, and failed requests are often faster than good ones."}
}

func errorBreakdown(x analyze.ErrorsFacts) string {
	var parts []string
	for _, e := range []struct {
		name string
		v    *int64
	}{{"connect", x.Connect}, {"read", x.Read}, {"write", x.Write}, {"timeout", x.Timeouts}, {"non-2xx/3xx", x.Non2xx}} {
		if e.v != nil && *e.v > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", e.name, *e.v))
		}
	}
	if len(parts) == 0 {
		return "no breakdown"
	}
	return strings.Join(parts, ", ")
}
