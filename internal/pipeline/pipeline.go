package pipeline

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

// Pipeline runs the bucket pipeline on a store.
type Pipeline struct {
	Store store.Store
	// GeneratedBy names the producer in reports, e.g. "loadverdict v0.1.0".
	GeneratedBy string
	// TempDir holds samples tables while they are written ("" = os.TempDir()).
	TempDir string
}

// ForBucket returns the pipeline of an S3 bucket (endpoint: an
// S3-compatible server's URL, or "" for AWS), as the functions use it.
func ForBucket(ctx context.Context, bucket, endpoint, generatedBy string) (*Pipeline, error) {
	if bucket == "" {
		return nil, errors.New("LOADVERDICT_BUCKET is not set")
	}
	st, err := store.NewS3(ctx, "s3://"+bucket, store.S3Options{Endpoint: endpoint})
	if err != nil {
		return nil, err
	}
	return &Pipeline{Store: st, GeneratedBy: generatedBy}, nil
}

// Rejection is the record written to rejected/<experiment>/<source-id>.json.
type Rejection struct {
	Key   string `json:"key"`
	Error string `json:"error"`
	Line  int    `json:"line,omitempty"`
	// Time is the upload's modification time (not the time of processing,
	// so that processing the same upload twice writes the same bytes).
	Time string `json:"time"`
}

// ErrRejected is returned (wrapped) by Ingest for an upload that could not
// be parsed; its record is in rejected/.
var ErrRejected = errors.New("rejected")

var tables = []results.Table{results.TableRuns, results.TablePercentiles, results.TableSeries, results.TableSamples}

// Ingest reads the raw upload at key and writes its tables. It never
// modifies or deletes anything under raw/. The manifest is not ingested.
// An upload that cannot be parsed gets a rejected/ record (and any tables
// of an earlier version of it are removed) and an error wrapping
// ErrRejected; other errors (the store's) are worth a retry.
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
	sink, err := newTableSink(p.TempDir)
	if err != nil {
		return exp, err
	}
	defer sink.cleanup()
	perr := ingest.Parse(ctx, rc, ingest.Options{Source: key, Experiment: exp}, sink)
	if perr == nil {
		perr = sink.closeSamples()
	}
	if perr != nil {
		var se *ingest.SyntaxError
		var no *ingest.NoOutputError
		if !errors.As(perr, &se) && !errors.As(perr, &no) {
			return exp, perr // a read or write error: retry
		}
		rej := Rejection{Key: key, Error: perr.Error(), Time: obj.ModTime.UTC().Format("2006-01-02T15:04:05Z")}
		if se != nil {
			rej.Line = se.Line
		}
		b, _ := json.MarshalIndent(rej, "", "  ")
		if err := p.Store.Put(ctx, store.RejectedKey(exp, key), bytes.NewReader(append(b, '\n'))); err != nil {
			return exp, err
		}
		for _, t := range tables {
			if err := p.Store.Delete(ctx, store.TableKey(string(t), exp, key)); err != nil {
				return exp, err
			}
		}
		return exp, fmt.Errorf("%s: %w: %v", key, ErrRejected, perr)
	}
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
	put := func(t results.Table, write func(io.Writer) error) error {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return err
		}
		return p.Store.Put(ctx, store.TableKey(string(t), exp, key), &buf)
	}
	if err := put(results.TableRuns, func(w io.Writer) error { return results.WriteRuns(w, runs, mem) }); err != nil {
		return exp, err
	}
	if err := put(results.TablePercentiles, func(w io.Writer) error { return results.WritePercentiles(w, pcts, mem) }); err != nil {
		return exp, err
	}
	if len(sink.series) > 0 {
		if err := put(results.TableSeries, func(w io.Writer) error { return results.WriteSeries(w, sink.series, mem) }); err != nil {
			return exp, err
		}
	} else if err := p.Store.Delete(ctx, store.TableKey(string(results.TableSeries), exp, key)); err != nil {
		return exp, err
	}
	if sink.tmp != nil {
		f, err := os.Open(sink.tmp.Name())
		if err != nil {
			return exp, err
		}
		err = p.Store.Put(ctx, store.TableKey(string(results.TableSamples), exp, key), f)
		f.Close()
		if err != nil {
			return exp, err
		}
	} else if err := p.Store.Delete(ctx, store.TableKey(string(results.TableSamples), exp, key)); err != nil {
		return exp, err
	}
	return exp, p.Store.Delete(ctx, store.RejectedKey(exp, key))
}

// tableSink collects runs and series and streams samples to a temporary
// Parquet file.
type tableSink struct {
	dir    string
	runs   []results.RunWithPercentiles
	series []results.Series
	tmp    *os.File
	w      *results.ParquetWriter[results.Sample]
}

