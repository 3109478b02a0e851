package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results/columnar"
)

const seedKey = "raw/zuul-vs-openresty/seed.txt"

// newStore returns a local store, or an S3 one on a real server when
// LOADVERDICT_TEST_S3 (s3://bucket) and LOADVERDICT_TEST_S3_ENDPOINT are set.
// storesMade counts the stores newStore made per test: a test's second
// store is a prefix of its own, as its second local folder would be.
var storesMade sync.Map

func newStore(t *testing.T) store.Store {
	t.Helper()
	if u := os.Getenv("LOADVERDICT_TEST_S3"); u != "" {
		prefix := u + "/" + strings.ReplaceAll(t.Name(), "/", "-")
		n, _ := storesMade.LoadOrStore(t.Name(), new(atomic.Int64))
		if k := n.(*atomic.Int64).Add(1); k > 1 {
			prefix += fmt.Sprintf("-%d", k)
		}
		s, err := store.NewS3(context.Background(), prefix, store.S3Options{Endpoint: os.Getenv("LOADVERDICT_TEST_S3_ENDPOINT")})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s, err := store.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func upload(t *testing.T, s store.Store, key, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(context.Background(), key, bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	return b
}

// committedTable returns the key of the committed file of a source's
// table; the test fails when there is none.
func committedTable(t *testing.T, p *Pipeline, exp, source string, table columnar.Table) string {
	t.Helper()
	c, err := p.Committed(context.Background(), exp, source)
	if err != nil {
		t.Fatalf("commit record of %s: %v", source, err)
	}
	k := c.Table(table)
	if k == "" {
		t.Fatalf("%s: no %s table committed: %+v", source, table, c)
	}
	return k
}

// snapshot maps every key to its content.
func snapshot(t *testing.T, s store.Store) map[string]string {
	t.Helper()
	objs, err := s.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, o := range objs {
		b, _, err := store.ReadAll(context.Background(), s, o.Key)
		if err != nil {
			t.Fatal(err)
		}
		out[o.Key] = string(b)
	}
	return out
}

func TestIngestAnalyzeIdempotentAndRejected(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "loadverdict test", TempDir: t.TempDir()}
	seed := upload(t, s, seedKey, "../../examples/zuul-vs-openresty.txt")
	upload(t, s, "raw/zuul-vs-openresty/garbage.bin", "../../go.sum")
	exp, err := p.Ingest(ctx, seedKey)
	if err != nil || exp != "zuul-vs-openresty" {
		t.Fatalf("ingest: %q %v", exp, err)
	}
	if _, err := p.Ingest(ctx, "raw/zuul-vs-openresty/garbage.bin"); !errors.Is(err, ErrRejected) {
		t.Fatalf("garbage: %v", err)
	}
	headline, err := p.Analyze(ctx, exp)
	if err != nil || !strings.HasPrefix(headline, "Not established") {
		t.Fatalf("analyze: %q %v", headline, err)
	}
	first := snapshot(t, s)
	for _, k := range []string{committedTable(t, p, exp, seedKey, columnar.TableRuns), committedTable(t, p, exp, seedKey, columnar.TablePercentiles),
		store.RejectedKey(exp, "raw/zuul-vs-openresty/garbage.bin"), "reports/zuul-vs-openresty/report.md",
		"reports/zuul-vs-openresty/summary.json", "reports/zuul-vs-openresty/throughput.png"} {
		if _, ok := first[k]; !ok {
			t.Errorf("missing %s", k)
		}
	}
	if first[seedKey] != string(seed) {
		t.Error("raw upload modified")
	}
	if md := first["reports/zuul-vs-openresty/report.md"]; !strings.Contains(md, "rejected: `raw/zuul-vs-openresty/garbage.bin`") {
		t.Error("report does not list the rejected upload")
	}
	// The same events again: the same keys and bytes.
	if _, err := p.Ingest(ctx, seedKey); err != nil {
		t.Fatal(err)
	}
	p.Ingest(ctx, "raw/zuul-vs-openresty/garbage.bin")
	if _, err := p.Analyze(ctx, exp); err != nil {
		t.Fatal(err)
	}
	second := snapshot(t, s)
	if len(second) != len(first) {
		t.Errorf("%d objects, then %d", len(first), len(second))
	}
	for k, v := range first {
		if second[k] != v {
			t.Errorf("%s changed on the second run", k)
		}
	}
	// Nothing is stale now; a manifest makes it stale and is honoured.
	if stale, err := p.Stale(ctx, exp); err != nil || stale {
		t.Errorf("stale %v %v", stale, err)
	}
	if done, err := p.Reanalyze(ctx, "", false); err != nil || len(done) != 0 {
		t.Errorf("reanalyze of a fresh store: %v %v", done, err)
	}
	m := "labels:\n  localhost:5555: zuul\n  localhost:80: openresty\nbaseline: openresty\n"
	if err := s.Put(ctx, store.ManifestKey(exp), strings.NewReader(m)); err != nil {
		t.Fatal(err)
	}
	if done, err := p.Reanalyze(ctx, "", false); err != nil || len(done) != 1 {
		t.Fatalf("reanalyze after a manifest: %v %v", done, err)
	}
	sum, _, _ := store.ReadAll(ctx, s, "reports/zuul-vs-openresty/summary.json")
	if !strings.Contains(string(sum), `"a": "zuul"`) || !strings.Contains(string(sum), `"b": "openresty"`) {
		t.Error("manifest labels or baseline not applied")
	}
}

func TestManifestErrors(t *testing.T) {
	for _, bad := range []string{"labelz: {}\n", "thresholds:\n  alpha: 0.9\n", "thresholds:\n  min_runs: 1\n", "labels: [1, 2]\n", "labels:\n  a: \"\"\n",
		"slo: [{a: 1}]\n", "gate: {fail_on: regression, max: 5}\n"} {
		if _, err := experiment.ParseManifest("m.yaml", []byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		} else if !strings.Contains(err.Error(), "m.yaml") {
			t.Errorf("%q: error %v does not name the file", bad, err)
		}
	}
	// slo: and gate: are parsed strictly, with the line and the column.
	for _, tc := range []struct{ yaml, err string }{
		{"slo:\n  - rps>=1000\n  - lat_p99<250\n", `m.yaml: line 3: slo: threshold "lat_p99<250", column 1: unknown metric "lat_p99"`},
		{"slo: 'rps>>1'\n", `m.yaml: line 1: slo: threshold "rps>>1", column 5: want a number`},
		{"gate:\n  fail_on: [regression, slowness]\n", `m.yaml: line 2: gate: unknown condition "slowness"`},
		{"gate: {max_regression: -5%}\n", `m.yaml: line 1: gate.max_regression: want a percentage >= 0`},
	} {
		if _, err := experiment.ParseManifest("m.yaml", []byte(tc.yaml)); err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("%q: %v, want %q", tc.yaml, err, tc.err)
		}
	}
	if m, err := experiment.ParseManifest("m.yaml", []byte("gate: {fail_on: []}\n")); err != nil || len(m.Gate.FailOn) != 0 {
		t.Errorf("fail_on: []: %+v %v", m, err)
	}
	m, err := experiment.ParseManifest("m.yaml", []byte("slo: [rps>=1000, 'lat_p99_ms{system=new}<250']\ngate: {fail_on: 'regression,threshold', max_regression: 5}\n"))
	if err != nil || len(m.SLO) != 2 || m.SLO[1].Scope.System != "new" || len(m.Gate.FailOn) != 2 || m.Gate.MaxRegression == nil || *m.Gate.MaxRegression != 5 {
		t.Errorf("slo and gate: %+v %v", m, err)
	}
	if m, err := experiment.ParseManifest("m.yaml", []byte("")); err != nil || m == nil {
		t.Errorf("empty manifest: %v", err)
	}
}

// Uploads to one experiment processed concurrently, each ingest followed by
// an analysis as the function does: the final report covers every run.
func TestConcurrentUploadsMissNoRun(t *testing.T) {
	untimed(t)
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	files := []string{"wrk_02.txt", "wrk_03.txt", "wrk_04.txt", "wrk_05.txt", "wrk_06.txt", "wrk_08.txt", "wrk_09.txt", "wrk_10.txt"}
	for _, f := range files {
		upload(t, s, "raw/conc/"+f, "../../ingest/wrk/testdata/wrk/"+f)
	}
	errs := make(chan error, len(files))
	for _, f := range files {
		go func() {
			if _, err := p.Ingest(ctx, "raw/conc/"+f); err != nil {
				errs <- err
				return
			}
			_, err := p.Analyze(ctx, "conc")
			errs <- err
		}()
	}
	for range files {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	sum, _, err := store.ReadAll(ctx, s, "reports/conc/summary.json")
	if err != nil {
		t.Fatal(err)
	}
	// wrk_05 has three runs, the others one each.
	if n := strings.Count(string(sum), `"source_line"`); n != len(files)+2 {
		t.Errorf("the final report covers %d runs, want %d", n, len(files)+2)
	}
	if stale, err := p.Stale(ctx, "conc"); err != nil || stale {
		t.Errorf("report stale after all uploads: %v %v", stale, err)
	}
}
