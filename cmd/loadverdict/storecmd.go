package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/loadverdict/loadverdict/internal/local"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/version"
)

// storeFlags are the flags of the commands that run the bucket pipeline.
type storeFlags struct {
	store, endpoint string
}

func addStoreFlags(fs *flag.FlagSet) *storeFlags {
	s := &storeFlags{}
	fs.StringVar(&s.store, "store", "", "run the bucket pipeline on `DIR` (a local folder laid out like the bucket) or s3://BUCKET[/prefix]")
	fs.StringVar(&s.endpoint, "endpoint", "", "`URL` of an S3-compatible server (with --store s3://...)")
	return s
}

func (s *storeFlags) pipeline(ctx context.Context) (*pipeline.Pipeline, error) {
	if err := local.CheckStore(s.store, s.endpoint); err != nil {
		return nil, err
	}
	return pipeline.Open(ctx, s.store, s.endpoint, version.GeneratedBy())
}

// ingestStore ingests raw keys of a store and analyses their experiments.
func ingestStore(ctx context.Context, sf *storeFlags, keys []string, e *env) error {
	p, err := sf.pipeline(ctx)
	if err != nil {
		return err
	}
	failed := false
	p.IngestKeys(ctx, keys, func(key, exp string, err error) {
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			failed = true
			if !errors.Is(err, pipeline.ErrRejected) {
				return
			}
		}
		fmt.Fprintf(e.stdout, "%s -> experiment %s\n", key, exp)
	}, func(exp, headline string, err error) {
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			failed = true
			return
		}
		fmt.Fprintf(e.stdout, "%s: %s\n", exp, headline)
	})
	if failed {
		return errReported
	}
	return nil
}

func runAnalyze(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "analyze", "--store DIR|s3://BUCKET [--endpoint URL] EXPERIMENT...",
		"Analyze experiments of a store from their tables and write reports/<experiment>/\n"+
			"(report.md, figures, summary.json); prints each headline.")
	sf := addStoreFlags(fs)
	exps, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(exps) == 0 {
		return usagef("analyze: no experiment given")
	}
	p, err := sf.pipeline(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, exp := range exps {
		headline, err := p.Analyze(ctx, exp)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(e.stdout, "%s: %s\n", exp, headline)
	}
	return errors.Join(errs...)
}

func runReanalyze(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "reanalyze", "--store DIR|s3://BUCKET [--endpoint URL] [--experiment NAME | --all]",
		"Re-make the reports of a store that are missing, made by another version, or older than\n"+
			"their tables (what the scheduled function does); --all re-makes every report.")
	sf := addStoreFlags(fs)
	exp := fs.String("experiment", "", "re-make only this experiment's report")
	all := fs.Bool("all", false, "re-make every report, stale or not")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("reanalyze: unexpected arguments %q", rest)
	}
	p, err := sf.pipeline(ctx)
	if err != nil {
		return err
	}
	done, err := p.Reanalyze(ctx, *exp, *all)
	for _, d := range done {
		fmt.Fprintln(e.stdout, "analysed", d)
	}
	return err
}
