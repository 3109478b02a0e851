package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
)

// replayedDuel runs a duel whose commands replay testdata/truth/before-after's
// wrk runs (a: old, b: new, 0.886x the throughput; or old twice when aa)
// with the flags given; it returns the exit status, stdout, stderr and
// duel.json.
func replayedDuel(t *testing.T, aa bool, flags ...string) (int, string, string, duelRecord) {
	t.Helper()
	root, err := filepath.Abs("../../testdata/truth/before-after")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	b := replay(root+"/new", tmp+"/cb", 6)
	if aa {
		if err := os.WriteFile(tmp+"/cb", []byte("3\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		b = replay(root+"/old", tmp+"/cb", 6)
	}
	out := filepath.Join(tmp, "o")
	args := append([]string{"duel", "-o", out, "--seed", "1", "--a", replay(root+"/old", tmp+"/ca", 6), "--b", b}, flags...)
	var stdout, stderr bytes.Buffer
	code := exitCode(run(context.Background(), args, nil, &stdout, &stderr))
	var rec duelRecord
	if code != exitUsage {
		readJSON(t, filepath.Join(out, "duel.json"), &rec)
	}
	return code, stdout.String(), stderr.String(), rec
}

// TestDuelGateFlags: duel takes compare's gate flags. A b-worse duel
// (about -11 %) fails by regression, passes with --max-regression 15 or
// --allow regression (said on stderr), and writes its decision as a
// JUnit case; an undecided one fails closed (inconclusive) unless
// allowed; --threshold gates on all the rounds as compare's does, also
// where the duel passes; bad values are usage errors.
func TestDuelGateFlags(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "junit.xml")
	code, stdout, _, rec := replayedDuel(t, false, "--max-rounds", "12", "--junit", junit)
	if rec.Decision != duelBWorse || code != exitGate || rec.Gate == nil || !rec.Gate.Failed || len(rec.Gate.Reasons) != 1 || !strings.HasPrefix(rec.Gate.Reasons[0], "regression: Duel: b is worse") {
		t.Fatalf("decision %s, exit %d, gate %+v; want b-worse failing by regression, exit 3", rec.Decision, code, rec.Gate)
	}
	if !strings.Contains(stdout, "Duel gate: failed.") {
		t.Errorf("stdout lacks the duel's gate line:\n%s", stdout)
	}
	x, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`classname="loadverdict.duel"`, `type="regression"`, `failures="1"`} {
		if !strings.Contains(string(x), w) {
			t.Errorf("junit lacks %s:\n%s", w, x)
		}
	}

	code, _, _, rec = replayedDuel(t, false, "--max-rounds", "12", "--max-regression", "15")
	if rec.Decision != duelBWorse || code != exitOK || rec.Gate.Failed {
		t.Errorf("--max-regression 15: decision %s, exit %d, gate %+v; want b-worse within the allowed, exit 0", rec.Decision, code, rec.Gate)
	}
	code, _, stderr, rec := replayedDuel(t, false, "--max-rounds", "12", "--allow", "regression")
	if code != exitOK || len(rec.Gate.Allowed) != 1 || !strings.Contains(stderr, "gate: allowed: regression: Duel: b is worse") {
		t.Errorf("--allow regression: exit %d, gate %+v, stderr %q; want exit 0, the regression allowed", code, rec.Gate, stderr)
	}

	// Undecided: three rounds leave the interval unbounded.
	code, _, _, rec = replayedDuel(t, true, "--max-rounds", "3")
	if rec.Decision != duelUndecided || code != exitGate || !strings.HasPrefix(rec.Gate.Reasons[0], "inconclusive: Duel: undecided after 3 rounds") ||
		!strings.Contains(rec.Gate.Reasons[0], "cannot be ruled out") {
		t.Errorf("undecided: decision %s, exit %d, gate %+v; want inconclusive, exit 3", rec.Decision, code, rec.Gate)
	}
	if code, _, _, _ = replayedDuel(t, true, "--max-rounds", "3", "--allow", "inconclusive"); code != exitOK {
		t.Errorf("undecided with --allow inconclusive: exit %d, want 0", code)
	}

	// A threshold no round meets fails the gate of an A/A duel the
	// duel's decision passes; one every round meets passes.
	code, _, _, rec = replayedDuel(t, true, "--max-rounds", "3", "--allow", "inconclusive", "--threshold", "rps>1e9")
	if code != exitGate || len(rec.Gate.Reasons) == 0 || !strings.HasPrefix(rec.Gate.Reasons[0], "threshold failed: ") {
		t.Errorf("--threshold rps>1e9: exit %d, gate %+v; want the threshold failed", code, rec.Gate)
	}
	if code, _, _, rec = replayedDuel(t, true, "--max-rounds", "3", "--allow", "inconclusive", "--threshold", "rps>1"); code != exitOK {
		t.Errorf("--threshold rps>1: exit %d, gate %+v; want 0", code, rec.Gate)
	}

	for _, f := range [][]string{{"--max-regression", "x"}, {"--allow", "nosuch"}, {"--fail-on", "nosuch"}, {"--threshold", "rps>"}} {
		if code, _, _, _ := replayedDuel(t, true, f...); code != exitUsage {
			t.Errorf("%q: exit %d, want 2", f, code)
		}
	}
}

