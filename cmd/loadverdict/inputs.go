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
	"slices"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/internal/version"
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
	if err := pipeline.CheckName(v); err != nil {
		return err
	}
	l[k] = v
	return nil
}

// systemSpec is one --system NAME=PATH.
type systemSpec struct{ name, path string }

// systemFlag collects repeated --system NAME=PATH, in order.
type systemFlag []systemSpec

func (s *systemFlag) String() string {
	var parts []string
	for _, x := range *s {
		parts = append(parts, x.name+"="+x.path)
	}
	return strings.Join(parts, ",")
}

func (s *systemFlag) Set(v string) error {
	name, p, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || p == "" {
		return fmt.Errorf("want NAME=PATH (a file or a folder), got %q", v)
	}
	if err := pipeline.CheckName(name); err != nil {
		return err
	}
	*s = append(*s, systemSpec{name, p})
	return nil
}

// mergeFlag collects repeated --merge PATH[,PATH...]: each is one group
// of inputs that are parts of one test.
type mergeFlag [][]string

func (m *mergeFlag) String() string {
	var parts []string
	for _, g := range *m {
		parts = append(parts, strings.Join(g, ","))
	}
	return strings.Join(parts, " ")
}

func (m *mergeFlag) Set(v string) error {
	var paths []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return fmt.Errorf("want PATH[,PATH...] (files or folders), got %q", v)
	}
	*m = append(*m, paths)
	return nil
}

// inputFlags are the flags of every command that reads input files.
type inputFlags struct {
	experiment string
	window     time.Duration
}

// addInputFlags declares --experiment and --window on fs.
func addInputFlags(fs *flag.FlagSet) *inputFlags {
	in := &inputFlags{}
	fs.StringVar(&in.experiment, "experiment", "", "experiment `name` (default: the first input's name)")
	fs.DurationVar(&in.window, "window", time.Second, "`width` of the time windows built from per-request logs")
	return in
}

// experimentFor validates the flags and returns the experiment's name:
// --experiment, else named after the first input (a folder by its name,
// a file by its name without the extension).
func (in *inputFlags) experimentFor(first string) (string, error) {
	if in.window <= 0 {
		return "", usagef("--window must be positive, got %s", in.window)
	}
	exp := in.experiment
	if exp == "" {
		exp = defaultExperiment(first)
	}
	if err := store.CheckExperiment(exp); err != nil {
		return "", usagef("%v", err)
	}
	return exp, nil
}

// parseInputs parses args with fs, resolves the input files and the
// --system flags fs fills into systems (nil for none), and names the
// experiment after the first argument (or the first --system path). At
// least one input file is needed.
func (in *inputFlags) parseInputs(fs *flag.FlagSet, args []string, sf *systemFlag, mf *mergeFlag) (*inputPlan, string, error) {
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, "", err
	}
	var systems systemFlag
	if sf != nil {
		systems = *sf
	}
	var merges mergeFlag
	if mf != nil {
		merges = *mf
	}
	plan, err := planInputs(args, systems, merges)
	if err != nil {
		return nil, "", err
	}
	if len(plan.files) == 0 {
		return nil, "", usagef("%s: no input files", fs.Name())
	}
	first := plan.files[0]
	if len(args) > 0 {
		first = args[0]
	} else if len(systems) > 0 {
		first = systems[0].path
	} else if len(merges) > 0 {
		first = merges[0][0]
	}
	exp, err := in.experimentFor(first)
	return plan, exp, err
}

// stdinName is the source name of input read from standard input.
const stdinName = "stdin"

// defaultExperiment names an experiment after an input.
func defaultExperiment(arg string) string {
	if arg == "" || arg == "-" {
		return stdinName
	}
	return store.SanitizeName(inputName(arg))
}

// inputName is an input's base name: a folder's name, a file's name
// without its extension (and without .gz or .zst before it).
func inputName(arg string) string {
	if abs, err := filepath.Abs(arg); err == nil {
		arg = abs
	}
	base := filepath.Base(arg)
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		return base
	}
	for _, z := range []string{".gz", ".zst"} {
		base = strings.TrimSuffix(base, z)
	}
	if ext := filepath.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// expandArg returns the input files of one argument: a folder stands for
