package fortio

import (
	"context"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestFortio checks the figures of real outputs value by value.
func TestFortio(t *testing.T) {
	for _, c := range []struct {
		file                string
		requests, errs      int64
		dur, rps, mean, p99 float64
		target              float64 // requested qps, 0 when none
		conns               int32
	}{
		// Ended after 2.001334954s : 200 calls. qps=99.933; avg 0.00078266028 s; # target 99% 0.003
		{file: "real-errors.txt", requests: 200, errs: 66, dur: 2.001334954, rps: 99.933, mean: 0.78266028, p99: 3, target: 100, conns: 2},
		// Code  -1 : 12: every call timed out
		{file: "real-timeout.txt", requests: 12, errs: 12, dur: 3.501675998, rps: 3.4269, mean: 501.06503, p99: 502.166, target: 4, conns: 2},
		{file: "real-max.txt", requests: 9438, dur: 2.001585822, rps: 4715.3, mean: 1.6958203, p99: -1, conns: 8},
		{file: "real-errors.json", requests: 200, errs: 67, dur: 2.001397563, rps: 99.93017064546112, mean: 0.641762955, p99: 3, target: 100, conns: 2},
	} {
		runs, err := ingesttest.ParseFile(t, parse, "testdata/fortio/"+c.file)
		if err != nil || len(runs) != 1 {
			t.Fatalf("%s: %d runs, err %v", c.file, len(runs), err)
		}
		r := runs[0]
		if r.Tool != "fortio" || r.Requests != c.requests || r.Errors != c.errs || r.DurationS != c.dur || r.RPS != c.rps || *r.Connections != c.conns {
			t.Errorf("%s: requests %d errors %d duration %v rps %v connections %d", c.file, r.Requests, r.Errors, r.DurationS, r.RPS, *r.Connections)
		}
		if !ingesttest.PtrEq(r.LatMeanMs, c.mean) || c.p99 > 0 && !ingesttest.PtrEq(r.LatP99Ms, c.p99) {
			t.Errorf("%s: mean %v p99 %v", c.file, *r.LatMeanMs, r.LatP99Ms)
		}
		if c.target > 0 && (r.TargetRPS == nil || *r.TargetRPS != c.target) || c.target == 0 && r.TargetRPS != nil {
			t.Errorf("%s: target_rps %v", c.file, r.TargetRPS)
		}
	}
}

// TestFortioBad: cut or malformed results are refused with the file and
// line; prose is not taken for Fortio.
func TestFortioBad(t *testing.T) {
	ingesttest.CheckTruncated(t, parsers, "fortio", "testdata/fortio/real-quiet.txt", 2, 10)
	ingesttest.CheckCutBytes(t, parsers, "fortio-json", "testdata/fortio/real-max.json", 500)
	in := "Fortio 1.68.2 running at 50 queries per second, 2->2 procs, for 1s: http://h/\n" +
		"Aggregated Function Time : count 50 avg 0.0005 +/- 0.001 min 8.9955e-05 max 0.0049 sum 0.0286\n# target 50% x\nAll done 50 calls (plus 2 warmup) 0.573 ms avg, 50.0 qps\n"
	_, err := parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "f.txt"})
	ingesttest.WantSyntax(t, err, 3, "target")
	for _, s := range []string{
		"Fortio 1.68.2 running at 50 queries per second, 2->2 procs, for 1s: http://h/\n",
		"Aggregated Function Time : count 50 avg 0.0005 +/- 0.001 min 8.9955e-05 max 0.0049 sum 0.0286\n",
		`{"RunType": "HTTP"}`,
	} {
		if p, err := core.DetectIn(parsers, []byte(s)); err == nil && strings.HasPrefix(p.Name(), "fortio") {
			t.Errorf("%q detected as %s", s, p.Name())
		}
	}
}

// FuzzFortio fuzzes the text parser with small hand-cut seeds.
func FuzzFortio(f *testing.F) {
	f.Add([]byte("$ fortio load -qps 4 -c 2 -t 3s http://h/\nFortio 1.68.2 running at 4 queries per second, 2->2 procs, for 3s: http://h/\n" +
		`{"ts":1796236366.787710,"level":"warn","msg":"[I] log line"}` + "\n" +
		"Starting at 4 qps with 2 thread(s) [gomax 2] for 3s : 6 calls each (total 12)\nEnded after 3.501675998s : 12 calls. qps=3.4269\n" +
		"Aggregated Function Time : count 12 avg 0.50106503 +/- 0.0004941 min 0.500441453 max 0.502185503 sum 6.01278039\n" +
		"# range, mid point, percentile, count\n>= 0.500441 <= 0.502186 , 0.501313 , 100.00, 12\n# target 50% 0.501234\n# target 99.9% 0.502184\n" +
		"Error cases : count 12 avg 0.50106503 +/- 0.0004941 min 0.500441453 max 0.502185503 sum 6.01278039\n# target 50% 0.501234\n" +
		"Code  -1 : 12 (100.0 %)\nCode 200 : 1 (1 %)\nResponse Body/Total Sizes : count 12 avg 0 +/- 0 min 0 max 0 sum 1e300\n" +
		"All done 12 calls (plus 2 warmup) 501.065 ms avg, 3.4 qps\n"))
	p := ingesttest.ParserNamed(f, parsers, "fortio")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}

// FuzzFortioJSON fuzzes the JSON parser with small seeds.
func FuzzFortioJSON(f *testing.F) {
	f.Add([]byte(`{"RunType":"HTTP","StartTime":"2026-12-02T19:10:48.673638981Z","RequestedQPS":"max","RequestedDuration":"exactly 20 calls",` +
		`"ActualQPS":21625.6,"ActualDuration":92482868,"NumThreads":4,"Exactly":20,"DurationHistogram":{"Count":20,"Min":0.00002,"Max":0.0215,` +
		`"Sum":0.35,"Avg":0.0017,"StdDev":0.001,"Percentiles":[{"Percentile":50,"Value":0.0005},{"Percentile":99.9,"Value":0.02}]},` +
		`"RetCodes":{"200":19,"-1":1},"Sizes":{"Count":20,"Sum":2600},"URL":"http://h/"}`))
	f.Add([]byte(`{"RunType":"GRPC Ping","ActualQPS":1,"ActualDuration":1,"DurationHistogram":{"Count":1},"RetCodes":{"SERVING":1,"NOT_SERVING":2}}`))
	p := ingesttest.ParserNamed(f, parsers, "fortio-json")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}
