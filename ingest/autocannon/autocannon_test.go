package autocannon

import (
	"context"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestAutocannon checks the figures of real outputs value by value.
func TestAutocannon(t *testing.T) {
	for _, c := range []struct {
		file                     string
		requests, errs, timeouts int64
		dur, rps, bytes, p99     float64
		hasLat                   bool
	}{
		// 5k requests in 2.13s, 631 kB read; Req/Sec Avg 2,426.5; Latency 99% 34 ms
		{file: "real-ok.txt", requests: 5000, dur: 2.13, rps: 2426.5, bytes: 631000, p99: 34, hasLat: true},
		// 3656 2xx responses, 1828 non 2xx responses; -l: 99% 8 ms
		{file: "real-latency.txt", requests: 5484, errs: 1828, dur: 2.05, rps: 2742.5, bytes: 748000, p99: 8, hasLat: true},
		// 7 requests in 3.06s, 5 errors (5 timeouts): no response, no latency
		{file: "real-timeout.txt", requests: 7, errs: 5, timeouts: 5, dur: 3.06},
		{file: "real-mixed.json", requests: 21283, errs: 7094, dur: 2.03, rps: 10643, bytes: 2901576, p99: 4, hasLat: true},
		{file: "real-timeout.json", requests: 4, errs: 4, timeouts: 4, dur: 3.02},
	} {
		runs, err := ingesttest.ParseFile(t, parse, "testdata/autocannon/"+c.file)
		if err != nil || len(runs) != 1 {
			t.Fatalf("%s: %d runs, err %v", c.file, len(runs), err)
		}
		r := runs[0]
		if r.Tool != "autocannon" || r.Requests != c.requests || r.Errors != c.errs || *r.Timeouts != c.timeouts || r.DurationS != c.dur || r.RPS != c.rps {
			t.Errorf("%s: requests %d errors %d timeouts %d duration %v rps %v", c.file, r.Requests, r.Errors, *r.Timeouts, r.DurationS, r.RPS)
		}
		if float64(*r.BytesIn) != c.bytes || (r.LatMeanMs != nil) != c.hasLat || c.hasLat && *r.LatP99Ms != c.p99 {
			t.Errorf("%s: bytes %d mean %v p99 %v", c.file, *r.BytesIn, r.LatMeanMs, r.LatP99Ms)
		}
	}
}

// TestAutocannonBad: cut or malformed results are refused with the file
// and line; wrk's look-alike first line and prose are not autocannon.
func TestAutocannonBad(t *testing.T) {
	ingesttest.CheckTruncated(t, parsers, "autocannon", "testdata/autocannon/real-ok.txt", 9, 12, 20)
	ingesttest.CheckCutBytes(t, parsers, "autocannon-json", "testdata/autocannon/real-mixed.json", 300)
	in := "│ Stat    │ 2.5% │ 50%  │\n│ Latency │ 0 ms │ x ms │\n│ Stat      │ 1%      │\n│ Req/Sec   │ 1 │\n1k requests in 1s, 1 kB read\n"
	_, err := parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "a.txt"})
	ingesttest.WantSyntax(t, err, 2, "Latency cell")
	for _, s := range []string{
		"Running 10s test @ http://localhost:3000\n10 connections\n",
		"251k requests in 10.05s, 27.9 MB read\n",
		"│ Latency │ 0 ms │\n",
		`{"latency": {"p50": 1}, "requests": {}}`,
	} {
		if p, err := core.DetectIn(parsers, []byte(s)); err == nil && strings.HasPrefix(p.Name(), "autocannon") {
			t.Errorf("%q detected as %s", s, p.Name())
		}
	}
}

// FuzzAutocannon fuzzes the text parser with small hand-cut seeds.
func FuzzAutocannon(f *testing.F) {
	f.Add([]byte("$ autocannon -c 4 -d 2 -l http://h/\nRunning 2s test @ http://h/\n4 connections with 2 pipelining factor\n\n" +
		"┌─────────┬──────┬──────┬───────┬──────┬─────────┬─────────┬───────┐\n│ Stat    │ 2.5% │ 50%  │ 97.5% │ 99%  │ Avg     │ Stdev   │ Max   │\n" +
		"│ Latency │ 0 ms │ 0 ms │ 6 ms  │ 8 ms │ 0.96 ms │ 2.34 ms │ 55 ms │\n└─────────┴──────┴──────┴───────┴──────┴─────────┴─────────┴───────┘\n" +
		"│ Stat      │ 1%     │ 2.5%   │ 50%    │ 97.5%  │ Avg     │ Stdev   │ Min    │\n│ Req/Sec   │ 1,540  │ 1,540  │ 1,540  │ 3,945  │ 2,742.5 │ 1,202.5 │ 1,540  │\n" +
		"│ Bytes/Sec │ 210 kB │ 210 kB │ 210 kB │ 538 kB │ 374 kB  │ 164 kB  │ 210 kB │\n│ Code │ Count │\n│ 200  │ 3656  │\n│ 500  │ 1828  │\n" +
		"│ Percentile │ Latency (ms) │\n│ 0.001      │ 0            │\n│ 99.999     │ 55           │\n" +
		"3656 2xx responses, 1828 non 2xx responses\n5k requests in 2.05s, 748 kB read\n100 errors (100 timeouts)\n"))
	p := ingesttest.ParserNamed(f, parsers, "autocannon")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}

// FuzzAutocannonJSON fuzzes the -j parser with small seeds.
func FuzzAutocannonJSON(f *testing.F) {
	f.Add([]byte(`{"url":"http://h/","connections":2,"pipelining":1,"workers":0,"duration":3.02,"start":"2026-12-02T19:07:40.676Z",` +
		`"errors":4,"timeouts":4,"non2xx":0,"latency":{"mean":0,"stddev":0,"min":0,"max":0,"p2_5":0,"p50":0,"p97_5":0,"p99":0},` +
		`"requests":{"average":0,"total":0,"sent":6},"throughput":{"average":0,"total":0}}`))
	p := ingesttest.ParserNamed(f, parsers, "autocannon-json")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}
