package pipeline

import (
	"bytes"
	"crypto/sha256"
	"io"
	"testing"
	"testing/iotest"
)

// hashReader gives the bytes through unchanged and their SHA-256, however
// the reads are cut, and a read after Sum passes unhashed.
func TestHashReader(t *testing.T) {
	data := make([]byte, 3*hashChunk+12345)
	for i := range data {
		data[i] = byte(i * 7)
	}
	for name, r := range map[string]func() io.Reader{
		"whole":    func() io.Reader { return bytes.NewReader(data) },
		"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data[:5000])) },
		"half":     func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) },
		"empty":    func() io.Reader { return bytes.NewReader(nil) },
	} {
		src := r()
		want, _ := io.ReadAll(r())
		hr := newHashReader(src)
		got, err := io.ReadAll(hr)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: %d bytes, %v", name, len(got), err)
		}
		if sum := sha256.Sum256(want); !bytes.Equal(hr.Sum(), sum[:]) {
			t.Errorf("%s: wrong hash", name)
		}
		hr.Close()
		if n, _ := hr.Read(make([]byte, 10)); n != 0 {
			t.Errorf("%s: read %d after the end", name, n)
		}
	}
	hr := newHashReader(bytes.NewReader(data))
	hr.Close()
	if n, err := hr.Read(make([]byte, 100)); n != 100 || err != nil {
		t.Errorf("read after Close: %d, %v", n, err)
	}
}
