package pipeline

// Reading an experiment's inputs and committed tables: which uploads it
// has (listInputs), their commit records and tables (readInputs), and the
// tables read into an analysis set (readTables).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/results/columnar"
)

// listInputs adds to in the commit records and rejection records of an
// experiment (and its manifest when manifest is set), with ETags. The
// table files are not listed: a generation's files never change, and a
// new generation comes with a new commit record.
func (p *Pipeline) listInputs(ctx context.Context, exp string, manifest bool, in map[string]string) error {
	if err := store.CheckExperiment(exp); err != nil {
		return err
	}
	for _, pre := range []string{store.CommitPrefixOf(exp), store.RejectedPrefixOf(exp)} {
		objs, err := p.Store.List(ctx, pre)
		if err != nil {
			return err
		}
		for _, o := range objs {
			in[o.Key] = o.ETag
		}
	}
	if !manifest {
		return nil
	}
	if o, err := p.Store.Head(ctx, store.ManifestKey(exp)); err == nil {
		in[o.Key] = o.ETag
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return nil
}

// inputs is what an analysis reads of its experiments.
type inputs struct {
	set      analyze.Set
	rejected []Rejection
	removed  []string
	// samples are the committed samples files, by run_id, of the runs
	// read (those of the same generation as the runs; none for a source
	// without samples).
	samples map[string]string
}

// readInputs reads the committed generations and the rejection records
// among in: for each commit record, the table files it names (the
// rejection or removal it records); a rejection record of rejected/ only
// where its source has no commit record (the manifest's, or one whose
// commit was not written). A commit record that names a missing table
// file gives a *MissingTablesError listing every such source. A source
// whose runs would bring the total past MaxRuns (committed by concurrent
// ingests, each of which saw the others' runs unwritten) is not read: it
// is listed as rejected, saying why.
func (p *Pipeline) readInputs(ctx context.Context, exp string, in map[string]string) (inputs, error) {
	res := inputs{set: analyze.Set{Experiment: exp}, samples: map[string]string{}}
	mem := memory.NewGoAllocator()
	committed := map[string]bool{} // experiment-escaped prefix + source id
	keys := slices.Sorted(maps.Keys(in))
	for _, key := range keys {
		if strings.HasPrefix(key, store.CommitsPrefix) {
			id, _ := store.SourceIDOfKey(key)
			e, _ := store.ExperimentOfKey(key)
			committed[e+"\x00"+id] = true
		}
	}
	var missing []string
	runs := map[string]int{} // by experiment, in the commit records read
	expOf := func(key string) string { e, _ := store.ExperimentOfKey(key); return e }
	for _, key := range keys {
		switch {
		case strings.HasPrefix(key, store.CommitsPrefix):
			c, _, err := p.readCommit(ctx, key)
			if err != nil {
				return res, err
			}
			switch {
			case c.Removed:
				res.removed = append(res.removed, c.Key)
			case c.Rejected != nil:
				rej := *c.Rejected
				rej.Experiment, _ = store.ExperimentOfKey(key)
				res.rejected = append(res.rejected, rej)
			case runs[expOf(key)]+c.Runs > maxRuns:
				// Committed by concurrent ingests, each within the bound
				// alone: the analysis reads no more (MaxRuns).
				e := expOf(key)
				res.rejected = append(res.rejected, Rejection{Key: c.Key, Experiment: e, ETag: c.ETag, VersionID: c.VersionID,
					Error: (&ingest.SyntaxError{File: c.Key, Msg: experimentRunsMsg(e, c.Runs, runs[e])}).Error()})
			default:
				runs[expOf(key)] += c.Runs
				before := len(res.set.Runs)
				ok, err := p.readTables(ctx, expOf(key), c, &res.set, mem)
				if err != nil {
					return res, err
				}
				if !ok {
					missing = append(missing, c.Key)
				}
				if k := c.Table(columnar.TableSamples); k != "" {
					for _, r := range res.set.Runs[before:] {
						res.samples[r.RunID] = k
					}
				}
			}
		case strings.HasPrefix(key, store.RejectedPrefix):
			id, _ := store.SourceIDOfKey(key)
			e, _ := store.ExperimentOfKey(key)
			if committed[e+"\x00"+id] {
				continue
			}
			b, _, err := store.ReadAll(ctx, p.Store, key)
			if errors.Is(err, store.ErrNotFound) {
				continue // removed meanwhile by the commit of its source
			}
			if err != nil {
				return res, err
			}
			var rej Rejection
			if err := json.Unmarshal(b, &rej); err != nil {
				return res, fmt.Errorf("%s: %w", key, err)
			}
			rej.Experiment = e
			res.rejected = append(res.rejected, rej)
		}
	}
	if len(missing) > 0 {
		return res, &MissingTablesError{Sources: missing}
	}
	return res, nil
}

// readTables adds the tables of a committed generation to set; false when
// one of its files is missing.
// A generation this Pipeline holds (Parsed) is taken from memory.
func (p *Pipeline) readTables(ctx context.Context, exp string, c *Commit, set *analyze.Set, mem memory.Allocator) (bool, error) {
	if h := p.Parsed.tables(exp, c.Key, c.Generation); h != nil {
		set.Runs = append(set.Runs, h.runs...)
		set.Percentiles = append(set.Percentiles, h.pcts...)
		set.Series = append(set.Series, h.series...)
		return true, nil
	}
	var runs []results.Run
	var pcts []results.Percentile
	var series []results.Series
	for _, key := range c.Tables {
		table, ok := tableOf(key)
		if !ok || table == columnar.TableSamples {
			continue
		}
		b, _, err := store.ReadAll(ctx, p.Store, key)
		if errors.Is(err, store.ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		r := bytes.NewReader(b)
		switch table {
		case columnar.TableRuns:
			runs, err = columnar.ReadRuns(r, mem)
		case columnar.TablePercentiles:
			pcts, err = columnar.ReadPercentiles(r, mem)
		case columnar.TableSeries:
			series, err = columnar.ReadSeries(r, mem)
		}
		if err != nil {
			return false, fmt.Errorf("%s: %w", key, err)
		}
	}
	set.Runs = append(set.Runs, runs...)
	set.Percentiles = append(set.Percentiles, pcts...)
	set.Series = append(set.Series, series...)
	return true, nil
}

// tableOf tells which table a key of tables/ belongs to.
func tableOf(key string) (columnar.Table, bool) {
	rest, ok := strings.CutPrefix(key, store.TablesPrefix)
	if !ok {
		return "", false
	}
	t, _, ok := strings.Cut(rest, "/experiment=")
	return columnar.Table(t), ok
}

// SamplesInMemory is the largest samples table an object store's is read
// into memory to be scanned; a larger one is copied to a temporary file
// in TempDir first, and a local store's is read where it lies: the file is
// never held whole (5-6 bytes a request: 22 MiB at 4M requests).
const SamplesInMemory = 8 << 20

// samplesInMemory is SamplesInMemory, which tests lower.
var samplesInMemory int64 = SamplesInMemory

// readSamples is assembly's experiment.SampleReader: it scans the samples
// table at key of the store (SamplesInMemory); a table gone is a
// *MissingTablesError naming source.
func (p *Pipeline) readSamples(ctx context.Context, key, source string, fn func(results.Sample) error) error {
	rc, obj, err := p.Store.Get(ctx, key)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return &MissingTablesError{Sources: []string{source}}
		}
		return err
	}
	defer rc.Close()
	if f, ok := rc.(*store.File); ok {
		if err := columnar.ScanSamples(f, memory.NewGoAllocator(), fn); err != nil {
			return err
		}
		return f.Unchanged()
	}
	if obj.Size <= samplesInMemory {
		b, err := io.ReadAll(rc)
		if err != nil {
			return err
		}
		return columnar.ScanSamples(bytes.NewReader(b), memory.NewGoAllocator(), fn)
	}
	tmp, err := os.CreateTemp(p.TempDir, "loadverdict-read-*.parquet")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if _, err := io.Copy(tmp, rc); err != nil {
		return err
	}
	return columnar.ScanSamples(tmp, memory.NewGoAllocator(), fn)
}
