package vegeta

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/results"
)

// vegetaParserNames are the parsers of vegeta outputs.
var vegetaParserNames = []string{"vegeta", "vegeta-report-json", "vegeta-hdrplot", "vegeta-json", "vegeta-csv", "vegeta-gob"}

func parserNamed(t testing.TB, name string) core.Parser {
	t.Helper()
	for _, p := range parsers {
		if p.Name() == name {
			return p
		}
	}
	t.Fatalf("no parser %q", name)
	return nil
}

// vegetaWant is the parser that must claim a file of testdata/vegeta.
func vegetaWant(name string) string {
	base := strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".zst")
	switch {
	case strings.HasPrefix(base, "hdrplot-"):
		return "vegeta-hdrplot"
	case strings.HasPrefix(base, "report-") && strings.HasSuffix(base, ".json"):
		return "vegeta-report-json"
	case strings.HasSuffix(base, ".json"):
		return "vegeta-json"
	case strings.HasSuffix(base, ".csv"):
		return "vegeta-csv"
	case strings.HasSuffix(base, ".gob"):
		return "vegeta-gob"
	}
	return "vegeta"
}

// TestVegetaDetect: every vegeta output is claimed by its parser, and no
// vegeta parser claims another tool's output (notwrk/ and every other
// testdata folder) nor prose.
func TestVegetaDetect(t *testing.T) {
	for _, in := range ingesttest.GoldenInputs(t, "testdata/vegeta") {
		p, err := core.DetectIn(parsers, ingesttest.ReadPlain(t, in))
		if want := vegetaWant(filepath.Base(in)); err != nil || p.Name() != want {
			t.Errorf("%s: detected as %v (%v), want %s", in, p, err, want)
		}
	}
	dirs := sampleDirs()
	n := 0
	for _, dir := range dirs {
		if filepath.Base(dir) == "vegeta" {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, in := range files {
			base := filepath.Base(in)
			if st, err := os.Stat(in); err != nil || !st.Mode().IsRegular() || strings.HasSuffix(base, ".src") ||
				strings.HasSuffix(base, ".golden.json") || strings.HasPrefix(base, "vegeta_") {
				continue
			}
			head := ingesttest.ReadPlain(t, in)
			head = head[:min(len(head), core.HeadSize)]
			for _, name := range vegetaParserNames {
				if parserNamed(t, name).Detect(head) {
					t.Errorf("%s: claimed by %s", in, name)
				}
			}
			n++
		}
	}
	if n < 20 {
		t.Errorf("only %d files of other tools checked", n)
	}
	for _, s := range []string{
		"",
		"Requests [total, rate, throughput] are what vegeta prints first.\n",
		"Latencies     [mean, 50, 95, 99, max]  19.502382ms, 6.35981ms, 11.391445ms, 800.422033ms, 1.001342266s\n",
		"Requests      [total, rate]  1200, 120.00\nBytes In [total, mean] 1, 1.00\n",
		`{"latencies": 1, "requests": 2, "status_codes": {}}`,
		`{"timestamp": "2024-01-01T00:00:00Z", "code": 200, "latency": "slow"}`,
		`{"metric":"http_req_duration","type":"Point","data":{"time":"2024-01-01T00:00:00Z","value":1.2}}`,
		"1700000000000000000,200,1000,0,13\n",
		"Value   Percentile   TotalCount 1/(1-Percentile)\n 1.000 0.000000 1 1.00\n",
		"\xff\x96\x7f\x03\x01\x01\x06Result\x01\xff\x80\x00\x01\x0c\x01\x06Attack",
	} {
		for _, name := range vegetaParserNames {
			if parserNamed(t, name).Detect([]byte(s)) {
				t.Errorf("%q claimed by %s", s, name)
			}
		}
	}
}

func parseVegetaFile(t testing.TB, path string) []results.RunWithPercentiles {
	t.Helper()
	runs, err := ingesttest.ParseFile(t, parse, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		ingesttest.CheckRun(t, r)
	}
	return runs
}

func f(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

func i(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

func TestVegetaTextReports(t *testing.T) {
	runs := parseVegetaFile(t, "testdata/vegeta/vegeta_01.txt")
	if len(runs) != 1 {
		t.Fatalf("%d runs", len(runs))
	}
	r := runs[0]
	if r.Tool != "vegeta" || r.LoadModel != results.LoadOpen || r.Requests != 1200 || f(r.TargetRPS) != 120 || r.RPS != 65.87 ||
		r.DurationS != 10.094965987 || r.Errors != 535 || i(r.Non2xx) != 0 || i(r.Timeouts) != 0 || i(r.BytesIn) != 3714690 {
		t.Errorf("vegeta_01: %+v", r.Run)
	}
	if f(r.LatMinMs) != 90.438129 || f(r.LatMeanMs) != 113.172398 || f(r.LatP50Ms) != 108.272568 || r.LatP90Ms != nil ||
		f(r.LatP99Ms) != 247.771566 || f(r.LatMaxMs) != 264.815246 || len(r.Percentiles) != 5 || r.Percentiles[2].Quantile != 0.95 {
		t.Errorf("vegeta_01 latencies: %+v %+v", r.Run, r.Percentiles)
	}
	if r.Notes == nil || !strings.Contains(*r.Notes, "6 distinct error(s)") || r.Label != "vegeta_01" || r.Target != "" {
		t.Errorf("vegeta_01 notes %v label %q", r.Notes, r.Label)
	}

}

// TestVegetaTextStatusFirst: Status Codes and Error Set printed before the report too.
func TestVegetaTextStatusFirst(t *testing.T) {
	r := parseVegetaFile(t, "testdata/vegeta/vegeta_03.txt")[0]
	if r.SourceLine != 5 || r.Requests != 270000 || r.DurationS != 600 || f(r.LatP90Ms) != 8.672 || r.Errors != 0 {
		t.Errorf("vegeta_03: %+v", r.Run)
	}
	r = parseVegetaFile(t, "testdata/vegeta/vegeta_04.txt")[0]
	if r.Errors != 12 || i(r.Non2xx) != 12 || i(r.Timeouts) != 0 || f(r.LatMaxMs) != 1097 || r.Notes == nil || !strings.Contains(*r.Notes, "500 Internal") {
		t.Errorf("vegeta_04: %+v", r.Run)
	}

}

// TestVegetaTextScript: script lines around six reports.
func TestVegetaTextScript(t *testing.T) {
	runs := parseVegetaFile(t, "testdata/vegeta/bud-concurrency.txt")
	if len(runs) != 6 {
		t.Fatalf("bud: %d runs", len(runs))
	}
	if r := runs[0]; r.Requests != 1 || r.DurationS != 0.430399 || f(r.LatP99Ms) != 430.399 || r.Errors != 0 || r.Timeouts != nil {
		t.Errorf("bud run 0: %+v", r.Run)
	}
	if r := runs[1]; r.Requests != 250 || r.Errors != 14 || i(r.Timeouts) != 14 || pct(r, 0.95) != 10001 || r.SourceLine != 18 {
		t.Errorf("bud run 1: %+v", r.Run)
	}

}

// TestVegetaTextCommands: the commands of a transcript.
func TestVegetaTextCommands(t *testing.T) {
	runs := parseVegetaFile(t, "testdata/vegeta/report-transcript.txt")
	if len(runs) != 5 {
		t.Fatalf("transcript: %d runs", len(runs))
	}
	for i, c := range []struct {
		target  string
		rate    float64
		model   string
		timeout float64
		errors  int64
	}{
		{"http://127.0.0.1:19000/ok", 100, "open", math.NaN(), 0},
		{"http://127.0.0.1:19000/mixed?every=5", 50, "open", math.NaN(), 20},
		{"http://127.0.0.1:19000/sleep?ms=300", 50, "open", 0.2, 100},
		{"http://127.0.0.1:19000/sleep?ms=20", math.NaN(), "closed", math.NaN(), 0},
		{"", 60.51, "open", math.NaN(), 75},
	} {
		r := runs[i]
		rate := f(r.TargetRPS)
		if r.Target != c.target || !(rate == c.rate || math.IsNaN(rate) && math.IsNaN(c.rate)) || r.LoadModel != c.model ||
			!(f(r.TimeoutS) == c.timeout || math.IsNaN(c.timeout) && r.TimeoutS == nil) || r.Errors != c.errors {
			t.Errorf("transcript run %d: %+v", i, r.Run)
		}
		if (r.Command != nil) != (c.target != "") {
			t.Errorf("transcript run %d: command %v", i, r.Command)
		}
	}
	if r := runs[3]; r.Connections == nil || *r.Connections != 4 || f(r.PlannedDurationS) != 1 {
		t.Errorf("transcript -rate=0 run: %+v", r.Run)
	}
	if r := runs[4]; i(r.Timeouts) != 60 || i(r.Non2xx) != 15 || r.Label != "report-transcript" {
		t.Errorf("transcript errors run: %+v", r.Run)
	}

}

// TestVegetaTextOldLayouts: old layouts.
func TestVegetaTextOldLayouts(t *testing.T) {
	runs := parseVegetaFile(t, "testdata/vegeta/old-layouts-edited.txt")
	if len(runs) != 5 {
		t.Fatalf("old layouts: %d runs", len(runs))
	}
	if r := runs[0]; r.Requests != 1200 || r.DurationS != 1.998307684 || r.TargetRPS != nil || math.Abs(r.RPS-1200/1.998307684) > 1e-9 ||
		r.LatMinMs != nil || f(r.LatMaxMs) != 7788.103259 {
		t.Errorf("old [total] layout: %+v", r.Run)
	}
	if r := runs[1]; r.Requests != 3600000 || r.DurationS != 0 || r.RPS != 60000 || f(r.TargetRPS) != 60000 {
		t.Errorf("old [total, rate] layout: %+v", r.Run)
	}
	if r := runs[2]; r.Label != "localhost:8082" || f(r.PlannedDurationS) != 30 || f(r.TargetRPS) != 200 || r.Errors != 1794 || r.Timeouts != nil || r.SourceLine != 36 {
		t.Errorf("old [mean, 50, ...] layout: %+v", r.Run)
	}
	if r := runs[3]; r.DurationS != 216.864626198 || r.BytesIn != nil {
		t.Errorf("minutes: %+v", r.Run)
	}
	if r := runs[4]; r.LoadModel != results.LoadClosed || r.Connections == nil || *r.Connections != 10 || f(r.LatMeanMs) != 0.230239 {
		t.Errorf("-rate=0: %+v", r.Run)
	}
}

// pct returns the latency of r at quantile q, NaN when absent.
func pct(r results.RunWithPercentiles, q float64) float64 {
	for _, p := range r.Percentiles {
		if p.Quantile == q {
			return p.LatencyMs
		}
	}
	return math.NaN()
}

func TestVegetaRows(t *testing.T) {
	for _, c := range []struct {
		in   string
		kind row
		keys string
		rest string
	}{
		{"Requests      [total, rate, throughput]         1200, 120.00, 65.87", vegetaRowRequests, "total|rate|throughput", "1200, 120.00, 65.87"},
		{"Status Codes  [code:count]  0:535  200:665  ", vegetaRowStatus, "code:count", "0:535  200:665  "},
		{"Bytes  In [total, mean] 1, 1", vegetaRowBytesIn, "total|mean", "1, 1"},
		{"Error Set:", vegetaRowErrorSet, "", ""},
		{"Requests are sent at [a constant rate]", vegetaRowNone, "", ""},
		{"Latency [mean] 1ms", vegetaRowNone, "", ""},
		{"Requests", vegetaRowNone, "", ""},
	} {
		kind, keys, rest := rowOf([]byte(c.in))
		if kind != c.kind || kind != vegetaRowNone && kind != vegetaRowErrorSet && (strings.Join(keys, "|") != c.keys || string(rest) != c.rest) {
			t.Errorf("%q: %v %q %q", c.in, kind, keys, rest)
		}
	}
	for _, c := range []struct {
		in string
		ms float64
		ok bool
	}{
		{"10m0s", 600000, true}, {"21m47.89s", 1307890, true}, {"1.234µs", 0.001234, true}, {"1.234us", 0.001234, true},
		{"396.281µs", 0.396281, true}, {"0s", 0, true}, {"1h2m", 3720000, true}, {"12", 0, false}, {"-1ms", 0, false}, {"1.2.3s", 0, false},
	} {
		ms, ok := durationMs(c.in)
		if ok != c.ok || ok && math.Abs(ms-c.ms) > 1e-9*c.ms {
			t.Errorf("vegetaDurationMs(%q) = %v %v", c.in, ms, ok)
		}
	}
	for _, c := range []struct {
		in   string
		rate float64
		ok   bool
	}{
		{"50", 50, true}, {"50/1s", 50, true}, {"50/s", 50, true}, {"1/100ms", 10, true}, {"600/1m", 10, true},
		{"0", 0, true}, {"infinity", 0, true}, {"x", 0, false}, {"5/x", 0, false}, {"-5", 0, false},
	} {
		r, ok := rate(c.in)
		if ok != c.ok || ok && math.Abs(r-c.rate) > 1e-9 {
			t.Errorf("vegetaRate(%q) = %v %v", c.in, r, ok)
		}
	}
}

func TestVegetaCommand(t *testing.T) {
	for _, c := range []struct {
		line, raw, target  string
		rate, dur, timeout float64
		workers            int64
	}{
		{`$ echo "GET http://localhost:8080/" | vegeta attack -duration=5s -rate=100 | vegeta report`,
			`echo "GET http://localhost:8080/" | vegeta attack -duration=5s -rate=100 | vegeta report`, "http://localhost:8080/", 100, 5, -1, -1},
		{`echo 'POST https://h:8443/x?y=1' | ./vegeta attack --rate 1/100ms --timeout 2s -max-workers=8 -body b.json > r.bin`,
			`echo 'POST https://h:8443/x?y=1' | ./vegeta attack --rate 1/100ms --timeout 2s -max-workers=8 -body b.json > r.bin`, "https://h:8443/x?y=1", 10, -1, 2, 8},
		{`vegeta -cpus 4 attack -targets=t.txt -rate=0 -max-workers 16 | tee r.bin | vegeta report`,
			`vegeta -cpus 4 attack -targets=t.txt -rate=0 -max-workers 16 | tee r.bin | vegeta report`, "", 0, -1, -1, 16},
		{`docker run -i peterevans/vegeta:latest sh -c "echo 'GET http://a/' | vegeta attack -insecure -rate=20"`, "", "http://a/", 20, -1, -1, -1},
	} {
		s := core.Normalize([]byte(c.line))
		i := findVegetaCommand(s)
		if i < 0 {
			t.Errorf("%q: no command", c.line)
			continue
		}
		cmd := parseVegetaCommand(string(s), i, 7)
		if c.raw != "" && cmd.raw != c.raw || cmd.target != c.target || cmd.line != 7 {
			t.Errorf("%q: raw %q target %q", c.line, cmd.raw, cmd.target)
		}
		if !cmd.hasRate || cmd.rate != c.rate || cmd.hasDuration != (c.dur >= 0) || cmd.hasDuration && cmd.duration != c.dur ||
			cmd.hasTimeout != (c.timeout >= 0) || cmd.hasTimeout && cmd.timeout != c.timeout || cmd.hasMaxWorkers != (c.workers >= 0) || cmd.hasMaxWorkers && cmd.maxWorkers != c.workers {
			t.Errorf("%q: %+v", c.line, cmd)
		}
	}
	for _, s := range []string{"vegeta is a load testing tool, attack mode", "the vegeta attack command", "vegeta report -type=json r.bin", "vegetable attack"} {
		if i := findVegetaCommand([]byte(s)); i >= 0 {
			t.Errorf("%q: command at %d", s, i)
		}
	}
}

func TestVegetaTextErrors(t *testing.T) {
	rep := "Requests      [total, rate, throughput]  10, 10.00, 10.00\n" +
		"Duration      [total, attack, wait]      1s, 1s, 0s\n" +
		"Latencies     [min, mean, 50, 90, 95, 99, max]  1ms, 1ms, 1ms, 1ms, 1ms, 1ms, 1ms\n" +
		"Status Codes  [code:count]  200:10\n"
	for _, c := range []struct {
		name   string
		in     string
		runs   int
		line   int // of the SyntaxError, 0 for none
		noRuns bool
	}{
		{name: "ok", in: rep, runs: 1},
		{name: "cut before Latencies", in: "intro\n" + strings.Join(strings.Split(rep, "\n")[:2], "\n") + "\n", line: 3},
		{name: "cut then next", in: strings.Join(strings.Split(rep, "\n")[:1], "\n") + "\n\n" + rep, line: 1},
		{name: "Latencies only, then a report", in: "Latencies [mean, 50, 95, 99, max] 1ms, 1ms, 1ms, 1ms, 1ms\n" + rep, line: 1},
		{name: "Latencies and codes", in: "Latencies [mean, 99] 1ms, 2ms\nStatus Codes [code:count] 200:3 0:1\n", runs: 1},
		{name: "bad values are not rows", in: "Requests [total, rate] many, 1\n", noRuns: true},
		{name: "zero requests", in: "Requests [total, rate, throughput] 0, 0.00, 0.00\nLatencies [min, mean, 50, 90, 95, 99, max] 0s, 0s, 0s, 0s, 0s, 0s, 0s\nStatus Codes [code:count] \nError Set:\n", runs: 1},
	} {
		var runs []results.RunWithPercentiles
		err := TextParser{}.Parse(context.Background(), strings.NewReader(c.in), core.Options{Source: "x.txt"}, core.RunFunc(func(r results.RunWithPercentiles) error {
			ingesttest.CheckRun(t, r)
			runs = append(runs, r)
			return nil
		}))
		var se *core.SyntaxError
		switch {
		case c.line > 0:
			if !errors.As(err, &se) || se.Line != c.line || se.File != "x.txt" {
				t.Errorf("%s: err %v, want a SyntaxError at line %d", c.name, err, c.line)
			}
		case c.noRuns:
			if !errors.Is(err, core.ErrNoOutput) {
				t.Errorf("%s: err %v", c.name, err)
			}
		default:
			if err != nil || len(runs) != c.runs {
				t.Errorf("%s: %d runs, err %v", c.name, len(runs), err)
			}
		}
	}
}

func TestVegetaReportJSON(t *testing.T) {
	js := parseVegetaFile(t, "testdata/vegeta/report-errors.json")
	txt := parseVegetaFile(t, "testdata/vegeta/report-errors.txt")
	if len(js) != 1 || len(txt) != 1 {
		t.Fatalf("%d and %d runs", len(js), len(txt))
	}
	j, x := js[0], txt[0]
	if j.Requests != 120 || j.Errors != 75 || i(j.Non2xx) != 15 || i(j.Timeouts) != 60 || j.StartedAt == nil ||
		j.Requests != x.Requests || j.Errors != x.Errors || *j.Timeouts != *x.Timeouts || *j.BytesIn != *x.BytesIn {
		t.Errorf("json %+v\ntext %+v", j.Run, x.Run)
	}
	// The text report rounds to the next most precise unit.
	for _, c := range [][2]*float64{{j.LatMeanMs, x.LatMeanMs}, {j.LatP50Ms, x.LatP50Ms}, {j.LatP99Ms, x.LatP99Ms}, {j.LatMaxMs, x.LatMaxMs}, {&j.DurationS, &x.DurationS}, {&j.RPS, &x.RPS}} {
		if math.Abs(f(c[0])-f(c[1])) > 0.001*f(c[0]) {
			t.Errorf("json %v text %v", f(c[0]), f(c[1]))
		}
	}
	// Pretty-printed, with the old README's keys, several in a row.
	raw := ingesttest.ReadPlain(t, "testdata/vegeta/report-errors.json")
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	old := `{"latencies": {"mean": 9093653647, "95th": 12553709381, "99th": 12604629125, "max": 12604629125},
  "bytes_in": {"total": 782040, "mean": 651.7}, "bytes_out": {"total": 0, "mean": 0},
  "duration": 1998307684, "requests": 1200, "success": 0.11666666666666667,
  "status_codes": {"0": 1060, "200": 140},
  "errors": ["Get http://localhost:6060: dial tcp 127.0.0.1:6060: operation timed out"]}`
	in := pretty.String() + "\n" + old + "\n"
	if p, err := core.DetectIn(parsers, []byte(in)); err != nil || p.Name() != "vegeta-report-json" {
		t.Fatalf("detect %v %v", p, err)
	}
	runs, err := parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "p.json"})
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs, err %v", len(runs), err)
	}
	if runs[0].Requests != 120 || f(runs[0].LatP99Ms) != f(j.LatP99Ms) || runs[0].SourceLine != 1 {
		t.Errorf("pretty: %+v", runs[0].Run)
	}
	o := runs[1]
	ingesttest.CheckRun(t, o)
	lines := strings.Count(pretty.String(), "\n") + 2
	if o.SourceLine != int32(lines) || o.Requests != 1200 || o.Errors != 1060 || i(o.Timeouts) != 1060 || o.DurationS != 1.998307684 ||
		o.TargetRPS != nil || math.Abs(o.RPS-1200/1.998307684) > 1e-9 || f(o.LatMeanMs) != 9093.653647 || o.LatMinMs != nil || o.StartedAt != nil {
		t.Errorf("old JSON (line %d): %+v", lines, o.Run)
	}
	// Errors with their line.
	for _, c := range []struct {
		in   string
		line int
	}{
		{`{"latencies":{"mean":1},"requests":1,"status_codes":{"200":1}}` + "\n\n" + `{"latencies":{"mean":1},"requests":-1}`, 3},
		{`{"latencies":{"mean":1},"requests":1,"status_codes":{"200":1}}` + "\n" + `{"latencies":{"mean":1},` + "\n" + `"requests":1,,}`, 3},
		{`{"latencies":{"mean":1},"requests":1,"status_codes":{"abc":1}}`, 1},
		{`{"latencies":{"mean":1},"requests":1,"status_codes":{"200":1}}` + "\n[1]", 2},
		{`{"latencies":{"mean":1},"requests":1,"status_codes":{"200":1}}` + "\n{\"requests\": 3}", 2},
		{`{"latencies":{"mean":1},"requests":1,"status_codes":{"200":1}} {"latencies":{"mean":1}`, 1},
	} {
		err := ReportJSONParser{}.Parse(context.Background(), strings.NewReader(c.in), core.Options{Source: "e.json"}, core.RunFunc(func(results.RunWithPercentiles) error { return nil }))
		var se *core.SyntaxError
		if !errors.As(err, &se) || se.Line != c.line {
			t.Errorf("%q: %v, want a SyntaxError at line %d", c.in, err, c.line)
		}
	}
}

