package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/internal/experiment"
)

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errReported, 1},
		{errors.New("disk full"), 1},
		{usagef("bad flag"), 2},
		{fmt.Errorf("report: %w", usagef("bad flag")), 2},
		{&experiment.NameError{Msg: "baseline x"}, 2},
		{fmt.Errorf("x: %w", &experiment.NameError{Msg: "baseline x"}), 2},
		{&gateError{reasons: []string{"rps regressed"}}, 3},
		{fmt.Errorf("compare: %w", &gateError{}), 3},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// Every command's --help states the exit codes.
func TestHelpListsExitCodes(t *testing.T) {
	for _, c := range commands() {
		out, _, err := runCLI(t, "", c.name, "--help")
		if err != nil || !strings.Contains(out, "Usage: loadverdict "+c.name) || !strings.Contains(out, exitStatusHelp) {
			t.Errorf("%s --help: %v\n%s", c.name, err, out)
		}
	}
	out, _, _ := runCLI(t, "", "help")
	if !strings.Contains(out, exitStatusHelp) {
		t.Error("help does not list the exit codes")
	}
}

// The gate's flags on report and compare: a bad value, or a setting that
// names nothing, is a usage error (exit 2) that lists the systems; the
// others are evaluated.
func TestGateFlags(t *testing.T) {
	out := t.TempDir()
	const other = "../../ingest/wrk/testdata/wrk/wrk_05.txt"
	for _, tc := range []struct {
		flags []string
		want  int    // exit status of report on the seed
		cmp   int    // of compare seed wrk_05 (old: zuul-vs-openresty, new: wrk_05)
		msg   string // in the error, for exit 2 and 3
	}{
		{[]string{"--fail-on", "inconclusive"}, exitGate, exitGate, ""},
		{[]string{"--fail-on", "regression,threshold", "--fail-on=inconclusive", "--threshold", "rps>=1"}, exitUsage, exitGate, ""},
		// compare's OLD is the baseline, so a regression check is asked
		// for and the seed and wrk_05, which share no settings, fail it
		// (no-comparison) unless allowed by name (issue 20).
		{[]string{"--max-regression", "5"}, exitOK, exitGate, ""},
		{[]string{"--max-regression", "5", "--allow", "no-comparison"}, exitOK, exitOK, ""},
		{[]string{"--max-regression", "2.5%", "--fail-on", "regression"}, exitUsage, exitGate, ""},
		{[]string{"--threshold", "lat_mean_ms<60", "--threshold", "rps{system=OpenResty}>=1000", "--fail-on", "threshold"}, exitOK, exitUsage, ""},
		{[]string{"--threshold", "rps{system=nosuch}>=1"}, exitUsage, exitUsage, `"nosuch" is not a system`},
		{[]string{"--threshold", "rps{connections=7}>=1"}, exitUsage, exitUsage, "applies to no system at its settings"},
		{[]string{"--fail-on", "threshold"}, exitUsage, exitUsage, "needs thresholds"},
		{[]string{"--fail-on", "regresion"}, exitUsage, exitUsage, "unknown condition"},
		{[]string{"--fail-on", "regression,"}, exitUsage, exitUsage, "unknown condition"},
		{[]string{"--max-regression", "-1"}, exitUsage, exitUsage, "percentage"},
		{[]string{"--max-regression", "five"}, exitUsage, exitUsage, "percentage"},
		{[]string{"--threshold", "lat_mean<60"}, exitUsage, exitUsage, "column 1"},
	} {
		for _, cmd := range []string{"report", "compare"} {
			args := append([]string{cmd, "-o", out}, tc.flags...)
			want := tc.want
			if cmd == "compare" {
				args, want = append(args, "--format", "json", seedFile, other), tc.cmp
			} else {
				args = append(args, seedFile)
			}
			_, errOut, err := runCLI(t, "", args...)
			if got := exitCode(err); got != want {
				t.Errorf("%v: exit %d (%v), want %d\n%s", args, got, err, want, errOut)
			} else if want == exitUsage && tc.cmp == tc.want && !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%v: %v, want %q", args, err, tc.msg)
			} else if want == exitUsage && strings.Contains(tc.msg, "system") && !strings.Contains(err.Error(), "the systems are: ") {
				t.Errorf("%v: %v does not list the systems", args, err)
			} else if want == exitGate && !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%v: %v, want %q", args, err, tc.msg)
			}
		}
	}
	if _, _, err := runCLI(t, "", "compare", "--format", "xml", seedFile, seedFile); exitCode(err) != exitUsage {
		t.Errorf("compare --format xml: %v", err)
	}
}
