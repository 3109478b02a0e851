package pipeline

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/results/columnar"
)

// Rejection is the record written to rejected/<experiment>/<source-id>.json.
type Rejection struct {
	// Key is the source's name: the object key, or the path as the user
	// gave it on the command line.
	Key   string `json:"key"`
	Error string `json:"error"`
	Line  int    `json:"line,omitempty"`
	// Time is the input's modification time (not the time of processing,
	// so that processing the same upload twice writes the same bytes);
	// empty when unknown (standard input).
	Time string `json:"time,omitempty"`
	// ETag and VersionID are the version of the input that was rejected
	// (see Source.Version); empty for a manifest's record.
	ETag      string `json:"etag,omitempty"`
	VersionID string `json:"version_id,omitempty"`
	// Experiment is the experiment whose rejected/ holds the record, as
	// read back; it is not stored.
	Experiment string `json:"-"`
}

// ErrRejected is matched (errors.Is) by every *RejectedError.
var ErrRejected = errors.New("rejected")

// RejectedError is returned for an input that could not be used: its
// rejection record is in rejected/. Retrying cannot help.
type RejectedError struct {
	Source string
	// Err is why: an *ingest.SyntaxError, an *ingest.NoOutputError, or
	// the error of opening a local file.
	Err error
}

func (e *RejectedError) Error() string { return e.Source + ": rejected: " + e.Err.Error() }

// Unwrap returns ErrRejected and the cause.
func (e *RejectedError) Unwrap() []error { return []error{ErrRejected, e.Err} }

// tables are the tables a source may have, each in its own file.
var tables = []columnar.Table{columnar.TableRuns, columnar.TablePercentiles, columnar.TableSeries, columnar.TableSamples}

// Version identifies the content of the input a source was read from: a
// raw object's ETag (and version id, in a bucket with versioning), or
// for a local file LocalVersion's.
type Version struct {
	ETag      string
	VersionID string
}

// Source is one input to ingest.
type Source struct {
	// Name is the object key in a bucket, or the path as the user gave it
	// on the command line ("stdin" for standard input). It is the runs'
	// source column, and its SourceID names the source's table files.
	Name string
	// Experiment is the partition the tables go to.
	Experiment string
	// Body is read once, streaming.
	Body io.Reader
	// ModTime is when the input was last modified (zero when unknown);
	// only the rejection record uses it.
	ModTime time.Time
	// WindowS is the width of the series windows of per-request logs in
	// seconds; 0 means 1 s.
	WindowS float64
	// Version is the version of the input Body reads; it names the
	// generation of the tables (store.Generation) and is recorded in the
	// commit record. The zero Version (the command line's files and
	// standard input) stands for the content: IngestSource hashes the
	// bytes as it reads them and takes "sha256:" and the first 32 hex
	// digits of the hash as the ETag.
	Version Version
	// Current, when set, tells whether Version is still the input's
	// current version (Ingest gives a HEAD of the raw key). It is asked
	// before the commit record is written, and again after, so that an
	// ingest never replaces tables made from a newer version (see
	// Commit); nil for inputs that cannot change under the pipeline (the
	// command line's, read through store.OpenFile).
	Current func(ctx context.Context) (bool, error)
}

// ErrSuperseded is returned (wrapped) by IngestSource when the input's
// version stopped being its current one before its tables were
// committed, or just after: a newer version's ingest owns the source.
// Ingest then reads the source again; it is an infrastructure condition,
// never an input fault.
var ErrSuperseded = errors.New("a newer version of the input arrived while it was ingested")

// MaxRuns is the most runs one experiment may hold, its inputs counted
// together; an input that would bring its experiment past it is rejected
// (an input with more on its own as its parse reaches run MaxRuns+1),
// and the analysis reads no more (see readInputs). The analysis costs time and memory in proportion to the runs
// (scripts/perf/manyruns.sh: 50,000 wrk runs take 13 s and peak at 523 MB
// without a memory limit, 364 MB under a 300 MiB one; the functions set
// theirs from their memory, LambdaMemoryLimit), so they stay within a
// 512 MB function and well within its time-out. The parse stops at the
// run past the limit and the input is refused, instead of failing every
// retry.
const MaxRuns = 50000

