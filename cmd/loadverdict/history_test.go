package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/report"
)

// truthSeries holds 8 real experiments of 4 wrk runs each, one a day:
// 12 % more work per request from exp05 on, exp03 disturbed by foreign
// CPU load; each folder's loadverdict.yaml gives series: and meta: (see
// scripts/truth/make-series.sh and the README).
const truthSeries = "../../testdata/truth/series"

func seriesDirs(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, filepath.Join(truthSeries, fmt.Sprintf("exp%02d", i)))
	}
	return out
}

func readSeriesSummary(t *testing.T, dir string) report.SeriesSummary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s report.SeriesSummary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// The acceptance of issues 12 and 20 on the real series: the throughput
// change point is found at exp05 with p < 0.05 and the disturbed exp03 is
// no change point; the history check (--max-regression 5) fails the night
// exp05 lands and every night after until it is accepted; exp03 fails its
// own night (nothing yet tells a one-off) and is a one-off from exp04 on.
func TestHistoryTruthSeries(t *testing.T) {
	gate := []string{"history", "--fail-on", "regression", "--max-regression", "5"}
	t.Run("exp01..exp08", func(t *testing.T) {
		t.Parallel() // its own folders; run in-process with no global state
		checkHistoryFullSeries(t, gate)
	})
	for _, tc := range []struct {
		to      int
		exit    int
		verdict string
	}{{3, exitOK, "No change shown"}, {4, exitOK, "No change shown"}, {5, exitOK, "No change shown"}, {6, exitGate, "Regression: "}} {
		// exp03 (disturbed) and exp05 (the step) are each, as the latest,
		// one experiment beyond the reference: suspect, the next decides.
		t.Run(fmt.Sprintf("exp01..exp%02d", tc.to), func(t *testing.T) {
			t.Parallel() // its own folders; run in-process with no global state
			checkHistoryPrefix(t, gate, tc.to, tc.exit, tc.verdict)
		})
	}
}

// checkHistoryFullSeries runs the history check gate on exp01..exp08: a
// regression at exp05 (the disturbed exp03 no change point), then, with
// exp05 accepted, a pass that says so.
func checkHistoryFullSeries(t *testing.T, gate []string) {
	t.Helper()
	dir := t.TempDir()
	out, errOut, err := runCLI(t, "", append(append(gate, "-o", dir), seriesDirs(1, 8)...)...)
	if exitCode(err) != exitGate || !strings.Contains(err.Error(), "regression: 127.0.0.1:19121 at 16 connections, 2 threads, 6 s, wrk: throughput") {
		t.Fatalf("exit %d, %v\n%s", exitCode(err), err, errOut)
	}
	if !strings.HasPrefix(out, "Regression: 127.0.0.1:19121 at 16 connections, 2 threads, 6 s, wrk: throughput 19.4 % worse since commit acfc3cec5c0b on 2026-11-25 (exp05) (4 experiments, not accepted)") {
		t.Errorf("headline:\n%s", out)
	}
	s := readSeriesSummary(t, dir)
	if s.Series != "truth-series" || s.OrderBy != "meta.date" || len(s.Experiments) != 8 || len(s.Tracks) != 1 {
		t.Fatalf("summary: series %q, order %q, %d experiments, %d tracks", s.Series, s.OrderBy, len(s.Experiments), len(s.Tracks))
	}
	tr := s.Tracks[0]
	for _, m := range tr.Metrics {
		for _, c := range m.Changes {
			if c.Experiment == "exp03" || c.Experiment == "exp04" {
				t.Errorf("%s: change point at the disturbed %s", m.Metric, c.Experiment)
			}
		}
		if m.Metric != "rps" {
			continue
		}
		if len(m.Changes) != 1 || m.Changes[0].Experiment != "exp05" || !m.Changes[0].Regression || m.Changes[0].EDivisiveP >= 0.05 {
			t.Errorf("rps change points %+v, want one regression at exp05 with p < 0.05", m.Changes)
		}
		l := m.Latest
		if l == nil || l.Verdict != "regression" || l.Since == nil || *l.Since != "exp05" || strings.Join(l.Reference, " ") != "exp01 exp02 exp04" ||
			strings.Join(l.Tested, " ") != "exp05 exp06 exp07 exp08" || l.PValue == nil || *l.PValue >= 0.05 {
			t.Errorf("latest %+v: want a regression since exp05 against exp01, exp02, exp04", l)
		}
	}
	if tr.Points[2].Status != "disturbed" || tr.Points[2].DisturbedMetric != "rps" || tr.Points[2].Check["rps"] != "" {
		t.Errorf("exp03: %+v, want disturbed in rps and not used", tr.Points[2])
	}
	for _, f := range []string{"report.md", "summary.md", "trend-rps.png", "trend-lat_mean_ms.png", "trend-lat_p99_ms.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "summary.md")); bytes.Count(b, []byte("\n")) > 25 {
		t.Errorf("summary.md has %d lines, want <= 25", bytes.Count(b, []byte("\n")))
	}
	// Accepted, the same series passes, and says so.
	dir = t.TempDir()
	out, _, err = runCLI(t, "", append(append(gate, "-o", dir, "--accept", "exp05"), seriesDirs(1, 8)...)...)
	if err != nil || !strings.HasPrefix(out, "No change shown in the latest experiment, commit 6906ab6251c8 on 2026-11-28 (exp08)") {
		t.Errorf("--accept exp05: %v\n%s", err, out)
	}
	s = readSeriesSummary(t, dir)
	if s.Experiments[4].Accepted != "accept" || s.Tracks[0].Points[4].Check["rps"] != "accepted" {
		t.Errorf("exp05 not shown accepted: %+v %+v", s.Experiments[4], s.Tracks[0].Points[4])
	}
	if md, _ := os.ReadFile(filepath.Join(dir, "report.md")); !strings.Contains(string(md), "Accepted changes: the reference level starts again at commit acfc3cec5c0b on 2026-11-25 (exp05) (accepted).") {
		t.Errorf("report.md does not show the acceptance")
	}
}

