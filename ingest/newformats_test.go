package ingest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
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
		parserNamed(t, name) // registered
	}
	dirs := sampleDirs()
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
				claimed := p.Detect(core.DecodeHead(head))
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
				if p, err := detect(head); err != nil || p.Name() != w {
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

// TestFormatHelpers checks the helpers the new parsers share.
func TestFormatHelpers(t *testing.T) {
	for _, c := range []struct {
		s    string
		exp  int
		want float64
	}{
		{"0.000651724", 3, 0.651724}, {"3.8388e-05", 3, 0.038388}, {"0.0446", 3, 44.6}, {"58046", -3, 58.046},
		{"1E2", 0, 100}, {"99.9", -2, 0.999},
	} {
		if got := core.ShiftDecString(c.s, c.exp); got != c.want {
			t.Errorf("shiftDecString(%q, %d) = %v, want %v", c.s, c.exp, got, c.want)
		}
	}
	if v := core.ShiftDecString("x", 3); v == v {
		t.Errorf("shiftDecString(x) = %v, want NaN", v)
	}
	v := 0.000106749 // a variable: constant arithmetic would be exact
	if got := core.ShiftDec(v, 3); got != 0.106749 || v*1000 == 0.106749 {
		t.Errorf("shiftDec(0.000106749, 3) = %v (or the test's case no longer shows rounding)", got)
	}
	for _, c := range []struct {
		tok  string
		want bool
	}{
		{"oha", true}, {"./oha", true}, {`C:\bin\oha.exe`, true}, {"ghcr.io/hatoo/oha:latest", true}, {"`(oha", true},
		{"ohai", false}, {"oha-x", false}, {"", false},
	} {
		if got := core.ExeNamed([]byte(c.tok), "oha"); got != c.want {
			t.Errorf("exeNamed(%q) = %v", c.tok, got)
		}
	}
	var got []string
	core.EachOption([]string{"prog", "-c10", "-n", "5", "--rate=3", "--timeout", "2s", "-k", "http://h/", "--", "x"},
		map[string]bool{"c": true, "n": true, "rate": true, "timeout": true},
		func(name, val string) { got = append(got, name+"="+val) },
		func(a string) { got = append(got, "arg:"+a) })
	want := []string{"c=10", "n=5", "rate=3", "timeout=2s", "k=", "arg:http://h/", "=", "arg:x"}
	if !slices.Equal(got, want) {
		t.Errorf("eachOption: %q, want %q", got, want)
	}
	var lines []string
	core.ScanHead([]byte("a\nb\nc"), func(b []byte, ln int) error {
		lines = append(lines, string(b))
		return nil
	}, func() bool { return len(lines) == 2 })
	if !slices.Equal(lines, []string{"a", "b"}) {
		t.Errorf("scanHead stopped after %q", lines)
	}
}
