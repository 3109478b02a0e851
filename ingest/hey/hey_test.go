package hey

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/results"
)

// TestHeyRuns checks values of the hey summaries against the inputs.
func TestHeyRuns(t *testing.T) {
	runs, err := ingesttest.ParseFile(t, parse, "../testdata/notwrk/hey_01.txt")
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, err %v", len(runs), err)
	}
	r := runs[0]
	if r.Tool != "hey" || r.LoadModel != results.LoadClosed || r.Target != "http://127.0.0.1:8080" || r.Label != "127.0.0.1:8080" ||
		r.Connections == nil || *r.Connections != 50 || r.Requests != 200 || r.Errors != 0 || r.RPS != 10913.3967 || r.DurationS != 0.0183 ||
		!ingesttest.PtrEq(r.LatMeanMs, 2.7) || !ingesttest.PtrEq(r.LatMinMs, 0.4) || !ingesttest.PtrEq(r.LatMaxMs, 7.4) || !ingesttest.PtrEq(r.LatP50Ms, 2.3) || !ingesttest.PtrEq(r.LatP90Ms, 5.3) ||
		!ingesttest.PtrEq(r.LatP99Ms, 6.6) || r.BytesIn == nil || *r.BytesIn != 122400 || r.SourceLine != 1 || r.Command == nil || *r.Command != "hey -c 50 -n 200 http://127.0.0.1:8080" {
		t.Errorf("hey_01: %+v", r.Run)
	}
	if len(r.Percentiles) != 7 || r.Percentiles[0].Quantile != 0.1 || r.Percentiles[0].LatencyMs != 0.9 || r.Percentiles[6].Quantile != 0.99 {
		t.Errorf("hey_01 percentiles %+v", r.Percentiles)
	}

}

// TestHeyEmbedded: hey embedded in another tool's output: two summaries
// without histogram or latency distribution, no command: named after the
// file.
func TestHeyEmbedded(t *testing.T) {
	runs, err := ingesttest.ParseFile(t, parse, "../testdata/notwrk/hey_03.txt")
	if err != nil || len(runs) != 2 {
		t.Fatalf("hey_03: %d runs, err %v", len(runs), err)
	}
	if runs[0].Label != "hey_03" || runs[0].Target != "" || runs[0].Connections != nil || runs[0].Requests != 50 || runs[1].DurationS != 5.0027 ||
		runs[0].SourceLine != 9 || runs[1].SourceLine != 24 || len(runs[0].Percentiles) != 0 || !ingesttest.PtrEq(runs[1].LatMaxMs, 5.9) {
		t.Errorf("hey_03: %+v / %+v", runs[0].Run, runs[1].Run)
	}

}

// TestHeyRealRuns: runs recorded here against the test server, with
// errors, time-outs, refused connections, one request, a duration.
func TestHeyRealRuns(t *testing.T) {
	for _, c := range []struct {
		file                     string
		requests, errors, non2xx int64
		timeouts                 int64
		noLatency                bool
		planned, timeout         float64
		notes                    string
		target                   string
	}{
		{file: "real-mixed.txt", requests: 2000, errors: 666, non2xx: 666, timeout: 20, target: "http://127.0.0.1:19100/mixed?every=3"},
		{file: "real-close.txt", requests: 2000, errors: 10, timeout: 20, target: "http://127.0.0.1:19100/close?every=10"},
		{file: "real-timeout.txt", requests: 10, errors: 10, timeouts: 10, noLatency: true, timeout: 1},
		{file: "real-refused.txt", requests: 20, errors: 20, noLatency: true, timeout: 20, target: "http://127.0.0.1:19199/ok"},
		{file: "real-one.txt", requests: 1, timeout: 20, notes: "7 latency distribution rows printed as"},
		{file: "real-duration.txt", requests: 2000, planned: 2, timeout: 20, notes: "rate limited to 100 requests/s per worker (-q), 1000 in all"},
	} {
		runs, err := ingesttest.ParseFile(t, parse, "testdata/hey/"+c.file)
		if err != nil || len(runs) != 1 {
			t.Errorf("%s: %d runs, err %v", c.file, len(runs), err)
			continue
		}
		r := runs[0]
		if r.Requests != c.requests || r.Errors != c.errors || *r.Non2xx != c.non2xx || *r.Timeouts != c.timeouts ||
			(r.LatMeanMs == nil) != c.noLatency || (r.PlannedDurationS == nil) != (c.planned == 0) ||
			c.planned != 0 && *r.PlannedDurationS != c.planned || r.TimeoutS == nil || *r.TimeoutS != c.timeout {
			t.Errorf("%s: %+v", c.file, r.Run)
		}
		if c.target != "" && r.Target != c.target {
			t.Errorf("%s: target %q", c.file, r.Target)
		}
		if c.notes != "" && (r.Notes == nil || !strings.Contains(*r.Notes, c.notes)) {
			t.Errorf("%s: notes %v, want %q", c.file, r.Notes, c.notes)
		}
		if c.noLatency && len(r.Percentiles) != 0 {
			t.Errorf("%s: percentiles %+v", c.file, r.Percentiles)
		}
	}

}

