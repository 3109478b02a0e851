// Package ingesttest holds what the tests of ingest and of every tool
// package under it share: the golden-file check of a testdata folder, the
// fuzz seeds, the invariants every run keeps and a Sink that keeps
// everything. It imports the core only; the parse under test (in practice
// ingest.Parse, detection included) is passed in, so that the tests of
// package ingest itself can use it too.
package ingesttest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// Update is the -update flag: the golden tests rewrite their files.
var Update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Long tells whether the long tests run whole, as CI asks
// (LOADVERDICT_LONG=all, which .ci/run sets, or 1); else they check a
// sample that still holds every kind of case.
func Long() bool {
	v := os.Getenv("LOADVERDICT_LONG")
	return v == "all" || v == "1"
}

// ParseFunc parses one input to a sink (ingest.Parse).
type ParseFunc func(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error

// Collect is a Sink that keeps everything.
type Collect struct {
	Runs    []results.RunWithPercentiles
	Samples []results.Sample
	Windows []results.Series
}

// Run keeps r.
func (c *Collect) Run(r results.RunWithPercentiles) error { c.Runs = append(c.Runs, r); return nil }

// Sample keeps s.
func (c *Collect) Sample(s results.Sample) error { c.Samples = append(c.Samples, s); return nil }

// Series keeps s.
func (c *Collect) Series(s results.Series) error { c.Windows = append(c.Windows, s); return nil }

// Golden parses every input under each of the testdata folders dirs and
// compares with its golden file: the runs as JSON Lines, then, for
// per-request logs, a line per series window and a digest of the samples.
// With -update it rewrites them.
func Golden(t *testing.T, parse ParseFunc, dirs ...string) {
	for _, dir := range dirs {
		for _, in := range GoldenInputs(t, dir) {
			t.Run(filepath.Base(dir)+"/"+filepath.Base(in), func(t *testing.T) {
				got := GoldenOf(t, parse, in)
				golden := GoldenPath(in)
				if *Update {
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -update)", err)
				}
				if !bytes.Equal(got, want) {
					gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
					for i := 0; i < len(gl) && i < len(wl); i++ {
						if gl[i] != wl[i] {
							t.Fatalf("line %d differs from %s:\ngot  %s\nwant %s", i+1, golden, gl[i], wl[i])
						}
					}
					t.Fatalf("%s: got %d lines, want %d", golden, len(gl), len(wl))
				}
			})
		}
	}
}

// GoldenInputs lists the parser inputs of a testdata folder: every file but
// notes (.src, .md), goldens and scripts.
func GoldenInputs(t testing.TB, dir string) []string {
	t.Helper()
	all, _ := filepath.Glob(filepath.Join(dir, "*"))
	var out []string
	for _, f := range all {
		base := filepath.Base(f)
		if strings.HasSuffix(base, ".golden.json") || strings.HasSuffix(base, ".src") || strings.HasSuffix(base, ".md") ||
			strings.HasSuffix(base, ".sh") || strings.HasSuffix(base, ".go") || base == "README" {
			continue
		}
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			out = append(out, f)
		}
	}
	return out
}

// GoldenPath is x.golden.json for x.txt, and x.csv.golden.json for other inputs.
func GoldenPath(in string) string {
	if strings.HasSuffix(in, ".txt") {
		return strings.TrimSuffix(in, ".txt") + ".golden.json"
	}
	return in + ".golden.json"
}

