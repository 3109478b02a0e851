package report

import (
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
)

// wordTargetsDiffer words a targets-differ finding.
func wordTargetsDiffer(f analyze.Finding) findingWords {
	s := f.Subject
	x, _ := f.Facts.(analyze.TargetsDifferFacts)
	a, b := system(s, 0), system(s, 1)
	return findingWords{fmt.Sprintf("%s vs %s", a, b),
		fmt.Sprintf("%s was measured at %s and %s at %s: different requests may do different work (routing rules, filters, rewrites), so the comparison may not be like for like.",
			a, strings.Join(x.PathsA, ", "), b, strings.Join(x.PathsB, ", ")),
		"Send the same request (method, path, headers, body) to both systems, or show that the different paths reach the same handler with the same response size."}
}