func newTableSink(dir string) (*tableSink, error) { return &tableSink{dir: dir}, nil }

func (s *tableSink) Run(r results.RunWithPercentiles) error { s.runs = append(s.runs, r); return nil }
func (s *tableSink) Series(x results.Series) error          { s.series = append(s.series, x); return nil }
func (s *tableSink) Sample(x results.Sample) error {
	if s.w == nil {
		f, err := os.CreateTemp(s.dir, "loadverdict-samples-*.parquet")
		if err != nil {
			return err
		}
		w, err := results.NewSamplesWriter(f, memory.NewGoAllocator())
		if err != nil {
			f.Close()
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
	if s.tmp != nil {
		s.tmp.Close()
		os.Remove(s.tmp.Name())
	}
}

// Covers records what a report was made from: written as
// reports/<experiment>/covers.json, compared by Reanalyze.
type Covers struct {
	AnalysisVersion int               `json:"analysis_version"`
	GeneratedBy     string            `json:"generated_by"`
	Inputs          map[string]string `json:"inputs"` // key -> ETag of every table, rejection and manifest read
}

// inputs lists what an experiment's analysis reads, with ETags.
func (p *Pipeline) inputs(ctx context.Context, exp string) (map[string]string, error) {
	in := map[string]string{}
	prefixes := []string{store.TablePrefix(string(results.TableRuns), exp), store.TablePrefix(string(results.TablePercentiles), exp),
		store.TablePrefix(string(results.TableSeries), exp), store.RejectedPrefixOf(exp)}
	for _, pre := range prefixes {
		objs, err := p.Store.List(ctx, pre)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			in[o.Key] = o.ETag
		}
	}
	if o, err := p.Store.Head(ctx, store.ManifestKey(exp)); err == nil {
		in[o.Key] = o.ETag
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	return in, nil
}

// Analyze makes the report of an experiment from its tables and writes it
// under reports/<experiment>/. After writing it lists the inputs again and,
// when an upload finished meanwhile, analyses again: the last analysis to
// finish has seen every table written before it started, so no report is
// left missing a run that an earlier analysis wrote over.
func (p *Pipeline) Analyze(ctx context.Context, exp string) (string, error) {
	if err := store.CheckExperiment(exp); err != nil {
		return "", err
	}
	for range 5 {
		before, err := p.inputs(ctx, exp)
		if err != nil {
			return "", err
		}
		headline, err := p.analyzeOnce(ctx, exp, before)
		if err != nil {
			return "", err
		}
		after, err := p.inputs(ctx, exp)
		if err != nil {
			return "", err
		}
		if mapsEqual(before, after) {
			return headline, nil
		}
	}
	return "", fmt.Errorf("experiment %s: its tables kept changing during 5 analyses", exp)
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func (p *Pipeline) analyzeOnce(ctx context.Context, exp string, in map[string]string) (string, error) {
	var m *Manifest
	if _, ok := in[store.ManifestKey(exp)]; ok {
		b, _, err := store.ReadAll(ctx, p.Store, store.ManifestKey(exp))
		if err != nil {
			return "", err
		}
		if m, err = ParseManifest(store.ManifestKey(exp), b); err != nil {
			return "", err
		}
	}
	set := analyze.Set{Experiment: exp}
	mem := memory.NewGoAllocator()
	var meta report.Meta
	meta.GeneratedBy = p.GeneratedBy
	for _, key := range slices.Sorted(mapKeys(in)) {
		if key == store.ManifestKey(exp) {
			continue
		}
		b, _, err := store.ReadAll(ctx, p.Store, key)
		if err != nil {
			return "", err
		}
		if strings.HasPrefix(key, store.RejectedPrefix) {
			var rej Rejection
			if err := json.Unmarshal(b, &rej); err != nil {
				return "", fmt.Errorf("%s: %w", key, err)
			}
			meta.Rejected = append(meta.Rejected, report.Rejected{Source: rej.Key, Error: rej.Error})
			continue
		}
		r := bytes.NewReader(b)
		switch {
		case strings.HasPrefix(key, store.TablePrefix(string(results.TableRuns), exp)):
			rows, err := results.ReadRuns(r, mem)
			if err != nil {
				return "", fmt.Errorf("%s: %w", key, err)
			}
			set.Runs = append(set.Runs, rows...)
		case strings.HasPrefix(key, store.TablePrefix(string(results.TablePercentiles), exp)):
			rows, err := results.ReadPercentiles(r, mem)
			if err != nil {
				return "", fmt.Errorf("%s: %w", key, err)
			}
			set.Percentiles = append(set.Percentiles, rows...)
		case strings.HasPrefix(key, store.TablePrefix(string(results.TableSeries), exp)):
			rows, err := results.ReadSeries(r, mem)
			if err != nil {
				return "", fmt.Errorf("%s: %w", key, err)
			}
			set.Series = append(set.Series, rows...)
		}
	}
	slices.SortFunc(meta.Rejected, func(a, b report.Rejected) int { return cmp.Compare(a.Source, b.Source) })
	// Execution order: the manifest's order, then the other sources by
	// key; runs in file order.
	rank := map[string]int{}
	if m != nil {
		for i, k := range m.Order {
			rank[k] = i - len(m.Order)
		}
	}
	slices.SortStableFunc(set.Runs, func(a, b results.Run) int {
		return cmp.Or(cmp.Compare(rank[a.Source], rank[b.Source]), cmp.Compare(a.Source, b.Source), cmp.Compare(a.Index, b.Index))
	})
	for i := range set.Runs {
		set.Runs[i].Seq = int32(i)
		if m != nil {
			if l, ok := m.Labels[set.Runs[i].Label]; ok {
				set.Runs[i].Label = l
			}
		}
		if i == 0 || set.Runs[i].Source != set.Runs[i-1].Source {
			meta.Inputs = append(meta.Inputs, set.Runs[i].Source)
		}
	}
	if len(set.Runs) == 0 {
		return "", fmt.Errorf("experiment %s has no runs yet", exp)
	}
	opts := analyze.DefaultOptions()
	m.apply(&opts)
	v, err := analyze.Analyze(set, opts)
	if err != nil {
		return "", err
	}
	files, err := Render(v, set, meta)
	if err != nil {
		return "", err
	}
	for _, f := range files {
		if err := p.Store.Put(ctx, store.ReportKey(exp, f.Name), bytes.NewReader(f.Data)); err != nil {
			return "", err
		}
	}
	cov, _ := json.MarshalIndent(Covers{AnalysisVersion: analyze.AnalysisVersion, GeneratedBy: p.GeneratedBy, Inputs: in}, "", "  ")
	return v.Headline, p.Store.Put(ctx, store.ReportKey(exp, "covers.json"), bytes.NewReader(append(cov, '\n')))
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Experiments lists the experiments that have tables or rejections.
func (p *Pipeline) Experiments(ctx context.Context) ([]string, error) {
	seen := map[string]bool{}
	objs, err := p.Store.List(ctx, store.TablesPrefix+string(results.TableRuns)+"/")
	if err != nil {
		return nil, err
	}
	for _, o := range objs {
		if exp, ok := store.ExperimentOfKey(o.Key); ok {
			seen[exp] = true
		}
	}
	rej, err := p.Store.List(ctx, store.RejectedPrefix)
	if err != nil {
		return nil, err
	}
	for _, o := range rej {
		if exp, ok := store.ExperimentOfKey(o.Key); ok {
			seen[exp] = true
		}
	}
	out := slices.Sorted(func(yield func(string) bool) {
		for k := range seen {
			if !yield(k) {
				return
			}
		}
	})
	return out, nil
}

// Stale tells whether an experiment's report is missing, made by an older
// analysis version or by another build, or made from other inputs than
// those in the store now.
func (p *Pipeline) Stale(ctx context.Context, exp string) (bool, error) {
	b, _, err := store.ReadAll(ctx, p.Store, store.ReportKey(exp, "covers.json"))
	if errors.Is(err, store.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	var c Covers
	if json.Unmarshal(b, &c) != nil || c.AnalysisVersion < analyze.AnalysisVersion || c.GeneratedBy != p.GeneratedBy {
		return true, nil
	}
	in, err := p.inputs(ctx, exp)
	if err != nil {
		return false, err
	}
	return !mapsEqual(in, c.Inputs), nil
}

// Reanalyze analyses the given experiment, or every experiment (all), or
// every experiment whose report is stale (neither). It returns those
// analysed; an experiment that fails does not stop the others.
func (p *Pipeline) Reanalyze(ctx context.Context, experiment string, all bool) ([]string, error) {
	exps := []string{experiment}
	if experiment == "" {
		var err error
		if exps, err = p.Experiments(ctx); err != nil {
			return nil, err
		}
	}
	var done []string
	var errs []error
	for _, exp := range exps {
		if experiment == "" && !all {
			stale, err := p.Stale(ctx, exp)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if !stale {
				continue
			}
		}
		if _, err := p.Analyze(ctx, exp); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", exp, err))
			continue
		}
		done = append(done, exp)
	}
	return done, errors.Join(errs...)
}
