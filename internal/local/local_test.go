package local

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
)

// listings is a store that records the prefixes it lists.
type listings struct {
	store.Store
	mu       sync.Mutex
	prefixes map[string]int
}

func (l *listings) List(ctx context.Context, prefix string) ([]store.Object, error) {
	l.mu.Lock()
	l.prefixes[prefix]++
	l.mu.Unlock()
	return l.Store.List(ctx, prefix)
}

// TestManyFilesListOnce: the command line's ingest of n files lists the
// experiment's partition a fixed number of times, not once per file
// (issue 21: each ingest listed the whole folder, so 10,000 files took
// 834 s; scripts/perf/manyfiles.sh times it).
func TestManyFilesListOnce(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run, err := os.ReadFile("../../ingest/wrk/testdata/wrk/real-latency-ok.txt")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for i := range 40 {
		f := filepath.Join(dir, fmt.Sprintf("run%02d.txt", i))
		if err := os.WriteFile(f, run, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	r := &Runner{Window: time.Second, Stderr: io.Discard}
	for _, n := range []int{1, 10, 40} {
		st, err := store.NewLocal(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		l := &listings{Store: st, prefixes: map[string]int{}}
		p := &pipeline.Pipeline{Store: l}
		for range 2 { // the second time, every file replaces its own tables
			if _, rejected, err := r.ingestFiles(ctx, p, "many", files[:n]); err != nil || rejected != 0 {
				t.Fatalf("n=%d: %v, %d rejected", n, err, rejected)
			}
		}
		if len(l.prefixes) > 5 {
			t.Errorf("n=%d: %d prefixes listed, want at most 5 (commit records and 4 tables): %v", n, len(l.prefixes), l.prefixes)
		}
		for pre, got := range l.prefixes {
			if got > 2 {
				t.Errorf("n=%d files ingested twice: %s listed %d times, want at most once per ingestFiles", n, pre, got)
			}
		}
	}
}