// checkHistoryPrefix runs the history check gate on exp01..exp<to>: it
// exits exit with verdict as the headline, and the same without --fail-on;
// with every verdict allowed by name, it passes.
func checkHistoryPrefix(t *testing.T, gate []string, to, exit int, verdict string) {
	t.Helper()
	dir := t.TempDir()
	out, _, err := runCLI(t, "", append(append(gate, "-o", dir), seriesDirs(1, to)...)...)
	if exitCode(err) != exit || !strings.HasPrefix(out, verdict) {
		t.Fatalf("exit %d, %v\n%s", exitCode(err), err, out)
	}
	s := readSeriesSummary(t, dir)
	m := s.Tracks[0].Metrics[0]
	switch to {
	case 4:
		if m.Latest.Verdict != "no-change" || strings.Join(m.Latest.Reference, " ") != "exp01 exp02" || s.Tracks[0].Points[2].Status != "disturbed" {
			t.Errorf("exp04: %+v, exp03 %+v: want no change against exp01, exp02 with exp03 a one-off", m.Latest, s.Tracks[0].Points[2])
		}
	case 5:
		if m.Latest.Since == nil || *m.Latest.Since != "exp05" || !m.Latest.Suspect || s.Gate.Failed {
			t.Errorf("latest %+v, gate %+v: want exp05 suspect", m.Latest, s.Gate)
		}
	case 6:
		if m.Latest.Since == nil || *m.Latest.Since != "exp05" || strings.Join(m.Latest.Reference, " ") != "exp01 exp02 exp04" || !s.Gate.Failed {
			t.Errorf("latest %+v, gate %+v: want a regression since exp05 against exp01, exp02, exp04", m.Latest, s.Gate)
		}
	}
	// Running history asks for its check: without --fail-on the
	// same history gates the same; allowed by name, it passes.
	if _, _, err := runCLI(t, "", append([]string{"history", "-o", t.TempDir(), "--max-regression", "5"}, seriesDirs(1, to)...)...); exitCode(err) != exit {
		t.Errorf("without --fail-on: exit %d, want %d: %v", exitCode(err), exit, err)
	}
	allow := []string{"history", "-o", t.TempDir(), "--max-regression", "5", "--allow", "regression,drift,inconclusive,no-comparison"}
	if out, stderr, err := runCLI(t, "", append(allow, seriesDirs(1, to)...)...); err != nil || exit != exitOK && !strings.Contains(stderr, "loadverdict: gate: allowed: ") {
		t.Errorf("--allow regression,drift,inconclusive,no-comparison: %v\n%s%s", err, out, stderr)
	}
}

