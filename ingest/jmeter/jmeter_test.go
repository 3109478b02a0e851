package jmeter

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/results"
)

func parser(t testing.TB, name string) core.Parser {
	t.Helper()
	for _, p := range parsers {
		if p.Name() == name {
			return p
		}
	}
	t.Fatalf("parser %s not registered", name)
	return nil
}

// parseJTL parses in with Parse and keeps everything.
func parseJTL(t testing.TB, in string) (*ingesttest.Collect, error) {
	t.Helper()
	var c ingesttest.Collect
	err := parse(context.Background(), strings.NewReader(in), core.Options{Source: "x.jtl"}, &c)
	return &c, err
}

// TestJMeterBareDetect: the shape of header-less records.
func TestJMeterBareDetect(t *testing.T) {
	const v213 = "1796218599756,43,refused,Non HTTP response code: java.net.ConnectException,Non HTTP response message: Connection refused,odd 2-1,text,false,1973,1,3,0\n"
	const v5 = "1597798959524,205,T01_HomePageLoad,200,OK,Thread Group 1-1,text,true,,1613,116,3,3,http://example.com/,200,0,150\n"
	for _, c := range []struct {
		name string
		in   string
		want bool
	}{
		{"2.13 default", v213 + v213, true},
		{"5.x default", v5, true},
		{"byte order mark", "\xEF\xBB\xBF" + v5, true},
		{"quoted label with a comma", "1400000000000,12,\"GET /a,b\",200,OK,T 1-1,text,true,10,1,1,12\n", true},
		{"multi-line quoted failure message", "1400000000000,12,x,200,OK,T 1-1,text,false,\"Test failed:\n expected 201\",10,0,1,1,http://h/,1,0,0\n", true},
		{"tab separated", strings.ReplaceAll(v5, ",", "\t"), true},
		{"no trailing newline", strings.TrimSuffix(v5, "\n"), true},
		{"header line", "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success\n" + v5, false},
		{"seconds, not milliseconds", "1400000000,12,x,200,OK,T 1-1,text,true,10,1,1,12\n", false},
		{"success not a boolean", "1400000000000,12,x,200,OK,T 1-1,text,200,10,1,1,12\n", false},
		{"elapsed not an integer", "1400000000000,1.5s,x,200,OK,T 1-1,text,true,10,1,1,12\n", false},
		{"seven fields", "1400000000000,12,x,200,OK,T 1-1,text\n", false},
		{"a bad record after good ones", v5 + v5 + "garbage\n", false},
	} {
		_, got := jtlBareComma([]byte(c.in))
		if got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestJMeterCodes: response codes, success flags and the errors they give.
func TestJMeterCodes(t *testing.T) {
	const header = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,grpThreads,allThreads,URL\n"
	for _, c := range []struct {
		name       string
		rec        string
		status     int32
		err        string // the sample's error, "" for none
		failed     bool
		timeout    bool
		noteSubstr string
	}{
		{name: "ok", rec: "200,OK,T 1-1,text,true,", status: 200},
		{name: "redirect", rec: "302,Found,T 1-1,text,true,", status: 302},
		{name: "500", rec: "500,Internal Server Error,T 1-1,text,false,", status: 500, failed: true},
		{name: "404 with assertion message", rec: "404,Not Found,T 1-1,text,false,Test failed: code expected 200", status: 404,
			err: "Test failed: code expected 200", failed: true},
		{name: "failed assertion on a 200", rec: "200,OK,T 1-1,text,false,\"Test failed: text expected to contain /x/\n\n/\"", status: 200,
			err: "Test failed: text expected to contain /x/ /", failed: true},
		{name: "failed 200 without message", rec: "200,OK,T 1-1,text,false,", status: 200, err: "JMeter sample failed: 200 OK", failed: true},
		{name: "connection refused", rec: "Non HTTP response code: java.net.ConnectException,Non HTTP response message: Connection refused,T 1-1,text,false,",
			err: "java.net.ConnectException: Connection refused", failed: true},
		{name: "read timeout", rec: "Non HTTP response code: java.net.SocketTimeoutException,Non HTTP response message: Read timed out,T 1-1,text,false,",
			err: "java.net.SocketTimeoutException: Read timed out", failed: true, timeout: true},
		{name: "failed without a code", rec: ",,T 1-1,text,false,", err: "JMeter sample failed", failed: true},
		{name: "non-HTTP sampler success", rec: "0,Process exited,T 1-1,text,true,", status: 200, noteSubstr: "1 successful samples without an HTTP status"},
		{name: "successful 503", rec: "503,Service Unavailable,T 1-1,text,true,", status: 503, failed: true,
			noteSubstr: "1 samples JMeter marked successful have an HTTP status >= 400"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := header + "1400000000000,12,req," + c.rec + ",100,2,3,http://h:8080/a\n"
			got, err := parseJTL(t, in)
			if err != nil || len(got.Runs) != 1 || len(got.Samples) != 1 {
				t.Fatalf("%d runs, %d samples, err %v", len(got.Runs), len(got.Samples), err)
			}
			s, r := got.Samples[0], got.Runs[0]
			gotErr := ""
			if s.Error != nil {
				gotErr = *s.Error
			}
			if s.Status != c.status || gotErr != c.err {
				t.Errorf("status %d error %q, want %d %q", s.Status, gotErr, c.status, c.err)
			}
			if (r.Errors == 1) != c.failed || (*r.Timeouts == 1) != c.timeout {
				t.Errorf("errors %d timeouts %d", r.Errors, *r.Timeouts)
			}
			notes := ""
			if r.Notes != nil {
				notes = *r.Notes
			}
			if !strings.Contains(notes, c.noteSubstr) {
				t.Errorf("notes %q lack %q", notes, c.noteSubstr)
			}
			if r.Target != "http://h:8080" || r.Label != "h:8080" || *r.Connections != 3 || s.LatencyMs != 12 || s.BytesIn != 100 {
				t.Errorf("target %q label %q connections %d sample %+v", r.Target, r.Label, *r.Connections, s)
			}
		})
	}
}

// TestJMeterNumbers checks the runs of the generated files against counts
// made independently (awk and Python over the JTL files, see README.md).
func TestJMeterNumbers(t *testing.T) {
	type want struct {
		label    string
		requests int64
		errors   int64
		meanMs   float64
		conns    int32
		endpoint string // "" for none: a file of one sampler label
	}
	for _, c := range []struct {
		file string
		runs []want
	}{
		{"csv-noheader-2.13-default.jtl.gz", []want{
			{"refused", 10, 10, 4.9, 5, "refused"}, {"ok", 1000, 0, 2.252, 5, "ok"}, {"mixed", 1000, 100, 2.099, 5, "mixed"},
			{"page", 10, 0, 62.4, 5, "page"}, {"assert-fail", 10, 10, 3.3, 5, "assert-fail"}, {"status-404", 10, 10, 1.9, 5, "status-404"}}},
		{"csv-header.jtl.gz", []want{
			{"127.0.0.1:19399", 10, 10, 3.3, 5, "refused"}, {"127.0.0.1:19300", 1000, 0, 1.423, 5, "ok"},
			{"127.0.0.1:19300", 1000, 100, 1.305, 5, "mixed"}, {"127.0.0.1:19301", 10, 0, 38.8, 5, "page"},
			{"127.0.0.1:19300", 10, 10, 2.8, 5, "assert-fail"}, {"127.0.0.1:19300", 10, 10, 2.8, 5, "status-404"}}},
		{"xml.jtl.gz", []want{
			{"127.0.0.1:19399", 10, 10, 6.8, 5, "refused"}, {"127.0.0.1:19300", 1000, 0, 1.978, 5, "ok"},
			{"127.0.0.1:19300", 1000, 100, 1.899, 5, "mixed"}, {"127.0.0.1:19301", 10, 0, 52.9, 5, "page"},
			{"127.0.0.1:19300", 10, 10, 4.2, 5, "assert-fail"}, {"127.0.0.1:19300", 10, 10, 2.4, 5, "status-404"}}},
		{"qainsights-perfaction-result.jtl", []want{{"example.com:80", 100, 0, 48.4, 5, ""}}},
		{"defra-rod-catch-returns-result-excerpt.jtl", []want{
			{"rcr-pre.aws.defra.cloud:443", 6, 0, 1219.1666666666667, 3, "GET /licence-auth"},
			{"rcr-pre.aws.defra.cloud:443", 6, 6, 16689, 3, "POST /licence-auth"}}},
	} {
		t.Run(c.file, func(t *testing.T) {
			runs, err := ingesttest.ParseFile(t, parse, filepath.Join("testdata/jmeter", c.file))
			if err != nil || len(runs) != len(c.runs) {
				t.Fatalf("%d runs, err %v", len(runs), err)
			}
			for i, w := range c.runs {
				r := runs[i]
				label := r.Label
				if r.Target == "" {
					// Runs by sampler: the label is the file's; the sampler is in the notes.
					label = "?"
					if r.Notes != nil && strings.Contains(*r.Notes, "JMeter sampler \""+w.label+"\"") {
						label = w.label
					}
				}
				if label != w.label || r.Requests != w.requests || r.Errors != w.errors || math.Abs(*r.LatMeanMs-w.meanMs) > 1e-9 ||
					r.Connections == nil || *r.Connections != w.conns || r.Tool != "jmeter" || r.LoadModel != results.LoadClosed || r.Threads != nil {
					t.Errorf("run %d: label %q requests %d errors %d mean %v conns %v, want %+v", i, r.Label, r.Requests, r.Errors, *r.LatMeanMs, r.Connections, w)
				}
				if got := ingesttest.PtrString(r.Endpoint); got != w.endpoint {
					t.Errorf("run %d: endpoint %q, want %q", i, got, w.endpoint)
				}
				if !strings.HasSuffix(c.file, ".gz") {
					continue
				}
				if r.Notes == nil || !strings.Contains(*r.Notes, "10 transaction controller samples skipped") {
					t.Errorf("run %d notes %v", i, r.Notes)
				}
			}
		})
	}
}

// TestJMeterXML: nesting, truncation, encodings and malformed documents.
func TestJMeterXML(t *testing.T) {
	const nested = `<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="x.xsl"?>
<!-- a comment -->
<testResults version="1.2">
<sample t="300" ts="1400000000000" s="false" lb="TX" rc="200" rm="Number of samples in transaction : 3, number of failing samples : 1" tn="T 1-1" dt="" by="600" ng="2" na="2">
  <httpSample t="100" ts="1400000000000" s="true" lb="/a" rc="200" rm="OK" tn="T 1-1" dt="text" by="300" ng="2" na="2">
    <httpSample t="60" ts="1400000000000" s="true" lb="/a-0" rc="302" rm="Found" by="100"><java.net.URL>http://other:81/a</java.net.URL></httpSample>
    <httpSample t="40" ts="1400000000060" s="true" lb="/a-1" rc="200" rm="OK" by="200"><java.net.URL>http://other:81/b</java.net.URL></httpSample>
    <java.net.URL>http://h/a</java.net.URL>
  </httpSample>
  <sample t="150" ts="1400000000100" s="false" lb="inner TX" rc="" rm="Number of samples in transaction : 1, number of failing samples : 1">
    <httpSample t="150" ts="1400000000100" s="false" lb="/b" rc="200" rm="OK" by="100" ng="2" na="4">
      <assertionResult><name>ok</name><failure>false</failure><error>false</error></assertionResult>
      <assertionResult><name>text</name><failure>true</failure><error>false</error><failureMessage>Test failed:
 text expected to contain /yes/</failureMessage></assertionResult>
      <responseData class="java.lang.String">&lt;java.net.URL&gt;http://not-this/&lt;/java.net.URL&gt;</responseData>
      <java.net.URL>http://h/b</java.net.URL>
    </httpSample>
  </sample>
  <httpSample t="50" ts="1400000000250" s="true" lb="/c" rc="200" rm="OK" by="200"><java.net.URL>http://h:80/c</java.net.URL></httpSample>
</sample>
<httpSample t="7" ts="1400000000400" s="false" lb="conn" rc="Non HTTP response code: java.net.ConnectException" rm="Non HTTP response message: Connection refused" by="0"/>
</testResults>
`
	// One run per sampler label of h:80 (/a, /b, /c: the sub-results and
	// the transaction parents are not requests of their own), then the
	// refused connection, which has no URL.
	got, err := parseJTL(t, nested)
	if err != nil || len(got.Runs) != 4 {
		t.Fatalf("%d runs, err %v", len(got.Runs), err)
	}
	var requests, errs, bytesIn int64
	var conns int32
	for i, r := range got.Runs[:3] {
		if want := []string{"/a", "/b", "/c"}[i]; r.Label != "h:80" || ingesttest.PtrString(r.Endpoint) != want ||
			r.Notes == nil || !strings.Contains(*r.Notes, "2 transaction controller samples skipped") {
			t.Errorf("run %d: %+v endpoint %q notes %v", i, r.Run, ingesttest.PtrString(r.Endpoint), r.Notes)
		}
		requests, errs, bytesIn = requests+r.Requests, errs+r.Errors, bytesIn+*r.BytesIn
		if r.Connections != nil {
			conns = max(conns, *r.Connections)
		}
	}
	if requests != 3 || errs != 1 || bytesIn != 600 || conns != 4 || got.Runs[1].Errors != 1 {
		t.Errorf("h:80: %d requests, %d errors, %d bytes, %d connections", requests, errs, bytesIn, conns)
	}
	if e := got.Samples[1].Error; e == nil || *e != "Test failed: text expected to contain /yes/" {
		t.Errorf("sample 1 error %v", e)
	}
	if r2 := got.Runs[3]; r2.Target != "" || r2.Requests != 1 || r2.Errors != 1 || r2.Connections != nil || ingesttest.PtrString(r2.Endpoint) != "conn" ||
		r2.Notes == nil || !strings.Contains(*r2.Notes, `JMeter sampler "conn"`) {
		t.Errorf("run 3: %+v notes %v", r2.Run, r2.Notes)
	}

	// cut short: read up to the last complete sample, with a note.
	cut := nested[:strings.Index(nested, `<httpSample t="7"`)+30]
	got, err = parseJTL(t, cut)
	if err != nil || len(got.Runs) != 3 || got.Runs[0].Requests+got.Runs[1].Requests+got.Runs[2].Requests != 3 ||
		!strings.Contains(*got.Runs[0].Notes, "ends before </testResults>") {
		t.Errorf("cut: %d runs, err %v", len(got.Runs), err)
	}

	// ISO-8859-1.
	latin := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<testResults version=\"1.2\">\n" +
		"<httpSample t=\"5\" ts=\"1400000000000\" s=\"true\" lb=\"caf\xe9\" rc=\"200\" rm=\"OK\"/>\n</testResults>\n"
	got, err = parseJTL(t, latin)
	if err != nil || len(got.Runs) != 1 || !strings.Contains(*got.Runs[0].Notes, `"café"`) {
		t.Errorf("latin1: %d runs, err %v", len(got.Runs), err)
	}

	for _, c := range []struct {
		name, in string
		line     int
		contains string
	}{
		{"empty results", "<testResults version=\"1.2\">\n</testResults>\n", 0, "without a request sample"},
		{"only transactions", "<testResults>\n<sample t=\"1\" ts=\"1400000000000\" s=\"true\" lb=\"T\" rm=\"Number of samples in transaction : 0, number of failing samples : 0\"/>\n</testResults>\n", 0, "1 transaction controller samples skipped"},
		{"mismatched tags", "<testResults>\n<httpSample t=\"1\" ts=\"1400000000000\">\n</sample>\n</testResults>\n", 3, "XML"},
		{"other encoding", "<?xml version=\"1.0\" encoding=\"EBCDIC\"?>\n<testResults/>\n", 1, "EBCDIC"},
		{"all samples malformed", "<testResults>\n<httpSample t=\"x\" ts=\"1400000000000\"/>\n<httpSample ts=\"1400000000000\"/>\n</testResults>\n", 2, `elapsed "x"`},
	} {
		_, err := parseJTL(t, c.in)
		var se *core.SyntaxError
		if err == nil || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.contains)
		} else if errors.As(err, &se) && se.Line != c.line {
			t.Errorf("%s: error at line %d, want %d", c.name, se.Line, c.line)
		}
	}
}

