package results_test

import (
	"fmt"
	"go/build"
	"io/fs"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/results"
)

func TestCheckValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		row  any
		want string // a part of the error; "" for none
	}{
		{"run", results.Run{DurationS: 30, RPS: 1000, LatP99Ms: results.Ptr(12.5)}, ""},
		{"run pointer", &results.Run{DurationS: 30}, ""},
		{"bound itself", results.Run{RPS: results.MaxValue}, ""},
		{"minus bound", results.Sample{LatencyMs: -results.MaxValue}, ""},
		{"nan", results.Sample{LatencyMs: math.NaN()}, "latency_ms"},
		{"inf", results.Run{RPS: math.Inf(1)}, "rps"},
		{"beyond", results.Series{RPS: 2 * results.MaxValue}, "rps"},
		{"nullable", results.Run{LatP99Ms: results.Ptr(math.Inf(-1))}, "lat_p99_ms"},
		{"nil nullable", results.Run{LatP99Ms: nil}, ""},
		{"percentile", results.Percentile{Quantile: 0.99, LatencyMs: math.NaN()}, "latency_ms"},
		{"embedded run", results.RunWithPercentiles{Run: results.Run{RPS: math.NaN()}}, "rps"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := results.CheckValues(tc.row)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("CheckValues = %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("CheckValues = %v, want an error naming %s", err, tc.want)
			}
		})
	}
}

func TestRunIDStable(t *testing.T) {
	// The id is part of the tables' contract (SCHEMA.md, run_id): a change
	// here orphans every committed table.
	if got := results.RunID("raw/exp/wrk.log", 0); got != "03f092e7bb1aeca4" {
		t.Fatalf("RunID = %s", got)
	}
	long := strings.Repeat("x", 300) // past the stack buffer
	if results.RunID(long, 1) == results.RunID(long, 2) || len(results.RunID(long, 1)) != 16 {
		t.Fatal("RunID of a long source: not 16 distinct hex digits")
	}
}

// The id of a run is the first 16 hex digits of the SHA-256 of its
// source and its index within the source (SCHEMA.md, run_id).
func ExampleRunID() {
	fmt.Println(results.RunID("raw/zuul-vs-openresty/wrk-round1.txt", 0))
	fmt.Println(results.RunID("raw/zuul-vs-openresty/wrk-round1.txt", 1))
	// Output:
	// 1f80e122078728e3
	// f704da6148cef90c
}

// TestNoArrowBelowThePipeline: the model imports only the standard
// library, and ingest, stats, analyze, plots, report and gate never import
// the columnar form or Arrow, so that they build and link without them
// (docs/ARCHITECTURE.md, the rules of the house).
func TestNoArrowBelowThePipeline(t *testing.T) {
	// Every non-test file, whatever its build constraints.
	ctx := build.Default
	ctx.UseAllFiles = true
	check := func(dir string, allowed func(path string) bool) {
		p, err := ctx.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, path := range p.Imports {
			if !allowed(path) {
				t.Errorf("%s imports %s", dir, path)
			}
		}
	}
	check(".", func(path string) bool { return !strings.Contains(strings.Split(path, "/")[0], ".") })
	noArrow := func(path string) bool {
		return !strings.HasPrefix(path, "github.com/apache/arrow-go") &&
			!strings.HasPrefix(path, "github.com/loadverdict/loadverdict/results/columnar") &&
			(!strings.HasPrefix(path, "github.com/loadverdict/loadverdict/internal/") ||
				path == "github.com/loadverdict/loadverdict/internal/blocks") // a container of the standard library only
	}
	check("../internal/blocks", func(path string) bool { return !strings.Contains(strings.Split(path, "/")[0], ".") })
	dirs := []string{"../stats", "../analyze", "../plots", "../report", "../gate"}
	err := filepath.WalkDir("../ingest", func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() != "testdata" && !strings.Contains(path, "testdata") {
			if m, _ := filepath.Glob(filepath.Join(path, "*.go")); len(m) > 0 {
				dirs = append(dirs, path)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		check(dir, noArrow)
	}
}