// TestHistoryOrder: meta dates order the experiments whatever the order
// given; without them, the order given stands, and the report says so.
func TestHistoryOrder(t *testing.T) {
	dir := t.TempDir()
	args := append([]string{"history", "-o", dir, "--allow", "regression,drift,inconclusive"}, seriesDirs(6, 8)...)
	args = append(args, seriesDirs(1, 5)...)
	if _, _, err := runCLI(t, "", args...); err != nil {
		t.Fatal(err)
	}
	s := readSeriesSummary(t, dir)
	var names []string
	for _, e := range s.Experiments {
		names = append(names, e.Name)
	}
	if got := strings.Join(names, " "); s.OrderBy != "meta.date" || got != "exp01 exp02 exp03 exp04 exp05 exp06 exp07 exp08" {
		t.Errorf("order %s: %s", s.OrderBy, got)
	}
	// Copies without manifests: as given.
	src := t.TempDir()
	var dirs []string
	for _, d := range []string{"exp02", "exp01"} {
		dst := filepath.Join(src, d)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 4; i++ {
			b, err := os.ReadFile(filepath.Join(truthSeries, d, fmt.Sprintf("run%d.txt", i)))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dst, fmt.Sprintf("run%d.txt", i)), b, 0o644)
		}
		dirs = append(dirs, dst)
	}
	out := t.TempDir()
	if _, _, err := runCLI(t, "", append([]string{"history", "-o", out, "--series", "copies"}, dirs...)...); err != nil {
		t.Fatal(err)
	}
	s = readSeriesSummary(t, out)
	if s.OrderBy != "as-given" || s.Experiments[0].Name != "exp02" || s.Series != "copies" {
		t.Errorf("order %s, first %s, series %s", s.OrderBy, s.Experiments[0].Name, s.Series)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(md), "ordered as given") {
		t.Errorf("report.md does not say the order:\n%s", md)
	}
}

// TestHistorySameDate (issue 21 #12): two experiments with the same
// meta.date and no run start times cannot be ordered; whichever order
// they are given in, history says so with exit 2 instead of deciding the
// gate by the order of the arguments.
func TestHistorySameDate(t *testing.T) {
	src := t.TempDir()
	var dirs []string
	for _, d := range []string{"exp04", "exp05"} {
		dst := filepath.Join(src, d)
		os.MkdirAll(dst, 0o755)
		for _, f := range []string{"run1.txt", "run2.txt", "loadverdict.yaml"} {
			b, err := os.ReadFile(filepath.Join(truthSeries, d, f))
			if err != nil {
				t.Fatal(err)
			}
			b = bytes.ReplaceAll(b, []byte("date: 2026-11-25"), []byte("date: 2026-11-24"))
			os.WriteFile(filepath.Join(dst, f), b, 0o644)
		}
		dirs = append(dirs, dst)
	}
	for _, args := range [][]string{dirs, {dirs[1], dirs[0]}} {
		_, _, err := runCLI(t, "", append([]string{"history", "-o", t.TempDir(), "--fail-on", "regression"}, args...)...)
		if exitCode(err) != exitUsage || !strings.Contains(err.Error(), "experiments exp04 and exp05 have the same meta.date 2026-11-24") {
			t.Errorf("%v: exit %d, %v", args, exitCode(err), err)
		}
	}
}

