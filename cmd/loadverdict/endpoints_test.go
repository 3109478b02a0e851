package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// truthEndpoints is one JMeter test of three endpoints, twice, and the
// same samples as k6 --out json points (see its README).
const truthEndpoints = "../../testdata/truth/endpoints"

// TestEndpointsTruth: a JMeter JTL and a k6 NDJSON of a test of three
// endpoints (home, search at least 20 ms, checkout failing every 4th
// request) give one group of runs and one row of the Endpoints table per
// endpoint, in report.md and summary.json, with the truth's counts.
func TestEndpointsTruth(t *testing.T) {
	for _, c := range []struct {
		name   string
		files  []string
		prefix string // the endpoint's name: k6 puts the method first
	}{
		{"jmeter", []string{"jmeter-round1.jtl", "jmeter-round2.jtl"}, ""},
		{"k6", []string{"k6-round1.json.gz", "k6-round2.json.gz"}, "GET "},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"report", "-o", dir}
			for _, f := range c.files {
				args = append(args, filepath.Join(truthEndpoints, f))
			}
			if _, errOut, err := runCLI(t, "", args...); err != nil {
				t.Fatalf("%v: %s", err, errOut)
			}
			s := readSummary(t, filepath.Join(dir, "summary.json"))
			if len(s.Systems) != 1 || len(s.Systems[0].Groups) != 3 || len(s.Endpoints) != 3 {
				t.Fatalf("%d systems, %d endpoints: %+v", len(s.Systems), len(s.Endpoints), s)
			}
			for i, name := range []string{"home", "search", "checkout"} {
				e, g := s.Endpoints[i], s.Systems[0].Groups[i]
				if e.Endpoint != c.prefix+name || g.Endpoint == nil || *g.Endpoint != e.Endpoint || e.Runs != 2 || g.Runs != 2 ||
					e.Basis != "last-run" || e.Requests != 800 { // two rounds, no steady state: the last run's figures
					t.Errorf("endpoint %d: %+v, group endpoint %v, %d runs", i, e, g.Endpoint, g.Runs)
					continue
				}
				wantErrs := int64(0)
				if name == "checkout" {
					wantErrs = 200 // every 4th of 800
				}
				if e.Errors != wantErrs || e.ErrorRate == nil || *e.ErrorRate != float64(wantErrs)/800 {
					t.Errorf("%s: %d errors, rate %v", name, e.Errors, e.ErrorRate)
				}
				if slow := name == "search"; e.LatMeanMs == nil || (*e.LatMeanMs >= 20) != slow {
					t.Errorf("%s: mean %v ms (search answers after 20 ms, the others at once)", name, e.LatMeanMs)
				}
			}
			md, err := os.ReadFile(filepath.Join(dir, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			_, table, ok := strings.Cut(string(md), "\n## Endpoints\n")
			table, _, _ = strings.Cut(table, "\n## ")
			if !ok || strings.Count(table, "\n| 127.0.0.1:19110 | `"+c.prefix) != 3 || !strings.Contains(table, "| last of 2 | 800 | 200 (25 %) |") {
				t.Errorf("report.md's Endpoints table:\n%s", table)
			}
		})
	}
}
