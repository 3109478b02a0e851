package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results"
)

// Pipeline runs the bucket pipeline on a store.
type Pipeline struct {
	Store store.Store
	// GeneratedBy names the producer in reports, e.g. "loadverdict v0.1.0".
	GeneratedBy string
	// TempDir holds samples tables while they are written ("" = os.TempDir()).
	TempDir string
	// Catalog, when set, registers an experiment's partition of every
	// table once its tables are written (the Glue Data Catalog, for
	// Athena); nil for none (a local store).
	Catalog Catalog
}

// Catalog registers the partitions of the tables.
type Catalog interface {
	// AddPartitions registers the partition of experiment in every
	// table; it is idempotent.
	AddPartitions(ctx context.Context, experiment string) error
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

// Covers records what a report was made from: written as
// reports/<experiment>/covers.json, compared by Reanalyze.
type Covers struct {
	AnalysisVersion int               `json:"analysis_version"`
	GeneratedBy     string            `json:"generated_by"`
	Inputs          map[string]string `json:"inputs"` // key -> ETag of every table, rejection and manifest read
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
	return p.coversStale(ctx, store.ReportKey(exp, "covers.json"), func(in map[string]string) error {
		return p.listInputs(ctx, exp, true, in)
	})
}

// coversStale tells whether the report whose covers.json is at key is
// missing, made by an older analysis version or another build, or made
// from other inputs than those list finds now.
func (p *Pipeline) coversStale(ctx context.Context, key string, list func(map[string]string) error) (bool, error) {
	b, _, err := store.ReadAll(ctx, p.Store, key)
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
	in := map[string]string{}
	if err := list(in); err != nil {
		return false, err
	}
	return !maps.Equal(in, c.Inputs), nil
}

// remake calls redo for every name that stale says is stale (every name
// when all), and returns the names made (as named); one that fails does
// not stop the others.
func remake(names []string, all bool, stale func(string) (bool, error), redo func(string) error, named func(string) string) ([]string, error) {
	var done []string
	var errs []error
	for _, n := range names {
		if !all {
			st, err := stale(n)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if !st {
				continue
			}
		}
		if err := redo(n); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", named(n), err))
			continue
		}
		done = append(done, named(n))
	}
	return done, errors.Join(errs...)
}

// Reanalyze analyses the given experiment, or every experiment (all), or
// every experiment whose report is stale (neither); without an
// experiment it then re-makes every stale series (every series, with
// all), listed as "_series/<name>". It returns those analysed; one that
// fails does not stop the others.
func (p *Pipeline) Reanalyze(ctx context.Context, experiment string, all bool) ([]string, error) {
	exps := []string{experiment}
	if experiment == "" {
		var err error
		if exps, err = p.Experiments(ctx); err != nil {
			return nil, err
		}
	}
	done, err := remake(exps, experiment != "" || all, func(exp string) (bool, error) { return p.Stale(ctx, exp) },
		func(exp string) error { _, err := p.Analyze(ctx, exp); return err }, func(exp string) string { return exp })
	errs := []error{err}
	if experiment == "" {
		// The schedule keeps every series current too.
		series, err := p.ReanalyzeSeries(ctx, all)
		done = append(done, series...)
		errs = append(errs, err)
	}
	return done, errors.Join(errs...)
}
