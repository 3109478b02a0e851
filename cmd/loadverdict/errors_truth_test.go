package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/report"
)

// errorsTruth is a cause a truth server produced in a window of its clock.
type errorsTruth struct {
	status   int32
	message  string // a substring of the normalized message ("" for none)
	count    int64
	from, to float64 // the window, seconds since the first request
}

// TestErrorsBreakdownTruth checks the errors breakdown of
// testdata/truth/errors-breakdown (scripts/truth/make-errors-breakdown.sh):
// a truth server that answers 503, then 500, then resets connections in
// three windows, measured with vegeta, hey (CSV) and as a JMeter JTL.
// Each cause is one row, with the count the tool itself reports (vegeta
// report's status codes, the CSV's and the JTL's rows, in meta.txt) and
// first and last seen inside its window (send times; the server's clock
// starts at the first request's arrival, so a request sent just before a
// window's edge may fall on either side: 50 ms of slack).
func TestErrorsBreakdownTruth(t *testing.T) {
	const slack = 0.05
	dir := "../../testdata/truth/errors-breakdown/"
	reset := "connection reset by peer"
	for _, tc := range []struct {
		name     string
		folder   string
		endpoint string
		requests int64
		want     []errorsTruth
	}{
		{"vegeta", "vegeta", "", 1800, []errorsTruth{
			{503, "503 Service Unavailable", 298, 1, 2.5},
			{500, "500 Internal Server Error", 202, 4, 5},
			{0, `Get "http://<ip>:<port>/": read tcp <ip>:<port>-><ip>:<port>: read: ` + reset, 200, 6.5, 7.5},
		}},
		// hey's CSV keeps no request without a response: the resets of
		// [6.5 s, 7.5 s) are not in it (the script's header says so).
		{"hey", "hey", "", 1604, []errorsTruth{
			{500, "", 300, 4, 5.5},
			{503, "", 203, 1.5, 2.5},
		}},
		{"jmeter a", "jmeter", "a", 600, []errorsTruth{
			{0, "java.net.SocketException: Connection reset", 75, 0.5, 1.5},
			{503, "", 75, 3, 4},
			{500, "", 75, 5, 6},
		}},
		{"jmeter b", "jmeter", "b", 600, []errorsTruth{
			{0, "java.net.SocketException: Connection reset", 75, 0.5, 1.5},
			{503, "", 75, 3, 4},
			{500, "", 75, 5, 6},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := reportSummary(t, dir+tc.folder)
			var e *report.SummaryErrors
			for i := range s.Errors {
				if ep := s.Errors[i].Endpoint; ep == nil && tc.endpoint == "" || ep != nil && *ep == tc.endpoint {
					e = &s.Errors[i]
				}
			}
			if e == nil {
				t.Fatalf("no errors breakdown for endpoint %q: %+v", tc.endpoint, s.Errors)
			}
			var total int64
			for _, w := range tc.want {
				total += w.count
			}
			if e.Requests != tc.requests || e.Errors != total || e.PerRequestRuns != 1 || len(e.Causes) != len(tc.want) {
				t.Fatalf("requests %d, errors %d, per-request runs %d, %d causes; want %d, %d, 1, %d: %+v",
					e.Requests, e.Errors, e.PerRequestRuns, len(e.Causes), tc.requests, total, len(tc.want), e.Causes)
			}
			for _, w := range tc.want {
				var row *report.SummaryErrorRow
				for i, c := range e.Causes {
					if c.Status == w.status && (w.message == "" && c.Message == "" || w.message != "" && strings.Contains(c.Message, w.message)) {
						if row != nil {
							t.Errorf("status %d %q: two rows", w.status, w.message)
						}
						row = &e.Causes[i]
					}
				}
				if row == nil {
					t.Errorf("status %d %q: no row in %+v", w.status, w.message, e.Causes)
					continue
				}
				if row.Count != w.count {
					t.Errorf("status %d: count %d, want %d", w.status, row.Count, w.count)
				}
				if got, want := row.ShareErrors, float64(w.count)/float64(total); abs(got-want) > 1e-4 {
					t.Errorf("status %d: share of errors %v, want %.4f", w.status, got, want)
				}
				if got, want := row.ShareRequests, float64(w.count)/float64(tc.requests); abs(got-want) > 1e-4 {
					t.Errorf("status %d: share of requests %v, want %.4f", w.status, got, want)
				}
				f, l := row.FirstSeen, row.LastSeen
				if f == nil || l == nil || (f.At == nil) != (tc.name == "hey") { // hey's CSV has no clock time
					t.Fatalf("status %d: first %v, last %v", w.status, f, l)
				}
				if f.AtS < w.from-slack || f.AtS > w.from+slack || l.AtS > w.to+slack || l.AtS < w.to-0.1 {
					t.Errorf("status %d: seen %.3f-%.3f s, want %g-%g s", w.status, f.AtS, l.AtS, w.from, w.to)
				}
			}
			// By status: one row per status, the same counts.
			if len(e.ByStatus) != len(tc.want) {
				t.Errorf("by status: %+v", e.ByStatus)
			}
		})
	}
}

