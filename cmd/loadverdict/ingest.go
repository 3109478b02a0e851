package main

import (
	"context"
	"fmt"

	"github.com/loadverdict/loadverdict/internal/local"
)

func runIngest(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "ingest", "--out DIR [--experiment NAME] FILE...  |  --store DIR|s3://BUCKET [--endpoint URL] KEY...",
		"Parse the inputs and write the normalized tables (SCHEMA.md) as Parquet files:\n"+
			"DIR/tables/<table>/experiment=<name>/<source-id>.parquet, one file per input and table,\n"+
			"through the bucket pipeline over DIR as a local store (an input that cannot be parsed\n"+
			"gets DIR/rejected/<name>/<source-id>.json). It adds to (or replaces) the inputs' own\n"+
			"tables and never touches other experiments'. The inputs are only read; files named\n"+
			"loadverdict.yaml are manifests, not inputs.\n"+
			"With --store, the arguments are keys under raw/ of the store: they are ingested into\n"+
			"its tables/ and their experiments analysed into reports/, as the ingest function does.")
	out := fs.String("out", "", "output `DIR` (required without --store)")
	r := addInputFlags(fs, e)
	sf := addStoreFlags(fs)
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if sf.store != "" {
		if len(args) == 0 {
			return usagef("ingest: no keys given")
		}
		return ingestStore(ctx, sf, args, e)
	}
	in, exp, err := resolveInputs("ingest", r, args, &local.Files{Output: *out})
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("ingest: --out DIR is required")
	}
	written, rejected, err := r.Ingest(ctx, *out, exp, in)
	for _, f := range written {
		fmt.Fprintln(e.stdout, f)
	}
	if err != nil {
		return err
	}
	if rejected > 0 {
		return errReported
	}
	return nil
}