// seriesCopy copies experiments of the truth series (4 runs and the
// manifest, changed by edit when not nil) into a folder of its own and
// returns their folders in the order given.
func seriesCopy(t *testing.T, exps []string, edit func(exp string, manifest []byte) []byte) []string {
	t.Helper()
	root := t.TempDir()
	var dirs []string
	for _, exp := range exps {
		dst := filepath.Join(root, exp)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"run1.txt", "run2.txt", "run3.txt", "run4.txt", "loadverdict.yaml"} {
			b, err := os.ReadFile(filepath.Join(truthSeries, exp, f))
			if err != nil {
				t.Fatal(err)
			}
			if f == "loadverdict.yaml" && edit != nil {
				b = edit(exp, b)
			}
			if err := os.WriteFile(filepath.Join(dst, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dirs = append(dirs, dst)
	}
	return dirs
}

// TestHistoryUndated (issue 30 #4): an experiment without meta.date in a
// dated series made history drop every date and take the arguments'
// order, so that the dated regression exp05..exp07 passed when undated
// exp01 was given last. Wherever the undated ones are given, and however
// many, history and history --store refuse the series (exit 2, naming
// them) and the gate never passes; all dated, the order is the dates'.
func TestHistoryUndated(t *testing.T) {
	for _, tc := range []struct {
		name    string
		exps    []string
		undated []string
		want    string
	}{
		{"undated last", []string{"exp05", "exp06", "exp07", "exp01"}, []string{"exp01"}, "experiment exp01 has no meta.date while the 3 others have one"},
		{"undated first", []string{"exp01", "exp05", "exp06", "exp07"}, []string{"exp01"}, "experiment exp01 has no meta.date"},
		{"the regression undated", []string{"exp01", "exp02", "exp05", "exp06"}, []string{"exp06"}, "experiment exp06 has no meta.date"},
		{"undated middle", []string{"exp05", "exp01", "exp06", "exp07"}, []string{"exp01"}, "experiment exp01 has no meta.date"},
		{"several undated", []string{"exp01", "exp02", "exp05", "exp06"}, []string{"exp01", "exp06"}, "experiments exp01, exp06 have no meta.date while the 2 others have one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // its own folders; run in-process with no global state
			dirs := seriesCopy(t, tc.exps, func(exp string, b []byte) []byte {
				if slices.Contains(tc.undated, exp) {
					b = regexp.MustCompile(`(?m)^  date: .*\n`).ReplaceAll(b, nil)
				}
				return b
			})
			_, _, err := runCLI(t, "", append([]string{"history", "-o", t.TempDir(), "--max-regression", "5"}, dirs...)...)
			if exitCode(err) != exitUsage || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("exit %d, %v; want 2 with %q", exitCode(err), err, tc.want)
			}
			// The same experiments in a store: the ingest keeps its own
			// reports (the series' fault is not the experiment's), and
			// history --store refuses the series the same way.
			st := storeOfFolders(t, dirs)
			_, _, err = runCLI(t, "", "history", "--store", st, "--series", "truth-series", "--max-regression", "5")
			if exitCode(err) != exitUsage || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("--store: exit %d, %v; want 2 with %q", exitCode(err), err, tc.want)
			}
		})
	}
	// Dated, the regression fails the gate whatever the order given.
	dirs := seriesCopy(t, []string{"exp05", "exp06", "exp07", "exp01", "exp02"}, nil)
	dir := t.TempDir()
	if _, _, err := runCLI(t, "", append([]string{"history", "-o", dir, "--max-regression", "5"}, dirs...)...); exitCode(err) != exitGate {
		t.Errorf("dated: exit %d, %v; want 3", exitCode(err), err)
	}
	if s := readSeriesSummary(t, dir); s.OrderBy != "meta.date" || s.Experiments[0].Name != "exp01" || s.Experiments[4].Name != "exp07" {
		t.Errorf("dated: order %s %+v", s.OrderBy, s.Experiments)
	}
}

