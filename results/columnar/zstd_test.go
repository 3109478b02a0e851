package columnar

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
)

// TestZstdCodec checks that the registered zstd codec is the long-lived
// one, that it compresses as arrow-go's own does, byte for byte, pages up
// to its window (random and repetitive), and that arrow-go's decoder reads
// what it writes, larger pages too.
func TestZstdCodec(t *testing.T) {
	got, err := compress.GetCodec(compress.Codecs.Zstd)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := got.(zstdCodec)
	if !ok {
		t.Fatalf("registered zstd codec is %T, want zstdCodec", got)
	}
	if _, ok := got.(compress.StreamingCodec); !ok {
		t.Error("the codec does not stream: pages would no longer be read as a stream")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{1, 100, 1024, 1025, 128 << 10, 1 << 20, 1<<20 + 12345, zstdWindow, zstdWindow + 1, 3 << 20} {
		for _, kind := range []string{"random", "repetitive"} {
			src := make([]byte, size)
			for i := range src {
				if kind == "random" {
					src[i] = byte(rng.Uint32())
				} else {
					src[i] = byte(i % 251 / 50)
				}
			}
			for _, level := range []int{compress.DefaultCompressionLevel, 3} {
				mine := c.EncodeLevel(nil, src, level)
				theirs := c.base.EncodeLevel(nil, src, level)
				if size <= zstdWindow && !bytes.Equal(mine, theirs) {
					t.Errorf("%s %d bytes, level %d: %d compressed bytes, arrow-go's codec %d", kind, size, level, len(mine), len(theirs))
				}
				back, err := c.DecodeWithError(nil, mine)
				if err != nil || !bytes.Equal(back, src) {
					t.Errorf("%s %d bytes, level %d: does not decode back (%v)", kind, size, level, err)
				}
			}
			if e := c.Encode(nil, src); size <= zstdWindow && !bytes.Equal(e, c.base.Encode(nil, src)) {
				t.Errorf("%s %d bytes: Encode differs from arrow-go's", kind, size)
			}
		}
	}
}
