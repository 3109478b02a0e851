package ghz

import (
	"context"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestGhz checks the figures of real outputs value by value.
func TestGhz(t *testing.T) {
	for _, c := range []struct {
		file                     string
		requests, errs, timeouts int64
		dur, rps                 float64
		mean, p99                float64 // -1: null
		samples                  bool
	}{
		// Count: 400, Total: 269.68 ms, [Unavailable] 80 responses, Average: 2.63 ms, 99 % in 14.56 ms
		{file: "real-errors.txt", requests: 400, errs: 80, dur: 0.26968, rps: 1483.23, mean: 2.63, p99: 14.56},
		// [DeadlineExceeded] 6 responses: no latency over successful calls
		{file: "real-timeout.txt", requests: 6, errs: 6, timeouts: 6, dur: 3.01, rps: 2, mean: -1, p99: -1},
		// -O json with details: computed from the 500 calls
		{file: "real-errors.json", requests: 500, errs: 100, dur: 0.342815564, rps: 500 / 0.342815564, mean: 2.680835525999999, p99: 12.281678, samples: true},
		{file: "real-timeout.json", requests: 6, errs: 6, timeouts: 6, dur: 3.007379665, rps: 6 / 3.007379665, mean: 1001.3308431666667, p99: 1004.890515, samples: true},
	} {
		var col ingesttest.Collect
		in := ingesttest.ReadPlain(t, "testdata/ghz/"+c.file)
		if err := parse(context.Background(), strings.NewReader(string(in)), core.Options{Source: c.file}, &col); err != nil || len(col.Runs) != 1 {
			t.Fatalf("%s: %d runs, err %v", c.file, len(col.Runs), err)
		}
		r := col.Runs[0]
		if r.Tool != "ghz" || r.Requests != c.requests || r.Errors != c.errs || *r.Timeouts != c.timeouts || r.Non2xx != nil {
			t.Errorf("%s: requests %d errors %d timeouts %d non2xx %v", c.file, r.Requests, r.Errors, *r.Timeouts, r.Non2xx)
		}
		if !ingesttest.PtrEq(&r.DurationS, c.dur) || !ingesttest.PtrEq(&r.RPS, c.rps) || r.HasSamples != c.samples || c.samples != (len(col.Samples) == int(c.requests)) {
			t.Errorf("%s: duration %v rps %v samples %d", c.file, r.DurationS, r.RPS, len(col.Samples))
		}
		if c.mean < 0 && (r.LatMeanMs != nil || r.LatP99Ms != nil) || c.mean >= 0 && (!ingesttest.PtrEq(r.LatMeanMs, c.mean) || !ingesttest.PtrEq(r.LatP99Ms, c.p99)) {
			t.Errorf("%s: mean %v p99 %v", c.file, r.LatMeanMs, r.LatP99Ms)
		}
		if r.Target != "127.0.0.1:19360" && r.Target != "127.0.0.1:19361" || r.BytesIn != nil {
			t.Errorf("%s: target %q bytes %v", c.file, r.Target, r.BytesIn)
		}
	}
}

// TestGhzBad: cut or malformed outputs are refused with the file and
// line; hey's and oha's summaries are not ghz's.
func TestGhzBad(t *testing.T) {
	ingesttest.CheckTruncated(t, parsers, "ghz", "testdata/ghz/real-errors.txt", 5, 8)
	ingesttest.CheckCutBytes(t, parsers, "ghz-json", "testdata/ghz/real-errors.json", 300, 2000)
	in := "Summary:\n  Count:\t400\n  Total:\t199.51 ms\n  Slowest:\t7.33 parsecs\n"
	_, err := parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "g.txt"})
	ingesttest.WantSyntax(t, err, 4, "Slowest")
	for _, s := range []string{
		"Summary:\n  Total:\t0.0183 secs\n  Slowest:\t0.0074 secs\n  Requests/sec:\t10913.3967\n",
		"Summary:\n  Count: many\n",
		`{"count": 1, "options": {}}`,
	} {
		if p, err := core.DetectIn(parsers, []byte(s)); err == nil && strings.HasPrefix(p.Name(), "ghz") {
			t.Errorf("%q detected as %s", s, p.Name())
		}
	}
}

// FuzzGhz fuzzes the text parser with small hand-cut seeds.
func FuzzGhz(f *testing.F) {
	f.Add([]byte("$ ghz --insecure --call a.B/C -c 4 -z 2s --rps 200 -t 1s 127.0.0.1:1\n\nSummary:\n  Count:\t400\n  Total:\t2.01 s\n" +
		"  Slowest:\t13.50 ms\n  Fastest:\t1.47 ms\n  Average:\t2.39 ms\n  Requests/sec:\t198.69\n\nResponse time histogram:\n  1.474 [1]\t|\n" +
		"  2.676 [261]\t|∎∎∎∎\n\nLatency distribution:\n  10 % in 1.61 ms \n  99 % in 11.04 ms \n\nStatus code distribution:\n" +
		"  [OK]            319 responses   \n  [DeadlineExceeded]   81 responses    \n\nError distribution:\n  [81]   rpc error: code = DeadlineExceeded desc = x\n"))
	p := ingesttest.ParserNamed(f, parsers, "ghz")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}

// FuzzGhzJSON fuzzes the JSON parser with small seeds.
func FuzzGhzJSON(f *testing.F) {
	f.Add([]byte(`{"date":"2026-12-02T19:14:07Z","options":{"call":"a.B/C","host":"127.0.0.1:1","concurrency":2,"rps":5,"timeout":1000000000},` +
		`"count":3,"total":3007379665,"average":1001330843,"fastest":1000136988,"slowest":1004890515,"rps":1.99,` +
		`"statusCodeDistribution":{"DeadlineExceeded":2,"OK":1},"latencyDistribution":[{"percentage":50,"latency":1000368865}],` +
		`"details":[{"timestamp":"2026-12-02T19:14:07.296649598Z","latency":1000136988,"error":"rpc error: code = DeadlineExceeded","status":"DeadlineExceeded"},` +
		`{"timestamp":"2026-12-02T19:14:07.3Z","latency":1000208525,"error":"","status":"OK"},{"timestamp":"x","latency":-1}]}`))
	f.Add([]byte(`{"options":{"host":"h:1"},"count":1,"total":1,"rps":1,"statusCodeDistribution":{"OK":1},"latencyDistribution":null,"average":5,"details":null}`))
	p := ingesttest.ParserNamed(f, parsers, "ghz-json")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}
