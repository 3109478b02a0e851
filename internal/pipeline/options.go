package pipeline

// The options of an analysis: the gate conditions from the command line
// and the manifest, and their check against the systems that ran.

import (
	"fmt"
	"slices"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
)

// unionConditions returns a's conditions followed by those of b not in a.
func unionConditions(a, b []gate.Condition) []gate.Condition {
	out := slices.Clone(a)
	for _, c := range b {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// checkGate checks that the gate's settings name something: a
// threshold's system is a system, fail on regression has a baseline to
// regress against, fail on threshold has thresholds.
func checkGate(opts analyze.Options, known []string, exp string) error {
	for _, t := range opts.SLO {
		if t.Scope.System != "" && !slices.Contains(known, t.Scope.System) {
			return &NameError{Msg: fmt.Sprintf("threshold %s: %q is not a system of experiment %s", t.Expr, t.Scope.System, exp), Known: known}
		}
	}
	if slices.Contains(opts.FailOn, gate.Regression) && opts.Baseline == "" {
		return &NameError{Msg: "failing on regression needs a baseline to regress against (--baseline, or the manifest's baseline:)", Known: known}
	}
	if slices.Contains(opts.FailOn, gate.ThresholdFailed) && len(opts.SLO) == 0 {
		return &NameError{Msg: "failing on threshold needs thresholds (--threshold, or the manifest's slo:)", Known: known}
	}
	return nil
}
