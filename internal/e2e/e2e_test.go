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
	"testing"
	"time"

	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results"
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

func TestBucketPipeline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bucket := env(t, "E2E_BUCKET")
	st, err := store.NewS3(ctx, "s3://"+bucket, store.S3Options{Endpoint: env(t, "E2E_S3_ENDPOINT")})
	if err != nil {
		t.Fatal(err)
	}
	ingestURL, reanalyzeURL := env(t, "E2E_INGEST_URL"), env(t, "E2E_REANALYZE_URL")
	uploads := map[string]string{
		"raw/zuul-vs-openresty/seed.txt":       "../../examples/zuul-vs-openresty.txt",
		"raw/zuul-vs-openresty/wrk 2 runs.txt": "../../ingest/testdata/wrk/wrk_05.txt",
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
	keys := []string{"reports/zuul-vs-openresty/report.md", "reports/zuul-vs-openresty/summary.md",
		"reports/zuul-vs-openresty/summary.json", "reports/zuul-vs-openresty/throughput.png"}
	for _, src := range []string{"raw/zuul-vs-openresty/seed.txt", "raw/zuul-vs-openresty/wrk 2 runs.txt"} {
		c, err := (&pipeline.Pipeline{Store: st}).Committed(ctx, "zuul-vs-openresty", src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		keys = append(keys, c.Table(results.TableRuns))
	}
	for _, k := range keys {
		if _, err := st.Head(ctx, k); err != nil {
			t.Errorf("missing %s: %v", k, err)
		}
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
	if err != nil || !strings.Contains(string(rej), "no load-generator output found") {
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
		for _, name := range []string{"report.md", "summary.md", "summary.json"} {
			local, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if after["reports/zuul-vs-openresty/"+name] != string(local) {
				t.Errorf("%s differs between the bucket and the local report", name)
			}
		}
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
