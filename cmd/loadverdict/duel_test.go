package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// truthSpec is one truth server's work a request: SHA-256 iterations
// and a wait after them.
type truthSpec struct {
	work  int
	delay time.Duration
}

// duelServers checks that tool is installed, builds the truth server and
// starts one per spec on a free loopback port; it returns their URLs and
// the prefix that pins a command as the servers are pinned ("" when not).
//
// Where taskset and chrt -f 1 work (root), the servers and the load
// tool run on the last CPU under the real-time FIFO policy, as
// scripts/truth/lib.sh's PIN_CPU records the truth sets: the other
// sessions' processes then run on the other CPUs and cannot make a 1 s
// round anything from 0.3x to 2x (measured on this machine at load 10
// on 2 CPUs: unpinned, 1 s rounds of a 10 % difference ran 111-471
// req/s and 20 rounds decided nothing). Unpinned, a decision is not
// asserted: see TestDuelReal.
func duelServers(t *testing.T, tool string, specs ...truthSpec) (urls []string, pin string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s is not installed: the real duel needs it", tool)
	}
	if testing.Short() {
		t.Skipf("-short: the real duel runs %s for up to a minute", tool)
	}
	cpu := strconv.Itoa(runtime.NumCPU() - 1)
	if exec.Command("taskset", "-c", cpu, "chrt", "-f", "1", "true").Run() == nil {
		pin = "taskset -c " + cpu + " chrt -f 1 "
	}
	dir := t.TempDir()
	server := filepath.Join(dir, "truthserver")
	build := exec.Command("go", "build", "-o", server, "./scripts/truthserver")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the truth server: %v\n%s", err, out)
	}
	for _, spec := range specs {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		args := []string{"-addr", addr, "-procs", "1", "-work", strconv.Itoa(spec.work), "-delay", spec.delay.String()}
		var cmd *exec.Cmd
		if pin != "" {
			p := strings.Fields(pin)
			cmd = exec.Command(p[0], append(append(p[1:], server), args...)...)
		} else {
			cmd = exec.Command(server, args...)
		}
		var log bytes.Buffer
		cmd.Stderr = &log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		url := "http://" + addr + "/"
		up := false
		for range 100 {
			if r, err := http.Get(url + "healthz"); err == nil {
				r.Body.Close()
				up = true
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if !up {
			t.Fatalf("truth server on %s did not come up: %s", addr, log.String())
		}
		urls = append(urls, url)
	}
	return urls, pin
}

// duelResult runs loadverdict duel and returns its exit status, stdout,
// and duel.json.
func duelResult(t *testing.T, out string, args ...string) (int, string, duelRecord) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), append([]string{"duel", "-o", out}, args...), nil, &stdout, &stderr)
	code := exitCode(err)
	t.Logf("duel: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	var rec duelRecord
	b, rerr := os.ReadFile(filepath.Join(out, "duel.json"))
	if rerr != nil {
		t.Fatalf("duel.json: %v (exit %d, %v)", rerr, code, err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), rec
}

// TestDuelReal: two truth servers on 127.0.0.1, B doing 10 % more work
// a request, wrk -t1 -c4 -d1s a round, at most 20 rounds (30 of 2 s with
// LOADVERDICT_LONG). Asserted, as it holds on any machine: the duel never
// says B is better; each round's output is kept; b-worse and undecided
// exit 3 with the duel's sentence; an A/A duel (the same server twice)
// exits as its decision says. Logged, as they depend on the machine's
// noise (no test may need an idle machine): whether it decided, in how
// many rounds against the runs per side compare states the fixed design
// needs on the same rounds, and an A/A duel claiming a difference (the
// stated 5 % false-positive rate; the conformance family duel and
// scripts/duelmc measure both rates).
func TestDuelReal(t *testing.T) {
	t.Parallel() // a minute of real rounds: beside the package's other tests
	urls, pin := duelServers(t, "wrk", truthSpec{work: 2000}, truthSpec{work: 2200})
	rounds, dur := "20", "1s"
	if os.Getenv("LOADVERDICT_LONG") != "" {
		rounds, dur = "30", "2s"
	}
	wrk := func(url string) string { return fmt.Sprintf("%swrk -t1 -c4 -d%s %s", pin, dur, url) }
	out := filepath.Join(t.TempDir(), "ab")
	code, stdout, rec := duelResult(t, out, "--max-rounds", rounds, "--seed", "34", "--", wrk(urls[0]), wrk(urls[1]))
	n := len(rec.Rounds)
	if rec.Decision == duelBBetter {
		t.Fatalf("the duel says B (10 %% more work) is better: %s", rec.Summary)
	}
	if rec.Metric != "rps" || rec.Seed != 34 || n == 0 {
		t.Errorf("metric %q seed %d rounds %d, want rps (wrk is a closed model), 34, some", rec.Metric, rec.Seed, n)
	}
	for i, r := range rec.Rounds {
		for _, f := range []string{r.AOutput, r.BOutput} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("round %d: its output %s is not kept: %v", i+1, f, err)
			}
		}
	}
	for _, f := range []string{"report.md", "summary.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("compare's %s: %v", f, err)
		}
	}
	if rec.Decision != duelBWorse {
		// A busy machine (even pinned: the other CPU's work shares the
		// caches and the memory bus) can make 1 s rounds too noisy to
		// decide in the rounds allowed; the duel must then say so and
		// fail closed, never guess.
		if rec.Decision != duelUndecided || code != exitGate {
			t.Fatalf("decision %s, exit %d; want b-worse, or undecided with exit 3: %s", rec.Decision, code, rec.Summary)
		}
		t.Logf("undecided in %s rounds (pinned: %v): the machine was too noisy; not a failure", rounds, pin != "")
	} else {
		if code != exitGate {
			t.Fatalf("decision %s, exit %d; want b-worse, exit 3: %s", rec.Decision, code, rec.Summary)
		}
		if !strings.Contains(stdout, "Duel: b is worse than a") {
			t.Errorf("stdout lacks the duel's sentence")
		}
		// What compare states on the same rounds: the runs per side its
		// fixed design needs (summary.json's runs_needed of throughput).
		need := compareRunsNeeded(t, filepath.Join(out, "summary.json"))
		fewer := n < need || (rec.Compare == duelBWorse && n <= need)
		t.Logf("decided in %d rounds; compare on the same rounds: %s, runs needed %d per side (fixed design without the floor at the runs held: %v); fewer rounds than the fixed design: %v",
			n, rec.Compare, need, deref(rec.FixedRunsNeeded), fewer)
	}

	// A/A: the same server twice. Claiming a difference is the duel's
	// stated false-positive risk (5 %), logged; the exit status must say
	// what the decision says.
	aa := filepath.Join(t.TempDir(), "aa")
	code, _, rec = duelResult(t, aa, "--max-rounds", "8", "--seed", "35", "--", wrk(urls[0]), wrk(urls[0]))
	if rec.Decision == duelBBetter || rec.Decision == duelBWorse {
		t.Logf("A/A duel claimed a difference (the 5 %% risk the test states): %s", rec.Summary)
	}
	want, ok := map[string]int{duelEquivalent: exitOK, duelUndecided: exitGate, duelBWorse: exitGate}[rec.Decision]
	if k := len(rec.Rounds); rec.Decision == duelUndecided && k > 0 {
		// Undecided passes only where its interval, valid at every look,
		// rules out b worse by more than the allowed 2 % (throughput:
		// the interval's low end at or above -2 %).
		if lo := rec.Rounds[k-1].LoPct; lo != nil && *lo >= -2 {
			want = exitOK
		}
	}
	if ok && code != want {
		t.Errorf("A/A duel %s exited %d, want %d: %s", rec.Decision, code, want, rec.Summary)
	}
}