// TestHeyTranscript: in a transcript each command goes with the summary
// after it.
func TestHeyTranscript(t *testing.T) {
	runs, err := ingesttest.ParseFile(t, parse, "testdata/hey/real-transcript.txt")
	if err != nil || len(runs) != 2 {
		t.Fatalf("transcript: %d runs, err %v", len(runs), err)
	}
	if runs[0].Target != "http://127.0.0.1:19100/ok" || *runs[0].Connections != 5 || runs[0].Requests != 500 ||
		runs[1].Target != "http://127.0.0.1:19100/big?kb=4" || *runs[1].Connections != 3 || runs[1].Requests != 300 ||
		runs[1].BytesIn != nil || runs[1].SourceLine != 48 {
		t.Errorf("transcript: %+v / %+v", runs[0].Run, runs[1].Run)
	}
}

// summary is a hey summary with the values given.
func summary(total, rps string, status, errs string) string {
	return "Summary:\n  Total:\t" + total + " secs\n  Slowest:\t0.0100 secs\n  Fastest:\t0.0001 secs\n  Average:\t0.0010 secs\n" +
		"  Requests/sec:\t" + rps + "\n  \n  Total data:\t1300 bytes\n  Size/request:\t13 bytes\n\n" +
		"Latency distribution:\n  10%% in 0.0005 secs\n  50%% in 0.0009 secs\n  99%% in 0.0090 secs\n\n" +
		"Status code distribution:\n" + status + "\n" + errs + "\n"
}

func TestHeyVariants(t *testing.T) {
	opts := core.Options{Source: "x.txt"}
	// hey keeps at most 1,000,000 results: requests from Requests/sec × Total.
	c, err := ingesttest.ParseString(parse, summary("100.0000", "15000.0000", "  [200]\t1000000 responses", ""), opts)
	if err != nil || len(c.Runs) != 1 {
		t.Fatalf("cap: %v", err)
	}
	if r := c.Runs[0]; r.Requests != 1_500_000 || r.Notes == nil || !strings.Contains(*r.Notes, "at most 1000000 results") {
		t.Errorf("cap: %+v notes %v", r.Run, *r.Notes)
	}
	// Its Average sums the latencies of all 1,500,000 successes but
	// divides by the 1,000,000 it kept: 1 ms printed is 2/3 ms.
	if r := c.Runs[0]; r.LatMeanMs == nil || math.Abs(*r.LatMeanMs-1.0/1.5) > 1e-12 || !strings.Contains(*r.Notes, "corrected by x0.666667") {
		t.Errorf("cap: mean %v notes %v", r.LatMeanMs, *r.Notes)
	}
	// With 100,000 errors among the 1,500,000: 1,400,000 successes.
	c, _ = ingesttest.ParseString(parse, summary("100.0000", "15000.0000", "  [200]\t1000000 responses",
		"Error distribution:\n  [100000]\tGet \"http://h/\": EOF"), opts)
	if r := c.Runs[0]; r.LatMeanMs == nil || math.Abs(*r.LatMeanMs-1.0/1.4) > 1e-12 || r.Errors != 100000 {
		t.Errorf("cap with errors: %+v mean %v", r.Run, r.LatMeanMs)
	}
	// Counts that disagree otherwise are noted.
	c, _ = ingesttest.ParseString(parse, summary("1.0000", "500.0000", "  [200]\t100 responses", ""), opts)
	if r := c.Runs[0]; r.Requests != 100 || r.Notes == nil || !strings.Contains(*r.Notes, "disagree") {
		t.Errorf("disagree: %+v", r.Run)
	}
	// 3xx are no errors, 1xx, 4xx and 5xx are; errors add up.
	c, _ = ingesttest.ParseString(parse, summary("1.0000", "110.0000", "  [200]\t50 responses\n  [302]\t20 responses\n  [404]\t10 responses\n  [503]\t20 responses",
		"Error distribution:\n  [7]\tGet \"http://h/\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)\n  [3]\tGet \"http://h/\": EOF"), opts)
	if r := c.Runs[0]; r.Requests != 110 || r.Errors != 40 || *r.Non2xx != 30 || *r.Timeouts != 7 || r.Notes != nil {
		t.Errorf("status mix: %+v notes %v", r.Run, r.Notes)
	}
	// Spaces instead of tabs, whitespace-only lines, indented (markdown),
	// "%" rows of older hey, and an oha report before it that is skipped.
	oha, _ := os.ReadFile("../oha/testdata/oha/oha_01.txt")
	in := string(oha) + "\n    $ ./hey_linux_amd64 -z 5s -c=8 -t 0 -q 10 'http://h:81/x?a=1&b=2' > out\n" + strings.ReplaceAll(
		strings.ReplaceAll(summary("5.0000", "80.0000", "  [200] 400 responses", ""), "\t", "   "), "%%", "%")
	in = strings.ReplaceAll(in, "\n", "\n    ")
	c, err = ingesttest.ParseString(parse, in, opts)
	if err != nil || len(c.Runs) != 1 {
		t.Fatalf("indented: %d runs, %v", len(c.Runs), err)
	}
	r := c.Runs[0]
	if r.Target != "http://h:81/x?a=1&b=2" || *r.Connections != 8 || *r.PlannedDurationS != 5 || r.TimeoutS != nil || r.Requests != 400 ||
		!ingesttest.PtrEq(r.LatP99Ms, 9) || len(r.Percentiles) != 3 || r.Label != "h:81" {
		t.Errorf("indented: %+v", r.Run)
	}
	// The oha report alone is no hey output (it is oha's).
	if err := ingesttest.ParserNamed(t, parsers, "hey").Parse(context.Background(), strings.NewReader(string(oha)), opts, &ingesttest.Collect{}); !errors.Is(err, core.ErrNoOutput) {
		t.Errorf("oha: %v", err)
	}
	// A summary cut before Requests/sec (not detected: the parser itself).
	err = ingesttest.ParserNamed(t, parsers, "hey").Parse(context.Background(), strings.NewReader("text\nSummary:\n  Total:\t1.0 secs\n  Slowest:\t0.1 secs\n"), opts, &ingesttest.Collect{})
	ingesttest.WantSyntax(t, err, 4, "without its Total, Requests/sec")
	// A malformed status row.
	_, err = ingesttest.ParseString(parse, summary("1.0000", "100.0000", "  [200]\tmany responses", ""), opts)
	ingesttest.WantSyntax(t, err, 17, "status code row")
	// Another Summary block (prose) does not take the command away.
	c, err = ingesttest.ParseString(parse, "hey -c 3 http://a:1/\nSummary:\nall good\nSummary:\n"+strings.TrimPrefix(summary("1.0000", "100.0000", "  [200]\t100 responses", ""), "Summary:\n"), opts)
	if err != nil || len(c.Runs) != 1 || c.Runs[0].Target != "http://a:1/" {
		t.Errorf("prose summary: %v %+v", err, c.Runs)
	}
}

