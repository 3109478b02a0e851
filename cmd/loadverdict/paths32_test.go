package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every report a command writes is named where it says its results: the
// page and the comment too, not report.md and summary.json alone (issue
// 32: compare -o and history -o wrote report.html without saying so).
func TestWrittenReportsNamed(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   func(dir string) []string
		stderr bool // compare keeps stdout for its --format
	}{
		{"compare", func(dir string) []string {
			return []string{"compare", "-o", dir, truthBA + "/old", truthBA + "/new"}
		}, true},
		{"report", func(dir string) []string { return []string{"report", "-o", dir, truthBA + "/old"} }, false},
		{"history", func(dir string) []string {
			return append([]string{"history", "-o", dir}, nightlyCopy(t, "nightly-step", "wrk", 2, 3)...)
		}, false},
	} {
		dir := t.TempDir()
		out, errOut, _ := runCLI(t, "", c.args(dir)...)
		if c.stderr {
			out = errOut
		}
		for _, want := range []string{"report: " + filepath.Join(dir, "report.md"), "html: " + filepath.Join(dir, "report.html"),
			"comment: " + filepath.Join(dir, "summary.md"), "summary: " + filepath.Join(dir, "summary.json")} {
			if !strings.Contains(out, want+"\n") {
				t.Errorf("%s: no %q in\n%s", c.name, want, out)
			}
		}
	}
}

// At a fixed rate (open model) the throughput is the rate asked for:
// "faster?" is answered by latency, as the headline is, never by a
// throughput the rate fixed (issue 32: "slower ... 1.33x mean latency",
// then "Is it faster? No difference").
func TestFasterAnsweredByLeadMetric(t *testing.T) {
	for _, c := range []struct{ name, old, new, metric string }{
		{"vegeta at 300 req/s", "../../testdata/truth/rate300/old", "../../testdata/truth/rate300/new", "mean latency"},
		{"wrk, closed", truthBA + "/old", truthBA + "/new", "throughput"},
	} {
		dir := t.TempDir()
		runCLI(t, "", "compare", "-o", dir, c.old, c.new)
		md, err := os.ReadFile(filepath.Join(dir, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		var answer string
		for _, l := range strings.Split(string(md), "\n") {
			if strings.HasPrefix(l, "- Is new faster than old") {
				answer = l
			}
		}
		if !strings.Contains(answer, c.metric) {
			t.Errorf("%s: %q does not answer by %s", c.name, answer, c.metric)
		}
	}
}
