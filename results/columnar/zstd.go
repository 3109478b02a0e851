package columnar

import (
	"io"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/zstd"
)

// zstdCodec is arrow-go's zstd codec with one long-lived encoder for the
// default level, the one every file here is written with: arrow-go's pool
// of encoders is emptied by every garbage collection, and a new encoder
// allocates about 18 MB. This one has the pool's options but a window of
// zstdWindow (WithLowerEncoderMem, 3.6 MB in all); pages up to zstdWindow
// come out byte for byte as arrow-go's encoder writes them, larger ones
// match at most zstdWindow back. It encodes one page at a time (callers
// wait their turn); other levels, decoding and streaming are arrow-go's.
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