// TestHistoryManifestGate (issue 30 #6): the latest experiment's
// manifest gates the series (exp01, 02, 04, 05, 06 of the truth series: the step
// at exp05 is a regression since exp04 within 2 % allowed (exp04 is 2-5 % lower: the step is dated
// there), a regression since exp05 beyond 5 %), its gate.allow as well as its
// gate.max_regression (allow was dropped), the flags added to it; an
// earlier experiment's gate: does not; its threshold conditions are not
// history's (checked per experiment). summary.json states the gate as
// applied.
func TestHistoryManifestGate(t *testing.T) {
	exps := []string{"exp01", "exp02", "exp04", "exp05", "exp06"}
	all := []string{"regression", "inconclusive", "no-comparison", "drift", "errors"}
	for _, tc := range []struct {
		name, exp, yaml string
		flags           []string
		exit            int
		failOn, allow   []string
		allowedPct      float64
	}{
		{"latest allows inconclusive", "exp06", "gate:\n  allow: [inconclusive]\n", nil, exitGate,
			[]string{"regression", "no-comparison", "drift", "errors"}, []string{"inconclusive"}, 2},
		{"an earlier one allows inconclusive", "exp01", "gate:\n  allow: [inconclusive]\n", nil, exitGate, all, []string{}, 2},
		{"latest allows inconclusive, --allow drift", "exp06", "gate:\n  allow: [inconclusive]\n", []string{"--allow", "drift"}, exitGate,
			[]string{"regression", "no-comparison", "errors"}, []string{"inconclusive", "drift"}, 2},
		{"latest max_regression 30", "exp06", "gate:\n  max_regression: 30\n", nil, exitOK, all, []string{}, 30},
		{"latest max_regression 30, --max-regression 5", "exp06", "gate:\n  max_regression: 30\n", []string{"--max-regression", "5"}, exitGate, all, []string{}, 5},
		{"latest fails on threshold", "exp06", "slo: [\"rps>1\"]\ngate:\n  fail_on: [threshold, inconclusive]\n", nil, exitGate, all, []string{}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // its own folders; run in-process with no global state
			dirs := seriesCopy(t, exps, func(exp string, b []byte) []byte {
				if exp == tc.exp {
					b = append(b, tc.yaml...)
				}
				return b
			})
			dir := t.TempDir()
			_, _, err := runCLI(t, "", append(append([]string{"history", "-o", dir}, tc.flags...), dirs...)...)
			if exitCode(err) != tc.exit {
				t.Fatalf("exit %d, want %d: %v", exitCode(err), tc.exit, err)
			}
			g := readSeriesSummary(t, dir).Gate
			if !slices.Equal(g.FailOn, tc.failOn) || !slices.Equal(g.Allow, tc.allow) || g.AllowedRegressionPct != tc.allowedPct {
				t.Errorf("gate fail_on %v allow %v allowed %g %%; want %v %v %g %%", g.FailOn, g.Allow, g.AllowedRegressionPct, tc.failOn, tc.allow, tc.allowedPct)
			}
			for _, r := range g.Reasons {
				if r.Allowed != slices.Contains(tc.allow, r.Condition) || r.Fails == r.Allowed {
					t.Errorf("reason %+v: allowed %v", r, tc.allow)
				}
			}
		})
	}
}

func TestHistoryUsage(t *testing.T) {
	twice := t.TempDir()
	for _, d := range []string{"a/exp01", "b/exp01"} {
		os.MkdirAll(filepath.Join(twice, d), 0o755)
		b, _ := os.ReadFile(filepath.Join(truthSeries, "exp01", "run1.txt"))
		os.WriteFile(filepath.Join(twice, d, "run1.txt"), b, 0o644)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"history"}, "no experiment folders"},
		{append([]string{"history", "--fail-on", "threshold"}, seriesDirs(1, 2)...), "thresholds are checked per experiment"},
		{append([]string{"history", "--threshold", "rps>1"}, seriesDirs(1, 2)...), "thresholds are checked per experiment"},
		{[]string{"history", filepath.Join(twice, "a/exp01"), filepath.Join(twice, "b/exp01")}, `would both be experiment "exp01"`},
		{[]string{"history", "--store", t.TempDir()}, "--store needs --series NAME"},
		{[]string{"history", "--store", t.TempDir(), "--series", "nosuch"}, `names series "nosuch"`},
		{[]string{"history", "--series", "a/b", filepath.Join(truthSeries, "exp01")}, "invalid series name"},
	} {
		_, _, err := runCLI(t, "", tc.args...)
		if exitCode(err) != exitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: exit %d, %v; want 2 with %q", tc.args, exitCode(err), err, tc.want)
		}
	}
}

// storeOfFolders lays out experiment folders (4 runs and the manifest each)
// as a bucket's raw/<folder>/ in a new local store, ingests them with
// ingest --store, and returns the store.
func storeOfFolders(t *testing.T, dirs []string) string {
	t.Helper()
	st := t.TempDir()
	var keys []string
	for _, dir := range dirs {
		exp := filepath.Base(dir)
		for _, f := range []string{"run1.txt", "run2.txt", "run3.txt", "run4.txt", "loadverdict.yaml"} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			key := "raw/" + exp + "/" + f
			os.MkdirAll(filepath.Join(st, "raw", exp), 0o755)
			if err := os.WriteFile(filepath.Join(st, filepath.FromSlash(key)), b, 0o644); err != nil {
				t.Fatal(err)
			}
			keys = append(keys, key)
		}
	}
	if _, errOut, err := runCLI(t, "", append([]string{"ingest", "--store", st}, keys...)...); err != nil {
		t.Fatalf("ingest: %v\n%s", err, errOut)
	}
	return st
}

