package ingest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/loadverdict/loadverdict/results"
)

// FuzzWrk checks that no input makes the wrk parser panic, that its errors
// are *SyntaxError or *NoOutputError, and that every run it emits holds only
// finite, non-negative numbers.
func FuzzWrk(f *testing.F) {
	for _, dir := range []string{"testdata/wrk", "testdata/wrk2"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	var wrk Parser
	for _, p := range Parsers() {
		if p.Name() == "wrk" {
			wrk = p
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(err error, runs []results.RunWithPercentiles) {
			var se *SyntaxError
			if err != nil && !errors.As(err, &se) && !errors.Is(err, ErrNoOutput) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			for i, r := range runs {
				if r.Index != int32(i) {
					t.Fatalf("run %d has index %d", i, r.Index)
				}
				checkRun(t, r)
			}
		}
		opts := Options{Source: "fuzz"}
		runs, err := ParseAll(context.Background(), bytes.NewReader(data), opts)
		check(err, runs)
		// The parser itself, without detection in front.
		runs = runs[:0]
		err = wrk.Parse(context.Background(), bytes.NewReader(data), opts, RunFunc(func(r results.RunWithPercentiles) error {
			runs = append(runs, r)
			return nil
		}))
		check(err, runs)
		wrk.Detect(data)
	})
}
