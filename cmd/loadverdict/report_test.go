package main

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loadverdict/loadverdict/report"
)

func reportSeed(t *testing.T) (*report.Summary, []byte, string) {
	t.Helper()
	dir := t.TempDir()
	out, errOut, err := runCLI(t, "", "report", "-o", dir, seedFile)
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s report.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return &s, b, out
}

// TestReportSeedAcceptance checks the seed document's verdict against the
// acceptance list of the analyze issue.
func TestReportSeedAcceptance(t *testing.T) {
	s, raw, stdout := reportSeed(t)
	if !strings.HasPrefix(stdout, s.Headline) || !strings.HasPrefix(s.Headline, "Not established") {
		t.Errorf("headline %q, stdout %q", s.Headline, stdout)
	}
	sys := map[string]report.SummarySystem{}
	for _, x := range s.Systems {
		sys[x.Label] = x
	}
	group := func(label string, conns int32) report.SummaryGroup {
		t.Helper()
		for _, g := range sys[label].Groups {
			if g.Connections != nil && *g.Connections == conns {
				return g
			}
		}
		t.Fatalf("%s has no group at %d connections", label, conns)
		return report.SummaryGroup{}
	}
	z100 := group("Zuul", 100)
	if z100.Runs != 2 || !slices.Equal(z100.Seqs, []int32{2, 5}) || z100.Warmup.Class != "no-steady-state" ||
		z100.Warmup.ChangePct == nil || *z100.Warmup.ChangePct != 20.3 {
		t.Errorf("zuul@100: %+v", z100)
	}
	if g := group("Zuul", 50); g.Warmup.Class != "insufficient-data" {
		t.Errorf("zuul@50: %s", g.Warmup.Class)
	}
	o100 := group("OpenResty", 100)
	if o100.Warmup.Class != "flat" || o100.Warmup.ChangePct == nil || *o100.Warmup.ChangePct != -0.1 {
		t.Errorf("openresty@100: %+v", o100.Warmup)
	}
	if g := group("OpenResty", 50); g.Warmup.Class != "insufficient-data" {
		t.Errorf("openresty@50: %s", g.Warmup.Class)
	}
	if c := sys["OpenResty"].Capacity; !c.Saturated || c.SaturatedAt == nil || *c.SaturatedAt != 50 {
		t.Errorf("openresty capacity: %+v", c)
	}
	if c := sys["Zuul"].Capacity; c.Saturated {
		t.Errorf("zuul flagged saturated: %+v", c)
	}
	var cmp *report.SummaryCompare
	for i, c := range s.Comparisons {
		if c.Metric == "rps" && c.Connections != nil && *c.Connections == 100 {
			cmp = &s.Comparisons[i]
		}
	}
	if cmp == nil {
		t.Fatal("no rps comparison at 100 connections")
	}
	if cmp.A != "Zuul" || cmp.B != "OpenResty" || cmp.Verdict != "inconclusive" || cmp.Ratio != 2.31 ||
		cmp.RunsNeeded == nil || *cmp.RunsNeeded < 4 {
		t.Errorf("comparison: %+v", *cmp)
	}
	reasons := strings.Join(cmp.Reasons, " | ")
	for _, want := range []string{"2 vs 2 runs cannot show a difference at alpha 0.05: the exact test's smallest attainable p is 2/C(4,2) = 0.333", "Zuul not steady"} {
		if !strings.Contains(reasons, want) {
			t.Errorf("reasons %q lack %q", reasons, want)
		}
	}
	codes := map[string]report.SummaryFinding{}
	for _, f := range s.Findings {
		codes[f.Code] = f
		if f.Fix == "" || f.Message == "" || f.Severity == "" || f.Subject == "" {
			t.Errorf("finding without fix, message, severity or subject: %+v", f)
		}
	}
	for _, want := range []string{"coordinated-omission", "short-run", "no-replication", "still-warming", "saturated",
		"same-host", "targets-differ", "long-tail"} {
		if _, ok := codes[want]; !ok {
			t.Errorf("finding %q missing", want)
		}
	}
	if f, ok := codes["not-interleaved"]; ok {
		t.Errorf("not-interleaved reported although the rounds alternate: %+v", f)
	}
	if m := codes["targets-differ"].Message; !strings.Contains(m, "/api/test/hello") || !strings.Contains(m, "/test/hello") {
		t.Errorf("targets-differ message %q", m)
	}
	found := false
	for _, f := range s.Findings {
		// 599.09 ms max and 33.95 ms mean, in prose to 4 significant figures.
		found = found || f.Code == "long-tail" && strings.Contains(f.Message, "599.1 ms") && strings.Contains(f.Message, "33.95 ms")
	}
	if !found {
		t.Error("no long-tail finding names 599.1 ms max against 33.95 ms mean")
	}
	// The same input gives the same bytes.
	_, again, _ := reportSeed(t)
	if string(again) != string(raw) {
		t.Error("summary.json differs between two runs on the same input")
	}
}

