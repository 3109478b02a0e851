package experiment

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// aliasBomb is a manifest of a few kilobytes whose aliases stand for
// width^depth patterns: each level is a list of width aliases of the
// level below, and the last level is used by systems as aliases too
// (issue 21: a 27 KB one stood for 5M patterns, decoded one node at a
// time by fresh decoders that yaml.v3's alias guard never saw whole).
func aliasBomb(width, depth, uses int, under string) string {
	var b strings.Builder
	b.WriteString("order:\n")
	fmt.Fprintf(&b, "  - &l0 [%s]\n", strings.TrimSuffix(strings.Repeat("p, ", width), ", "))
	for d := 1; d < depth; d++ {
		fmt.Fprintf(&b, "  - &l%d [%s]\n", d, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", d-1), width), ", "))
	}
	fmt.Fprintf(&b, "%s:\n", under)
	for i := range uses {
		fmt.Fprintf(&b, "  s%d: *l%d\n", i, depth-1)
	}
	return b.String()
}

// TestManifestBounds: a manifest is at most MaxManifestBytes and
// MaxManifestNodes, aliases counted as the nodes they stand for, checked
// before anything is decoded: the error names the line and the bound.
func TestManifestBounds(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, err string
	}{
		// width^depth * uses: 10^3 * 5000 = 5M patterns in ~60 KB.
		{"systems", aliasBomb(10, 3, 5000, "systems"), "YAML nodes (aliases counted as the nodes they stand for): a manifest holds at most 100000"},
		// 200 merge groups, each the same 1,000 patterns.
		{"merge", "merge:\n  - &g [" + strings.Repeat("p, ", 999) + "p]\n" + strings.Repeat("  - *g\n", 199), "a manifest holds at most 100000"},
		// 8 * 8 * 8 * 2001 slo: expressions, through order: and merge:.
		{"slo", "slo: &a [rps>1, rps>2, rps>3, rps>4, rps>5, rps>6, rps>7, rps>8]\nx: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n" +
			"order: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nmerge: [" + strings.Repeat("*c, ", 2000) + "*c]\n",
			"a manifest holds at most 100000"},
		{"recursive", "order: &a [x, *a]\n", `line 1:15: alias *a stands for a node that contains it`},
		{"too large", "labels:\n" + strings.Repeat("  \"10.0.0.1:8080\": api\n", MaxManifestBytes/22+1), "larger than 256 KiB"},
	} {
		_, err := ParseManifest("m.yaml", []byte(tc.yaml))
		var me *ManifestError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s (%d bytes): %v, want a *ManifestError with %q", tc.name, len(tc.yaml), err, tc.err)
		}
	}
	// Aliases within the bound are still read, each use as what it
	// stands for.
	m, err := ParseManifest("m.yaml", []byte("systems:\n  a: &p [x/*, y/*]\n  b: *p\norder: &o [x/1, y/1]\nmerge: [*o]\n"))
	if err != nil || len(m.Systems["b"]) != 2 || len(m.Merge) != 1 || len(m.Merge[0]) != 2 {
		t.Errorf("aliases within the bound: %+v %v", m, err)
	}
	// Just under the size bound, thousands of labels are parsed.
	var b strings.Builder
	b.WriteString("labels:\n")
	n := 0
	for b.Len() < MaxManifestBytes-64 {
		fmt.Fprintf(&b, "  \"10.%d.%d.%d:8080\": s%d\n", n>>16, n>>8&255, n&255, n)
		n++
	}
	if m, err := ParseManifest("m.yaml", []byte(b.String())); err != nil || len(m.Labels) != n {
		t.Errorf("%d labels in %d bytes: %d, %v", n, b.Len(), len(m.Labels), err)
	}
}

