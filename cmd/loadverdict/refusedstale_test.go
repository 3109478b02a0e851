package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRefusedLeavesNoReport: a command that refuses (exit 2) after it
// changed the output folder's tables removes the report an earlier run
// wrote there, which would stand for a verdict no longer made; the
// user's own files stay.
func TestRefusedLeavesNoReport(t *testing.T) {
	const (
		old = "../../testdata/truth/before-after/old"
		new = "../../testdata/truth/before-after/new"
	)
	nights := func(t *testing.T, undated bool) []string {
		var out []string
		for i, n := range []string{"night01", "night02", "night03"} {
			dst := filepath.Join(t.TempDir(), n)
			if err := os.CopyFS(dst, os.DirFS(filepath.Join("../../testdata/truth/nightly-step", n))); err != nil {
				t.Fatal(err)
			}
			if undated && i == 2 {
				if err := os.Remove(filepath.Join(dst, "loadverdict.yaml")); err != nil {
					t.Fatal(err)
				}
			}
			out = append(out, dst)
		}
		return out
	}
	for _, tc := range []struct {
		name          string
		first, second func(t *testing.T, dir string) []string
	}{
		{"report, then a baseline that is no system",
			func(t *testing.T, dir string) []string { return []string{"report", "-o", dir, old, new} },
			func(t *testing.T, dir string) []string {
				return []string{"report", "-o", dir, "--baseline", "nosuch", old, new}
			}},
		{"history, then an undated night",
			func(t *testing.T, dir string) []string {
				return append([]string{"history", "-o", dir}, nights(t, false)...)
			},
			func(t *testing.T, dir string) []string {
				return append([]string{"history", "-o", dir}, nights(t, true)...)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, errOut, err := runCLI(t, "", tc.first(t, dir)...); err != nil && exitCode(err) != exitGate {
				t.Fatalf("first: %v\n%s", err, errOut)
			}
			if _, err := os.Stat(filepath.Join(dir, "report.md")); err != nil {
				t.Fatal(err)
			}
			mine := filepath.Join(dir, "notes.txt")
			if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, errOut, err := runCLI(t, "", tc.second(t, dir)...)
			if exitCode(err) != exitUsage {
				t.Fatalf("second: exit %d, want 2: %v\n%s", exitCode(err), err, errOut)
			}
			for _, f := range []string{"report.md", "report.html", "summary.md", "summary.json"} {
				if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
					t.Errorf("%s still there after the refusal (%v)", f, err)
				}
			}
			if _, err := os.Stat(mine); err != nil {
				t.Errorf("the user's file: %v", err)
			}
		})
	}
}

// TestJUnitNotAReportFile: --junit naming a file the report writes in
// its output folder (report.md, summary.json, a figure) is refused before
// anything is written, whether or not the folder exists yet; junit.xml
// there is fine.
func TestJUnitNotAReportFile(t *testing.T) {
	const old = "../../testdata/truth/before-after/old"
	for _, tc := range []struct {
		name   string
		exists bool
		exit   int
	}{
		{"report.md", true, exitUsage}, {"summary.json", false, exitUsage}, {"throughput.png", true, exitUsage},
		{".loadverdict-files.json", true, exitUsage}, {"junit.xml", true, exitOK},
	} {
		dir := filepath.Join(t.TempDir(), "out")
		if tc.exists {
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		_, errOut, err := runCLI(t, "", "report", "-o", dir, "--junit", filepath.Join(dir, tc.name), old)
		if exitCode(err) != tc.exit {
			t.Errorf("--junit %s (folder there: %v): exit %d, want %d: %v\n%s", tc.name, tc.exists, exitCode(err), tc.exit, err, errOut)
		}
	}
}
