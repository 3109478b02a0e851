package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareHistoryOneTruth is issue 32's item 5 on real runs
// (testdata/truth/copies: a server 1 ms slower at a fixed 50 req/s, 3
// runs a side): compare finds the regression over the runs; history, on
// the same two experiments, cannot judge a second night against one, and
// its headline says why in the same sentence: the runs of one experiment
// show only that night's noise, which is all compare's test sees.
func TestCompareHistoryOneTruth(t *testing.T) {
	const data = "../../testdata/truth/copies"
	dir := t.TempDir()
	for _, side := range []struct{ name, from string }{{"a", "fast"}, {"b", "slow"}} {
		d := filepath.Join(dir, side.name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= 3; n++ {
			f := "attack-" + string(rune('0'+n)) + ".bin.gz"
			b, err := os.ReadFile(filepath.Join(data, side.from, f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		m := "labels:\n  \"127.0.0.1:19710\": svc\n  \"127.0.0.1:19711\": svc\n"
		if err := os.WriteFile(filepath.Join(d, "loadverdict.yaml"), []byte(m), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	out, _, err := runCLI(t, "", "compare", "--manifest", filepath.Join(a, "loadverdict.yaml"), a, b)
	if err == nil || !strings.Contains(out, "b is slower than a") {
		t.Errorf("compare: want the regression (exit 3):\n%s", out)
	}
	hout, herr, err := runCLI(t, "", "history", "-o", filepath.Join(dir, "h"), a, b)
	if err != nil {
		t.Fatalf("history: %v\n%s", err, herr)
	}
	head := strings.SplitN(hout, "\n", 2)[0]
	if !strings.Contains(head, "not known before") || !strings.Contains(head, "only their own night's noise (all that compare's test of two experiments' runs sees)") {
		t.Errorf("history's headline does not say why it does not decide what compare decides:\n%s", head)
	}
}

// TestMaxIsNamed is issue 32's item 7: over several runs the numbers
// table's max is the median of the runs' maxima, and its column says so;
// the headline gives the highest max beside it; over one run it is max.
func TestMaxIsNamed(t *testing.T) {
	const data = "../../testdata/truth/copies/slow"
	for _, c := range []struct {
		name   string
		inputs []string
		head   string
	}{
		{"three runs", []string{data + "/attack-1.bin.gz", data + "/attack-2.bin.gz", data + "/attack-3.bin.gz"}, "| median max |"},
		{"one run", []string{data + "/attack-1.bin.gz"}, "| p99 | max |"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out, errOut, err := runCLI(t, "", append([]string{"report", "-o", dir}, c.inputs...)...)
			if err != nil {
				t.Fatalf("report: %v\n%s", err, errOut)
			}
			md, err := os.ReadFile(filepath.Join(dir, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(md), c.head) {
				t.Errorf("report.md's numbers table: want %q:\n%s", c.head, md)
			}
			if len(c.inputs) > 1 && !strings.Contains(out, "median max") {
				t.Errorf("headline: want the median max named so:\n%s", out)
			}
		})
	}
}
