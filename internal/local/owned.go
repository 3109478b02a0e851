package local

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
)

// The output folder's own bookkeeping, hidden so that no folder walk
// reads it as an input.
const (
	// OwnListName lists the report files the output folder's runs wrote
	// at its top: the only ones a later run removes.
	OwnListName = ".loadverdict-files.json"
	// LockName is the lock file of the output folder (flock(2)).
	LockName = ".loadverdict.lock"
)

// reportNames are the files every report writes at the top of the output
// folder.
var reportNames = []string{"report.md", pipeline.HTMLName, "summary.md", "summary.json"}

// storeDirs are the folders of the output folder's store (laid out like
// the bucket): all loadverdict's.
var storeDirs = []string{store.RawPrefix, store.TablesPrefix, store.ReportsPrefix, store.RejectedPrefix}

// outputDir is an output folder (-o DIR) as the inputs see it: what it
// owns is never an input.
type outputDir struct {
	dir  string
	real string // absolute, symlinks resolved; "" when it does not exist yet
	own  map[string]bool
}

func newOutputDir(dir string) *outputDir {
	o := &outputDir{dir: dir, own: map[string]bool{OwnListName: true, LockName: true}}
	for _, n := range reportNames {
		o.own[n] = true
	}
	if dir == "" {
		return o
	}
	if abs, err := filepath.Abs(dir); err == nil {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			o.real = real
		}
	}
	list, _ := readOwnList(dir)
	for _, n := range list {
		o.own[n] = true
	}
	return o
}

// owns tells whether the file or folder at the real path p (absolute,
// symlinks resolved) is the output folder's own: in its store's folders,
// or at its top a file it lists, a report's file or a figure (.png,
// .svg). The output folder itself is not.
func (o *outputDir) owns(p string, isDir bool) bool {
	if o == nil || o.real == "" {
		return false
	}
	rel, err := filepath.Rel(o.real, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	rel = filepath.ToSlash(rel)
	top, _, nested := strings.Cut(rel, "/")
	if nested || isDir {
		return slices.Contains(storeDirs, top+"/")
	}
	ext := filepath.Ext(rel)
	return o.own[rel] || ext == ".png" || ext == ".svg"
}

// realPath is p absolute with symlinks resolved (p itself when that fails).
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// samePath tells whether paths a and b name the same file or folder:
// the same cleaned path, or the same device and inode.
func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// checkOutput refuses inputs named that are the output folder's own
// (outputDir.owns), which its writes replace or remove: the user's
// inputs are only ever read.
func checkOutput(dir string, files []string) error {
	o := newOutputDir(dir)
	for _, f := range files {
		if f != "-" && o.owns(realPath(f), false) {
			return argErrorf("input %s lies where the output folder %s keeps loadverdict's own files: choose another -o", f, dir)
		}
	}
	return nil
}

// checkNotInput refuses an output file (--junit) that is one of the
// input files (the same file, by device and inode, or through a link).
func checkNotInput(flag, out string, files []string) error {
	if out == "" {
		return nil
	}
	var ids []fileID
	for _, st := range []func(string) (fs.FileInfo, error){os.Stat, os.Lstat} {
		if info, err := st(out); err == nil {
			if id, ok := idOf(out, info); ok {
				ids = append(ids, id)
			}
		}
	}
	for _, f := range files {
		info, err := os.Stat(f)
		if f == "-" || err != nil {
			continue
		}
		if id, ok := idOf(f, info); ok && slices.Contains(ids, id) {
			return argErrorf("%s %s is the input %s: it would be overwritten; choose another file", flag, out, f)
		}
	}
	return nil
}

// checkNotOwn refuses an output file (--junit) at the top of the output
// folder dir under a name the report writes there (report.md, a figure, a
// listed file): the two would overwrite each other.
func checkNotOwn(flag, out, dir string) error {
	if out == "" || dir == "" || !samePath(filepath.Dir(out), dir) {
		return nil
	}
	base := filepath.Base(out)
	if ext := filepath.Ext(base); newOutputDir(dir).own[base] || ext == ".png" || ext == ".svg" {
		return argErrorf("%s %s is a file the report writes in %s: choose another name (junit.xml)", flag, out, dir)
	}
	return nil
}

// lockOutput creates the output folder dir and takes its lock for the
// whole command: a second command into the same folder is refused (an
// *ArgError naming the holder's pid), never mixed with the first.
func lockOutput(dir string) (func(), error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return flockOutput(dir, filepath.Join(dir, LockName))
}

func inUse(dir, lockPath string) error {
	return argErrorf("output folder %s is in use by another loadverdict (pid %s, lock %s): wait for it to end, or choose another -o",
		dir, holder(lockPath), lockPath)
}

func pidString() string { return strconv.Itoa(os.Getpid()) }

// ownList is the content of OwnListName.
type ownList struct {
	Files []string `json:"files"`
}

func readOwnList(dir string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(dir, OwnListName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var l ownList
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, OwnListName), err)
	}
	// Only names at the top of the folder: a list edited by hand cannot
	// make a run remove anything else.
	return slices.DeleteFunc(l.Files, func(n string) bool {
		return n == "" || strings.ContainsAny(n, `/\`) || n == "." || n == ".." || n == OwnListName || n == LockName
	}), nil
}

func writeOwnList(ctx context.Context, st store.Store, names []string) error {
	slices.Sort(names)
	b, err := json.MarshalIndent(ownList{Files: slices.Compact(names)}, "", "  ")
	if err != nil {
		return err
	}
	return st.Put(ctx, OwnListName, bytes.NewReader(append(b, '\n')))
}

// dropReport removes the report files the output folder's earlier runs
// wrote when this run makes none (its analysis refused, err): its tables
// have changed, so an earlier report would stand for a verdict no longer
// made. It returns err, with the removal's own failure if any.
func dropReport(ctx context.Context, p *pipeline.Pipeline, dir string, err error) error {
	if dir == "" {
		return err
	}
	if werr := writeFiles(ctx, p, dir, nil); werr != nil {
		return errors.Join(err, werr)
	}
	return err
}

// writeFiles writes a report's files at the top of the output folder and
// removes those an earlier run there wrote (its list) that this one has
// not; any other file is the user's and is left alone. The list is
// written first as the union, so a run stopped midway still lists every
// file it may have written.
func writeFiles(ctx context.Context, p *pipeline.Pipeline, dir string, files []pipeline.File) error {
	old, err := readOwnList(dir)
	if err != nil {
		return err
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	if err := writeOwnList(ctx, p.Store, append(slices.Clone(old), names...)); err != nil {
		return err
	}
	for _, f := range files {
		if err := p.Store.Put(ctx, f.Name, bytes.NewReader(f.Data)); err != nil {
			return err
		}
	}
	for _, n := range old {
		if !slices.Contains(names, n) {
			if err := p.Store.Delete(ctx, n); err != nil {
				return err
			}
		}
	}
	return writeOwnList(ctx, p.Store, names)
}