// TestJMeterCSVOdd: malformed records, headers mid-file, formatted time
// stamps, out-of-order starts, unterminated quotes.
func TestJMeterCSVOdd(t *testing.T) {
	const header = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,bytes,grpThreads,allThreads\n"
	var b strings.Builder
	b.WriteString(header)
	// 200 records, written at their end: starts go back and forth.
	minStart, maxEnd := int64(math.MaxInt64), int64(0)
	for i := range 200 {
		start := 1400000000000 + int64(i)*10 - int64(i%4)*35
		minStart, maxEnd = min(minStart, start), max(maxEnd, start+40)
		b.WriteString(strings.Join([]string{strconv.FormatInt(start, 10), "40", "req", "200", "OK", "T 1-1", "text", "true", "10", "4", "4"}, ",") + "\n")
	}
	good := b.String()
	got, err := parseJTL(t, good)
	if err != nil || len(got.Runs) != 1 || got.Runs[0].Requests != 200 {
		t.Fatalf("%d runs, err %v", len(got.Runs), err)
	}
	for i, s := range got.Samples {
		if s.TS < 0 || i > 0 && s.TS < got.Samples[i-1].TS {
			t.Fatalf("sample %d at %v s, before %v s", i, s.TS, got.Samples[max(i-1, 0)].TS)
		}
	}
	for _, s := range got.Windows {
		if s.TS < 0 {
			t.Errorf("series window at %v s", s.TS)
		}
	}
	if r := got.Runs[0]; r.StartedAt.UnixMilli() != minStart || math.Abs(r.DurationS-float64(maxEnd-minStart)/1000) > 1e-9 {
		t.Errorf("started %v duration %v", r.StartedAt, r.DurationS)
	}

	// one malformed record in 200: skipped with a note; three: rejected.
	one := strings.Replace(good, "40,req", "4x,req", 1)
	got, err = parseJTL(t, one)
	if err != nil || got.Runs[0].Requests != 199 || !strings.Contains(*got.Runs[0].Notes, `line 2: elapsed "4x"`) {
		t.Errorf("one bad: err %v", err)
	}
	three := strings.Replace(one, "40,req", "-1,req", 2)
	_, err = parseJTL(t, three)
	var se *core.SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || se.File != "x.jtl" {
		t.Errorf("three bad: %v", err)
	}

	// A second header (concatenated files) re-maps the columns.
	cat := good + "label,timeStamp,elapsed,success\n" + "other,1400000002000,5,false\n"
	got, err = parseJTL(t, cat)
	if err != nil || len(got.Runs) != 2 || got.Runs[1].Requests != 1 || got.Runs[1].Errors != 1 {
		t.Errorf("concatenated: %d runs, err %v", len(got.Runs), err)
	}

	// Semicolons and formatted time stamps.
	semi := "timeStamp;elapsed;label;responseCode;success;URL\n2024-05-01 12:00:00.250;20;a;200;true;https://h/x\n2024-05-01 12:00:01.000;30;a;200;true;https://h/y\n"
	got, err = parseJTL(t, semi)
	if err != nil || len(got.Runs) != 1 || got.Runs[0].StartedAt.Format("2006-01-02T15:04:05.000") != "2024-05-01T12:00:00.250" ||
		got.Runs[0].Label != "h:443" || !strings.Contains(*got.Runs[0].Notes, "read as UTC") {
		t.Errorf("semicolons: %+v err %v", got.Runs, err)
	}

	// Header only; an unterminated quote running past 1 MiB.
	if _, err := parseJTL(t, header); err == nil || !strings.Contains(err.Error(), "without a request sample") {
		t.Errorf("header only: %v", err)
	}
	long := good + "1400000000000,1,\"never closed," + strings.Repeat("x", 2<<20) + "\n"
	if _, err := parseJTL(t, long); !errors.As(err, &se) || !strings.Contains(se.Msg, "unterminated quote") || se.Line != 202 {
		t.Errorf("unterminated quote: %v", err)
	}

	// Header-less records of an unknown layout: the first eight columns.
	odd := "1400000000000,12,a,200,OK,T 1-1,text,true,99,1\n1400000000100,14,a,500,Error,T 1-1,text,false,99,1\n"
	got, err = parseJTL(t, odd)
	if err != nil || len(got.Runs) != 1 || got.Runs[0].Errors != 1 || *got.Runs[0].BytesIn != 0 || !strings.Contains(*got.Runs[0].Notes, "unknown column layout (e.g. 10 fields)") {
		t.Errorf("unknown layout: %+v err %v", got.Runs, err)
	}
}

