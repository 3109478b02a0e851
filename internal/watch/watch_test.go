package watch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/ingest/core"
)

// readSample returns a sample input of ingest's tests, decompressed.
func readSample(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../ingest", path))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func config(stdin io.Reader) Config {
	m, _ := ParsePrecision("p50=1%,p99=5%")
	return Config{Path: "-", Stdin: stdin, Source: "stdin", Poll: 10 * time.Millisecond, WindowS: 1, Metrics: m, Alpha: 0.05}
}

// TestFormatsAsReport: every format watch reads is detected by content
// and decoded line by line into the requests ingest's parser reads: the
// watched run (the log's first) has the parser's count of requests and
// errors.
func TestFormatsAsReport(t *testing.T) {
	for _, c := range []struct{ path, format string }{
		{"vegeta/testdata/vegeta/coldjvm-800rps-20s.json.gz", "vegeta-json"},
		{"vegeta/testdata/vegeta/results-errors.json", "vegeta-json"},
		{"vegeta/testdata/vegeta/results-ok.csv.gz", "vegeta-csv"},
		{"vegeta/testdata/vegeta/results-errors.csv", "vegeta-csv"},
		{"k6/testdata/k6/out-json-learn.json", "k6-json"},
		{"jmeter/testdata/jmeter/csv-header.jtl.gz", "jmeter-csv"},
		{"jmeter/testdata/jmeter/csv-noheader-2.13-default.jtl.gz", "jmeter-csv-noheader"},
		{"hey/testdata/hey/real-mixed.csv", "hey-csv"},
	} {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			b := readSample(t, c.path)
			st, err := Run(context.Background(), config(bytes.NewReader(b)))
			if err != nil {
				t.Fatal(err)
			}
			runs, err := ingest.ParseAll(context.Background(), bytes.NewReader(b), core.Options{Source: "stdin"})
			if err != nil {
				t.Fatal(err)
			}
			var others int64
			for _, r := range runs[1:] {
				others += r.Requests
			}
			if st.Format != c.format || st.Requests != runs[0].Requests || st.Errors != runs[0].Errors || st.OtherRequests != others || !st.Final || st.End != EndInput {
				t.Errorf("watch: %s, %d requests (%d errors, %d of other runs), %+v; report's parse: %d requests (%d errors, %d of other runs)",
					st.Format, st.Requests, st.Errors, st.OtherRequests, st, runs[0].Requests, runs[0].Errors, others)
			}
		})
	}
}

// TestMalformedLine: a malformed line is an error naming its line and
// the format expected, not skipped.
func TestMalformedLine(t *testing.T) {
	lines := strings.SplitAfter(string(readSample(t, "vegeta/testdata/vegeta/results-errors.json")), "\n")
	in := strings.Join(lines[:2], "") + "{\"code\": 200, \"timestamp\": \"not a time\"}\n" + strings.Join(lines[2:], "")
	_, err := Run(context.Background(), config(strings.NewReader(in)))
	var se *core.SyntaxError
	if !errors.As(err, &se) || se.Line != 3 || !strings.Contains(se.Msg, "expected a vegeta-json line") {
		t.Fatalf("error %v, want a syntax error at line 3 expecting a vegeta-json line", err)
	}
}

// TestNotWatchable: a format not read line by line is refused, naming
// the formats that are.
func TestNotWatchable(t *testing.T) {
	b, err := os.ReadFile("../../examples/zuul-vs-openresty.txt")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), config(bytes.NewReader(b)))
	if err == nil || !strings.Contains(err.Error(), "vegeta-json") {
		t.Fatalf("error %v, want the formats watch reads", err)
	}
}

// slowReader hands out its bytes a few at a time: every line arrives
// in pieces.
type slowReader struct {
	b []byte
	n int
}

func (r *slowReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.n)], r.b)
	r.b = r.b[k:]
	return k, nil
}

// TestPartialLines: lines cut anywhere (and a last line without its
// end) give what the whole input gives.
func TestPartialLines(t *testing.T) {
	b := readSample(t, "vegeta/testdata/vegeta/results-errors.csv")
	b = bytes.TrimSuffix(b, []byte("\n"))
	whole, err := Run(context.Background(), config(bytes.NewReader(b)))
	if err != nil {
		t.Fatal(err)
	}
	cut, err := Run(context.Background(), config(&slowReader{b: b, n: 7}))
	if err != nil {
		t.Fatal(err)
	}
	if whole.Requests == 0 || cut.Requests != whole.Requests || cut.Lines != whole.Lines {
		t.Errorf("cut in pieces: %d requests, %d lines; whole: %d, %d", cut.Requests, cut.Lines, whole.Requests, whole.Lines)
	}
}

// TestFollowFile: a file is followed as it grows; truncated, and then
// replaced by another file, it is read again from its start each time,
// said in a notice, and the statement counts only what the file now
// holds.
func TestFollowFile(t *testing.T) {
	lines := strings.SplitAfter(string(readSample(t, "vegeta/testdata/vegeta/coldjvm-800rps-20s.json.gz")), "\n")
	dir := t.TempDir()
	path := filepath.Join(dir, "results.json")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:4000], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	notices := make(chan string, 4)
	looks := make(chan Statement, 1000)
	cfg := config(nil)
	cfg.Path, cfg.Source = path, path
	cfg.Notice = func(s string) { notices <- s }
	cfg.Look = func(s Statement) {
		select {
		case looks <- s:
		default:
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan Statement, 1)
	go func() {
		st, err := Run(ctx, cfg)
		if err != nil {
			t.Error(err)
		}
		done <- st
	}()
	// waitLines waits for a look at n lines or more.
	waitLines := func(n int) {
		for st := range looks {
			if st.Lines >= n {
				return
			}
		}
	}
	waitLines(3000)
	// Grows: the lines appended are read.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Join(lines[4000:8000], ""))
	f.Close()
	waitLines(7000)
	// Truncated, then written again: read from the start.
	if err := os.WriteFile(path, []byte(strings.Join(lines[:2000], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := <-notices; !strings.Contains(n, "truncated") {
		t.Errorf("notice %q, want truncated", n)
	}
	// Replaced by another file (a new inode).
	other := filepath.Join(dir, "new.json")
	if err := os.WriteFile(other, []byte(strings.Join(lines[:6000], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	for n := range notices {
		if strings.Contains(n, "replaced") {
			break
		}
	}
	waitLines(5000)
	cancel()
	st := <-done
	if st.End != EndInterrupted || st.Lines < 5000 || st.Lines > 6000 || st.Requests != int64(st.Lines) {
		t.Errorf("final statement: %d lines, %d requests, end %q; want 5000 to 6000 lines of the new file, one request each", st.Lines, st.Requests, st.End)
	}
}
