package ingest

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/ingest/k6"
	"github.com/loadverdict/loadverdict/ingest/locust"
)

// heyABFormats are the parsers of hey and ab output.
var heyABFormats = []string{"hey", "hey-csv", "ab", "ab-gnuplot", "ab-csv"}

// parserNamed returns the parser of the format name.
func parserNamed(t testing.TB, name string) core.Parser {
	t.Helper()
	return ingesttest.ParserNamed(t, Parsers(), name)
}

// detectFile detects the format of a file as Parse does (decompressed).
func detectFile(t testing.TB, path string) (core.Parser, error) {
	t.Helper()
	return detect(fileHead(t, path))
}

// detect returns the parser Parse picks for head: the first of Parsers
// that recognizes it (core.DetectIn, as core.ParseWith calls it).
func detect(head []byte) (core.Parser, error) { return core.DetectIn(parsers, head) }

// TestHeyABDetect: each input of testdata/hey and testdata/ab is taken by
// the parser of its format, the hey and ab samples of notwrk too, and no
// other input (other tools, oha) by any of them.
func TestHeyABDetect(t *testing.T) {
	want := func(dir, path string) string {
		base := filepath.Base(path)
		switch {
		case dir == "hey" && strings.Contains(base, ".csv"):
			return "hey-csv"
		case dir == "ab" && strings.Contains(base, ".tsv"):
			return "ab-gnuplot"
		case dir == "ab" && strings.Contains(base, ".csv"):
			return "ab-csv"
		case dir == "hey" || dir == "ab":
			return dir
		case dir == "notwrk" && strings.HasPrefix(base, "hey_"):
			return "hey"
		case dir == "notwrk" && strings.HasPrefix(base, "ab_"):
			return "ab"
		}
		return ""
	}
	dirs := sampleDirs()
	n := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() || filepath.Base(dir) == "fuzz" {
			continue
		}
		for _, in := range goldenInputs(t, dir) {
			if strings.HasSuffix(in, ".txt") && filepath.Base(dir) == "notwrk" || filepath.Base(dir) != "notwrk" {
				n++
			}
			w := want(filepath.Base(dir), in)
			p, err := detectFile(t, in)
			got := ""
			if err == nil {
				got = p.Name()
			}
			if w != "" && got != w {
				t.Errorf("%s: detected as %q (%v), want %q", in, got, err, w)
			}
			if w == "" && slices.Contains(heyABFormats, got) {
				t.Errorf("%s: claimed by %s", in, got)
			}
		}
	}
	if n < 30 {
		t.Errorf("only %d inputs looked at", n)
	}
	for _, s := range []string{
		"",
		"Summary:\n  Requests/sec: 10913.3967\n", // one line
		"Summary:\n  Total: 1.0 secs\n",          // one line
		"Summary:\n  Total: 1 s\n  Slowest: 2 s\n  Requests/sec: 10\n",      // no "secs"
		"hey -n 200 -c 50 http://localhost:8080/\n",                         // a command alone
		"This is ApacheBench, Version 2.3\n",                                // a banner alone (ab -V)
		"Requests per second: 100\nComplete requests: 5\n",                  // not ab's layout
		"response-time,DNS+dialup\n0.1,0.2\n",                               // a partial header
		"starttime\tseconds\tctime\n",                                       // idem
		"Percentage served,Time in ms,extra\n0,1\n",                         // idem
		"Percentage served,Time in ms\n5,1.0\n",                             // not ab -e's first row
		"We ran hey with 50 workers. Summary: it was fast. Total: 3 secs\n", // prose
	} {
		if p, err := detect([]byte(s)); err == nil && slices.Contains(heyABFormats, p.Name()) {
			t.Errorf("%q detected as %s", s, p.Name())
		}
	}
}

// k6FileHead returns the first MiB of a file as Parse sees it: decompressed
// and converted from UTF-16.
func k6FileHead(t testing.TB, name string) []byte {
	t.Helper()
	return core.DecodeHead(fileHead(t, name))
}

// fileHead returns a copy of the first core.HeadSize bytes of a file,
// decompressed as Parse decompresses them.
func fileHead(t testing.TB, name string) []byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw, dec := headReaders.Get().(*bufio.Reader), headReaders.Get().(*bufio.Reader)
	defer headReaders.Put(raw)
	defer headReaders.Put(dec)
	raw.Reset(f)
	in := &core.Input{Source: name, Raw: &core.TrackReader{R: raw}}
	dec.Reset(in.Raw)
	br, closeFn, err := in.Decompress(dec)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	head, _ := br.Peek(core.HeadSize)
	return append([]byte(nil), head...)
}

// headReaders are the readers of fileHead, reused: TestDetectUnique
// reads the heads of thousands of files, and two new readers of
// core.HeadSize a file were most of its time (zeroing them).
var headReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, core.HeadSize) }}

// k6ParserInputs lists the parser inputs of a testdata folder (as TestGolden does).
func k6ParserInputs(t testing.TB, dir string) []string {
	t.Helper()
	files := goldenInputs(t, sampleDir(dir))
	if len(files) == 0 {
		t.Fatalf("no inputs in testdata/%s", dir)
	}
	return files
}