// the files below it in lexical order (hidden files and folders left
// out), "-" for standard input, anything else for itself. Files named
// loadverdict.yaml are never inputs: those at the top of the folder, or
// the argument itself, are returned as manifests. Paths are cleaned.
func expandArg(arg string) (files, manifests []string, err error) {
	if arg == "-" {
		return []string{"-"}, nil, nil
	}
	arg = filepath.Clean(arg)
	st, err := os.Stat(arg)
	if err != nil || !st.IsDir() {
		if filepath.Base(arg) == store.ManifestName {
			return nil, []string{arg}, nil
		}
		return []string{arg}, nil, nil
	}
	err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != arg && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if d.Name() == store.ManifestName {
			if filepath.Dir(p) == arg {
				manifests = append(manifests, p)
			}
			return nil
		}
		files = append(files, p)
		return nil
	})
	return files, manifests, err
}

// inputPlan is what a command reads: its input files, each once, in the
// order given, and the rules of its --system flags.
type inputPlan struct {
	files     []string
	manifests []string // loadverdict.yaml at the top of input folders, or given
	rules     []pipeline.SystemRule
	merges    []pipeline.MergeRule
}

// add appends the files of arg that are not in the plan yet and returns
// all of arg's files.
func (pl *inputPlan) add(arg string) ([]string, error) {
	files, manifests, err := expandArg(arg)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f == "-" && slices.Contains(pl.files, "-") {
			return nil, usagef("standard input (-) given more than once")
		}
		if !slices.Contains(pl.files, f) {
			pl.files = append(pl.files, f)
		}
	}
	for _, m := range manifests {
		if !slices.Contains(pl.manifests, m) {
			pl.manifests = append(pl.manifests, m)
		}
	}
	return files, nil
}

// planInputs resolves the positional arguments and the --system and
// --merge flags: a --system or --merge PATH must exist and hold input
// files, and its files are inputs too.
func planInputs(args []string, systems systemFlag, merges mergeFlag) (*inputPlan, error) {
	pl := &inputPlan{}
	for _, a := range args {
		if _, err := pl.add(a); err != nil {
			return nil, err
		}
	}
	for _, s := range systems {
		files, err := pl.systemFiles(s.path, "--system "+s.name+"="+s.path)
		if err != nil {
			return nil, err
		}
		pl.rules = append(pl.rules, pipeline.SystemRule{Name: s.name, Sources: sourceNames(files), Flag: "--system " + s.name + "=" + s.path})
	}
	for _, g := range merges {
		flag := "--merge " + strings.Join(g, ",")
		var all []string
		for _, path := range g {
			files, err := pl.systemFiles(path, flag)
			if err != nil {
				return nil, err
			}
			all = append(all, files...)
		}
		if len(all) < 2 {
			return nil, usagef("%s: one input file; a merge needs the outputs of two load generators or more", flag)
		}
		pl.merges = append(pl.merges, pipeline.MergeRule{Sources: sourceNames(all), Flag: flag})
	}
	return pl, nil
}

// systemFiles adds the files of a path that names a system or a merge
// group (what says how it was given); it must exist and hold input files.
func (pl *inputPlan) systemFiles(path, what string) ([]string, error) {
	if path == "-" {
		return nil, usagef("%s: standard input cannot be named so", what)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, usagef("%s: %v", what, errors.Unwrap(err))
	}
	files, err := pl.add(path)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, usagef("%s: no input files there", what)
	}
	return files, nil
}

// sourceName is the name of an input file in the tables.
func sourceName(file string) string {
	if file == "-" {
		return stdinName
	}
	return file
}

func sourceNames(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = sourceName(f)
	}
	return out
}