func TestVegetaHdrplot(t *testing.T) {
	h := parseVegetaFile(t, "testdata/vegeta/hdrplot-errors.txt")
	j := parseVegetaFile(t, "testdata/vegeta/report-errors.json")
	if len(h) != 1 {
		t.Fatalf("%d runs", len(h))
	}
	r := h[0]
	// Both come from vegeta's t-digest of the same results.
	if r.Requests != 120 || f(r.LatP50Ms) != f(j[0].LatP50Ms) || f(r.LatP90Ms) != f(j[0].LatP90Ms) ||
		f(r.LatMinMs) != f(j[0].LatMinMs) || f(r.LatMaxMs) != f(j[0].LatMaxMs) || r.LatP99Ms == nil || len(r.Percentiles) != 94 {
		t.Errorf("hdrplot %+v (%d points)", r.Run, len(r.Percentiles))
	}
	last := r.Percentiles[len(r.Percentiles)-1]
	if last.Quantile != 1 || last.TotalCount == nil || *last.TotalCount != 120 {
		t.Errorf("last point %+v", last)
	}
	// Two tables, and one without rows.
	tab := string(ingesttest.ReadPlain(t, "testdata/vegeta/hdrplot-ok.txt"))
	runs, err := parseAll(context.Background(), strings.NewReader("x\n"+tab+"\n"+tab), core.Options{Source: "h"})
	if err != nil || len(runs) != 2 || runs[1].SourceLine != int32(strings.Count(tab, "\n")+3) {
		t.Errorf("two tables: %d runs, err %v", len(runs), err)
	}
	_, err = parseAll(context.Background(), strings.NewReader(tab+"Value(ms)  Percentile  TotalCount  1/(1-Percentile)\nthe end\n"), core.Options{Source: "h"})
	var se *core.SyntaxError
	if !errors.As(err, &se) || se.Line != strings.Count(tab, "\n")+1 {
		t.Errorf("empty table: %v", err)
	}
}

