package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Prefixes of the bucket layout.
const (
	RawPrefix      = "raw/"
	TablesPrefix   = "tables/"
	ReportsPrefix  = "reports/"
	RejectedPrefix = "rejected/"
	// ManifestName is the optional manifest of an experiment, raw/<experiment>/loadverdict.yaml.
	ManifestName = "loadverdict.yaml"
	// SeriesDir holds the reports of series, reports/_series/<series>/;
	// no experiment may be named so.
	SeriesDir = "_series"
)

// maxKeyLen is S3's limit on key length, in bytes.
const maxKeyLen = 1024

// CheckKey rejects keys that are not safe as both object keys and relative
// file paths: empty, too long, not UTF-8, absolute, with a backslash, a
// control character, or an empty, "." or ".." segment.
func CheckKey(key string) error {
	switch {
	case key == "" || len(key) > maxKeyLen:
		return fmt.Errorf("invalid key %q: empty or longer than %d bytes", key, maxKeyLen)
	case !utf8.ValidString(key):
		return fmt.Errorf("invalid key %q: not UTF-8", key)
	case strings.HasPrefix(key, "/") || strings.Contains(key, "\\"):
		return fmt.Errorf("invalid key %q: absolute or with a backslash", key)
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("invalid key %q: control character", key)
		}
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("invalid key %q: empty, '.' or '..' segment", key)
		}
	}
	return nil
}

// maxNameBytes bounds an experiment name once escaped (EscapeName): the
// longest path element derived from it, "experiment=<escaped>", is then
// a file name of at most 255 bytes, the limit of common file systems (a
// name of 245-255 bytes was accepted and could not be written locally).
const maxNameBytes = 255 - len("experiment=")

// CheckExperiment rejects what cannot be an experiment name: an empty
// name, "." or "..", a name with a path separator ('/' or '\\', which
// CheckKey refuses in keys), invalid UTF-8 or a character that is
// not printable (unicode.IsPrint: letters, marks, digits, punctuation,
// symbols and the ASCII space; no control, format or other space
// characters), or one longer than 244 bytes once escaped (maxNameBytes). Any other name
// works: "a b", "über", "a=b", "it's".
func CheckExperiment(name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("invalid experiment name %q: empty, '.' or '..'", name)
	case name == SeriesDir:
		return fmt.Errorf("invalid experiment name %q: reserved for the reports of series (reports/%s/)", name, SeriesDir)
	case !utf8.ValidString(name):
		return fmt.Errorf("invalid experiment name %q: not UTF-8", name)
	case len(EscapeName(name)) > maxNameBytes:
		return fmt.Errorf("invalid experiment name %q: %d bytes once escaped, longer than %d (its folder experiment=<name> must fit a file name's 255 bytes)", name, len(EscapeName(name)), maxNameBytes)
	}
	for _, r := range name {
		if r == '/' || r == '\\' || !unicode.IsPrint(r) {
			return fmt.Errorf("invalid experiment name %q: %q is not allowed (use printable characters, no '/' or '\\')", name, r)
		}
	}
	return nil
}

// ExperimentOf returns the experiment of a raw upload: the first segment
// of the key after raw/, as it is. raw/<folder>/... gives <folder>, and a
// file directly under raw/ forms an experiment named after the whole file
// name, so raw/a.txt (experiment "a.txt") and raw/a/b.txt (experiment
// "a") stay apart.
func ExperimentOf(rawKey string) (string, error) {
	if err := CheckKey(rawKey); err != nil {
		return "", err
	}
	rest, ok := strings.CutPrefix(rawKey, RawPrefix)
	if !ok {
		return "", fmt.Errorf("key %q is not under %s", rawKey, RawPrefix)
	}
	name, _, _ := strings.Cut(rest, "/")
	if err := CheckExperiment(name); err != nil {
		return "", fmt.Errorf("key %q: %w", rawKey, err)
	}
	return name, nil
}

