package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"strings"
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

var experimentRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// CheckExperiment rejects experiment names that are not safe as a path
// segment and a Hive partition value.
func CheckExperiment(name string) error {
	if !experimentRE.MatchString(name) || strings.Contains(name, "..") {
		return fmt.Errorf("invalid experiment name %q: use letters, digits, '.', '_' and '-' (at most 128, no '..')", name)
	}
	return nil
}

// ExperimentOf returns the experiment of a raw upload: raw/<experiment>/...
// gives <experiment>; raw/<file> forms an experiment named after the file.
func ExperimentOf(rawKey string) (string, error) {
	if err := CheckKey(rawKey); err != nil {
		return "", err
	}
	rest, ok := strings.CutPrefix(rawKey, RawPrefix)
	if !ok {
		return "", fmt.Errorf("key %q is not under %s", rawKey, RawPrefix)
	}
	name := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		name = rest[:i]
	} else {
		name = SanitizeName(strings.TrimSuffix(rest, path.Ext(rest)))
	}
	if err := CheckExperiment(name); err != nil {
		return "", fmt.Errorf("key %q: %w", rawKey, err)
	}
	return name, nil
}

// SanitizeName turns a file name into a valid experiment name.
func SanitizeName(base string) string {
	var b strings.Builder
	for _, r := range base {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	name := strings.Trim(strings.ReplaceAll(b.String(), "..", "."), ".-_")
	if len(name) > 128 {
		name = name[:128]
	}
	if name == "" || CheckExperiment(name) != nil {
		return "experiment"
	}
	return name
}

// SourceID names a source's files in the tables: the first 16 hex digits
// of sha256(source), stable for the same key or path.
func SourceID(source string) string {
	sum := sha256.Sum256([]byte(source))
	return hex.EncodeToString(sum[:8])
}

// TableKey is where one source's rows of a table live, Hive-style.
func TableKey(table, experiment, source string) string {
	return TablesPrefix + table + "/experiment=" + experiment + "/" + SourceID(source) + ".parquet"
}

// TablePrefix is the prefix of an experiment's files of a table.
func TablePrefix(table, experiment string) string {
	return TablesPrefix + table + "/experiment=" + experiment + "/"
}

// ReportKey is a file of an experiment's report.
func ReportKey(experiment, name string) string { return ReportsPrefix + experiment + "/" + name }

// RejectedKey is the record of a source that could not be ingested.
func RejectedKey(experiment, source string) string {
	return RejectedPrefix + experiment + "/" + SourceID(source) + ".json"
}

// ManifestKey is the manifest of an experiment.
func ManifestKey(experiment string) string { return RawPrefix + experiment + "/" + ManifestName }
