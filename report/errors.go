package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/analyze"
)

// This file words the errors breakdown (analyze.ErrorBreakdown): the
// "Errors" section of report.md and report.html, summary.md's compact
// lines and summary.json's "errors". The figures are analyze's; only
// their formatting is here.

// SummaryErrors is one entry of summary.json's errors: the failed requests
// of one system (and endpoint), by status and by cause.
type SummaryErrors struct {
	System   string  `json:"system"`
	Endpoint *string `json:"endpoint,omitempty"`
	Runs     int     `json:"runs"`
	Requests int64   `json:"requests"`
	Errors   int64   `json:"errors"`
	// PerRequestRuns are the runs whose failed requests are broken down
	// by message and time (per-request logs); the others' by the counters
	// their tool prints.
	PerRequestRuns int               `json:"per_request_runs"`
	ByStatus       []SummaryErrorRow `json:"by_status"`
	Causes         []SummaryErrorRow `json:"causes"`
}

// SummaryErrorRow is one row of an errors breakdown (analyze.ErrorRow,
// which keeps its counts over time and another field order, and whose
// shares are not rounded).
type SummaryErrorRow struct {
	// Status is the HTTP status; 0: no response; -1: not told.
	Status int32 `json:"status"`
	// Message is the error message with addresses, ports, ids and
	// numbers folded (<ip>, <port>, <id>, <n>); Example one message as
	// the tool wrote it.
	Message string `json:"message,omitempty"`
	Example string `json:"example,omitempty"`
	// Counter names the summary counter of a row of runs without
	// per-request data: non-2xx, timeout, connect, read, write, other.
	Counter       string  `json:"counter,omitempty"`
	Count         int64   `json:"count"`
	ShareErrors   float64 `json:"share_of_errors"`
	ShareRequests float64 `json:"share_of_requests"`
	// FirstSeen and LastSeen are when the row's failed requests were
	// first and last seen (seconds rounded to 0.001, the clock to the
	// millisecond).
	FirstSeen *analyze.ErrorSeen `json:"first_seen,omitempty"`
	LastSeen  *analyze.ErrorSeen `json:"last_seen,omitempty"`
}

// summaryErrors converts the verdict's errors breakdowns.
func summaryErrors(v *analyze.Verdict) []SummaryErrors {
	var out []SummaryErrors
	for _, b := range v.Errors {
		e := SummaryErrors{System: b.System, Endpoint: b.Endpoint, Runs: b.Runs, Requests: b.Requests, Errors: b.Errors,
			PerRequestRuns: b.PerRequestRuns, ByStatus: summaryErrorRows(b.ByStatus), Causes: summaryErrorRows(b.Causes)}
		out = append(out, e)
	}
	return out
}

func summaryErrorRows(rows []analyze.ErrorRow) []SummaryErrorRow {
	out := []SummaryErrorRow{}
	for _, r := range rows {
		out = append(out, SummaryErrorRow{Status: r.Status, Message: r.Message, Example: r.Example, Counter: r.Counter, Count: r.Count,
			ShareErrors: round(r.ShareErrors, 4), ShareRequests: round(r.ShareRequests, 4),
			FirstSeen: summarySeen(r.First), LastSeen: summarySeen(r.Last)})
	}
	return out
}

func summarySeen(s *analyze.ErrorSeen) *analyze.ErrorSeen {
	if s == nil {
		return nil
	}
	out := &analyze.ErrorSeen{RunID: s.RunID, Seq: s.Seq, AtS: round(s.AtS, 3)}
	if s.At != nil {
		t := s.At.Truncate(time.Millisecond)
		out.At = &t
	}
	return out
}

// errorsSection is the "Errors" section: per system (and endpoint) whose
// runs failed, its failed requests by cause (and by status when a status
// has several causes), with the errors-over-time figure.
func (b *reportBuilder) errorsSection() *section {
	if len(b.v.Errors) == 0 {
		return nil
	}
	sec := &section{Title: "Errors", ID: "errors"}
	sec.Blocks = append(sec.Blocks, para(tx("Failed requests by cause: the status and the error message, with addresses, ports, ids and numbers folded ("),
		mono("<ip>"), tx(", "), mono("<port>"), tx(", "), mono("<id>"), tx(", "), mono("<n>"),
		tx(") so that one cause is one row; times are seconds since the start of the run they were seen in.")))
	for i, e := range b.v.Errors {
		sec.Blocks = append(sec.Blocks, para(errorsLead(e)...))
		if len(e.ByStatus) > 0 && len(e.ByStatus) < len(e.Causes) {
			sec.Blocks = append(sec.Blocks, errorTable(e, e.ByStatus, false))
		}
		sec.Blocks = append(sec.Blocks, errorTable(e, e.Causes, true))
		sec.Blocks = append(sec.Blocks, b.figure(ErrorsFigureName(i))...)
	}
	if p := b.meta.Errors.leftOut("Errors over time", "systems and endpoints with per-request errors (those with the most)"); p != nil {
		sec.Blocks = append(sec.Blocks, p)
	}
	return sec
}

