package store

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// stores returns the stores the contract runs on: a local folder always,
// and a real S3-compatible server when LOADVERDICT_TEST_S3 is set to
// s3://bucket (with LOADVERDICT_TEST_S3_ENDPOINT and the standard AWS
// credential variables), as .ci/run does with versitygw.
func stores(t *testing.T) map[string]Store {
	t.Helper()
	l, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Store{"local": l}
	if u := os.Getenv("LOADVERDICT_TEST_S3"); u != "" {
		s, err := NewS3(context.Background(), u+"/"+strings.ReplaceAll(t.Name(), "/", "-"), S3Options{Endpoint: os.Getenv("LOADVERDICT_TEST_S3_ENDPOINT")})
		if err != nil {
			t.Fatal(err)
		}
		out["s3"] = s
	}
	return out
}

func TestStoreContract(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := s.Head(ctx, "raw/x/missing.txt"); !errors.Is(err, ErrNotFound) {
				t.Errorf("Head of a missing key: %v", err)
			}
			if _, _, err := s.Get(ctx, "raw/x/missing.txt"); !errors.Is(err, ErrNotFound) {
				t.Errorf("Get of a missing key: %v", err)
			}
			big := bytes.Repeat([]byte("0123456789abcdef"), 1<<20) // 16 MiB: a multipart upload on S3
			for key, body := range map[string][]byte{"raw/e/a.txt": []byte("hello"), "raw/e/sub/b.txt": []byte("b"), "tables/runs/experiment=e/x.parquet": big} {
				if err := s.Put(ctx, key, bytes.NewReader(body)); err != nil {
					t.Fatalf("Put %s: %v", key, err)
				}
			}
			rc, obj, err := s.Get(ctx, "tables/runs/experiment=e/x.parquet")
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(rc)
			rc.Close()
			if !bytes.Equal(got, big) || obj.Size != int64(len(big)) || obj.ETag == "" {
				t.Errorf("Get: %d bytes, object %+v", len(got), obj)
			}
			objs, err := s.List(ctx, "raw/e/")
			if err != nil || len(objs) != 2 || objs[0].Key != "raw/e/a.txt" || objs[1].Key != "raw/e/sub/b.txt" || objs[0].Size != 5 {
				t.Errorf("List: %+v %v", objs, err)
			}
			h, err := s.Head(ctx, "raw/e/a.txt")
			if err != nil || h.Size != 5 || h.ETag == "" || h.ModTime.IsZero() {
				t.Errorf("Head: %+v %v", h, err)
			}
			if err := s.Put(ctx, "raw/e/a.txt", strings.NewReader("changed")); err != nil {
				t.Fatal(err)
			}
			if h2, _ := s.Head(ctx, "raw/e/a.txt"); h2.ETag == h.ETag && name == "s3" {
				t.Error("ETag unchanged after a new body")
			}
			if err := s.Delete(ctx, "raw/e/sub/b.txt"); err != nil {
				t.Fatal(err)
			}
			if err := s.Delete(ctx, "raw/e/sub/b.txt"); err != nil {
				t.Errorf("deleting a missing key: %v", err)
			}
			for _, bad := range []string{"", "/abs", "a/../b", "a//b", "a\\b", "a/./b", "x\x00y"} {
				if err := s.Put(ctx, bad, strings.NewReader("x")); err == nil {
					t.Errorf("Put accepted key %q", bad)
				}
			}
		})
	}
}

// TestKeys checks the key helpers; the experiment names are
// TestExperimentNames'.
func TestKeys(t *testing.T) {
	gen := Generation(`"d41d8cd98f00b204e9800998ecf8427e"`)
	if got := TableKey("runs", "e", "raw/e/a.txt", gen); got != "tables/runs/experiment=e/"+SourceID("raw/e/a.txt")+"-"+gen+".parquet" || len(gen) != 12 {
		t.Errorf("TableKey %q", got)
	}
	if id, g := SourceIDOfKey(TableKey("runs", "e", "raw/e/a.txt", gen)); id != SourceID("raw/e/a.txt") || g != gen {
		t.Errorf("SourceIDOfKey: %q %q", id, g)
	}
	if id, g := SourceIDOfKey(CommitKey("e", "raw/e/a.txt")); id != SourceID("raw/e/a.txt") || g != "" {
		t.Errorf("SourceIDOfKey of a commit record: %q %q", id, g)
	}
	if Generation("a") == Generation("b") || Generation("a") != Generation("a") {
		t.Error("Generation does not follow the ETag")
	}
	if b, p, err := ParseS3URL("s3://bucket/some/prefix/"); err != nil || b != "bucket" || p != "some/prefix/" {
		t.Errorf("ParseS3URL: %q %q %v", b, p, err)
	}
}

// A report's files are stored with the media type of their extension, so
// that a browser opening index.html from a bucket renders it.
func TestContentType(t *testing.T) {
	ctx := context.Background()
	want := map[string]string{
		"reports/e/index.html":   "text/html; charset=utf-8",
		"reports/e/report.md":    "text/markdown; charset=utf-8",
		"reports/e/summary.json": "application/json",
		"reports/e/latency.svg":  "image/svg+xml",
		"reports/e/latency.png":  "image/png",
	}
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			for key, ct := range want {
				if got := ContentType(key); got != ct {
					t.Errorf("ContentType(%q) = %q, want %q", key, got, ct)
				}
				if err := s.Put(ctx, key, strings.NewReader("x")); err != nil {
					t.Fatal(err)
				}
				obj, err := s.Head(ctx, key)
				if err != nil {
					t.Fatal(err)
				}
				if obj.ContentType != ct {
					t.Errorf("%s: stored as %q, want %q", key, obj.ContentType, ct)
				}
				rc, obj, err := s.Get(ctx, key)
				if err != nil {
					t.Fatal(err)
				}
				rc.Close()
				if obj.ContentType != ct {
					t.Errorf("%s: Get: %q", key, obj.ContentType)
				}
			}
		})
	}
}
