package vegeta

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// fuzzVegeta runs the parser named name on data (and Parse with detection
// in front) and fails on a panic, on an error other than *SyntaxError or
// *NoOutputError, and on a run, series window or sample with a negative
// or non-finite number.
func fuzzVegeta(t *testing.T, name string, data []byte) {
	p := parserNamed(t, name)
	p.Detect(data)
	check := func(err error, c *ingesttest.Collect) {
		var se *core.SyntaxError
		if err != nil && !errors.As(err, &se) && !errors.Is(err, core.ErrNoOutput) {
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
		for i, r := range c.Runs {
			if r.Index != int32(i) {
				t.Fatalf("run %d has index %d", i, r.Index)
			}
			ingesttest.CheckRun(t, r)
		}
		for _, s := range c.Windows {
			for _, v := range []*float64{&s.TS, &s.WindowS, &s.RPS, s.LatMeanMs, s.LatP50Ms, s.LatP99Ms, s.LatMaxMs} {
				if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0 && v != &s.TS) {
					t.Fatalf("series %+v", s)
				}
			}
		}
		for _, s := range c.Samples {
			if math.IsNaN(s.TS) || math.IsInf(s.TS, 0) || !core.Finite(s.LatencyMs) || s.LatencyMs < 0 || s.BytesIn < 0 {
				t.Fatalf("sample %+v", s)
			}
		}
	}
	opts := core.Options{Source: "fuzz"}
	var c ingesttest.Collect
	check(p.Parse(context.Background(), bytes.NewReader(data), opts, &c), &c)
	c = ingesttest.Collect{}
	check(parse(context.Background(), bytes.NewReader(data), opts, &c), &c)
}

// seeds adds the (decompressed) test inputs a parser reads.
func seeds(f *testing.F, name string, extra ...string) {
	for _, in := range ingesttest.GoldenInputs(f, "testdata/vegeta") {
		if vegetaWant(filepath.Base(in)) == name {
			f.Add(ingesttest.CutSeed(ingesttest.ReadPlain(f, in)))
		}
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
}

// FuzzVegetaText fuzzes the text report parser.
func FuzzVegetaText(f *testing.F) {
	seeds(f, "vegeta", "Latencies [mean, 99] 1ms, 2ms\nStatus Codes [code:count] 200:3 0:1\n",
		"Requests [total] 1\nLatencies [mean, 99.9] 1h, 2562047h\nError Set:\nx\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzVegeta(t, "vegeta", data) })
}

// FuzzVegetaReportJSON fuzzes the JSON report parser.
func FuzzVegetaReportJSON(f *testing.F) {
	seeds(f, "vegeta-report-json", `{"latencies":{"mean":1},"requests":1,"status_codes":{"200":1},"duration":9223372036854775807,"wait":9223372036854775807}`)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzVegeta(t, "vegeta-report-json", data) })
}

// FuzzVegetaHdrplot fuzzes the hdrplot parser.
func FuzzVegetaHdrplot(f *testing.F) {
	seeds(f, "vegeta-hdrplot")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzVegeta(t, "vegeta-hdrplot", data) })
}

// FuzzVegetaJSON fuzzes the parser of per-request JSON results.
func FuzzVegetaJSON(f *testing.F) {
	seeds(f, "vegeta-json", strings.Repeat(`{"code":200,"timestamp":"2262-04-11T23:47:16.854775807Z","latency":-1}`+"\n", 3))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzVegeta(t, "vegeta-json", data)
		for _, line := range bytes.Split(data, []byte("\n")) {
			jsonAgrees(t, line)
		}
	})
}

// FuzzVegetaCSV fuzzes the parser of per-request CSV results.
func FuzzVegetaCSV(f *testing.F) {
	seeds(f, "vegeta-csv", "1700000000000000000,200,9223372036854775807,0,18446744073709551615,,,a,0,GET,http://h/,\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzVegeta(t, "vegeta-csv", data) })
}

// FuzzVegetaGob fuzzes the parser of gob results.
func FuzzVegetaGob(f *testing.F) {
	seeds(f, "vegeta-gob")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzVegeta(t, "vegeta-gob", data) })
}