// TestK6LocustDetect checks which parser claims each sample: every k6 and
// Locust sample its own parser (the first in Detect's order), and no
// sample of another tool any of these parsers, but for the k6 samples
// among notwrk/.
func TestK6LocustDetect(t *testing.T) {
	want := func(name string) string {
		base := filepath.Base(name)
		switch {
		case strings.HasSuffix(base, ".txt"):
			return "k6"
		case strings.HasPrefix(base, "summary-export") || strings.HasPrefix(base, "handle-summary"):
			return "k6-summary"
		case strings.HasPrefix(base, "out-json"):
			return "k6-json"
		case strings.HasPrefix(base, "out-csv"):
			return "k6-csv"
		case strings.Contains(base, "_stats_history"):
			return "locust-history"
		case strings.Contains(base, "_stats") || strings.Contains(base, "_requests"):
			return "locust"
		}
		return "locust-failures"
	}
	for _, dir := range []string{"k6", "locust"} {
		for _, in := range k6ParserInputs(t, dir) {
			p, err := detect(k6FileHead(t, in))
			if err != nil || p.Name() != want(in) {
				t.Errorf("%s: detected as %v (%v), want %s", in, p, err, want(in))
			}
		}
	}
	dirs := sampleDirs()
	for _, dir := range dirs {
		base := filepath.Base(dir)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() || base == "k6" || base == "locust" || base == "fuzz" {
			continue
		}
		for _, in := range goldenInputs(t, dir) {
			head := k6FileHead(t, in)
			for _, p := range k6LocustParsers {
				claimed := p.Detect(head)
				ownK6 := base == "notwrk" && strings.HasPrefix(filepath.Base(in), "k6_") && p.Name() == "k6"
				if claimed != ownK6 {
					t.Errorf("%s: %s.Detect = %v", in, p.Name(), claimed)
				}
			}
		}
	}
	for _, s := range []string{
		"",
		"http_req_duration..............: avg=1ms min=1ms med=1ms max=1ms\n",
		"http_reqs: 10 1/s\nhttp_req_duration: avg=1ms\n",
		"{\"metrics\": {}}",
		"{\"type\":\"Point\"}\n",
		"metric_name,timestamp,metric_value\n",
		"Type,Name,Request Count\n",
		"Method,Name,Error\n",
		"Name,# requests\n",
		"Timestamp,User Count,Type,Name\n",
	} {
		for _, p := range k6LocustParsers {
			if p.Detect([]byte(s)) {
				t.Errorf("%s claims %q", p.Name(), s)
			}
		}
	}
}

// k6LocustParsers are the parsers of k6.go, k6json.go, k6ndjson.go, k6csv.go
// and locust.go.
var k6LocustParsers = []core.Parser{k6.Parser{}, k6.SummaryParser{}, k6.NDJSONParser{}, k6.CSVParser{},
	locust.Parser{}, locust.HistoryParser{}, locust.FailuresParser{}}

// readPlain returns a testdata file, decompressed.
func readPlain(t testing.TB, name string) []byte {
	t.Helper()
	return ingesttest.ReadPlain(t, name)
}

func TestJMeterDetect(t *testing.T) {
	want := map[string]string{
		"csv-noheader-2.13-default.jtl.gz":           "jmeter-csv-noheader",
		"csv-header.jtl.gz":                          "jmeter-csv",
		"csv-header-tab-all.jtl":                     "jmeter-csv",
		"xml.jtl.gz":                                 "jmeter-xml",
		"xml-default.jtl":                            "jmeter-xml",
		"qainsights-perfaction-result.jtl":           "jmeter-csv",
		"defra-rod-catch-returns-result-excerpt.jtl": "jmeter-csv",
	}
	for _, in := range goldenInputs(t, "jmeter/testdata/jmeter") {
		name, ok := want[filepath.Base(in)]
		if !ok {
			t.Errorf("%s: no expected parser", in)
			continue
		}
		p, err := detect(readPlain(t, in))
		if err != nil || p.Name() != name {
			t.Errorf("%s: detected %v (%v), want %s", in, p, err, name)
		}
	}
	// No other tool's output is claimed.
	dirs := sampleDirs()
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() || filepath.Base(dir) == "jmeter" {
			continue
		}
		for _, in := range goldenInputs(t, dir) {
			b := readPlain(t, in)
			if p, err := detect(b); err == nil && strings.HasPrefix(p.Name(), "jmeter") {
				t.Errorf("%s: detected as %s", in, p.Name())
			}
		}
	}
	for _, s := range []string{
		"",
		"timeStamp\n1400000000000\n",
		"timestamp,latency_ms,status\n1400000000000,12,200\n",
		"response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n0.0011,0.0005,0,0,0.0006,0,200,0.0001\n",
		"The JTL columns are timeStamp,elapsed,label and more.\n",
		"1400000000000,12,HTTP Request,200,OK,Thread 1-1,text,yes,100\n",
		"1400000000,12,HTTP Request,200,OK,Thread 1-1,text,true,100\n",
		"<?xml version=\"1.0\"?>\n<results><httpSample t=\"1\" ts=\"1\"/></results>\n",
		"<html><body>&lt;testResults&gt;</body></html>\n",
		"{\"timeStamp\": 1400000000000, \"elapsed\": 12}\n",
	} {
		if p, err := detect([]byte(s)); err == nil && strings.HasPrefix(p.Name(), "jmeter") {
			t.Errorf("%q detected as %s", s, p.Name())
		}
	}
}