// ErrorsFigureName is the name (without extension) of the errors-over-time
// figure of the i-th errors breakdown of a verdict.
func ErrorsFigureName(i int) string { return "errors-" + strconv.Itoa(i+1) }

// errorsLead is the sentence before a breakdown's tables.
func errorsLead(e analyze.ErrorBreakdown) []inline {
	runs := []inline{bold(e.System)}
	if e.Endpoint != nil {
		runs = append(runs, tx(" "), mono(*e.Endpoint))
	}
	s := fmt.Sprintf(": %d of %d requests failed (%s) over %s", e.Errors, e.Requests, pct(e.ErrorShare), plural(e.Runs, "run"))
	if n := e.Runs - e.PerRequestRuns; n > 0 && e.PerRequestRuns > 0 {
		s += fmt.Sprintf("; %s without a per-request log counted by the tool's summary (no message, no time)", plural(n, "run"))
	} else if e.PerRequestRuns == 0 {
		s += " without a per-request log: counted by the tool's summary (no message, no time)"
	}
	return append(runs, tx(s+"."))
}

// errorTable is a breakdown's rows by cause (withMessage) or by status.
func errorTable(e analyze.ErrorBreakdown, rows []analyze.ErrorRow, withMessage bool) *tableBlock {
	head := []string{"status"}
	if withMessage {
		head = append(head, "error")
	}
	head = append(head, "failed", "% of errors", "% of requests", "first seen", "last seen")
	t := &tableBlock{Class: "errors"}
	for _, h := range head {
		t.Head = append(t.Head, []inline{tx(h)})
	}
	for _, h := range head {
		t.Numeric = append(t.Numeric, h == "failed" || strings.HasPrefix(h, "%"))
	}
	for _, r := range rows {
		row := [][]inline{{tx(StatusText(r.Status))}}
		if withMessage {
			switch {
			case r.Message == "":
				row = append(row, []inline{tx("-")})
			case r.Counter != "":
				row = append(row, []inline{em(r.Message)})
			default:
				row = append(row, []inline{mono(r.Message)})
			}
		}
		row = append(row, []inline{tx(strconv.FormatInt(r.Count, 10))}, []inline{tx(pct(r.ShareErrors))}, []inline{tx(pct(r.ShareRequests))},
			[]inline{tx(seenText(r.First, e.Runs))}, []inline{tx(seenText(r.Last, e.Runs))})
		t.Rows = append(t.Rows, row)
	}
	return t
}

// StatusText words an errors row's status: the code, "none" for no
// response (0), "not told" (-1).
func StatusText(s int32) string {
	switch {
	case s == 0:
		return "none"
	case s < 0:
		return "not told"
	}
	return strconv.Itoa(int(s))
}

// seenText words when a row was seen: seconds since its run's start, and
// the run when the breakdown has several.
func seenText(s *analyze.ErrorSeen, runs int) string {
	if s == nil {
		return "-"
	}
	t := strconv.FormatFloat(s.AtS, 'f', 2, 64) + " s"
	if runs > 1 {
		t = fmt.Sprintf("run %d, %s", s.Seq, t)
	}
	return t
}

// errorsSummaryLines are summary.md's errors: one line per breakdown (at
// most max), its three largest causes with their counts and times.
func errorsSummaryLines(v *analyze.Verdict, most int) []string {
	if len(v.Errors) == 0 {
		return nil
	}
	lines := []string{"**Errors** (by cause; times since the run's start):"}
	for i, e := range v.Errors {
		if i == most {
			lines = append(lines, fmt.Sprintf("- and %d more in the full report", len(v.Errors)-most))
			break
		}
		who := "**" + text(shorten(e.System, cellRunes)) + "**"
		if e.Endpoint != nil {
			who += " " + code(shorten(*e.Endpoint, cellRunes), false)
		}
		var causes []string
		for j, r := range e.Causes {
			if j == 3 {
				causes = append(causes, fmt.Sprintf("%d more", len(e.Causes)-3))
				break
			}
			c := StatusText(r.Status)
			if r.Message != "" && !strings.HasPrefix(r.Message, c+" ") {
				c += " " + code(shorten(r.Message, cellRunes), false)
			}
			c += fmt.Sprintf(" %d", r.Count)
			if r.First != nil && r.Last != nil {
				c += fmt.Sprintf(" (%.1f-%.1f s)", r.First.AtS, r.Last.AtS)
			}
			causes = append(causes, c)
		}
		lines = append(lines, fmt.Sprintf("- %s: %d of %d failed (%s): %s", who, e.Errors, e.Requests, pct(e.ErrorShare), strings.Join(causes, "; ")))
	}
	return append(lines, "")
}
