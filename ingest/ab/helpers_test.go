package ab

import (
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// parsers are this package's formats, in the order of ingest's list.
var parsers = []core.Parser{Parser{}, GnuplotParser{}, CSVParser{}}

// parse is ingest.Parse with this package's formats alone: no sample of
// theirs is detected as another format (TestDetectUnique in package
// ingest), so it parses every sample as ingest.Parse does.
var parse = ingesttest.ParseWith(parsers)

// TestGolden compares what every sample under testdata/ parses to with its
// golden file (`go test ./ingest/ab -update` rewrites them).
func TestGolden(t *testing.T) { ingesttest.Golden(t, parse, "testdata/ab") }

// TestFuzzCorpusSmall: the seeds kept under testdata/fuzz are small.
func TestFuzzCorpusSmall(t *testing.T) { ingesttest.CorpusSmall(t) }