func TestReportGolden(t *testing.T) {
	_, raw, _ := reportSeed(t)
	golden(t, "testdata/summary-seed.golden.json", string(raw))
}

// maxSeedReportMD is the most characters the seed's report.md may have:
// 60 % of the 16,077 it had before it was made shorter (issue 14), 9650,
// plus the numbers table that opens every report since issue 22 (about
// 400 characters for the seed's four systems and settings).
const maxSeedReportMD = 10100

// The seed's report.md is short, and it and report.html (rendered from
// the same document) still say every fact TestReportSeedAcceptance checks
// in summary.json.
func TestReportSeedMarkdown(t *testing.T) {
	dir := t.TempDir()
	if _, errOut, err := runCLI(t, "", "report", "-o", dir, seedFile); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCount(md); n > maxSeedReportMD {
		t.Errorf("report.md has %d characters, want at most %d", n, maxSeedReportMD)
	}
	facts := []string{
		"Not established", "2.31", "+20.3 %", "too few runs for the exact test to reach alpha 0.05", "2 runs per system (smallest possible p 2/C(4,2) = 0.333)",
		"Zuul not steady", "no-steady-state", "insufficient-data", "flat", "**Saturated**", "from 50 connections",
		"599.1 ms", "33.95 ms", "/api/test/hello", "/test/hello", "about 4 steady runs per system would settle it",
		"examples/zuul-vs-openresty.txt",
	}
	for _, code := range []string{"coordinated-omission", "short-run", "no-replication", "still-warming", "saturated",
		"same-host", "targets-differ", "long-tail"} {
		facts = append(facts, "`"+code+"`")
	}
	plain := html.UnescapeString(string(page))
	for _, f := range facts {
		if !strings.Contains(string(md), f) {
			t.Errorf("report.md lacks %q", f)
		}
		f = strings.Trim(strings.ReplaceAll(f, "**", ""), "`")
		if !strings.Contains(plain, f) {
			t.Errorf("report.html lacks %q", f)
		}
	}
	if strings.Contains(string(md), "not-interleaved") {
		t.Error("report.md reports not-interleaved although the rounds alternate")
	}
	// Each fix is stated once.
	for _, fix := range []string{"Measure latency with an open-model generator", "Repeat each configuration at least 4 times"} {
		if n := strings.Count(string(md), fix); n != 1 {
			t.Errorf("fix %q stated %d times", fix, n)
		}
	}
}

// --open hands report.html to the desktop's opener, and without one says
// so and still succeeds.
func TestReportOpen(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fake opener is xdg-open, the opener on Linux")
	}
	bin, out := t.TempDir(), t.TempDir()
	got := filepath.Join(bin, "opened")
	script := "#!/bin/sh\nprintf '%s' \"$1\" > " + got + "\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	if _, errOut, err := runCLI(t, "", "report", "--open", "-o", out, seedFile); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	if b, err := os.ReadFile(got); err != nil || string(b) != filepath.Join(out, "report.html") {
		t.Errorf("opened %q (%v), want %s", b, err, filepath.Join(out, "report.html"))
	}
	t.Setenv("PATH", t.TempDir())
	_, errOut, err := runCLI(t, "", "report", "--open", "-o", out, seedFile)
	if err != nil || !strings.Contains(errOut, "--open: no xdg-open to open") {
		t.Errorf("without an opener: %v, stderr %q", err, errOut)
	}
	if _, _, err := runCLI(t, "", "report", "--figures", "gif", "-o", out, seedFile); exitCode(err) != exitUsage {
		t.Errorf("--figures gif: exit %d, want %d", exitCode(err), exitUsage)
	}
}

// --figures svg writes the figures as SVG, which report.md links.
func TestReportFiguresSVG(t *testing.T) {
	out := t.TempDir()
	if _, errOut, err := runCLI(t, "", "report", "--figures", "svg", "-o", out, seedFile); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, name := range []string{"throughput.svg", "latency.svg", "scaling.svg"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || !bytes.Contains(b, []byte("<svg")) || !strings.Contains(string(md), "]("+name+")") {
			t.Errorf("%s: %v, linked %v", name, err, strings.Contains(string(md), name))
		}
	}
	if pngs, _ := filepath.Glob(filepath.Join(out, "*.png")); len(pngs) > 0 {
		t.Errorf("PNG figures with --figures svg: %v", pngs)
	}
}

