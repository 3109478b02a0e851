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
)

// Pipeline runs the bucket pipeline on a store.
type Pipeline struct {
	Store store.Store
	// GeneratedBy names the producer in reports, e.g. "loadverdict v0.1.0".
	GeneratedBy string
	// TempDir holds samples tables while they are written ("" = os.TempDir()).
	TempDir string
	// Catalog, when set, registers an experiment's partition of every
	// table as its tables are written (the Glue Data Catalog, for
	// Athena); nil for none (a local store).
	Catalog Catalog
	// Parsed, when set, keeps what IngestSource parsed of each source it
	// committed, and the analyses read a generation held from memory
	// instead of its table files (the command line's); nil for none.
	Parsed *Parsed

	index *tableIndex // IndexTables
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
	return Open(ctx, "s3://"+bucket, endpoint, generatedBy)
}

// Open returns the pipeline of a store: s3://BUCKET[/prefix] (endpoint:
// an S3-compatible server's URL, or "" for AWS) or a local folder laid
// out like the bucket (store.Open), as --store names it.
func Open(ctx context.Context, where, endpoint, generatedBy string) (*Pipeline, error) {
	st, err := store.Open(ctx, where, store.S3Options{Endpoint: endpoint})
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

// Experiments lists the experiments that have commit records, rejection
// records or uploads.
func (p *Pipeline) Experiments(ctx context.Context) ([]string, error) {
	seen := map[string]bool{}
	for _, pre := range []string{store.CommitsPrefix, store.RejectedPrefix} {
		objs, err := p.Store.List(ctx, pre)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			if exp, ok := store.ExperimentOfKey(o.Key); ok {
				seen[exp] = true
			}
		}
	}
	raw, err := p.Store.List(ctx, store.RawPrefix)
	if err != nil {
		return nil, err
	}
	for _, o := range raw {
		if exp, err := store.ExperimentOf(o.Key); err == nil {
			seen[exp] = true
		}
	}
	return slices.Sorted(maps.Keys(seen)), nil
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

// Reanalyze repairs and analyses the given experiment, or every
// experiment (all), or every experiment that needed a repair or whose
// report is stale (neither). Repair (Repair) compares each experiment's
// uploads with its commit records first. It returns the experiments
// analysed, then (without an experiment) the series it re-made, as
// "_series/<name>" (ReanalyzeSeries). An experiment that fails does not stop the others; the error
// joins the failures, all of them about the infrastructure (input faults
// are recorded and reported, never returned).
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
		repaired, err := p.Repair(ctx, exp)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", exp, err))
			continue
		}
		if experiment == "" && !all && len(repaired) == 0 {
			stale, err := p.Stale(ctx, exp)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", exp, err))
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
	if experiment == "" {
		// The schedule keeps every series current too.
		series, err := p.ReanalyzeSeries(ctx, all)
		done = append(done, series...)
		errs = append(errs, err)
	}
	return done, errors.Join(errs...)
}
