package local

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
)

// History is history's one call on local folders: it ingests each
// argument (a folder, or a file) as one experiment named after it, with
// its loadverdict.yaml, into the output folder dir, names the series
// (req.Series, else the one the manifests name, else the first argument's
// parent folder), analyses the series and writes its report into dir. It
// returns the report (nil on error) and how many inputs were rejected.
// Two arguments with the same name are an *ArgError: their tables would
// share a partition.
// The output folder is locked meanwhile, as by Report.
func (r *Runner) History(ctx context.Context, dir string, args []string, req pipeline.HistoryRequest) (*pipeline.HistoryReport, int, error) {
	exps, in, manSeries, err := seriesInputs(args, dir)
	if err != nil {
		return nil, 0, err
	}
	unlock, err := r.begin(dir, in)
	if err != nil {
		return nil, 0, err
	}
	defer unlock()
	p, rejected, err := r.ingestSeries(ctx, dir, args, exps, manSeries, &req)
	if err != nil {
		return nil, rejected, err
	}
	h, err := p.History(ctx, req)
	if err != nil {
		return nil, rejected, dropReport(ctx, p, dir, seriesError(err))
	}
	return h, rejected, writeFiles(ctx, p, dir, h.Files)
}

// seriesError makes a series' own mistakes (an accepted experiment that
// is not in it, an order that cannot be kept) *ArgErrors.
func seriesError(err error) error {
	var ae *pipeline.AcceptError
	var oe *analyze.OrderError
	if errors.As(err, &ae) || errors.As(err, &oe) {
		return argErrorf("history: %v", err)
	}
	return err
}

// StoreHistory is history's one call on a store: the experiments of the
// store open opens whose manifest names req.Series (a name that is no
// series is an *ArgError listing the series), analysed as a series; the
// report is written into the output folder dir unless dir is "", never
// into the store.
func (r *Runner) StoreHistory(ctx context.Context, open func(context.Context) (*pipeline.Pipeline, error), dir string, req pipeline.HistoryRequest) (*pipeline.HistoryReport, error) {
	p, err := open(ctx)
	if err != nil {
		return nil, err
	}
	all, err := p.Series(ctx)
	if err != nil {
		return nil, err
	}
	known := slices.Sorted(maps.Keys(all))
	list := "none"
	if len(known) > 0 {
		list = strings.Join(known, ", ")
	}
	if req.Series == "" {
		return nil, argErrorf("history: --store needs --series NAME; the series are: %s", list)
	}
	if len(all[req.Series]) == 0 {
		return nil, argErrorf("history: no experiment of %s names series %q in its manifest; the series are: %s", p.Store, req.Series, list)
	}
	req.Experiments = all[req.Series]
	h, err := p.History(ctx, req)
	if err != nil || dir == "" {
		return h, seriesError(err)
	}
	return h, r.write(ctx, dir, h.Files)
}

// experimentInput is one experiment of a series from local files.
type experimentInput struct {
	name  string
	files []string
	m     *experiment.Manifest
}

// ingestSeries ingests each argument as one experiment into the local
// store in dir, and fills req's experiments, manifests and series.
func (r *Runner) ingestSeries(ctx context.Context, dir string, args []string, exps []experimentInput, manSeries map[string][]string, req *pipeline.HistoryRequest) (*pipeline.Pipeline, int, error) {
	var err error
	if req.Series == "" {
		if req.Series, err = seriesName(args[0], manSeries); err != nil {
			return nil, 0, err
		}
	}
	if err := experiment.CheckSeries(req.Series); err != nil {
		return nil, 0, argErrorf("history: --series: %v", err)
	}
	p, err := r.Open(dir)
	if err != nil {
		return nil, 0, err
	}
	// The experiments are analysed from the runs parsed, not from the
	// tables written (pipeline.Parsed).
	p.Parsed = &pipeline.Parsed{Samples: true}
	rejected := 0
	req.Manifests = map[string]*experiment.Manifest{}
	for _, x := range exps {
		_, rej, err := r.ingestFiles(ctx, p, x.name, x.files)
		if err != nil {
			return nil, rejected, err
		}
		rejected += rej
		if _, err := p.Prune(ctx, x.name, sourceNames(x.files)); err != nil {
			return nil, rejected, err
		}
		req.Experiments = append(req.Experiments, x.name)
		req.Manifests[x.name] = x.m
	}
	return p, rejected, nil
}

// seriesInputs resolves the arguments of a series, one experiment each
// (output is the output folder), all their files, and the series their
// manifests name (with the arguments naming each). A file in two
// experiments (the same file by device and inode) is an *ArgError.
func seriesInputs(args []string, output string) ([]experimentInput, *Inputs, map[string][]string, error) {
	var exps []experimentInput
	seen := map[string]string{}
	manSeries := map[string][]string{}
	in := newInputs(output)
	owner := map[string]string{} // input file -> its experiment's argument
	for _, arg := range args {
		if arg == "-" {
			return nil, nil, nil, argErrorf("history: standard input cannot be an experiment")
		}
		if _, err := os.Stat(arg); err != nil {
			return nil, nil, nil, argErrorf("history: %s: %v", arg, errors.Unwrap(err))
		}
		name := experimentName(arg)
		if other, ok := seen[name]; ok {
			return nil, nil, nil, argErrorf("history: %s and %s would both be experiment %q: rename one folder", other, arg, name)
		}
		seen[name] = arg
		before := len(in.Manifests)
		files, err := in.add(arg)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, f := range files {
			if other, ok := owner[f]; ok && other != arg {
				return nil, nil, nil, argErrorf("history: %s and %s both hold the file %s (the same file by another name): an input belongs to one experiment", other, arg, f)
			}
			owner[f] = arg
		}
		if len(files) == 0 {
			return nil, nil, nil, argErrorf("history: %s: no input files there", arg)
		}
		m, err := LoadManifest("", in.Manifests[before:])
		if err != nil {
			return nil, nil, nil, err
		}
		if m != nil && m.Series != "" {
			manSeries[m.Series] = append(manSeries[m.Series], arg)
		}
		exps = append(exps, experimentInput{name: name, files: files, m: m})
	}
	return exps, in, manSeries, nil
}

// seriesName names a series from local folders: the one series the
// manifests name (several are an *ArgError), else the first argument's
// parent folder.
func seriesName(first string, manSeries map[string][]string) (string, error) {
	switch len(manSeries) {
	case 0:
		parent := filepath.Base(filepath.Dir(filepath.Clean(first)))
		if abs, err := filepath.Abs(first); err == nil {
			parent = filepath.Base(filepath.Dir(abs))
		}
		return store.SanitizeName(parent), nil
	case 1:
		for s := range manSeries {
			return s, nil
		}
	}
	var parts []string
	for _, s := range slices.Sorted(maps.Keys(manSeries)) {
		parts = append(parts, fmt.Sprintf("%q (%s)", s, strings.Join(manSeries[s], ", ")))
	}
	return "", argErrorf("history: the manifests name several series: %s; choose one with --series", strings.Join(parts, ", "))
}
