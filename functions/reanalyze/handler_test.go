package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
)

// The schedule's event re-makes only stale reports; an experiment event
// re-makes that one.
func TestHandleSchedule(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	key := "raw/zuul-vs-openresty/seed.txt"
	seed, _ := os.ReadFile("../../examples/zuul-vs-openresty.txt")
	os.MkdirAll(filepath.Join(root, "raw", "zuul-vs-openresty"), 0o755)
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(key)), seed, 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ := store.NewLocal(root)
	p := &pipeline.Pipeline{Store: st, GeneratedBy: "test"}
	if _, err := p.Ingest(ctx, key); err != nil {
		t.Fatal(err)
	}
	h := &handler{p: p, log: slog.New(slog.NewJSONHandler(io.Discard, nil))}
	invoke := func(file string) string {
		ev, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out, err := lambda.NewHandler(h.handle).Invoke(ctx, ev)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return string(out)
	}
	if out := invoke("../../events/schedule.json"); !strings.Contains(out, `"analyzed":["zuul-vs-openresty"]`) {
		t.Errorf("first schedule (report missing): %s", out)
	}
	if out := invoke("../../events/schedule.json"); !strings.Contains(out, `"analyzed":[]`) {
		t.Errorf("second schedule (report fresh): %s", out)
	}
	if out := invoke("../../events/reanalyze-experiment.json"); !strings.Contains(out, `"analyzed":["zuul-vs-openresty"]`) {
		t.Errorf("experiment event: %s", out)
	}
	if _, err := lambda.NewHandler(h.handle).Invoke(ctx, []byte(`{"experiment": "../etc"}`)); err == nil {
		t.Error("invalid experiment accepted")
	}
}
