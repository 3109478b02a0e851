package local

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/report"
	"github.com/loadverdict/loadverdict/results"
)

// Runner runs the pipeline on local files: the settings every command
// that reads files shares, and where it reads and writes besides them.
type Runner struct {
	// Experiment names the experiment; "" names it after the first input.
	Experiment string
	// Window is the width of the time windows built from per-request logs.
	Window time.Duration
	// Stdin is read for the input "-".
	Stdin io.Reader
	// Stderr gets a line for each input rejected and what a run removed.
	Stderr io.Writer
	// Progress, when set, returns a writer counting the bytes read of
	// inputs of total bytes (nil for none) and a function ending it.
	Progress func(total int64) (bar io.Writer, finish func())
	// GeneratedBy names the producer in the reports.
	GeneratedBy string
	// JUnit is the file --junit writes after the report ("" for none):
	// one that is an input is an *ArgError before anything is written.
	JUnit string
}

// Result is an experiment analysed from local inputs.
type Result struct {
	// Report is the experiment's report; its Verdict is nil when no run
	// could be read (it is then the no-runs report that says so, as a
	// bucket's).
	Report *pipeline.Report
	// Rejected counts the inputs that could not be read or parsed.
	Rejected int
	// Old and New name compare's systems.
	Old, New string
}

// ExperimentFor checks the settings and returns the experiment's name:
// Experiment, else named after the first input (experimentName).
func (r *Runner) ExperimentFor(first string) (string, error) {
	if r.Experiment != "" {
		return r.experiment("")
	}
	return r.experiment(experimentName(first))
}

// experiment checks the settings and returns Experiment, else def.
func (r *Runner) experiment(def string) (string, error) {
	if r.Window <= 0 {
		return "", argErrorf("--window must be positive, got %s", r.Window)
	}
	exp := cmp.Or(r.Experiment, def)
	if err := store.CheckExperiment(exp); err != nil {
		return "", argErrorf("%v", err)
	}
	return exp, nil
}

// Open returns the pipeline over the local store in dir (created when
// missing): an output folder, laid out like the bucket.
func (r *Runner) Open(dir string) (*pipeline.Pipeline, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	st, err := store.NewLocal(dir)
	if err != nil {
		return nil, err
	}
	return &pipeline.Pipeline{Store: st, GeneratedBy: r.GeneratedBy}, nil
}

// Parse parses every input file in order (samples are not kept) with
// opts, each file's runs with its source name, and numbers the runs (seq)
// across them: files in the order given, runs in file order. A file that
// cannot be read or parsed is said on Stderr as "file:line: message" and
// the others are still parsed; failed tells whether one was.
func (r *Runner) Parse(ctx context.Context, in *Inputs, opts ingest.Options) (runs []results.RunWithPercentiles, failed bool) {
	r.say(in)
	bar, finish := r.progress(in.Files)
	defer finish()
	for _, f := range in.Files {
		if ctx.Err() != nil {
			return runs, true
		}
		o := opts
		o.Source = sourceName(f)
		got, err := r.parseFile(ctx, f, o, bar)
		if err != nil {
			fmt.Fprintln(r.Stderr, err)
			failed = true
			continue
		}
		for _, run := range got {
			run.Seq = int32(len(runs))
			runs = append(runs, run)
		}
	}
	return runs, failed
}

func (r *Runner) parseFile(ctx context.Context, f string, opts ingest.Options, bar io.Writer) ([]results.RunWithPercentiles, error) {
	body, _, err := r.openInput(f, bar)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	return ingest.ParseAll(ctx, body, opts)
}

