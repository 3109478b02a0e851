package analyze

import (
	"fmt"
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/results"
)

func TestNormalizeError(t *testing.T) {
	for _, tc := range []struct {
		in     string
		status int32
		want   string
	}{
		{"dial tcp 127.0.0.1:41234: connect: connection refused", 0, "dial tcp <ip>:<port>: connect: connection refused"},
		{"dial tcp 127.0.0.1:5555: connect: connection refused", 0, "dial tcp <ip>:<port>: connect: connection refused"},
		{`Get "http://127.0.0.1:19800/": read tcp 127.0.0.1:47977->127.0.0.1:19800: read: connection reset by peer`, 0,
			`Get "http://<ip>:<port>/": read tcp <ip>:<port>-><ip>:<port>: read: connection reset by peer`},
		{"dial tcp [::1]:8080: connect: connection refused", 0, "dial tcp <ip>:<port>: connect: connection refused"},
		{"Get http://localhost:8080/x: EOF", 0, "Get http://localhost:<port>/x: EOF"},
		{"503 Service Unavailable", 503, "503 Service Unavailable"},
		{"503 Service Unavailable", 500, "<n> Service Unavailable"},
		{"request 7f3a9c2e11d04b5a failed after 1500ms", 0, "request <id> failed after <n>ms"},
		{"order 123e4567-e89b-12d3-a456-426614174000 not found", 404, "order <id> not found"},
		{"timeout  after\n 2.5 s", 0, "timeout after <n> s"},
		{"java.net.SocketException: Connection reset", 0, "java.net.SocketException: Connection reset"},
		{"", 502, ""},
	} {
		if got := NormalizeError(tc.in, tc.status); got != tc.want {
			t.Errorf("NormalizeError(%q, %d) = %q, want %q", tc.in, tc.status, got, tc.want)
		}
	}
}

func sample(run string, ts float64, status int32, msg string) results.Sample {
	s := results.Sample{RunID: run, TS: ts, LatencyMs: 1, Status: status}
	if msg != "" {
		s.Error = &msg
	}
	return s
}

// TestErrorTallyBounds checks that a run's tally keeps at most
// MaxErrorCauses causes (the rest under OtherErrors) and widens its
// buckets for a long run, without losing a count.
func TestErrorTallyBounds(t *testing.T) {
	r := results.Run{RunID: "r", Non2xx: results.Ptr[int64](0)}
	tl := NewErrorTally(r)
	n := 0
	for i := range 100 {
		for j := range 3 {
			tl.Add(sample("r", float64(i)*10+float64(j), 0, fmt.Sprintf("cause %c%c", 'a'+i%26, 'a'+i/26)))
			n++
		}
		tl.Add(sample("r", float64(i), 200, ""))
		tl.Add(sample("other run", 1, 500, ""))
	}
	res := tl.Result()
	if len(res.Causes) != MaxErrorCauses || res.Causes[MaxErrorCauses-1].Message != OtherErrors || res.Requests != 400 {
		t.Fatalf("%d causes, last %q, %d requests", len(res.Causes), res.Causes[len(res.Causes)-1].Message, res.Requests)
	}
	var total, buckets int64
	for _, c := range res.Causes {
		total += c.Count
		for _, b := range c.Counts {
			buckets += b
		}
		if len(c.Counts) > maxErrorBuckets {
			t.Errorf("%d buckets", len(c.Counts))
		}
	}
	if total != int64(n) || buckets != total || res.BucketS != 1 {
		t.Errorf("counted %d in causes, %d in buckets of %g s; want %d, bucket 1 s (990 s of 0.5 s buckets halved once)", total, buckets, res.BucketS, n)
	}
	// A log without HTTP statuses (non2xx null): status 0 without a
	// message is a success.
	g := NewErrorTally(results.Run{RunID: "g"})
	g.Add(sample("g", 1, 0, ""))
	g.Add(sample("g", 2, 0, "KO"))
	if c := g.Result().Causes; len(c) != 1 || c[0].Count != 1 {
		t.Errorf("no HTTP status: %+v", c)
	}
}

