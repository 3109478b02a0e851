package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/results"
)

// labelFlag collects repeated --label host:port=name mappings.
type labelFlag map[string]string

func (l labelFlag) String() string {
	parts := make([]string, 0, len(l))
	for k, v := range l {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ",")
}

func (l labelFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" || v == "" {
		return fmt.Errorf("want host:port=name, got %q", s)
	}
	l[k] = v
	return nil
}

// inputFlags are the flags of every command that reads inputs.
type inputFlags struct {
	experiment string
	labels     labelFlag
	window     time.Duration
}

// addInputFlags declares --experiment and --label on fs.
func addInputFlags(fs *flag.FlagSet) *inputFlags {
	in := &inputFlags{labels: labelFlag{}}
	fs.StringVar(&in.experiment, "experiment", "", "experiment `name` (default: the first file's name)")
	fs.Var(in.labels, "label", "name a system: `host:port=name`, or a file name for logs without a target (repeatable)")
	fs.DurationVar(&in.window, "window", time.Second, "`width` of the time windows built from per-request logs")
	return in
}

// parse parses args with fs, requires at least one input file and returns
// the files and the parse options.
func (in *inputFlags) parse(fs *flag.FlagSet, args []string) ([]string, ingest.Options, error) {
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, ingest.Options{}, err
	}
	files, err := expandInputs(args)
	if err != nil {
		return nil, ingest.Options{}, err
	}
	if len(files) == 0 {
		fs.Usage()
		return nil, ingest.Options{}, usagef("%s: no input files", fs.Name())
	}
	opts, err := in.options(files)
	return files, opts, err
}

// options validates the flags for the given files and returns the parse
// options (the experiment defaults to the first file's name).
func (in *inputFlags) options(files []string) (ingest.Options, error) {
	if in.experiment == "" {
		in.experiment = defaultExperiment(files)
	}
	if err := checkExperiment(in.experiment); err != nil {
		return ingest.Options{}, err
	}
	if in.window <= 0 {
		return ingest.Options{}, usagef("--window must be positive, got %s", in.window)
	}
	return ingest.Options{Experiment: in.experiment, Labels: in.labels, WindowS: in.window.Seconds()}, nil
}

// source is one parsed input: its runs in file order, the series of its
// per-request runs, and where its samples were written.
type source struct {
	name    string
	runs    []results.RunWithPercentiles
	series  []results.Series
	samples string // path of the samples table written, "" when none
}

// rejected is an input that could not be read or parsed, and why.
type rejected struct {
	name string
	err  error
}

// stdinName is the source name of input read from standard input.
const stdinName = "stdin"

// checkExperiment validates an experiment name given by the user.
func checkExperiment(name string) error {
	if err := store.CheckExperiment(name); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// defaultExperiment names an experiment after its first input file.
func defaultExperiment(files []string) string {
	if len(files) == 0 || files[0] == "-" {
		return "stdin"
	}
	base := filepath.Base(files[0])
	if ext := filepath.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	return store.SanitizeName(base)
}

// expandInputs replaces each folder among args by the files below it, in
// lexical order, leaving out hidden files and folders. A folder and the
// files in it form one experiment.
func expandInputs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if a == "-" || err != nil || !st.IsDir() {
			out = append(out, a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p != a && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// loadSources parses every file in order. Runs get their execution order
// (seq) across all files: files in the order given, runs in file order.
// With a tables folder, each source's per-request samples stream into its
// samples table there as they are read (memory stays bounded); without
// one they are dropped. A file that cannot be read or parsed is reported
// on stderr as "file:line: message" and the others are still parsed; the
// failures are returned too, and the error is errReported when any failed.
func loadSources(ctx context.Context, files []string, opts ingest.Options, tables string, e *env) ([]source, []rejected, error) {
	var out []source
	var bad []rejected
	reject := func(name string, err error) {
		fmt.Fprintln(e.stderr, err)
		bad = append(bad, rejected{name, err})
	}
	seq := int32(0)
	stdinUsed := false
	bar, finish := newProgress(e.stderr, inputSize(files))
	defer finish()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		var r io.Reader
		name := f
		if f == "-" {
			if stdinUsed {
				return nil, nil, usagef("standard input (-) given more than once")
			}
			stdinUsed = true
			r, name = e.stdin, stdinName
		} else {
			fh, err := os.Open(f)
			if err != nil {
				var pe *fs.PathError
				if errors.As(err, &pe) {
					err = fmt.Errorf("%s: %v", f, pe.Err)
				}
				reject(f, err)
				continue
			}
			defer fh.Close()
			r = fh
		}
		if bar != nil {
			r = io.TeeReader(r, bar)
		}
		o := opts
		o.Source = name
		sink := &sourceSink{src: source{name: name}}
		if tables != "" {
			sink.path = tablePath(tables, results.TableSamples, opts.Experiment, name)
		}
		err := ingest.Parse(ctx, r, o, sink)
		if ferr := sink.finish(err == nil); err == nil {
			err = ferr
		}
		if err != nil {
			reject(name, err)
			continue
		}
		src := sink.src
		for i := range src.runs {
			src.runs[i].Seq = seq
			seq++
		}
		out = append(out, src)
	}
	if len(bad) > 0 {
		return out, bad, errReported
	}
	return out, nil, nil
}

// sourceSink collects a source's runs and series and streams its samples
// into a Parquet file, created on the first sample.
type sourceSink struct {
	src  source
	path string // where samples go; "" drops them
	tmp  *os.File
	w    *results.ParquetWriter[results.Sample]
}

func (s *sourceSink) Run(r results.RunWithPercentiles) error {
	s.src.runs = append(s.src.runs, r)
	return nil
}

func (s *sourceSink) Series(x results.Series) error {
	s.src.series = append(s.src.series, x)
	return nil
}

func (s *sourceSink) Sample(x results.Sample) error {
	if s.path == "" {
		return nil
	}
	if s.w == nil {
		if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
			return err
		}
		tmp, err := os.CreateTemp(filepath.Dir(s.path), ".tmp-*")
		if err != nil {
			return err
		}
		w, err := results.NewSamplesWriter(tmp, memory.NewGoAllocator())
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return err
		}
		s.tmp, s.w = tmp, w
	}
	return s.w.Append(x)
}

// finish closes the samples file and moves it into place when the parse
// succeeded, or removes it.
func (s *sourceSink) finish(ok bool) error {
	if s.w == nil {
		return nil
	}
	err := s.w.Close()
	if cerr := s.tmp.Close(); err == nil {
		err = cerr
	}
	if ok && err == nil {
		if err = os.Rename(s.tmp.Name(), s.path); err == nil {
			s.src.samples = s.path
			return nil
		}
	}
	os.Remove(s.tmp.Name())
	return err
}
