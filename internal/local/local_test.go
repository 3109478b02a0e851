package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
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

// TestFilesInputs: a folder stands for the files below it in lexical
// order, hidden ones left out, its top loadverdict.yaml a manifest (one
// deeper is neither); a file named twice is read once; a system's or a
// merge group's path must hold files; mistakes are *ArgErrors.
func TestFilesInputs(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.txt", "d/b.txt", "d/.hidden", "d/.git/x.txt", "d/loadverdict.yaml", "d/sub/c.txt", "d/sub/loadverdict.yaml", "e/f.txt"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := func(s string) string { return filepath.Join(dir, filepath.FromSlash(s)) }
	got, err := Files{Paths: []string{in("d"), in("a.txt"), in("d/b.txt"), "-"},
		Systems: Systems{{Name: "e", Path: in("e")}}, Merges: Groups{{in("a.txt"), in("e/f.txt")}}}.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{in("d/b.txt"), in("d/sub/c.txt"), in("a.txt"), "-", in("e/f.txt")}
	if !reflect.DeepEqual(got.Files, want) || !reflect.DeepEqual(got.Manifests, []string{in("d/loadverdict.yaml")}) {
		t.Errorf("files %v, manifests %v; want %v and d's manifest", got.Files, got.Manifests, want)
	}
	if len(got.Rules) != 1 || !reflect.DeepEqual(got.Rules[0].Sources, []string{in("e/f.txt")}) || len(got.Merges) != 1 || len(got.Merges[0].Sources) != 2 {
		t.Errorf("rules %+v, merges %+v", got.Rules, got.Merges)
	}
	for _, f := range []Files{
		{Paths: []string{"-", "-"}},
		{Systems: Systems{{Name: "x", Path: in("nosuch")}}},
		{Systems: Systems{{Name: "x", Path: "-"}}},
		{Merges: Groups{{in("a.txt")}}},
	} {
		var ae *ArgError
		if _, err := f.Inputs(); !errors.As(err, &ae) {
			t.Errorf("%+v: %v, want an *ArgError", f, err)
		}
	}
	if _, err := LoadManifest("", []string{in("d/loadverdict.yaml"), in("d/sub/loadverdict.yaml")}); err == nil {
		t.Error("two manifests found: no error")
	}
}
