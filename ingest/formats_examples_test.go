package ingest

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
)

// TestFormatExamples: every format listed by Formats has a typical line,
// and that line stands in one of the format's own samples (a sample that
// Detect gives to that format), so `loadverdict formats` shows what the
// tool really writes.
func TestFormatExamples(t *testing.T) {
	for _, fi := range Formats() {
		if fi.Example == "" {
			t.Errorf("%s: no example line", fi.Name)
			continue
		}
		if fi.Name == "vegeta-gob" { // binary: no line to show
			continue
		}
		var dirs []string
		for _, f := range formats {
			if f.parser.Name() == fi.Name {
				dirs = f.dirs
			}
		}
		found := false
		for _, d := range dirs {
			files, _ := filepath.Glob(filepath.Join(sampleDir(d), "*"))
			for _, fn := range files {
				b, err := os.ReadFile(fn)
				if err == nil && strings.HasSuffix(fn, ".gz") {
					var zr *gzip.Reader
					if zr, err = gzip.NewReader(bytes.NewReader(b)); err == nil {
						b, err = io.ReadAll(zr)
					}
				}
				if err != nil || len(b) == 0 {
					continue
				}
				head := b[:min(len(b), core.HeadSize)]
				if p, err := detect(head); err != nil || p.Name() != fi.Name {
					continue
				}
				if bytes.Contains(b, []byte(fi.Example)) {
					found = true
					break
				}
			}
		}
		if !found {
			t.Errorf("%s: example %q is in none of its samples under %s", fi.Name, fi.Example, strings.Join(dirs, ", "))
		}
	}
}
