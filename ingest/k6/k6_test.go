package k6

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/results"
)

func TestK6Units(t *testing.T) {
	for _, c := range []struct {
		tok string
		ms  float64
		ok  bool
	}{
		{"1.23ms", 1.23, true}, {"456.78µs", 0.45678, true}, {"456.78μs", 0.45678, true}, {"456.78us", 0.45678, true},
		{"160ns", 0.00016, true}, {"0s", 0, true}, {"2.5s", 2500, true}, {"1m2s", 62000, true}, {"1h2m3s", 3723000, true},
		{"15.01s", 15010, true}, {"152.355556", 152.355556, true}, {"-1ms", 0, false}, {"ms", 0, false}, {"", 0, false},
		{"1.2.3ms", 0, false}, {"9999999999h", 0, false},
	} {
		ms, ok := durationMs([]byte(c.tok))
		if ok != c.ok || ok && math.Abs(ms-c.ms) > 1e-9*math.Max(1, c.ms) {
			t.Errorf("k6DurationMs(%q) = %v %v, want %v %v", c.tok, ms, ok, c.ms, c.ok)
		}
	}
	for _, c := range []struct {
		num, unit string
		b         float64
		ok        bool
	}{
		{"3.6", "MB", 3.6e6, true}, {"239", "kB/s", 239000, true}, {"0", "B", 0, true}, {"1.1", "GB", 1.1e9, true},
		{"830", "B/s", 830, true}, {"7.1", "TB", 7.1e12, true}, {"12", "KiB", 0, false}, {"x", "MB", 0, false},
	} {
		b, ok := parseBytes([]byte(c.num), []byte(c.unit))
		if ok != c.ok || ok && b != c.b {
			t.Errorf("parseBytes(%q %q) = %v %v, want %v %v", c.num, c.unit, b, ok, c.b, c.ok)
		}
	}
	for _, c := range []struct {
		stat string
		q    float64
		ok   bool
	}{
		{"med", 0.5, true}, {"p(90)", 0.9, true}, {"p(99.9)", 0.999, true}, {"p(99.99)", 0.9999, true}, {"p(100)", 1, true},
		{"p(101)", 0, false}, {"p(x)", 0, false}, {"avg", 0, false}, {"p90", 0, false},
	} {
		q, ok := quantile(c.stat)
		if ok != c.ok || q != c.q {
			t.Errorf("k6Quantile(%q) = %v %v", c.stat, q, ok)
		}
	}
	for _, c := range []struct {
		in string
		ns int64
		ok bool
	}{
		{"1641298536", 1641298536e9, true},
		{"1714557600.121203", 1714557600121203000, true},
		{"1714557600121", 1714557600121e6, true},
		{"1714557600121.5", 1714557600121500000, true},
		{"1714557600121203", 1714557600121203000, true},
		{"1714557600121203456", 1714557600121203456, true},
		{"2024-05-01T10:00:00.5Z", 1714557600500000000, true},
		{"2024-05-01T12:00:00+02:00", 1714557600e9, true},
		{"-5", 0, false}, {"abc", 0, false}, {"", 0, false}, {"99999999999999999999", 0, false}, {"1.x", 0, false},
	} {
		ns, ok := unixTimestamp(c.in)
		if ok != c.ok || ns != c.ns {
			t.Errorf("k6UnixTimestamp(%q) = %d %v, want %d %v", c.in, ns, ok, c.ns, c.ok)
		}
	}
}