// maxRuns is MaxRuns, which tests lower.
var maxRuns = MaxRuns

// maxIngestRounds bounds how often Ingest reads a key again because it
// changed meanwhile.
const maxIngestRounds = 3

// Ingest reads the raw upload at key and writes its tables (IngestSource
// with the key as the source's name, the experiment of the key and the
// object's ETag and version id as its version). A key that no longer
// exists (deleted after its upload) has its tables removed (RemoveSource).
// When the object changes while it is ingested, it is read and ingested
// again (at most 3 times, then an error worth a retry). It never modifies
// or deletes anything under raw/. The manifest is not ingested. Errors are
// as IngestSource's.
func (p *Pipeline) Ingest(ctx context.Context, key string) (experiment string, err error) {
	exp, err := store.ExperimentOf(key)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	if path.Base(key) == store.ManifestName {
		return exp, nil
	}
	for range maxIngestRounds {
		err = p.ingestOnce(ctx, exp, key)
		if !errors.Is(err, ErrSuperseded) {
			return exp, err
		}
	}
	return exp, fmt.Errorf("%s: %w (%d times)", key, err, maxIngestRounds)
}

func (p *Pipeline) ingestOnce(ctx context.Context, exp, key string) error {
	rc, obj, err := p.Store.Get(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return p.RemoveSource(ctx, exp, key, p.currentOf(key, Version{}))
	}
	if err != nil {
		return err
	}
	defer rc.Close()
	v := Version{ETag: obj.ETag, VersionID: obj.VersionID}
	_, err = p.IngestSource(ctx, Source{Name: key, Experiment: exp, Body: rc, ModTime: obj.ModTime, Version: v, Current: p.currentOf(key, v)})
	return err
}

// currentOf returns a Source.Current for a raw key read at version v (the
// zero Version: the key did not exist).
func (p *Pipeline) currentOf(key string, v Version) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		o, err := p.Store.Head(ctx, key)
		if errors.Is(err, store.ErrNotFound) {
			return v == Version{}, nil
		}
		if err != nil {
			return false, err
		}
		return o.ETag == v.ETag && (o.VersionID == "" || v.VersionID == "" || o.VersionID == v.VersionID), nil
	}
}

