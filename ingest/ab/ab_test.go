package ab

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/results"
)

func TestABRuns(t *testing.T) {
	for _, c := range []struct {
		file                     string
		target                   string
		conns                    int32
		dur                      float64
		requests, errors, non2xx int64
		rps, mean, p50, p99, max float64
		stdev                    float64 // -1: none
		pcts                     int
		planned                  float64
		notes                    string
		command                  bool
	}{
		{file: "../testdata/notwrk/ab_01.txt", target: "http://localhost:80/", conns: 10000, dur: 259.24, requests: 1000000, errors: 1636, rps: 3857.42,
			mean: 2566, stdev: 2929.1, p50: 1747, p99: 16549, max: 63958, pcts: 9, notes: "818 Length failures", command: true},
		{file: "../testdata/notwrk/ab_02.txt", conns: 12000, dur: 224.543, requests: 1000000, errors: 1606, rps: 4453.49,
			mean: 2676, stdev: 2483.7, p50: 2169, p99: 9217, max: 64408, pcts: 9, notes: "803 Length failures"},
		{file: "../testdata/notwrk/ab_03.txt", target: "http://localhost:8080/", conns: 100, dur: 0.439, requests: 10000, rps: 22767.94,
			mean: 4, stdev: 1.1, p50: 4, p99: 12, max: 13, pcts: 9, command: true},
		{file: "testdata/ab/real-tls.txt", target: "https://127.0.0.1:19102/", conns: 2, dur: 0.312, requests: 200, rps: 640.38,
			mean: 3, stdev: 1, p50: 3, p99: 7, max: 7, pcts: 9, command: true},
		{file: "testdata/ab/real-non2xx.txt", target: "http://127.0.0.1:19100/mixed?every=3", conns: 10, dur: 0.174, requests: 2000, errors: 666, non2xx: 666,
			rps: 11484.09, mean: 1, stdev: 0.4, p50: 1, p99: 2, max: 5, pcts: 9, notes: "include 3xx", command: true},
		{file: "testdata/ab/real-quiet-S-d.txt", target: "http://127.0.0.1:19100/sleep?ms=1", conns: 5, dur: 0.169, requests: 500, rps: 2950.58,
			mean: 2, stdev: -1, max: 6},
		{file: "testdata/ab/real-timelimit.txt", target: "http://127.0.0.1:19100/sleep?ms=5", conns: 4, dur: 2.002, requests: 1319, rps: 658.99,
			mean: 6, stdev: 0.9, p50: 6, p99: 10, max: 13, pcts: 9, planned: 2, command: true},
	} {
		runs, err := ingesttest.ParseFile(t, parse, c.file)
		if err != nil || len(runs) != 1 {
			t.Errorf("%s: %d runs, err %v", c.file, len(runs), err)
			continue
		}
		r := runs[0]
		if r.Tool != "ab" || r.LoadModel != results.LoadClosed || r.Target != c.target || r.Connections == nil || *r.Connections != c.conns ||
			r.DurationS != c.dur || r.Requests != c.requests || r.Errors != c.errors || r.Non2xx == nil || *r.Non2xx != c.non2xx || r.RPS != c.rps ||
			!ingesttest.PtrEq(r.LatMeanMs, c.mean) || !ingesttest.PtrEq(r.LatMaxMs, c.max) || (c.stdev < 0) != (r.LatStdevMs == nil) || c.stdev >= 0 && !ingesttest.PtrEq(r.LatStdevMs, c.stdev) ||
			len(r.Percentiles) != c.pcts || c.pcts > 0 && (!ingesttest.PtrEq(r.LatP50Ms, c.p50) || !ingesttest.PtrEq(r.LatP99Ms, c.p99)) ||
			(r.PlannedDurationS != nil) != (c.planned > 0) || c.planned > 0 && *r.PlannedDurationS != c.planned || (r.Command != nil) != c.command {
			t.Errorf("%s: %+v", c.file, r.Run)
		}
		if (c.notes == "") != (r.Notes == nil) || c.notes != "" && !strings.Contains(*r.Notes, c.notes) {
			t.Errorf("%s: notes %v, want %q", c.file, r.Notes, c.notes)
		}
		if c.pcts > 0 && (r.Percentiles[c.pcts-1].Quantile != 1 || r.Percentiles[c.pcts-1].LatencyMs != c.max) {
			t.Errorf("%s: last percentile %+v", c.file, r.Percentiles[c.pcts-1])
		}
	}
}