// loadManifest reads the manifest of a command: --manifest FILE when
// given, else the one loadverdict.yaml found in the input folders (more
// than one is a usage error). A manifest that cannot be parsed is a usage
// error naming the key and line.
func loadManifest(flagPath string, found []string) (*pipeline.Manifest, error) {
	path := flagPath
	if path == "" {
		switch len(found) {
		case 0:
			return nil, nil
		case 1:
			path = found[0]
		default:
			return nil, usagef("several manifests (%s): give one with --manifest FILE", strings.Join(found, ", "))
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("--manifest: %v", err)
	}
	defer f.Close()
	b, err := pipeline.ReadManifestFrom(path, f)
	var me *pipeline.ManifestError
	if errors.As(err, &me) {
		return nil, usagef("%v", err)
	}
	if err != nil {
		return nil, usagef("--manifest: %v", err)
	}
	m, err := pipeline.ParseManifest(path, b)
	if err != nil {
		return nil, usagef("%v", err)
	}
	m.Dir = filepath.ToSlash(filepath.Dir(filepath.Clean(path)))
	return m, nil
}

// openLocal returns the pipeline over the local store in dir (created
// when missing): the output folder, laid out like the bucket.
func openLocal(dir string) (*pipeline.Pipeline, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	st, err := store.NewLocal(dir)
	if err != nil {
		return nil, err
	}
	return &pipeline.Pipeline{Store: st, GeneratedBy: version.GeneratedBy()}, nil
}

// checkOutput refuses inputs that the output folder's writes could
// replace or remove: files in its tables/ or rejected/, or its report's
// files. The user's inputs are only ever read.
func checkOutput(dir string, files []string) error {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for _, f := range files {
		if f == "-" {
			continue
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(absDir, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		top, _, nested := strings.Cut(filepath.ToSlash(rel), "/")
		if nested && (top+"/" == store.TablesPrefix || top+"/" == store.RejectedPrefix) ||
			!nested && (rel == "report.md" || rel == "summary.json" || filepath.Ext(rel) == ".png") {
			return usagef("input %s lies where the output folder %s keeps loadverdict's own files: choose another -o", f, dir)
		}
	}
	return nil
}

// ingestFiles ingests files in order into experiment exp, streaming each
// (with a progress bar on a terminal for large inputs). An input that
// cannot be opened or parsed is printed on stderr as "file:line: message"
// and gets its rejection record; the others are still ingested. It
// returns the keys written and how many inputs were rejected; a store
// error stops it.
func ingestFiles(ctx context.Context, e *env, p *pipeline.Pipeline, exp string, files []string, windowS float64) ([]string, int, error) {
	var written []string
	rejected := 0
	// One listing of the partition for all the files: listing it for
	// each would cost time in the square of the files.
	if err := p.IndexTables(ctx, exp); err != nil {
		return nil, 0, err
	}
	bar, finish := newProgress(e.stderr, inputSize(files))
	defer finish()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return written, rejected, err
		}
		keys, err := ingestFile(ctx, e, p, pipeline.Source{Name: sourceName(f), Experiment: exp, WindowS: windowS}, f, bar)
		var re *pipeline.RejectedError
		switch {
		case errors.As(err, &re):
			fmt.Fprintln(e.stderr, re.Err)
			rejected++
		case err != nil:
			return written, rejected, fmt.Errorf("%s: %w", f, err)
		}
		written = append(written, keys...)
	}
	return written, rejected, nil
}

// ingestFile ingests one file ("-": standard input) as src; a file that
// cannot be opened is rejected.
func ingestFile(ctx context.Context, e *env, p *pipeline.Pipeline, src pipeline.Source, f string, bar io.Writer) ([]string, error) {
	body, st, err := openInput(f, e.stdin, bar)
	if err != nil {
		return nil, p.Reject(ctx, src.Experiment, src.Name, time.Time{}, err)
	}
	defer body.Close()
	src.Body = body
	if st != nil {
		src.ModTime = st.ModTime()
	}
	return p.IngestSource(ctx, src)
}

// openInput opens an input file ("-": stdin) for reading, counting the
// bytes read on bar when there is one, and describes it (nil for stdin);
// the error says "file: why".
func openInput(f string, stdin io.Reader, bar io.Writer) (io.ReadCloser, fs.FileInfo, error) {
	var r io.Reader = stdin
	var c io.Closer = io.NopCloser(nil)
	var st fs.FileInfo
	if f != "-" {
		// store.OpenFile fails at the end of a file that changed while
		// it was read, so a half-written input is never reported on.
		fh, err := store.OpenFile(f)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, nil, fmt.Errorf("%s: %v", f, err)
		}
		st = fh.Stat()
		r, c = fh, fh
	}
	if bar != nil {
		r = io.TeeReader(r, bar)
	}
	return struct {
		io.Reader
		io.Closer
	}{r, c}, st, nil
}
