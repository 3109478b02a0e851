package experiment

// The options of an analysis: the gate conditions from the command line
// and the manifest, and their check against the systems that ran.

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
)

// UnionConditions returns a's conditions followed by those of b not in a.
func UnionConditions(a, b []gate.Condition) []gate.Condition {
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

// The command line's repeated flags fill the manifest's own types: with
// Set and String, *Labels, *Thresholds and *Conditions are flag.Values.

// String lists the mappings as host:port=name, comma-separated.
func (l *Labels) String() string {
	if l == nil {
		return ""
	}
	parts := make([]string, 0, len(*l))
	for k, v := range *l {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ",")
}

// Set adds one mapping host:port=name (or a file name for logs without a
// target); the name must be a valid system name (CheckName).
func (l *Labels) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" || v == "" {
		return fmt.Errorf("want host:port=name, got %q", s)
	}
	if err := CheckName(v); err != nil {
		return err
	}
	if *l == nil {
		*l = Labels{}
	}
	(*l)[k] = v
	return nil
}

// String lists the expressions, space-separated.
func (ts *Thresholds) String() string {
	if ts == nil {
		return ""
	}
	var parts []string
	for _, t := range *ts {
		parts = append(parts, t.Expr)
	}
	return strings.Join(parts, " ")
}

// Set adds one threshold expression (gate.ParseThreshold).
func (ts *Thresholds) Set(v string) error {
	t, err := gate.ParseThreshold(v)
	if err != nil {
		return err
	}
	*ts = append(*ts, t)
	return nil
}

// String lists the conditions, comma-separated.
func (cs *Conditions) String() string {
	if cs == nil {
		return ""
	}
	var parts []string
	for _, c := range *cs {
		parts = append(parts, string(c))
	}
	return strings.Join(parts, ",")
}

// Set adds comma-separated conditions (gate.ParseConditions), each once.
func (cs *Conditions) Set(v string) error {
	c, err := gate.ParseConditions(v)
	if err != nil {
		return err
	}
	*cs = Conditions(UnionConditions(*cs, c))
	return nil
}

// Accepted names the experiments whose change a history accepts
// (--accept, with the manifests' history.accept); *Accepted is a
// flag.Value.
type Accepted []string

// String lists the experiments, comma-separated.
func (a *Accepted) String() string {
	if a == nil {
		return ""
	}
	return strings.Join(*a, ",")
}

// Set adds one experiment's name, which may not be blank.
func (a *Accepted) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("want an experiment's name")
	}
	*a = append(*a, s)
	return nil
}
