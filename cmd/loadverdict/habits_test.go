package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCLIHabits: the habits of a command-line tool (issue 22 item 6):
// --version, help CMD, a usage error printed once with one line on where
// help is, an unrecognized file in one line, formats, figures rounded as
// the tools print them (report.TestToolNum too), output files that follow the umask.
func TestCLIHabits(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		if out, _, err := runCLI(t, "", args...); err != nil || !strings.HasPrefix(out, "loadverdict v") {
			t.Errorf("%v: %v %q", args, err, out)
		}
	}
	for _, cmd := range []string{"report", "compare", "history", "formats"} {
		out, errOut, err := runCLI(t, "", "help", cmd)
		want, _, _ := runCLI(t, "", cmd, "--help")
		if err != nil || errOut != "" || !strings.HasPrefix(out, "Usage: loadverdict "+cmd+" ") || out != want {
			t.Errorf("help %s: %v, stdout %.60q, stderr %q; want what %s --help prints", cmd, err, out, errOut, cmd)
		}
	}
	// A usage error: the message once, then one line on where help is;
	// never the whole help.
	out, errOut, err := runCLI(t, "", "report", "--fail-on", "nonsense", seedFile)
	if exitCode(err) != exitUsage || out != "" || errOut != "" {
		t.Fatalf("bad flag value: exit %d, stdout %q, stderr %q", exitCode(err), out, errOut)
	}
	msg := err.Error()
	if strings.Count(msg, "invalid value") != 1 || !strings.HasSuffix(msg, "Run 'loadverdict help report' for its usage.") || strings.Count(msg, "\n") != 1 {
		t.Errorf("bad flag value: %q", msg)
	}
	_, _, err = runCLI(t, "", "nope")
	if exitCode(err) != exitUsage || strings.Contains(err.Error(), "Commands:") {
		t.Errorf("unknown command: %v", err)
	}

	// A file that is not load-test output: one line naming it and its
	// start, no empty table on stdout.
	junk := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(junk, []byte("\n  Meeting notes, Tuesday: we should run wrk again\nmore\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err = runCLI(t, "", "parse", junk)
	want := junk + `: not output of a known load generator (starts with "Meeting notes, Tuesday: we should run wr...");` +
		" 'loadverdict formats' lists the formats read\n"
	if exitCode(err) != exitInput || out != "" || errOut != want {
		t.Errorf("junk: exit %d, stdout %q, stderr %q, want %q", exitCode(err), out, errOut, want)
	}

	out, _, err = runCLI(t, "", "formats")
	if err != nil || !strings.Contains(out, "wrk, wrk2") || !strings.Contains(out, "Requests/sec:") || strings.Count(out, "\n") < 40 {
		t.Errorf("formats: %v\n%s", err, out)
	}

	// Figures as the tools print them (wrk's Requests/sec has two decimals).
	out, _, err = runCLI(t, "", "parse", seedFile)
	if err != nil || !strings.Contains(out, " 2095.3 ") || strings.Contains(out, "2095.30000") {
		t.Errorf("parse table: %v\n%s", err, out)
	}

	// Output files follow the umask: 0644 under the usual 022.
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "out")
	if _, _, err := runCLI(t, "", "report", "-o", dir, seedFile); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"report.md", "report.html", "summary.json"} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v, mode %v, want 0644", name, err, st.Mode().Perm())
		}
	}
}