func TestK6Values(t *testing.T) {
	for _, c := range []struct {
		in                         string
		num, rate, bytes, bps, max float64
		passes, total              int64
		counts, data               bool
	}{
		{in: "43404  4334.681688/s", num: 43404, rate: 4334.681688},
		{in: "76 MB  7.5 MB/s", bytes: 76e6, bps: 7.5e6, data: true},
		{in: "0.00%  ✓ 0           ✗ 43404", rate: 0, passes: 0, total: 43404, counts: true},
		{in: "12.50% 53883 out of 431040", rate: 0.125, passes: 53883, total: 431040, counts: true},
		{in: "100.00% ✓ 1501       ✗ 0", rate: 1, passes: 1501, total: 1501, counts: true},
		{in: "80     min=80        max=80", num: 80, max: 80},
	} {
		v := parseK6Value([]byte(c.in))
		if !v.parsed || v.num != c.num || v.rate != c.rate || v.bytes != c.bytes || v.bps != c.bps || v.max != c.max ||
			v.passes != c.passes || v.total != c.total || v.hasCounts != c.counts || v.isData != c.data {
			t.Errorf("parseK6Value(%q) = %+v", c.in, v)
		}
	}
	for _, bad := range []string{"", "abc", "x%"} {
		if parseK6Value([]byte(bad)).parsed {
			t.Errorf("parseK6Value(%q) parsed", bad)
		}
	}
	tr, ok := parseK6Trend([]byte("med=10.39µs  count=5 p(99)=451.07ms p(99.99)=469.67ms"))
	if !ok || !tr.hasCount || tr.count != 5 || tr.quantileLatency[0.5] != 0.01039 || tr.quantileLatency[0.99] != 451.07 || tr.quantileLatency[0.9999] != 469.67 {
		t.Errorf("trend %+v", tr)
	}
	for _, line := range []string{"http_req_duration..............: avg=1ms", "✗ http_req_duration...: avg=1ms", "  { expected_response:true }...: avg=1ms"} {
		if _, _, _, ok := metricLine(bytes.TrimSpace([]byte(line))); !ok {
			t.Errorf("k6MetricLine(%q) not ok", line)
		}
	}
	for _, line := range []string{"http_req_duration: avg=1ms", "some prose... with dots", "a b...: c", "..: x"} {
		if _, _, _, ok := metricLine([]byte(line)); ok {
			t.Errorf("k6MetricLine(%q) ok", line)
		}
	}
}

// summaryBlock parses a text summary.
func runs(t *testing.T, in string) []results.RunWithPercentiles {
	t.Helper()
	var c ingesttest.Collect
	if err := (Parser{}).Parse(context.Background(), strings.NewReader(in), core.Options{Source: "s.txt"}, &c); err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Runs {
		ingesttest.CheckRun(t, r)
	}
	return c.Runs
}

const k6Classic = `
  execution: local
     script: script.js
     output: -

  scenarios: (100.00%) 2 scenarios, 50 max VUs, 5m30s max duration (incl. graceful stop):
           * warm: 20.00 iterations/s for 1m0s (maxVUs: 10-20, gracefulStop: 30s)
           * main: Up to 100.00 iterations/s for 2m0s over 3 stages (maxVUs: 20-50, startTime: 1m0s, gracefulStop: 30s)


running (3m00.0s), 00/50 VUs, 14400 complete and 0 interrupted iterations
warm ✓ [======================================] 00/20 VUs  1m0s  20.00 iters/s
main ✓ [======================================] 00/50 VUs  2m0s  100.00 iters/s

     data_received..................: 1.2 GB 6.7 MB/s
     dropped_iterations.............: 12     0.066667/s
   ✗ http_req_duration..............: avg=1m2s min=250µs med=2.5s max=1h2m3s p(90)=3s p(95)=4.5s p(99.9)=1m0s
     http_req_failed................: 1.00%  ✓ 144  ✗ 14256
     http_reqs......................: 14400  80/s
     vus_max........................: 50     min=50  max=50
ERRO[0181] thresholds on metrics 'http_req_duration' have been crossed
`

