package core

import "github.com/loadverdict/loadverdict/results"

// RunState is the part every line-based parser's state shares, written
// once: what it parses for, the runs it emitted and whether a run is
// open. A parser's state embeds it beside its own run being read.
type RunState struct {
	Opts Options
	Sink Sink
	Lab  Labeler
	// Detect says the state only tells whether its input holds a complete
	// run (Parser.Detect): nothing is emitted, Found is set instead.
	Detect bool
	Found  bool
	Index  int  // the runs emitted so far
	Active bool // a run is being read
}

// Emit gives out the fields every run gets (FillCommon) and passes it to
// the sink.
func (s *RunState) Emit(out results.RunWithPercentiles) error {
	FillCommon(&out, s.Opts, s.Index, &s.Lab)
	s.Index++
	return s.Sink.Run(out)
}

// Malformed is the error about a malformed line of a run: "tool:
// malformed what" at line.
func (s *RunState) Malformed(tool string, line int, what string) error {
	return &SyntaxError{File: s.Opts.Source, Line: line, Msg: tool + ": malformed " + what}
}

// FirstBad keeps the first malformed line of a run, which the parser
// reports when the run ends (RunState.Malformed). A run embeds it.
type FirstBad struct {
	Bad     string // what was malformed, empty when nothing was
	BadLine int
}

// Malformed records a malformed line ln (msg says what), unless an
// earlier one was recorded.
func (b *FirstBad) Malformed(ln int, msg string) {
	if b.Bad == "" {
		b.Bad, b.BadLine = msg, ln
	}
}