// TestDuelNoRoundAllowed: a duel with no round within --max-time fails
// closed (no-comparison) and --allow no-comparison lets it pass, said.
func TestDuelNoRoundAllowed(t *testing.T) {
	var stderr bytes.Buffer
	junit := filepath.Join(t.TempDir(), "j.xml")
	err := run(context.Background(), []string{"duel", "-o", filepath.Join(t.TempDir(), "o"), "--max-time", "1s", "--allow", "no-comparison", "--junit", junit, "--a", "sleep 60", "--b", "true"}, nil, &bytes.Buffer{}, &stderr)
	if err != nil || !strings.Contains(stderr.String(), "allowed: no-comparison: no round completed within --max-time 1s") {
		t.Errorf("err %v, stderr %q; want exit 0, no-comparison allowed", err, stderr.String())
	}
	if x, err := os.ReadFile(junit); err != nil || !strings.Contains(string(x), "<skipped") {
		t.Errorf("junit %s (%v): want the duel's case skipped (allowed)", x, err)
	}
}

// TestDuelFixedDesign: the sentence setting the duel's rounds beside the
// runs compare states a fixed design needs is said only where compare's
// test of the same rounds is undecided and states more runs than it
// holds.
func TestDuelFixedDesign(t *testing.T) {
	n := func(i int) *int { return &i }
	rounds := make([]duelRound, 6)
	for _, tc := range []struct {
		decision string
		c        analyze.Comparison
		want     string
	}{
		{duelBWorse, analyze.Comparison{Verdict: analyze.BFaster, RunsNeeded: n(6), AHeld: 6, BHeld: 6}, ""},
		{duelBWorse, analyze.Comparison{Verdict: analyze.Inconclusive, RunsNeeded: n(6), AHeld: 6, BHeld: 6}, ""},
		{duelBWorse, analyze.Comparison{Verdict: analyze.Inconclusive, AHeld: 6, BHeld: 6}, ""},
		{duelEquivalent, analyze.Comparison{Verdict: analyze.NoDifference, RunsNeeded: n(9), AHeld: 6, BHeld: 6}, ""},
		{duelBWorse, analyze.Comparison{Verdict: analyze.Inconclusive, RunsNeeded: n(14), AHeld: 6, BHeld: 6}, "The duel decided in 6 rounds, where compare's fixed-sample test of the same rounds is undecided and states 14 runs per side needed"},
		{duelUndecided, analyze.Comparison{Verdict: analyze.Inconclusive, RunsNeeded: n(40), AHeld: 6, BHeld: 6}, "undecided too and states 40 runs per side needed"},
	} {
		rec := duelRecord{Decision: tc.decision, Rounds: rounds}
		got := rec.fixedDesign(tc.c)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s, compare %s, runs needed %v of %d held: %q, want %q", tc.decision, tc.c.Verdict, deref(tc.c.RunsNeeded), tc.c.AHeld, got, tc.want)
		}
	}
}
