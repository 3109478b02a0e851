package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/store"
)

// TestReadManifestBounded: the store's manifest and the command line's are
// read up to the bound, not whole, and a larger one is a *ManifestError
// (an input fault: the experiment's rejection record).
func TestReadManifestBounded(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	key := "raw/big/loadverdict.yaml"
	if err := s.Put(ctx, key, strings.NewReader("# "+strings.Repeat("x", 2*experiment.MaxManifestBytes)+"\n")); err != nil {
		t.Fatal(err)
	}
	_, _, err := ReadManifest(ctx, s, key)
	var me *experiment.ManifestError
	if !errors.As(err, &me) || !IsInputFault(err) {
		t.Fatalf("a manifest of 512 KiB: %v, want a *ManifestError", err)
	}
	// In a bucket it is the manifest's rejection record, and the
	// experiment is analysed without it.
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	upload(t, s, "raw/big/w5.txt", "../../ingest/wrk/testdata/wrk/wrk_05.txt")
	if _, err := p.Ingest(ctx, "raw/big/w5.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Analyze(ctx, "big"); err != nil {
		t.Fatal(err)
	}
	if rec, _, err := store.ReadAll(ctx, s, store.RejectedKey("big", key)); err != nil || !strings.Contains(string(rec), "larger than 256 KiB") {
		t.Errorf("the manifest's rejection record: %s %v", rec, err)
	}
	if _, err := s.Head(ctx, "reports/big/summary.json"); err != nil {
		t.Errorf("no report without the manifest: %v", err)
	}
	if err := s.Put(ctx, key, strings.NewReader("baseline: a\n")); err != nil {
		t.Fatal(err)
	}
	if b, _, err := ReadManifest(ctx, s, key); err != nil || string(b) != "baseline: a\n" {
		t.Fatalf("a small manifest: %q %v", b, err)
	}
	if _, _, err := ReadManifest(ctx, s, "raw/none/loadverdict.yaml"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no manifest: %v", err)
	}
}

// TestManifestOrderMatchesNothing: an order: entry that names no input
// is a *NameError (exit 2, a rejection record in a bucket) listing the
// inputs, as a system's pattern that matches nothing is.
func TestManifestOrderMatchesNothing(t *testing.T) {
	p := namesStore(t)
	ctx := context.Background()
	m := namesManifest(t, "order: [b/w5.txt, nomatch]\n")
	_, err := p.Report(ctx, Request{Experiment: "names", Manifest: m})
	var ne *experiment.NameError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), `the manifest's order: nomatch matched no input (the inputs are: b/w5.txt, a/seed.txt)`) {
		t.Fatalf("order: [nomatch]: %v", err)
	}
	if _, err := p.Report(ctx, Request{Experiment: "names", Manifest: namesManifest(t, "order: [b/w5.txt, raw/names/a/seed.txt]\n")}); err != nil {
		t.Fatalf("order naming both inputs: %v", err)
	}
}