// IngestSource parses src and writes its tables as a new generation,
// tables/<table>/experiment=<experiment>/<source-id>-<generation>.parquet,
// registers the experiment's partitions (Catalog, when set), then writes
// its commit record (Commit), which makes them the source's current
// tables; it removes the files of other generations and the source's
// rejection record, and returns the table keys written. Samples stream
// through a temporary file, so memory stays bounded however long the log.
//
// An input fault (IsInputFault) gets a rejection record and a commit
// record saying so (Reject) and a *RejectedError; any other error
// (reading the body, the store's) is worth a retry, and leaves the
// source's committed generation as it was. When src.Current says the
// version read is no longer current, nothing is committed and the error
// matches ErrSuperseded.
func (p *Pipeline) IngestSource(ctx context.Context, src Source) ([]string, error) {
	if err := store.CheckExperiment(src.Experiment); err != nil {
		return nil, err
	}
	if src.Name == "" {
		return nil, errors.New("pipeline: a source needs a name")
	}
	sink := &tableSink{dir: p.TempDir, held: p.Parsed.newSamples(src.Experiment, src.Name)}
	defer sink.cleanup()
	var h *hashReader
	if src.Version == (Version{}) {
		h = newHashReader(src.Body)
		defer h.Close()
		src.Body = h
	}
	perr := ingest.Parse(ctx, src.Body, ingest.Options{Source: src.Name, Experiment: src.Experiment, WindowS: src.WindowS}, sink)
	if perr == nil {
		perr = sink.closeSamples()
	}
	if errors.Is(perr, errTooManyRuns) {
		return nil, p.reject(ctx, src, &ingest.SyntaxError{File: src.Name, Msg: errTooManyRuns.Error()})
	}
	if perr != nil {
		if !IsInputFault(perr) {
			return nil, perr // a read or write error: retry
		}
		return nil, p.reject(ctx, src, perr)
	}
	if others, err := p.otherRuns(ctx, src.Experiment, src.Name); err != nil {
		return nil, err
	} else if n := len(sink.runs); others+n > maxRuns {
		return nil, p.reject(ctx, src, &ingest.SyntaxError{File: src.Name, Msg: experimentRunsMsg(src.Experiment, n, others)})
	}
	if h != nil {
		// Whatever the parser left unread is part of the content too.
		if _, err := io.Copy(io.Discard, src.Body); err != nil {
			return nil, err
		}
		src.Version.ETag = "sha256:" + hex.EncodeToString(h.Sum()[:16])
	}
	gen := store.Generation(src.Version.ETag)
	written, err := p.putTables(ctx, src.Experiment, src.Name, gen, sink)
	if ue := (*unreadableError)(nil); errors.As(err, &ue) {
		return nil, p.reject(ctx, src, &ingest.SyntaxError{File: src.Name, Msg: ue.Error()})
	}
	if err != nil {
		return written, err
	}
	if p.Catalog != nil {
		// Before the commit: a committed source's partitions exist.
		if err := p.Catalog.AddPartitions(ctx, src.Experiment); err != nil {
			return written, err
		}
	}
	c := Commit{Key: src.Name, ETag: src.Version.ETag, VersionID: src.Version.VersionID, Generation: gen, Tables: written, Runs: len(sink.runs)}
	if err := p.commit(ctx, src.Experiment, c, src.Current); err != nil {
		return written, err
	}
	p.indexRuns(src.Experiment, c)
	if p.Parsed != nil {
		runs, pcts := sink.tables()
		p.Parsed.hold(src.Experiment, src.Name, gen, runs, pcts, sink.series, c.Table(columnar.TableSamples), sink.held)
	}
	return written, nil
}

// experimentRunsMsg says why an input of n runs is refused where the
// experiment's other inputs hold others.
func experimentRunsMsg(exp string, n, others int) string {
	return fmt.Sprintf("its %d runs would bring experiment %s to %d runs (its other inputs hold %d): loadverdict analyses at most %d runs of one experiment; split them into several experiments", n, exp, n+others, others, maxRuns)
}