func TestParseHeyCommand(t *testing.T) {
	for _, c := range []struct {
		line, url string
		conns     int64
		dur, q    float64
		ok, csv   bool
	}{
		{"hey -n 200 -c 50 http://localhost:8080/", "http://localhost:8080/", 50, 0, 0, true, false},
		{"hey http://localhost:8080/", "http://localhost:8080/", 50, 0, 0, true, false},
		{"hey -z 1m30s --c=4 -q 2.5 -H 'A: b' -disable-keepalive -m POST -d '{\"a\":1}' https://x/y", "https://x/y", 4, 90, 2.5, true, false},
		{"hey -o csv -c 2 http://x/ extra words", "http://x/", 2, 0, 0, true, true},
		{"hey -c 8 $URL", "", 8, 0, 0, true, false},
		{"hey is a tiny program", "", 0, 0, 0, false, false},
		{"hey -n sets the number of requests", "", 0, 0, 0, false, false},
		{"rakyll/hey -c 3 http://x/", "http://x/", 3, 0, 0, true, false},
	} {
		i := core.FindCommand([]byte(c.line), isHeyExe)
		if i < 0 {
			if c.ok {
				t.Errorf("%q: no command found", c.line)
			}
			continue
		}
		cmd, ok := parseHeyCommand(c.line[i:], 1)
		if ok != c.ok {
			t.Errorf("%q: ok %v", c.line, ok)
			continue
		}
		if ok && (cmd.url != c.url || cmd.conns != c.conns || cmd.duration != c.dur || cmd.qps != c.q || cmd.csv != c.csv) {
			t.Errorf("%q: %+v", c.line, cmd)
		}
	}
	// A command continued on the next line.
	c, err := ingesttest.ParseString(parse, "hey -c 7 \\\n  -z 2s http://c:9/\n"+summary("2.0000", "50.0000", "  [200]\t100 responses", ""), core.Options{Source: "x"})
	if err != nil || len(c.Runs) != 1 || c.Runs[0].Target != "http://c:9/" || *c.Runs[0].Connections != 7 || *c.Runs[0].PlannedDurationS != 2 {
		t.Errorf("continued: %v %+v", err, c.Runs)
	}
}

