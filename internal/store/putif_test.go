package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// TestPutIf: the conditional write is a compare-and-swap on every store
// (versitygw's If-Match and If-None-Match with LOADVERDICT_TEST_S3): of
// writers racing on one ETag, exactly one wins.
func TestPutIf(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			const key = "tables/_leases/experiment=e/analysis.json"
			if _, err := s.PutIf(ctx, key, []byte("x"), "0123"); !errors.Is(err, ErrPrecondition) {
				t.Errorf("If-Match of a missing object: %v", err)
			}
			e1, err := s.PutIf(ctx, key, []byte("one"), "")
			if err != nil {
				t.Fatal(err)
			}
			if o, err := s.Head(ctx, key); err != nil || o.ETag != e1 {
				t.Errorf("ETag %q, Head %+v %v", e1, o, err)
			}
			if _, err := s.PutIf(ctx, key, []byte("again"), ""); !errors.Is(err, ErrPrecondition) {
				t.Errorf("If-None-Match of an existing object: %v", err)
			}
			if _, err := s.PutIf(ctx, key, []byte("two"), "0123"); !errors.Is(err, ErrPrecondition) {
				t.Errorf("If-Match of another ETag: %v", err)
			}
			e2, err := s.PutIf(ctx, key, []byte("two"), e1)
			if err != nil || e2 == e1 {
				t.Fatalf("If-Match of its ETag: %q %v", e2, err)
			}
			// Racing writers of the same ETag: one wins.
			var mu sync.Mutex
			won := 0
			var wg sync.WaitGroup
			for i := range 12 {
				wg.Go(func() {
					_, err := s.PutIf(ctx, key, fmt.Appendf(nil, "writer %d", i), e2)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						won++
					case !errors.Is(err, ErrPrecondition):
						t.Errorf("writer %d: %v", i, err)
					}
				})
			}
			wg.Wait()
			if won != 1 {
				t.Errorf("%d racing writers won, want 1", won)
			}
		})
	}
}
