package core

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/loadverdict/loadverdict/results"
)

// ErrInput is matched (errors.Is) by every error about the content of an
// input, as opposed to an error of the reader, of the sink or of the
// context: *SyntaxError and *NoOutputError. Such an input is rejected, not
// retried: reading it again gives the same error.
var ErrInput = errors.New("input error")

// SyntaxError is an error about the content of an input, with its place:
// the file (or object key) and the 1-based line, 0 when the error concerns
// no particular line. It matches ErrInput.
type SyntaxError struct {
	File string
	Line int
	Msg  string
	// Err is the error of the decoder that found the fault (gzip, zstd,
	// XML, JSON, gob), when there is one.
	Err error
}

// Error returns "file:line: msg", or "file: msg" when Line is 0.
func (e *SyntaxError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(e.Line))
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the decoder's error, or nil.
func (e *SyntaxError) Unwrap() error { return e.Err }

// Is reports whether target is ErrInput.
func (e *SyntaxError) Is(target error) bool { return target == ErrInput }

// ErrNoOutput is matched (errors.Is) by every NoOutputError.
var ErrNoOutput = errors.New("no load-generator output found")

// NoOutputError reports an input in which no parser recognized
// its format: empty files, random bytes, prose without a run. It matches
// ErrNoOutput and ErrInput.
type NoOutputError struct {
	File      string   // the source, empty when unknown
	LookedFor []string // the formats looked for
	// Start is the beginning of the input's first line when no format at
	// all recognized it (Detect); empty when one format was looked for.
	Start string
	// Detected is true when Detect looked at every format.
	Detected bool
}

// Error returns, when no format recognized the input at all,
// `FILE: not output of a known load generator (starts with "..."); see
// 'loadverdict formats'`, and otherwise "no load-generator output found
// in FILE (looked for: vegeta)".
func (e *NoOutputError) Error() string {
	if e.Detected {
		file := e.File
		if file == "" {
			file = "input"
		}
		start := "is empty"
		if e.Start != "" {
			start = fmt.Sprintf("starts with %q", e.Start)
		}
		return fmt.Sprintf("%s: not output of a known load generator (%s); 'loadverdict formats' lists the formats read", file, start)
	}
	msg := ErrNoOutput.Error()
	if e.File != "" {
		msg += " in " + e.File
	}
	return msg + " (looked for: " + strings.Join(e.LookedFor, ", ") + ")"
}

// Is reports whether target is ErrNoOutput or ErrInput.
func (e *NoOutputError) Is(target error) bool { return target == ErrNoOutput || target == ErrInput }

// Options are the settings for parsing one source.
type Options struct {
	// Source is the file path or object key: used in errors, in run_id and in Run.Source.
	Source string
	// Experiment is copied into Run.Experiment.
	Experiment string
	// Labels maps "host:port" (the CLI's --label host:port=name) to a label.
	Labels map[string]string
	// WindowS is the width of the series windows built from per-request
	// logs, in seconds; 0 means 1 s.
	WindowS float64
	// DocNames are the systems' names the input itself gives beside their
	// ports (DocumentNames), keyed by port; Parse fills it from the head
	// of the input when it is nil. A run whose target has such a port,
	// and that Labels does not name, is labelled with the name (its notes
	// say so).
	DocNames map[string]DocName
}

// Parser reads one output format.
type Parser interface {
	// Name is the format's name, e.g. "wrk".
	Name() string
	// Detect reports whether head, the beginning of an input, holds output
	// of this format; it looks at the content, never at a file name.
	Detect(head []byte) bool
	// Parse streams what r holds to sink in input order: runs with every
	// field the format and opts give filled (Seq equal to Index), and for
	// per-request formats their samples and series.
	Parse(ctx context.Context, r io.Reader, opts Options, sink Sink) error
}

// Misfitter is a Parser that tells why an input it does not detect is
// not its format although it has the format's shape (a timestamp out of
// the range read): Misfit returns a *SyntaxError naming the line, the
// value and what is accepted, or nil.
type Misfitter interface {
	Misfit(head []byte) error
}

// DetectIn returns the first of parsers that recognizes head (UTF-8, or
// UTF-16 with a byte order mark); when none does, the error is the first
// Misfit of a parser, else a *NoOutputError listing the formats looked
// for.
func DetectIn(parsers []Parser, head []byte) (Parser, error) {
	head = DecodeHead(head)
	for _, p := range parsers {
		if p.Detect(head) {
			return p, nil
		}
	}
	for _, p := range parsers {
		if m, ok := p.(Misfitter); ok {
			if err := m.Misfit(head); err != nil {
				return nil, err
			}
		}
	}
	return nil, &NoOutputError{LookedFor: LookedFor(parsers), Start: inputStart(head, 40), Detected: true}
}

// LineOf returns the 1-based number of the line of head where sub, a
// subslice of head, starts.
func LineOf(head, sub []byte) int {
	off := cap(head) - cap(sub)
	if off < 0 || off > len(head) {
		return 0
	}
	return bytes.Count(head[:off], []byte{'\n'}) + 1
}