func TestK6Layouts(t *testing.T) {
	r := runs(t, k6Classic)
	if len(r) != 1 {
		t.Fatalf("%d runs", len(r))
	}
	run := r[0]
	if run.LoadModel != results.LoadOpen || run.TargetRPS == nil || *run.TargetRPS != 120 || run.PlannedDurationS == nil || *run.PlannedDurationS != 180 {
		t.Errorf("model %s target %v planned %v", run.LoadModel, run.TargetRPS, run.PlannedDurationS)
	}
	if run.Requests != 14400 || run.Errors != 144 || run.RPS != 80 || run.DurationS != 180 || *run.Connections != 50 || *run.BytesIn != 1.2e9 {
		t.Errorf("%+v", run.Run)
	}
	if *run.LatMeanMs != 62000 || *run.LatMinMs != 0.25 || *run.LatMaxMs != 3723000 || *run.LatP999Ms != 60000 || *run.LatP50Ms != 2500 {
		t.Errorf("latencies %v %v %v %v %v", *run.LatMeanMs, *run.LatMinMs, *run.LatMaxMs, *run.LatP999Ms, *run.LatP50Ms)
	}
	for _, n := range []string{"threshold crossed on http_req_duration", "have been crossed", "dropped_iterations: 12", "main (ramping-arrival-rate)"} {
		if !strings.Contains(*run.Notes, n) {
			t.Errorf("notes %q lack %q", *run.Notes, n)
		}
	}
	if run.SourceLine != 2 {
		t.Errorf("source line %d", run.SourceLine)
	}

	// k6 < v0.27: another header; no http_req_failed.
	old := "  execution: local\n     output: -\n     script: s.js\n\n    duration: 30s, iterations: -\n         vus: 10,  max: 10\n\n" +
		"    http_req_duration..........: avg=1.5ms  min=1ms  med=1.5ms  max=2ms  p(90)=1.9ms  p(95)=2ms\n" +
		"    http_reqs..................: 3000   100/s\n"
	r = runs(t, old)
	if len(r) != 1 || r[0].PlannedDurationS == nil || *r[0].PlannedDurationS != 30 || *r[0].Connections != 10 || r[0].DurationS != 30 ||
		!strings.Contains(*r[0].Notes, "errors unknown") {
		t.Errorf("old: %+v %v", r, r[0].Notes)
	}

	// v1 full mode: scenario and group sections do not start runs; a
	// metric seen again starts the next run (two pasted summaries).
	full := "  █ TOTAL RESULTS\n\n    HTTP\n" +
		"    http_req_duration..........: avg=10ms min=1ms med=9ms max=50ms p(90)=20ms p(95)=30ms\n" +
		"    http_req_failed............: 0.00%  0 out of 100\n" +
		"    http_reqs..................: 100    10/s\n\n" +
		"  █ SCENARIO: left\n\n    HTTP\n" +
		"    http_req_duration..........: avg=12ms min=1ms med=9ms max=50ms p(90)=20ms p(95)=30ms\n" +
		"    http_reqs..................: 60     6/s\n" +
		"    ↳ GROUP: g\n" +
		"      http_reqs................: 20     2/s\n\n\n" +
		"    http_req_duration..........: avg=5ms min=1ms med=4ms max=9ms p(90)=8ms p(95)=9ms\n" +
		"    http_reqs..................: 7      7/s\n"
	r = runs(t, full)
	if len(r) != 1 || r[0].Requests != 100 || *r[0].LatMeanMs != 10 {
		t.Fatalf("full mode: %d runs %+v", len(r), r)
	}
	// Without the scenario section, the repeated metrics are a second run.
	two := strings.Replace(full, "  █ SCENARIO: left\n", "", 1)
	two = strings.Replace(two, "    ↳ GROUP: g\n      http_reqs................: 20     2/s\n", "", 1)
	r = runs(t, two)
	if len(r) != 3 || r[1].Requests != 60 || r[2].Requests != 7 || r[2].Index != 2 {
		t.Errorf("repeated: %d runs", len(r))
	}

	// A summary without HTTP metrics is skipped; a time unit fixed with
	// --summary-time-unit=ms is read.
	r = runs(t, "     iterations...........: 6   1.999116/s\n     vus..................: 2   min=2      max=2\n\n"+
		"     http_req_duration..............: avg=0.09ms   min=0.06ms   med=0.09ms   max=0.12ms   p(90)=0.11ms   p(95)=0.12ms\n"+
		"     iterations...........: 6   1.999116/s\n")
	if len(r) != 1 || *r[0].LatMeanMs != 0.09 {
		t.Errorf("time unit: %+v", r)
	}
	if _, err := parseAll(context.Background(), strings.NewReader("     iterations...........: 6   1.999116/s\n"), core.Options{Source: "x"}); err == nil {
		t.Error("no error for a summary without HTTP metrics")
	}
}

func TestK6Samples(t *testing.T) {
	runs, err := ingesttest.ParseFile(t, parse, "testdata/k6/k6_01.txt")
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	r := runs[0]
	if r.Tool != "k6" || r.LoadModel != results.LoadClosed || *r.Connections != 80 || *r.PlannedDurationS != 10 || r.Requests != 43404 ||
		r.Errors != 0 || r.RPS != 4334.681688 || *r.BytesIn != 76e6 || *r.TransferBPS != 7.5e6 || *r.LatMinMs != 0.654 ||
		*r.LatP90Ms != 30.32 || math.Abs(r.DurationS-43404/4334.681688) > 1e-12 || *r.Command != "k6 run --vus 80 --duration 10s test.js" {
		t.Errorf("k6_01: %+v", r.Run)
	}
	runs, err = ingesttest.ParseFile(t, parse, "testdata/k6/v1-multi.txt")
	if err != nil || len(runs) != 4 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	if runs[0].Errors != 16 || runs[0].Requests != 173384 || *runs[0].LatMaxMs != 15010 || runs[1].Notes == nil ||
		!strings.Contains(*runs[1].Notes, "'p(95)<200' p(95)=385.69ms") || !strings.Contains(*runs[1].Notes, "have been crossed") ||
		runs[2].Errors != 30 || strings.Contains(*runs[2].Notes, "crossed") || *runs[3].Connections != 1000 {
		t.Errorf("v1-multi: %+v", runs)
	}
	runs, err = ingesttest.ParseFile(t, parse, "testdata/k6/arrival-rate.txt")
	if err != nil || len(runs) != 1 || runs[0].LoadModel != results.LoadOpen || *runs[0].TargetRPS != 100 || *runs[0].Connections != 20 ||
		*runs[0].LatP99Ms != 0.32753 || len(runs[0].Percentiles) != 6 || runs[0].Percentiles[4].Quantile != 0.9999 {
		t.Errorf("arrival-rate: %+v %v", runs, err)
	}
	if !strings.HasSuffix(*runs[0].Command, "benchmark-rps.js") {
		t.Errorf("command %q", *runs[0].Command)
	}
}

