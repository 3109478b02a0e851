package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/loadverdict/loadverdict/internal/store"
)

// listCounter is a store that counts its List calls.
type listCounter struct {
	store.Store
	lists atomic.Int64
}

func (c *listCounter) List(ctx context.Context, prefix string) ([]store.Object, error) {
	c.lists.Add(1)
	return c.Store.List(ctx, prefix)
}

// wrkRun is a small wrk output whose request rate is rps.
func wrkRun(rps int) string {
	return fmt.Sprintf(`Running 10s test @ http://127.0.0.1:8080/
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.20ms    0.50ms  20.00ms   88.20%%
    Req/Sec    10.00k     1.10k   12.47k    79.51%%
  Latency Distribution
     50%%    1.20ms
     75%%    1.43ms
     90%%    2.95ms
     99%%    9.67ms
  %d requests in 10.00s, 30.50MB read
Requests/sec:  %d.00
Transfer/sec:      3.05MB
`, rps*10, rps)
}

// TestIndexTablesListsOnce: with IndexTables, ingesting n sources lists
// the partition once, not once per source (issue 21: 10,000 local files
// took 834 s, each ingest listing the whole folder), and the index still
// finds what the listing would: a source ingested again at a new version
// keeps only its new generation, also when its old one predates the index.
func TestIndexTablesListsOnce(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{1, 10, 60} {
		s := &listCounter{Store: newStore(t)}
		p := &Pipeline{Store: s}
		// An older generation of src-0, written before the index.
		if _, err := p.IngestSource(ctx, Source{Name: "src-0", Experiment: "e", Body: strings.NewReader(wrkRun(999))}); err != nil {
			t.Fatal(err)
		}
		if err := p.IndexTables(ctx, "e"); err != nil {
			t.Fatal(err)
		}
		before := s.lists.Load()
		for i := range n {
			for round := range 2 { // the second round replaces the first's generation
				body := wrkRun(1000 + i + 100*round)
				if _, err := p.IngestSource(ctx, Source{Name: fmt.Sprintf("src-%d", i), Experiment: "e", Body: strings.NewReader(body)}); err != nil {
					t.Fatal(err)
				}
			}
		}
		if got := s.lists.Load() - before; got != 0 {
			t.Errorf("n=%d: %d listings while ingesting with the index, want 0", n, got)
		}
		// Every source has exactly its committed files.
		for _, tb := range tables {
			objs, err := s.Store.List(ctx, store.TablePrefix(string(tb), "e"))
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]int{}
			for _, o := range objs {
				id, _ := store.SourceIDOfKey(o.Key)
				seen[id]++
			}
			for i := range n {
				name := fmt.Sprintf("src-%d", i)
				c, err := p.Committed(ctx, "e", name)
				if err != nil {
					t.Fatal(err)
				}
				want := 0
				if c.Table(tb) != "" {
					want = 1
				}
				if got := seen[store.SourceID(name)]; got != want {
					t.Errorf("n=%d: %s: %d %s files, want %d (the committed one)", n, name, got, tb, want)
				}
			}
		}
	}
}

// TestListGenerationsWithoutIndex: without IndexTables (the bucket), the
// ingest lists, and an index of another experiment is not used.
func TestListGenerationsWithoutIndex(t *testing.T) {
	ctx := context.Background()
	s := &listCounter{Store: newStore(t)}
	p := &Pipeline{Store: s}
	if err := p.IndexTables(ctx, "other"); err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		before := s.lists.Load()
		if _, err := p.IngestSource(ctx, Source{Name: "a", Experiment: "e", Body: strings.NewReader(wrkRun(1000 + round))}); err != nil {
			t.Fatal(err)
		}
		if s.lists.Load() == before {
			t.Fatal("no listing without an index of the experiment")
		}
	}
	objs, err := s.Store.List(ctx, store.TablePrefix("runs", "e"))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 {
		t.Errorf("%d runs files after two versions, want 1: %v", len(objs), objs)
	}
}

// wrkRuns is n small wrk runs, one after the other.
func wrkRuns(n, rps int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(wrkRun(rps + i))
		b.WriteString("\n")
	}
	return b.String()
}

