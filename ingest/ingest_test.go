package ingest

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/results"
)

// inputs returns the parser inputs under testdata/<tool> (not .src, not goldens).
func inputs(t testing.TB, tool string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(sampleDir(tool), "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no inputs in testdata/%s: %v", tool, err)
	}
	return files
}

// goldenInputs lists the parser inputs of a testdata folder.
func goldenInputs(t testing.TB, dir string) []string { return ingesttest.GoldenInputs(t, dir) }

// goldenPath is the golden file of input in.
func goldenPath(in string) string { return ingesttest.GoldenPath(in) }

func TestDetect(t *testing.T) {
	for _, tool := range []string{"wrk", "wrk2"} {
		for _, in := range inputs(t, tool) {
			b, _ := os.ReadFile(in)
			if p, err := detect(b); err != nil || p.Name() != "wrk" {
				t.Errorf("%s: not detected as wrk: %v", in, err)
			}
		}
	}
	others, _ := filepath.Glob("testdata/notwrk/*.txt")
	if len(others) < 8 {
		t.Fatalf("only %d samples of other tools", len(others))
	}
	for _, in := range others {
		b, _ := os.ReadFile(in)
		// Other tools' parsers may claim them; wrk must not.
		if p, err := detect(b); err == nil && p.Name() == "wrk" {
			t.Errorf("%s: detected as wrk", in)
		} else if err != nil && !errors.Is(err, core.ErrNoOutput) {
			t.Errorf("%s: error %v is not ErrNoOutput", in, err)
		}
	}
	for _, s := range []string{
		"",
		"Running 10s test @ http://localhost:3000\n10 connections\n",
		"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n",
		"We ran 12 threads and 400 connections.\nRequests/sec: 12.5\n",
		"Latency Distribution\n 50%  1.00ms\n",
		"Summary:\n  Requests/sec: 10913.3967\n",
	} {
		if p, err := detect([]byte(s)); err == nil && p.Name() == "wrk" {
			t.Errorf("%q detected as wrk", s)
		}
	}
}

func TestParseErrors(t *testing.T) {
	random := make([]byte, 64<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	run := "Running 10s test @ http://localhost:8080/\n" +
		"  2 threads and 10 connections\n" +
		"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n" +
		"    Latency     1.00ms    0.10ms   2.00ms   90.00%\n" +
		"    Req/Sec     5.00k     0.10k    6.00k    90.00%\n" +
		"  100000 requests in 10.00s, 10.00MB read\n" +
		"Requests/sec:  10000.00\n" +
		"Transfer/sec:      1.00MB\n"
	for _, c := range []struct {
		name     string
		in       string
		runs     int
		syntax   bool
		line     int
		contains string
	}{
		{name: "empty", in: "", contains: "x.txt: not output of a known load generator (is empty); 'loadverdict formats' lists the formats read"},
		{name: "random", in: string(random), contains: "x.txt"},
		{name: "prose", in: "wrk is a modern HTTP benchmarking tool.\nIt has 2 threads and 10 connections by default.\n", contains: `x.txt: not output of a known load generator (starts with "wrk is a modern HTTP benchmarking tool.")`},
		{name: "cut after Thread Stats at EOF", in: "intro\n" + strings.Join(strings.Split(run, "\n")[:3], "\n") + "\n", syntax: true, line: 4},
		{name: "cut after rows before next run", in: run + strings.Join(strings.Split(run, "\n")[:5], "\n") + "\n\n" + run, runs: 1, syntax: true, line: 13},
		{name: "cut in distribution", in: strings.Join(strings.Split(run, "\n")[:5], "\n") + "\n  Latency Distribution\n     50%    1.00ms\n     75%    1.50ms\nthe end\n", syntax: true, line: 8},
		{name: "cut after threads line", in: run + strings.Join(strings.Split(run, "\n")[:2], "\n") + "\nsome prose\n" + run, runs: 1, syntax: true, line: 10},
		{name: "header only with threads", in: "  2 threads and 10 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n", syntax: true, line: 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			runs, err := ParseAll(context.Background(), strings.NewReader(c.in), core.Options{Source: "x.txt"})
			if len(runs) != c.runs {
				t.Errorf("%d runs, want %d", len(runs), c.runs)
			}
			if err == nil {
				t.Fatal("no error")
			}
			var se *core.SyntaxError
			if c.syntax {
				if !errors.As(err, &se) {
					t.Fatalf("error %v (%T) is not a *SyntaxError", err, err)
				}
				if se.File != "x.txt" || se.Line != c.line {
					t.Errorf("error at %s:%d, want x.txt:%d (%v)", se.File, se.Line, c.line, err)
				}
				return
			}
			var no *core.NoOutputError
			if !errors.As(err, &no) || !errors.Is(err, core.ErrNoOutput) {
				t.Fatalf("error %v (%T) is not a *NoOutputError", err, err)
			}
			if !strings.Contains(err.Error(), c.contains) {
				t.Errorf("error %q does not contain %q", err, c.contains)
			}
		})
	}
}

