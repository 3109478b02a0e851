package analyze

import (
	"net/url"
	"slices"

	"github.com/loadverdict/loadverdict/results"
)

// TargetsDifferFacts are the figures of a targets-differ finding.
type TargetsDifferFacts struct {
	PathsA, PathsB []string // the distinct request paths of each system
}

func (TargetsDifferFacts) facts() {}

// checkTargetsDiffer flags compared systems measured on different paths.
func checkTargetsDiffer(v *Verdict, _ *findingContext) {
	seen := map[string]bool{}
	for _, c := range v.Comparisons {
		k := c.A + "\x00" + c.B
		if seen[k] {
			continue
		}
		seen[k] = true
		pa, pb := paths(v.Runs, c.A), paths(v.Runs, c.B)
		if len(pa) == 0 || len(pb) == 0 || slices.Equal(pa, pb) {
			continue
		}
		v.add(SeverityWarning, CodeTargetsDiffer, Subject{Systems: []string{c.A, c.B}}, TargetsDifferFacts{PathsA: pa, PathsB: pb})
	}
}

// paths returns the distinct request paths (with query) of a system's runs.
func paths(runs []results.Run, label string) []string {
	var out []string
	for _, r := range runs {
		if r.Label != label || r.Target == "" {
			continue
		}
		p := r.Target
		if u, err := url.Parse(r.Target); err == nil && u.Host != "" {
			p = u.EscapedPath()
			if p == "" {
				p = "/"
			}
			if u.RawQuery != "" {
				p += "?" + u.RawQuery
			}
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
