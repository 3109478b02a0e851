package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// vegetaReport is what `vegeta report -type=json` says (durations in ns).
type vegetaReport struct {
	Latencies struct {
		Mean float64 `json:"mean"`
		P50  float64 `json:"50th"`
		P90  float64 `json:"90th"`
		P95  float64 `json:"95th"`
		P99  float64 `json:"99th"`
		Max  float64 `json:"max"`
		Min  float64 `json:"min"`
	} `json:"latencies"`
	Requests   int64   `json:"requests"`
	Rate       float64 `json:"rate"`
	Throughput float64 `json:"throughput"`
	Success    float64 `json:"success"`
}

// printed reads a figure as the report printed it and the half unit of
// its last digit: "15.03" is 15.03 ± 0.005.
func printed(t *testing.T, s string) (x, half float64) {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("figure %q: %v", s, err)
	}
	d := 0
	if _, frac, ok := strings.Cut(s, "."); ok {
		d = len(frac)
	}
	return x, 0.5 * math.Pow(10, -float64(d))
}

// TestSingleVegetaNumbers: one real vegeta attack (testdata/truth/single-vegeta,
// scripts/truth/make-single-vegeta.sh), given on stdin as a new user
// does (`cat results.bin | loadverdict report -o out -`), gets in its
// headline and in summary.md the figures of `vegeta report` over the
// same results, within the rounding of both: rate, throughput, error rate,
// min, mean and max, which vegeta computes exactly; and p50, p90, p95, p99
// equal to the exact percentiles (nearest rank over every request), which
// vegeta only estimates (a t-digest), as the legend says.
func TestSingleVegetaNumbers(t *testing.T) {
	dir := "../../testdata/truth/single-vegeta"
	bin := gunzipFile(t, filepath.Join(dir, "vegeta", "results.bin.gz"))
	vr, exact := readVegetaTruth(t, dir)
	out := t.TempDir()
	if _, errOut, err := runCLI(t, string(bin), "report", "-o", out, "-"); err != nil {
		t.Fatalf("report: %v\n%s", err, errOut)
	}
	want := vegetaFigures(vr, exact)
	sum, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc vegetaSummaryDoc
	if err := json.Unmarshal(sum, &doc); err != nil {
		t.Fatal(err)
	}
	h := regexp.MustCompile(`: ([\d.]+) req/s successful \(([\d.]+) sent\), ([\d.]+) % errors, latency p50 ([\d.]+), p90 ([\d.]+), p99 ([\d.]+), max ([\d.]+) ms`).FindStringSubmatch(doc.Headline)
	if h == nil {
		t.Fatalf("headline without the numbers: %s", doc.Headline)
	}
	checkFigures(t, "headline", want, map[string]string{"rps": h[1], "sent": h[2], "errors": h[3], "p50": h[4], "p90": h[5], "p99": h[6], "max": h[7]})
	checkVegetaSummaryMD(t, out, want)
	checkVegetaNumbersJSON(t, doc.Systems[0].Groups[0].Numbers, vr, exact)
}

