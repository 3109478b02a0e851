//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/internal/version"
	"github.com/loadverdict/loadverdict/results/columnar"
)

func env(t *testing.T, k string) string {
	v := os.Getenv(k)
	if v == "" {
		t.Fatalf("%s is not set: run scripts/e2e.sh", k)
	}
	return v
}

// s3Event is what S3 sends for an upload (the fields the function reads).
func s3Event(bucket string, keys ...string) []byte {
	var recs []string
	for _, k := range keys {
		recs = append(recs, fmt.Sprintf(`{"eventVersion":"2.1","eventSource":"aws:s3","awsRegion":"us-east-1",
"eventTime":"2026-12-02T12:00:00.000Z","eventName":"ObjectCreated:Put",
"s3":{"s3SchemaVersion":"1.0","configurationId":"raw","bucket":{"name":%q,"arn":"arn:aws:s3:::%s"},
"object":{"key":%q,"size":1,"sequencer":"0"}}}`, bucket, bucket, url.QueryEscape(k)))
	}
	return []byte(`{"Records":[` + strings.Join(recs, ",") + `]}`)
}

func invoke(t *testing.T, u string, payload []byte) string {
	t.Helper()
	resp, err := http.Post(u, "application/json", bytes.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || strings.Contains(string(b), "errorMessage") {
		t.Fatalf("invocation: %s %s", resp.Status, b)
	}
	return string(b)
}

// bucketEnv is what scripts/e2e.sh started: the bucket on versitygw and
// the two functions' invocation URLs.
type bucketEnv struct {
	bucket, ingestURL, reanalyzeURL string
	st                              store.Store
}

func setup(t *testing.T) (context.Context, bucketEnv) {
	t.Helper()
	// A hang guard, not a speed check: a loaded machine must pass.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	t.Cleanup(cancel)
	e := bucketEnv{bucket: env(t, "E2E_BUCKET"), ingestURL: env(t, "E2E_INGEST_URL"), reanalyzeURL: env(t, "E2E_REANALYZE_URL")}
	var err error
	if e.st, err = store.NewS3(ctx, "s3://"+e.bucket, store.S3Options{Endpoint: env(t, "E2E_S3_ENDPOINT")}); err != nil {
		t.Fatal(err)
	}
	return ctx, e
}

func TestBucketPipeline(t *testing.T) {
	ctx, e := setup(t)
	st, bucket, ingestURL, reanalyzeURL := e.st, e.bucket, e.ingestURL, e.reanalyzeURL
	uploads := map[string]string{
		"raw/zuul-vs-openresty/seed.txt":       "../../examples/zuul-vs-openresty.txt",
		"raw/zuul-vs-openresty/wrk 2 runs.txt": "../../ingest/wrk/testdata/wrk/wrk_05.txt",
	}
	for k, f := range uploads {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Put(ctx, k, bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
	}
	// One event per upload, as S3 sends them (the key URL-encoded).
	invoke(t, ingestURL, s3Event(bucket, "raw/zuul-vs-openresty/seed.txt"))
	invoke(t, ingestURL, s3Event(bucket, "raw/zuul-vs-openresty/wrk 2 runs.txt"))
	keys := []string{"reports/zuul-vs-openresty/report.md", "reports/zuul-vs-openresty/index.html", "reports/zuul-vs-openresty/summary.md",
		"reports/zuul-vs-openresty/summary.json", "reports/zuul-vs-openresty/throughput.png"}
	for _, src := range []string{"raw/zuul-vs-openresty/seed.txt", "raw/zuul-vs-openresty/wrk 2 runs.txt"} {
		c, err := (&pipeline.Pipeline{Store: st}).Committed(ctx, "zuul-vs-openresty", src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		keys = append(keys, c.Table(columnar.TableRuns))
	}
	for _, k := range keys {
		if _, err := st.Head(ctx, k); err != nil {
			t.Errorf("missing %s: %v", k, err)
		}
	}
	// The HTML report is served as a page from the bucket.
	if o, err := st.Head(ctx, "reports/zuul-vs-openresty/index.html"); err != nil || o.ContentType != "text/html; charset=utf-8" {
		t.Errorf("index.html: content type %q, %v", o.ContentType, err)
	}
	sum, _, err := store.ReadAll(ctx, st, "reports/zuul-vs-openresty/summary.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Runs []struct{ Source string } `json:"runs"`
	}
	if err := json.Unmarshal(sum, &s); err != nil || len(s.Runs) != 9 {
		t.Fatalf("summary covers %d runs, want 9 (6 + 3): %v", len(s.Runs), err)
	}
	// A garbage upload: a rejected record, and the report lists it.
	if err := st.Put(ctx, "raw/zuul-vs-openresty/garbage.bin", strings.NewReader("\x00\x01 not a load test\n")); err != nil {
		t.Fatal(err)
	}
	invoke(t, ingestURL, s3Event(bucket, "raw/zuul-vs-openresty/garbage.bin"))
	rej, _, err := store.ReadAll(ctx, st, store.RejectedKey("zuul-vs-openresty", "raw/zuul-vs-openresty/garbage.bin"))
	if err != nil || !strings.Contains(string(rej), "not output of a known load generator") {
		t.Fatalf("rejected record: %s %v", rej, err)
	}
	md, _, _ := store.ReadAll(ctx, st, "reports/zuul-vs-openresty/report.md")
	if !strings.Contains(string(md), "garbage.bin") {
		t.Error("report.md does not list the rejected upload")
	}
	// The schedule: nothing is stale, nothing changes.
	before := snapshot(t, ctx, st)
	out := invoke(t, reanalyzeURL, []byte(`{"all": false}`))
	if !strings.Contains(out, `"analyzed":[]`) {
		t.Errorf("schedule re-made reports: %s", out)
	}
	after := snapshot(t, ctx, st)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed after the schedule", k)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d objects before the schedule, %d after", len(before), len(after))
	}
	// The bucket's report equals the local CLI's on the same inputs.
	if dir := os.Getenv("E2E_LOCAL_REPORT"); dir != "" {
		for name, key := range map[string]string{"report.md": "report.md", "summary.md": "summary.md", "summary.json": "summary.json", "report.html": "index.html"} {
			local, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if after["reports/zuul-vs-openresty/"+key] != string(local) {
				t.Errorf("%s differs between the bucket and the local report", name)
			}
		}
	}
}

// TestBucketSeries: a series of two experiments (testdata/truth/series
// exp01 and exp02, whose manifests name series truth-series) through the
// bucket: each ingest re-makes its experiment's report and then the
// series' report under reports/_series/truth-series/, which equals the
// local CLI's history of the same folders; the schedule then finds
// nothing stale.
func TestBucketSeries(t *testing.T) {
	ctx, e := setup(t)
	st, bucket, ingestURL, reanalyzeURL := e.st, e.bucket, e.ingestURL, e.reanalyzeURL
	for _, exp := range []string{"exp01", "exp02"} {
		// The runs first, then the manifest: each upload is one event.
		for _, f := range []string{"run1.txt", "run2.txt", "run3.txt", "run4.txt", "loadverdict.yaml"} {
			b, err := os.ReadFile(filepath.Join("../../testdata/truth/series", exp, f))
			if err != nil {
				t.Fatal(err)
			}
			key := "raw/" + exp + "/" + f
			if err := st.Put(ctx, key, bytes.NewReader(b)); err != nil {
				t.Fatal(err)
			}
			invoke(t, ingestURL, s3Event(bucket, key))
		}
	}
	sum, _, err := store.ReadAll(ctx, st, store.SeriesReportKey("truth-series", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Series      string
		OrderBy     string `json:"order_by"`
		Experiments []struct{ Name string }
	}
	if err := json.Unmarshal(sum, &s); err != nil || s.Series != "truth-series" || s.OrderBy != "meta.date" || len(s.Experiments) != 2 {
		t.Fatalf("series summary: %+v, %v", s, err)
	}
	for _, f := range []string{"report.md", "index.html", "summary.md", "trend-rps.png", "covers.json"} {
		if _, err := st.Head(ctx, store.SeriesReportKey("truth-series", f)); err != nil {
			t.Errorf("missing %s: %v", store.SeriesReportKey("truth-series", f), err)
		}
	}
	if dir := os.Getenv("E2E_LOCAL_SERIES"); dir != "" {
		for _, name := range []string{"report.md", "summary.md", "summary.json"} {
			local, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			remote, _, _ := store.ReadAll(ctx, st, store.SeriesReportKey("truth-series", name))
			if string(remote) != string(local) {
				t.Errorf("%s differs between the bucket's series report and the local history", name)
			}
		}
	}
	out := invoke(t, reanalyzeURL, []byte(`{"all": false}`))
	if !strings.Contains(out, `"analyzed":[]`) {
		t.Errorf("schedule re-made reports after the series: %s", out)
	}
}

func snapshot(t *testing.T, ctx context.Context, st store.Store) map[string]string {
	t.Helper()
	objs, err := st.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, o := range objs {
		b, _, err := store.ReadAll(ctx, st, o.Key)
		if err != nil {
			t.Fatal(err)
		}
		m[o.Key] = string(b)
	}
	return m
}

// tryInvoke invokes a function and returns its answer, or an error for a
// failed invocation (what Lambda would retry).
func tryInvoke(ctx context.Context, u string, payload []byte) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(payload))
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || strings.Contains(string(b), "errorMessage") {
		return string(b), fmt.Errorf("%s: %s", resp.Status, b)
	}
	return string(b), nil
}

