package ingest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"path"
	"strings"

	"github.com/klauspost/compress/zstd"
)

var (
	magicGzip = []byte{0x1f, 0x8b}
	magicZstd = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// decompress returns a reader of br's content, decompressed when its magic
// bytes say gzip or zstd (several layers too), and a function that
// releases the decoders.
func decompress(br *bufio.Reader, source string) (*bufio.Reader, func(), error) {
	var closers []func()
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	for range 4 {
		magic, _ := br.Peek(4)
		switch {
		case bytes.HasPrefix(magic, magicGzip):
			gz, err := gzip.NewReader(br)
			if err != nil {
				closeAll()
				return nil, nil, fmt.Errorf("%s: gzip: %w", source, err)
			}
			gz.Multistream(true)
			closers = append(closers, func() { gz.Close() })
			br = bufio.NewReaderSize(gz, headSize)
		case bytes.HasPrefix(magic, magicZstd):
			dec, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
			if err != nil {
				closeAll()
				return nil, nil, fmt.Errorf("%s: zstd: %w", source, err)
			}
			closers = append(closers, dec.Close)
			br = bufio.NewReaderSize(dec, headSize)
		default:
			return br, closeAll, nil
		}
	}
	return br, closeAll, nil
}

// sourceLabel names runs whose log does not show a target: the source's
// file name without compression and format extensions, or what --label
// maps that name to.
func sourceLabel(opts Options) string {
	name := path.Base(strings.ReplaceAll(opts.Source, "\\", "/"))
	for _, ext := range []string{".gz", ".zst", ".csv", ".tsv", ".json", ".jsonl", ".ndjson", ".txt", ".log", ".bin", ".gob", ".jtl", ".xml", ".dat"} {
		name = strings.TrimSuffix(name, ext)
	}
	if l, ok := opts.Labels[name]; ok {
		return l
	}
	return name
}
