package pipeline

import (
	"context"
	"slices"
	"testing"

	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results/columnar"
)

// TestExperimentNamesEndToEnd: folders with a space, 'ü', '=' or '\” form
// experiments of that name, with their tables, report and listing under
// the escaped name; raw/a.txt and raw/a/b.txt stay two experiments.
func TestExperimentNamesEndToEnd(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "loadverdict test", TempDir: t.TempDir()}
	keys := map[string]string{
		"raw/tuning über a=b it's/seed.txt": "tuning über a=b it's",
		"raw/a.txt":                         "a.txt",
		"raw/a/b.txt":                       "a",
	}
	for key, want := range keys {
		upload(t, s, key, "../../examples/zuul-vs-openresty.txt")
		exp, err := p.Ingest(ctx, key)
		if err != nil || exp != want {
			t.Fatalf("Ingest(%q) = %q, %v; want %q", key, exp, err, want)
		}
		if _, err := p.Analyze(ctx, exp); err != nil {
			t.Fatalf("Analyze(%q): %v", exp, err)
		}
		for _, k := range []string{committedTable(t, p, exp, key, columnar.TableRuns), store.ReportKey(exp, "report.md")} {
			if _, err := s.Head(ctx, k); err != nil {
				t.Errorf("%s: %v", k, err)
			}
		}
	}
	if _, err := s.Head(ctx, "reports/tuning über a%3Db it%27s/report.md"); err != nil {
		t.Errorf("report not under the escaped name: %v", err)
	}
	exps, err := p.Experiments(ctx)
	if err != nil || !slices.Equal(exps, []string{"a", "a.txt", "tuning über a=b it's"}) {
		t.Errorf("Experiments = %q, %v", exps, err)
	}
	if stale, err := p.Stale(ctx, "tuning über a=b it's"); err != nil || stale {
		t.Errorf("Stale = %v, %v", stale, err)
	}
}
