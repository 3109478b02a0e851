package bombardier

import (
	"context"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestBombardier checks the figures of real outputs value by value.
func TestBombardier(t *testing.T) {
	for _, c := range []struct {
		file                     string
		requests, errs, non2xx   int64
		timeouts                 int64
		dur, rps, mean, p99, bps float64
		conns                    int32
	}{
		// 2xx - 36325 ... Throughput: 1.71MB/s; Latency 1.09ms; 99% 2.40ms
		{file: "real-ok.txt", requests: 36325, dur: 2, rps: 27455.75, mean: 1.09, p99: 2.4, bps: 1.71 * 1024 * 1024, conns: 10},
		{file: "real-non2xx.txt", requests: 31973, errs: 10657, non2xx: 10657, dur: 2, rps: 18315.26, mean: 0.49786, p99: 3.73, bps: 3.24 * 1024 * 1024, conns: 8},
		{file: "real-errors.txt", requests: 40, errs: 10, rps: 5942.32, dur: 40 / 5942.32, mean: 0.59702, p99: 2.27, bps: 1.17 * 1024 * 1024, conns: 4},
		{file: "real-timeout.txt", requests: 4, errs: 4, timeouts: 4, dur: 2, rps: 0.08, mean: 2510, p99: 2510, bps: 604.89, conns: 4},
		// -o json: latencies in microseconds, bytesRead / timeTakenSeconds.
		{file: "real-ok.json", requests: 22083, dur: 2.01155456, rps: 11261.561685532792, mean: 0.9041663270388987, p99: 8.435,
			bps: 2870790 / 2.01155456, conns: 10},
		{file: "real-timeout.json", requests: 4, errs: 4, timeouts: 4, dur: 2.512301899, rps: 0.07802126527851447, mean: 2506.05375, p99: -1, conns: 4},
	} {
		runs, err := ingesttest.ParseFile(t, parse, "testdata/bombardier/"+c.file)
		if err != nil || len(runs) != 1 {
			t.Fatalf("%s: %d runs, err %v", c.file, len(runs), err)
		}
		r := runs[0]
		if r.Tool != "bombardier" || r.Requests != c.requests || r.Errors != c.errs || *r.Non2xx != c.non2xx || *r.Timeouts != c.timeouts {
			t.Errorf("%s: tool %s requests %d errors %d non2xx %d timeouts %d", c.file, r.Tool, r.Requests, r.Errors, *r.Non2xx, *r.Timeouts)
		}
		if !ingesttest.PtrEq(&r.DurationS, c.dur) || r.RPS != c.rps || !ingesttest.PtrEq(r.LatMeanMs, c.mean) || *r.Connections != c.conns {
			t.Errorf("%s: duration %v rps %v mean %v connections %d", c.file, r.DurationS, r.RPS, *r.LatMeanMs, *r.Connections)
		}
		if c.p99 >= 0 && !ingesttest.PtrEq(r.LatP99Ms, c.p99) || c.p99 < 0 && r.LatP99Ms != nil {
			t.Errorf("%s: p99 %v, want %v", c.file, r.LatP99Ms, c.p99)
		}
		if c.bps > 0 && (r.TransferBPS == nil || *r.TransferBPS < c.bps*0.999 || *r.TransferBPS > c.bps*1.001) {
			t.Errorf("%s: transfer %v, want %v", c.file, r.TransferBPS, c.bps)
		}
	}
	runs, err := ingesttest.ParseFile(t, parse, "testdata/bombardier/real-appended.json")
	if err != nil || len(runs) != 2 || runs[1].Index != 1 || runs[0].Errors != 600 || runs[1].Target != "http://127.0.0.1:19310/sleep?ms=2" {
		t.Fatalf("appended: %d runs, err %v", len(runs), err)
	}
}

// TestBombardierBad: cut outputs and malformed rows are refused with the
// file and line; other text is not taken for bombardier.
func TestBombardierBad(t *testing.T) {
	ingesttest.CheckTruncated(t, parsers, "bombardier", "testdata/bombardier/real-ok.txt", 5, 8, 14)
	ingesttest.CheckCutBytes(t, parsers, "bombardier-json", "testdata/bombardier/real-appended.json", 100, 700)
	for _, c := range []struct {
		name, in string
		line     int
	}{
		{"bad latency", "Statistics        Avg      Stdev        Max\n  Reqs/sec 1.00 0.00 1.00\n  Latency 1.0xs 2ms 3ms\n" +
			"  HTTP codes:\n    1xx - 0, 2xx - 1, 3xx - 0, 4xx - 0, 5xx - 0\n    others - 0\n  Throughput: 1.00KB/s\n", 3},
		{"bad codes", "Statistics        Avg      Stdev        Max\n  Reqs/sec 1.00 0.00 1.00\n" +
			"  HTTP codes:\n    1xx - 0, 2xx - x, 3xx - 0, 4xx - 0, 5xx - 0\n    others - 0\n  Throughput: 1.00KB/s\n", 4},
		{"json without result", `{"spec":{"numberOfConnections":1},"result":{}}`, 1},
		{"json negative", "\n" + `{"spec":{"numberOfConnections":1},"result":{"timeTakenSeconds":1,"req2xx":-1,"others":0,"rps":{"mean":1}}}`, 2},
	} {
		_, err := parseAll(context.Background(), strings.NewReader(c.in), core.Options{Source: "b.txt"})
		ingesttest.WantSyntax(t, err, c.line, "")
		if err != nil && !strings.HasPrefix(err.Error(), "b.txt:") {
			t.Errorf("%s: %v does not name the file", c.name, err)
		}
	}
	for _, s := range []string{
		"Statistics        Avg      Stdev        Max\n",   // a header alone
		"Statistics Avg Stdev Max\nLatency 1ms 2ms 3ms\n", // no Reqs/sec
		"We bombarded http://x with bombardier for 2s using 10 connections\n",
		`{"spec":{"numberOfConnections":10}}`,
	} {
		if p, err := core.DetectIn(parsers, []byte(s)); err == nil && strings.HasPrefix(p.Name(), "bombardier") {
			t.Errorf("%q detected as %s", s, p.Name())
		}
	}
}

// FuzzBombardier fuzzes the text parser with small hand-cut seeds.
func FuzzBombardier(f *testing.F) {
	f.Add([]byte("$ bombardier -c 4 -d 2s -t 500ms -l http://h/\nBombarding http://h/ for 2s using 4 connection(s)\n 00m01s 2s\nDone!\n" +
		"Statistics        Avg      Stdev        Max\n  Reqs/sec         0.08       0.77       7.60\n  Latency         2.51s   471.54us      2.51s\n" +
		"  Latency Distribution\n     50%      2.51s\n     99%      2.51s\n  HTTP codes:\n    1xx - 0, 2xx - 0, 3xx - 0, 4xx - 0, 5xx - 0\n" +
		"    others - 4\n  Errors:\n       timeout - 4\n  Throughput:     605.67/s\n"))
	f.Add([]byte("Bombarding http://h with 10 request(s) using 1 connection(s)\n 10 / 10 [===] 100.00% 37s Done!\nStatistics Avg Stdev Max\n" +
		"  Reqs/sec 264560.00 10733.06 268434\n  Latency 471.00us 522.34us 51.00ms\n  HTTP codes:\n" +
		"    1xx - 0, 2xx - 10, 3xx - 0, 4xx - 0, 5xx - 0\n    others - 0\n  Throughput: 292.92MB/s\n"))
	p := ingesttest.ParserNamed(f, parsers, "bombardier")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}

// FuzzBombardierJSON fuzzes the -o json parser with small seeds.
func FuzzBombardierJSON(f *testing.F) {
	f.Add([]byte(`{"spec":{"numberOfConnections":4,"testType":"timed","testDurationSeconds":2,"url":"http://h/","timeoutSeconds":0.5},` +
		`"result":{"bytesRead":0,"timeTakenSeconds":2.5,"req1xx":0,"req2xx":0,"req3xx":0,"req4xx":0,"req5xx":0,"others":4,` +
		`"errors":[{"description":"timeout","count":4}],"latency":{"mean":2.5e+06,"stddev":2870,"max":2.51e+06,"percentiles":{"50":2510000}},` +
		`"rps":{"mean":0.078,"stddev":0.77,"max":7.6}}}` + "\n"))
	f.Add([]byte(`{"spec":{"numberOfConnections":8},"result":{"timeTakenSeconds":1e308,"req2xx":9223372036854775807,"others":1,"rps":{"mean":1}}}{"spec":{"numberOfConnections":1}}`))
	p := ingesttest.ParserNamed(f, parsers, "bombardier-json")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}
