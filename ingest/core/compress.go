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

// unreadCompressed are the magic bytes of compressions Parse does not
// read, and the command that decompresses each: such an input is refused
// with that command, not as "not output of a known load generator".
var unreadCompressed = []struct {
	magic       []byte
	format, cmd string
}{
	{[]byte{0xfd, '7', 'z', 'X', 'Z', 0x00}, "xz", "xz -d"},
	{[]byte{0x04, 0x22, 0x4d, 0x18}, "lz4", "lz4 -d"},
	{[]byte{0x02, 0x21, 0x4c, 0x18}, "lz4 (legacy)", "lz4 -d"},
	{[]byte("PK\x03\x04"), "zip", "unzip"},
	{[]byte("7z\xbc\xaf\x27\x1c"), "7-Zip", "7z x"},
}

// isBzip2 reports whether magic (10 bytes or fewer) starts a bzip2
// stream: "BZh", the block size 1-9, then a block's or the end's magic
// (the digits of pi, of sqrt(pi)), so that text starting "BZh1" is not
// taken for one.
func isBzip2(magic []byte) bool {
	if len(magic) < 10 || string(magic[:3]) != "BZh" || magic[3] < '1' || magic[3] > '9' {
		return false
	}
	m := string(magic[4:10])
	return m == "\x31\x41\x59\x26\x53\x59" || m == "\x17\x72\x45\x38\x50\x90"
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