// TestHistoryStore: history --store reads the series of a store laid out
// as the bucket (the experiments' manifests name it) and writes nothing
// to it; -o writes the report locally, the same as from folders.
func TestHistoryStore(t *testing.T) {
	st := storeOfFolders(t, append(seriesDirs(1, 2), seriesDirs(4, 6)...))
	// The ingest kept the series current.
	if _, err := os.Stat(filepath.Join(st, filepath.FromSlash(store.SeriesReportKey("truth-series", "report.md")))); err != nil {
		t.Errorf("the ingest did not write the series' report: %v", err)
	}
	stdout, _, err := runCLI(t, "", "history", "--store", st, "--series", "truth-series", "--fail-on", "regression", "--max-regression", "5")
	if exitCode(err) != exitGate || !strings.Contains(stdout, "throughput 19.8 % worse since commit acfc3cec5c0b on 2026-11-25 (exp05)") {
		t.Errorf("exit %d, %v\n%s", exitCode(err), err, stdout)
	}
	out := t.TempDir()
	// The gate fails (history guards by default; the truth series has its
	// step); the report is written all the same.
	if _, _, err := runCLI(t, "", "history", "--store", st, "--series", "truth-series", "-o", out); err != nil && exitCode(err) != exitGate {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(out, "summary.json"))
	b, _ := os.ReadFile(filepath.Join(st, filepath.FromSlash(store.SeriesReportKey("truth-series", "summary.json"))))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("history --store -o wrote another summary.json than the ingest's:\n%s\n---\n%s", a, b)
	}
}

