package report

import (
	"io"

	"github.com/loadverdict/loadverdict/analyze"
)

// GateOutcome is a gate's decision as a command says it: whether it
// failed, the reasons it failed and the conditions allowed by name (one
// line each, as stderr shows them), and its checks as JUnit XML (--junit).
type GateOutcome struct {
	// Failed tells whether the gate failed.
	Failed bool
	// Reasons are why it failed (none when it passed).
	Reasons []string
	// Allowed are the conditions met that would have failed it but were
	// allowed by name (--allow, gate.allow).
	Allowed []string
	// JUnit writes the gate's checks as JUnit XML.
	JUnit func(io.Writer) error
}

// VerdictGate is the gate of a report or a comparison.
func VerdictGate(v *analyze.Verdict) GateOutcome {
	return GateOutcome{Failed: v.Gate.Failed, Reasons: GateReasons(v), Allowed: AllowedReasons(v),
		JUnit: func(w io.Writer) error { return JUnit(w, v) }}
}

// HistoryGate is the gate of a series' history; each allowed condition
// is worded as in HistoryAllowed, without its " (allowed)".
func HistoryGate(h *analyze.History) GateOutcome {
	var allowed []string
	for _, r := range h.Reasons {
		if r.Allowed {
			allowed = append(allowed, historyReasonText(h, r))
		}
	}
	return GateOutcome{Failed: h.Failed, Reasons: HistoryGateReasons(h), Allowed: allowed,
		JUnit: func(w io.Writer) error { return HistoryJUnit(w, h) }}
}
