package report_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

// findingCases are real inputs under testdata/truth (scripts/truth) that
// raise the findings no example shows, each analysed alone with the
// default options; their summary.json is a golden under
// testdata/findings/, which TestFindingCodes reads.
var findingCases = []struct{ name, path string }{
	{"contradictory", "contradictory/wrk"},
	{"outlier-round", "outlier-rounds/wrk6-d50-r4"},
	{"periodic-pauses", "periodic-pauses/p1s-r300.json.gz"},
	{"periodic-stalls", "stalls-family/p1-vegeta/run.json.gz"},
	{"unstable", "stalls-family/p2-hey/run.csv.gz"},
	{"stall", "stalls-family/s1-vegeta/run.json.gz"},
	{"leak-rounds", "leak-rounds/wrk8"},
	{"slower-run", "slower-run/drop30"},
	{"split-run", "merge-vegeta/parts-json"},
}

// truthSink collects a parse's runs, percentiles, series and samples.
type truthSink struct {
	set     *analyze.Set
	samples map[string][]results.Sample
}

func (s truthSink) Run(r results.RunWithPercentiles) error {
	s.set.Runs = append(s.set.Runs, r.Run)
	s.set.Percentiles = append(s.set.Percentiles, r.Percentiles...)
	return nil
}
func (s truthSink) Sample(x results.Sample) error {
	s.samples[x.RunID] = append(s.samples[x.RunID], x)
	return nil
}
func (s truthSink) Series(r results.Series) error { s.set.Series = append(s.set.Series, r); return nil }

// truthSet reads a file, or a folder's files in name order, under
// testdata/truth into one experiment: runs numbered in the order read,
// each run's samples tallied for pauses.
func truthSet(t *testing.T, path string) analyze.Set {
	t.Helper()
	full := filepath.Join("..", "testdata", "truth", path)
	files, err := filepath.Glob(filepath.Join(full, "*"))
	if err != nil || len(files) == 0 {
		files = []string{full}
	}
	set := analyze.Set{Experiment: "truth"}
	sink := truthSink{&set, map[string][]results.Sample{}}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		err = ingest.Parse(context.Background(), fh, ingest.Options{Source: filepath.ToSlash(f[len(filepath.Join("..", "testdata"))+1:]), Experiment: "truth"}, sink)
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	for i := range set.Runs {
		set.Runs[i].Seq = int32(i)
		if xs := sink.samples[set.Runs[i].RunID]; len(xs) > 0 {
			tally := analyze.NewPauseTally(set.Runs[i])
			for _, x := range xs {
				tally.Add(x)
			}
			set.Pauses = append(set.Pauses, tally.Result())
		}
	}
	return set
}

// TestFindingGoldens: the summary.json of each of findingCases is its
// golden file (run with -update to rewrite it).
func TestFindingGoldens(t *testing.T) {
	for _, c := range findingCases {
		t.Run(c.name, func(t *testing.T) {
			v, err := analyze.Analyze(truthSet(t, c.path), analyze.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := report.JSONMeta(&buf, v, report.Meta{GeneratedBy: "loadverdict test"}); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", "findings", c.name+".golden.json"), buf.Bytes())
		})
	}
}
