package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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

// The acceptance of issue 12: on the real series the throughput change
// point is found at exp05 with p < 0.05, the disturbed exp03 is no change
// point, and --fail-on regression exits 3 only while the regression is
// the latest experiment: exp01..exp05 exits 3, exp01..exp08 exits 0.
func TestHistoryTruthSeries(t *testing.T) {
	t.Run("exp01..exp08", func(t *testing.T) {
		dir := t.TempDir()
		out, errOut, err := runCLI(t, "", append([]string{"history", "-o", dir, "--fail-on", "regression"}, seriesDirs(1, 8)...)...)
		if exitCode(err) != exitOK {
			t.Fatalf("exit %d, %v\n%s", exitCode(err), err, errOut)
		}
		if !strings.Contains(out, "No regression in the latest experiment, commit 6906ab6251c8 on 2026-11-28 (exp08)") ||
			!strings.Contains(out, "throughput regressed 16.1 %") || !strings.Contains(out, "at commit acfc3cec5c0b on 2026-11-25 (exp05)") {
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
			if m.Latest == nil || m.Latest.Regression || strings.Join(m.Latest.Baseline, " ") != "exp05 exp06 exp07" {
				t.Errorf("latest %+v: want no regression against exp05..exp07", m.Latest)
			}
		}
		if tr.Points[2].Status != "disturbed" || tr.Points[2].DisturbedMetric != "rps" {
			t.Errorf("exp03: %+v, want disturbed in rps", tr.Points[2])
		}
		for _, f := range []string{"report.md", "summary.md", "trend-rps.png", "trend-lat_mean_ms.png", "trend-lat_p99_ms.png"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Error(err)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "summary.md")); bytes.Count(b, []byte("\n")) > 25 {
			t.Errorf("summary.md has %d lines, want <= 25", bytes.Count(b, []byte("\n")))
		}
	})
	t.Run("exp01..exp05", func(t *testing.T) {
		dir := t.TempDir()
		out, _, err := runCLI(t, "", append([]string{"history", "-o", dir, "--fail-on", "regression"}, seriesDirs(1, 5)...)...)
		if exitCode(err) != exitGate || !strings.Contains(err.Error(), "regression: 127.0.0.1:19121 at 16 connections, 2 threads, 6 s, wrk: throughput regressed") {
			t.Fatalf("exit %d, %v", exitCode(err), err)
		}
		if !strings.Contains(out, "the latest experiment, against the 3 experiments before it") {
			t.Errorf("headline:\n%s", out)
		}
		s := readSeriesSummary(t, dir)
		m := s.Tracks[0].Metrics[0]
		if m.Latest == nil || !m.Latest.Regression || m.Latest.Experiment != "exp05" || strings.Join(m.Latest.Baseline, " ") != "exp01 exp02 exp04" ||
			m.Latest.PValue == nil || *m.Latest.PValue >= 0.05 || !s.Gate.Failed {
			t.Errorf("latest %+v, gate %+v: want a regression of exp05 against exp01, exp02, exp04", m.Latest, s.Gate)
		}
		// Without --fail-on the same history passes.
		if _, _, err := runCLI(t, "", append([]string{"history", "-o", t.TempDir()}, seriesDirs(1, 5)...)...); err != nil {
			t.Errorf("without --fail-on: %v", err)
		}
	})
}

// TestHistoryOrder: meta dates order the experiments whatever the order
// given; without them, the order given stands, and the report says so.
func TestHistoryOrder(t *testing.T) {
	dir := t.TempDir()
	args := append([]string{"history", "-o", dir}, seriesDirs(6, 8)...)
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

// TestHistoryStore: history --store reads the series of a store laid out
// as the bucket (the experiments' manifests name it) and writes nothing
// to it; -o writes the report locally, the same as from folders.
func TestHistoryStore(t *testing.T) {
	st := t.TempDir()
	var keys []string
	for _, exp := range []string{"exp01", "exp02", "exp04", "exp05"} {
		for _, f := range []string{"run1.txt", "run2.txt", "run3.txt", "run4.txt", "loadverdict.yaml"} {
			b, err := os.ReadFile(filepath.Join(truthSeries, exp, f))
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
		t.Fatalf("%v\n%s", err, errOut)
	}
	// The ingest kept the series current.
	if _, err := os.Stat(filepath.Join(st, filepath.FromSlash(store.SeriesReportKey("truth-series", "report.md")))); err != nil {
		t.Errorf("the ingest did not write the series' report: %v", err)
	}
	stdout, _, err := runCLI(t, "", "history", "--store", st, "--series", "truth-series", "--fail-on", "regression")
	if exitCode(err) != exitGate || !strings.Contains(stdout, "throughput regressed") || !strings.Contains(stdout, "(exp05), the latest experiment") {
		t.Errorf("exit %d, %v\n%s", exitCode(err), err, stdout)
	}
	out := t.TempDir()
	if _, _, err := runCLI(t, "", "history", "--store", st, "--series", "truth-series", "-o", out); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(out, "summary.json"))
	b, _ := os.ReadFile(filepath.Join(st, filepath.FromSlash(store.SeriesReportKey("truth-series", "summary.json"))))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("history --store -o wrote another summary.json than the ingest's:\n%s\n---\n%s", a, b)
	}
}
