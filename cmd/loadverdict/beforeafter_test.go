package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/report"
)

// truthBA holds real wrk runs of one server on one address: old/ (6
// runs), new/ (6 runs, ~15 % more work per request) and same/ (the old
// build again, 6 runs); see scripts/truth/make-before-after.sh and its
// meta.txt.
const truthBA = "../../testdata/truth/before-after"

// compareDoc runs compare --format json with args and decodes stdout.
func compareDoc(t *testing.T, args ...string) (report.CompareDoc, error) {
	t.Helper()
	out, errOut, err := runCLI(t, "", append([]string{"compare", "--format", "json"}, args...)...)
	var doc report.CompareDoc
	if jerr := json.Unmarshal([]byte(out), &doc); jerr != nil {
		t.Fatalf("%v: %v (%v)\n%s\n%s", args, jerr, err, out, errOut)
	}
	return doc, err
}

func rpsComparison(t *testing.T, doc report.CompareDoc) report.SummaryCompare {
	t.Helper()
	for _, c := range doc.Comparisons {
		if c.Metric == "rps" {
			return c
		}
	}
	t.Fatalf("no throughput comparison in %+v", doc)
	return report.SummaryCompare{}
}

// The acceptance of issue 9: compare old/ new/ shows the throughput drop
// with the exact p of 6+6 fully separated runs, 2/C(12,6) = 2/924, and a
// ratio CI that excludes 1; --fail-on regression exits 3 naming it.
// compare old/ same/ shows ~ and exits 0.
func TestCompareBeforeAfter(t *testing.T) {
	t.Chdir(truthBA)
	doc, err := compareDoc(t, "--fail-on", "regression", "old", "new")
	if exitCode(err) != exitGate || !strings.Contains(err.Error(), "regression: throughput of new is ") {
		t.Errorf("old new --fail-on regression: exit %d, %v", exitCode(err), err)
	}
	c := rpsComparison(t, doc)
	if doc.Old != "old" || doc.New != "new" || c.A != "new" || c.B != "old" || c.Verdict != "b-faster" || c.ARuns != 6 || c.BRuns != 6 {
		t.Errorf("comparison %+v", c)
	}
	if c.PValue == nil || math.Abs(*c.PValue-2.0/924) > 5e-9 {
		t.Errorf("p = %v, want 2/924 = %.6g", c.PValue, 2.0/924)
	}
	if c.CI[0] == nil || c.CI[1] == nil || !(*c.CI[1] < 1) || !(*c.CI[0] <= c.Ratio && c.Ratio <= *c.CI[1]) {
		t.Errorf("ratio %v, CI %v: want a CI below 1 around the ratio", c.Ratio, c.CI)
	}
	if !doc.Gate.Failed || len(doc.Gate.Reasons) == 0 || doc.Gate.Reasons[0].Condition != "regression" {
		t.Errorf("gate %+v", doc.Gate)
	}
	// Without --fail-on the same verdict exits 3: compare's OLD is the
	// baseline, which asks for the regression check (issue 20); allowed
	// by name, it exits 0.
	if _, _, err := runCLI(t, "", "compare", "old", "new"); exitCode(err) != exitGate {
		t.Errorf("compare old new without --fail-on: exit %d, want 3", exitCode(err))
	}
	out, _, err := runCLI(t, "", "compare", "--allow", "regression,inconclusive", "old", "new")
	if err != nil {
		t.Errorf("compare old new --allow regression,inconclusive: %v", err)
	}
	row := tableRow(out, "req/s")
	if !strings.Contains(out, "new is slower than old (the baseline)") || !strings.Contains(out, "p = 0.00216") ||
		!strings.Contains(row, " worse ") || !strings.Contains(row, " 0.00216 ") || !strings.Contains(row, " 6/6") {
		t.Errorf("compare old new:\n%s", out)
	}
	// A regression within --max-regression passes: throughput dropped
	// 11.3 %, and p50 latency, undecided, leans 12.6 % worse (HL ratio
	// 1.126, one-sided p 0.03), so the allowed must exceed both.
	drop := 100*(1-c.Ratio) + 2.5
	if _, err := compareDoc(t, "--fail-on", "regression", "--max-regression", strconv.FormatFloat(drop, 'f', 1, 64)+"%", "old", "new"); err != nil {
		t.Errorf("--max-regression %.1f: %v", drop, err)
	}

	doc, err = compareDoc(t, "--fail-on", "regression", "old", "same")
	if err != nil || doc.Gate.Failed {
		t.Errorf("old same --fail-on regression: %v, gate %+v", err, doc.Gate)
	}
	if c := rpsComparison(t, doc); c.Verdict == "a-faster" || c.Verdict == "b-faster" {
		t.Errorf("old vs same: %+v", c)
	}
	out, _, err = runCLI(t, "", "compare", "old", "same")
	if row := tableRow(out, "req/s"); err != nil || !strings.Contains(row, " ~ ") {
		t.Errorf("compare old same: %v, row %q\n%s", err, row, out)
	}
}

// tableRow returns the first line of compare's text table for a metric.
func tableRow(out, metric string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, metric+" ") {
			return strings.Join(strings.Fields(line), " ") + " "
		}
	}
	return ""
}

// The acceptance of issue 9 on the seed: a mean latency of 42 ms at 100
// connections fails lat_mean_ms<30 (exit 3 naming OpenResty; Zuul's
// single run at 50 connections, 33.95 ms, fails too) and passes
// lat_mean_ms<60.
func TestReportThresholdGate(t *testing.T) {
	out := t.TempDir()
	_, _, err := runCLI(t, "", "report", "-o", out, "--fail-on", "threshold", "--threshold", "lat_mean_ms<30", seedFile)
	if exitCode(err) != exitGate || !strings.Contains(err.Error(), "threshold failed: lat_mean_ms<30: OpenResty at 100 connections") ||
		!strings.Contains(err.Error(), "42.12 ms") {
		t.Errorf("lat_mean_ms<30: exit %d, %v", exitCode(err), err)
	}
	s := readSummary(t, out+"/summary.json")
	var fails []string
	for _, c := range s.Thresholds {
		if c.Status == "fail" {
			fails = append(fails, fmt.Sprintf("%s@%d", c.System, *c.Connections))
		}
	}
	if strings.Join(fails, " ") != "Zuul@50 OpenResty@100" || !s.Gate.Failed || strings.Join(s.Gate.FailOn, ",") != "threshold,marginal,unknown" {
		t.Errorf("failed %v; summary.json gate %+v", fails, s.Gate)
	}
	if _, errOut, err := runCLI(t, "", "report", "-o", out, "--fail-on", "threshold", "--threshold", "lat_mean_ms<60", seedFile); err != nil {
		t.Errorf("lat_mean_ms<60: %v\n%s", err, errOut)
	}
}

// The headline leads with what matters most, on real data: vegeta at
// 2000 req/s against a server that handles ~400 (testdata/truth/overload,
// scripts/truth/make-overload.sh): 98.7 % of the requests timed out, and
// the server achieved 1.24 % of the requested rate.
func TestHeadlineLeadsWithErrorsThenOverload(t *testing.T) {
	out, errOut, err := runCLI(t, "", "report", "-o", t.TempDir(), "../../testdata/truth/overload/vegeta/results-report.txt")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	want := "results-report failed 98.7 % of its requests at 2000 req/s, vegeta (1 run). " +
		"results-report is overloaded: at a requested 2000 req/s it achieved 24.76 successful responses per second (1.24 %). "
	if !strings.HasPrefix(out, want) {
		t.Errorf("headline %q, want it to start with %q", out, want)
	}
}