// readVegetaTruth reads dir's `vegeta report -type=json` and its exact
// percentiles (name: ms).
func readVegetaTruth(t *testing.T, dir string) (vegetaReport, map[string]float64) {
	t.Helper()
	var vr vegetaReport
	raw, err := os.ReadFile(filepath.Join(dir, "reports", "results-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &vr); err != nil {
		t.Fatal(err)
	}
	exact := map[string]float64{}
	ef, err := os.Open(filepath.Join(dir, "reports", "exact-percentiles.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	for sc := bufio.NewScanner(ef); sc.Scan(); {
		k, v, _ := strings.Cut(sc.Text(), " ")
		exact[k], _ = strconv.ParseFloat(v, 64)
	}
	return vr, exact
}

// vegetaFigure is a figure the report prints, by its name in checkFigures.
type vegetaFigure struct {
	name  string
	value float64 // the true figure
	tol   float64 // the rounding of the tool's own print of it
}

// nsToMs converts vegeta's nanoseconds to milliseconds.
func nsToMs(ns float64) float64 { return ns / 1e6 }

// vegetaFigures are the true figures of vegeta's report vr and the exact
// percentiles.
func vegetaFigures(vr vegetaReport, exact map[string]float64) []vegetaFigure {
	// vegeta's text report prints microseconds (2.155ms) and rates to
	// 0.01: its rounding is at most 0.0005 ms and 0.005 req/s.
	const vegMs, vegRate = 0.0005, 0.005
	return []vegetaFigure{
		{"rps", vr.Throughput, vegRate},
		{"sent", vr.Rate, vegRate},
		{"errors", 100 * (1 - vr.Success), 0.005},
		{"min", nsToMs(vr.Latencies.Min), vegMs},
		{"mean", nsToMs(vr.Latencies.Mean), vegMs},
		{"p50", exact["p50_ms"], 0},
		{"p90", exact["p90_ms"], 0},
		{"p95", exact["p95_ms"], 0},
		{"p99", exact["p99_ms"], 0},
		{"max", nsToMs(vr.Latencies.Max), vegMs},
	}
}

// checkFigures checks the figures printed in where (name: as printed)
// against want, within the rounding of both prints.
func checkFigures(t *testing.T, where string, want []vegetaFigure, got map[string]string) {
	t.Helper()
	for _, w := range want {
		s, ok := got[w.name]
		if !ok {
			if w.name == "min" || w.name == "mean" || w.name == "p95" {
				continue // the headline leaves these to the table
			}
			t.Errorf("%s: no %s", where, w.name)
			continue
		}
		x, half := printed(t, s)
		if math.Abs(x-w.value) > half+w.tol+1e-9 {
			t.Errorf("%s: %s %s, want %.6g within its rounding", where, w.name, s, w.value)
		}
	}
}

// vegetaSummaryDoc is the part of summary.json TestSingleVegetaNumbers
// reads.
type vegetaSummaryDoc struct {
	Headline string `json:"headline"`
	Systems  []struct {
		Groups []struct {
			Numbers map[string]any `json:"numbers"`
		} `json:"groups"`
	} `json:"systems"`
}

// checkVegetaSummaryMD checks the numbers row of out's summary.md against
// want, and that its legend says vegeta's percentiles are estimates.
func checkVegetaSummaryMD(t *testing.T, out string, want []vegetaFigure) {
	t.Helper()
	md, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	var row []string
	for _, line := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(line, "| 127.0.0.1:19700 |") {
			for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
				row = append(row, strings.TrimSpace(c))
			}
		}
	}
	if len(row) != 13 {
		t.Fatalf("summary.md has no numbers row of 13 cells:\n%s", md)
	}
	m := regexp.MustCompile(`^([\d.]+) \(sent ([\d.]+)\)$`).FindStringSubmatch(row[5])
	e := regexp.MustCompile(`^50 \(([\d.]+) %\)$`).FindStringSubmatch(row[4])
	if m == nil || e == nil || row[3] != "2500 (5.001 s)" {
		t.Fatalf("summary.md numbers: requests %q, errors %q, req/s %q", row[3], row[4], row[5])
	}
	checkFigures(t, "summary.md", want, map[string]string{"rps": m[1], "sent": m[2], "errors": e[1], "min": row[6], "mean": row[7], "p50": row[8],
		"p90": row[9], "p95": row[10], "p99": row[11], "max": row[12]})
	if !strings.Contains(string(md), "t-digest estimates") {
		t.Errorf("summary.md does not say vegeta's percentiles are estimates:\n%s", md)
	}
}

// checkVegetaNumbersJSON checks summary.json's numbers n: exact to their
// documented rounding.
func checkVegetaNumbersJSON(t *testing.T, n map[string]any, vr vegetaReport, exact map[string]float64) {
	t.Helper()
	for k, w := range map[string]float64{"rps": vr.Throughput, "sent_rps": vr.Rate, "lat_min_ms": nsToMs(vr.Latencies.Min),
		"lat_mean_ms": nsToMs(vr.Latencies.Mean), "lat_max_ms": nsToMs(vr.Latencies.Max), "lat_p50_ms": exact["p50_ms"],
		"lat_p99_ms": exact["p99_ms"], "error_rate": 1 - vr.Success} {
		got, _ := n[k].(float64)
		if math.Abs(got-w) > 0.005+1e-9 {
			t.Errorf("summary.json numbers.%s = %v, want %v", k, got, w)
		}
	}
	if n["requests"] != float64(vr.Requests) || n["basis"] != "one-run" {
		t.Errorf("summary.json numbers: %v", n)
	}
}
