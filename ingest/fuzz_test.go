package ingest

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// maxSeed caps a fuzz seed (ingesttest.MaxSeed).
const maxSeed = ingesttest.MaxSeed

// fuzzSeeds adds the parser inputs matching the globs to f's seed corpus.
func fuzzSeeds(f *testing.F, globs ...string) {
	f.Helper()
	ingesttest.FuzzSeeds(f, globs...)
}

// TestFuzzCorpusSmall: the seeds kept under testdata/fuzz are no bigger
// than maxSeed either.
func TestFuzzCorpusSmall(t *testing.T) { ingesttest.CorpusSmall(t) }

// FuzzParse fuzzes the whole of Parse, detection over every format
// included (each tool's fuzz targets parse with its own formats alone):
// no input makes it panic, every error is about the input (the reader
// cannot fail), and every run it emits is in order and keeps the run
// invariants.
func FuzzParse(f *testing.F) {
	fuzzSeeds(f, "*/testdata/*/*.txt", "testdata/notwrk/*.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		var c collect
		err := Parse(context.Background(), bytes.NewReader(data), Options{Source: "fuzz"}, &c)
		if err != nil && !errors.Is(err, ErrInput) {
			t.Fatalf("not an input error: %T %v", err, err)
		}
		for i, r := range c.Runs {
			if r.Index != int32(i) {
				t.Fatalf("run %d has index %d", i, r.Index)
			}
			checkRun(t, r)
		}
	})
}
