package artillery

import (
	"context"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestArtillery checks the figures of real outputs value by value, and
// that the console's periods and the report's intermediate periods give
// the same series.
func TestArtillery(t *testing.T) {
	for _, c := range []struct {
		file                     string
		requests, errs, timeouts int64
		windows                  int
	}{
		// http.requests 240, http.codes.500 40, two periods
		{file: "real-ok.txt", requests: 240, errs: 40, windows: 2},
		{file: "real-ok.json", requests: 240, errs: 40, windows: 2},
		// errors.ETIMEDOUT 7
		{file: "real-timeout.txt", requests: 10, errs: 7, timeouts: 7, windows: 1},
		{file: "real-timeout.json", requests: 10, errs: 7, timeouts: 7, windows: 1},
	} {
		var col ingesttest.Collect
		in := ingesttest.ReadPlain(t, "testdata/artillery/"+c.file)
		if err := parse(context.Background(), strings.NewReader(string(in)), core.Options{Source: c.file}, &col); err != nil || len(col.Runs) != 1 {
			t.Fatalf("%s: %d runs, err %v", c.file, len(col.Runs), err)
		}
		r := col.Runs[0]
		if r.Tool != "artillery" || r.LoadModel != "open" || r.Requests != c.requests || r.Errors != c.errs || *r.Timeouts != c.timeouts {
			t.Errorf("%s: requests %d errors %d timeouts %d", c.file, r.Requests, r.Errors, *r.Timeouts)
		}
		var sum int64
		for _, s := range col.Windows {
			sum += s.Requests
			if s.RunID != r.RunID {
				t.Errorf("%s: series of another run", c.file)
			}
		}
		if len(col.Windows) != c.windows || sum != r.Requests {
			t.Errorf("%s: %d windows holding %d requests", c.file, len(col.Windows), sum)
		}
		if r.DurationS < 1 || r.LatP99Ms == nil || r.BytesIn == nil || *r.BytesIn == 0 {
			t.Errorf("%s: duration %v p99 %v bytes %v", c.file, r.DurationS, r.LatP99Ms, r.BytesIn)
		}
	}
}

// TestArtilleryBad: cut or malformed reports are refused with the file and
// line; prose and other JSON are not Artillery's.
func TestArtilleryBad(t *testing.T) {
	ingesttest.CheckCutBytes(t, parsers, "artillery-json", "testdata/artillery/real-timeout.json", 1000)
	// Artillery 1.x: requests are the completed ones plus the errors.
	runs, err := ingesttest.ParseFile(t, parse, "testdata/artillery/issue-436-v1.txt")
	if err != nil || len(runs) != 1 || runs[0].Requests != 62 || runs[0].Errors != 62 || *runs[0].Timeouts != 62 || runs[0].LatP99Ms != nil {
		t.Errorf("1.x all errors: %d runs, err %v", len(runs), err)
	}
	runs, err = ingesttest.ParseFile(t, parse, "testdata/artillery/issue-341-v1.txt")
	if err != nil || len(runs) != 1 || runs[0].Requests != 10000 || runs[0].Non2xx != nil || *runs[0].LatP99Ms != 33130.4 || runs[0].RPS != 194.82 {
		t.Errorf("1.x summary: %d runs, err %v", len(runs), err)
	}
	in := "Summary report @ 19:27:00(+0000)\nhttp.codes.200: ........ 7\nhttp.response_time:\n  min: ...... 6\n  max: ...... x\n"
	_, err = parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "a.txt"})
	ingesttest.WantSyntax(t, err, 5, "http.response_time max")
	in = "Summary report @ 19:27:00(+0000)\nhttp.codes.200: ........ 7\nhttp.responses: ..... 7\n"
	_, err = parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "a.txt"})
	ingesttest.WantSyntax(t, err, 3, "http.requests")
	for _, s := range []string{
		"Summary report @ 19:27:00(+0000)\n",
		"http.requests: ......... 10\n",
		`{"aggregate": {}}`,
	} {
		if p, err := core.DetectIn(parsers, []byte(s)); err == nil && strings.HasPrefix(p.Name(), "artillery") {
			t.Errorf("%q detected as %s", s, p.Name())
		}
	}
}

// FuzzArtillery fuzzes the console parser with small hand-cut seeds.
func FuzzArtillery(f *testing.F) {
	f.Add([]byte("$ artillery run t.yml\nMetrics for period to: 23:59:58(+0000) (width: 2.782s)\n----\nerrors.ETIMEDOUT: ........ 3\n" +
		"http.codes.200: ....... 7\nhttp.codes.503: ....... 1\nhttp.request_rate: ......... 6/sec\nhttp.requests: ......... 11\n" +
		"http.response_time:\n  min: ...... 6\n  max: ...... 7\n  median: ...... 6\n  p99: ...... 7\n" +
		"Metrics for period to: 00:00:08(+0000) (width: 9.1s)\nhttp.requests: ..... 1\n\nAll VUs finished. Total time: 1 minute, 4 seconds\n" +
		"Summary report @ 00:00:09(+0000)\nerrors.ETIMEDOUT: ........ 3\nhttp.codes.200: ....... 8\nhttp.downloaded_bytes: .... 91\n" +
		"http.request_rate: ......... 6/sec\nhttp.requests: ......... 12\nhttp.responses: ...... 9\nhttp.response_time:\n  min: ...... 6\n" +
		"  p999: ..... 7\nvusers.created: ...... 12\nLog file: x.json\n"))
	f.Add([]byte("Complete report @ 2018-03-07T04:03:38.796Z\n  Scenarios launched:  30\n  Requests completed:  3\n  RPS sent: 0.24\n" +
		"  Request latency:\n    min: NaN\n    p99: 5.5\n  Scenario counts:\n    0: 30 (100%)\n  Codes:\n    200: 2\n    503: 1\n" +
		"  Errors:\n    ETIMEDOUT: 58\n"))
	p := ingesttest.ParserNamed(f, parsers, "artillery")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}

// FuzzArtilleryJSON fuzzes the report parser with small seeds.
func FuzzArtilleryJSON(f *testing.F) {
	f.Add([]byte(`{"aggregate":{"counters":{"http.requests":10,"http.codes.200":7,"errors.ETIMEDOUT":3,"http.responses":7,"http.downloaded_bytes":91},` +
		`"rates":{"http.request_rate":6},"firstMetricAt":1796239706130,"lastMetricAt":1796239708935,"summaries":{"http.response_time":` +
		`{"min":6,"max":36,"count":7,"mean":18.4,"p50":8.9,"median":8.9,"p99":34.1,"p999":34.1}}},"intermediate":[{"counters":{"http.requests":10},` +
		`"rates":{"http.request_rate":null},"firstMetricAt":1796239706130,"lastMetricAt":1796239708935,"summaries":{},"period":"1796239700000"}]}`))
	p := ingesttest.ParserNamed(f, parsers, "artillery-json")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckParse(t, parsers, p, data) })
}
