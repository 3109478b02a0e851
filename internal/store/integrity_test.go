package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestExperimentNames is the naming rule as a table: the experiment of a
// raw key is its first segment after raw/, verbatim; any printable name
// works (the CLI's --experiment is checked by the same CheckExperiment).
func TestExperimentNames(t *testing.T) {
	for _, c := range []struct {
		key, exp string
	}{
		{"raw/zuul-vs-openresty/seed.txt", "zuul-vs-openresty"},
		{"raw/zuul-vs-openresty/sub/run 2.txt", "zuul-vs-openresty"},
		{"raw/zuul-vs-openresty.txt", "zuul-vs-openresty.txt"},
		{"raw/a.txt", "a.txt"},
		{"raw/a/b.txt", "a"},
		{"raw/a b/c.txt", "a b"},
		{"raw/über/c.txt", "über"},
		{"raw/a=b/c.txt", "a=b"},
		{"raw/it's/c.txt", "it's"},
		{"raw/100%/c.txt", "100%"},
		{"raw/my results (1).json.gz", "my results (1).json.gz"},
		{"raw/.hidden/x", ".hidden"},
		{"raw/日本語/x.txt", "日本語"},
	} {
		got, err := ExperimentOf(c.key)
		if err != nil || got != c.exp {
			t.Errorf("ExperimentOf(%q) = %q, %v; want %q", c.key, got, err, c.exp)
		}
	}
	for _, bad := range []string{"tables/x", "raw/../x", "raw/./x", "raw//x", "raw/a\x7fb/x", "raw/a\u202eb/x", "raw/" + strings.Repeat("x", 300) + "/y"} {
		if exp, err := ExperimentOf(bad); err == nil {
			t.Errorf("ExperimentOf(%q) = %q, no error", bad, exp)
		}
	}
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"zuul-vs-openresty", true}, {"a b", true}, {"über", true}, {"a=b", true}, {"it's", true},
		{"100%", true}, {`a\b`, false}, {"x.txt", true}, {".hidden", true}, {" padded ", true},
		{strings.Repeat("ü", 120), true},
		{"", false}, {".", false}, {"..", false}, {"a/b", false}, {"a\x00b", false}, {"a\tb", false},
		{"a\u202eb", false}, {"a\xffb", false}, {strings.Repeat("x", 256), false}, {strings.Repeat("=", 100), false},
	} {
		if err := CheckExperiment(c.name); (err == nil) != c.ok {
			t.Errorf("CheckExperiment(%q) = %v, want ok %v", c.name, err, c.ok)
		}
	}
	// SanitizeName (the CLI's default name, from a file name) keeps what
	// CheckExperiment accepts.
	for _, c := range []struct{ in, want string }{
		{"my results (1)", "my results (1)"}, {"über a=b", "über a=b"}, {"a/b\\c\x00d\xffe\u202ef", "a-b-c-d-e-f"},
		{"\uFFFD", "\uFFFD"}, {"", "experiment"}, {"..", "experiment"}, {"\x00", "-"},
		{strings.Repeat("=", 100), strings.Repeat("=", 77) + "~89191c9c647d"},
	} {
		if got := SanitizeName(c.in); got != c.want || CheckExperiment(got) != nil {
			t.Errorf("SanitizeName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestExperimentKeys: the keys derived from a name escape it the way Hive
// partitions do; the raw folder (and manifest) keep the name as it is.
func TestExperimentKeys(t *testing.T) {
	src := "raw/a=b/x.txt"
	for _, c := range []struct{ got, want string }{
		{TableKey("runs", "a=b", src, "0123456789ab"), "tables/runs/experiment=a%3Db/" + SourceID(src) + "-0123456789ab.parquet"},
		{CommitKey("a=b", src), "tables/_sources/experiment=a%3Db/" + SourceID(src) + ".json"},
		{TablePrefix("series", "it's"), "tables/series/experiment=it%27s/"},
		{ReportKey("a b", "report.md"), "reports/a b/report.md"},
		{ReportKey("über", "report.md"), "reports/über/report.md"},
		{RejectedKey("100%", src), "rejected/100%25/" + SourceID(src) + ".json"},
		{ManifestKey("a=b"), "raw/a=b/loadverdict.yaml"},
		{TableKey("runs", "zuul-vs-openresty", src, "g"), "tables/runs/experiment=zuul-vs-openresty/" + SourceID(src) + "-g.parquet"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	// Escaping is undone by UnescapeName and ExperimentOfKey, and tells
	// names apart.
	seen := map[string]string{}
	for _, name := range []string{"a=b", "a%3Db", "a%3db", "it's", "100%", "100%25", "über", "a b", "x.txt", "#[]{}^*?:\"", "a%", "%"} {
		esc := EscapeName(name)
		if other, ok := seen[esc]; ok {
			t.Errorf("%q and %q both escape to %q", name, other, esc)
		}
		seen[esc] = name
		if got := UnescapeName(esc); got != name {
			t.Errorf("UnescapeName(EscapeName(%q)) = %q", name, got)
		}
		for _, key := range []string{TableKey("runs", name, src, "g"), CommitKey(name, src), ReportKey(name, "report.md"), RejectedKey(name, src)} {
			if got, ok := ExperimentOfKey(key); !ok || got != name {
				t.Errorf("ExperimentOfKey(%q) = %q, %v; want %q", key, got, ok, name)
			}
		}
	}
	for _, key := range []string{"raw/a/b.txt", "tables/runs/x.parquet", "reports/x", "tables/runs/experiment=x"} {
		if got, ok := ExperimentOfKey(key); ok {
			t.Errorf("ExperimentOfKey(%q) = %q, true", key, got)
		}
	}
}

// symlinkFixture makes a store root and, outside it, a folder holding
// secret.txt and report.md.
func symlinkFixture(t *testing.T) (root, outside string, l *Local) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "store"), filepath.Join(base, "outside")
	for _, d := range []string{root, outside, filepath.Join(root, "raw", "e"), filepath.Join(root, "reports")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{"secret.txt": "secret", "report.md": "theirs"} {
		if err := os.WriteFile(filepath.Join(outside, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "raw", "e", "a.txt"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"reports/x":         outside,                                 // a folder out of the root
		"raw/out":           outside,                                 // a raw folder out of the root
		"raw/e/link.txt":    filepath.Join(outside, "secret.txt"),    // a file out of the root
		"raw/e/rel.txt":     "../../../outside/secret.txt",           // the same, relative
		"raw/alias":         "e",                                     // inside the root: fine
		"reports/abs-alias": filepath.Join(root, "raw", "e"),         // inside, absolute: fine
		"raw/e/loop":        filepath.Join(root, "raw", "e", "loop"), // a loop
	}
	for key, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(key))); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	if l, err = NewLocal(root); err != nil {
		t.Fatal(err)
	}
	return root, outside, l
}

// TestLocalConfinement: the local store never reads, writes, lists or
// deletes through a symlink that leaves its folder.
func TestLocalConfinement(t *testing.T) {
	ctx := context.Background()
	_, outside, l := symlinkFixture(t)
	unchanged := func() {
		t.Helper()
		ents, _ := os.ReadDir(outside)
		if len(ents) != 2 {
			t.Errorf("outside folder now holds %d files", len(ents))
		}
		for name, body := range map[string]string{"secret.txt": "secret", "report.md": "theirs"} {
			if b, err := os.ReadFile(filepath.Join(outside, name)); err != nil || string(b) != body {
				t.Errorf("outside %s: %q %v", name, b, err)
			}
		}
	}
	for _, key := range []string{"raw/e/link.txt", "raw/e/rel.txt", "raw/out/secret.txt", "reports/x/report.md", "raw/e/loop", "reports/abs-alias/a.txt"} {
		if rc, _, err := l.Get(ctx, key); err == nil {
			b, _ := io.ReadAll(rc)
			rc.Close()
			t.Errorf("Get %s: read %q through a symlink out of the store", key, b)
		}
		if _, err := l.Head(ctx, key); err == nil {
			t.Errorf("Head %s: no error", key)
		}
	}
	for _, key := range []string{"reports/x/report.md", "reports/x/new.md", "raw/out/secret.txt", "reports/x/sub/deep.md"} {
		if err := l.Put(ctx, key, strings.NewReader("written")); err == nil {
			t.Errorf("Put %s through a symlink out of the store: no error", key)
		}
		if err := l.Delete(ctx, key); err == nil && key == "reports/x/report.md" {
			t.Errorf("Delete %s through a symlink out of the store: no error", key)
		}
	}
	objs, err := l.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if o.Key != "raw/e/a.txt" {
			t.Errorf("List gives %s", o.Key)
		}
	}
	unchanged()
	// Relative symlinks that stay inside the store work.
	for _, key := range []string{"raw/alias/a.txt"} {
		if b, _, err := ReadAll(ctx, l, key); err != nil || string(b) != "inside" {
			t.Errorf("Get %s (a symlink inside the store): %q %v", key, b, err)
		}
	}
	// Keys that would leave the store are refused before any file is touched.
	for _, key := range []string{"../outside/secret.txt", "raw/../../outside/secret.txt", "/etc/passwd"} {
		if _, _, err := l.Get(ctx, key); err == nil {
			t.Errorf("Get %q: no error", key)
		}
	}
}

// TestChangedWhileRead: a local file that shrinks, grows or is rewritten
// while it is read, through Local.Get or OpenFile, gives an error matching
// ErrChanged at its end, never a short or mixed read that looks complete;
// read through ReadAt, File.Unchanged gives it.
func TestChangedWhileRead(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789\n"), 100_000)
	openers, changes := changedOpeners(), changedWrites(body)
	for oname, open := range openers {
		for cname, change := range changes {
			t.Run(oname+" "+cname, func(t *testing.T) {
				readWhileChanged(t, body, open, cname, change)
			})
			t.Run(oname+" ReadAt "+cname, func(t *testing.T) {
				readAtWhileChanged(t, body, open, cname, change)
			})
		}
	}
	readReplacedByPut(t, body)
	readPipeUnchecked(t, body)
}

// changedOpeners open raw/e/a.txt under root: by Local.Get and by OpenFile.
func changedOpeners() map[string]func(t *testing.T, root string) io.ReadCloser {
	ctx := context.Background()
	return map[string]func(t *testing.T, root string) io.ReadCloser{
		"Local.Get": func(t *testing.T, root string) io.ReadCloser {
			l, err := NewLocal(root)
			if err != nil {
				t.Fatal(err)
			}
			rc, _, err := l.Get(ctx, "raw/e/a.txt")
			if err != nil {
				t.Fatal(err)
			}
			return rc
		},
		"OpenFile": func(t *testing.T, root string) io.ReadCloser {
			f, err := OpenFile(filepath.Join(root, "raw", "e", "a.txt"))
			if err != nil {
				t.Fatal(err)
			}
			return f
		},
	}
}

// changedWrites are the changes made to a file (of body) while it is read.
func changedWrites(body []byte) map[string]func(path string) error {
	return map[string]func(path string) error{
		"unchanged": func(string) error { return nil },
		"truncated": func(p string) error { return os.Truncate(p, int64(len(body)/3)) },
		"appended": func(p string) error {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			_, err = f.Write([]byte("more\n"))
			return errors.Join(err, f.Close())
		},
		"rewritten in place": func(p string) error {
			// The same size, a later modification time: set, not waited
			// for (a sleep would depend on the clock's and the file
			// system's granularity).
			was, err := os.Stat(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(p, bytes.ToUpper(body), 0o644); err != nil {
				return err
			}
			later := was.ModTime().Add(time.Second)
			return os.Chtimes(p, later, later)
		},
	}
}

// readWhileChanged reads the first 1000 bytes, makes the change, and reads
// the rest: whole when unchanged, else ErrChanged.
func readWhileChanged(t *testing.T, body []byte, open func(t *testing.T, root string) io.ReadCloser, cname string, change func(string) error) {
	t.Helper()
	root, p := bodyAt(t, body)
	rc := open(t, root)
	defer rc.Close()
	head := make([]byte, 1000)
	if _, err := io.ReadFull(rc, head); err != nil {
		t.Fatal(err)
	}
	if err := change(p); err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, rc)
	if cname == "unchanged" {
		if err != nil || n+1000 != int64(len(body)) {
			t.Errorf("read %d bytes, %v", n+1000, err)
		}
		return
	}
	if !errors.Is(err, ErrChanged) {
		t.Errorf("read %d more bytes, error %v", n, err)
	}
}

// bodyAt writes body to raw/e/a.txt under a new root: the root and the
// file's path.
func bodyAt(t *testing.T, body []byte) (root, path string) {
	t.Helper()
	root = t.TempDir()
	path = filepath.Join(root, "raw", "e", "a.txt")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	return root, path
}

// readAtWhileChanged reads 1000 bytes at 5000 through ReadAt, makes the
// change, and asks File.Unchanged: nil when unchanged, else ErrChanged.
func readAtWhileChanged(t *testing.T, body []byte, open func(t *testing.T, root string) io.ReadCloser, cname string, change func(string) error) {
	t.Helper()
	root, p := bodyAt(t, body)
	rc := open(t, root)
	defer rc.Close()
	f, ok := rc.(*File)
	if !ok {
		t.Fatalf("a local file opened as %T, not *File", rc)
	}
	got := make([]byte, 1000)
	if _, err := f.ReadAt(got, 5000); err != nil || !bytes.Equal(got, body[5000:6000]) {
		t.Fatalf("ReadAt: %v, or other bytes", err)
	}
	if err := change(p); err != nil {
		t.Fatal(err)
	}
	err := f.Unchanged()
	if cname == "unchanged" {
		if err != nil {
			t.Errorf("Unchanged of an unchanged file: %v", err)
		}
		return
	}
	if !errors.Is(err, ErrChanged) {
		t.Errorf("Unchanged after %s: %v", cname, err)
	}
}

// readReplacedByPut: a file replaced by Put (a rename) is read whole, in
// its old version.
func readReplacedByPut(t *testing.T, body []byte) {
	t.Helper()
	ctx := context.Background()
	l, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Put(ctx, "raw/e/a.txt", bytes.NewReader(body)); err != nil {
		t.Fatal(err)
	}
	rc, _, err := l.Get(ctx, "raw/e/a.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if err := l.Put(ctx, "raw/e/a.txt", strings.NewReader("new")); err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(rc); err != nil || !bytes.Equal(b, body) {
		t.Errorf("old version: %d bytes, %v", len(b), err)
	}
}

// readPipeUnchecked: pipes are read unchecked (skips without /dev/fd).
func readPipeUnchecked(t *testing.T, body []byte) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	werr := make(chan error, 1)
	go func() {
		_, err := pw.Write(body)
		pw.Close()
		werr <- err
	}()
	f, err := OpenFile(fmt.Sprintf("/dev/fd/%d", pr.Fd()))
	if err != nil {
		t.Skip("no /dev/fd:", err)
	}
	defer f.Close()
	if b, err := io.ReadAll(f); err != nil || len(b) != len(body) {
		t.Errorf("pipe: %d bytes, %v", len(b), err)
	}
	if err := <-werr; err != nil {
		t.Errorf("writing the pipe: %v", err)
	}
}

// FuzzExperimentNames: for any name CheckExperiment accepts, the keys
// derived from it are valid keys that give the name back, and a raw key
// in its folder gives it too; no two names share an escaped form.
func FuzzExperimentNames(f *testing.F) {
	for _, s := range []string{"zuul-vs-openresty", "a b", "über", "a=b", "it's", "100%", "%41", "x.txt", "#[]{}^*?:\"", "日本語"} {
		f.Add(s, "a=b")
	}
	f.Fuzz(func(t *testing.T, name, other string) {
		if CheckExperiment(name) != nil {
			if exp, err := ExperimentOf(RawPrefix + name + "/x.txt"); err == nil && exp == name {
				t.Fatalf("ExperimentOf accepts %q, CheckExperiment does not", name)
			}
			return
		}
		esc := EscapeName(name)
		if UnescapeName(esc) != name || strings.Contains(esc, "/") {
			t.Fatalf("%q escapes to %q", name, esc)
		}
		for _, key := range []string{TableKey("runs", name, "raw/x", Generation("e")), CommitKey(name, "raw/x"), ReportKey(name, "report.md"), RejectedKey(name, "raw/x")} {
			if err := CheckKey(key); err != nil {
				t.Fatalf("%q: key %q: %v", name, key, err)
			}
			if got, ok := ExperimentOfKey(key); !ok || got != name {
				t.Fatalf("ExperimentOfKey(%q) = %q, %v; want %q", key, got, ok, name)
			}
		}
		if exp, err := ExperimentOf(RawPrefix + name + "/x.txt"); err != nil || exp != name {
			t.Fatalf("ExperimentOf(raw/%s/x.txt) = %q, %v", name, exp, err)
		}
		if other != name && CheckExperiment(other) == nil && EscapeName(other) == esc {
			t.Fatalf("%q and %q both escape to %q", name, other, esc)
		}
	})
}

// TestExperimentNameLengths: an experiment name is accepted exactly when
// every key derived from it can be written, in a local store (each path
// element at most 255 bytes) and as a bucket key; around the bound, in
// ASCII, escaped characters and multi-byte runes.
func TestExperimentNameLengths(t *testing.T) {
	l, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	for _, fill := range []string{"x", "=", "ü", "語"} {
		for n := 230; n <= 262; n++ {
			name := strings.Repeat(fill, n)
			for len(EscapeName(name)) > n {
				_, size := utf8.DecodeLastRuneInString(name)
				name = name[:len(name)-size]
			}
			keys := []string{TableKey("runs", name, "s", "g"), CommitKey(name, "s"), LeaseKey(name), ReportKey(name, "index.html"), RejectedKey(name, "s"), ManifestKey(name)}
			fits := true
			for _, k := range keys {
				for _, seg := range strings.Split(k, "/") {
					fits = fits && len(seg) <= 255
				}
			}
			if ok := CheckExperiment(name) == nil; ok != fits {
				t.Errorf("%d bytes of %q (%d escaped): accepted %v, keys fit %v", len(name), fill, len(EscapeName(name)), ok, fits)
			}
			if CheckExperiment(name) != nil {
				a, b := SanitizeName(name+"a"), SanitizeName(name+"b")
				if CheckExperiment(a) != nil || a == b {
					t.Errorf("SanitizeName of %d bytes of %q: %q (refused: %v), %q", len(name), fill, a, CheckExperiment(a), b)
				}
				continue
			}
			for _, k := range keys {
				if err := CheckKey(k); err != nil {
					t.Errorf("%d bytes of %q: bucket key: %v", len(name), fill, err)
				}
				if err := l.Put(ctx, k, strings.NewReader("x")); err != nil {
					t.Errorf("%d bytes of %q: local store: %v", len(name), fill, err)
				}
			}
		}
	}
}
