package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFailClosed runs each case of issue 20 where the gate passed by
// accident: each now exits 3 with its reason on stderr, in summary.json,
// summary.md, report.md and the JUnit report; --allow with the reason's
// condition brings it back to 0 and every output says what was allowed.
func TestFailClosed(t *testing.T) {
	const (
		seed     = "../../examples/zuul-vs-openresty.txt"
		noLat    = "../../ingest/wrk/testdata/wrk/real-big.txt" // wrk without --latency: no p99
		rate300  = "../../testdata/truth/rate300/"
		oneOld   = "../../testdata/truth/before-after/old/run1.txt"
		oneNew   = "../../testdata/truth/before-after/new/run1.txt"
		otherSet = "../../ingest/wrk/testdata/wrk/real-latency-ok.txt"
		newDir   = "../../testdata/truth/before-after/new"
		vegetaB  = "../../testdata/truth/aa-gate/vegeta/p01/b"
	)
	// The A side of a real vegeta A/A pair with every response a 500.
	failedDir := filepath.Join(t.TempDir(), "failed")
	allFailed(t, "../../testdata/truth/aa-gate/vegeta/p01/a", failedDir)
	// Three nights of a real series, then a night of another server.
	var nights []string
	for i, src := range []string{"nightly-step/night01", "nightly-step/night02", "nightly-step/night03", "aa-gate/vegeta/p01/a"} {
		dst := filepath.Join(t.TempDir(), fmt.Sprintf("night%02d", i+1))
		if err := os.CopyFS(dst, os.DirFS(filepath.Join("../../testdata/truth", src))); err != nil {
			t.Fatal(err)
		}
		if i == 3 {
			if err := os.WriteFile(filepath.Join(dst, "loadverdict.yaml"), []byte("meta: {date: 2026-11-14}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		nights = append(nights, dst)
	}
	for _, tc := range []struct {
		name string
		args []string // after the command's -o DIR
		cond string
		msg  string
	}{
		{"crossed threshold, no --fail-on", []string{"report", "--threshold", "lat_mean_ms<30", seed}, "threshold", "threshold failed: lat_mean_ms<30"},
		{"threshold that cannot be evaluated", []string{"report", "--threshold", "lat_p99_ms<30", noLat}, "unknown", "unknown: threshold could not be evaluated"},
		{"nothing compared", []string{"compare", "--fail-on", "regression", otherSet, noLat}, "no-comparison", "no-comparison: real-big shares no settings"},
		{"one run a side", []string{"compare", oneOld, oneNew}, "inconclusive", "inconclusive: throughput of new vs old at 16 connections, 2 threads, 10 s, wrk untested, so a regression of any size cannot be ruled out"},
		{"rate-300 latency regression", []string{"compare", "--fail-on", "regression", rate300 + "old", rate300 + "new"}, "regression", "regression: p50 latency of new is"},
		// Issue 30: nothing checked. new's p99 is a median of 108.1 ms
		// over 6 runs, 95 % CI 12.0-141.6 ms.
		{"marginal threshold", []string{"report", "--threshold", "lat_p99_ms<120", newDir}, "marginal", "marginal: lat_p99_ms<120: 127.0.0.1:19101 at"},
		{"the baseline is the only system", []string{"report", "--baseline", "127.0.0.1:19101", newDir}, "no-comparison",
			"no-comparison: 127.0.0.1:19101 (the baseline) is the only system"},
		{"one system, --fail-on no-comparison", []string{"report", "--fail-on", "no-comparison", newDir}, "no-comparison", "no-comparison: only one system ran"},
		// Checked on the wrong data: a value past the limit whose CI
		// straddles it; latencies of a baseline whose every request failed.
		{"threshold past its limit, CI across it", []string{"report", "--threshold", "lat_p99_ms<100", newDir}, "threshold", "threshold failed: lat_p99_ms<100"},
		{"a baseline that served nothing", []string{"compare", failedDir, vegetaB}, "no-comparison",
			"no-comparison: every request of failed (the baseline) failed where it ran with b, so b was not compared with it"},
		// history: the latest night measured something the series never
		// ran (another server and rate): nothing of it was checked.
		{"history: the latest ran nothing of the series", append([]string{"history"}, nights...), "no-comparison",
			"no-comparison: nothing of the latest experiment, 2026-11-14 (night04), could be checked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // its own folders; run in-process with no global state
			dir := t.TempDir()
			args := append([]string{tc.args[0], "-o", dir}, tc.args[1:]...)
			_, errOut, err := runCLI(t, "", args...)
			if err != nil {
				errOut += err.Error() // main prints it on stderr
			}
			if exitCode(err) != exitGate || !strings.Contains(errOut, tc.msg) {
				t.Fatalf("%v: exit %d, want 3 with %q on stderr:\n%s", args, exitCode(err), tc.msg, errOut)
			}
			checkOutputs(t, dir, tc.cond, tc.msg, false)

			dir = t.TempDir()
			args = append([]string{tc.args[0], "-o", dir, "--allow", tc.cond, "--junit", filepath.Join(dir, "junit.xml")}, tc.args[1:]...)
			_, errOut, err = runCLI(t, "", args...)
			if exitCode(err) != exitOK || !strings.Contains(errOut, "gate: allowed: "+tc.msg) {
				t.Fatalf("%v: exit %d, want 0 saying what was allowed on stderr:\n%s", args, exitCode(err), errOut)
			}
			checkOutputs(t, dir, tc.cond, tc.msg, true)
		})
	}
}

// TestFailClosedRefused: what would switch the gate off, or name what
// is not there, is a usage error (exit 2) with what was expected, never
// a pass: a regression check without a baseline, manifest settings no
// test can act on, a blank slo: item, a threshold scope that names no
// group.
func TestFailClosedRefused(t *testing.T) {
	const newDir = "../../testdata/truth/before-after/new"
	for _, tc := range []struct {
		name, manifest string
		args           []string
		msg            string
	}{
		{"--fail-on regression, one system", "", []string{"--fail-on", "regression"}, "failing on regression needs a baseline"},
		{"alpha no test reaches", "thresholds: {alpha: 1e-20}\n", nil, "thresholds.alpha = 1e-20, want a value in [0.001, 0.2]"},
		{"a practical band of 99 %", "thresholds: {practical_band: 0.99}\n", nil, "thresholds.practical_band = 0.99, want a value in (0, 0.25]"},
		{"slo: [null]", "slo: [null]\n", nil, "slo: item 1 is empty"},
		{"a rate no group ran at", "", []string{"--threshold", "rps{rate=100}>=1"}, "rps{rate=100}>=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // its own folders; run in-process with no global state
			args := []string{"report", "-o", t.TempDir()}
			input := newDir
			if tc.manifest != "" {
				input = t.TempDir()
				for i := 1; i <= 6; i++ {
					b, err := os.ReadFile(fmt.Sprintf("%s/run%d.txt", newDir, i))
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(fmt.Sprintf("%s/run%d.txt", input, i), b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.WriteFile(filepath.Join(input, "loadverdict.yaml"), []byte(tc.manifest), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args = append(append(args, tc.args...), input)
			_, errOut, err := runCLI(t, "", args...)
			if err != nil {
				errOut += err.Error()
			}
			if exitCode(err) != exitUsage || !strings.Contains(errOut, tc.msg) {
				t.Fatalf("%v: exit %d, want 2 with %q:\n%s", args, exitCode(err), tc.msg, errOut)
			}
		})
	}
}

// checkOutputs checks that the gate's reason (allowed or failing) is in
// summary.json, summary.md, report.md, report.html and, when written,
// the JUnit report.
func checkOutputs(t *testing.T, dir, cond, msg string, allowed bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Gate struct {
			Failed  bool     `json:"failed"`
			Allow   []string `json:"allow"`
			Reasons []struct {
				Condition string `json:"condition"`
				Fails     bool   `json:"fails"`
				Allowed   bool   `json:"allowed"`
				Message   string `json:"message"`
			} `json:"reasons"`
		} `json:"gate"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range s.Gate.Reasons {
		if r.Condition == cond && strings.HasPrefix(r.Message, msg) && r.Fails == !allowed && r.Allowed == allowed {
			found = true
		}
	}
	if !found || s.Gate.Failed == allowed || allowed != slices.Contains(s.Gate.Allow, cond) {
		t.Errorf("summary.json gate: %+v, want a %s reason (allowed %v)", s.Gate, cond, allowed)
	}
	for _, f := range []string{"summary.md", "report.md", "report.html"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		want := "failed"
		if allowed {
			want = "allowed"
		}
		if !strings.Contains(string(b), want) || !strings.Contains(string(b), strings.ReplaceAll(strings.SplitN(msg, ":", 2)[0], "<", "&lt;")) {
			t.Errorf("%s does not say the gate %s on %q", f, want, msg)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "junit.xml")); err == nil {
		var doc struct {
			Tests   int `xml:"tests,attr"`
			Skipped int `xml:"skipped,attr"`
		}
		if err := xml.Unmarshal(b, &doc); err != nil || doc.Tests == 0 || allowed && doc.Skipped == 0 {
			t.Errorf("junit.xml: %v %+v\n%s", err, doc, b)
		}
	}
}

// The real data of issue 20 (testdata/truth/rate300, made by
// scripts/truth/make-rate300.sh): four `vegeta attack -rate 300` runs a
// side, saved without their command line, so each run's rate is inferred
// (300.3-300.5 req/s); they are one setting (one comparison per metric,
// 4 vs 4 runs), and the 1 ms regression of each request, hidden from
// the mean by one disturbed old run, is found by the p50: decided, 4/4
// runs fully separated (exact p = 2/70).
func TestRate300OneSetting(t *testing.T) {
	out, _, err := runCLI(t, "", "compare", "--format", "json", "../../testdata/truth/rate300/old", "../../testdata/truth/rate300/new")
	if exitCode(err) != exitGate {
		t.Fatalf("exit %d, want 3: %v", exitCode(err), err)
	}
	var doc struct {
		Comparisons []struct {
			Metric  string   `json:"metric"`
			ARuns   int      `json:"a_runs"`
			BRuns   int      `json:"b_runs"`
			Verdict string   `json:"verdict"`
			PValue  *float64 `json:"p_value"`
		} `json:"comparisons"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, c := range doc.Comparisons {
		n[c.Metric]++
		if c.ARuns != 4 || c.BRuns != 4 {
			t.Errorf("%s: %d vs %d runs, want 4 vs 4 (one setting)", c.Metric, c.ARuns, c.BRuns)
		}
		if c.Metric == "lat_p50_ms" && (c.Verdict != "b-faster" || c.PValue == nil || *c.PValue > 2.0/70+1e-9) {
			t.Errorf("p50: %s, p %v; want new slower at p = 2/70", c.Verdict, c.PValue)
		}
	}
	if n["rps"] != 1 || n["lat_p50_ms"] != 1 {
		t.Errorf("comparisons per metric %v, want one setting", n)
	}
	// The headline leads with what decided: the medians (an open model's
	// lead, mean latency, is tested and undecided), and says so.
	text, _, _ := runCLI(t, "", "compare", "../../testdata/truth/rate300/old", "../../testdata/truth/rate300/new")
	first, _, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(first, "new is slower than old (the baseline) by p50 latency at ") ||
		!strings.Contains(first, "its mean latency did not settle it (p = ") {
		t.Errorf("headline %q, want new slower by p50 latency and the mean's undecided test named", first)
	}
}

// TestAAGateDoesNotCryWolf: issue 20's "fail-closed does not cry wolf"
// on testdata/truth/aa-gate: 20 real A/A pairs (wrk and vegeta, 4-8 runs
// a side, the same server measured twice in blocks), `compare a b` with
// the default gate (a regression check). The acceptance's <= 5 % is
// asserted on the conformance grid's A/A experiments with 4-8 runs a side
// (scripts/conformance TestAAGateRate: 1 of 29). Here the vegeta pairs
// must fail at most 1 of 10; the wrk pairs, made at load average 28-38
// on 2 CPUs (throughput ±50 % within a side), fail 4 of 10 in analysis
// version 6 (8 of 20 in all in version 5): two block shifts decided as
// regressions (p03 throughput -20 % at p = 0.004; p08 mean latency
// +687 %), two undecided comparisons significant at alpha with their
// estimate beyond the 2 % band (p06 p50, p07 throughput and p50); this
// test holds that ceiling (testdata/truth/aa-gate/README.md).
func TestAAGateDoesNotCryWolf(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses 20 pairs")
	}
	ceiling := map[string]int{"wrk": 4, "vegeta": 1}
	for _, tool := range []string{"wrk", "vegeta"} {
		pairs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "truth", "aa-gate", tool, "p*"))
		if err != nil {
			t.Fatal(err)
		}
		if len(pairs) != 10 {
			t.Fatalf("%d %s pairs under testdata/truth/aa-gate, want 10", len(pairs), tool)
		}
		failed := 0
		for _, p := range pairs {
			out, _, err := runCLI(t, "", "compare", p+"/a", p+"/b")
			switch exitCode(err) {
			case 0:
			case exitGate:
				failed++
				var why []string
				for _, l := range strings.Split(out, "\n") {
					if strings.HasPrefix(strings.TrimSpace(l), "- ") {
						why = append(why, strings.TrimSpace(l))
					}
				}
				t.Logf("%s fails the gate:\n%s", p, strings.Join(why, "\n"))
			default:
				t.Fatalf("%s: exit %d: %v", p, exitCode(err), err)
			}
		}
		t.Logf("%s: A/A pairs failing the default gate: %d of %d", tool, failed, len(pairs))
		if failed > ceiling[tool] {
			t.Errorf("%s: %d of %d A/A pairs fail the default gate, more than the %d measured in analysis version 6", tool, failed, len(pairs), ceiling[tool])
		}
	}
}

// allFailed copies the gzipped vegeta JSON runs of dir into out, every
// response turned into a 500 with its error.
func allFailed(t *testing.T, dir, out string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json.gz"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: %v", dir, err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		raw = bytes.ReplaceAll(raw, []byte(`"code":200`), []byte(`"code":500`))
		raw = bytes.ReplaceAll(raw, []byte(`"error":""`), []byte(`"error":"500 Internal Server Error"`))
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		if _, err := zw.Write(raw); err != nil || zw.Close() != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, filepath.Base(f)), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
