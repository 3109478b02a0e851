package ingest

import (
	"context"
	"io"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// Parse detects the format of r from its first MiB and streams it to sink
// in file order: runs with Experiment, Source, Index, Seq (= Index; the
// caller renumbers it per experiment), RunID (results.RunID(Source,
// Index)), Label and SourceLine filled, and the samples and series of
// per-request formats, in bounded memory. Compressed and UTF-16 input is
// decoded as it streams; strings sink receives are valid UTF-8 without NUL
// bytes. Parse reads r to its end, also when the parser needs less, so a
// reader that fails there fails the parse. An error of r, sink or ctx is
// returned wrapped; every other error matches ErrInput (see
// docs/ARCHITECTURE.md, "Errors, strings and speed in ingest").
func Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	return core.ParseWith(ctx, parsers, r, opts, sink)
}

// ParseAll is Parse collecting the runs; on error it returns the runs
// emitted before it.
func ParseAll(ctx context.Context, r io.Reader, opts core.Options) ([]results.RunWithPercentiles, error) {
	var runs []results.RunWithPercentiles
	err := Parse(ctx, r, opts, core.RunFunc(func(run results.RunWithPercentiles) error {
		runs = append(runs, run)
		return nil
	}))
	return runs, err
}

// The core's vocabulary, under the names callers of package ingest know
// (package core documents each).
type (
	// Options are the settings for parsing one source.
	Options = core.Options
	// Parser reads one output format.
	Parser = core.Parser
	// Sink receives what a parser reads, in input order.
	Sink = core.Sink
	// RunFunc is a Sink that passes runs to a function and drops samples
	// and series.
	RunFunc = core.RunFunc
	// SyntaxError is an error about the content of an input, with its
	// place; it matches ErrInput.
	SyntaxError = core.SyntaxError
	// NoOutputError reports an input in which no parser recognized its
	// format; it matches ErrNoOutput and ErrInput.
	NoOutputError = core.NoOutputError
	// DocName is a system's name an input gives beside its port.
	DocName = core.DocName
)

// ErrInput is matched (errors.Is) by every error about the content of an
// input (core.ErrInput).
var ErrInput = core.ErrInput

// ErrNoOutput is matched (errors.Is) by every NoOutputError
// (core.ErrNoOutput).
var ErrNoOutput = core.ErrNoOutput

// Label returns the label of a run's target (core.Label).
func Label(target string, labels map[string]string) string { return core.Label(target, labels) }