// Ingest ingests the input files into experiment exp of the output
// folder dir, adding to (or replacing) the inputs' own tables. It returns
// the files written (the tables' keys as paths under dir) and how many
// inputs were rejected.
func (r *Runner) Ingest(ctx context.Context, dir, exp string, in *Inputs) ([]string, int, error) {
	unlock, err := r.begin(dir, in)
	if err != nil {
		return nil, 0, err
	}
	defer unlock()
	p, err := r.Open(dir)
	if err != nil {
		return nil, 0, err
	}
	written, rejected, err := r.ingestFiles(ctx, p, exp, in.Files)
	for i, k := range written {
		written[i] = filepath.Join(dir, filepath.FromSlash(k))
	}
	return written, rejected, err
}

// Report is report's one call: it ingests the input files into the output
// folder dir as experiment req.Experiment, removes what the experiment's
// partition holds from other sources (the inputs are the whole
// experiment), analyses the experiment, its runs in the order of the
// files (after the manifest's order), and writes the report into dir.
// The folder is locked meanwhile (lockOutput) and keeps a list of the
// report files it wrote (writeFiles).
func (r *Runner) Report(ctx context.Context, dir string, in *Inputs, req pipeline.Request) (*Result, error) {
	unlock, err := r.begin(dir, in)
	if err != nil {
		return nil, err
	}
	defer unlock()
	res, p, err := r.analyze(ctx, dir, in.Files, req)
	if err != nil {
		return nil, err
	}
	if err := writeFiles(ctx, p, dir, res.Report.Files); err != nil {
		return nil, err
	}
	return res, nil
}

// begin starts a command that writes into the output folder dir: it
// refuses inputs that are dir's own (checkOutput) and a --junit that is
// an input, says the dropped names, and takes dir's lock (lockOutput).
func (r *Runner) begin(dir string, in *Inputs) (unlock func(), err error) {
	if err := checkOutput(dir, in.Files); err != nil {
		return nil, err
	}
	if err := checkNotInput("--junit", r.JUnit, in.Files); err != nil {
		return nil, err
	}
	if err := checkNotOwn("--junit", r.JUnit, dir); err != nil {
		return nil, err
	}
	r.say(in)
	return lockOutput(dir)
}

// say tells on Stderr which names of inputs were dropped (the file was
// already an input under another name; the first maxSaid of them) and
// how many files of the output folder were left out.
func (r *Runner) say(in *Inputs) {
	if n := len(in.Dropped); n > 0 {
		more := ""
		if n > maxSaid {
			more = fmt.Sprintf(" and %d more", n-maxSaid)
		}
		fmt.Fprintf(r.Stderr, "loadverdict: read once, named again: %s%s\n", strings.Join(in.Dropped[:min(n, maxSaid)], ", "), more)
	}
	if in.Skipped > 0 {
		fmt.Fprintf(r.Stderr, "loadverdict: %d %s of the output folder %s left out: its own files are never inputs\n",
			in.Skipped, map[bool]string{true: "file or folder", false: "files or folders"}[in.Skipped == 1], in.out.dir)
	}
}

// maxSaid bounds the names a stderr line lists.
const maxSaid = 10

// Compare is compare's one call on local files: it analyses OLD and NEW
// (a file or a folder each) as two systems of one experiment (Experiment,
// else OLD-vs-NEW after their names), OLD the baseline, as Report does in
// the output folder dir; with dir "", in a temporary folder that is
// removed, and nothing is written. The sides are named by systems (whose
// paths must be OLD or NEW), else after their base names (sideNames).
func (r *Runner) Compare(ctx context.Context, dir, oldArg, newArg string, systems Systems, req pipeline.Request) (*Result, error) {
	oldName, newName := sideNames(oldArg, newArg)
	for _, s := range systems {
		switch {
		case samePath(s.Path, oldArg):
			oldName = s.Name
		case samePath(s.Path, newArg):
			newName = s.Name
		default:
			return nil, argErrorf("compare: --system %s=%s: in compare, --system names OLD (%s) or NEW (%s)", s.Name, s.Path, oldArg, newArg)
		}
	}
	if oldName == newName {
		return nil, argErrorf("compare: OLD and NEW are both named %q", oldName)
	}
	in, err := sides(oldArg, newArg, oldName, newName, dir)
	if err != nil {
		return nil, err
	}
	if req.Experiment, err = r.experiment(store.SanitizeName(oldName + "-vs-" + newName)); err != nil {
		return nil, err
	}
	req.Overrides.Systems, req.Overrides.Baseline = in.Rules, oldName
	var res *Result
	if dir != "" {
		res, err = r.Report(ctx, dir, in, req)
	} else {
		res, err = r.inTemp(ctx, in, req)
	}
	if err != nil {
		return nil, err
	}
	res.Old, res.New = oldName, newName
	return res, nil
}