// TestExperimentRunCap: the run cap is per experiment, the inputs counted
// together (issue 21: four uploads of 49,999 runs each were accepted and
// the analysis took 560 MB): the input that would pass it is rejected with
// a rejection record saying so, the others are analysed; a new version of
// a source counts instead of its old one, not besides it; with the index
// (the command line) as without (the bucket).
func TestExperimentRunCap(t *testing.T) {
	defer func(m int) { maxRuns = m }(maxRuns)
	maxRuns = 10
	ctx := context.Background()
	for _, indexed := range []bool{false, true} {
		t.Run(fmt.Sprint("indexed=", indexed), func(t *testing.T) {
			p := &Pipeline{Store: newStore(t)}
			if indexed {
				if err := p.IndexTables(ctx, "e"); err != nil {
					t.Fatal(err)
				}
			}
			ingest := func(name string, runs, rps int) error {
				_, err := p.IngestSource(ctx, Source{Name: name, Experiment: "e", Body: strings.NewReader(wrkRuns(runs, rps))})
				return err
			}
			for i, name := range []string{"a", "b"} {
				if err := ingest(name, 4, 1000*(i+1)); err != nil {
					t.Fatal(err)
				}
			}
			// Alone within the cap, together past it.
			err := ingest("c", 4, 3000)
			var re *RejectedError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), "would bring experiment e to 12 runs (its other inputs hold 8): loadverdict analyses at most 10 runs of one experiment") {
				t.Fatalf("third input of 4 runs: %v, want rejected for the experiment's cap", err)
			}
			b, _, err := store.ReadAll(ctx, p.Store, store.RejectedKey("e", "c"))
			if err != nil || !strings.Contains(string(b), "at most 10 runs of one experiment") {
				t.Errorf("rejection record of c: %s, %v", b, err)
			}
			// A new version of a replaces its runs: 2 + 4 (b) + 4 (c) fit.
			if err := ingest("a", 2, 5000); err != nil {
				t.Fatal(err)
			}
			if err := ingest("c", 4, 3000); err != nil {
				t.Errorf("c again after a shrank to 2 runs: %v, want accepted (10 runs)", err)
			}
			rep, err := p.Report(ctx, Request{Experiment: "e"})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict == nil || len(rep.Verdict.Runs) != 10 {
				t.Errorf("report: %+v, want 10 runs analysed", rep.Verdict)
			}
		})
	}
}

// TestExperimentRunCapAnalysis: sources committed by concurrent ingests,
// each within the cap alone, together past it: the analysis reads no
// more than the cap and lists the sources left out as rejected, saying
// why.
func TestExperimentRunCapAnalysis(t *testing.T) {
	defer func(m int) { maxRuns = m }(maxRuns)
	ctx := context.Background()
	p := &Pipeline{Store: newStore(t)}
	for i, name := range []string{"a", "b", "c"} {
		if _, err := p.IngestSource(ctx, Source{Name: name, Experiment: "e", Body: strings.NewReader(wrkRuns(4, 1000*(i+1)))}); err != nil {
			t.Fatal(err)
		}
	}
	maxRuns = 10 // as if each ingest had seen only its own runs
	rep, err := p.Report(ctx, Request{Experiment: "e"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict == nil || len(rep.Verdict.Runs) != 8 {
		t.Fatalf("report: %+v, want 8 runs analysed", rep.Verdict)
	}
	var md string
	for _, f := range rep.Files {
		if f.Name == "report.md" {
			md = string(f.Data)
		}
	}
	if !strings.Contains(md, "at most 10 runs of one experiment") {
		t.Errorf("report.md does not say why a source was left out:\n%s", md)
	}
}

// TestNoRunsReportRemovesFigures: in the bucket, when the only upload
// becomes unreadable, the experiment's report is the no-runs report and
// the earlier report's figures are removed (issue 21: nothing stale).
func TestNoRunsReportRemovesFigures(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s}
	key := "raw/e/a.txt"
	for i, body := range []string{wrkRuns(3, 1000), "garbage\n"} {
		if err := s.Put(ctx, key, strings.NewReader(body)); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Ingest(ctx, key); err != nil && (i == 0 || !errors.Is(err, ErrRejected)) {
			t.Fatal(err)
		}
		if _, err := p.Analyze(ctx, "e"); err != nil {
			t.Fatal(err)
		}
		figs, err := s.List(ctx, store.ReportKey("e", "throughput."))
		if err != nil {
			t.Fatal(err)
		}
		if want := 1 - i; len(figs) != want {
			t.Errorf("round %d: %d throughput figures, want %d", i, len(figs), want)
		}
	}
	b, _, err := store.ReadAll(ctx, s, store.ReportKey("e", "summary.json"))
	if err != nil || !strings.Contains(string(b), "No runs could be read") {
		t.Errorf("summary.json after the upload became unreadable: %s, %v", b, err)
	}
}