func TestSyntaxErrorString(t *testing.T) {
	for _, c := range []struct {
		e    core.SyntaxError
		want string
	}{
		{core.SyntaxError{File: "a.txt", Line: 12, Msg: "bad"}, "a.txt:12: bad"},
		{core.SyntaxError{File: "a.txt", Msg: "bad"}, "a.txt: bad"},
		{core.SyntaxError{Line: 3, Msg: "bad"}, "3: bad"},
		{core.SyntaxError{Msg: "bad"}, "bad"},
		{core.SyntaxError{File: "a.gz", Msg: "gzip: bad", Err: errors.New("gzip: bad")}, "a.gz: gzip: bad"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}

func TestParseStreamsAndStops(t *testing.T) {
	data, _ := os.ReadFile("wrk/testdata/wrk/wrk_05.txt")
	// emit errors stop the parse and come back unchanged.
	stop := errors.New("stop")
	n := 0
	err := Parse(context.Background(), bytes.NewReader(data), core.Options{Source: "s"}, core.RunFunc(func(results.RunWithPercentiles) error {
		n++
		return stop
	}))
	if err != stop || n != 1 {
		t.Errorf("err %v after %d runs", err, n)
	}
	// A cancelled context stops the parse.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Parse(ctx, bytes.NewReader(data), core.Options{Source: "s"}, core.RunFunc(func(results.RunWithPercentiles) error { return nil })); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// A line longer than the line buffer is skipped; parsing goes on.
	long := append(bytes.Repeat([]byte("x"), core.MaxLine+100), '\n')
	in := append(append(append([]byte{}, data...), long...), data...)
	runs, err := ParseAll(context.Background(), bytes.NewReader(in), core.Options{Source: "s"})
	if err != nil || len(runs) != 6 || runs[3].SourceLine != 30 {
		t.Errorf("after a long line: %d runs, err %v", len(runs), err)
	}
}

func TestOptionsLabels(t *testing.T) {
	data, _ := os.ReadFile("wrk/testdata/wrk/seed-zuul-vs-openresty.txt")
	runs, err := ParseAll(context.Background(), bytes.NewReader(data), core.Options{
		Source: "seed", Labels: map[string]string{"localhost:5555": "zuul", "localhost:80": "openresty"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, r.Label)
	}
	want := []string{"zuul", "openresty", "zuul", "openresty", "openresty", "zuul"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
}

func TestLabel(t *testing.T) {
	labels := map[string]string{"localhost:5555": "zuul", "[::1]:9000": "v6", "weird target": "w"}
	for _, c := range []struct{ target, want string }{
		{"http://localhost/x", "localhost:80"},
		{"https://example.com", "example.com:443"},
		{"https://Example.COM:8443/a?b=c", "example.com:8443"},
		{"http://localhost:5555/api/test/hello", "zuul"},
		{"http://[::1]:8080/", "[::1]:8080"},
		{"http://[::1]/", "[::1]:80"},
		{"http://[::1]:9000", "v6"},
		{"localhost:8080", "localhost:8080"},
		{"localhost:5555", "zuul"},
		{"localhost", "localhost:80"},
		{"ws://h", "h:80"},
		{"wss://h/x", "h:443"},
		{"http://user:pw@host:81/p", "host:81"},
		{"http://127.0.0.1:18080/sleep?ms=5", "127.0.0.1:18080"},
		{"", ""},
		{"weird target", "w"},
		{"not a url", "not a url"},
		{"http://", "http://"},
		{"http://host:99999/", "http://host:99999/"},
		{"http://host:abc/", "http://host:abc/"},
		{"ftp://host/", "ftp://host/"},
		{"::1", "::1"},
		{"$URL", "$URL"},
		{"http://a b/", "http://a b/"},
	} {
		if got := core.Label(c.target, labels); got != c.want {
			t.Errorf("Label(%q) = %q, want %q", c.target, got, c.want)
		}
	}
}

func TestUnits(t *testing.T) {
	for _, c := range []struct {
		tok  string
		ms   float64
		kind core.ValueKind
	}{
		{"635.91us", 0.63591, core.ValOK}, {"0.89ms", 0.89, core.ValOK}, {"1.20s", 1200, core.ValOK},
		{"1.00m", 60000, core.ValOK}, {"2.00h", 7200000, core.ValOK}, {"0.00us", 0, core.ValOK},
		{"-nan", 0, core.ValNaN}, {"-nan%", 0, core.ValNaN}, {"nanus", 0, core.ValNaN},
		{"502.11", 0, core.ValNoUnit}, {"12.3k", 0, core.ValBad}, {"abc", 0, core.ValBad}, {"-1.0ms", 0, core.ValBad},
		{"1.2.3ms", 0, core.ValBad}, {"ms", 0, core.ValBad}, {"", 0, core.ValBad},
	} {
		ms, k := core.TimeMs([]byte(c.tok))
		if k != c.kind || k == core.ValOK && ms != c.ms {
			t.Errorf("timeMs(%q) = %v, %v; want %v, %v", c.tok, ms, k, c.ms, c.kind)
		}
	}
	for _, c := range []struct {
		tok string
		v   float64
		ok  bool
	}{
		{"10.04s", 10.04, true}, {"999.94ms", 0.99994, true}, {"1.00m", 60, true}, {"1h", 3600, true},
		{"250us", 0.00025, true}, {"30", 0, false}, {"30x", 0, false},
		{"307445734491.24m", 307445734491.24 * 60, true},
	} {
		v, ok := core.DurationS([]byte(c.tok), 0)
		if ok != c.ok || ok && math.Abs(v-c.v) > 1e-9*c.v {
			t.Errorf("durationS(%q) = %v, %v; want %v, %v", c.tok, v, ok, c.v, c.ok)
		}
	}
	if v, ok := core.DurationS([]byte("30"), 1); !ok || v != 30 {
		t.Errorf("durationS(30, default s) = %v %v", v, ok)
	}
	for _, c := range []struct {
		tok  string
		v    float64
		kind core.ValueKind
	}{
		{"580.00", 580, core.ValOK}, {"56.20k", 56200, core.ValOK}, {"338.18k", 338180, core.ValOK}, {"1.2M", 1.2e6, core.ValOK},
		{"3G", 3e9, core.ValOK}, {"0.88k", 880, core.ValOK}, {"-nan%", 0, core.ValNaN}, {"1.2ms", 0, core.ValBad}, {"1.2x", 0, core.ValBad},
	} {
		v, k := core.Metric([]byte(c.tok))
		if k != c.kind || k == core.ValOK && v != c.v {
			t.Errorf("metric(%q) = %v, %v; want %v, %v", c.tok, v, k, c.v, c.kind)
		}
	}
	for _, c := range []struct {
		tok string
		v   float64
		ok  bool
	}{
		{"4.12MB", 4.12 * 1024 * 1024, true}, {"0.00B", 0, true}, {"419.61KB", 419.61 * 1024, true},
		{"19.62GB", 19.62 * (1 << 30), true}, {"1.00TB", 1 << 40, true}, {"27.9 MB", 0, false}, {"1XB", 0, false},
	} {
		v, ok := core.BinaryBytes([]byte(c.tok))
		if ok != c.ok || ok && v != c.v {
			t.Errorf("binaryBytes(%q) = %v, %v; want %v, %v", c.tok, v, ok, c.v, c.ok)
		}
	}
	// Correct rounding: quantiles from "99.900%" and "0.999000" are the same float.
	a, _ := core.ParseDec([]byte("99.900"), -2)
	b, _ := core.ParseDec([]byte("0.999000"), 0)
	if a != 0.999 || b != 0.999 {
		t.Errorf("quantiles %v %v", a, b)
	}
	if v, ok := core.ParseDec([]byte(strings.Repeat("9", 400)), 0); !ok || !math.IsInf(v, 1) {
		t.Errorf("huge number: %v %v", v, ok)
	}
	if _, ok := core.ParseUint([]byte("99999999999999999999")); ok {
		t.Error("parseUint overflow accepted")
	}
}

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"    Running 30s test @ x\r", "Running 30s test @ x"},
		{"```Running 1s test @ x", "Running 1s test @ x"},
		{"Transfer/sec:      5.79MB```", "Transfer/sec:      5.79MB"},
		{"-- Running 2s test @ x", "Running 2s test @ x"},
		{"--   Thread Stats   Avg", "Thread Stats   Avg"},
		{">\t  2 threads and 8 connections", "2 threads and 8 connections"},
		{"// Requests/sec: 1.00", "Requests/sec: 1.00"},
		{"# wrk -t2 http://x", "wrk -t2 http://x"},
		{"#[Mean    =        6.602, StdDeviation   =        1.919]", "#[Mean    =        6.602, StdDeviation   =        1.919]"},
		{"----------------------------------------------------------", "----------------------------------------------------------"},
		{"2024-05-01T12:00:00.1234567Z   12 threads and 400 connections", "12 threads and 400 connections"},
		{"\u00a0\u00a0Requests/sec:\u00a0 75239.60\u00a0", "Requests/sec:\u00a0 75239.60"},
		{"\u3000Latency Distribution", "Latency Distribution"},
		{"", ""},
	} {
		if got := string(core.Normalize([]byte(c.in))); got != c.want {
			t.Errorf("normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// checkRun fails when a run has a negative or non-finite number or a
// quantile outside [0, 1].
func checkRun(t testing.TB, r results.RunWithPercentiles) {
	t.Helper()
	ingesttest.CheckRun(t, r)
}

func TestEncodings(t *testing.T) {
	data, _ := os.ReadFile("wrk/testdata/wrk/wrk_05.txt")
	want, err := ParseAll(context.Background(), bytes.NewReader(data), core.Options{Source: "s"})
	if err != nil {
		t.Fatal(err)
	}
	u16 := utf16.Encode([]rune(string(data)))
	le := []byte{0xFF, 0xFE}
	be := []byte{0xFE, 0xFF}
	for _, u := range u16 {
		le = append(le, byte(u), byte(u>>8))
		be = append(be, byte(u>>8), byte(u))
	}
	bom8 := append([]byte{0xEF, 0xBB, 0xBF}, data...)
	for name, in := range map[string][]byte{"utf16le": le, "utf16be": be, "utf8bom": bom8} {
		if _, err := detect(in); err != nil {
			t.Errorf("%s: Detect: %v", name, err)
		}
		got, err := ParseAll(context.Background(), bytes.NewReader(in), core.Options{Source: "s"})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %d runs, err %v; differ from UTF-8", name, len(got), err)
		}
	}
	// A lone high surrogate and an odd trailing byte do not break decoding.
	odd := append(append([]byte{}, le...), 0x00, 0xD8, 0x41)
	if _, err := ParseAll(context.Background(), bytes.NewReader(odd), core.Options{Source: "s"}); err != nil {
		t.Errorf("odd UTF-16: %v", err)
	}
}

// TestMixedTools: output of other tools between wrk runs is skipped, even
// autocannon's "Running 10s test @" line.
func TestMixedTools(t *testing.T) {
	var in bytes.Buffer
	for _, name := range []string{"wrk/wrk_09.txt", "autocannon/autocannon_01.txt", "bombardier/bombardier_02.txt",
		"notwrk/hey_01.txt", "oha/oha_01.txt", "wrk/wrk_04.txt", "autocannon/autocannon_02.txt"} {
		b, err := os.ReadFile(filepath.Join(sampleDir(filepath.Dir(name)), filepath.Base(name)))
		if err != nil {
			t.Fatal(err)
		}
		in.Write(b)
	}
	runs, err := ParseAll(context.Background(), &in, core.Options{Source: "mixed"})
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs, err %v", len(runs), err)
	}
	if runs[0].Requests != 819532 || runs[1].Requests != 718634 || runs[1].LatP99Ms == nil || *runs[1].LatP99Ms != 212.57 {
		t.Errorf("runs %+v %+v", runs[0].Run, runs[1].Run)
	}
}
