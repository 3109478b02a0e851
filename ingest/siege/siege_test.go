package siege

import (
	"context"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestSiege checks the figures of real outputs value by value.
func TestSiege(t *testing.T) {
	for _, c := range []struct {
		file                string
		requests, errs      int64
		dur, rps, mean, max float64
		conns               int32
		planned             float64
		target              bool
	}{
		{file: "real-ok.txt", requests: 23695, dur: 1.36, rps: 17422.79, mean: 0, max: 60, conns: 4, planned: 2, target: true},
		{file: "real-reps.txt", requests: 200, errs: 66, dur: 0.03, rps: 4466.67, max: 10, conns: 4, target: true},
		{file: "real-close.txt", requests: 40, errs: 14, dur: 0.01, rps: 2600, max: 10, conns: 2, target: true},
		{file: "real-close.json", requests: 40, errs: 13, dur: 0.01, rps: 2700, max: 10},
	} {
		runs, err := ingesttest.ParseFile(t, parse, "testdata/siege/"+c.file)
		if err != nil || len(runs) != 1 {
			t.Fatalf("%s: %d runs, err %v", c.file, len(runs), err)
		}
		r := runs[0]
		if r.Tool != "siege" || r.Requests != c.requests || r.Errors != c.errs || r.DurationS != c.dur || r.RPS != c.rps {
			t.Errorf("%s: requests %d errors %d duration %v rps %v", c.file, r.Requests, r.Errors, r.DurationS, r.RPS)
		}
		if *r.LatMeanMs != c.mean || *r.LatMaxMs != c.max || (r.Target != "") != c.target {
			t.Errorf("%s: mean %v max %v target %q", c.file, *r.LatMeanMs, *r.LatMaxMs, r.Target)
		}
		if c.conns > 0 && (r.Connections == nil || *r.Connections != c.conns) || c.planned > 0 && *r.PlannedDurationS != c.planned {
			t.Errorf("%s: connections %v planned %v", c.file, r.Connections, r.PlannedDurationS)
		}
	}
	// Throughput and data are binary MB.
	runs, _ := ingesttest.ParseFile(t, parse, "testdata/siege/real-ok.txt")
	if r := runs[0]; *r.TransferBPS != 0.22*(1<<20) || *r.BytesIn != 304087 {
		t.Errorf("transfer %v bytes %v", *r.TransferBPS, *r.BytesIn)
	}
	// Verbose per-request lines around the summary are skipped.
	runs, err := ingesttest.ParseFile(t, parse, "testdata/siege/real-verbose.txt")
	if err != nil || len(runs) != 1 || runs[0].Requests != 6 || runs[0].Errors != 2 {
		t.Errorf("verbose: %d runs, err %v", len(runs), err)
	}
}

// TestSiegeBad: cut or malformed summaries are refused with the file and
// line; prose is not taken for siege.
func TestSiegeBad(t *testing.T) {
	ingesttest.CheckTruncated(t, parsers, "siege", "testdata/siege/real-ok.txt", 6, 10, 16)
	ingesttest.CheckCutBytes(t, parsers, "siege-json", "testdata/siege/real-ok.json", 200)
	in := "Transactions:\t\t  10 hits\nAvailability:\t\t 100.00 %\nElapsed time:\t\t 1.00 secs\nData transferred: 1 GB\n"
	_, err := parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "s.txt"})
	ingesttest.WantSyntax(t, err, 4, "Data transferred")
	_, err = parseAll(context.Background(), strings.NewReader(`{"transactions":1,"availability":100,"elapsed_time":1,"transaction_rate":1,"failed_transactions":0}`), core.Options{Source: "s.json"})
	ingesttest.WantSyntax(t, err, 1, "missing")
	for _, s := range []string{
		"Transactions: 10 hits\n",
		"Our availability: 99.99 %\nTransactions: many\n",
		`{"transactions": 10}`,
	} {
		if p, err := core.DetectIn(parsers, []byte(s)); err == nil && strings.HasPrefix(p.Name(), "siege") {
			t.Errorf("%q detected as %s", s, p.Name())
		}
	}
}

// FuzzSiege fuzzes the text parser with small hand-cut seeds.
func FuzzSiege(f *testing.F) {
	f.Add([]byte("$ siege -c 4 -r 50 -t 1M http://h/\n** SIEGE 4.0.7\n** Preparing 4 concurrent users for battle.\nThe server is now under siege...\n" +
		"Transactions:\t\t         134 hits\nAvailability:\t\t       67.00 %\nElapsed time:\t\t        0.03 secs\nData transferred:\t        0.00 MB\n" +
		"Response time:\t\t        0.00 secs\nTransaction rate:\t     4466.67 trans/sec\nThroughput:\t\t        0.08 MB/sec\nConcurrency:\t\t        3.00\n" +
		"Successful transactions:         134\nFailed transactions:\t          66\nLongest transaction:\t        0.01\nShortest transaction:\t        0.00\n \n" +
		"HTTP/1.1 500     0.00 secs:      13 bytes ==> GET  /mixed?every=3\n"))
	p := ingesttest.ParserNamed(f, parsers, "siege")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}

// FuzzSiegeJSON fuzzes the JSON parser with small seeds.
func FuzzSiegeJSON(f *testing.F) {
	f.Add([]byte("{\t\"transactions\":\t\t\t          27,\n\t\"availability\":\t\t       67.50,\n\t\"elapsed_time\":\t\t        0.01,\n" +
		"\t\"data_transferred\":\t\t        0.00,\n\t\"response_time\":\t\t        0.00,\n\t\"transaction_rate\":\t\t     2700.00,\n" +
		"\t\"throughput\":\t\t\t        0.03,\n\t\"concurrency\":\t\t\t        2.00,\n\t\"successful_transactions\":\t          27,\n" +
		"\t\"failed_transactions\":\t\t          13,\n\t\"longest_transaction\":\t\t        0.01,\n\t\"shortest_transaction\":\t\t        0.00\n}\n"))
	p := ingesttest.ParserNamed(f, parsers, "siege-json")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}