// TestConcurrentUploads (issue 21, defect 9): 50 uploads to one
// experiment, 10 at a time, each ingested by its own invocation of the
// ingest function (10 instances of it, as 10 Lambda execution
// environments), while the schedule's function re-analyses in a loop.
// No invocation may fail and the bucket's report must equal a serial
// run's (the same uploads ingested
// one by one with the pipeline, then analysed), with nothing left stale.
func TestConcurrentUploads(t *testing.T) {
	ctx, e := setup(t)
	urls := strings.Fields(env(t, "E2E_INGEST_URLS"))
	const exp, uploads = "concurrent", 50
	key := func(i int) string { return fmt.Sprintf("raw/%s/u%02d.txt", exp, i) }
	body := make([][]byte, uploads)
	for i := range body {
		var err error
		if body[i], err = os.ReadFile(fmt.Sprintf("../../ingest/wrk/testdata/wrk/wrk_%02d.txt", i%12+1)); err != nil {
			t.Fatal(err)
		}
	}
	uploadConcurrently(t, ctx, e, urls, exp, key, body)
	compareSerialRun(t, ctx, e.st, exp, key, body)
	// Nothing stale: the schedule finds nothing to re-make.
	if out := invoke(t, e.reanalyzeURL, []byte(`{"all": false}`)); !strings.Contains(out, `"analyzed":[]`) {
		t.Errorf("the schedule re-made reports after the uploads: %s", out)
	}
}

