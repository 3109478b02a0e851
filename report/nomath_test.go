package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoStatisticsInReport: report/ words and formats the verdict; the
// figures it words are computed in analyze (issue 23: "words only in
// report/"). It fails when a report file (not a test) defines one of the
// helpers that once computed there (the deciding ratio and its interval,
// the inverse interval, totals and rates of endpoints) or calls the
// statistical routines of stats, or math beyond what formatting a number
// needs (rounding, logarithms of 10 for significant digits, checks for
// infinities and NaN, absolute values).
func TestNoStatisticsInReport(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []*regexp.Regexp{
		regexp.MustCompile(`func (decidingRatio|decidingCI|invertCI|endpointTotals|errorRate)\(`),
		regexp.MustCompile(`stats\.(Mean|Median|Quantile|CoefVar|StdDev|MannWhitney|HodgesLehmann|Bootstrap|SteadyStateCI|WelchT|WelchLogRatio|TrendTest|SelectModel|Excursions)\(`),
		regexp.MustCompile(`math\.(Sqrt|Exp|Log|Log1p|Expm1)\(`),
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, re := range forbidden {
				if m := re.FindString(line); m != "" {
					t.Errorf("%s:%d: %s: statistics belong in analyze, report only words them", f, i+1, m)
				}
			}
		}
	}
}
