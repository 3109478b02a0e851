package vegeta

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/results"
)

// parsers are this package's formats, in the order of ingest's list.
var parsers = []core.Parser{TextParser{}, ReportJSONParser{}, HdrplotParser{},
	ResultsParser{Enc: JSON}, ResultsParser{Enc: CSV}, ResultsParser{Enc: Gob}}

// parse is ingest.Parse with this package's formats alone: no sample of
// theirs is detected as another format (TestDetectUnique in package
// ingest), so it parses every sample as ingest.Parse does.
var parse = ingesttest.ParseWith(parsers)

// parseAll is parse collecting the runs.
func parseAll(ctx context.Context, r io.Reader, opts core.Options) ([]results.RunWithPercentiles, error) {
	return ingesttest.ParseAll(ctx, parse, r, opts)
}

// TestGolden compares what every sample under testdata/ parses to with its
// golden file (`go test ./ingest/vegeta -update` rewrites them).
func TestGolden(t *testing.T) { ingesttest.Golden(t, parse, "testdata/vegeta") }

// TestFuzzCorpusSmall: the seeds kept under testdata/fuzz are small.
func TestFuzzCorpusSmall(t *testing.T) { ingesttest.CorpusSmall(t) }

// sampleDirs lists the folders of samples: this package's, and (to check
// that no other tool's output is claimed) ingest's and every other tool
// package's.
func sampleDirs() []string {
	here, _ := filepath.Glob("testdata/*")
	top, _ := filepath.Glob("../testdata/*")
	tools, _ := filepath.Glob("../*/testdata/*")
	dirs := append(here, top...)
	for _, d := range tools {
		if !strings.HasPrefix(d, "../vegeta/") {
			dirs = append(dirs, d)
		}
	}
	return dirs
}