// TestErrorsBreakdownCounters checks the rows of runs without a
// per-request log: vegeta's own text and JSON reports of the vegeta run
// above say 298 + 202 = 500 non-2xx responses and 200 without a response.
func TestErrorsBreakdownCounters(t *testing.T) {
	s := reportSummary(t, "../../testdata/truth/errors-breakdown/vegeta-reports")
	if len(s.Errors) != 1 {
		t.Fatalf("errors: %+v", s.Errors)
	}
	e := s.Errors[0]
	if e.Runs != 2 || e.PerRequestRuns != 0 || e.Errors != 2*700 || len(e.Causes) != 2 {
		t.Fatalf("%+v", e)
	}
	want := map[string]int64{"non-2xx": 2 * 500, "other": 2 * 200}
	for _, c := range e.Causes {
		if c.Count != want[c.Counter] || c.FirstSeen != nil {
			t.Errorf("%+v, want count %d and no time", c, want[c.Counter])
		}
	}
}

// reportSummary runs loadverdict report over paths and returns its summary.json.
func reportSummary(t *testing.T, paths ...string) *report.Summary {
	t.Helper()
	out := t.TempDir()
	if _, errOut, err := runCLI(t, "", append([]string{"report", "-o", out}, paths...)...); err != nil {
		t.Fatalf("report: %v: %s", err, errOut)
	}
	s := readSummary(t, filepath.Join(out, "summary.json"))
	return &s
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestErrorsBreakdownMerged checks the errors of a run merged at analysis
// from two parts (errors-breakdown/merged: two vegeta attacks at once,
// whose server answered 503 in [2 s, 3 s) and reset connections in
// [5 s, 6 s); vegeta report over both: 503:200, 0:200): one row per
// cause, the parts' counts added, first and last seen at the earliest
// and latest of the parts' own breakdowns.
func TestErrorsBreakdownMerged(t *testing.T) {
	dir := "../../testdata/truth/errors-breakdown/merged/"
	a, b := dir+"m1.json.gz", dir+"m2.json.gz"
	parts := reportSummary(t, "--system", "p1="+a, "--system", "p2="+b, a, b)
	merged := reportSummary(t, "--merge", a+","+b, a, b)
	if len(parts.Errors) != 2 || len(merged.Errors) != 1 || len(merged.Errors[0].Causes) != 2 {
		t.Fatalf("parts %+v, merged %+v", parts.Errors, merged.Errors)
	}
	e := merged.Errors[0]
	if e.Runs != 1 || e.Requests != 1600 || e.Errors != 400 {
		t.Errorf("merged: %d runs, %d requests, %d errors; want 1, 1600, 400", e.Runs, e.Requests, e.Errors)
	}
	for _, m := range e.Causes {
		var count int64
		var first, last *analyze.ErrorSeen
		for _, p := range parts.Errors {
			for _, c := range p.Causes {
				if c.Status != m.Status || c.Message != m.Message {
					continue
				}
				count += c.Count
				if first == nil || c.FirstSeen.At.Before(*first.At) {
					first = c.FirstSeen
				}
				if last == nil || c.LastSeen.At.After(*last.At) {
					last = c.LastSeen
				}
			}
		}
		if m.Count != 200 || count != 200 {
			t.Errorf("status %d: merged %d, parts %d; want 200", m.Status, m.Count, count)
		}
		if first == nil || m.FirstSeen == nil || m.FirstSeen.At == nil || !m.FirstSeen.At.Equal(*first.At) || !m.LastSeen.At.Equal(*last.At) {
			t.Fatalf("status %d: merged seen %+v - %+v, parts %+v - %+v", m.Status, m.FirstSeen, m.LastSeen, first, last)
		}
		from, to := 2.0, 3.0
		if m.Status == 0 {
			from, to = 5, 6
		}
		if m.FirstSeen.AtS < from-0.05 || m.FirstSeen.AtS > from+0.05 || m.LastSeen.AtS > to+0.05 || m.LastSeen.AtS < to-0.1 {
			t.Errorf("status %d: merged seen %.3f-%.3f s, want %g-%g s", m.Status, m.FirstSeen.AtS, m.LastSeen.AtS, from, to)
		}
	}
}