// fuzzJMeter checks a parser on data: no panic, errors of the documented
// kinds, runs with finite non-negative numbers.
func fuzzJMeter(f *testing.F, name string) {
	ingesttest.FuzzSeeds(f, "testdata/jmeter/*")
	f.Add([]byte("timeStamp,elapsed\n1,1\n"))
	f.Add([]byte("<testResults><httpSample t=\"1\" ts=\"1\"/>"))
	p := parser(f, name)
	f.Fuzz(func(t *testing.T, data []byte) {
		p.Detect(data)
		var runs []results.RunWithPercentiles
		err := p.Parse(context.Background(), bytes.NewReader(data), core.Options{Source: "fuzz"}, core.RunFunc(func(r results.RunWithPercentiles) error {
			runs = append(runs, r)
			return nil
		}))
		var se *core.SyntaxError
		if err != nil && !errors.As(err, &se) && !errors.Is(err, core.ErrNoOutput) {
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
		for i, r := range runs {
			if r.Index != int32(i) {
				t.Fatalf("run %d has index %d", i, r.Index)
			}
			ingesttest.CheckRun(t, r)
		}
	})
}

// FuzzJMeterCSV fuzzes the CSV parser with a header.
func FuzzJMeterCSV(f *testing.F) { fuzzJMeter(f, "jmeter-csv") }

// FuzzJMeterBareCSV fuzzes the header-less CSV parser.
func FuzzJMeterBareCSV(f *testing.F) { fuzzJMeter(f, "jmeter-csv-noheader") }

// FuzzJMeterXML fuzzes the XML parser.
func FuzzJMeterXML(f *testing.F) { fuzzJMeter(f, "jmeter-xml") }
