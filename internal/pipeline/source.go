package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results"
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
var tables = []results.Table{results.TableRuns, results.TablePercentiles, results.TableSeries, results.TableSamples}

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
}

// Ingest reads the raw upload at key and writes its tables (IngestSource
// with the key as the source's name and the experiment of the key). It
// never modifies or deletes anything under raw/. The manifest is not
// ingested. Errors are as IngestSource's.
func (p *Pipeline) Ingest(ctx context.Context, key string) (experiment string, err error) {
	exp, err := store.ExperimentOf(key)
	if err != nil {
		return "", err
	}
	if path.Base(key) == store.ManifestName {
		return exp, nil
	}
	rc, obj, err := p.Store.Get(ctx, key)
	if err != nil {
		return exp, err
	}
	defer rc.Close()
	_, err = p.IngestSource(ctx, Source{Name: key, Experiment: exp, Body: rc, ModTime: obj.ModTime})
	return exp, err
}

// IngestSource parses src and writes its tables to
// tables/<table>/experiment=<experiment>/<source-id>.parquet, replacing
// those of an earlier version of the same source and removing its
// rejection record; it returns the keys written. Samples stream through a
// temporary file, so memory stays bounded however long the log.
//
// An input that cannot be parsed gets a rejection record (Reject) and a
// *RejectedError; any other error (reading the body, the store's) is
// worth a retry.
func (p *Pipeline) IngestSource(ctx context.Context, src Source) ([]string, error) {
	if err := store.CheckExperiment(src.Experiment); err != nil {
		return nil, err
	}
	if src.Name == "" {
		return nil, errors.New("pipeline: a source needs a name")
	}
	sink := &tableSink{dir: p.TempDir}
	defer sink.cleanup()
	perr := ingest.Parse(ctx, src.Body, ingest.Options{Source: src.Name, Experiment: src.Experiment, WindowS: src.WindowS}, sink)
	if perr == nil {
		perr = sink.closeSamples()
	}
	if perr != nil {
		var se *ingest.SyntaxError
		var no *ingest.NoOutputError
		if !errors.As(perr, &se) && !errors.As(perr, &no) {
			return nil, perr // a read or write error: retry
		}
		return nil, p.Reject(ctx, src.Experiment, src.Name, src.ModTime, perr)
	}
	written, err := p.putTables(ctx, src.Experiment, src.Name, sink)
	if err != nil {
		return written, err
	}
	return written, p.Store.Delete(ctx, store.RejectedKey(src.Experiment, src.Name))
}

// putTables writes a parsed source's tables and removes the files of
// tables it no longer has.
func (p *Pipeline) putTables(ctx context.Context, exp, name string, sink *tableSink) ([]string, error) {
	mem := memory.NewGoAllocator()
	var runs []results.Run
	var pcts []results.Percentile
	for _, r := range sink.runs {
		runs = append(runs, r.Run)
		for _, q := range r.Percentiles {
			q.RunID = r.RunID
			pcts = append(pcts, q)
		}
	}
	var written []string
	put := func(t results.Table, write func(io.Writer) error) error {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return err
		}
		key := store.TableKey(string(t), exp, name)
		if err := p.Store.Put(ctx, key, &buf); err != nil {
			return err
		}
		written = append(written, key)
		return nil
	}
	if err := put(results.TableRuns, func(w io.Writer) error { return results.WriteRuns(w, runs, mem) }); err != nil {
		return written, err
	}
	if err := put(results.TablePercentiles, func(w io.Writer) error { return results.WritePercentiles(w, pcts, mem) }); err != nil {
		return written, err
	}
	if len(sink.series) > 0 {
		if err := put(results.TableSeries, func(w io.Writer) error { return results.WriteSeries(w, sink.series, mem) }); err != nil {
			return written, err
		}
	} else if err := p.Store.Delete(ctx, store.TableKey(string(results.TableSeries), exp, name)); err != nil {
		return written, err
	}
	if sink.tmp == nil {
		return written, p.Store.Delete(ctx, store.TableKey(string(results.TableSamples), exp, name))
	}
	f, err := os.Open(sink.tmp.Name())
	if err != nil {
		return written, err
	}
	defer f.Close()
	key := store.TableKey(string(results.TableSamples), exp, name)
	if err := p.Store.Put(ctx, key, f); err != nil {
		return written, err
	}
	return append(written, key), nil
}

// Reject records that the source name of experiment exp could not be
// used, and why: it writes rejected/<experiment>/<source-id>.json (with
// the line of a *ingest.SyntaxError) and removes the source's tables, so
// no earlier version of it stays in the analysis. It returns a
// *RejectedError for cause, or the store's error.
func (p *Pipeline) Reject(ctx context.Context, exp, name string, modTime time.Time, cause error) error {
	rej := Rejection{Key: name, Error: cause.Error()}
	if !modTime.IsZero() {
		rej.Time = modTime.UTC().Format("2006-01-02T15:04:05Z")
	}
	var se *ingest.SyntaxError
	if errors.As(cause, &se) {
		rej.Line = se.Line
	}
	b, err := json.MarshalIndent(rej, "", "  ")
	if err != nil {
		return err
	}
	if err := p.Store.Put(ctx, store.RejectedKey(exp, name), bytes.NewReader(append(b, '\n'))); err != nil {
		return err
	}
	for _, t := range tables {
		if err := p.Store.Delete(ctx, store.TableKey(string(t), exp, name)); err != nil {
			return err
		}
	}
	return &RejectedError{Source: name, Err: cause}
}

// Prune removes the table files and rejection records of experiment exp
// whose source is not among keep, and returns their keys. The command
// line uses it to make its inputs the whole experiment: what else is in
// the partition is loadverdict's own output of an earlier invocation.
// Nothing outside the experiment's partitions is touched.
func (p *Pipeline) Prune(ctx context.Context, exp string, keep []string) ([]string, error) {
	if err := store.CheckExperiment(exp); err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, k := range keep {
		ids[store.SourceID(k)] = true
	}
	prefixes := []string{store.RejectedPrefixOf(exp)}
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
			id := path.Base(o.Key)
			id = strings.TrimSuffix(strings.TrimSuffix(id, ".parquet"), ".json")
			if ids[id] {
				continue
			}
			if err := p.Store.Delete(ctx, o.Key); err != nil {
				return removed, err
			}
			removed = append(removed, o.Key)
		}
	}
	return removed, nil
}

// tableSink collects runs and series and streams samples to a temporary
// Parquet file (a SampleStream: encoded on a goroutine of its own, while
// the parser's goroutine aggregates).
type tableSink struct {
	dir    string
	runs   []results.RunWithPercentiles
	series []results.Series
	tmp    *os.File
	w      *results.SampleStream
}

func (s *tableSink) Run(r results.RunWithPercentiles) error { s.runs = append(s.runs, r); return nil }
func (s *tableSink) Series(x results.Series) error          { s.series = append(s.series, x); return nil }
func (s *tableSink) Sample(x results.Sample) error {
	if s.w == nil {
		f, err := os.CreateTemp(s.dir, "loadverdict-samples-*.parquet")
		if err != nil {
			return err
		}
		w, err := results.NewSampleStream(f, memory.NewGoAllocator())
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			return err
		}
		s.tmp, s.w = f, w
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
