package pipeline

import (
	"context"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results"
)

// readsStore records the keys read (Get) of a store.
type readsStore struct {
	store.Store
	mu     sync.Mutex
	gets   []string
	stream bool // bodies as an object store's: no *store.File to read in place
}

func (s *readsStore) Get(ctx context.Context, key string) (io.ReadCloser, store.Object, error) {
	s.mu.Lock()
	s.gets = append(s.gets, key)
	s.mu.Unlock()
	rc, obj, err := s.Store.Get(ctx, key)
	if s.stream && err == nil {
		rc = struct{ io.ReadCloser }{rc}
	}
	return rc, obj, err
}

// tableReads returns the table files read since the last call.
func (s *readsStore) tableReads() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, k := range s.gets {
		if strings.HasPrefix(k, store.TablesPrefix) && strings.HasSuffix(k, ".parquet") {
			out = append(out, k)
		}
	}
	s.gets = nil
	return out
}

// ingestFolder ingests every file under dir (but notes and reports) as
// the command line does: the path its source's name, read once.
func ingestFolder(t *testing.T, p *Pipeline, exp, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		base := d.Name()
		if strings.HasSuffix(base, ".md") || strings.HasSuffix(base, ".txt") && strings.Contains(base, "report") || base == "meta.txt" || base == "server.log" || strings.HasSuffix(base, "report.json") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if _, err := p.IngestSource(context.Background(), Source{Name: path, Experiment: exp, Body: f, WindowS: 1}); err != nil && !IsInputFault(err) {
			return err
		}
		names = append(names, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// TestParsedSameAsTables: an experiment analysed from what the command line
// parsed (Parsed) is the one analysed from its tables read back: the same
// verdict, runs, percentiles, series, error and pause tallies and report
// metadata, and no table file is read for it but a merged run's parts'
// samples (their times are shifted); with the samples past the bound, they
// are read from their tables, and the analysis is the same again.
func TestParsedSameAsTables(t *testing.T) {
	truth := "../../testdata/truth/"
	cases := []struct {
		name, dir string
		merge     []string // sources merged, under dir
		max       int      // heldMax; 0 for ParsedSamplesMax
		stream    bool     // tables read as an object store's bodies
		inMemory  int64    // samplesInMemory; 0 for SamplesInMemory
	}{
		{name: "errors-breakdown", dir: "errors-breakdown", merge: []string{"merged/m1.json.gz", "merged/m2.json.gz"}},
		{name: "error-bursts", dir: "error-bursts"},
		{name: "periodic-pauses", dir: "periodic-pauses"},
		{name: "endpoints", dir: "endpoints"},
		{name: "merge-vegeta", dir: "merge-vegeta/parts-json", merge: []string{"attack-a.json.gz", "attack-b.json.gz", "attack-c.json.gz"}},
		{name: "past-the-bound", dir: "error-bursts", max: 1000},
		{name: "past-the-bound-streamed-in-memory", dir: "error-bursts", max: 1000, stream: true},
		{name: "past-the-bound-streamed-to-temp", dir: "error-bursts", max: 1000, stream: true, inMemory: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.max > 0 {
				old := heldMax
				heldMax = c.max
				defer func() { heldMax = old }()
			}
			if c.inMemory > 0 {
				old := samplesInMemory
				samplesInMemory = c.inMemory
				defer func() { samplesInMemory = old }()
			}
			s := &readsStore{Store: newStore(t)}
			tmp := t.TempDir()
			held := &Pipeline{Store: s, GeneratedBy: "test", TempDir: tmp, Parsed: &Parsed{Samples: true}}
			ingestFolder(t, held, "x", truth+c.dir)
			req := Request{Experiment: "x"}
			var parts []string
			for _, m := range c.merge {
				parts = append(parts, store.TableKey("samples", "x", truth+c.dir+"/"+m, ""))
			}
			if len(c.merge) > 0 {
				var srcs []string
				for _, m := range c.merge {
					srcs = append(srcs, truth+c.dir+"/"+m)
				}
				req.Overrides.Merge = []experiment.MergeRule{{Sources: srcs, Flag: "--merge"}}
			}
			in := map[string]string{}
			if err := held.listInputs(context.Background(), "x", false, in); err != nil {
				t.Fatal(err)
			}
			s.tableReads()
			s.stream = c.stream
			v1, set1, meta1, err := held.verdict(context.Background(), req, in)
			if err != nil {
				t.Fatal(err)
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("temporary files left in TempDir: %v", left)
			}
			for _, k := range s.tableReads() {
				isPart := false
				for _, pre := range parts {
					// A part's samples table: its key less the generation.
					isPart = isPart || strings.HasPrefix(k, strings.TrimSuffix(pre, "-.parquet"))
				}
				if !isPart && (c.max == 0 || !strings.HasPrefix(k, store.TablesPrefix+"samples/")) {
					t.Errorf("analysis from memory read %s", k)
				}
			}
			if len(set1.Pauses) == 0 || len(c.merge) > 0 && len(meta1.Parts) == 0 {
				t.Fatal("no run with samples, or none merged: the case tests nothing")
			}
			if held := len(held.Parsed.samples) > 0; held != (c.max == 0) {
				t.Errorf("samples held: %v", held)
			}
			fresh := &Pipeline{Store: s.Store, GeneratedBy: "test"}
			v2, set2, meta2, err := fresh.verdict(context.Background(), req, in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(set1, set2) {
				t.Errorf("sets differ:\nheld   %+v\ntables %+v", set1, set2)
			}
			if !reflect.DeepEqual(meta1, meta2) {
				t.Errorf("meta differs:\nheld   %+v\ntables %+v", meta1, meta2)
			}
			if !reflect.DeepEqual(v1, v2) {
				t.Errorf("verdicts differ")
			}
		})
	}
}

// TestParsedSamplesTally: the error and pause tallies fed the held form of
// samples (successful ones as float32 with status 200) are the tallies of
// the samples themselves, whatever their mix of statuses, errors (empty
// ones too) and runs interleaved.
func TestParsedSamplesTally(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 33))
	http := int64(0)
	runs := []results.Run{{RunID: "a", Errors: 1, Non2xx: &http}, {RunID: "b", Errors: 1}, {RunID: "c", Errors: 1, Non2xx: &http}}
	statuses := []int32{200, 200, 200, 204, 302, 399, 0, 101, 199, 400, 404, 500, 503}
	errs := []string{"", "read tcp 127.0.0.1:41234->127.0.0.1:80: connection reset", "timeout", "500 Internal Server Error"}
	var samples []results.Sample
	for i := range 20000 {
		x := results.Sample{RunID: runs[r.IntN(len(runs))].RunID, TS: float64(i)*0.0137 + r.Float64()*1e-3, LatencyMs: r.ExpFloat64() * 3.1,
			Status: statuses[r.IntN(len(statuses))], BytesIn: int64(r.IntN(900))}
		if r.IntN(10) == 0 {
			e := errs[r.IntN(len(errs))]
			x.Error = &e
		}
		if i%997 == 0 { // a pause: latencies held up
			x.LatencyMs += 800
		}
		samples = append(samples, x)
	}
	defer func(b int) { okBlock = b }(okBlock)
	okBlock = 100 // many blocks per run
	h := &heldSamples{budget: heldMax, byID: map[string]*heldRun{}}
	for _, x := range samples {
		h.add(x)
	}
	tally := func(scan func(func(results.Sample) error) error) ([]analyze.RunErrors, []analyze.RunPauses) {
		var es []*analyze.ErrorTally
		var ps []*analyze.PauseTally
		for _, run := range runs {
			es, ps = append(es, analyze.NewErrorTally(run)), append(ps, analyze.NewPauseTally(run))
		}
		_ = scan(func(x results.Sample) error {
			for i := range runs {
				if runs[i].RunID == x.RunID {
					es[i].Add(x)
					ps[i].Add(x)
				}
			}
			return nil
		})
		var eo []analyze.RunErrors
		var po []analyze.RunPauses
		for i := range runs {
			eo, po = append(eo, es[i].Result()), append(po, ps[i].Result())
		}
		return eo, po
	}
	e1, p1 := tally(func(fn func(results.Sample) error) error {
		for _, x := range samples {
			if err := fn(x); err != nil {
				return err
			}
		}
		return nil
	})
	e2, p2 := tally(h.scan)
	if !reflect.DeepEqual(e1, e2) {
		t.Errorf("error tallies differ:\nsamples %+v\nheld    %+v", e1, e2)
	}
	if !reflect.DeepEqual(p1, p2) {
		t.Errorf("pause tallies differ:\nsamples %+v\nheld    %+v", p1, p2)
	}
	if len(e1[0].Causes) == 0 || p1[0].Requests == 0 {
		t.Fatal("no error or no successful request: the test tests nothing")
	}
	// Past its budget, nothing is held.
	small := &heldSamples{budget: 100, byID: map[string]*heldRun{}}
	for _, x := range samples[:100] {
		small.add(x)
	}
	if !small.dropped || small.runs != nil {
		t.Errorf("samples past the budget still held: %d runs", len(small.runs))
	}
}