// TestErrorBreakdownRuns checks a breakdown over two runs of a system: a
// cause seen in both is one row, first seen in the earlier run and last
// in the later; shares are of the system's errors and requests; a run
// without samples adds its counters.
func TestErrorBreakdownRuns(t *testing.T) {
	t0 := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Minute)
	runs := []results.Run{
		{RunID: "a", Seq: 0, Label: "S", Requests: 100, Errors: 10, StartedAt: &t0, Non2xx: results.Ptr[int64](5), HasSamples: true},
		{RunID: "b", Seq: 1, Label: "S", Requests: 100, Errors: 5, StartedAt: &t1, Non2xx: results.Ptr[int64](4), HasSamples: true},
		{RunID: "c", Seq: 2, Label: "S", Requests: 200, Errors: 6, Non2xx: results.Ptr[int64](2), Timeouts: results.Ptr[int64](3)},
		{RunID: "d", Seq: 3, Label: "T", Requests: 50},
	}
	ta, tb := NewErrorTally(runs[0]), NewErrorTally(runs[1])
	for i := range 5 {
		ta.Add(sample("a", 2+float64(i)/10, 503, "503 Service Unavailable"))
		ta.Add(sample("a", 5+float64(i)/10, 0, fmt.Sprintf("dial tcp 10.0.0.1:%d: connect: connection refused", 40000+i)))
		tb.Add(sample("b", 1+float64(i)/10, 503, "503 Service Unavailable"))
	}
	v := &Verdict{Runs: runs}
	v.errorBreakdowns([]RunErrors{ta.Result(), tb.Result()})
	if len(v.Errors) != 1 {
		t.Fatalf("%d breakdowns, want 1 (T had no error)", len(v.Errors))
	}
	e := v.Errors[0]
	if e.Runs != 3 || e.Requests != 400 || e.Errors != 21 || e.PerRequestRuns != 2 || e.PerRequestError != 15 {
		t.Fatalf("%+v", e)
	}
	want := []struct {
		status      int32
		count       int64
		first, last string
	}{{503, 10, "a@2", "b@1.4"}, {0, 5, "a@5", "a@5.4"}, {0, 3, "", ""}, {-1, 2, "", ""}, {-1, 1, "", ""}}
	if len(e.Causes) != len(want) {
		t.Fatalf("causes %+v", e.Causes)
	}
	at := func(s *ErrorSeen) string {
		if s == nil {
			return ""
		}
		return fmt.Sprintf("%s@%g", s.RunID, s.AtS)
	}
	for i, w := range want {
		c := e.Causes[i]
		if c.Status != w.status || c.Count != w.count || at(c.First) != w.first || at(c.Last) != w.last {
			t.Errorf("cause %d: %d x%d %s-%s (%s), want %d x%d %s-%s", i, c.Status, c.Count, at(c.First), at(c.Last), c.Message, w.status, w.count, w.first, w.last)
		}
		if c.ShareErrors != float64(w.count)/21 || c.ShareRequests != float64(w.count)/400 {
			t.Errorf("cause %d: shares %v %v", i, c.ShareErrors, c.ShareRequests)
		}
	}
	if e.Causes[0].First.At == nil || !e.Causes[0].First.At.Equal(t0.Add(2*time.Second)) {
		t.Errorf("first seen at %v", e.Causes[0].First.At)
	}
	if e.Causes[1].Message != "dial tcp <ip>:<port>: connect: connection refused" {
		t.Errorf("message %q", e.Causes[1].Message)
	}
	if len(e.ByStatus) != 3 || e.ByStatus[0].Status != 503 || e.ByStatus[1].Count != 8 {
		t.Errorf("by status %+v", e.ByStatus)
	}
}

// TestErrorTallyNormalizeCache checks that the tally's caches give what
// NormalizeError gives, for messages whose digits are all folded (one
// shape, many ports) and for messages that keep some (http2, a status).
func TestErrorTallyNormalizeCache(t *testing.T) {
	tl := NewErrorTally(results.Run{RunID: "r"})
	var msgs []string
	for i := range 50 {
		msgs = append(msgs, fmt.Sprintf("dial tcp 10.0.%d.1:%d: connect: connection refused", i%3, 40000+i),
			fmt.Sprintf("http2: stream %d reset by ab%d", i, i%10), fmt.Sprintf("%d Service Unavailable", 500+i%5))
	}
	for pass := range 2 {
		for _, m := range msgs {
			for _, st := range []int32{0, 503} {
				if got, want := tl.normalize(m, st), NormalizeError(m, st); got != want {
					t.Fatalf("pass %d: normalize(%q, %d) = %q, want %q", pass, m, st, got, want)
				}
			}
		}
	}
	if len(tl.shapes) == 0 || len(tl.shapes) > 10 {
		t.Errorf("%d shapes cached", len(tl.shapes))
	}
}