// uploadConcurrently puts and ingests every upload, len(urls) at a time,
// while the schedule re-analyses in a loop: each failed invocation is an
// error, and not finishing within 15 minutes fatal.
func uploadConcurrently(t *testing.T, ctx context.Context, e bucketEnv, urls []string, exp string, key func(int) string, body [][]byte) {
	t.Helper()
	// A bound against a hang, not a speed check (the time is logged: under
	// a minute on an idle machine, so 15 leave room for a machine many
	// times as loaded): no test depends on an idle machine.
	runCtx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	start := time.Now()
	var mu sync.Mutex
	var failures []string
	fail := func(what string, err error) {
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, what+": "+err.Error())
	}
	stop := make(chan struct{})
	var sched sync.WaitGroup
	reanalyses := 0
	sched.Go(func() { reanalyses = reanalyzeLoop(runCtx, e.reanalyzeURL, exp, stop, fail) })
	// 10 workers, each with its own instance of the ingest function.
	next := make(chan int)
	var wg sync.WaitGroup
	for _, u := range urls {
		wg.Go(func() { ingestWorker(runCtx, e, u, next, key, body, fail) })
	}
	for i := range body {
		next <- i
	}
	close(next)
	wg.Wait()
	uploaded := time.Since(start)
	close(stop)
	sched.Wait()
	t.Logf("%d uploads, %d at a time, in %s; %d re-analyses meanwhile; %d failed invocations",
		len(body), len(urls), uploaded.Round(time.Millisecond), reanalyses, len(failures))
	for _, f := range failures {
		t.Error(f)
	}
	if runCtx.Err() != nil {
		t.Fatalf("not done within 15 minutes (%s): stuck", time.Since(start))
	}
}

// reanalyzeLoop is the schedule, looping until stop: stale reports, then
// exp's. It returns the number of re-analyses.
func reanalyzeLoop(ctx context.Context, u, exp string, stop <-chan struct{}, fail func(string, error)) int {
	for i := 0; ; i++ {
		select {
		case <-stop:
			return i
		default:
		}
		payload := `{"all": false}`
		if i%2 == 1 {
			payload = `{"experiment": "` + exp + `"}`
		}
		if _, err := tryInvoke(ctx, u, []byte(payload)); err != nil {
			fail("reanalyze "+payload, err)
		}
	}
}

// ingestWorker puts each upload it takes from next in the bucket and
// ingests it with the ingest function's instance at u.
func ingestWorker(ctx context.Context, e bucketEnv, u string, next <-chan int, key func(int) string, body [][]byte, fail func(string, error)) {
	for i := range next {
		if err := e.st.Put(ctx, key(i), bytes.NewReader(body[i])); err != nil {
			fail(key(i), err)
			continue
		}
		if _, err := tryInvoke(ctx, u, s3Event(e.bucket, key(i))); err != nil {
			fail("ingest "+key(i), err)
		}
	}
}

// compareSerialRun: the serial run, the same uploads put in a local store
// and ingested one by one, then analysed, makes the bucket's reports.
func compareSerialRun(t *testing.T, ctx context.Context, bucket store.Store, exp string, key func(int) string, body [][]byte) {
	t.Helper()
	local, err := store.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Store: local, GeneratedBy: version.GeneratedBy(), TempDir: t.TempDir()}
	for i := range body {
		if err := local.Put(ctx, key(i), bytes.NewReader(body[i])); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Ingest(ctx, key(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Analyze(ctx, exp); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"report.md", "summary.md", "summary.json", "index.html"} {
		want, _, err := store.ReadAll(ctx, local, store.ReportKey(exp, name))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := store.ReadAll(ctx, bucket, store.ReportKey(exp, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s differs from the serial run's", name)
		}
	}
}
