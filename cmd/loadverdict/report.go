package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

func runReport(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "report", "[-o DIR] [--label host:port=name]... [--baseline LABEL] FILE...",
		"Parse the inputs, write their tables under DIR/tables/, analyze the experiment\n"+
			"(warm-up, steady state, comparison, capacity, methodology) and write the verdict:\n"+
			"DIR/report.md with its PNG figures, and DIR/summary.json.\n"+
			"Prints the headline verdict. The inputs are only read, never modified.")
	out := fs.String("o", "out", "output `DIR`")
	baseline := fs.String("baseline", "", "compare every other system against this `label`")
	in := addInputFlags(fs)
	files, opts, err := in.parse(fs, args)
	if err != nil {
		return err
	}
	sources, bad, loadErr := loadSources(ctx, files, opts, *out, e)
	if len(sources) == 0 {
		if loadErr == nil {
			loadErr = errors.New("no input")
		}
		return loadErr
	}
	written, err := writeTables(*out, opts.Experiment, sources)
	if err != nil {
		return err
	}
	// Analyse what was written: the tables, read back, are the input of the
	// analysis, exactly as in the bucket pipeline.
	set, err := readSet(opts.Experiment, written)
	if err != nil {
		return err
	}
	aopts := analyze.DefaultOptions()
	aopts.Baseline = *baseline
	v, err := analyze.Analyze(set, aopts)
	if err != nil {
		return err
	}
	meta := report.Meta{GeneratedBy: "loadverdict " + Version()}
	for _, s := range sources {
		meta.Inputs = append(meta.Inputs, s.name)
	}
	for _, b := range bad {
		meta.Rejected = append(meta.Rejected, report.Rejected{Source: b.name, Error: b.err.Error()})
	}
	if err := writeReport(*out, v, set, meta); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, report.Headline(v))
	fmt.Fprintf(e.stdout, "\nreport: %s\nsummary: %s\n", filepath.Join(*out, "report.md"), filepath.Join(*out, "summary.json"))
	return loadErr
}

// writeReport writes the figures, report.md and summary.json of a verdict
// into dir.
func writeReport(dir string, v *analyze.Verdict, set analyze.Set, meta report.Meta) error {
	files, err := pipeline.Render(v, set, meta)
	if err != nil {
		return err
	}
	for _, f := range files {
		data := f.Data
		if err := writeFileAtomic(filepath.Join(dir, f.Name), func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// readSet reads the tables written for an experiment back into an
// analysis input.
func readSet(experiment string, paths []string) (analyze.Set, error) {
	mem := memory.NewGoAllocator()
	set := analyze.Set{Experiment: experiment}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return set, err
		}
		switch filepath.Base(filepath.Dir(filepath.Dir(p))) {
		case string(results.TableRuns):
			var rows []results.Run
			rows, err = results.ReadRuns(f, mem)
			set.Runs = append(set.Runs, rows...)
		case string(results.TablePercentiles):
			var rows []results.Percentile
			rows, err = results.ReadPercentiles(f, mem)
			set.Percentiles = append(set.Percentiles, rows...)
		case string(results.TableSeries):
			var rows []results.Series
			rows, err = results.ReadSeries(f, mem)
			set.Series = append(set.Series, rows...)
		}
		f.Close()
		if err != nil {
			return set, fmt.Errorf("reading %s: %w", p, err)
		}
	}
	return set, nil
}