// metrics computes vegeta's own metrics of a results file.
func libMetrics(t *testing.T, path string) *vegeta.Metrics {
	t.Helper()
	dec := vegeta.DecoderFor(bytes.NewReader(ingesttest.ReadPlain(t, path)))
	if dec == nil {
		t.Fatalf("%s: vegeta cannot decode it", path)
	}
	var m vegeta.Metrics
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		m.Add(&r)
	}
	m.Close()
	return &m
}

// TestVegetaResults: the three encodings of the same results give the
// same runs, and these agree with vegeta's own metrics.
func TestVegetaResults(t *testing.T) {
	strip := func(runs []results.RunWithPercentiles) string {
		var b strings.Builder
		for _, r := range runs {
			r.RunID, r.Source, r.Experiment, r.Label = "", "", "", ""
			for i := range r.Percentiles {
				r.Percentiles[i].RunID = ""
			}
			j, _ := json.Marshal(r)
			b.Write(j)
			b.WriteByte('\n')
		}
		return b.String()
	}
	for _, set := range [][]string{
		{"results-two-targets.gob.gz", "results-two-targets.json.gz"},
		{"results-errors.json", "results-errors.csv"},
		{"results-ok.gob", "results-ok.csv.gz"},
	} {
		a := parseVegetaFile(t, "testdata/vegeta/"+set[0])
		b := parseVegetaFile(t, "testdata/vegeta/"+set[1])
		if strip(a) != strip(b) {
			t.Errorf("%s and %s differ:\n%s\n%s", set[0], set[1], strip(a), strip(b))
		}
		m := libMetrics(t, "testdata/vegeta/"+set[0])
		var n, errs, bytesIn int64
		lo, hi := math.Inf(1), 0.0
		for _, r := range a {
			n += r.Requests
			errs += r.Errors
			bytesIn += *r.BytesIn
			lo, hi = math.Min(lo, *r.LatMinMs), math.Max(hi, *r.LatMaxMs)
		}
		if n != int64(m.Requests) || errs != int64(math.Round(float64(m.Requests)*(1-m.Success))) || bytesIn != int64(m.BytesIn.Total) ||
			lo != float64(m.Latencies.Min)/1e6 || hi != float64(m.Latencies.Max)/1e6 {
			t.Errorf("%s: requests %d errors %d bytes %d min %v max %v; vegeta: %+v", set[0], n, errs, bytesIn, lo, hi, m)
		}
		// One run: its rates are vegeta's own rate and throughput, and
		// as an open model its rps is the throughput.
		if r := a[0]; len(a) == 1 && (r.SentRPS == nil || r.SuccessRPS == nil || math.Abs(*r.SentRPS/m.Rate-1) > 1e-9 ||
			math.Abs(*r.SuccessRPS/m.Throughput-1) > 1e-9 || r.RPS != *r.SuccessRPS || r.TargetRPS == nil || *r.TargetRPS != *r.SentRPS) {
			t.Errorf("%s: sent %v success %v rps %v target %v; vegeta rate %v throughput %v", set[0], r.SentRPS, r.SuccessRPS, r.RPS, r.TargetRPS, m.Rate, m.Throughput)
		}
	}
	runs := parseVegetaFile(t, "testdata/vegeta/results-errors.json")
	if len(runs) != 2 || runs[0].Target != "http://127.0.0.1:19000/mixed?every=4" || runs[0].Errors != 15 || i(runs[0].Non2xx) != 15 ||
		runs[1].Target != "http://127.0.0.1:19000/sleep?ms=300" || runs[1].Errors != 60 || i(runs[1].Timeouts) != 60 || i(runs[1].Non2xx) != 0 ||
		runs[0].TargetRPS == nil || runs[0].LoadModel != results.LoadOpen || !runs[0].HasSamples || runs[0].StartedAt == nil {
		t.Errorf("errors: %+v\n%+v", runs[0].Run, runs[1].Run)
	}
	if runs[0].Notes == nil || !strings.HasPrefix(*runs[0].Notes, `vegeta attack "errors"; requested rate `) {
		t.Errorf("notes %v", runs[0].Notes)
	}
}