// putTables writes a parsed source's tables as generation gen.
func (p *Pipeline) putTables(ctx context.Context, exp, name, gen string, sink *tableSink) ([]string, error) {
	mem := memory.NewGoAllocator()
	runs, pcts := sink.tables()
	// Every table is encoded and read back by our own reader before any
	// is stored: a file it refuses (a page past its limits) would fail
	// every later analysis of the experiment, so the input is rejected.
	type table struct {
		t   columnar.Table
		buf bytes.Buffer
	}
	tables := []*table{{t: columnar.TableRuns}, {t: columnar.TablePercentiles}}
	if len(sink.series) > 0 {
		tables = append(tables, &table{t: columnar.TableSeries})
	}
	for _, tb := range tables {
		var err error
		want := 0
		switch tb.t {
		case columnar.TableRuns:
			err, want = columnar.WriteRuns(&tb.buf, runs, mem), len(runs)
		case columnar.TablePercentiles:
			err, want = columnar.WritePercentiles(&tb.buf, pcts, mem), len(pcts)
		case columnar.TableSeries:
			err, want = columnar.WriteSeries(&tb.buf, sink.series, mem), len(sink.series)
		}
		if err != nil {
			return nil, err
		}
		if err := readBack(tb.t, bytes.NewReader(tb.buf.Bytes()), want, mem); err != nil {
			return nil, err
		}
	}
	var f *os.File
	if sink.tmp != nil {
		var err error
		if f, err = os.Open(sink.tmp.Name()); err != nil {
			return nil, err
		}
		defer f.Close()
		if err := readBack(columnar.TableSamples, f, sink.samples, mem); err != nil {
			return nil, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	var written []string
	for _, tb := range tables {
		key := store.TableKey(string(tb.t), exp, name, gen)
		if err := p.Store.Put(ctx, key, &tb.buf); err != nil {
			return written, err
		}
		p.indexed(exp, store.SourceID(name), []string{key}, nil)
		written = append(written, key)
	}
	if f == nil {
		return written, nil
	}
	key := store.TableKey(string(columnar.TableSamples), exp, name, gen)
	if err := p.Store.Put(ctx, key, f); err != nil {
		return written, err
	}
	p.indexed(exp, store.SourceID(name), []string{key}, nil)
	return append(written, key), nil
}

// readerAtSeeker is what the table readers read.
type readerAtSeeker interface {
	io.ReaderAt
	io.Seeker
}

// readBack reads the file r of table t back (readRows) and returns an
// *unreadableError unless it holds want rows.
func readBack(t columnar.Table, r readerAtSeeker, want int, mem memory.Allocator) error {
	n, err := readRows(t, r, mem)
	if err != nil || n != want {
		return &unreadableError{table: t, rows: n, want: want, err: err}
	}
	return nil
}

// readRows reads a table file whole, as an analysis does, and returns its
// rows; the samples table, whose values cost the most to decode, through
// columnar.CheckSamples: its footer, schema and every page through the
// reader's page reader, which holds the reader's limits, without decoding
// the values into rows. Tests replace it to make a table unreadable.
var readRows = func(t columnar.Table, r readerAtSeeker, mem memory.Allocator) (int, error) {
	switch t {
	case columnar.TableRuns:
		x, err := columnar.ReadRuns(r, mem)
		return len(x), err
	case columnar.TablePercentiles:
		x, err := columnar.ReadPercentiles(r, mem)
		return len(x), err
	case columnar.TableSeries:
		x, err := columnar.ReadSeries(r, mem)
		return len(x), err
	}
	n, err := columnar.CheckSamples(r, mem)
	return int(n), err
}

// unreadableError is a table that loadverdict's own reader cannot read
// back (a page past the reader's limits): the input is rejected.
type unreadableError struct {
	table      columnar.Table
	rows, want int
	err        error
}

func (e *unreadableError) Error() string {
	msg := fmt.Sprintf("its %s table cannot be read back by loadverdict's reader (%d of %d rows read)", e.table, e.rows, e.want)
	if e.err != nil {
		msg += ": " + e.err.Error()
	}
	return msg
}

// Reject records that the source name of experiment exp could not be
// used, and why: it writes rejected/<experiment>/<source-id>.json (with
// the line of a *ingest.SyntaxError) and a commit record saying the
// source is rejected, and removes the source's tables, so no earlier
// version of it stays in the analysis. It returns a *RejectedError for
// cause, or the store's error.
func (p *Pipeline) Reject(ctx context.Context, exp, name string, modTime time.Time, cause error) error {
	return p.reject(ctx, Source{Name: name, Experiment: exp, ModTime: modTime}, cause)
}

func (p *Pipeline) reject(ctx context.Context, src Source, cause error) error {
	rej := rejection(src.Name, src.ModTime, cause)
	rej.ETag, rej.VersionID = src.Version.ETag, src.Version.VersionID
	if err := p.isCurrent(ctx, src.Current); err != nil {
		return err
	}
	if err := p.putRejection(ctx, src.Experiment, rej); err != nil {
		return err
	}
	c := Commit{Key: src.Name, ETag: src.Version.ETag, VersionID: src.Version.VersionID, Rejected: &rej}
	if err := p.commit(ctx, src.Experiment, c, src.Current); err != nil {
		return err
	}
	p.indexRuns(src.Experiment, c)
	return &RejectedError{Source: src.Name, Err: cause}
}

// rejection is the record of name rejected for cause.
func rejection(name string, modTime time.Time, cause error) Rejection {
	rej := Rejection{Key: name, Error: cause.Error()}
	if !modTime.IsZero() {
		rej.Time = modTime.UTC().Format("2006-01-02T15:04:05Z")
	}
	var se *ingest.SyntaxError
	if errors.As(cause, &se) {
		rej.Line = se.Line
	}
	return rej
}

// putRejection writes a rejection record to rejected/.
func (p *Pipeline) putRejection(ctx context.Context, exp string, rej Rejection) error {
	b, err := json.MarshalIndent(rej, "", "  ")
	if err != nil {
		return err
	}
	return p.Store.Put(ctx, store.RejectedKey(exp, rej.Key), bytes.NewReader(append(b, '\n')))
}

// Prune removes the commit records, table files and rejection records of
// experiment exp whose source is not among keep, and returns their keys.
// The command line uses it to make its inputs the whole experiment: what
// else is in the partition is loadverdict's own output of an earlier
// invocation. Nothing outside the experiment's partitions is touched.
func (p *Pipeline) Prune(ctx context.Context, exp string, keep []string) ([]string, error) {
	if err := store.CheckExperiment(exp); err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, k := range keep {
		ids[store.SourceID(k)] = true
	}
	// Commit records first: a source without one is not read.
	prefixes := []string{store.CommitPrefixOf(exp), store.RejectedPrefixOf(exp)}
	for _, t := range tables {
		prefixes = append(prefixes, store.TablePrefix(string(t), exp))
	}
	var removed []string
	for _, pre := range prefixes {
		objs, err := p.Store.List(ctx, pre)
		if err != nil {
			return removed, err
		}
		for _, o := range objs {
			id, _ := store.SourceIDOfKey(o.Key)
			if ids[id] {
				continue
			}
			if err := p.Store.Delete(ctx, o.Key); err != nil {
				return removed, err
			}
			p.indexed(exp, id, nil, []string{o.Key})
			removed = append(removed, o.Key)
		}
	}
	return removed, nil
}

// tableSink collects runs and series and streams samples to a temporary
// Parquet file (a SampleStream: encoded on a goroutine of its own, while
// the parser's goroutine aggregates).
type tableSink struct {
	dir     string
	runs    []results.RunWithPercentiles
	series  []results.Series
	tmp     *os.File
	w       *columnar.SampleStream
	samples int // samples appended
	// held, when set, keeps the samples for the tallies (Pipeline.Parsed).
	held *heldSamples
}

// errTooManyRuns stops a parse at the run past MaxRuns: an input is
// refused before its runs fill the memory.
var errTooManyRuns = fmt.Errorf("more than %d runs in one input: loadverdict analyses at most %d runs of one input; split them into several experiments", MaxRuns, MaxRuns)

// tables returns the rows of the runs and percentiles tables.
func (s *tableSink) tables() ([]results.Run, []results.Percentile) {
	var runs []results.Run
	var pcts []results.Percentile
	for _, r := range s.runs {
		runs = append(runs, r.Run)
		for _, q := range r.Percentiles {
			q.RunID = r.RunID
			pcts = append(pcts, q)
		}
	}
	return runs, pcts
}

func (s *tableSink) Run(r results.RunWithPercentiles) error {
	if len(s.runs) == MaxRuns {
		return errTooManyRuns
	}
	s.runs = append(s.runs, r)
	return nil
}
func (s *tableSink) Series(x results.Series) error { s.series = append(s.series, x); return nil }
func (s *tableSink) Sample(x results.Sample) error {
	if s.w == nil {
		f, err := os.CreateTemp(s.dir, "loadverdict-samples-*.parquet")
		if err != nil {
			return err
		}
		w, err := columnar.NewSampleStream(f, memory.NewGoAllocator())
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			return err
		}
		s.tmp, s.w = f, w
	}
	s.samples++
	if s.held != nil {
		s.held.add(x)
	}
	return s.w.Append(x)
}

func (s *tableSink) closeSamples() error {
	if s.w == nil {
		return nil
	}
	err := s.w.Close()
	if cerr := s.tmp.Close(); err == nil {
		err = cerr
	}
	s.w = nil
	return err
}

func (s *tableSink) cleanup() {
	if s.w != nil {
		s.w.Close() // stops its encoder; the file is removed
		s.w = nil
	}
	if s.tmp != nil {
		s.tmp.Close()
		os.Remove(s.tmp.Name())
	}
}