// TestABLabelAndKeepAlive: a partial paste without its target is named
// after its file; a keep-alive run's bytes, transfer rate and time-out.
func TestABLabelAndKeepAlive(t *testing.T) {
	runs, err := ingesttest.ParseFile(t, parse, "../testdata/notwrk/ab_02.txt")
	if err != nil || runs[0].Label != "ab_02" {
		t.Errorf("partial paste without target: label %q, err %v", runs[0].Label, err)
	}
	runs, err = ingesttest.ParseFile(t, parse, "testdata/ab/real-keepalive.txt")
	if err != nil || runs[0].BytesIn == nil || *runs[0].BytesIn != 308000 || !ingesttest.PtrEq(runs[0].TransferBPS, 10967.01*1024) || *runs[0].TimeoutS != 30 {
		t.Errorf("keep-alive: %+v, err %v", runs[0].Run, err)
	}
}

// abRefused is real ab output when the server refuses connections.
const abRefused = `$ ab -n 10 http://127.0.0.1:19199/
This is ApacheBench, Version 2.3 <$Revision: 1923142 $>
Copyright 1996 Adam Twiss, Zeus Technology Ltd, http://www.zeustech.net/
Licensed to The Apache Software Foundation, http://www.apache.org/

Benchmarking 127.0.0.1 (be patient)...apr_socket_recv: Connection refused (111)
`

func TestABVariants(t *testing.T) {
	opts := core.Options{Source: "x.txt"}
	ab02, _ := os.ReadFile("../testdata/notwrk/ab_02.txt")
	ab03, _ := os.ReadFile("../testdata/notwrk/ab_03.txt")
	okRun, _ := ingesttest.ParseFile(t, parse, "../testdata/notwrk/ab_03.txt")

	_, err := ingesttest.ParseString(parse, abRefused, opts)
	ingesttest.WantSyntax(t, err, 6, "ab stopped before its report: apr_socket_recv: Connection refused (111)")
	// Aborted after some progress: the message on its own line.
	_, err = ingesttest.ParseString(parse, string(ab03[:strings.Index(string(ab03), "Completed 3000")])+
		"apr_socket_recv: Connection reset by peer (104)\nTotal of 2345 requests completed\n", opts)
	ingesttest.WantSyntax(t, err, 9, "Connection reset by peer (104)")
	// ab -V prints the banner alone: no run, no error of ab's.
	if _, err := ingesttest.ParseString(parse, "This is ApacheBench, Version 2.3 <$Revision: 1923142 $>\nCopyright 1996 Adam Twiss\n", opts); !errors.Is(err, core.ErrNoOutput) {
		t.Errorf("ab -V: %v", err)
	}
	// Two partial pastes in a row (no banner): two runs.
	c, err := ingesttest.ParseString(parse, string(ab02)+"\n"+string(ab02), opts)
	if err != nil || len(c.Runs) != 2 || c.Runs[1].SourceLine != 32 || c.Runs[1].Requests != 1000000 {
		t.Errorf("two partial pastes: %v %d runs", err, len(c.Runs))
	}
	// An indented (markdown) copy with CRLF line ends gives the same run.
	indented := "Results:\r\n\r\n    " + strings.ReplaceAll(string(ab03), "\n", "\r\n    ")
	c, err = ingesttest.ParseString(parse, indented, opts)
	if err != nil || len(c.Runs) != 1 {
		t.Fatalf("indented: %v", err)
	}
	want := okRun[0]
	got := c.Runs[0]
	want.Source, want.RunID, want.Experiment, want.SourceLine, got.SourceLine = got.Source, got.RunID, got.Experiment, 0, 0
	if w, g := ingesttest.JSONLines(t, []results.RunWithPercentiles{want}), ingesttest.JSONLines(t, []results.RunWithPercentiles{got}); !bytes.Equal(w, g) {
		t.Errorf("indented:\n got %+v\nwant %+v", got.Run, want.Run)
	}
	// A report cut after Complete requests still gives its run; one cut
	// before Time taken is an error.
	s := string(ab03)
	c, err = ingesttest.ParseString(parse, s[:strings.Index(s, "Failed requests")], opts)
	if err != nil || len(c.Runs) != 1 || c.Runs[0].Notes == nil || !strings.Contains(*c.Runs[0].Notes, "errors not known") || c.Runs[0].RPS != 10000/0.439 {
		t.Errorf("cut after Complete requests: %v %+v", err, c.Runs)
	}
	_, err = ingesttest.ParseString(parse, s[:strings.Index(s, "Time taken")], opts)
	ingesttest.WantSyntax(t, err, 27, "without its Time taken")
	// A malformed value.
	_, err = ingesttest.ParseString(parse, strings.Replace(s, "Complete requests:      10000", "Complete requests:      lots", 1), opts)
	ingesttest.WantSyntax(t, err, 29, "malformed line")
	// Failed requests without the breakdown line: all are errors.
	c, err = ingesttest.ParseString(parse, strings.Replace(s, "Failed requests:        0", "Failed requests:        7", 1), opts)
	if err != nil || c.Runs[0].Errors != 7 || c.Runs[0].ReadErrors != nil {
		t.Errorf("failed without breakdown: %v %+v", err, c.Runs[0].Run)
	}
	// An IPv6 host is bracketed.
	c, err = ingesttest.ParseString(parse, strings.Replace(s, "Server Hostname:        localhost", "Server Hostname:        ::1", 1), opts)
	if err != nil || c.Runs[0].Target != "http://[::1]:8080/" || c.Runs[0].Label != "[::1]:8080" {
		t.Errorf("IPv6: %v %+v", err, c.Runs[0].Run)
	}
	// Two complete runs with their commands.
	c, err = ingesttest.ParseString(parse, s+"\n"+strings.Replace(s, "ab -n 10000 -c 100", "ab -t 5 -c 100 -s 9", 1), opts)
	if err != nil || len(c.Runs) != 2 || *c.Runs[1].PlannedDurationS != 5 || *c.Runs[1].TimeoutS != 9 || c.Runs[1].SourceLine != 56 {
		t.Errorf("two runs: %v %+v", err, c.Runs)
	}
}

