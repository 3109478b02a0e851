package columnar

import (
	"io"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/zstd"
)

// zstdCodec is arrow-go's zstd codec with one long-lived encoder for the
// default level, the one every file here is written with. arrow-go takes
// an encoder from a sync.Pool for each page and puts it back; each
// garbage collection empties the pool, and a new encoder allocates about
// 18 MB (its tables and a 16 MB history for its 8 MB window), so a large
// samples table re-created one every few row groups. This encoder lives as
// long as the process and has the options of the pool's but a window of
// zstdWindow and a history of about that size (WithLowerEncoderMem): 3.6
// MB in all. Pages up to zstdWindow (data pages are cut at 1 MiB) come out
// byte for byte as arrow-go's encoder writes them, since a frame of one
// segment no larger than the window neither names the window nor can
// match farther back than its start; a larger page is compressed with
// matches at most zstdWindow back. It encodes one page at a time; callers
// of other goroutines wait their turn. Other levels, decoding and
// streaming are arrow-go's.
type zstdCodec struct {
	base compress.Codec
	enc  *zstd.Encoder
}

// zstdWindow is the window of the long-lived encoder: twice a data page.
const zstdWindow = 2 << 20

func init() {
	base, err := compress.GetCodec(compress.Codecs.Zstd)
	if err != nil {
		panic("results: arrow-go has no zstd codec: " + err.Error())
	}
	enc, err := zstd.NewWriter(nil, zstd.WithZeroFrames(true), zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithEncoderConcurrency(1), zstd.WithAllLitEntropyCompression(true),
		zstd.WithWindowSize(zstdWindow), zstd.WithLowerEncoderMem(true))
	if err != nil {
		panic("results: zstd encoder: " + err.Error())
	}
	compress.RegisterCodec(compress.Codecs.Zstd, zstdCodec{base: base, enc: enc})
}

// Encode compresses src at the default level.
func (c zstdCodec) Encode(dst, src []byte) []byte {
	return c.EncodeLevel(dst, src, compress.DefaultCompressionLevel)
}

// EncodeLevel compresses src at level, with the long-lived encoder for
// the default level.
func (c zstdCodec) EncodeLevel(dst, src []byte, level int) []byte {
	if level != compress.DefaultCompressionLevel {
		return c.base.EncodeLevel(dst, src, level)
	}
	return c.enc.EncodeAll(src, dst[:0])
}

// CompressBound is arrow-go's.
func (c zstdCodec) CompressBound(n int64) int64 { return c.base.CompressBound(n) }

// Decode is arrow-go's.
func (c zstdCodec) Decode(dst, src []byte) []byte { return c.base.Decode(dst, src) }

// DecodeWithError is arrow-go's.
func (c zstdCodec) DecodeWithError(dst, src []byte) ([]byte, error) {
	return compress.Decode(c.base, dst, src)
}

// NewReader is arrow-go's.
func (c zstdCodec) NewReader(r io.Reader) io.ReadCloser {
	return c.base.(compress.StreamingCodec).NewReader(r)
}

// NewWriter is arrow-go's.
func (c zstdCodec) NewWriter(w io.Writer) io.WriteCloser {
	return c.base.(compress.StreamingCodec).NewWriter(w)
}

// NewWriterLevel is arrow-go's.
func (c zstdCodec) NewWriterLevel(w io.Writer, level int) (io.WriteCloser, error) {
	return c.base.(compress.StreamingCodec).NewWriterLevel(w, level)
}
