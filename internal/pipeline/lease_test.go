package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/internal/store"
)

// TestAnalyzeLease: an analysis yields to a live holder of the lease and
// writes nothing; it takes over a lapsed one; it lets go when it is done.
func TestAnalyzeLease(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	upload(t, s, "raw/l/a.txt", wrkDir+"wrk_02.txt")
	if _, err := p.Ingest(ctx, "raw/l/a.txt"); err != nil {
		t.Fatal(err)
	}
	hold := func(expires time.Time) {
		b, _ := json.Marshal(leaseRecord{Owner: "another", Expires: expires})
		if err := s.Put(ctx, store.LeaseKey("l"), strings.NewReader(string(b))); err != nil {
			t.Fatal(err)
		}
	}
	// Live for an hour: far beyond this analysis, however busy the machine.
	hold(time.Now().Add(time.Hour))
	if h, err := p.Analyze(ctx, "l"); err != nil || h != YieldedHeadline {
		t.Fatalf("held by another: %q %v", h, err)
	}
	if _, err := s.Head(ctx, store.ReportKey("l", "report.md")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a yielding analysis wrote the report: %v", err)
	}
	hold(time.Now().Add(-time.Hour))
	if h, err := p.Analyze(ctx, "l"); err != nil || h == YieldedHeadline {
		t.Fatalf("lapsed lease not taken over: %q %v", h, err)
	}
	if stale, err := p.Stale(ctx, "l"); err != nil || stale {
		t.Fatalf("stale %v %v", stale, err)
	}
	b, _, err := store.ReadAll(ctx, s, store.LeaseKey("l"))
	var r leaseRecord
	if err != nil || json.Unmarshal(b, &r) != nil || r != (leaseRecord{}) {
		t.Fatalf("lease not let go: %s %v", b, err)
	}
}

// churnStore makes an experiment's inputs change at every listing: a
// commit record with a new ETag each time.
type churnStore struct {
	store.Store
	n atomic.Int64
}

func (c *churnStore) List(ctx context.Context, prefix string) ([]store.Object, error) {
	objs, err := c.Store.List(ctx, prefix)
	if err == nil && prefix == store.CommitPrefixOf("l") {
		objs = append(objs, store.Object{Key: prefix + "zz-churn.json", ETag: fmt.Sprint(c.n.Add(1))})
	}
	return objs, err
}

// TestAnalyzeBounded: inputs that never stop changing make Analyze give
// up after maxAnalyzeRounds analyses with ErrBusy (an infrastructure
// error: retried), letting go of the lease.
func TestAnalyzeBounded(t *testing.T) {
	untimed(t) // the bound met is the count of analyses, whatever the machine's speed
	defer func(n int) { maxAnalyzeRounds = n }(maxAnalyzeRounds)
	maxAnalyzeRounds = 3
	ctx := context.Background()
	base := newStore(t)
	upload(t, base, "raw/l/a.txt", wrkDir+"wrk_02.txt")
	s := &churnStore{Store: base}
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	if _, err := p.Ingest(ctx, "raw/l/a.txt"); err != nil {
		t.Fatal(err)
	}
	// The churn record names no table: it reads as missing, so make
	// it a removal the analysis can read.
	if err := base.Put(ctx, store.CommitPrefixOf("l")+"zz-churn.json", strings.NewReader(`{"key":"raw/l/gone.txt","removed":true}`)); err != nil {
		t.Fatal(err)
	}
	_, err := p.Analyze(ctx, "l")
	if !errors.Is(err, ErrBusy) || IsInputFault(err) {
		t.Fatalf("Analyze of ever-changing inputs: %v", err)
	}
	if !strings.Contains(err.Error(), "3 analyses") {
		t.Errorf("error does not say the bound: %v", err)
	}
	b, _, _ := store.ReadAll(ctx, base, store.LeaseKey("l"))
	var r leaseRecord
	if json.Unmarshal(b, &r) != nil || r != (leaseRecord{}) {
		t.Errorf("lease not let go after giving up: %s", b)
	}
}