// TestAllRejectedNoStale: a re-run whose inputs are all rejected replaces
// the earlier report by the no-runs report, as the bucket writes it,
// figures removed (issue 21: report.md, summary.json and report.html
// still said "1 run analysed"), and compare prints the no-runs result in
// every format asked for instead of nothing; both exit 1.
func TestAllRejectedNoStale(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "one1.txt")
	b, err := os.ReadFile("../../ingest/wrk/testdata/wrk/real-latency-ok.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(good, b, 0o644); err != nil {
		t.Fatal(err)
	}
	rej1, rej2 := filepath.Join(dir, "rej1.txt"), filepath.Join(dir, "rej2.txt")
	os.WriteFile(rej1, []byte("garbage\n"), 0o644)
	os.WriteFile(rej2, []byte("nothing here\n"), 0o644)
	for _, figs := range []string{"png", "svg"} {
		st := filepath.Join(t.TempDir(), "st")
		if _, _, err := runCLI(t, "", "report", "--figures", figs, "-o", st, good); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(st, "latency."+figs)); err != nil {
			t.Fatalf("the first report has no figure: %v", err)
		}
		out, _, err := runCLI(t, "", "report", "-o", st, "--experiment", "one1", rej1)
		if exitCode(err) != 1 {
			t.Fatalf("all rejected: %v, want exit 1", err)
		}
		if !strings.Contains(out, report.NoRunsHeadline) {
			t.Errorf("stdout %q lacks the no-runs headline", out)
		}
		for _, name := range []string{"report.md", "report.html", "summary.md", "summary.json"} {
			b, err := os.ReadFile(filepath.Join(st, name))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "No runs could be read") || strings.Contains(string(b), "1 run") {
				t.Errorf("%s is not the no-runs report:\n%.400s", name, b)
			}
		}
		if m, _ := filepath.Glob(filepath.Join(st, "*."+figs)); len(m) > 0 {
			t.Errorf("stale figures left: %v", m)
		}
	}
	for _, format := range []string{"json", "text", "markdown"} {
		out, _, err := runCLI(t, "", "compare", "--format", format, rej1, rej2)
		if exitCode(err) != 1 {
			t.Errorf("compare --format %s, every input rejected: %v, want exit 1", format, err)
		}
		if !strings.Contains(out, "No runs could be read") || !strings.Contains(out, "rej") {
			t.Errorf("compare --format %s printed %q, want the no-runs result", format, out)
		}
		// compare guards a regression: nothing compared fails its gate
		// in every format (it said "failed": false before).
		if !strings.Contains(strings.ToLower(out), "gate: failed") && format != "json" {
			t.Errorf("compare --format %s printed %q, want its gate failed", format, out)
		}
		if format == "json" {
			var doc report.CompareDoc
			if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Headline != report.NoRunsHeadline || doc.Comparisons == nil {
				t.Errorf("compare --format json: %v, %+v", err, doc)
			}
			if g := doc.Gate; !g.Failed || len(g.Reasons) != 1 || g.Reasons[0].Condition != "no-comparison" || !g.Reasons[0].Fails {
				t.Errorf("compare --format json, nothing read: gate %+v, want failed on no-comparison", g)
			}
		}
	}
	checkNoRunsGate(t, rej1)
}

// checkNoRunsGate: report's summary.json of an experiment without runs
// states the gate asked for (a baseline, a threshold), failed with why,
// and no gate where none was asked.
func checkNoRunsGate(t *testing.T, rejected string) {
	t.Helper()
	for _, tc := range []struct {
		args []string
		want []string // the failing conditions; nil: not failed
	}{
		{nil, nil},
		{[]string{"--baseline", "old"}, []string{"no-comparison"}},
		{[]string{"--threshold", "lat_p99_ms<100"}, []string{"unknown"}},
	} {
		st := filepath.Join(t.TempDir(), "st")
		_, _, err := runCLI(t, "", append(append([]string{"report", "-o", st}, tc.args...), rejected)...)
		if exitCode(err) != 1 {
			t.Errorf("report %v, every input rejected: %v, want exit 1", tc.args, err)
		}
		s := readSummary(t, filepath.Join(st, "summary.json"))
		var got []string
		for _, r := range s.Gate.Reasons {
			if r.Fails {
				got = append(got, r.Condition)
			}
		}
		if s.Gate.Failed != (tc.want != nil) || !slices.Equal(got, tc.want) {
			t.Errorf("report %v, no runs: gate failed %v on %v, want %v", tc.args, s.Gate.Failed, got, tc.want)
		}
	}
}