// TestManifestStrict: what yaml.v3 would let through, refused with the
// line and column: a fraction for a count, a second document, a
// duplicate key (in every mapping, also the big ones decoded in linear
// time), an unknown key, a name with a control character (which messages
// would print raw), a merge key.
func TestManifestStrict(t *testing.T) {
	for _, tc := range []struct{ yaml, err string }{
		{"thresholds: {min_runs: 2.5}\n", `m.yaml: line 1:24: thresholds.min_runs: want a whole number, got "2.5"`},
		{"thresholds:\n  min_runs: '3'\n", `m.yaml: line 2:13: thresholds.min_runs: want a whole number, got "3"`},
		{"baseline: a\n---\nbaseline: b\n", `m.yaml: line 2: a second YAML document (---): a manifest is one document`},
		{"baseline: a\n---\n", `m.yaml: line 2: a second YAML document`},
		{"labels:\n  \"h:1\": a\n  \"h:2\": b\n  \"h:1\": c\n", `m.yaml: line 4:3: key "h:1" already defined at line 2`},
		{"systems: {a: [x], a: [y]}\n", `m.yaml: line 1:19: key "a" already defined at line 1`},
		{"baseline: a\nbaseline: b\n", `m.yaml: line 2:1: key "baseline" already defined at line 1`},
		{"gate: {fail_on: regression, max: 5}\n", `m.yaml: line 1:29: unknown key "max" in gate (known: `},
		{"meta: {commit: a, sha: b}\n", `m.yaml: line 1:19: unknown key "sha" in meta (known: commit, version, branch, date, note)`},
		{"labelz: {}\n", `m.yaml: line 1:1: unknown key "labelz" (known: labels, systems, `},
		{"systems:\n  \"new\\tv2\": [x]\n", `m.yaml: line 2:3: systems: name "new\tv2": not printable`},
		{"systems:\n  \"new\\0\": [x]\n", `m.yaml: line 2:3: systems: name "new\x00": not printable`},
		{"labels: {\"h:1\": \"a\\tb\"}\n", `m.yaml: line 1:17: labels.h:1: name "a\tb": not printable`},
		{"baseline: \"a\\u0007\"\n", `m.yaml: baseline: name "a\a": not printable`},
		{"systems: {\" \": [x]}\n", `m.yaml: line 1:11: systems: empty name`},
		{"labels: {<<: {\"h:1\": a}}\n", `m.yaml: line 1:10: merge keys (<<) are not supported`},
		{"systems: [a]\n", `m.yaml: line 1:10: systems: want a mapping of names`},
		// Settings that would switch the gate off rather than tune it,
		// and list items left blank, which were dropped silently.
		{"thresholds: {alpha: 1e-20}\n", `m.yaml: thresholds.alpha = 1e-20, want a value in [0.001, 0.2]: a smaller alpha`},
		{"thresholds: {alpha: 0.0009}\n", `m.yaml: thresholds.alpha = 0.0009, want a value in [0.001, 0.2]`},
		{"thresholds: {alpha: 0.3}\n", `m.yaml: thresholds.alpha = 0.3, want a value in [0.001, 0.2]`},
		{"thresholds: {practical_band: 0.99}\n", `m.yaml: thresholds.practical_band = 0.99, want a value in (0, 0.25]`},
		{"thresholds: {practical_band: 0}\n", `m.yaml: thresholds.practical_band = 0, want a value in (0, 0.25]`},
		{"thresholds: {error_band: 5}\n", `m.yaml: thresholds.error_band = 5, want a value in [0, 2] (points): a wider band lets more than one request in 50 more fail without failing the gate`},
		{"thresholds: {error_band: -0.1}\n", `m.yaml: thresholds.error_band = -0.1, want a value in [0, 2] (points): a wider band lets more than one request in 50 more fail without failing the gate`},
		{"thresholds: {noise_band: 0.5}\n", `m.yaml: thresholds.noise_band = 0.5, want a value in (0, 0.25]`},
		{"slo: [null]\n", `m.yaml: line 1: slo: item 1 is empty`},
		{"slo: [\"lat_p99_ms<250\", \"\"]\n", `m.yaml: line 1: slo: item 2 is empty`},
		{"slo:\n  - lat_p99_ms<250\n  -\n", `m.yaml: line 3: slo: item 2 is empty`},
		{"slo: [[lat_p99_ms<250]]\n", `m.yaml: line 1: slo: item 1 is not a string`},
		{"gate: {allow: [null]}\n", `m.yaml: line 1: gate: item 1 is empty`},
		{"gate: {fail_on: [regression, ~]}\n", `m.yaml: line 1: gate: item 2 is empty`},
		{"systems: {a: [x, null]}\n", `m.yaml: line 1: pattern: item 2 is empty`},
	} {
		_, err := ParseManifest("m.yaml", []byte(tc.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("%q: %v, want %q", tc.yaml, err, tc.err)
		}
	}
	m, err := ParseManifest("m.yaml", []byte("thresholds: {min_runs: 3}\nbaseline: a\n...\n"))
	if err != nil || m.Thresholds.MinRuns == nil || *m.Thresholds.MinRuns != 3 || m.Baseline != "a" {
		t.Errorf("min_runs 3 and a document end: %+v %v", m, err)
	}
}

// TestNameErrorQuotesOddNames: a known system whose name (a file name, a
// target) holds a control character is quoted in a message, never
// printed raw.
func TestNameErrorQuotesOddNames(t *testing.T) {
	e := &NameError{Msg: "baseline \"x\" is not a system", Known: []string{"a\tb", "c\x00", "plain", "x, y"}}
	want := `baseline "x" is not a system; the systems are: "a\tb", "c\x00", plain, "x, y"`
	if e.Error() != want {
		t.Errorf("got %q, want %q", e.Error(), want)
	}
}

// TestManifestBoundsAccepted: the bounds themselves are accepted.
func TestManifestBoundsAccepted(t *testing.T) {
	for _, y := range []string{
		"thresholds: {alpha: 0.001}\n", "thresholds: {alpha: 0.2}\n", "thresholds: {practical_band: 0.25}\n",
		"thresholds: {noise_band: 0.25}\n", "thresholds: {error_band: 0}\n", "thresholds: {error_band: 2}\n", "slo: lat_p99_ms<250\n", "gate: {allow: []}\n",
	} {
		if _, err := ParseManifest("m.yaml", []byte(y)); err != nil {
			t.Errorf("%q: %v", y, err)
		}
	}
}

// ExampleParseManifest shows a manifest with systems named by source.
func ExampleParseManifest() {
	m, err := ParseManifest("raw/tuning/loadverdict.yaml", []byte(`
systems:
  before: [old/*]
  after: ["new/*.txt", new/extra]
labels: {"localhost:8080": api}
baseline: before
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range m.systemRules() {
		fmt.Println(r.Name, r.Patterns)
	}
	fmt.Println(m.Baseline, m.Labels)
	_, err = ParseManifest("m.yaml", []byte("systems:\n  old: ['[']\n"))
	fmt.Println(err)
	// Output:
	// after [new/*.txt new/extra]
	// before [old/*]
	// before map[localhost:8080:api]
	// m.yaml: line 2: bad pattern "[" (path.Match syntax: *, ?, [a-z], \)
}

// FuzzParseManifest: any bytes give a manifest or an error naming the
// file, never a panic; the systems' patterns of an accepted manifest are
// valid.
func FuzzParseManifest(f *testing.F) {
	for _, s := range []string{"", "labels: {a: b}\n", "systems: {x: [old/*]}\nbaseline: x\n", "systems:\n  x: y\n",
		"systems: {x: []}\n", "thresholds: {alpha: 0.01}\n", "order: [a, b]\n", "systems: {x: ['[']}\n",
		"slo: [rps>=1, 'error_rate{system=x}<0.01']\ngate: {fail_on: [threshold], max_regression: 5%}\n", "slo: x\n",
		"order: &a [x, *a]\n", "merge: [&g [a, b], *g]\nsystems: {x: *g}\n", "labels: {<<: {a: b}}\n", "baseline: a\n---\nb: 1\n",
		"thresholds: {min_runs: 2.5}\n", "labels: {a: b, a: c}\n", "systems: {\"a\\tb\": [x]}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest("m.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "m.yaml: ") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		for _, r := range m.systemRules() {
			if len(r.Patterns) == 0 {
				t.Errorf("system %q without patterns accepted", r.Name)
			}
			for _, pat := range r.Patterns {
				matchPattern(pat, "raw/x/y.txt")
			}
		}
	})
}
