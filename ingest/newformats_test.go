package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// newFormats maps each testdata folder of the formats added for issue 13
// to the parser that must claim a file of it (by its name).
var newFormats = map[string]func(base string) string{
	"bombardier": func(base string) string {
		if strings.HasSuffix(base, ".json") {
			return "bombardier-json"
		}
		return "bombardier"
	},
	"h2load": func(string) string { return "h2load" },
	"gatling": func(base string) string {
		if strings.HasSuffix(base, ".log") {
			return "gatling-log"
		}
		return "gatling"
	},
	"artillery": func(base string) string {
		if strings.HasSuffix(base, ".json") {
			return "artillery-json"
		}
		return "artillery"
	},
	"oha": func(base string) string {
		if strings.HasSuffix(base, ".json") {
			return "oha-json"
		}
		return "oha"
	},
	"ghz": func(base string) string {
		if strings.HasSuffix(base, ".json") {
			return "ghz-json"
		}
		return "ghz"
	},
	"fortio": func(base string) string {
		if strings.HasSuffix(base, ".json") {
			return "fortio-json"
		}
		return "fortio"
	},
	"autocannon": func(base string) string {
		if strings.HasSuffix(base, ".json") {
			return "autocannon-json"
		}
		return "autocannon"
	},
	"siege": func(base string) string {
		if strings.HasSuffix(base, ".json") {
			return "siege-json"
		}
		return "siege"
	},
}

// newFormatNames are the parsers of those formats.
var newFormatNames = []string{"bombardier", "bombardier-json", "h2load", "siege", "siege-json", "autocannon", "autocannon-json", "fortio", "fortio-json", "ghz", "ghz-json", "oha", "oha-json", "artillery", "artillery-json", "gatling", "gatling-log"}

// TestNewFormatsDetect walks every testdata folder: a file of a new
// format's folder is claimed by its parser and by no other parser (old or
// new); a file of any other folder by none of the new parsers.
func TestNewFormatsDetect(t *testing.T) {
	news := newFormatNames
	for _, name := range news {
		heyabParser(t, name) // registered
	}
	dirs, _ := filepath.Glob("testdata/*")
	n := 0
	for _, dir := range dirs {
		base := filepath.Base(dir)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() || base == "fuzz" {
			continue
		}
		want := newFormats[base]
		for _, in := range goldenInputs(t, dir) {
			head := k6FileHead(t, in)
			w := ""
			if want != nil {
				w = want(filepath.Base(in))
			}
			for _, p := range Parsers() {
				claimed := p.Detect(decodeHead(head))
				switch {
				case w != "" && p.Name() == w && !claimed:
					t.Errorf("%s: not claimed by %s", in, w)
				case w != "" && p.Name() != w && claimed:
					t.Errorf("%s (%s): also claimed by %s", in, w, p.Name())
				case w == "" && claimed && slices.Contains(news, p.Name()):
					t.Errorf("%s: claimed by %s", in, p.Name())
				}
			}
			if w != "" {
				if p, err := Detect(head); err != nil || p.Name() != w {
					t.Errorf("%s: Detect gives %v (%v), want %s", in, p, err, w)
				}
			}
			n++
		}
	}
	if n < 100 {
		t.Errorf("only %d inputs looked at", n)
	}
}

// checkTruncated cuts a complete output after each of the given lines and
// requires the parser named name to refuse it with a *SyntaxError naming
// the file and a line, or (cut before anything is recognizable) with a
// *NoOutputError.
func checkTruncated(t *testing.T, name, path string, cuts ...int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	p := heyabParser(t, name)
	for _, k := range cuts {
		if k >= len(lines) {
			t.Fatalf("%s has %d lines, cannot cut after %d", path, len(lines), k)
		}
		in := strings.Join(lines[:k], "")
		var c collect
		err := p.Parse(context.Background(), strings.NewReader(in), Options{Source: "cut.txt"}, &c)
		var se *SyntaxError
		if !errors.As(err, &se) || se.File != "cut.txt" || se.Line < 1 || se.Line > k+1 {
			t.Errorf("%s cut after line %d: %d runs, error %v, want a syntax error at a line <= %d", path, k, len(c.runs), err, k+1)
		}
	}
}

// checkCutBytes cuts a complete output after each of the given byte
// offsets (JSON on one line) and requires a *SyntaxError naming the file.
func checkCutBytes(t *testing.T, name, path string, cuts ...int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := heyabParser(t, name)
	for _, k := range cuts {
		var c collect
		err := p.Parse(context.Background(), strings.NewReader(string(b[:k])), Options{Source: "cut.json"}, &c)
		var se *SyntaxError
		if !errors.As(err, &se) || se.File != "cut.json" || se.Line < 1 {
			t.Errorf("%s cut after byte %d: %d runs, error %v, want a syntax error", path, k, len(c.runs), err)
		}
	}
}