// LookedFor lists the names of the formats parsers read, in their order
// (a parser reading several, such as wrk's, lists them with a Formats
// method).
func LookedFor(parsers []Parser) []string {
	var names []string
	for _, p := range parsers {
		if l, ok := p.(interface{ Formats() []string }); ok {
			names = append(names, l.Formats()...)
		} else {
			names = append(names, p.Name())
		}
	}
	return names
}

// inputStart returns the first non-blank line of head, cut to at most max
// runes (with "..." when cut).
func inputStart(head []byte, max int) string {
	s := strings.TrimLeft(string(head), " \t\r\n\ufeff")
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	s = strings.ToValidUTF8(strings.TrimRight(s, " \t"), "\ufffd")
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "..."
	}
	return s
}

// ParseWith is Parse (package ingest) with the formats parsers, tried in
// their order: it detects the format of r from its first MiB and streams
// it to sink.
func ParseWith(ctx context.Context, parsers []Parser, r io.Reader, opts Options, sink Sink) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	in := &Input{Source: opts.Source, Raw: &TrackReader{R: r}}
	head := headPool.Get().(*bufio.Reader)
	head.Reset(in.Raw)
	defer func() {
		head.Reset(nil)
		headPool.Put(head)
	}()
	br, closeFn, err := in.Decompress(head)
	if err != nil {
		return in.outcome(ctx, err, nil)
	}
	defer closeFn()
	if bom, _ := br.Peek(2); bytes.Equal(bom, bomUTF16LE) || bytes.Equal(bom, bomUTF16BE) {
		br = bufio.NewReaderSize(utf16Input(br), HeadSize)
	}
	peek, err := br.Peek(HeadSize)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return in.outcome(ctx, err, nil)
	}
	p, err := DetectIn(parsers, peek)
	if err != nil {
		var no *NoOutputError
		var se *SyntaxError
		if errors.As(err, &no) {
			no.File = opts.Source
		} else if errors.As(err, &se) && se.File == "" {
			se.File = opts.Source
		}
		return in.outcome(ctx, err, nil)
	}
	if opts.DocNames == nil {
		opts.DocNames = DocumentNames(DecodeHead(peek))
	}
	clean := &CleanSink{Sink: sink, Source: opts.Source}
	err = p.Parse(ctx, br, opts, clean)
	if err == nil {
		// The end of the input is where a changed file, a cut network
		// stream or junk after a compressed stream shows.
		_, err = io.Copy(io.Discard, br)
	}
	return in.outcome(ctx, err, clean)
}

// headPool keeps the buffers Parse reads an input's first MiB into: a
// buffer per call made short inputs (and fuzzing) cost mostly the
// clearing of a fresh MiB.
var headPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, HeadSize) }}

// Labeler derives labels and interns targets with a bounded cache: the runs
// of a source mostly share a few targets.
type Labeler struct {
	Labels map[string]string
	cache  map[string][2]string // target -> {target, label}
}

// MaxCached bounds the labeler's cache.
const MaxCached = 1024

// Target returns b as a string, reusing an earlier copy when there is one.
func (l *Labeler) Target(b []byte) string {
	if e, ok := l.cache[string(b)]; ok {
		return e[0]
	}
	return string(b)
}

func (l *Labeler) get(target string) string {
	if e, ok := l.cache[target]; ok {
		return e[1]
	}
	label := Label(target, l.Labels)
	if l.cache == nil {
		l.cache = make(map[string][2]string)
	}
	if len(l.cache) < MaxCached {
		l.cache[target] = [2]string{target, label}
	}
	return label
}

// FillCommon sets the fields every parser fills the same way.
func FillCommon(run *results.RunWithPercentiles, opts Options, index int, lab *Labeler) {
	run.Experiment = opts.Experiment
	run.Source = opts.Source
	run.Index = int32(index)
	run.Seq = int32(index)
	run.RunID = results.RunID(opts.Source, index)
	run.Label = lab.get(run.Target)
	if d, ok := docName(run.Target, opts); ok {
		run.Label = d.Name
		note := fmt.Sprintf("named %s after the document (line %d gives port %s to %s); --label overrides", d.Name, d.Line, d.Port, d.Name)
		if run.Notes != nil && *run.Notes != "" {
			note = *run.Notes + "; " + note
		}
		run.Notes = &note
	}
	if run.Target == "" {
		// Logs that do not show the target (hey -o csv, ab -g) are named
		// after their file, unless a --label maps that name.
		run.Label = sourceLabel(opts)
	}
	for i := range run.Percentiles {
		run.Percentiles[i].RunID = run.RunID
	}
}

// docName returns the document's name for target's port, unless
// opts.Labels names the target (a --label wins).
func docName(target string, opts Options) (DocName, bool) {
	if len(opts.DocNames) == 0 {
		return DocName{}, false
	}
	hp, ok := HostPort(target)
	if !ok {
		return DocName{}, false
	}
	if _, ok := opts.Labels[hp]; ok {
		return DocName{}, false
	}
	d, ok := opts.DocNames[hp[strings.LastIndexByte(hp, ':')+1:]]
	return d, ok
}
