package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results/columnar"
)

// Tests of issue 11's pipeline side: the error taxonomy, generations
// tied to the raw object, repair. Each defect test names the defect of
// the issue it reproduces; each failed on the code before generations
// and repair.

const wrkDir = "../../ingest/wrk/testdata/wrk/"

// summaryRuns returns the sources of the runs of an experiment's
// summary.json, one entry per run.
func summaryRuns(t *testing.T, s store.Store, exp string) []string {
	t.Helper()
	b, _, err := store.ReadAll(context.Background(), s, store.ReportKey(exp, "summary.json"))
	if err != nil {
		t.Fatalf("summary.json of %s: %v", exp, err)
	}
	var sum struct {
		Runs []struct {
			Source string `json:"source"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range sum.Runs {
		out = append(out, r.Source)
	}
	return out
}

func reportMD(t *testing.T, s store.Store, exp string) string {
	t.Helper()
	b, _, err := store.ReadAll(context.Background(), s, store.ReportKey(exp, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func count(xs []string, x string) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}

// TestIsInputFault: one place decides, for every class of failure.
func TestIsInputFault(t *testing.T) {
	_, badManifest := experiment.ParseManifest("raw/e/loadverdict.yaml", []byte("labelz: {}\n"))
	for _, tc := range []struct {
		name  string
		err   error
		input bool
	}{
		{"syntax error", &ingest.SyntaxError{File: "a.txt", Line: 3, Msg: "bad"}, true},
		{"no output", fmt.Errorf("wrapped: %w", &ingest.NoOutputError{File: "a.txt"}), true},
		{"rejected", &RejectedError{Source: "a.txt", Err: errors.New("x")}, true},
		{"manifest that cannot be parsed", badManifest, true},
		{"names that match nothing", &experiment.NameError{Msg: "baseline x"}, true},
		{"invalid key", fmt.Errorf("%w: key %q", ErrInvalidKey, "raw/\x01"), true},
		{"store failure", errors.New("s3: 503 SlowDown"), false},
		{"cut read", io.ErrUnexpectedEOF, false},
		{"file changed while read", fmt.Errorf("a.txt: %w", store.ErrChanged), false},
		{"context", context.DeadlineExceeded, false},
		{"superseded", ErrSuperseded, false},
		{"missing tables", &MissingTablesError{Sources: []string{"raw/e/a.txt"}}, false},
		{"nil", nil, false},
	} {
		if got := IsInputFault(tc.err); got != tc.input {
			t.Errorf("%s: IsInputFault(%v) = %v, want %v", tc.name, tc.err, got, tc.input)
		}
	}
	if badManifest == nil || !strings.HasPrefix(badManifest.Error(), "raw/e/loadverdict.yaml: ") {
		t.Errorf("manifest error %v does not name the file", badManifest)
	}
}

// A manifest that cannot be parsed is an input fault of its experiment:
// recorded, listed, the experiment analysed without it; not a failing
// invocation. (Before: Analyze failed, so Lambda retried it thrice.)
func TestManifestParseErrorIsRecorded(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	upload(t, s, "raw/m/run.txt", wrkDir+"wrk_02.txt")
	if err := s.Put(ctx, store.ManifestKey("m"), strings.NewReader("labels:\n  a: b\nbaselin: x\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Ingest(ctx, "raw/m/run.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Analyze(ctx, "m"); err != nil {
		t.Fatalf("Analyze with a manifest that cannot be parsed: %v", err)
	}
	b, _, err := store.ReadAll(ctx, s, store.RejectedKey("m", store.ManifestKey("m")))
	if err != nil || !strings.Contains(string(b), "baselin") || !strings.Contains(string(b), `"line": 3`) && !strings.Contains(string(b), "line 3") {
		t.Errorf("manifest's rejection record: %s %v", b, err)
	}
	if md := reportMD(t, s, "m"); !strings.Contains(md, "rejected: `raw/m/loadverdict.yaml`") {
		t.Error("report does not list the manifest")
	}
	if got := summaryRuns(t, s, "m"); len(got) != 1 {
		t.Errorf("runs %v, want the one run analysed without the manifest", got)
	}
	// Fixed: the record goes.
	if err := s.Put(ctx, store.ManifestKey("m"), strings.NewReader("labels:\n  a: b\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Reanalyze(ctx, "", false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Head(ctx, store.RejectedKey("m", store.ManifestKey("m"))); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the fixed manifest's record stays: %v", err)
	}
}

// Defect 2: an experiment whose uploads were all rejected gets a report
// listing them, and neither its analysis nor the schedule fails.
func TestDefect2AllRejected(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	for _, k := range []string{"raw/bad/a.bin", "raw/bad/b.bin"} {
		if err := s.Put(ctx, k, strings.NewReader("\x00\x01 not a load test\n")); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Ingest(ctx, k); !errors.Is(err, ErrRejected) {
			t.Fatalf("%s: %v", k, err)
		}
	}
	headline, err := p.Analyze(ctx, "bad")
	if err != nil || !strings.HasPrefix(headline, "No runs could be read") {
		t.Fatalf("Analyze: %q, %v", headline, err)
	}
	md := reportMD(t, s, "bad")
	for _, k := range []string{"raw/bad/a.bin", "raw/bad/b.bin"} {
		if !strings.Contains(md, "rejected: `"+k+"`") {
			t.Errorf("report.md does not list %s:\n%s", k, md)
		}
	}
	upload(t, s, "raw/good/run.txt", wrkDir+"wrk_02.txt")
	if _, err := p.Reanalyze(ctx, "", true); err != nil {
		t.Errorf("the schedule fails because of a bad experiment: %v", err)
	}
	if got := summaryRuns(t, s, "good"); len(got) != 1 {
		t.Errorf("good experiment: runs %v", got)
	}
}

// hookStore calls before on every Get of key, once, after reading the
// object whole; Get then returns what it read.
type hookStore struct {
	store.Store
	key    string
	once   sync.Once
	before func()
}

func (h *hookStore) Get(ctx context.Context, key string) (io.ReadCloser, store.Object, error) {
	rc, obj, err := h.Store.Get(ctx, key)
	if err != nil || key != h.key {
		return rc, obj, err
	}
	b, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		return nil, obj, err
	}
	h.once.Do(h.before)
	return io.NopCloser(bytes.NewReader(b)), obj, nil
}

// Defect 3: an overwritten key whose older ingest finishes last. The
// older ingest read version 1; version 2 is uploaded and ingested
// completely; then the older ingest goes on. Its tables must not
// replace version 2's.
func TestDefect3OlderIngestFinishesLast(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	const key = "raw/over/run.txt"
	upload(t, s, key, wrkDir+"wrk_02.txt") // version 1: one run
	newer := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	older := &Pipeline{Store: &hookStore{Store: s, key: key, before: func() {
		upload(t, s, key, wrkDir+"wrk_05.txt") // version 2: three runs
		if _, err := newer.Ingest(ctx, key); err != nil {
			t.Error(err)
		}
		if _, err := newer.Analyze(ctx, "over"); err != nil {
			t.Error(err)
		}
	}}, GeneratedBy: "test", TempDir: t.TempDir()}
	if _, err := older.Ingest(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := older.Analyze(ctx, "over"); err != nil {
		t.Fatal(err)
	}
	if got := summaryRuns(t, s, "over"); len(got) != 3 {
		t.Errorf("the report has %d runs, want version 2's 3", len(got))
	}
	head, err := s.Head(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := newer.Committed(ctx, "over", key)
	if err != nil || c.ETag != head.ETag {
		t.Errorf("commit record %+v, %v; want ETag %s", c, err, head.ETag)
	}
	if did, err := newer.Repair(ctx, "over"); err != nil || len(did) != 0 {
		t.Errorf("repair after the race: %v %v", did, err)
	}
}

// Defect 5: a table file deleted behind the pipeline's back is
// re-ingested by the re-analysis, not silently dropped from the report.
func TestDefect5TableDeletedBehindTheBack(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	for _, f := range []string{"wrk_02.txt", "wrk_05.txt"} {
		upload(t, s, "raw/del/"+f, wrkDir+f)
		if _, err := p.Ingest(ctx, "raw/del/"+f); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Analyze(ctx, "del"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, committedTable(t, p, "del", "raw/del/wrk_05.txt", columnar.TableRuns)); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Reanalyze(ctx, "", false); err != nil {
		t.Fatal(err)
	}
	if got := summaryRuns(t, s, "del"); count(got, "raw/del/wrk_05.txt") != 3 || len(got) != 4 {
		t.Errorf("runs after repair: %v, want wrk_05's 3 and wrk_02's 1", got)
	}
	// Analyze alone (the ingest function's) repairs it too.
	if err := s.Delete(ctx, committedTable(t, p, "del", "raw/del/wrk_05.txt", columnar.TablePercentiles)); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Analyze(ctx, "del"); err != nil {
		t.Fatal(err)
	}
	if got := summaryRuns(t, s, "del"); len(got) != 4 {
		t.Errorf("runs after Analyze: %v", got)
	}
}

// Repair: uploads never ingested (a lost event), uploads deleted by the
// user (tables removed, the report says so), stale rejection records.
func TestRepair(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	for _, f := range []string{"wrk_02.txt", "wrk_05.txt", "wrk_10.txt"} {
		upload(t, s, "raw/rep/"+f, wrkDir+f)
	}
	for _, f := range []string{"wrk_02.txt", "wrk_05.txt"} {
		if _, err := p.Ingest(ctx, "raw/rep/"+f); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Analyze(ctx, "rep"); err != nil {
		t.Fatal(err)
	}
	gone := committedTable(t, p, "rep", "raw/rep/wrk_05.txt", columnar.TableRuns)
	if err := s.Delete(ctx, "raw/rep/wrk_05.txt"); err != nil {
		t.Fatal(err)
	}
	did, err := p.Repair(ctx, "rep")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ingested raw/rep/wrk_10.txt", "removed raw/rep/wrk_05.txt"}; strings.Join(did, "|") != strings.Join(want, "|") {
		t.Errorf("repair did %q, want %q", did, want)
	}
	if _, err := s.Head(ctx, gone); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("table of the deleted upload stays: %v", err)
	}
	if _, err := p.Reanalyze(ctx, "", false); err != nil {
		t.Fatal(err)
	}
	got := summaryRuns(t, s, "rep")
	if count(got, "raw/rep/wrk_05.txt") != 0 || count(got, "raw/rep/wrk_10.txt") != 1 || count(got, "raw/rep/wrk_02.txt") != 1 {
		t.Errorf("runs after repair: %v", got)
	}
	if md := reportMD(t, s, "rep"); !strings.Contains(md, "removed: `raw/rep/wrk_05.txt`") {
		t.Error("report does not say the deleted upload's tables were removed")
	}
	if did, err := p.Repair(ctx, "rep"); err != nil || len(did) != 0 {
		t.Errorf("second repair: %v %v", did, err)
	}
	// The ingest function on the deletion event does the same at once.
	if err := s.Delete(ctx, "raw/rep/wrk_10.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Ingest(ctx, "raw/rep/wrk_10.txt"); err != nil {
		t.Fatal(err)
	}
	if c, err := p.Committed(ctx, "rep", "raw/rep/wrk_10.txt"); err != nil || !c.Removed {
		t.Errorf("after the deletion event: %+v %v", c, err)
	}
}

// Defect 4: a store failure in the middle of an ingest (here the PUT of
// the percentiles, after the runs) leaves the source as it was: readers,
// before any retry, see the previous version whole, never the new runs
// with the old percentiles.
func TestDefect4FailureMidIngest(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	p := &Pipeline{Store: s, GeneratedBy: "test", TempDir: t.TempDir()}
	const key = "raw/mid/run.txt"
	upload(t, s, key, wrkDir+"wrk_05.txt") // three runs
	if _, err := p.Ingest(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Analyze(ctx, "mid"); err != nil {
		t.Fatal(err)
	}
	before := reportMD(t, s, "mid")
	upload(t, s, key, wrkDir+"wrk_10.txt") // one run
	fs := &faultStore{Store: s, mode: failed}
	// The GET of the upload is request 1, the LIST of the experiment's
	// commit records (its other sources' runs, for MaxRuns) 2, the PUT of
	// the runs 3, the PUT of the percentiles 4.
	fs.failAt = 4
	if _, err := (&Pipeline{Store: fs, GeneratedBy: "test", TempDir: t.TempDir()}).Ingest(ctx, key); err == nil || IsInputFault(err) {
		t.Fatalf("ingest with a failing store: %v", err)
	}
	if !strings.HasPrefix(fs.what, "PUT tables/percentiles/") {
		t.Fatalf("the fault hit %s, want the PUT of the percentiles", fs.what)
	}
	if _, err := p.Analyze(ctx, "mid"); err != nil {
		t.Fatal(err)
	}
	if got := summaryRuns(t, s, "mid"); len(got) != 3 {
		t.Errorf("after the failed ingest the report has %d runs, want the previous version's 3", len(got))
	}
	if after := reportMD(t, s, "mid"); after != before {
		t.Error("the report changed after a failed ingest: it read part of the new version")
	}
}
