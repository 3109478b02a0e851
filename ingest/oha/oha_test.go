package oha

import (
	"context"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestOha checks the figures of published outputs, both text layouts and
// the JSON, value by value.
func TestOha(t *testing.T) {
	for _, c := range []struct {
		file                string
		requests, errs      int64
		dur, rps, mean, p99 float64 // mean -1: null
		conns               int32
	}{
		// old layout: [429] 441 responses, [200] 160 responses; Average 0.8213 secs; 99% in 3.5202 secs
		{file: "issue-212-old.txt", requests: 601, errs: 441, dur: 30.0009, rps: 20.0327, mean: 821.3, p99: 3520.2, conns: 50},
		{file: "issue-100-old.txt", requests: 200, dur: 19.9057, rps: 10.0473, mean: 7474.6, p99: 18699.1, conns: 100},
		// current layout: 99.00% in 0.0020 secs
		{file: "oha_01.txt", requests: 20000, dur: 5.944, rps: 3364.7592, mean: 1.5, p99: 2},
		// JSON: 21636 responses and 9 aborted at the deadline
		{file: "real-1.16.json", requests: 21645, errs: 9, dur: 3.003860875, rps: 7205.726530194245, mean: 1.3785588666112063, p99: 31.008791},
		{file: "empty-1.16.json", requests: 5, errs: 5, dur: 2.004223334, rps: 2.4947319568528683, mean: -1},
	} {
		runs, err := ingesttest.ParseFile(t, parse, "testdata/oha/"+c.file)
		if err != nil || len(runs) != 1 {
			t.Fatalf("%s: %d runs, err %v", c.file, len(runs), err)
		}
		r := runs[0]
		if r.Tool != "oha" || r.Requests != c.requests || r.Errors != c.errs || r.DurationS != c.dur || r.RPS != c.rps {
			t.Errorf("%s: requests %d errors %d duration %v rps %v", c.file, r.Requests, r.Errors, r.DurationS, r.RPS)
		}
		if c.mean < 0 && r.LatMeanMs != nil || c.mean >= 0 && (!ingesttest.PtrEq(r.LatMeanMs, c.mean) || !ingesttest.PtrEq(r.LatP99Ms, c.p99)) {
			t.Errorf("%s: mean %v p99 %v", c.file, r.LatMeanMs, r.LatP99Ms)
		}
		if c.conns > 0 && (r.Connections == nil || *r.Connections != c.conns) {
			t.Errorf("%s: connections %v", c.file, r.Connections)
		}
	}
}

// TestOhaBad: cut or malformed summaries are refused with the file and
// line; hey's and ghz's summaries are not oha's.
func TestOhaBad(t *testing.T) {
	ingesttest.CheckTruncated(t, parsers, "oha", "testdata/oha/issue-212-old.txt", 4, 7)
	ingesttest.CheckCutBytes(t, parsers, "oha-json", "testdata/oha/real-1.16.json", 400)
	in := "Summary:\n  Success rate:\t100.00%\n  Total:\t5.9440 fortnights\n"
	_, err := parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "o.txt"})
	if err == nil {
		t.Error("a Total in an unknown unit was accepted")
	}
	in = "Summary:\n  Success rate:\t100.00%\n  Total:\t5.9440 secs\n  Slowest:\t0.0148 secs\n  Fastest:\t0.0006 secs\n  Average:\t0.0015 secs\n" +
		"  Requests/sec:\t3364.7592\n\nStatus code distribution:\n  [200] many responses\n"
	_, err = parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "o.txt"})
	ingesttest.WantSyntax(t, err, 10, "status code row")
	for _, s := range []string{
		"Summary:\n  Total:\t0.0183 secs\n  Slowest:\t0.0074 secs\n  Fastest:\t0.0004 secs\n  Average:\t0.0027 secs\n  Requests/sec:\t10913.3967\n",
		"Summary:\n  Count:\t400\n  Total:\t199.51 ms\n",
		"Summary:\n  Success rate: high\n",
		`{"summary": {"total": 1}}`,
	} {
		if p, err := core.DetectIn(parsers, []byte(s)); err == nil && strings.HasPrefix(p.Name(), "oha") {
			t.Errorf("%q detected as %s", s, p.Name())
		}
	}
}

// FuzzOha fuzzes the text parser with small hand-cut seeds.
func FuzzOha(f *testing.F) {
	f.Add([]byte("$ oha -c 5 -z 10s -q 3 -t 1s http://h/\nSummary:\n  Success rate:\t99.00%\n  Total:\t5.9440 secs\n  Slowest:\t0.0148 secs\n" +
		"  Fastest:\t0.0006 secs\n  Average:\t0.0015 secs\n  Requests/sec:\t3364.7592\n\n  Total data:\t38.28 MiB\n  Size/request:\t1.96 KiB\n" +
		"  Size/sec:\t6.44 MiB\n\nResponse time histogram:\n  0.001 [1]     |\n\nResponse time distribution:\n  10.00% in 0.0014 secs\n" +
		"  99.99% in 0.0142 secs\n\nResponse time distribution (2xx only):\n  10.00% in 1 ms\n\nDetails (average, fastest, slowest):\n" +
		"  DNS+dialup:\t0.0086 secs, 0.0039 secs, 0.0097 secs\n\nStatus code distribution:\n  [200] 20 responses\n  [503] 2 responses\n\n" +
		"Error distribution:\n  [9] aborted due to deadline\n  [1] operation timed out\n"))
	f.Add([]byte("Summary:\n  Success rate: 1.0000\n  Total:        NaN secs\n  Slowest:      NaN secs\n  Fastest:      NaN secs\n" +
		"  Average:      NaN secs\n  Requests/sec: NaN\n\nLatency distribution:\n  10% in NaN secs\n\nStatus code distribution:\n"))
	p := ingesttest.ParserNamed(f, parsers, "oha")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}

// FuzzOhaJSON fuzzes the JSON parser with small seeds.
func FuzzOhaJSON(f *testing.F) {
	f.Add([]byte(`{"summary":{"successRate":1.0,"total":3.0,"slowest":0.57,"fastest":0.0002,"average":0.0013,"requestsPerSec":7205.7,` +
		`"totalData":22155264,"sizePerRequest":1024,"sizePerSec":7375595.9},"latencyPercentiles":{"p10":0.00048,"p99.99":0.21},` +
		`"statusCodeDistribution":{"200":21636,"500":3},"errorDistribution":{"aborted due to deadline":9}}`))
	f.Add([]byte(`{"summary":{"successRate":null,"total":2.0,"slowest":null,"requestsPerSec":2.49,"totalData":0},"latencyPercentiles":{"p10":null},` +
		`"statusCodeDistribution":{},"errorDistribution":{"aborted due to deadline":5}}`))
	p := ingesttest.ParserNamed(f, parsers, "oha-json")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}
