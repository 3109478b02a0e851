package jmeter

import (
	"context"
	"io"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/results"
)

// parsers are this package's formats, in the order of ingest's list.
var parsers = []core.Parser{CSVParser{}, XMLParser{}, BareCSVParser{}}

// parse is ingest.Parse with this package's formats alone: no sample of
// theirs is detected as another format (TestDetectUnique in package
// ingest), so it parses every sample as ingest.Parse does.
func parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	return core.ParseWith(ctx, parsers, r, opts, sink)
}

// parseAll is parse collecting the runs.
func parseAll(ctx context.Context, r io.Reader, opts core.Options) ([]results.RunWithPercentiles, error) {
	var runs []results.RunWithPercentiles
	err := parse(ctx, r, opts, core.RunFunc(func(run results.RunWithPercentiles) error {
		runs = append(runs, run)
		return nil
	}))
	return runs, err
}

// TestGolden compares what every sample under testdata/ parses to with its
// golden file (`go test ./ingest/jmeter -update` rewrites them).
func TestGolden(t *testing.T) { ingesttest.Golden(t, parse, "testdata/jmeter") }

// TestFuzzCorpusSmall: the seeds kept under testdata/fuzz are small.
func TestFuzzCorpusSmall(t *testing.T) { ingesttest.CorpusSmall(t) }
