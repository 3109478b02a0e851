package ingest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// maxSeed caps a fuzz seed. A fuzz target parses one input per execution;
// seeds as big as the golden inputs make every execution, and every
// mutation, slow, so that a fuzz run of a few seconds executes a few
// dozen inputs and checks almost nothing. Seeds are the test inputs,
// decompressed and cut to at most maxSeed bytes (at a line end when there
// is one), and short hand-written inputs.
const maxSeed = 8 << 10

// cutSeed cuts b to at most maxSeed bytes, at a line end when there is
// one in its second half.
func cutSeed(b []byte) []byte {
	if len(b) <= maxSeed {
		return b
	}
	b = b[:maxSeed]
	if i := bytes.LastIndexByte(b, '\n'); i >= maxSeed/2 {
		b = b[:i+1]
	}
	return b
}

// fuzzSeeds adds the parser inputs matching the globs (not goldens, notes
// or scripts), decompressed and cut by cutSeed, to f's seed corpus.
func fuzzSeeds(f *testing.F, globs ...string) {
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
			f.Add(cutSeed(readPlain(f, name)))
		}
	}
}

// TestFuzzCorpusSmall: the seeds kept under testdata/fuzz (crashers found
// by fuzzing, cut down) are no bigger than maxSeed either.
func TestFuzzCorpusSmall(t *testing.T) {
	files, _ := filepath.Glob("testdata/fuzz/*/*")
	if len(files) == 0 {
		t.Fatal("no corpus files")
	}
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
		if len(v) > maxSeed {
			t.Errorf("%s: a seed of %d bytes (at most %d)", name, len(v), maxSeed)
		}
	}
}

// FuzzWrk checks that no input makes the wrk parser panic, that its errors
// are *SyntaxError or *NoOutputError, and that every run it emits holds only
// finite, non-negative numbers.
func FuzzWrk(f *testing.F) {
	fuzzSeeds(f, "testdata/wrk/*", "testdata/wrk2/*")
	var wrk core.Parser
	for _, p := range Parsers() {
		if p.Name() == "wrk" {
			wrk = p
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(err error, runs []results.RunWithPercentiles) {
			var se *core.SyntaxError
			if err != nil && !errors.As(err, &se) && !errors.Is(err, core.ErrNoOutput) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			for i, r := range runs {
				if r.Index != int32(i) {
					t.Fatalf("run %d has index %d", i, r.Index)
				}
				checkRun(t, r)
			}
		}
		opts := core.Options{Source: "fuzz"}
		runs, err := ParseAll(context.Background(), bytes.NewReader(data), opts)
		check(err, runs)
		// The parser itself, without detection in front.
		runs = runs[:0]
		err = wrk.Parse(context.Background(), bytes.NewReader(data), opts, core.RunFunc(func(r results.RunWithPercentiles) error {
			runs = append(runs, r)
			return nil
		}))
		check(err, runs)
		wrk.Detect(data)
	})
}
