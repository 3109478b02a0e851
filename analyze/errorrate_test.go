package analyze_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/results"
)

// TestErrorRatePerTool checks the one definition of the error rate,
// errors over requests attempted, on real outputs of each tool (parsed by
// ingest): what each tool's request count includes differs, the rate must
// not. The truth of the runs made here is in ingest/<tool>/testdata/*/README.md.
func TestErrorRatePerTool(t *testing.T) {
	cases := []struct {
		file              string
		run               int
		errors, attempted int64
		why               string
	}{
		// wrk counts responses only: every 2nd request closed without a
		// response is a read error on top of the 26310 answered, 50 %.
		{"wrk/real-read-errors.txt", 0, 26310, 52620, "/close?every=2: half the requests fail"},
		// Timed-out and non-2xx responses are among wrk's responses.
		{"wrk/real-timeout-0.txt", 0, 104502, 104502, "--timeout 0: every request a timeout"},
		{"wrk/real-non2xx.txt", 0, 67606, 202819, "/mixed?every=3: a third are 500s"},
		{"wrk/wrk_05.txt", 2, 55, 676983 + 55, "55 connect errors on top of the responses"},
		{"wrk/units-edited.txt", 0, 43, 320001234 + 12 + 3 + 1, "connect 12, read 3, write 1 added; timeouts and non-2xx not"},
		// ab's Complete requests include receive failures but not
		// exceptions: 818 receive + 818 exceptions, 818 added.
		{"ab/ab_01.txt", 0, 1636, 1000000 + 818, "exceptions are not complete requests"},
		{"ab/real-non2xx.txt", 0, 666, 2000, "/mixed?every=3: non-2xx responses are complete requests"},
		// The others count every attempt.
		{"hey/real-refused.txt", 0, 20, 20, "connection refused: every request failed"},
		{"hey/real-mixed.txt", 0, 666, 2000, "/mixed?every=3"},
		{"vegeta/report-errors.txt", 0, 75, 120, "vegeta's Requests total includes failures"},
		{"vegeta/results-errors.csv", 1, 60, 60, "per-request log: every result is a request"},
		{"k6/out-csv-multi-edited.csv", 0, 2, 6, "k6 http_reqs include failed ones"},
		{"jmeter/xml-default.jtl", 2, 4, 40, "every sample is a request"},
		{"locust/example_requests.csv", 0, 56, 109, "Locust's Request Count includes failures"},
	}
	for _, c := range cases {
		f, err := os.Open(filepath.Join("..", "ingest", strings.Split(c.file, "/")[0], "testdata", c.file)) // ingest/<tool>/testdata/<dir>/
		if err != nil {
			t.Fatal(err)
		}
		runs, err := ingest.ParseAll(context.Background(), f, ingest.Options{Source: c.file})
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if c.run >= len(runs) {
			t.Fatalf("%s: %d runs, want run %d", c.file, len(runs), c.run)
		}
		r := runs[c.run].Run
		rate, ok := analyze.ErrorRate(r)
		want := float64(c.errors) / float64(c.attempted)
		if r.Errors != c.errors || analyze.Attempted(r) != c.attempted || !ok || math.Abs(rate-want) > 1e-15 {
			t.Errorf("%s run %d (%s): %d errors in %d attempted, rate %v %v; want %d in %d (%s)",
				c.file, c.run, r.Tool, r.Errors, analyze.Attempted(r), rate, ok, c.errors, c.attempted, c.why)
		}
	}
}

func TestErrorRateEdges(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	cases := []struct {
		name      string
		r         results.Run
		attempted int64
		rate      float64
		ok        bool
	}{
		// The old "5 errors against 0 requests (+Inf %)": wrk connected
		// to nothing.
		{"wrk, no response", results.Run{Tool: "wrk", Requests: 0, Errors: 5, ConnectErrors: i64(5), ReadErrors: i64(0), WriteErrors: i64(0)}, 5, 1, true},
		{"no requests, no errors", results.Run{Tool: "wrk"}, 0, 0, false},
		{"ab without breakdown", results.Run{Tool: "ab", Requests: 100, Errors: 5}, 100, 0.05, true},
		{"counts that disagree", results.Run{Tool: "vegeta", Requests: 3, Errors: 7}, 7, 1, true},
		{"clean run", results.Run{Tool: "hey", Requests: 1000}, 1000, 0, true},
	}
	for _, c := range cases {
		rate, ok := analyze.ErrorRate(c.r)
		if n := analyze.Attempted(c.r); n != c.attempted || rate != c.rate || ok != c.ok {
			t.Errorf("%s: attempted %d, rate %v %v; want %d, %v %v", c.name, n, rate, ok, c.attempted, c.rate, c.ok)
		}
	}
	// The finding carries the rate: 100 % is an error, never +Inf.
	r := run("a:80", 0, 10, 0, 10)
	r.Requests, r.Errors, r.ConnectErrors = 0, 5, i64(5)
	for _, f := range mustAnalyze(t, []results.Run{r}, nil).Findings {
		if f.Code == analyze.CodeErrors {
			x := f.Facts.(analyze.ErrorsFacts)
			if f.Severity != analyze.SeverityError || x.Rate != 1 || x.Attempted != 5 {
				t.Errorf("errors finding %+v", f)
			}
			return
		}
	}
	t.Error("no errors finding")
}