func TestK6SummaryJSON(t *testing.T) {
	runs, err := ingesttest.ParseFile(t, parse, "testdata/k6/summary-export.json")
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	r := runs[0]
	if r.Requests != 590 || r.Errors != 0 || *r.LatP99Ms != 20.25199 || *r.BytesIn != 22143927 || *r.Connections != 5 ||
		math.Abs(r.DurationS-590/9.814657022485246) > 1e-9 || !strings.Contains(*r.Notes, "http_req_duration{name:voz_listar} (n=295") {
		t.Errorf("export: %+v", r.Run)
	}
	runs, err = ingesttest.ParseFile(t, parse, "testdata/k6/handle-summary.json")
	if err != nil || len(runs) != 1 || runs[0].DurationS != 30.0184068 || runs[0].Requests != 16510 || *runs[0].LatP50Ms != 39.877318 {
		t.Errorf("handleSummary: %+v %v", runs, err)
	}
	for _, c := range []struct {
		name, in string
		line     int
		notes    string
		errors   int64
	}{
		{name: "old thresholds", in: `{"metrics":{"http_reqs":{"count":10,"rate":2},"http_req_duration":{"avg":5,"p(95)":9,"thresholds":{"p(95)<5":true,"avg<100":false}},"http_req_failed":{"value":0.1}}}`,
			notes: "threshold crossed: http_req_duration p(95)<5", errors: 1},
		{name: "new thresholds", in: `{"root_group":{},"metrics":{"http_reqs":{"values":{"count":10,"rate":2}},"http_req_duration":{"values":{"avg":5},"thresholds":{"avg<1":{"ok":false}}},"http_req_failed":{"values":{"rate":0.2,"passes":3,"fails":7}}}}`,
			notes: "threshold crossed: http_req_duration avg<1", errors: 3},
		{name: "cut", in: "{\"root_group\":{},\n\"metrics\":{\"http_reqs\":{\"count\":10,\n", line: 2},
		{name: "bad", in: "{\"root_group\":{},\n\"metrics\":{\"http_reqs\":{\"count\":10,}}}", line: 2},
		{name: "array", in: `[{"metrics":{"http_reqs":{}}}]`, line: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var col ingesttest.Collect
			err := (SummaryParser{}).Parse(context.Background(), strings.NewReader(c.in), core.Options{Source: "j"}, &col)
			if c.line > 0 {
				var se *core.SyntaxError
				if !errors.As(err, &se) || se.Line != c.line {
					t.Fatalf("error %v, want a SyntaxError at line %d", err, c.line)
				}
				return
			}
			if err != nil || len(col.Runs) != 1 || !strings.Contains(*col.Runs[0].Notes, c.notes) || col.Runs[0].Errors != c.errors {
				t.Fatalf("%v %+v", err, col.Runs)
			}
			if !(SummaryParser{}).Detect([]byte(c.in)) {
				t.Error("not detected")
			}
		})
	}
}

// point renders a k6 JSON output line of an http_req_duration point.
func point(tm string, ms float64, tags string) string {
	return fmt.Sprintf(`{"metric":"http_req_duration","type":"Point","data":{"time":%q,"value":%v,"tags":{%s}}}`, tm, ms, tags)
}

