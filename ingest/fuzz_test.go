package ingest

import (
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
