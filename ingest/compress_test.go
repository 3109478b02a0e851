package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/loadverdict/loadverdict/ingest/core"
)

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

// TestCompressedFormats: bzip2 (one stream or several) is read like gzip;
// xz, lz4 and zip are refused with an error naming the compression and
// the command that decompresses the file, not as "not output of a known
// load generator"; a bzip2 stream cut off is an input error too.
func TestCompressedFormats(t *testing.T) {
	plain, err := os.ReadFile("wrk/testdata/wrk/seed-zuul-vs-openresty.txt")
	if err != nil {
		t.Fatal(err)
	}
	opts := core.Options{Source: "seed", Experiment: "e"}
	want, err := ParseAll(context.Background(), bytes.NewReader(plain), opts)
	if err != nil {
		t.Fatal(err)
	}
	// "x\n" compressed by xz -c and lz4 -c (the walks over testdata
	// would stop at such files), and the start of a zip archive.
	refused := map[string]string{
		"x.xz":  "fd377a585a000004e6d6b4460200210116000000742fe5a3010001780a000000374a51dc33a2cab000011a02dc2ea57e1fb6f37d010000000004595a",
		"x.lz4": "04224d186440a702000080780a0000000096935f9e",
		"x.zip": "504b0304",
	}
	for file, msg := range map[string]string{
		"seed.txt.bz2":  "",
		"seed2.txt.bz2": "",
		"x.xz":          "compressed with xz, which loadverdict does not read (it reads gzip, zstd and bzip2); decompress it first (xz -d seed)",
		"x.lz4":         "compressed with lz4, which loadverdict does not read (it reads gzip, zstd and bzip2); decompress it first (lz4 -d seed)",
		"x.zip":         "compressed with zip, which loadverdict does not read (it reads gzip, zstd and bzip2); decompress it first (unzip seed)",
	} {
		in, err := hex.DecodeString(refused[file])
		if msg == "" {
			in, err = os.ReadFile("testdata/compressed/" + file)
		}
		if err != nil {
			t.Fatal(err)
		}
		// Under gzip too: the layers are peeled one by one.
		for _, data := range [][]byte{in, gz(t, in)} {
			got, err := ParseAll(context.Background(), bytes.NewReader(data), opts)
			w := want
			if file == "seed2.txt.bz2" {
				w, _ = ParseAll(context.Background(), bytes.NewReader(append(plain[:len(plain):len(plain)], plain...)), opts)
			}
			switch {
			case msg == "" && (err != nil || !reflect.DeepEqual(got, w)):
				t.Errorf("%s: %d runs, %v", file, len(got), err)
			case msg != "" && (err == nil || err.Error() != "seed: "+msg || !errors.Is(err, ErrInput)):
				t.Errorf("%s: error %v, want %q", file, err, msg)
			}
		}
	}
	bz, _ := os.ReadFile("testdata/compressed/seed.txt.bz2")
	if _, err := ParseAll(context.Background(), bytes.NewReader(bz[:len(bz)/2]), opts); err == nil || !errors.Is(err, ErrInput) {
		t.Errorf("cut bzip2: %v", err)
	}
	// Text that starts like a bzip2 header is text.
	if _, err := ParseAll(context.Background(), strings.NewReader("BZh9 is not a load test\n"), opts); err == nil || !strings.Contains(err.Error(), "not output of a known load generator") {
		t.Errorf("BZh9 text: %v", err)
	}
}
