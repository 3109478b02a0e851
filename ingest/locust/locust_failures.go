package locust

import (
	"context"
	"encoding/csv"
	"errors"
	"io"

	"github.com/loadverdict/loadverdict/ingest/core"
)

type FailuresParser struct{}

// Name returns "locust-failures".
func (FailuresParser) Name() string { return "locust-failures" }

// Detect reports whether head starts with the header of a Locust file that
// holds no run: _failures.csv ("Method,Name,Error,Occurrences"),
// _exceptions.csv ("Count,Message,Traceback,Nodes") or the old
// _distribution.csv ("Name","# requests","50%",...).
func (FailuresParser) Detect(head []byte) bool {
	h, ok := headHeader(head)
	if !ok {
		return false
	}
	switch {
	case h.has("type", "name", "error", "occurrences"):
		return true
	case h.has("ecount", "message", "traceback"):
		return true
	}
	_, hasType := h.col["type"]
	return len(h.col) == 2 && h.has("name", "count") && !hasType && len(h.qs) >= 3
}

// Parse checks that r is a Locust file without a run and emits nothing:
// failures are counted in the stats file (Failure Count) and the history,
// and this file alone does not tell the requests they are part of. It
// returns nil, so that a directory of Locust outputs parses cleanly.
func (FailuresParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	recs := core.NewCSVRecords(ctx, r, opts.Source, ',', core.CSVMaxRecord)
	first := true
	for {
		_, err := recs.Next()
		line := recs.Line
		if err == io.EOF {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return &core.SyntaxError{File: opts.Source, Line: line, Msg: "Locust CSV: " + pe.Err.Error()}
		}
		if err != nil {
			return err
		}
		first = false
	}
	if first {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"locust-failures"}}
	}
	return nil
}
