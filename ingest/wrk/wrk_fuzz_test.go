package wrk

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/results"
)

// FuzzWrk checks that no input makes the wrk parser panic, that its errors
// are *SyntaxError or *NoOutputError, and that every run it emits holds only
// finite, non-negative numbers.
func FuzzWrk(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/wrk/*", "testdata/wrk2/*")
	var wrk core.Parser = Parser{}
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(err error, runs []results.RunWithPercentiles) {
			var se *core.SyntaxError
			if err != nil && !errors.As(err, &se) && !errors.Is(err, core.ErrNoOutput) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			for i, r := range runs {
				if r.Index != int32(i) {
					t.Fatalf("run %d has index %d", i, r.Index)
				}
				ingesttest.CheckRun(t, r)
			}
		}
		opts := core.Options{Source: "fuzz"}
		runs, err := parseAll(context.Background(), bytes.NewReader(data), opts)
		check(err, runs)
		// The parser itself, without detection in front.
		runs = runs[:0]
		err = wrk.Parse(context.Background(), bytes.NewReader(data), opts, core.RunFunc(func(r results.RunWithPercentiles) error {
			runs = append(runs, r)
			return nil
		}))
		check(err, runs)
		wrk.Detect(data)
	})
}