func TestK6NDJSON(t *testing.T) {
	runs, err := ingesttest.ParseFile(t, parse, "testdata/k6/out-json-multi-edited.json")
	if err != nil || len(runs) != 4 {
		t.Fatalf("%d runs %v", len(runs), err)
	}
	ok := runs[0]
	if ok.Target != "http://127.0.0.1:18080/ok" || ok.Requests != 6 || ok.Errors != 2 || *ok.Timeouts != 1 || *ok.Connections != 10 ||
		!ok.HasSamples || ok.StartedAt == nil || ok.StartedAt.UnixNano() != 1714557600119999723 {
		t.Errorf("GET /ok: %+v", ok.Run)
	}
	if runs[1].Errors != 1 || *runs[2].Non2xx != 1 || runs[2].Target != "http://127.0.0.1:18080/items/${}" || !strings.Contains(*runs[3].Notes, "scenario spike") {
		t.Errorf("runs: %+v", runs)
	}
	// The CSV of the same requests gives the same runs, but for ns precision.
	csvRuns, err := ingesttest.ParseFile(t, parse, "testdata/k6/out-csv-multi-edited.csv")
	if err != nil || len(csvRuns) != 4 {
		t.Fatalf("csv: %d runs %v", len(csvRuns), err)
	}
	for i := range runs {
		a, b := runs[i], csvRuns[i]
		if a.Requests != b.Requests || a.Errors != b.Errors || *a.LatP50Ms != *b.LatP50Ms || a.Target != b.Target ||
			math.Abs(a.DurationS-b.DurationS) > 1e-6 {
			t.Errorf("run %d: json %+v csv %+v", i, a.Run, b.Run)
		}
	}

	// Malformed lines: noted under 1 %, an error above.
	var in strings.Builder
	for i := range 300 {
		in.WriteString(point(fmt.Sprintf("2024-05-01T10:00:%02d.5Z", i%60), float64(i%7+1), `"method":"GET","url":"http://h/","status":"200"`) + "\n")
	}
	in.WriteString("{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":\"bad\",\"value\":1}}\n")
	var c ingesttest.Collect
	if err := (NDJSONParser{}).Parse(context.Background(), strings.NewReader(in.String()), core.Options{Source: "x"}, &c); err != nil ||
		len(c.Runs) != 1 || c.Runs[0].Requests != 300 || !strings.Contains(*c.Runs[0].Notes, "1 malformed lines skipped (line 301: time") {
		t.Fatalf("%v %+v", err, c.Runs)
	}
	in.WriteString("not json\nnot json either\nnor this\n")
	err = (NDJSONParser{}).Parse(context.Background(), strings.NewReader(in.String()), core.Options{Source: "x"}, &ingesttest.Collect{})
	var se *core.SyntaxError
	if !errors.As(err, &se) || se.Line != 301 {
		t.Errorf("error %v", err)
	}

	// Tags: name groups, url is the target when the name is no URL;
	// status 0 with error_code only.
	lines := point("2024-05-01T10:00:00Z", 5, `"method":"GET","name":"ProductPage","url":"http://shop/p/1","status":"200"`) + "\n" +
		point("2024-05-01T10:00:01Z", 7, `"method":"GET","name":"ProductPage","url":"http://shop/p/2","status":"0","error_code":"1211"`) + "\n"
	c = ingesttest.Collect{}
	if err := (NDJSONParser{}).Parse(context.Background(), strings.NewReader(lines), core.Options{Source: "x"}, &c); err != nil || len(c.Runs) != 1 {
		t.Fatalf("%v %+v", err, c.Runs)
	}
	if r := c.Runs[0]; r.Target != "http://shop/p/1" || r.Label != "shop:80" || r.Errors != 1 || *c.Samples[1].Error != "error_code 1211" {
		t.Errorf("%+v", r.Run)
	}
}