func TestHeyCSV(t *testing.T) {
	var c ingesttest.Collect
	f, _ := os.Open("testdata/hey/real-mixed.csv")
	defer f.Close()
	opts := core.Options{Source: "runs/real-mixed.csv", Labels: map[string]string{"real-mixed": "svc"}}
	if err := parse(context.Background(), f, opts, &c); err != nil || len(c.Runs) != 1 {
		t.Fatalf("%d runs, %v", len(c.Runs), err)
	}
	r := c.Runs[0]
	if r.Tool != "hey" || r.Label != "svc" || r.Target != "" || r.Requests != 2000 || r.Errors != 400 || *r.Non2xx != 400 ||
		!r.HasSamples || r.StartedAt != nil || len(c.Samples) != 2000 || c.Samples[0].Status != 200 {
		t.Errorf("%+v", r.Run)
	}
	// The first rows: 0.0014,...,200,0.0003 and 0.0004,...,200,0.0013.
	if s := c.Samples[0]; s.LatencyMs != 1.4 || s.TS != 0 || c.Samples[1].LatencyMs != 0.4 || math.Abs(c.Samples[1].TS-0.001) > 1e-12 {
		t.Errorf("first sample %+v", s)
	}

	hdr := heyCSVHeader + "\n"
	row := func(lat, off float64, code int) string {
		return fmt.Sprintf("%.4f,0.0000,0.0000,0.0000,%.4f,0.0000,%d,%.4f\n", lat, lat, code, off)
	}
	var a, b strings.Builder
	a.WriteString(hdr)
	b.WriteString(hdr)
	for i := range 200 {
		a.WriteString(row(0.002, float64(i)*0.01, 200))
		b.WriteString(row(0.004, float64(i)*0.01, 503))
	}
	// Two outputs appended to one file: two runs.
	got, err := ingesttest.ParseString(parse, a.String()+b.String(), core.Options{Source: "all.csv"})
	if err != nil || len(got.Runs) != 2 || got.Runs[0].Requests != 200 || got.Runs[1].Errors != 200 || got.Runs[1].Index != 1 || got.Runs[1].Label != "all" {
		t.Fatalf("appended: %v %+v", err, got.Runs)
	}
	// One malformed line in 201 is noted; three are too many.
	got, err = ingesttest.ParseString(parse, a.String()+"0.0020,oops\n", core.Options{Source: "x.csv"})
	if err != nil || len(got.Runs) != 1 || got.Runs[0].Notes == nil || !strings.Contains(*got.Runs[0].Notes, "line 202: 2 fields, want 8") {
		t.Errorf("one bad line: %v %+v", err, got.Runs)
	}
	_, err = ingesttest.ParseString(parse, a.String()+"x\ny\n0.1,0.1,0.1,0.1,0.1,0.1,abc,0.1\n", core.Options{Source: "x.csv"})
	ingesttest.WantSyntax(t, err, 202, "3 of 204 lines malformed")
	// The header alone: every request failed; an empty run.
	got, err = ingesttest.ParseString(parse, hdr, core.Options{Source: "x.csv"})
	if err != nil || len(got.Runs) != 1 || got.Runs[0].Requests != 0 || got.Runs[0].Percentiles == nil || got.Runs[0].Notes == nil {
		t.Errorf("header only: %v %+v", err, got.Runs)
	}
	// Called directly on something else.
	p := ingesttest.ParserNamed(t, parsers, "hey-csv")
	if err := p.Parse(context.Background(), strings.NewReader("a,b\n1,2\n"), core.Options{Source: "x"}, &ingesttest.Collect{}); !errors.Is(err, core.ErrNoOutput) {
		t.Errorf("no header: %v", err)
	}
}

// FuzzHey checks that no input makes the hey parser panic, that its errors
// are *SyntaxError or *NoOutputError and that its runs hold only finite,
// non-negative numbers.
func FuzzHey(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/hey/*.txt", "../testdata/notwrk/hey_*.txt", "../oha/testdata/oha/*.txt")
	p := ingesttest.ParserNamed(f, parsers, "hey")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}

// FuzzHeyCSV does the same for the hey -o csv parser.
func FuzzHeyCSV(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/hey/*.csv")
	f.Add([]byte(heyCSVHeader + "\n0.1,0.1,0.1,0.1,0.1,0.1,200,99999999999\n1e5,0,0,0,0,0,200,0\n\"0.1\",0,0,0,0,0,200,0\n"))
	p := ingesttest.ParserNamed(f, parsers, "hey-csv")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}