// TestVegetaResultsBadRecords: malformed JSON and CSV lines are counted
// with their line; gob streams end at a corrupt record.
func TestVegetaResultsBadRecords(t *testing.T) {
	good := strings.Split(strings.TrimSpace(string(ingesttest.ReadPlain(t, "testdata/vegeta/results-errors.json"))), "\n")
	parse := func(name, in string) ([]results.RunWithPercentiles, *ingesttest.Collect, error) {
		var c ingesttest.Collect
		err := parserNamed(t, name).Parse(context.Background(), strings.NewReader(in), core.Options{Source: "r"}, &c)
		for _, r := range c.Runs {
			ingesttest.CheckRun(t, r)
		}
		return c.Runs, &c, err
	}
	// One bad line of 121 (and blank lines, CRLF, no final newline): noted.
	lines := append([]string{}, good...)
	lines[10] = `{"attack":"errors","seq":1,"code":200,"timestamp":"2026-12-02T13:42:51.765332396Z","latency":"slow"}`
	in := strings.Join(lines[:50], "\n") + "\n\n\r\n" + strings.Join(lines[50:], "\r\n")
	runs, c, err := parse("vegeta-json", in)
	if err != nil || len(runs) != 2 || runs[0].Requests+runs[1].Requests != 119 || len(c.Samples) != 119 {
		t.Fatalf("%d runs, err %v", len(runs), err)
	}
	if runs[0].Notes == nil || !strings.Contains(*runs[0].Notes, "1 malformed lines skipped (line 11:") {
		t.Errorf("notes %v", runs[0].Notes)
	}
	// Too many bad lines: rejected, with the first bad line.
	for i := 20; i < 25; i++ {
		lines[i] = "{" + lines[i][10:]
	}
	_, _, err = parse("vegeta-json", strings.Join(lines, "\n"))
	var se *core.SyntaxError
	if !errors.As(err, &se) || se.Line != 11 {
		t.Errorf("many bad lines: %v", err)
	}
	// A line longer than the line buffer is one bad line, but most of the
	// bytes: rejected.
	long := strings.Join(good[:60], "\n") + "\n" + `{"error":"` + strings.Repeat("x", core.MaxLine+10) + `"}` + "\n" + strings.Join(good[60:], "\n") + "\n"
	_, _, err = parse("vegeta-json", long)
	if !errors.As(err, &se) || se.Line != 61 || !strings.Contains(se.Msg, "1048599 of 1090945 bytes malformed") {
		t.Errorf("long line: err %v", err)
	}

	csvLines := strings.Split(strings.TrimSpace(string(ingesttest.ReadPlain(t, "testdata/vegeta/results-errors.csv"))), "\n")
	csvLines[99] = "1796218490649768717,200,oops,0,13,,,errors,0,GET,http://127.0.0.1:19000/ok,"
	runs, _, err = parse("vegeta-csv", strings.Join(csvLines, "\n"))
	if err != nil || len(runs) != 2 || runs[0].Requests+runs[1].Requests != 119 || !strings.Contains(*runs[0].Notes, "line 100:") {
		t.Errorf("csv: %d runs, err %v, notes %v", len(runs), err, runs[0].Notes)
	}
	// A quoted error with a line break spans two lines.
	csvLines[99] = `1796218490649768717,0,1000,0,0,"multi` + "\n" + `line",,errors,0,GET,http://127.0.0.1:19000/ok,`
	runs, _, err = parse("vegeta-csv", strings.Join(csvLines, "\n"))
	if err != nil || len(runs) != 3 || runs[2].Requests != 1 || runs[2].Errors != 1 || runs[0].Notes == nil || !strings.HasPrefix(*runs[0].Notes, `vegeta attack "errors";`) {
		t.Errorf("csv multi-line: %d runs, err %v", len(runs), err)
	}

	gob := ingesttest.ReadPlain(t, "testdata/vegeta/results-ok.gob")
	runs, _, err = parse("vegeta-gob", string(gob[:len(gob)-50]))
	if err != nil || len(runs) != 1 || runs[0].Requests != 199 || !strings.Contains(*runs[0].Notes, "record 200: unexpected EOF") {
		t.Errorf("truncated gob: %d runs, err %v", len(runs), err)
	}
	_, _, err = parse("vegeta-gob", string(gob[:100]))
	if !errors.As(err, &se) {
		t.Errorf("gob cut in its type: %v", err)
	}
}

