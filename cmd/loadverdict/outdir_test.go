package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/loadverdict/loadverdict/internal/local"
)

// twoByTwo writes a folder of 2 wrk runs of a:80 and 2 of b:80 under
// root: 2 vs 2 runs cannot show a difference, so report --baseline a:80
// fails the gate (inconclusive, exit 3); read twice, 4 vs 4 would pass.
func twoByTwo(t *testing.T, root string) string {
	t.Helper()
	d := filepath.Join(root, "d")
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		name, target string
		lat, rps     float64
	}{{"a1", "a:80", 20.0, 2000}, {"a2", "a:80", 21.0, 2050}, {"b1", "b:80", 20.5, 2030}, {"b2", "b:80", 20.2, 1990}} {
		body := fmt.Sprintf("Running 10s test @ http://%s/\n  10 threads and 50 connections\n"+
			"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency    %.1fms    5.87ms  89.64ms   87.58%%\n"+
			"    Req/Sec   202.87     35.50   297.00     75.25%%\n  %d requests in 10.00s, 2.66MB read\n"+
			"Requests/sec:   %.2f\nTransfer/sec:    269.47KB\n", r.target, r.lat, int(r.rps*10), r.rps)
		if err := os.WriteFile(filepath.Join(d, r.name+".txt"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// TestInputsReadOnce: a file named again under another name (an absolute
// path, another spelling of its folder, a symlink or hard link, a file
// also inside a folder named) is read once; the second name is said on
// stderr. Read twice, 2 vs 2 runs (exit 3) became 4 vs 4 (exit 0).
func TestInputsReadOnce(t *testing.T) {
	root := t.TempDir()
	d := twoByTwo(t, root)
	must(t, os.Symlink(filepath.Join(d, "a1.txt"), filepath.Join(root, "a1-link.txt")))
	must(t, os.Link(filepath.Join(d, "b2.txt"), filepath.Join(root, "b2-hard.txt")))
	must(t, os.Symlink(d, filepath.Join(root, "dlink")))
	t.Chdir(root)
	abs, err := filepath.Abs("d")
	must(t, err)
	for _, tc := range []struct {
		name    string
		args    []string
		dropped []string // names said as dropped
	}{
		{"once", []string{"d"}, nil},
		{"same spelling twice", []string{"d", "d"}, nil},
		{"absolute", []string{"d", abs}, []string{abs + "/a1.txt (= d/a1.txt)", abs + "/b2.txt (= d/b2.txt)"}},
		{"absolute first", []string{abs, "./d/"}, []string{"d/a1.txt (= " + abs + "/a1.txt)"}},
		{"dotdot", []string{"d", "d/../d", "./d"}, nil},
		{"symlinked file", []string{"d", "a1-link.txt"}, []string{"a1-link.txt (= d/a1.txt)"}},
		{"hard link first", []string{"b2-hard.txt", "d"}, []string{"d/b2.txt (= b2-hard.txt)"}},
		{"file then folder", []string{"d/a2.txt", "d"}, nil},
		{"symlinked folder's file", []string{"d", "dlink/b1.txt"}, []string{"dlink/b1.txt (= d/b1.txt)"}},
		{"symlinked folder", []string{"d", "dlink"}, []string{"dlink/a1.txt (= d/a1.txt)", "dlink/b2.txt (= d/b2.txt)"}},
		{"symlinked folder alone", []string{"dlink"}, nil},
		{"absolute file", []string{abs + "/a2.txt", "d"}, []string{"d/a2.txt (= " + abs + "/a2.txt)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"report", "-o", out, "--baseline", "a:80"}, tc.args...)
			_, stderr, err := runCLI(t, "", args...)
			if exitCode(err) != exitGate || !strings.Contains(err.Error(), "2 vs 2 runs") {
				t.Fatalf("exit %d, want 3 (2 vs 2 runs): %v\n%s", exitCode(err), err, stderr)
			}
			for _, n := range tc.dropped {
				if !strings.Contains(stderr, n) {
					t.Errorf("stderr does not say %q dropped:\n%s", n, stderr)
				}
			}
			if tc.dropped == nil && strings.Contains(stderr, "read once") {
				t.Errorf("stderr says names dropped where none was another name:\n%s", stderr)
			}
		})
	}
}

// TestOutputOwnsOnlyItsFiles: report -o DIR removes only the report files
// its own runs wrote there and no longer write, never the user's files
// named like figures. (A file of a name the report writes, latency.svg
// with --figures svg, is replaced: it is checked only before.)
func TestOutputOwnsOnlyItsFiles(t *testing.T) {
	root := t.TempDir()
	d := twoByTwo(t, root)
	out := filepath.Join(root, "out")
	must(t, os.MkdirAll(out, 0o755))
	mine := []string{"trend-mine.png", "errors-x.svg", "scaling.png", "scaling.svg", "timeline-1.svg", "notes.txt", "latency.svg"}
	for _, n := range mine {
		must(t, os.WriteFile(filepath.Join(out, n), []byte("mine "+n), 0o644))
	}
	for i, figs := range []string{"png", "svg", "png"} {
		if i == 1 {
			mine = mine[:len(mine)-1]
		}
		if _, stderr, err := runCLI(t, "", "report", "-o", out, "--figures", figs, d); err != nil {
			t.Fatalf("report --figures %s: %v\n%s", figs, err, stderr)
		}
		for _, n := range mine {
			b, err := os.ReadFile(filepath.Join(out, n))
			if err != nil || string(b) != "mine "+n {
				t.Fatalf("--figures %s: the user's %s lost or changed: %q %v", figs, n, b, err)
			}
		}
		// The run's own figures of the other format, written by the run
		// before, are gone: nothing says what is no longer true.
		other := map[string]string{"png": ".svg", "svg": ".png"}[figs]
		var list struct{ Files []string }
		b, err := os.ReadFile(filepath.Join(out, local.OwnListName))
		must(t, err)
		must(t, json.Unmarshal(b, &list))
		for _, n := range list.Files {
			if filepath.Ext(n) == other {
				t.Errorf("--figures %s: the list names %s", figs, n)
			}
			if _, err := os.Stat(filepath.Join(out, n)); err != nil {
				t.Errorf("listed %s missing: %v", n, err)
			}
		}
		ents, err := os.ReadDir(out)
		must(t, err)
		for _, e := range ents {
			if filepath.Ext(e.Name()) == other && !strings.Contains(strings.Join(mine, " "), e.Name()) {
				t.Errorf("--figures %s: the earlier run's %s is still there", figs, e.Name())
			}
		}
	}
}

// TestOutputLocked: a command writing into an output folder whose lock
// another holds (here the test, as a second process would) is refused,
// exit 2, naming the holder's pid, and writes nothing; a lock file left
// by a process that ended (no flock held) does not block.
func TestOutputLocked(t *testing.T) {
	root := t.TempDir()
	d := twoByTwo(t, root)
	series := filepath.Join(root, "series")
	for _, n := range []string{"n1", "n2"} {
		must(t, os.MkdirAll(filepath.Join(series, n), 0o755))
		for _, f := range []string{"a1.txt", "a2.txt"} {
			b, err := os.ReadFile(filepath.Join(d, f))
			must(t, err)
			must(t, os.WriteFile(filepath.Join(series, n, f), b, 0o644))
		}
	}
	for _, tc := range []struct {
		name string
		args func(out string) []string
	}{
		{"report", func(out string) []string { return []string{"report", "-o", out, d} }},
		{"compare", func(out string) []string {
			return []string{"compare", "-o", out, filepath.Join(d, "a1.txt"), filepath.Join(d, "b1.txt")}
		}},
		{"history", func(out string) []string {
			return []string{"history", "-o", out, filepath.Join(series, "n1"), filepath.Join(series, "n2")}
		}},
		{"ingest", func(out string) []string { return []string{"ingest", "--out", out, d} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			lock := filepath.Join(out, local.LockName)
			f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o644)
			must(t, err)
			_, err = f.WriteString("4242\n")
			must(t, err)
			must(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
			_, stderr, err := runCLI(t, "", tc.args(out)...)
			if exitCode(err) != exitUsage || !strings.Contains(err.Error(), "in use by another loadverdict (pid 4242") {
				t.Fatalf("locked: exit %d, want 2 naming pid 4242: %v\n%s", exitCode(err), err, stderr)
			}
			ents, _ := os.ReadDir(out)
			if len(ents) != 1 {
				t.Errorf("locked: the refused command wrote into %s: %v", out, ents)
			}
			// Released (as by the end of the holder's process): the lock
			// file, still there with its pid, does not block.
			must(t, f.Close())
			if _, stderr, err := runCLI(t, "", tc.args(out)...); exitCode(err) == exitUsage || exitCode(err) == exitInput {
				t.Fatalf("after release: exit %d: %v\n%s", exitCode(err), err, stderr)
			}
		})
	}
}

// TestReportOwnOutputNotInputs: a report whose input folder holds its
// output folder (report ., -o inside it, -o the input folder itself)
// never reads its own outputs back: the second run is the first's.
func TestReportOwnOutputNotInputs(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"report .", []string{"report", "--baseline", "a:80", "."}},
		{"-o . .", []string{"report", "-o", ".", "--baseline", "a:80", "."}},
		{"-o sub .", []string{"report", "-o", "sub/out", "--baseline", "a:80", "--figures", "svg", "."}},
		{"-o via symlink", []string{"report", "-o", "outlink", "--baseline", "a:80", "."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			d := twoByTwo(t, root)
			must(t, os.MkdirAll(filepath.Join(d, "realout"), 0o755))
			must(t, os.Symlink("realout", filepath.Join(d, "outlink")))
			t.Chdir(d)
			var first string
			for i := range 3 {
				stdout, stderr, err := runCLI(t, "", tc.args...)
				if exitCode(err) != exitGate || !strings.Contains(err.Error(), "2 vs 2 runs") {
					t.Fatalf("run %d: exit %d, want 3 (2 vs 2 runs): %v\n%s", i+1, exitCode(err), err, stderr)
				}
				if i == 0 {
					first = stdout
				} else if stdout != first {
					t.Fatalf("run %d printed\n%s\nthe first\n%s", i+1, stdout, first)
				}
			}
		})
	}
}

// TestJUnitNeverAnInput: --junit naming an input (itself, a hard link or
// a symlink to it) is refused, exit 2, the input untouched; a symlink to
// another file is replaced by the JUnit file, its target untouched.
func TestJUnitNeverAnInput(t *testing.T) {
	root := t.TempDir()
	d := twoByTwo(t, root)
	in := filepath.Join(d, "a1.txt")
	before := sha256File(t, in)
	other := filepath.Join(root, "other.xml")
	must(t, os.WriteFile(other, []byte("keep"), 0o644))
	must(t, os.Symlink(in, filepath.Join(root, "sym.xml")))
	must(t, os.Link(in, filepath.Join(root, "hard.xml")))
	must(t, os.Symlink(other, filepath.Join(root, "toother.xml")))
	for _, tc := range []struct {
		cmd, junit string
		refused    bool
	}{
		{"report", in, true},
		{"report", filepath.Join(root, "sym.xml"), true},
		{"report", filepath.Join(root, "hard.xml"), true},
		{"compare", filepath.Join(root, "sym.xml"), true},
		{"report", filepath.Join(root, "toother.xml"), false},
		{"compare", filepath.Join(root, "toother.xml"), false},
	} {
		t.Run(tc.cmd+" "+filepath.Base(tc.junit), func(t *testing.T) {
			args := []string{"report", "-o", t.TempDir(), "--junit", tc.junit, d}
			if tc.cmd == "compare" {
				args = []string{"compare", "--junit", tc.junit, filepath.Join(d, "a1.txt"), filepath.Join(d, "b1.txt")}
			}
			_, stderr, err := runCLI(t, "", args...)
			if got := exitCode(err) == exitUsage; got != tc.refused {
				t.Fatalf("refused %v, want %v: %v\n%s", got, tc.refused, err, stderr)
			}
			if sha256File(t, in) != before {
				t.Fatalf("the input %s was overwritten", in)
			}
			if b, _ := os.ReadFile(other); string(b) != "keep" {
				t.Fatalf("the symlink's target was written into: %q", b)
			}
			if !tc.refused {
				st, err := os.Lstat(tc.junit)
				b, _ := os.ReadFile(tc.junit)
				if err != nil || !st.Mode().IsRegular() || !strings.Contains(string(b), "<testsuites") {
					t.Errorf("--junit %s not written as a file: %v %v", tc.junit, st, err)
				}
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestHistoryFileInTwoExperiments: one file in two experiments of a
// series (a hard link) is a usage error naming it, not read into both.
func TestHistoryFileInTwoExperiments(t *testing.T) {
	root := t.TempDir()
	d := twoByTwo(t, root)
	for _, n := range []string{"n1", "n2"} {
		must(t, os.MkdirAll(filepath.Join(root, "s", n), 0o755))
	}
	must(t, os.Link(filepath.Join(d, "a1.txt"), filepath.Join(root, "s", "n1", "a1.txt")))
	must(t, os.Link(filepath.Join(d, "a2.txt"), filepath.Join(root, "s", "n1", "a2.txt")))
	must(t, os.Link(filepath.Join(d, "a1.txt"), filepath.Join(root, "s", "n2", "x.txt")))
	must(t, os.Link(filepath.Join(d, "b1.txt"), filepath.Join(root, "s", "n2", "b1.txt")))
	_, stderr, err := runCLI(t, "", "history", "-o", t.TempDir(), filepath.Join(root, "s", "n1"), filepath.Join(root, "s", "n2"))
	if exitCode(err) != exitUsage || !strings.Contains(err.Error(), "both hold the file") {
		t.Fatalf("exit %d, want 2 naming the file in both: %v\n%s", exitCode(err), err, stderr)
	}
}

// TestCompareSystemByIdentity: compare's --system NAME=PATH names OLD or
// NEW however PATH spells it (absolute, ./, a symlink); another file is
// still refused.
func TestCompareSystemByIdentity(t *testing.T) {
	root := t.TempDir()
	d := twoByTwo(t, root)
	must(t, os.Symlink(d, filepath.Join(root, "dlink")))
	t.Chdir(root)
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{"d/a1.txt", true},
		{filepath.Join(d, "a1.txt"), true},
		{"./d//a1.txt", true},
		{"dlink/a1.txt", true},
		{"d/a2.txt", false},
	} {
		t.Run(tc.path, func(t *testing.T) {
			stdout, stderr, err := runCLI(t, "", "compare", "--format", "json", "--system", "v1="+tc.path, "d/a1.txt", "d/b1.txt")
			if !tc.ok {
				if exitCode(err) != exitUsage {
					t.Fatalf("exit %d, want 2: %v\n%s", exitCode(err), err, stderr)
				}
				return
			}
			var doc struct{ Old string }
			if exitCode(err) == exitUsage || json.Unmarshal([]byte(stdout), &doc) != nil || doc.Old != "v1" {
				t.Fatalf("old %q, want v1: %v\n%s\n%s", doc.Old, err, stdout, stderr)
			}
		})
	}
}
