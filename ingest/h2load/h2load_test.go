package h2load

import (
	"context"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestH2load checks the figures of real outputs value by value.
func TestH2load(t *testing.T) {
	for _, c := range []struct {
		file                   string
		requests, errs, non2xx int64
		dur, rps, mean         float64
		conns, threads         int32
		proto                  string
	}{
		{file: "real-h1.txt", proto: "http/1.1", conns: 4, threads: 1},
		{file: "real-h2.txt", proto: "h2c", conns: 4, threads: 1},
		{file: "real-threads.txt", proto: "h2c", conns: 8, threads: 2},
		{file: "real-duration.txt", proto: "h2c", conns: 4, threads: 1, dur: 2},
		{file: "real-refused.txt", conns: 2, threads: 1},
	} {
		runs, err := ingesttest.ParseFile(t, parse, "testdata/h2load/"+c.file)
		if err != nil || len(runs) != 1 {
			t.Fatalf("%s: %d runs, err %v", c.file, len(runs), err)
		}
		r := runs[0]
		if *r.Connections != c.conns || *r.Threads != c.threads || r.Target == "" || r.Tool != "h2load" {
			t.Errorf("%s: connections %d threads %d target %q", c.file, *r.Connections, *r.Threads, r.Target)
		}
		if c.proto != "" && (r.Notes == nil || !strings.Contains(*r.Notes, "protocol "+c.proto)) {
			t.Errorf("%s: notes %v lack the protocol %s", c.file, r.Notes, c.proto)
		}
		if c.dur > 0 && (r.DurationS != c.dur || *r.PlannedDurationS != c.dur) {
			t.Errorf("%s: duration %v planned %v", c.file, r.DurationS, r.PlannedDurationS)
		}
	}
	// Values of real-threads.txt, from its lines.
	runs, _ := ingesttest.ParseFile(t, parse, "testdata/h2load/real-threads.txt")
	r := runs[0]
	raw := ingesttest.ReadPlain(t, "testdata/h2load/real-threads.txt")
	for _, want := range []string{"2667 succeeded, 1333 failed", "2667 2xx, 0 3xx, 0 4xx, 1333 5xx"} {
		if !strings.Contains(string(raw), want) {
			t.Fatalf("real-threads.txt lacks %q: regenerated? update this test", want)
		}
	}
	if r.Requests != 4000 || r.Errors != 1333 || *r.Non2xx != 1333 || r.LatMeanMs == nil || r.ThreadRPSMean == nil {
		t.Errorf("real-threads: requests %d errors %d non2xx %d mean %v", r.Requests, r.Errors, *r.Non2xx, r.LatMeanMs)
	}
	runs, _ = ingesttest.ParseFile(t, parse, "testdata/h2load/real-refused.txt")
	if r := runs[0]; r.Requests != 20 || r.Errors != 20 || r.LatMeanMs != nil || r.ThreadRPSMean != nil || r.RPS != 0 {
		t.Errorf("refused: requests %d errors %d mean %v", r.Requests, r.Errors, r.LatMeanMs)
	}
}

// TestH2loadBad: cut outputs and malformed rows are refused with the file
// and line; other text is not taken for h2load.
func TestH2loadBad(t *testing.T) {
	ingesttest.CheckTruncated(t, parsers, "h2load", "testdata/h2load/real-h1.txt", 17, 19, 21)
	in := "finished in 71.85ms, 27836.93 req/s, 3.45MB/s\nrequests: 2000 total, 2000 started, 2000 done, x succeeded, 0 failed, 0 errored, 0 timeout\n"
	_, err := parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "h.txt"})
	if err == nil {
		t.Fatal("no error")
	}
	for _, s := range []string{
		"finished in 71.85ms, 27836.93 req/s, 3.45MB/s\n",
		"The test finished in 2s, 10 req/s, 1MB/s\nrequests: many\n",
		"h2load -c 4 -n 2000 http://x/\n",
	} {
		if p, err := core.DetectIn(parsers, []byte(s)); err == nil && p.Name() == "h2load" {
			t.Errorf("%q detected as h2load", s)
		}
	}
}

// FuzzH2load fuzzes the parser with small hand-cut seeds.
func FuzzH2load(f *testing.F) {
	f.Add([]byte("$ h2load -t 2 -c 8 -n 40 http://h/\nspawning thread #0: 4 total client(s). 20 total requests\n" +
		"spawning thread #1: 4 total client(s). 20 total requests\nApplication protocol: h2c\n\n" +
		"finished in 71.85ms, 27836.93 req/s, 3.45MB/s\nrequests: 40 total, 40 started, 40 done, 40 succeeded, 0 failed, 0 errored, 0 timeout\n" +
		"status codes: 30 2xx, 0 3xx, 0 4xx, 10 5xx\ntraffic: 253.91KB (260000) total, 167.97KB (172000) headers (space savings 0.00%), 25.39KB (26000) data\n" +
		"                     min         max         mean         sd        +/- sd\ntime for request:       22us      1.45ms       135us        91us    90.00%\n" +
		"time for connect:      165us       780us       407us       264us    75.00%\ntime to 1st byte:      366us       955us       607us       250us    75.00%\n" +
		"req/s           :    7053.47     7807.50     7304.35      341.71    75.00%\n"))
	f.Add([]byte("spawning thread #0: 4 total client(s). Timing-based test with 1s of warm-up time and 2s of main duration for measurements.\n" +
		"finished in 3.00s, 0.00 req/s, 0B/s\nrequests: 20 total, 0 started, 0 done, 0 succeeded, 20 failed, 20 errored, 0 timeout\n" +
		"status codes: 0 2xx, 0 3xx, 0 4xx, 0 5xx\ntraffic: 0B (0) total, 0B (0) headers (space savings 0.00%), 0B (0) data\n" +
		"time for request:        0us         0us         0us         0us     0.00%\nreq/s           :       0.00        0.00        0.00        0.00   100.00%\n"))
	p := ingesttest.ParserNamed(f, parsers, "h2load")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}