// TestVegetaManyTargets: beyond maxVegetaTargets targets, requests are
// merged per host, so memory stays bounded.
func TestVegetaManyTargets(t *testing.T) {
	var b bytes.Buffer
	enc := vegeta.NewJSONEncoder(&b)
	t0 := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range 1000 {
		r := vegeta.Result{Attack: "a", Seq: uint64(i), Code: 200, Timestamp: t0.Add(time.Duration(i) * time.Millisecond),
			Latency: time.Millisecond, Method: "GET", URL: fmt.Sprintf("http://h%d.example:8080/item/%d", i%2, i)}
		if err := enc.Encode(&r); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := parseAll(context.Background(), &b, core.Options{Source: "many.json"})
	if err != nil || len(runs) != maxVegetaTargets+2 {
		t.Fatalf("%d runs, err %v", len(runs), err)
	}
	last := runs[len(runs)-1]
	if last.Target != "http://h1.example:8080/" || last.Requests != (1000-maxVegetaTargets)/2 || !strings.Contains(*last.Notes, "merged per host") {
		t.Errorf("merged run %+v", last.Run)
	}
}

// TestVegetaLineFeeder: the feeder hands out one line per Read.
func TestVegetaLineFeeder(t *testing.T) {
	f := newVegetaLineFeeder(strings.NewReader("a\n\n  \nbb\r\nccc"))
	var got []string
	buf := make([]byte, 2)
	for {
		n, err := f.Read(buf)
		if err == io.EOF {
			break
		}
		got = append(got, fmt.Sprintf("%d:%q", f.line, buf[:n]))
	}
	if want := `1:"a\n" 4:"bb" 4:"\r\n" 5:"cc" 5:"c\n"`; strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}
	e := errors.New("boom")
	f = newVegetaLineFeeder(io.MultiReader(strings.NewReader("x\n"), errReader{e}))
	if _, err := io.ReadAll(f); !errors.Is(err, e) || f.err != e {
		t.Errorf("read error: %v", err)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

var (
	vegetaBenchOnce sync.Once
	vegetaBenchData []byte
)

// benchInput returns 200,000 results as JSON lines, like those of
// scripts/perf/makevegeta (one target at 5000/s, ~350 bytes a line).
func benchInput() []byte {
	vegetaBenchOnce.Do(func() {
		var b bytes.Buffer
		enc := vegeta.NewJSONEncoder(&b)
		t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
		const url = "http://127.0.0.1:8080/api/items"
		for i := range 200000 {
			body := []byte(`{"id":` + strconv.Itoa(i) + `,"ok":true}`)
			start := t0.Add(time.Duration(i) * 200 * time.Microsecond)
			lat := time.Duration(1e6 + (i*7919)%4e6)
			r := vegeta.Result{Attack: "perf", Seq: uint64(i), Code: 200, Timestamp: start, Latency: lat, Method: "GET", URL: url,
				Body: body, BytesIn: uint64(len(body)), Headers: http.Header{"Content-Type": {"application/json"},
					"Date": {start.Format(http.TimeFormat)}, "Content-Length": {strconv.Itoa(len(body))}}}
			if i%1000 == 0 {
				r.Code, r.Error = 503, "503 Service Unavailable"
			}
			enc.Encode(&r)
		}
		vegetaBenchData = b.Bytes()
	})
	return vegetaBenchData
}

// discard is a Sink that drops everything.
type discard struct{}

func (discard) Run(results.RunWithPercentiles) error { return nil }
func (discard) Sample(results.Sample) error          { return nil }
func (discard) Series(results.Series) error          { return nil }

// BenchmarkVegetaResultsJSON parses per-request JSON results into runs,
// samples and series (dropped by the sink).
func BenchmarkVegetaResultsJSON(b *testing.B) {
	data := benchInput()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := parse(context.Background(), bytes.NewReader(data), core.Options{Source: "bench.json"}, discard{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/200000, "ns/request")
}

// BenchmarkVegetaLibJSON is the floor set by vegeta's own JSON decoder
// (what `vegeta report` reads with), without aggregation.
func BenchmarkVegetaLibJSON(b *testing.B) {
	data := benchInput()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		dec := vegeta.NewJSONDecoder(bytes.NewReader(data))
		var r vegeta.Result
		for {
			r = vegeta.Result{}
			if err := dec.Decode(&r); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// jsonAgrees checks decodeVegetaJSON against vegeta's own JSON
// decoder on one line: where vegeta decodes it, the whole-line decoding
// must succeed with the same fields loadverdict keeps; where the whole-line
// decoding succeeds, the decoding that stops at "headers" must too, with
// the same fields unless a key is repeated.
func jsonAgrees(t testing.TB, line []byte) {
	t.Helper()
	same := func(a, b record) bool {
		return string(a.attack) == string(b.attack) && string(a.method) == string(b.method) && string(a.url) == string(b.url) &&
			string(a.err) == string(b.err) && a.code == b.code && a.ts.Equal(b.ts) && a.latency == b.latency && a.bytesIn == b.bytesIn
	}
	var strict, fast record
	serr := decodeVegetaJSONMode(line, &strict, false)
	ferr := decodeVegetaJSONMode(line, &fast, true)
	if serr == nil && (ferr != nil || !repeatsKeys(line) && !same(strict, fast)) {
		t.Fatalf("%q: whole line %+v, stopping at headers %+v (%v)", line, strict, fast, ferr)
	}
	var want vegeta.Result
	if err := vegeta.NewJSONDecoder(bytes.NewReader(append(append([]byte{}, line...), '\n'))).Decode(&want); err != nil {
		return // loadverdict may be more lenient about body and headers
	}
	if serr != nil {
		t.Fatalf("%q: vegeta decodes it, loadverdict fails: %v", line, serr)
	}
	w := record{attack: []byte(want.Attack), method: []byte(want.Method), url: []byte(want.URL), err: []byte(want.Error),
		code: want.Code, ts: want.Timestamp, latency: int64(want.Latency), bytesIn: want.BytesIn}
	if !same(strict, w) {
		t.Fatalf("%q: got %+v, vegeta %+v", line, strict, want)
	}
}

// repeatsKeys reports whether the top-level object of line repeats
// a key, or cannot be told (not strict JSON).
func repeatsKeys(line []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return true
	}
	keys := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		k, ok := tok.(string)
		if err != nil || !ok || keys[k] {
			return true
		}
		keys[k] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return true
		}
	}
	return false
}

func TestVegetaJSONDecoder(t *testing.T) {
	n := 0
	for _, in := range []string{"results-errors.json", "results-two-targets.json.gz"} {
		for _, line := range bytes.Split(ingesttest.ReadPlain(t, "testdata/vegeta/"+in), []byte("\n")) {
			if len(line) > 0 {
				jsonAgrees(t, line)
				n++
			}
		}
	}
	if n != 520 {
		t.Errorf("%d lines", n)
	}
	for _, s := range []string{
		`{}`, `null`, ` { "code" : 500 , "error":"a\"b\u00e9", "url":null, "timestamp":"2024-01-01T00:00:00+02:00"} `,
		`{"attack":"x\ny","timestamp":"2024-01-01T00:00:00.123456789Z","latency":1e3}`,
		`{"latency":-5,"bytes_in":18446744073709551615,"code":65536}`, `{"code":200}x`, `{"headers":{"a":1},"body":"!!"}`,
		`{"timestamp":"2024-13-01T00:00:00Z"}`, `{"timestamp":12}`, `[1]`, `{"seq":-1}`, `{"a":{"b":[1,{"c":null}]}}`,
	} {
		jsonAgrees(t, []byte(s))
	}
}

// TestVegetaRateAndThroughput: rps is the throughput when the report
// prints one, else the rate; sent_rps and success_rps keep each under its
// name, null when not printed.
func TestVegetaRateAndThroughput(t *testing.T) {
	for _, c := range []struct {
		name, in      string
		rps           float64
		sent, success *float64
	}{
		{"total only", "Requests [total] 1200\nDuration [total] 2s\nLatencies [mean, 95, 99, max] 1ms, 2ms, 3ms, 4ms\nStatus Codes [code:count] 200:1200\n",
			600, nil, nil},
		{"rate", "Requests [total, rate] 1200, 120.00\nDuration [total, attack, wait] 10s, 10s, 1ms\nLatencies [mean, 95, 99, max] 1ms, 2ms, 3ms, 4ms\nStatus Codes [code:count] 200:1200\n",
			120, results.Ptr(120.0), nil},
		{"rate and throughput", "Requests [total, rate, throughput] 1200, 120.00, 65.87\nDuration [total, attack, wait] 10.09s, 9.95s, 145ms\nLatencies [mean, 95, 99, max] 1ms, 2ms, 3ms, 4ms\nStatus Codes [code:count] 0:535 200:665\n",
			65.87, results.Ptr(120.0), results.Ptr(65.87)},
		{"json", `{"latencies":{"mean":1000000,"50th":1000000,"95th":1000000,"99th":1000000,"max":1000000,"min":1000000},"requests":1200,"rate":120,"throughput":65.87,"duration":10000000000,"wait":1000000,"success":0.55,"status_codes":{"200":665,"0":535},"errors":[]}`,
			65.87, results.Ptr(120.0), results.Ptr(65.87)},
	} {
		runs, err := parseAll(context.Background(), strings.NewReader(c.in), core.Options{Source: "x"})
		if err != nil || len(runs) != 1 {
			t.Fatalf("%s: %d runs, err %v", c.name, len(runs), err)
		}
		r := runs[0]
		if r.RPS != c.rps || !reflect.DeepEqual(r.SentRPS, c.sent) || !reflect.DeepEqual(r.SuccessRPS, c.success) {
			t.Errorf("%s: rps %v sent %v success %v, want %v %v %v", c.name, r.RPS, r.SentRPS, r.SuccessRPS, c.rps, c.sent, c.success)
		}
	}
}