// nightlyCopy copies nights 1..to of testdata/truth/<set> into a folder of
// its own, each night with its manifest and the first runs runs of tool
// (wrk or vegeta), and returns the nights' folders in order.
func nightlyCopy(t *testing.T, set, tool string, runs, to int) []string {
	t.Helper()
	root := t.TempDir()
	var dirs []string
	for n := 1; n <= to; n++ {
		night := fmt.Sprintf("night%02d", n)
		src, dst := filepath.Join("../../testdata/truth", set, night), filepath.Join(root, night)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		files := []string{"loadverdict.yaml"}
		for r := 1; r <= runs; r++ {
			files = append(files, fmt.Sprintf("%s%d.txt", tool, r))
		}
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(src, f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dst, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dirs = append(dirs, dst)
	}
	return dirs
}

// TestHistoryNightly: issue 20's named cases on real data through the
// command (analyze's TestHistoryNightlyStepMatrix and
// TestHistoryNightlyDriftMatrix take every night, tool and run count):
// six nights of 2 wrk runs, 10 % slower from the 4th, exit 3 with the
// regression dated night04 on stderr and in report.md, and 0 once night04
// is accepted; with 3 runs a night the headline says the regression, never
// "No regression"; ten nights ~2 % slower each exit 3 naming the drift.
func TestHistoryNightly(t *testing.T) {
	gate := []string{"history", "--fail-on", "regression", "--max-regression", "5"}
	dir := t.TempDir()
	six := nightlyCopy(t, "nightly-step", "wrk", 2, 6)
	out, _, err := runCLI(t, "", append(append(gate, "-o", dir), six...)...)
	if exitCode(err) != exitGate || !strings.Contains(err.Error(), "regression: 127.0.0.1:19510 at 8 connections, 1 thread, 3 s, wrk: throughput") ||
		!strings.Contains(out, "since commit cf6d508c0ffa on 2026-11-14 (night04) (3 experiments, not accepted)") {
		t.Errorf("six nights: exit %d, %v\n%s", exitCode(err), err, out)
	}
	if md, _ := os.ReadFile(filepath.Join(dir, "report.md")); !strings.Contains(string(md), "regression since commit cf6d508c0ffa on 2026-11-14 (night04)") {
		t.Errorf("report.md does not name the regression")
	}
	if out, _, err := runCLI(t, "", append(append(gate, "-o", t.TempDir(), "--accept", "night04"), six...)...); err != nil || !strings.HasPrefix(out, "No change shown") {
		t.Errorf("six nights, --accept night04: %v\n%s", err, out)
	}
	out, _, err = runCLI(t, "", append(append(gate, "-o", t.TempDir()), nightlyCopy(t, "nightly-step", "wrk", 3, 6)...)...)
	if exitCode(err) != exitGate || !strings.HasPrefix(out, "Regression: ") || strings.Contains(out, "No regression") {
		t.Errorf("six nights of 3 runs: exit %d\n%s", exitCode(err), out)
	}
	out, _, err = runCLI(t, "", append(append(gate, "-o", t.TempDir()), nightlyCopy(t, "nightly-drift", "wrk", 2, 10)...)...)
	// A slow drift fails as a drift or as a regression dated within it.
	if exitCode(err) != exitGate || !strings.HasPrefix(out, "Drift: 127.0.0.1:19511 at 8 connections, 1 thread, 3 s, wrk: throughput") &&
		!strings.HasPrefix(out, "Regression: 127.0.0.1:19511 at 8 connections, 1 thread, 3 s, wrk: throughput") {
		t.Errorf("ten nights of drift: exit %d, %v\n%s", exitCode(err), err, out)
	}
	// An accepted name that is no experiment of the series is a usage error.
	if _, _, err := runCLI(t, "", append(append(gate, "-o", t.TempDir(), "--accept", "night99"), six...)...); exitCode(err) != exitUsage ||
		!strings.Contains(err.Error(), `no experiment "night99"`) {
		t.Errorf("--accept night99: exit %d, %v", exitCode(err), err)
	}
}

// TestHistoryManifestAccept: the latest night's manifest accepts the
// step (history.accept) or pins the reference to start at it
// (history.baseline): six nights of the real step pass, night04 shown
// accepted; a name that is no experiment of the series is a usage error.
func TestHistoryManifestAccept(t *testing.T) {
	for _, tc := range []struct {
		yaml, accepted string
		exit           int
	}{
		{"history:\n  accept: [night04]\n", "accept", exitOK},
		{"history:\n  baseline: night04\n", "baseline", exitOK},
		{"history:\n  accept: [night9]\n", "", exitUsage},
	} {
		dirs := nightlyCopy(t, "nightly-step", "wrk", 1, 6)
		f := filepath.Join(dirs[5], "loadverdict.yaml")
		b, _ := os.ReadFile(f)
		if err := os.WriteFile(f, append(b, tc.yaml...), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		out, _, err := runCLI(t, "", append([]string{"history", "-o", dir, "--fail-on", "regression", "--max-regression", "5"}, dirs...)...)
		if exitCode(err) != tc.exit {
			t.Errorf("%q: exit %d, want %d: %v\n%s", tc.yaml, exitCode(err), tc.exit, err, out)
			continue
		}
		if tc.exit != exitOK {
			if !strings.Contains(err.Error(), `history.accept: series nightly-step has no experiment "night9"`) {
				t.Errorf("%q: %v", tc.yaml, err)
			}
			continue
		}
		if s := readSeriesSummary(t, dir); s.Experiments[3].Accepted != tc.accepted || !strings.HasPrefix(out, "No change shown") {
			t.Errorf("%q: night04 accepted %q\n%s", tc.yaml, s.Experiments[3].Accepted, out)
		}
	}
}

// TestHistoryLookBackWords is the level look-back (analysis version 14)
// as a user reads it, on testdata/truth/nightly-odd-ratio with its
// control: on night 6, the night it is found, the gate fails, the report
// says the regression was found looking back over the reference level
// and which night the look-back left out (night02, svc's neighbour), and
// summary.json has looked_back; on night 7 the regression is open as any
// other (no looked_back) and night02 is still named as left out.
func TestHistoryLookBackWords(t *testing.T) {
	const found, odd = "Found looking back over the reference level", "Left out of the reference by the look-back that found a regression"
	for _, to := range []int{6, 7} {
		out := t.TempDir()
		args := []string{"history", "-o", out, "--control", "control", "--fail-on", "regression", "--max-regression", "5"}
		for n := 1; n <= to; n++ {
			args = append(args, fmt.Sprintf("../../testdata/truth/nightly-odd-ratio/night%02d", n))
		}
		_, errOut, err := runCLI(t, "", args...)
		if exitCode(err) != exitGate {
			t.Fatalf("nights 1-%d: %v, want the gate failed (exit 3)\n%s", to, err, errOut)
		}
		md, err := os.ReadFile(filepath.Join(out, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		js, err := os.ReadFile(filepath.Join(out, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		s := string(md)
		if got := strings.Contains(s, found); got != (to == 6) {
			t.Errorf("nights 1-%d: report says %q: %v, want %v", to, found, got, to == 6)
		}
		if i := strings.Index(s, odd); i < 0 || !strings.Contains(s[i:min(len(s), i+300)], "night02") {
			t.Errorf("nights 1-%d: report does not name night02 as left out by the look-back", to)
		}
		if got := strings.Contains(string(js), `"looked_back": true`); got != (to == 6) {
			t.Errorf("nights 1-%d: summary.json looked_back: %v, want %v", to, got, to == 6)
		}
		if !strings.Contains(s, "since") || !strings.Contains(s, "(night04)") {
			t.Errorf("nights 1-%d: the regression is not dated at night04", to)
		}
	}
}

// TestHistoryOverControl: with --control, history draws each metric over
// the control (trend-*-over-control.png, referenced by report.md) and
// summary.json has svc's change points over the control: on
// testdata/truth/nightly-swings-step the 10 % step of night 8, which the
// faster machine of nights 7-9 hides from svc's own values. Without a
// control neither is there (relative_changes null).
func TestHistoryOverControl(t *testing.T) {
	for _, control := range []string{"", "control"} {
		out := t.TempDir()
		args := []string{"history", "-o", out, "--max-regression", "5"}
		if control != "" {
			args = append(args, "--control", control)
		}
		for n := 1; n <= 12; n++ {
			args = append(args, fmt.Sprintf("../../testdata/truth/nightly-swings-step/night%02d", n))
		}
		if _, errOut, err := runCLI(t, "", args...); err != nil && exitCode(err) != exitGate {
			t.Fatalf("control %q: %v\n%s", control, err, errOut)
		}
		md, err := os.ReadFile(filepath.Join(out, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(md), "| throughput over the control |"); got != (control != "") {
			t.Errorf("control %q: the experiments' table has a column of throughput over the control: %v", control, got)
		}
		for _, m := range []string{"rps", "lat_mean_ms", "lat_p99_ms"} {
			name := "trend-" + m + "-over-control.png"
			_, statErr := os.Stat(filepath.Join(out, name))
			if got := statErr == nil && strings.Contains(string(md), "("+name+")"); got != (control != "") {
				t.Errorf("control %q: %s written and in report.md: %v, want %v", control, name, got, control != "")
			}
		}
		js, err := os.ReadFile(filepath.Join(out, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Tracks []struct {
				System string `json:"system"`
				Points []struct {
					Relative *map[string]*float64 `json:"relative"`
				} `json:"points"`
				Metrics []struct {
					Metric   string `json:"metric"`
					Relative *[]struct {
						Experiment string `json:"experiment"`
						Regression bool   `json:"regression"`
					} `json:"relative_changes"`
				} `json:"metrics"`
			} `json:"tracks"`
		}
		if err := json.Unmarshal(js, &doc); err != nil {
			t.Fatal(err)
		}
		for _, tr := range doc.Tracks {
			for i, p := range tr.Points {
				want := control != "" && tr.System == "svc"
				switch {
				case (p.Relative != nil) != want:
					t.Errorf("control %q: %s's point %d has relative %v, want it only for svc with a control", control, tr.System, i+1, p.Relative)
				case want && ((*p.Relative)["rps"] == nil || *(*p.Relative)["rps"] < 0.85 || *(*p.Relative)["rps"] > 1.1):
					t.Errorf("control %q: svc's point %d: relative rps %v, want its ratio to the control (0.9-1.02 on this recording)", control, i+1, (*p.Relative)["rps"])
				}
			}
			for _, m := range tr.Metrics {
				if tr.System != "svc" || m.Metric != "rps" {
					continue
				}
				switch {
				case control == "" && m.Relative != nil:
					t.Errorf("no control: relative_changes %+v, want null", *m.Relative)
				case control != "" && (m.Relative == nil || len(*m.Relative) != 1 || (*m.Relative)[0].Experiment != "night08" || !(*m.Relative)[0].Regression):
					t.Errorf("control: svc throughput's relative_changes %+v, want one regression at night08", m.Relative)
				}
			}
		}
	}
}