func TestParseABCommand(t *testing.T) {
	for _, c := range []struct {
		line, url string
		conc      int64
		limit     float64
		ok        bool
	}{
		{"ab -n 10000 -c 100 'http://localhost:8080/'", "http://localhost:8080/", 100, 0, true},
		{"$ ab -kq -c8 -t 20 -n 1000000 -g out.tsv http://h/x", "http://h/x", 8, 20, true},
		{"sudo /usr/bin/ab -H 'Host: a' -c 2 localhost:81/p", "http://localhost:81/p", 2, 0, true},
		{"ab -c 4 $URL", "", 4, 0, true},
		{"ab testing is fun", "", 0, 0, false},
		{"the ab -n option", "", 0, 0, false},
	} {
		i := core.FindCommand([]byte(c.line), isABExe)
		if i < 0 {
			if c.ok {
				t.Errorf("%q: not found", c.line)
			}
			continue
		}
		cmd, ok := parseABCommand(c.line[i:], 1)
		if ok != c.ok || ok && (cmd.url != c.url || cmd.conc != c.conc || cmd.timeLimit != c.limit) {
			t.Errorf("%q: %+v %v", c.line, cmd, ok)
		}
	}
}

func TestABGnuplot(t *testing.T) {
	var c ingesttest.Collect
	f, _ := os.Open("testdata/ab/real-ok.tsv")
	defer f.Close()
	if err := parse(context.Background(), f, core.Options{Source: "real-ok.tsv"}, &c); err != nil || len(c.Runs) != 1 {
		t.Fatalf("%d runs, %v", len(c.Runs), err)
	}
	r := c.Runs[0]
	// First row: Wed Dec 02 13:38:11 2026	1796218691	0	1	1	1 (sorted by ttime).
	if r.Tool != "ab" || r.Label != "real-ok" || r.Requests != 2000 || r.Errors != 0 || r.StartedAt == nil ||
		!r.StartedAt.Equal(time.Unix(1796218691, 0)) || *r.LatMinMs != 1 || *r.LatMaxMs != 6 || len(c.Samples) != 2000 ||
		c.Samples[0].LatencyMs != 1 || c.Samples[0].Status != 200 || r.Notes == nil || !strings.Contains(*r.Notes, "no status") {
		t.Errorf("%+v", r.Run)
	}
	hdr := abGnuplotHeader + "\n"
	row := "Wed Dec 02 13:38:11 2026\t1796218691\t0\t3\t3\t2\n"
	rows := strings.Repeat(row, 150)
	got, err := ingesttest.ParseString(parse, hdr+rows+hdr+rows, core.Options{Source: "g.tsv"})
	if err != nil || len(got.Runs) != 2 || got.Runs[1].Requests != 150 {
		t.Errorf("appended: %v %+v", err, got.Runs)
	}
	_, err = ingesttest.ParseString(parse, hdr+rows+"Wed\tx\t0\t1\t1\t1\nWed\t1\t0\t1\t1\n", core.Options{Source: "g.tsv"})
	ingesttest.WantSyntax(t, err, 152, "2 of 153 lines malformed")
	got, err = ingesttest.ParseString(parse, hdr, core.Options{Source: "g.tsv"})
	if err != nil || len(got.Runs) != 1 || got.Runs[0].Requests != 0 || got.Runs[0].Label != "g" {
		t.Errorf("header only: %v %+v", err, got.Runs)
	}
}

