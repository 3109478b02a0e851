package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/loadverdict/loadverdict/results"
)

func runIngest(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "ingest", "--out DIR [--experiment NAME] [--label host:port=name]... FILE...",
		"Parse the inputs and write the normalized tables (SCHEMA.md) as Parquet files:\n"+
			"DIR/tables/<table>/experiment=<name>/<source-id>.parquet, one file per input and table.\n"+
			"The inputs are only read, never modified.\n"+
			"With --store, the arguments are keys under raw/ of the store: they are ingested into\n"+
			"its tables/ and their experiments analysed into reports/, as the ingest function does.")
	out := fs.String("out", "", "output `DIR` (required without --store)")
	in := addInputFlags(fs)
	sf := addStoreFlags(fs)
	if hasFlag(args, "store") {
		keys, err := parseInterspersed(fs, args)
		if err != nil {
			return err
		}
		if len(keys) == 0 {
			fs.Usage()
			return usagef("ingest: no keys given")
		}
		return ingestStore(ctx, sf, keys, e)
	}
	files, opts, err := in.parse(fs, args)
	if err != nil {
		return err
	}
	if *out == "" {
		fs.Usage()
		return usagef("ingest: --out DIR is required")
	}
	sources, _, loadErr := loadSources(ctx, files, opts, *out, e)
	written, err := writeTables(*out, opts.Experiment, sources)
	if err != nil {
		return err
	}
	for _, p := range written {
		fmt.Fprintln(e.stdout, p)
	}
	return loadErr
}

// sourceID names a source's files in the tables: the first 16 hex digits
// of sha256(source), stable for the same object key or path.
func sourceID(source string) string {
	sum := sha256.Sum256([]byte(source))
	return hex.EncodeToString(sum[:8])
}

// tablePath is where one source's rows of one table live under dir, in the
// Hive-style layout that Athena, DuckDB and Spark read as a partition.
func tablePath(dir string, table results.Table, experiment, source string) string {
	return filepath.Join(dir, "tables", string(table), "experiment="+experiment, sourceID(source)+".parquet")
}

// writeTables writes the runs, percentiles and series of every source and
// returns the paths written, with the samples tables written while parsing.
func writeTables(dir, experiment string, sources []source) ([]string, error) {
	mem := memory.NewGoAllocator()
	var written []string
	for _, s := range sources {
		runs := make([]results.Run, len(s.runs))
		var pcts []results.Percentile
		for i, r := range s.runs {
			runs[i] = r.Run
			for _, p := range r.Percentiles {
				p.RunID = r.RunID
				pcts = append(pcts, p)
			}
		}
		p := tablePath(dir, results.TableRuns, experiment, s.name)
		if err := writeFileAtomic(p, func(w io.Writer) error { return results.WriteRuns(w, runs, mem) }); err != nil {
			return written, err
		}
		written = append(written, p)
		p = tablePath(dir, results.TablePercentiles, experiment, s.name)
		if err := writeFileAtomic(p, func(w io.Writer) error { return results.WritePercentiles(w, pcts, mem) }); err != nil {
			return written, err
		}
		written = append(written, p)
		if len(s.series) > 0 {
			p = tablePath(dir, results.TableSeries, experiment, s.name)
			if err := writeFileAtomic(p, func(w io.Writer) error { return results.WriteSeries(w, s.series, mem) }); err != nil {
				return written, err
			}
			written = append(written, p)
		}
		if s.samples != "" {
			written = append(written, s.samples)
		}
	}
	return written, nil
}

// writeFileAtomic writes a file through a temporary file in the same
// folder and renames it into place, so a reader never sees half a file.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// hasFlag tells whether args set the flag name (-name, --name, -name=..., --name=...).
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		a = strings.TrimLeft(a, "-")
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}
