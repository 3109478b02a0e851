package ingest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/loadverdict/loadverdict/ingest/core"
)

// decompress returns a reader of br's content, decompressed as Parse does.
func decompress(br *bufio.Reader, source string) (*bufio.Reader, func(), error) {
	in := &core.Input{Source: source, Raw: &core.TrackReader{R: br}}
	return in.Decompress(bufio.NewReaderSize(in.Raw, core.HeadSize))
}

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zst(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := zstd.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Compressed inputs are told by their magic bytes, whatever their name,
// and parse to the same runs.
func TestCompressedInputs(t *testing.T) {
	plain, err := os.ReadFile("wrk/testdata/wrk/seed-zuul-vs-openresty.txt")
	if err != nil {
		t.Fatal(err)
	}
	opts := core.Options{Source: "seed", Experiment: "e"}
	want, err := ParseAll(context.Background(), bytes.NewReader(plain), opts)
	if err != nil || len(want) != 6 {
		t.Fatalf("%d runs, %v", len(want), err)
	}
	for name, in := range map[string][]byte{
		"gzip": gz(t, plain), "zstd": zst(t, plain), "gzip+gzip": gz(t, gz(t, plain)), "zstd+gzip": zst(t, gz(t, plain)),
	} {
		got, err := ParseAll(context.Background(), bytes.NewReader(in), opts)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %d runs, %v", name, len(got), err)
		}
	}
	// A truncated gzip stream is an error naming the source, not a panic.
	bad := gz(t, plain)
	if _, err := ParseAll(context.Background(), bytes.NewReader(bad[:len(bad)/2]), opts); err == nil {
		t.Error("truncated gzip: no error")
	}
}