// SanitizeName turns a file name into a valid experiment name: characters
// CheckExperiment refuses become '-', a name too long is cut and ends in
// "~" and 12 hex digits of the SHA-256 of the file name (two long names
// that differ past the cut stay two experiments), and a name left empty,
// "." or ".." becomes "experiment".
func SanitizeName(base string) string {
	var b strings.Builder
	for i, r := range base {
		if r == '/' || r == '\\' || !unicode.IsPrint(r) || r == utf8.RuneError && !strings.HasPrefix(base[i:], "\uFFFD") {
			b.WriteByte('-')
		} else {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if len(EscapeName(name)) > maxNameBytes {
		sum := sha256.Sum256([]byte(base))
		suffix := "~" + hex.EncodeToString(sum[:6])
		for len(EscapeName(name))+len(suffix) > maxNameBytes {
			_, size := utf8.DecodeLastRuneInString(name)
			name = name[:len(name)-size]
		}
		name += suffix
	}
	if CheckExperiment(name) != nil {
		return "experiment"
	}
	return name
}

// escapeByte tells the bytes EscapeName escapes, those Hive's
// FileUtils.escapePathName escapes: the ASCII controls, DEL and the
// characters of `"#%'*/:=?\{[]^`.
func escapeByte(c byte) bool {
	return c < 0x20 || c == 0x7f || strings.IndexByte("\"#%'*/:=?\\{[]^", c) >= 0
}

// EscapeName returns an experiment name as it appears in the keys this
// package derives from it (tables/<table>/experiment=<escaped>/,
// reports/<escaped>/, rejected/<escaped>/): escaped like a Hive partition
// value by Hive's escapePathName. Each of the ASCII controls, DEL and the
// characters of `"#%'*/:=?\{[]^` becomes %XX (upper-case hex); every
// other character, non-ASCII letters and the space included, stays.
// Readers of Hive-style partitions (Hive, Spark, Athena, pyarrow, DuckDB)
// unescape it back. Names of letters, digits, '.', '_', '-' and spaces
// are unchanged.
func EscapeName(name string) string {
	n := 0
	for i := 0; i < len(name); i++ {
		if escapeByte(name[i]) {
			n++
		}
	}
	if n == 0 {
		return name
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(name)+2*n)
	for i := 0; i < len(name); i++ {
		if c := name[i]; escapeByte(c) {
			b = append(b, '%', hex[c>>4], hex[c&15])
		} else {
			b = append(b, c)
		}
	}
	return string(b)
}

// UnescapeName returns the experiment name of a key segment made by
// EscapeName (Hive's unescapePathName: %XX becomes the byte XX; a '%' not
// followed by two hex digits stays).
func UnescapeName(seg string) string {
	if strings.IndexByte(seg, '%') < 0 {
		return seg
	}
	b := make([]byte, 0, len(seg))
	for i := 0; i < len(seg); i++ {
		if seg[i] == '%' && i+2 < len(seg) && isHex(seg[i+1]) && isHex(seg[i+2]) {
			b = append(b, unhex(seg[i+1])<<4|unhex(seg[i+2]))
			i += 2
			continue
		}
		b = append(b, seg[i])
	}
	return string(b)
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// SourceID names a source's files in the tables: the first 16 hex digits
// of sha256(source), stable for the same key or path.
func SourceID(source string) string {
	sum := sha256.Sum256([]byte(source))
	return hex.EncodeToString(sum[:8])
}

// Generation names the table files made from one content of a raw
// object: the first 12 hex digits of sha256 of its ETag (which follows
// the content), so new content under a key gets new files and the same
// content, uploaded again or not, the same ones.
func Generation(etag string) string {
	sum := sha256.Sum256([]byte(etag))
	return hex.EncodeToString(sum[:6])
}

// CommitsPrefix is where the per-source commit records live
// (tables/_sources/experiment=<escaped>/<source-id>.json): under tables/,
// outside every table's folder, and named with a leading underscore, which
// Hive, Athena, Spark and pyarrow skip.
const CommitsPrefix = TablesPrefix + "_sources/"

// LeasesPrefix is where the analysis leases live
// (tables/_leases/experiment=<escaped>/analysis.json): beside the commit
// records, outside every table's folder.
const LeasesPrefix = TablesPrefix + "_leases/"

// LeaseKey is the lease on an experiment's analysis: which invocation
// is making its report (see package pipeline, Analyze).
func LeaseKey(experiment string) string {
	return LeasesPrefix + "experiment=" + EscapeName(experiment) + "/analysis.json"
}

// TableKey is the file of one table made from one generation of a
// source, Hive-style: tables/<table>/experiment=<escaped>/<source-id>-<generation>.parquet.
func TableKey(table, experiment, source, generation string) string {
	return TablePrefix(table, experiment) + SourceID(source) + "-" + generation + ".parquet"
}

// TablePrefix is the prefix of an experiment's files of a table.
func TablePrefix(table, experiment string) string {
	return TablesPrefix + table + "/experiment=" + EscapeName(experiment) + "/"
}

// CommitPrefixOf is the prefix of an experiment's commit records.
func CommitPrefixOf(experiment string) string {
	return CommitsPrefix + "experiment=" + EscapeName(experiment) + "/"
}

// CommitKey is the commit record of a source: which generation of its
// tables is the current one (see package pipeline).
func CommitKey(experiment, source string) string {
	return CommitPrefixOf(experiment) + SourceID(source) + ".json"
}

// SourceIDOfKey returns the source id of a key this package derives from
// a source (a table file, a commit or rejection record) and, for a
// table file, its generation.
func SourceIDOfKey(key string) (id, generation string) {
	base := key[strings.LastIndexByte(key, '/')+1:]
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".parquet"), ".json")
	id, generation, _ = strings.Cut(base, "-")
	return id, generation
}

// ReportKey is a file of an experiment's report.
func ReportKey(experiment, name string) string {
	return ReportsPrefix + EscapeName(experiment) + "/" + name
}

// RejectedPrefixOf is the prefix of an experiment's rejection records.
func RejectedPrefixOf(experiment string) string {
	return RejectedPrefix + EscapeName(experiment) + "/"
}

// ExperimentOfKey returns the experiment of a derived key: a table file
// (tables/<table>/experiment=<escaped>/...), a report or a rejection
// record (reports/<escaped>/..., rejected/<escaped>/...); false for other keys.
func ExperimentOfKey(key string) (string, bool) {
	var seg string
	if rest, ok := strings.CutPrefix(key, TablesPrefix); ok {
		_, rest, ok = strings.Cut(rest, "/experiment=")
		if !ok {
			return "", false
		}
		seg, _, ok = strings.Cut(rest, "/")
		if !ok {
			return "", false
		}
	} else {
		rest, ok := strings.CutPrefix(key, ReportsPrefix)
		if !ok {
			rest, ok = strings.CutPrefix(key, RejectedPrefix)
		}
		if !ok {
			return "", false
		}
		if seg, _, ok = strings.Cut(rest, "/"); !ok {
			return "", false
		}
	}
	name := UnescapeName(seg)
	return name, CheckExperiment(name) == nil
}

// SeriesReportKey is a file of a series' report, reports/_series/<series>/<name>,
// the series' name escaped as an experiment's (EscapeName).
func SeriesReportKey(series, name string) string {
	return ReportsPrefix + SeriesDir + "/" + EscapeName(series) + "/" + name
}

// RejectedKey is the record of a source that could not be ingested.
func RejectedKey(experiment, source string) string {
	return RejectedPrefixOf(experiment) + SourceID(source) + ".json"
}

// ManifestKey is the manifest of an experiment, in its raw folder (whose
// name is the experiment's, unescaped).
func ManifestKey(experiment string) string { return RawPrefix + experiment + "/" + ManifestName }