func TestABCSV(t *testing.T) {
	runs, err := ingesttest.ParseFile(t, parse, "testdata/ab/real-ok-e.csv")
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	r := runs[0]
	if r.Tool != "ab" || r.Label != "real-ok-e" || r.Requests != 0 || len(r.Percentiles) != 101 || *r.LatMinMs != 1.197 || *r.LatMaxMs != 6.24 ||
		*r.LatP50Ms != 2.106 || *r.LatP99Ms != 4.721 || r.Percentiles[37].Quantile != 0.37 || r.Notes == nil || r.SourceLine != 1 {
		t.Errorf("%+v", r.Run)
	}
	in := abCSVHeader + "\n0,1.000\n50,2.000\n100,3.000\n"
	c, err := ingesttest.ParseString(parse, in+in, core.Options{Source: "e.csv"})
	if err != nil || len(c.Runs) != 2 || c.Runs[1].SourceLine != 5 || *c.Runs[1].LatMaxMs != 3 {
		t.Errorf("appended: %v %+v", err, c.Runs)
	}
	_, err = ingesttest.ParseString(parse, in+"100,4.000\n", core.Options{Source: "e.csv"})
	ingesttest.WantSyntax(t, err, 5, "malformed row")
	_, err = ingesttest.ParseString(parse, abCSVHeader+"\n0,1.0,2\n", core.Options{Source: "e.csv"})
	ingesttest.WantSyntax(t, err, 2, "3 fields")
	c, err = ingesttest.ParseString(parse, abCSVHeader+"\n", core.Options{Source: "e.csv"})
	if err != nil || len(c.Runs) != 1 || len(c.Runs[0].Percentiles) != 0 {
		t.Errorf("header only: %v %+v", err, c.Runs)
	}
}

// FuzzAB checks the ab parser as FuzzHey does the hey parser.
func FuzzAB(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/ab/*.txt", "../testdata/notwrk/ab_*.txt")
	f.Add([]byte(abRefused))
	p := ingesttest.ParserNamed(f, parsers, "ab")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}

// FuzzABGnuplot checks the ab -g parser.
func FuzzABGnuplot(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/ab/*.tsv")
	f.Add([]byte(abGnuplotHeader + "\nx\t99999999999999\t0\t0\t99999999999999999999\t0\n"))
	p := ingesttest.ParserNamed(f, parsers, "ab-gnuplot")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}

// FuzzABCSV checks the ab -e parser.
func FuzzABCSV(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/ab/*.csv")
	p := ingesttest.ParserNamed(f, parsers, "ab-csv")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}
