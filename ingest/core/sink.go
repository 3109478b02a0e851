package core

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/loadverdict/loadverdict/results"
)

// Sink receives what a parser reads, in input order. Summary formats send
// only runs; per-request formats send each run's samples first, then its
// series and last the run itself (with has_samples set).
type Sink interface {
	// Run receives a finished run and its latency percentiles.
	Run(results.RunWithPercentiles) error
	// Sample receives one request of a run.
	Sample(results.Sample) error
	// Series receives one time window of a run.
	Series(results.Series) error
}

// RunFunc is a Sink that passes runs to a function and drops samples and
// series: what `loadverdict parse` needs.
type RunFunc func(results.RunWithPercentiles) error

// Run calls f.
func (f RunFunc) Run(r results.RunWithPercentiles) error { return f(r) }

// Sample drops s.
func (RunFunc) Sample(results.Sample) error { return nil }

// Series drops s.
func (RunFunc) Series(results.Series) error { return nil }

// CleanSink is where rows enter the tables, between every parser and the
// caller's sink: strings made valid UTF-8 without NULs (U+FFFD, noted on
// the run), texts over MaxText capped (CapText, noted), a number not finite
// or beyond ±results.MaxValue refused (*SyntaxError); it keeps the sink's
// first error, so that Parse tells it from an error about the input.
type CleanSink struct {
	Sink   Sink
	Source string // the input's name, for errors
	err    error
	dirty  map[string][]string // run id -> what was replaced in its samples and series
	cut    map[string][]string // run id -> what was capped in its samples
}

// ReplacedNote starts the note on a run whose strings were replaced.
const ReplacedNote = "invalid UTF-8 or NUL bytes replaced by U+FFFD in "

// CappedNote starts the note on a run whose strings were capped.
var CappedNote = fmt.Sprintf("values longer than %d bytes cut, ending in %q and a hash of the whole value, in ", MaxText, CapMark)

// fail remembers the sink's first error and returns err.
func (c *CleanSink) fail(err error) error {
	if err != nil && c.err == nil {
		c.err = err
	}
	return err
}

// mark records in m that a string (what) of a sample or series of run id
// was replaced (capped).
func mark(m *map[string][]string, id, what string) {
	if *m == nil {
		*m = map[string][]string{}
	}
	if !slices.Contains((*m)[id], what) {
		(*m)[id] = append((*m)[id], what)
	}
}

// capText caps *s (CapText) and reports whether it is capped, now or by
// the parser.
func capText(s *string) bool {
	v, cut := CapText(*s)
	*s = v
	return cut || Capped(v)
}

// Run passes on r with its strings cleaned and a note when any string of
// the run, its percentiles, samples or series was replaced.
func (c *CleanSink) Run(r results.RunWithPercentiles) error {
	var what, cut []string
	clean := func(s *string, name string) {
		if !validString(*s) {
			*s = cleanString(*s)
			what = append(what, name)
		}
	}
	capped := func(s *string, name string) {
		if capText(s) {
			cut = append(cut, name)
		}
	}
	cleanPtr := func(p **string, name string) {
		if *p != nil && !validString(**p) {
			v := cleanString(**p)
			*p = &v
			what = append(what, name)
		}
	}
	id := r.RunID
	clean(&r.RunID, "run_id")
	clean(&r.Experiment, "experiment")
	clean(&r.Source, "source")
	clean(&r.Tool, "tool")
	clean(&r.LoadModel, "load_model")
	clean(&r.Label, "label")
	clean(&r.Target, "target")
	cleanPtr(&r.Command, "command")
	cleanPtr(&r.Script, "script")
	cleanPtr(&r.Notes, "notes")
	cleanPtr(&r.Endpoint, "endpoint")
	capped(&r.Label, "label")
	capped(&r.Target, "target")
	if r.Endpoint != nil {
		e := *r.Endpoint
		capped(&e, "endpoint")
		r.Endpoint = &e
	}
	// r.RunID is valid by now: rows that hold it need no check.
	if slices.ContainsFunc(r.Percentiles, func(p results.Percentile) bool { return p.RunID != r.RunID && !validString(p.RunID) }) {
		pcts := slices.Clone(r.Percentiles)
		for i := range pcts {
			pcts[i].RunID = cleanString(pcts[i].RunID)
		}
		r.Percentiles = pcts
		what = append(what, "percentiles")
	}
	if err := results.CheckValues(&r.Run); err != nil {
		return &SyntaxError{File: r.Source, Line: int(r.SourceLine), Msg: "run " + r.RunID + ": " + err.Error()}
	}
	for _, p := range r.Percentiles {
		if err := results.CheckValues(&p); err != nil {
			return &SyntaxError{File: r.Source, Line: int(r.SourceLine), Msg: "run " + r.RunID + ": percentile " + err.Error()}
		}
	}
	what = append(what, c.dirty[id]...)
	delete(c.dirty, id)
	cut = append(cut, c.cut[id]...)
	delete(c.cut, id)
	for _, n := range []struct {
		start string
		what  []string
	}{{ReplacedNote, what}, {CappedNote, cut}} {
		if len(n.what) == 0 {
			continue
		}
		note := n.start + strings.Join(n.what, ", ")
		if r.Notes != nil && *r.Notes != "" {
			note = *r.Notes + "; " + note
		}
		r.Notes = &note
	}
	return c.fail(c.Sink.Run(r))
}

// Sample passes on s with its strings cleaned.
func (c *CleanSink) Sample(s results.Sample) error {
	if !(math.Abs(s.TS) <= results.MaxValue && math.Abs(s.LatencyMs) <= results.MaxValue) {
		return &SyntaxError{File: c.Source, Msg: fmt.Sprintf("a request's time %v s or latency %v ms is not a finite number within ±%g", s.TS, s.LatencyMs, results.MaxValue)}
	}
	id := s.RunID
	if !validString(id) {
		mark(&c.dirty, id, "samples' run_id")
		s.RunID = cleanString(id)
	}
	if s.Error != nil && !validString(*s.Error) {
		mark(&c.dirty, id, "samples' error")
		e := cleanString(*s.Error)
		s.Error = &e
	}
	if s.Error != nil {
		e := *s.Error
		if capText(&e) {
			mark(&c.cut, id, "samples' error")
			s.Error = &e
		}
	}
	return c.fail(c.Sink.Sample(s))
}

// Series passes on s with its strings cleaned.
func (c *CleanSink) Series(s results.Series) error {
	if err := results.CheckValues(&s); err != nil {
		return &SyntaxError{File: c.Source, Msg: "run " + s.RunID + ": a window's " + err.Error()}
	}
	if !validString(s.RunID) {
		mark(&c.dirty, s.RunID, "series' run_id")
		s.RunID = cleanString(s.RunID)
	}
	if s.ErrorStatuses != nil && !validString(*s.ErrorStatuses) {
		mark(&c.dirty, s.RunID, "series' error_statuses")
		e := cleanString(*s.ErrorStatuses)
		s.ErrorStatuses = &e
	}
	return c.fail(c.Sink.Series(s))
}

// validString reports whether s is valid UTF-8 without NUL bytes.
func validString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 0 || c >= utf8.RuneSelf {
			return utf8.ValidString(s[i:]) && strings.IndexByte(s[i:], 0) < 0
		}
	}
	return true
}

// cleanString replaces invalid UTF-8 (each run of invalid bytes) and NUL
// bytes in s by U+FFFD.
func cleanString(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}