// GoldenOf parses in and renders what the sink received.
func GoldenOf(t testing.TB, parse ParseFunc, in string) []byte {
	t.Helper()
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var c Collect
	if err := parse(context.Background(), f, core.Options{Source: filepath.ToSlash(in), Experiment: "test"}, &c); err != nil {
		t.Fatalf("parse: %v", err)
	}
	for _, r := range c.Runs {
		CheckRun(t, r)
	}
	var buf bytes.Buffer
	buf.Write(JSONLines(t, c.Runs))
	enc := json.NewEncoder(&buf)
	for _, s := range c.Windows {
		if err := enc.Encode(map[string]any{"series": s}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(c.Samples); n > 0 {
		digest := map[string]any{"count": n, "first": c.Samples[:min(3, n)], "last": c.Samples[n-1]}
		if err := enc.Encode(map[string]any{"samples": digest}); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// ParseFile parses the file at path with Source path and Experiment "test".
func ParseFile(t testing.TB, parse ParseFunc, path string) ([]results.RunWithPercentiles, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var runs []results.RunWithPercentiles
	err = parse(context.Background(), f, core.Options{Source: filepath.ToSlash(path), Experiment: "test"}, core.RunFunc(func(r results.RunWithPercentiles) error {
		runs = append(runs, r)
		return nil
	}))
	return runs, err
}

// JSONLines renders runs as JSON Lines.
func JSONLines(t testing.TB, runs []results.RunWithPercentiles) []byte {
	t.Helper()
	var buf bytes.Buffer
	for _, r := range runs {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// CheckRun checks the invariants of every run: finite, non-negative
// numbers, non-nil percentiles that carry the run's id.
func CheckRun(t testing.TB, r results.RunWithPercentiles) {
	t.Helper()
	v := reflect.ValueOf(r.Run)
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		name := v.Type().Field(i).Name
		if f.Kind() == reflect.Pointer {
			if f.IsNil() {
				continue
			}
			f = f.Elem()
		}
		switch f.Kind() {
		case reflect.Float64:
			if x := f.Float(); math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				t.Errorf("run %d: %s = %v", r.Index, name, x)
			}
		case reflect.Int32, reflect.Int64:
			if f.Int() < 0 {
				t.Errorf("run %d: %s = %d", r.Index, name, f.Int())
			}
		}
	}
	if r.Percentiles == nil {
		t.Errorf("run %d: nil percentiles", r.Index)
	}
	for _, p := range r.Percentiles {
		if !(p.Quantile >= 0 && p.Quantile <= 1) || !core.Finite(p.LatencyMs) || p.TotalCount != nil && *p.TotalCount < 0 || p.RunID != r.RunID {
			t.Errorf("run %d: bad percentile %+v", r.Index, p)
		}
	}
}

// ReadPlain returns a testdata file, decompressed.
func ReadPlain(t testing.TB, name string) []byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := &core.Input{Source: name, Raw: &core.TrackReader{R: f}}
	br, closeFn, err := in.Decompress(bufio.NewReaderSize(in.Raw, core.HeadSize))
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	b, err := io.ReadAll(br)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// MaxSeed caps a fuzz seed. A fuzz target parses one input per execution;
// seeds as big as the golden inputs make every execution, and every
// mutation, slow, so that a fuzz run of a few seconds executes a few
// dozen inputs and checks almost nothing. Seeds are the test inputs,
// decompressed and cut to at most MaxSeed bytes (at a line end when there
// is one), and short hand-written inputs.
const MaxSeed = 8 << 10

// CutSeed cuts b to at most MaxSeed bytes, at a line end when there is
// one in its second half.
func CutSeed(b []byte) []byte {
	if len(b) <= MaxSeed {
		return b
	}
	b = b[:MaxSeed]
	if i := bytes.LastIndexByte(b, '\n'); i >= MaxSeed/2 {
		b = b[:i+1]
	}
	return b
}

// FuzzSeeds adds the parser inputs matching the globs (not goldens, notes
// or scripts), decompressed and cut by CutSeed, to f's seed corpus.
func FuzzSeeds(f *testing.F, globs ...string) {
	f.Helper()
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil || len(files) == 0 {
			f.Fatalf("no seeds match %s: %v", g, err)
		}
		for _, name := range files {
			base := filepath.Base(name)
			if strings.HasSuffix(base, ".golden.json") || strings.HasSuffix(base, ".src") || strings.HasSuffix(base, ".md") ||
				strings.HasSuffix(base, ".sh") || strings.HasSuffix(base, ".go") {
				continue
			}
			if st, err := os.Stat(name); err != nil || !st.Mode().IsRegular() {
				continue
			}
			f.Add(CutSeed(ReadPlain(f, name)))
		}
	}
}

// CorpusSmall checks that the seeds kept under testdata/fuzz (crashers
// found by fuzzing, cut down) are no bigger than MaxSeed either; a
// package without such seeds passes.
func CorpusSmall(t *testing.T) {
	files, _ := filepath.Glob("testdata/fuzz/*/*")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(strings.TrimSpace(string(b)), "\n", 2)
		if len(lines) != 2 || lines[0] != "go test fuzz v1" {
			t.Fatalf("%s: not a corpus file", name)
		}
		q, ok := strings.CutPrefix(lines[1], "[]byte(")
		v, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
		if !ok || err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(v) > MaxSeed {
			t.Errorf("%s: a seed of %d bytes (at most %d)", name, len(v), MaxSeed)
		}
	}
}

// ParseWith returns core.ParseWith over parsers alone: ingest.Parse with
// one tool package's formats.
func ParseWith(parsers []core.Parser) ParseFunc {
	return func(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
		return core.ParseWith(ctx, parsers, r, opts, sink)
	}
}

// ParseAll is parse collecting the runs; on error it returns the runs
// emitted before it.
func ParseAll(ctx context.Context, parse ParseFunc, r io.Reader, opts core.Options) ([]results.RunWithPercentiles, error) {
	var runs []results.RunWithPercentiles
	err := parse(ctx, r, opts, core.RunFunc(func(run results.RunWithPercentiles) error {
		runs = append(runs, run)
		return nil
	}))
	return runs, err
}

// ParseString parses in with parse into a Collect.
func ParseString(parse ParseFunc, in string, opts core.Options) (*Collect, error) {
	var c Collect
	err := parse(context.Background(), strings.NewReader(in), opts, &c)
	return &c, err
}

// WantSyntax fails unless err is a *SyntaxError at line whose message
// holds msg.
func WantSyntax(t *testing.T, err error, line int, msg string) {
	t.Helper()
	var se *core.SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *SyntaxError", err, err)
	}
	if se.Line != line || !strings.Contains(se.Msg, msg) {
		t.Errorf("error %q at line %d, want line %d containing %q", se.Msg, se.Line, line, msg)
	}
}

// PtrEq reports whether p is set and within 1e-9 of v.
func PtrEq(p *float64, v float64) bool { return p != nil && math.Abs(*p-v) < 1e-9 }

// ParserNamed returns the parser of parsers with the name.
func ParserNamed(t testing.TB, parsers []core.Parser, name string) core.Parser {
	t.Helper()
	for _, p := range parsers {
		if p.Name() == name {
			return p
		}
	}
	t.Fatalf("no parser %q registered", name)
	return nil
}

// CheckParse runs p on data and checks what comes out: errors of the
// documented types, runs with finite non-negative numbers, samples with
// finite non-negative latencies; when detection over parsers picks p,
// the whole parse (core.ParseWith) too.
func CheckParse(t *testing.T, parsers []core.Parser, p core.Parser, data []byte) {
	var c Collect
	err := p.Parse(context.Background(), bytes.NewReader(data), core.Options{Source: "fuzz"}, &c)
	var se *core.SyntaxError
	if err != nil && !errors.As(err, &se) && !errors.Is(err, core.ErrNoOutput) {
		t.Fatalf("unexpected error type %T: %v", err, err)
	}
	for i, r := range c.Runs {
		if r.Index != int32(i) {
			t.Fatalf("run %d has index %d", i, r.Index)
		}
		CheckRun(t, r)
	}
	for _, s := range c.Samples {
		if !core.Finite(s.LatencyMs) || !core.Finite(s.TS+1e12) {
			t.Fatalf("sample %+v", s)
		}
	}
	p.Detect(data)
	if q, err := core.DetectIn(parsers, data); err == nil && q.Name() == p.Name() {
		var c2 Collect
		if err := core.ParseWith(context.Background(), parsers, bytes.NewReader(data), core.Options{Source: "fuzz"}, &c2); err != nil && !errors.As(err, &se) && !errors.Is(err, core.ErrNoOutput) {
			t.Fatalf("Parse: unexpected error type %T: %v", err, err)
		}
	}
}

// CheckTruncated cuts a complete output after each of the given lines and
// requires the parser of parsers named name to refuse it with a
// *SyntaxError naming the file and a line, or (cut before anything is
// recognizable) with a *NoOutputError.
func CheckTruncated(t *testing.T, parsers []core.Parser, name, path string, cuts ...int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	p := ParserNamed(t, parsers, name)
	for _, k := range cuts {
		if k >= len(lines) {
			t.Fatalf("%s has %d lines, cannot cut after %d", path, len(lines), k)
		}
		in := strings.Join(lines[:k], "")
		var c Collect
		err := p.Parse(context.Background(), strings.NewReader(in), core.Options{Source: "cut.txt"}, &c)
		var se *core.SyntaxError
		if !errors.As(err, &se) || se.File != "cut.txt" || se.Line < 1 || se.Line > k+1 {
			t.Errorf("%s cut after line %d: %d runs, error %v, want a syntax error at a line <= %d", path, k, len(c.Runs), err, k+1)
		}
	}
}

// CheckCutBytes cuts a complete output after each of the given byte
// offsets (JSON on one line) and requires a *SyntaxError naming the file.
func CheckCutBytes(t *testing.T, parsers []core.Parser, name, path string, cuts ...int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := ParserNamed(t, parsers, name)
	for _, k := range cuts {
		var c Collect
		err := p.Parse(context.Background(), strings.NewReader(string(b[:k])), core.Options{Source: "cut.json"}, &c)
		var se *core.SyntaxError
		if !errors.As(err, &se) || se.File != "cut.json" || se.Line < 1 {
			t.Errorf("%s cut after byte %d: %d runs, error %v, want a syntax error", path, k, len(c.Runs), err)
		}
	}
}

// PtrString returns *p, or "" for nil.
func PtrString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// CheckContract runs p on data and checks the contract: no panic, errors of
// the documented kinds, runs with indexes in order and finite,
// non-negative numbers, series and samples finite; and the whole parse
// (core.ParseWith over parsers) too.
func CheckContract(t *testing.T, parsers []core.Parser, p core.Parser, data []byte) {
	var c Collect
	err := p.Parse(context.Background(), bytes.NewReader(data), core.Options{Source: "fuzz"}, &c)
	var se *core.SyntaxError
	if err != nil && !errors.As(err, &se) && !errors.Is(err, core.ErrNoOutput) {
		t.Fatalf("%s: unexpected error type %T: %v", p.Name(), err, err)
	}
	for i, r := range c.Runs {
		if r.Index != int32(i) {
			t.Fatalf("run %d has index %d", i, r.Index)
		}
		CheckRun(t, r)
	}
	for _, s := range c.Windows {
		for _, v := range []float64{s.TS, s.WindowS, s.RPS} {
			if !core.Finite(v) {
				t.Fatalf("series %+v", s)
			}
		}
		for _, v := range []*float64{s.LatMeanMs, s.LatP50Ms, s.LatP99Ms, s.LatMaxMs} {
			if v != nil && !core.Finite(*v) {
				t.Fatalf("series %+v", s)
			}
		}
	}
	for _, s := range c.Samples {
		if !core.Finite(s.LatencyMs) || math.IsNaN(s.TS) || math.IsInf(s.TS, 0) {
			t.Fatalf("sample %+v", s)
		}
	}
	p.Detect(data)
	var all Collect
	err = core.ParseWith(context.Background(), parsers, bytes.NewReader(data), core.Options{Source: "fuzz"}, &all)
	if err != nil && !errors.As(err, &se) && !errors.Is(err, core.ErrNoOutput) {
		t.Fatalf("ParseAll: unexpected error type %T: %v", err, err)
	}
	for _, r := range all.Runs {
		CheckRun(t, r)
	}
}