// deref is *p, or nil for a nil p: a pointer's value for a message.
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// compareRunsNeeded reads the throughput comparison's runs_needed from
// summary.json.
func compareRunsNeeded(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Comparisons []struct {
			Metric     string `json:"metric"`
			RunsNeeded *int   `json:"runs_needed"`
		} `json:"comparisons"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Comparisons {
		if c.Metric == "rps" && c.RunsNeeded != nil {
			return *c.RunsNeeded
		}
	}
	t.Fatalf("%s: no runs_needed for throughput", path)
	return 0
}

// TestDuelFailingCommand: a command that fails stops the duel with an
// error naming the round and the command; output that no parser reads
// too; and the usage errors.
func TestDuelFailingCommand(t *testing.T) {
	wrkOut, err := os.ReadFile("../../testdata/truth/before-after/old/run1.txt")
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(t.TempDir(), "run.txt")
	if err := os.WriteFile(good, wrkOut, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, a, b string
		want       []string
	}{
		{"non-zero exit", "cat " + good, "echo boom >&2; exit 7", []string{"round 1", "command b", "exit status 7", "boom"}},
		{"not a load test's output", "echo hello", "cat " + good, []string{"round 1", "001-a.txt", "not a load generator's output"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), []string{"duel", "-o", filepath.Join(t.TempDir(), "o"), "--", tc.a, tc.b}, nil, &stdout, &stderr)
			if err == nil || exitCode(err) != exitInput {
				t.Fatalf("err %v (exit %d), want exit 1", err, exitCode(err))
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	for _, args := range [][]string{
		{"duel", "--", "true", "true"},
		{"duel", "-o", t.TempDir(), "--", "true"},
		{"duel", "-o", t.TempDir(), "--max-rounds", "1", "--", "true", "true"},
		{"duel", "-o", t.TempDir(), "--metric", "nosuch", "--", "true", "true"},
		{"duel", "-o", t.TempDir(), "--max-output", "0", "--", "true", "true"},
		{"duel", "-o", t.TempDir(), "--a", "true"},
		{"duel", "-o", t.TempDir(), "--a", "true", "--b", "true", "--", "true"},
	} {
		if err := run(context.Background(), args, nil, &bytes.Buffer{}, &bytes.Buffer{}); exitCode(err) != exitUsage {
			t.Errorf("%q: err %v, want a usage error", args, err)
		}
	}
}

// TestDuelOutputBound: a command writing more than --max-output is
// killed and stops the duel.
func TestDuelOutputBound(t *testing.T) {
	err := run(context.Background(), []string{"duel", "-o", filepath.Join(t.TempDir(), "o"), "--max-output", "1000", "--", "yes", "true"}, nil, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "more than --max-output 1000 bytes") || !strings.Contains(err.Error(), "command a") {
		t.Fatalf("err %v, want the output bound named", err)
	}
}

// replay is a command line that prints the next of the wrk runs in dir
// on each call (run1.txt, run2.txt, ..., then again from the first),
// counting its calls in the file count.
func replay(dir, count string, runs int) string {
	return fmt.Sprintf(`n=$(cat %[2]s 2>/dev/null || echo 0); n=$((n+1)); echo $n > %[2]s; cat %[1]s/run$(( (n-1) %% %[3]d + 1 )).txt`, dir, count, runs)
}

// TestDuelReplayed: a duel whose commands replay the real wrk runs of
// testdata/truth/before-after (B did 15 % more work a request; 0.886x
// the throughput): decided b-worse at the first look whose interval
// clears 0, exit 3, duel.json and compare's report written, the round
// lines printed; and old against itself, replayed in another order,
// never a difference.
func TestDuelReplayed(t *testing.T) {
	root, err := filepath.Abs("../../testdata/truth/before-after")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	out := filepath.Join(tmp, "o")
	code, stdout, rec := duelResult(t, out, "--seed", "1", "--max-rounds", "12",
		"--a", replay(root+"/old", tmp+"/ca", 6), "--b", replay(root+"/new", tmp+"/cb", 6))
	if rec.Decision != duelBWorse || code != exitGate || rec.StoppedBy != "decided" {
		t.Fatalf("decision %s by %s, exit %d; want b-worse, decided, exit 3", rec.Decision, rec.StoppedBy, code)
	}
	n := len(rec.Rounds)
	if n < 4 || n > 6 {
		t.Errorf("decided after %d rounds, want 4-6 (the interval is unbounded for 3; 6 runs a side settle it)", n)
	}
	last := rec.Rounds[n-1]
	if last.HiPct == nil || *last.HiPct >= 0 || *last.MeanPct > -8 || *last.MeanPct < -15 {
		t.Errorf("last round %+v: want the interval below 0 around -11 %%", last)
	}
	for i, r := range rec.Rounds[:n-1] {
		if r.Decision != "continue" {
			t.Errorf("round %d: %s before the last", i+1, r.Decision)
		}
	}
	for _, w := range []string{"round 1 (", "Duel: b is worse than a (the baseline) after", "b vs a (the baseline)"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout lacks %q", w)
		}
	}
	for _, f := range []string{"report.md", "report.html", "summary.json", "duel.json", "rounds/001-a.txt", "rounds/001-b.stderr"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if (rec.Compare != rec.Decision) != (rec.Disagreement != "") {
		t.Errorf("compare says %s, the duel %s; disagreement %q", rec.Compare, rec.Decision, rec.Disagreement)
	}

	// A/A: old's runs against themselves from another start.
	aa := filepath.Join(tmp, "aa")
	if err := os.WriteFile(tmp+"/cc", []byte("3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, rec = duelResult(t, aa, "--seed", "2", "--max-rounds", "12",
		"--a", replay(root+"/old", tmp+"/cd", 6), "--b", replay(root+"/old", tmp+"/cc", 6))
	if rec.Decision == duelBBetter || rec.Decision == duelBWorse {
		t.Errorf("A/A claimed a difference: %s", rec.Summary)
	}
	if want := map[string]int{duelEquivalent: exitOK, duelUndecided: exitGate}[rec.Decision]; code != want {
		t.Errorf("A/A %s exited %d, want %d", rec.Decision, code, want)
	}
}

// TestDuelMaxTime: --max-time ends the duel undecided (exit 3) when a
// command is still running, leaving the incomplete round out; before any
// round completed nothing was compared: the gate fails (exit 3).
func TestDuelMaxTime(t *testing.T) {
	root, err := filepath.Abs("../../testdata/truth/before-after")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	// B hangs from its third call on.
	hang := fmt.Sprintf(`n=$(cat %[1]s/cb 2>/dev/null || echo 0); n=$((n+1)); echo $n > %[1]s/cb; [ $n -ge 3 ] && sleep 60; cat %[2]s/new/run$n.txt`, tmp, root)
	code, _, rec := duelResult(t, filepath.Join(tmp, "o"), "--seed", "1", "--max-time", "3s",
		"--a", replay(root+"/old", tmp+"/ca", 6), "--b", hang)
	if rec.Decision != duelUndecided || rec.StoppedBy != "max-time" || code != exitGate || len(rec.Rounds) != 2 {
		t.Errorf("decision %s by %s after %d rounds, exit %d; want undecided by max-time after 2, exit 3", rec.Decision, rec.StoppedBy, len(rec.Rounds), code)
	}
	err = run(context.Background(), []string{"duel", "-o", filepath.Join(tmp, "o2"), "--max-time", "1s", "--a", "sleep 60", "--b", "true"}, nil, &bytes.Buffer{}, &bytes.Buffer{})
	if exitCode(err) != exitGate || !strings.Contains(err.Error(), "no round completed within --max-time 1s") {
		t.Errorf("err %v, want no round completed", err)
	}
}
