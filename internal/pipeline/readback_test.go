package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results/columnar"
)

// TestUnreadableTableRejected: a table that loadverdict's own reader
// refuses (as it refused a 300 MB page of error strings) is never
// committed: for each table in turn, the input is rejected with a record
// naming the table, nothing of the new version is stored, and the tables
// of an earlier version that was read are removed, not left stale.
func TestUnreadableTableRejected(t *testing.T) {
	ctx := context.Background()
	const key = "raw/rb/results"
	for _, bad := range []columnar.Table{columnar.TableRuns, columnar.TablePercentiles, columnar.TableSeries, columnar.TableSamples} {
		s := newStore(t)
		p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
		upload(t, s, key, "../../ingest/vegeta/testdata/vegeta/results-errors.json")
		if _, err := p.Ingest(ctx, key); err != nil {
			t.Fatal(err)
		}
		if k := committedTable(t, p, "rb", key, columnar.TableSamples); k == "" {
			t.Fatal("no samples")
		}
		upload(t, s, key, "../../ingest/vegeta/testdata/vegeta/results-ok.csv.gz")
		orig := readRows
		readRows = func(tb columnar.Table, r readerAtSeeker, mem memory.Allocator) (int, error) {
			n, err := orig(tb, r, mem)
			if tb == bad {
				return n / 2, errors.New("parquet: uncompressed page size 314572800 exceeds configured limit 268435456")
			}
			return n, err
		}
		_, err := p.Ingest(ctx, key)
		readRows = orig
		if !errors.Is(err, ErrRejected) || !strings.Contains(err.Error(), "its "+string(bad)+" table cannot be read back") {
			t.Fatalf("%s unreadable: %v", bad, err)
		}
		c, err := p.Committed(ctx, "rb", key)
		if err != nil || c.Rejected == nil || len(c.Tables) != 0 {
			t.Errorf("%s unreadable: commit %+v, %v", bad, c, err)
		}
		objs, err := s.List(ctx, store.TablesPrefix)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			if strings.HasSuffix(o.Key, ".parquet") {
				t.Errorf("%s unreadable: %s stored", bad, o.Key)
			}
		}
		if _, err := s.Head(ctx, store.RejectedKey("rb", key)); err != nil {
			t.Errorf("%s unreadable: no rejection record: %v", bad, err)
		}
	}
}