func TestK6CSVErrors(t *testing.T) {
	hdr := "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata\n"
	row := "http_req_duration,1714557600123,12.5,,\"dial: i/o timeout, retrying\",1050,false,,GET,http://h/a,,default,,0,,,http://h/a,,\n"
	var c ingesttest.Collect
	if err := (CSVParser{}).Parse(context.Background(), strings.NewReader(hdr+row), core.Options{Source: "x"}, &c); err != nil || len(c.Runs) != 1 {
		t.Fatalf("%v %+v", err, c.Runs)
	}
	r := c.Runs[0]
	if *r.Timeouts != 1 || r.Errors != 1 || r.StartedAt.UnixNano() != 1714557600123e6-12.5e6 || *c.Samples[0].Error != "dial: i/o timeout, retrying" {
		t.Errorf("%+v", r.Run)
	}
	// An unterminated quote: the rest of the file is one bad record.
	err := (CSVParser{}).Parse(context.Background(), strings.NewReader(hdr+row+"http_req_duration,1,\"2\n"), core.Options{Source: "x"}, &ingesttest.Collect{})
	var se *core.SyntaxError
	if !errors.As(err, &se) {
		t.Errorf("error %v", err)
	}
	// A header that is not k6's.
	if err := (CSVParser{}).Parse(context.Background(), strings.NewReader("a,b,c\n"), core.Options{Source: "x"}, &ingesttest.Collect{}); !errors.As(err, &se) || se.Line != 1 {
		t.Errorf("error %v", err)
	}
	// A runaway record is cut at 4 MiB.
	huge := hdr + "http_req_duration,\"" + strings.Repeat("x", core.CSVMaxRecord+100)
	if err := (CSVParser{}).Parse(context.Background(), strings.NewReader(huge), core.Options{Source: "x"}, &ingesttest.Collect{}); !errors.As(err, &se) {
		t.Errorf("huge record: %v", err)
	}
}

// TestK6Stream parses a gzipped JSON output of 200,000 requests without
// holding it.
func TestK6Stream(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	for i := range 200000 {
		fmt.Fprintln(zw, point(fmt.Sprintf("2024-05-01T10:%02d:%02d.%06dZ", i/60000%60, i/1000%60, i%1000*1000), float64(i%50)+0.5,
			`"method":"GET","name":"http://h/","url":"http://h/","status":"200","scenario":"default"`))
	}
	zw.Close()
	runs, err := parseAll(context.Background(), &buf, core.Options{Source: "big.json.gz"})
	if err != nil || len(runs) != 1 || runs[0].Requests != 200000 || *runs[0].LatMaxMs != 49.5 {
		t.Fatalf("%v %+v", err, runs)
	}
}

// checkParse runs p on data and checks the contract
// (ingesttest.CheckContract).
func checkParse(t *testing.T, p core.Parser, data []byte) {
	ingesttest.CheckContract(t, parsers, p, data)
}

// FuzzK6 checks the k6 text summary parser.
func FuzzK6(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/k6/*.txt")
	f.Add([]byte(k6Classic))
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, Parser{}, data) })
}

// FuzzK6Summary checks the k6 summary JSON parser.
func FuzzK6Summary(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/k6/*summary*.json")
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, SummaryParser{}, data) })
}

// FuzzK6JSON checks the k6 --out json parser.
func FuzzK6JSON(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/k6/out-json*.json")
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, NDJSONParser{}, data) })
}

// FuzzK6CSV checks the k6 --out csv parser.
func FuzzK6CSV(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/k6/out-csv*.csv")
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, CSVParser{}, data) })
}

// TestK6ThresholdP99: a p(99) printed only in a THRESHOLDS line fills the
// run's p99 and its percentile point; statistics of the metrics line win,
// and thresholds of other metrics add nothing.
func TestK6ThresholdP99(t *testing.T) {
	runs, err := ingesttest.ParseFile(t, parse, "testdata/k6/thresholds-p99-edited.txt")
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, err %v", len(runs), err)
	}
	r := runs[0]
	if r.LatP99Ms == nil || *r.LatP99Ms != 803.33 || r.LatP90Ms == nil || *r.LatP90Ms != 331.31 {
		t.Errorf("p99 %v p90 %v", r.LatP99Ms, r.LatP90Ms)
	}
	var qs []float64
	for _, p := range r.Percentiles {
		qs = append(qs, p.Quantile)
	}
	if want := []float64{0, 0.5, 0.9, 0.95, 0.99, 1}; !reflect.DeepEqual(qs, want) {
		t.Errorf("quantiles %v, want %v", qs, want)
	}
	in := " █ THRESHOLDS\n\n    http_req_duration\n    ✓ 'p(99)<900' p(99)=1.5s\n\n    iteration_duration\n    ✓ 'p(99.9)<9000' p(99.9)=8s\n\n" +
		"  █ TOTAL RESULTS\n\n    http_req_duration..............: avg=2ms min=1ms med=2ms max=3s p(90)=2ms p(95)=2ms p(99)=2.5ms\n" +
		"    http_reqs......................: 10 1/s\n"
	runs, err = parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "x"})
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, err %v", len(runs), err)
	}
	if r := runs[0]; *r.LatP99Ms != 2.5 || r.LatP999Ms != nil {
		t.Errorf("p99 %v p99.9 %v: the metrics line must win, other metrics add nothing", *r.LatP99Ms, r.LatP999Ms)
	}
}
