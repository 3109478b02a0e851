package ingest

import (
	"bytes"
	"context"
	"errors"
	"os"
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
	// Issue 30: bzip2 read, other compressions refused, time stamps out of
	// range named.
	if bz, err := os.ReadFile("testdata/compressed/seed.txt.bz2"); err == nil {
		f.Add(bz)
	}
	f.Add([]byte("\xfd7zXZ\x00\x00\x04"))
	f.Add([]byte("\x04\x22\x4d\x18\x64\x40"))
	f.Add([]byte(`{"attack":"a","seq":0,"code":200,"timestamp":"1960-01-01T00:00:00Z","latency":5000000,"bytes_out":0,"bytes_in":0,"error":"","body":null,"method":"GET","url":"http://h:8080/x","headers":null}` + "\n"))
	f.Add([]byte("-99999999999999999999,200,5000000,0,0,,,a,0,GET,http://h/x,\n"))
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
