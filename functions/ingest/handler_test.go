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
	"github.com/loadverdict/loadverdict/results/columnar"
)

// The handler decodes the real event of events/s3-put.json (two uploads,
// the second key URL-encoded with '+' for spaces), ingests both into a
// local store and analyses their experiment once.
func TestHandleS3Event(t *testing.T) {
	root := t.TempDir()
	seed, err := os.ReadFile("../../examples/zuul-vs-openresty.txt")
	if err != nil {
		t.Fatal(err)
	}
	run2, err := os.ReadFile("../../ingest/wrk/testdata/wrk/wrk_09.txt")
	if err != nil {
		t.Fatal(err)
	}
	for key, b := range map[string][]byte{"raw/zuul-vs-openresty/seed.txt": seed, "raw/zuul-vs-openresty/openresty run 2.txt": run2} {
		p := filepath.Join(root, filepath.FromSlash(key))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.NewLocal(root)
	if err != nil {
		t.Fatal(err)
	}
	h := &handler{p: &pipeline.Pipeline{Store: st, GeneratedBy: "test"}, bucket: "loadverdict-results",
		log: slog.New(slog.NewJSONHandler(io.Discard, nil))}
	ev, err := os.ReadFile("../../events/s3-put.json")
	if err != nil {
		t.Fatal(err)
	}
	out, err := lambda.NewHandler(h.handle).Invoke(context.Background(), ev)
	if err != nil {
		t.Fatalf("invoke: %v (%s)", err, out)
	}
	c, err := h.p.Committed(context.Background(), "zuul-vs-openresty", "raw/zuul-vs-openresty/openresty run 2.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{c.Table(columnar.TableRuns), "reports/zuul-vs-openresty/report.md", "reports/zuul-vs-openresty/summary.json"} {
		if _, err := st.Head(context.Background(), k); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
	// An event of another bucket is ignored; a configuration error is returned.
	other := strings.ReplaceAll(string(ev), "loadverdict-results", "someone-else")
	if _, err := lambda.NewHandler(h.handle).Invoke(context.Background(), []byte(other)); err != nil {
		t.Errorf("other bucket: %v", err)
	}
	bad, _ := newHandler(context.Background(), "", "", "", h.log)
	if _, err := lambda.NewHandler(bad.handle).Invoke(context.Background(), ev); err == nil {
		t.Error("no error without LOADVERDICT_BUCKET")
	}
}
