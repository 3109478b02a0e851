package gatling

import (
	"context"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestGatlingLog checks the runs of simulation.log files: one per RUN
// record and request name (its endpoint, when there are several),
// requests, KO errors, users, samples.
func TestGatlingLog(t *testing.T) {
	type run struct {
		endpoint       string
		requests, errs int64
		mean           float64
	}
	for _, c := range []struct {
		file    string
		conns   int32
		runs    []run
		samples int
	}{
		// 60 REQUEST records, all OK, 20 of each request (means by awk over
		// end - start); at most 6 users active at once
		{file: "francisco-3.9.5-simulation.log", conns: 6, samples: 60, runs: []run{
			{"01_Get_Specific_Post", 20, 0, 19.35}, {"02_Get_Comments_For_Post", 20, 0, 12}, {"03_Create_Post", 20, 0, 15.4}}},
		// one request name; one KO of two: 1573776125919-1573776120651 = 5268 ms, 1573776129161-1573776125622 = 3539 ms
		{file: "sagemaker-3.2-edited-simulation.log", samples: 2, runs: []run{{"", 2, 1, (5268 + 3539) / 2.0}}},
	} {
		var col ingesttest.Collect
		in := ingesttest.ReadPlain(t, "testdata/gatling/"+c.file)
		if err := parse(context.Background(), strings.NewReader(string(in)), core.Options{Source: c.file}, &col); err != nil || len(col.Runs) != len(c.runs) {
			t.Fatalf("%s: %d runs, err %v", c.file, len(col.Runs), err)
		}
		for i, w := range c.runs {
			r := col.Runs[i]
			if r.Tool != "gatling" || ingesttest.PtrString(r.Endpoint) != w.endpoint || r.Requests != w.requests || r.Errors != w.errs || r.Non2xx != nil ||
				r.BytesIn != nil || !r.HasSamples || !ingesttest.PtrEq(r.LatMeanMs, w.mean) {
				t.Errorf("%s run %d: endpoint %q requests %d errors %d non2xx %v bytes %v mean %v, want %+v", c.file, i,
					ingesttest.PtrString(r.Endpoint), r.Requests, r.Errors, r.Non2xx, r.BytesIn, *r.LatMeanMs, w)
			}
			if c.conns > 0 && (r.Connections == nil || *r.Connections != c.conns) {
				t.Errorf("%s run %d: connections %v", c.file, i, r.Connections)
			}
		}
		if len(col.Samples) != c.samples {
			t.Errorf("%s: %d samples", c.file, len(col.Samples))
		}
	}
}

// TestGatling checks the console's Global Information blocks.
func TestGatling(t *testing.T) {
	for _, c := range []struct {
		file           string
		requests, errs int64
		rps, p99       float64
	}{
		{file: "openvsx-pr1260.txt", requests: 9537, errs: 5000, rps: 40.241, p99: 544},
		{file: "gatling-issue3444.txt", requests: 20, rps: 2, p99: 121},
		{file: "openvsx-pr454-all-ko.txt", requests: 5000, errs: 5000, rps: 29.94, p99: 464},
	} {
		runs, err := ingesttest.ParseFile(t, parse, "testdata/gatling/"+c.file)
		if err != nil || len(runs) != 1 {
			t.Fatalf("%s: %d runs, err %v", c.file, len(runs), err)
		}
		r := runs[0]
		if r.Requests != c.requests || r.Errors != c.errs || r.RPS != c.rps || *r.LatP99Ms != c.p99 || r.DurationS != float64(c.requests)/c.rps {
			t.Errorf("%s: requests %d errors %d rps %v p99 %v duration %v", c.file, r.Requests, r.Errors, r.RPS, *r.LatP99Ms, r.DurationS)
		}
	}
	// The last "elapsed" of the periodic reports is the duration.
	in := "================================================================================\n2024-01-15 10:00:05                                          65s elapsed\n" +
		"---- Requests ------------------------------------------------------------------\n> Global                                  (OK=10     KO=0     )\n" +
		string(ingesttest.ReadPlain(t, "testdata/gatling/gatling-issue3444.txt"))
	runs, err := parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "g"})
	if err != nil || len(runs) != 1 || runs[0].DurationS != 65 {
		t.Errorf("elapsed: %d runs, err %v", len(runs), err)
	}
}

// TestGatlingBad: malformed or cut outputs are refused with the file and
// line; other tab-separated logs are not Gatling's.
func TestGatlingBad(t *testing.T) {
	ingesttest.CheckTruncated(t, parsers, "gatling", "testdata/gatling/gatling-issue3444.txt", 4)
	in := "RUN\tS\ts\t1620982654518\t \t3.2.0\nREQUEST\t1\t\tn\t2000\t1000\tOK\t \nREQUEST\t1\t\tn\tx\ty\tKO\t \n"
	_, err := parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "simulation.log"})
	ingesttest.WantSyntax(t, err, 2, "ends (1000) before it starts (2000)")
	in = "---- Global Information ----\n> request count    x (OK=1 KO=0)\n"
	_, err = parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "g.txt"})
	ingesttest.WantSyntax(t, err, 2, "request count")
	for _, s := range []string{
		"RUN\tonly\n",
		"RUN\ta\tb\tc\td\te\nREQUEST\t\n",
		"starttime\tseconds\tctime\tdtime\n",
		"---- Global Information ----\n",
	} {
		if p, err := core.DetectIn(parsers, []byte(s)); err == nil && strings.HasPrefix(p.Name(), "gatling") {
			t.Errorf("%q detected as %s", s, p.Name())
		}
	}
}

// FuzzGatlingLog fuzzes the simulation.log parser with small seeds.
func FuzzGatlingLog(f *testing.F) {
	f.Add([]byte("ASSERTION\tAAECAAIFAAAAAAAAAFlA\nRUN\tsim.S\ts\t1767825934330\t \t3.9.5\nUSER\tscn\tSTART\t1767825935179\n" +
		"REQUEST\t\tget\t1767825935194\t1767825935216\tOK\t \nGROUP\tg\t1767825935194\t1767825935216\t22\tOK\n" +
		"REQUEST\t\tpost\t1767825935194\t1767825935294\tKO\tstatus.find.in(200), but actually found 503\nERROR\tboom\t1767825935300\n" +
		"USER\tscn\tEND\t1767825937971\nREQUEST\t7\t\told\t1573776120651\t1573776120652\t1573776120653\t1573776125919\tOK\t \n"))
	p := ingesttest.ParserNamed(f, parsers, "gatling-log")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}

// FuzzGatling fuzzes the console parser with small seeds.
func FuzzGatling(f *testing.F) {
	f.Add([]byte("2024-01-15 10:00:05                                          5s elapsed\n---- Global Information -------\n" +
		"> request count                                       9537 (OK=4537   KO=5000  )\n> min response time      68 (OK=123    KO=68    )\n" +
		"> max response time 3244 (OK=3244 KO=-)\n> mean response time 122 (OK=168 KO=81)\n> std deviation 131 (OK=170 KO=54)\n" +
		"> response time 50th percentile 129 (OK=141 KO=70)\n> 99th percentile 544 (OK=1137 KO=169)\n" +
		"> mean requests/sec                                 40.241 (OK=19.143 KO=21.097)\n---- Response Time Distribution ----\n" +
		"> t < 800 ms  4488 ( 47%)\n---- Errors ----\n> status.find.is(200), but actually found 403  4962 (99,24%)\n=====\n"))
	p := ingesttest.ParserNamed(f, parsers, "gatling")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}
