package core

import (
	"path"
	"strings"
)

// Magic bytes of the compressed inputs Parse decompresses.
var (
	magicGzip = []byte{0x1f, 0x8b}
	magicZstd = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

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