// inTemp analyses the inputs in a temporary folder, removed after.
func (r *Runner) inTemp(ctx context.Context, in *Inputs, req pipeline.Request) (*Result, error) {
	if err := checkNotInput("--junit", r.JUnit, in.Files); err != nil {
		return nil, err
	}
	r.say(in)
	tmp, err := os.MkdirTemp("", "loadverdict-compare-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	req.VerdictOnly = true // nothing of the report is kept
	res, _, err := r.analyze(ctx, tmp, in.Files, req)
	return res, err
}

// CompareStore is compare's one call on a store: it analyses experiments
// oldExp and newExp of the store open opens as two systems named after
// them, oldExp the baseline, into a report named Experiment (else
// oldExp-vs-newExp). Nothing is written to the store; the report is
// written into the output folder dir unless dir is "".
func (r *Runner) CompareStore(ctx context.Context, open func(context.Context) (*pipeline.Pipeline, error), dir, oldExp, newExp string, req pipeline.Request) (*Result, error) {
	for _, x := range []string{oldExp, newExp} {
		if err := store.CheckExperiment(x); err != nil {
			return nil, argErrorf("compare: %v", err)
		}
	}
	if oldExp == newExp {
		return nil, argErrorf("compare: OLD and NEW are the same experiment %s", oldExp)
	}
	exp, err := r.experiment(store.SanitizeName(oldExp + "-vs-" + newExp))
	if err != nil {
		return nil, err
	}
	p, err := open(ctx)
	if err != nil {
		return nil, err
	}
	req.Experiment, req.From = exp, []string{oldExp, newExp}
	req.Overrides.Systems = []experiment.SystemRule{
		{Name: oldExp, Experiments: []string{oldExp}, Flag: "OLD " + oldExp},
		{Name: newExp, Experiments: []string{newExp}, Flag: "NEW " + newExp}}
	req.Overrides.Baseline = oldExp
	req.VerdictOnly = dir == "" // nothing of the report is kept
	rep, err := p.Report(ctx, req)
	if err != nil {
		return nil, err
	}
	if dir != "" {
		if err := r.write(ctx, dir, rep.Files); err != nil {
			return nil, err
		}
	}
	return &Result{Report: rep, Old: oldExp, New: newExp}, nil
}

// write writes a report's files into the output folder dir, locked
// meanwhile (writeFiles).
func (r *Runner) write(ctx context.Context, dir string, files []pipeline.File) error {
	unlock, err := lockOutput(dir)
	if err != nil {
		return err
	}
	defer unlock()
	p, err := r.Open(dir)
	if err != nil {
		return err
	}
	return writeFiles(ctx, p, dir, files)
}

// analyze runs the bucket pipeline over the local store in dir on files
// as experiment req.Experiment: it ingests every file, removes what the
// experiment's partition holds from other sources, and analyses the
// experiment from what it parsed (pipeline.Parsed: the tables are written,
// not read back). The report is not written.
func (r *Runner) analyze(ctx context.Context, dir string, files []string, req pipeline.Request) (*Result, *pipeline.Pipeline, error) {
	if err := checkOutput(dir, files); err != nil {
		return nil, nil, err
	}
	p, err := r.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	// The experiment is analysed from the runs parsed, as the tables
	// would read back, not from the tables written (pipeline.Parsed).
	p.Parsed = &pipeline.Parsed{Samples: true}
	// Other sources' tables go first: the inputs are the whole
	// experiment, and only their runs count towards pipeline.MaxRuns.
	names := sourceNames(files)
	removed, err := p.Prune(ctx, req.Experiment, names)
	if err != nil {
		return nil, nil, err
	}
	if n := prunedSources(removed); n > 0 {
		fmt.Fprintf(r.Stderr, "loadverdict: experiment %s in %s held the tables of %d other %s (an earlier report's), now removed: the inputs are the whole experiment; give --experiment NAME to keep both\n",
			req.Experiment, dir, n, map[bool]string{true: "input", false: "inputs"}[n == 1])
	}
	_, rejected, err := r.ingestFiles(ctx, p, req.Experiment, files)
	if err != nil {
		return nil, nil, err
	}
	req.Overrides.Order = names
	rep, err := p.Report(ctx, req)
	if err != nil {
		return nil, nil, dropReport(ctx, p, dir, err)
	}
	for _, c := range rep.Meta.Copies {
		fmt.Fprintf(r.Stderr, "loadverdict: %s is %s %s: counted once\n", c.Source, report.CopyWhy(c), c.Of.Source)
	}
	// rep.Verdict is nil when every input failed (each said why on
	// stderr): the report says no run could be read.
	return &Result{Report: rep, Rejected: rejected}, p, nil
}

// prunedSources counts the sources whose files Prune removed.
func prunedSources(keys []string) int {
	ids := map[string]bool{}
	for _, k := range keys {
		id, _ := store.SourceIDOfKey(k)
		ids[id] = true
	}
	return len(ids)
}

// ingestFiles ingests files in order into experiment exp, streaming each
// (counting the bytes read on the progress writer). An input that cannot
// be opened or parsed is said on Stderr as "file:line: message" and gets
// its rejection record; the others are still ingested. It returns the
// keys written and how many inputs were rejected; a store error stops it.
func (r *Runner) ingestFiles(ctx context.Context, p *pipeline.Pipeline, exp string, files []string) ([]string, int, error) {
	var written []string
	rejected := 0
	// One listing of the partition for all the files: listing it for
	// each would cost time in the square of the files.
	if err := p.IndexTables(ctx, exp); err != nil {
		return nil, 0, err
	}
	bar, finish := r.progress(files)
	defer finish()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return written, rejected, err
		}
		keys, err := r.ingestFile(ctx, p, pipeline.Source{Name: sourceName(f), Experiment: exp, WindowS: r.Window.Seconds()}, f, bar)
		var re *pipeline.RejectedError
		switch {
		case errors.As(err, &re):
			fmt.Fprintln(r.Stderr, re.Err)
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
func (r *Runner) ingestFile(ctx context.Context, p *pipeline.Pipeline, src pipeline.Source, f string, bar io.Writer) ([]string, error) {
	body, st, err := r.openInput(f, bar)
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

// progress starts the progress of reading files.
func (r *Runner) progress(files []string) (io.Writer, func()) {
	if r.Progress == nil {
		return nil, func() {}
	}
	return r.Progress(inputSize(files))
}

// inputSize is the total size of the regular files among files.
func inputSize(files []string) int64 {
	var n int64
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			n += st.Size()
		}
	}
	return n
}

// openInput opens an input file ("-": Stdin) for reading, counting the
// bytes read on bar when there is one, and describes it (nil for stdin);
// the error says "file: why".
func (r *Runner) openInput(f string, bar io.Writer) (io.ReadCloser, fs.FileInfo, error) {
	var rd io.Reader = r.Stdin
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
		rd, c = fh, fh
	}
	if bar != nil {
		rd = io.TeeReader(rd, bar)
	}
	return struct {
		io.Reader
		io.Closer
	}{rd, c}, st, nil
}
