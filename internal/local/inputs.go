package local

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/store"
)

// ArgError is a mistake in what a command was asked to read: a path that
// is not there or holds no input files, standard input given twice or
// named as a system, several manifests, a manifest that cannot be
// parsed. The command line exits 2 for it.
type ArgError struct{ Msg string }

func (e *ArgError) Error() string { return e.Msg }

func argErrorf(format string, a ...any) error { return &ArgError{Msg: fmt.Sprintf(format, a...)} }

// StdinName is the source name of input read from standard input.
const StdinName = "stdin"

// System names the system of the input files a path holds (--system
// NAME=PATH).
type System struct{ Name, Path string }

// Systems are systems named by path; with Set and String, *Systems is the
// flag.Value of a repeated --system NAME=PATH.
type Systems []System

func (s *Systems) String() string {
	if s == nil {
		return ""
	}
	var parts []string
	for _, x := range *s {
		parts = append(parts, x.Name+"="+x.Path)
	}
	return strings.Join(parts, ",")
}

// Set adds one NAME=PATH; the name must be a valid system name.
func (s *Systems) Set(v string) error {
	name, p, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || p == "" {
		return fmt.Errorf("want NAME=PATH (a file or a folder), got %q", v)
	}
	if err := experiment.CheckName(name); err != nil {
		return err
	}
	*s = append(*s, System{Name: name, Path: p})
	return nil
}

// Groups are groups of paths whose runs are parts of one test; with Set
// and String, *Groups is the flag.Value of a repeated --merge
// PATH[,PATH...], one group each.
type Groups [][]string

func (g *Groups) String() string {
	if g == nil {
		return ""
	}
	var parts []string
	for _, x := range *g {
		parts = append(parts, strings.Join(x, ","))
	}
	return strings.Join(parts, " ")
}

// Set adds one group of comma-separated paths.
func (g *Groups) Set(v string) error {
	var paths []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return fmt.Errorf("want PATH[,PATH...] (files or folders), got %q", v)
	}
	*g = append(*g, paths)
	return nil
}

// Files is what a command reads, as the command line names it: paths (a
// file, a folder standing for the files below it, "-" for standard
// input), systems by path and groups of paths whose runs are parts of
// one test (--merge).
type Files struct {
	Paths   []string
	Systems Systems
	Merges  Groups
	// Output is the output folder (-o DIR): its own files found in
	// input folders are not inputs (outputDir.owns).
	Output string
}

// Inputs are the input files of a command, each once, in the order
// given, and the rules its systems and merge groups make. A file is
// identified by device and inode, not by its name: named again (a link,
// another spelling of a folder, a file in a folder also named) it is
// read once, under the name first given, and the other name is Dropped.
type Inputs struct {
	Files     []string
	Manifests []string // loadverdict.yaml at the top of input folders, or given
	Rules     []experiment.SystemRule
	Merges    []experiment.MergeRule
	// Dropped are the names of files already inputs under another name,
	// each as "name (= first name)".
	Dropped []string
	// Skipped counts the output folder's own files found in input
	// folders, which are not inputs.
	Skipped int

	ids     map[fileID]string // identity -> the name first given
	has     map[string]bool   // the names in Files
	dropped map[string]bool   // the names in Dropped
	out     *outputDir
}

func newInputs(output string) *Inputs {
	return &Inputs{ids: map[fileID]string{}, has: map[string]bool{}, dropped: map[string]bool{}, out: newOutputDir(output)}
}

// Inputs resolves the paths, the systems and the merge groups: a system's
// or a merge group's path must exist and hold input files, and its files
// are inputs too.
func (f Files) Inputs() (*Inputs, error) {
	in := newInputs(f.Output)
	for _, a := range f.Paths {
		if _, err := in.add(a); err != nil {
			return nil, err
		}
	}
	for _, s := range f.Systems {
		what := "--system " + s.Name + "=" + s.Path
		files, err := in.pathFiles(s.Path, what)
		if err != nil {
			return nil, err
		}
		in.Rules = append(in.Rules, experiment.SystemRule{Name: s.Name, Sources: sourceNames(files), Flag: what})
	}
	for _, g := range f.Merges {
		flag := "--merge " + strings.Join(g, ",")
		var all []string
		for _, path := range g {
			files, err := in.pathFiles(path, flag)
			if err != nil {
				return nil, err
			}
			all = append(all, files...)
		}
		if len(all) < 2 {
			return nil, argErrorf("%s: one input file; a merge needs the outputs of two load generators or more", flag)
		}
		in.Merges = append(in.Merges, experiment.MergeRule{Sources: sourceNames(all), Flag: flag})
	}
	return in, nil
}

// First is the path the experiment is named after by default: the first
// path, else the first system's, else the first merge group's first.
func (f Files) First() string {
	switch {
	case len(f.Paths) > 0:
		return f.Paths[0]
	case len(f.Systems) > 0:
		return f.Systems[0].Path
	case len(f.Merges) > 0:
		return f.Merges[0][0]
	}
	return ""
}

// sides are the inputs of compare: the files of OLD and NEW (a file or a
// folder each, in no file common to both) as the systems oldName and
// newName; output is the output folder.
func sides(oldArg, newArg, oldName, newName, output string) (*Inputs, error) {
	in := newInputs(output)
	oldFiles, err := in.pathFiles(oldArg, "OLD "+oldArg)
	if err != nil {
		return nil, err
	}
	newFiles, err := in.pathFiles(newArg, "NEW "+newArg)
	if err != nil {
		return nil, err
	}
	for _, f := range newFiles {
		if slices.Contains(oldFiles, f) {
			return nil, argErrorf("compare: %s is in both OLD and NEW", f)
		}
	}
	in.Rules = append(in.Rules,
		experiment.SystemRule{Name: oldName, Sources: sourceNames(oldFiles), Flag: "OLD " + oldArg},
		experiment.SystemRule{Name: newName, Sources: sourceNames(newFiles), Flag: "NEW " + newArg})
	return in, nil
}

// sideNames names the systems of compare's OLD and NEW after their base
// names, or "old" and "new" when those are equal.
func sideNames(oldArg, newArg string) (string, string) {
	a, b := inputName(oldArg), inputName(newArg)
	if a == b || a == "" || b == "" {
		return "old", "new"
	}
	return a, b
}

// experimentName names an experiment after an input: a folder by its
// name, a file by its name without the extension, standard input
// "stdin".
func experimentName(arg string) string {
	if arg == "" || arg == "-" {
		return StdinName
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

// expand returns the input files of one argument: a folder stands for
// the files below it in lexical order (hidden files and folders, and the
// output folder's own, left out; symlinks below it not followed), "-" for standard input, anything else
// for itself. Files named loadverdict.yaml are never inputs: those at the
// top of the folder, or the argument itself, are returned as manifests.
// Paths are cleaned.
func (in *Inputs) expand(arg string) (files, manifests []string, err error) {
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
	realArg := realPath(arg)
	root := arg
	if lst, err := os.Lstat(arg); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
		root += string(filepath.Separator) // a symlink to a folder: walk the folder
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return nil
		}
		if rel, err := filepath.Rel(arg, p); err == nil && in.out.owns(filepath.Join(realArg, rel), d.IsDir()) {
			in.Skipped++
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
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

// add appends the files of arg that are not in the inputs yet, by
// identity, and returns all of arg's files, each by the name it is an
// input under.
func (in *Inputs) add(arg string) ([]string, error) {
	files, manifests, err := in.expand(arg)
	if err != nil {
		return nil, err
	}
	var names []string
	mine := map[string]bool{}
	for _, f := range files {
		if f == "-" && in.has["-"] {
			return nil, argErrorf("standard input (-) given more than once")
		}
		name := in.once(f)
		if !mine[name] {
			mine[name] = true
			names = append(names, name)
		}
		if !in.has[name] {
			in.has[name] = true
			in.Files = append(in.Files, name)
		}
	}
	for _, m := range manifests {
		if !slices.Contains(in.Manifests, m) {
			in.Manifests = append(in.Manifests, m)
		}
	}
	return names, nil
}

// once returns the name file f is an input under: the name first given
// for the same file (device and inode), else f. A second name is added
// to Dropped.
func (in *Inputs) once(f string) string {
	if f == "-" {
		return f
	}
	info, err := os.Stat(f)
	if err != nil {
		return f // not there: rejected when read
	}
	id, ok := idOf(f, info)
	if !ok {
		return f
	}
	first, seen := in.ids[id]
	if !seen {
		in.ids[id] = f
		return f
	}
	if first != f && !in.dropped[f] {
		in.dropped[f] = true
		in.Dropped = append(in.Dropped, f+" (= "+first+")")
	}
	return first
}

// pathFiles adds the files of a path that names a system or a merge
// group (what says how it was given); it must exist and hold input files.
func (in *Inputs) pathFiles(path, what string) ([]string, error) {
	if path == "-" {
		return nil, argErrorf("%s: standard input cannot be named so", what)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, argErrorf("%s: %v", what, errors.Unwrap(err))
	}
	files, err := in.add(path)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, argErrorf("%s: no input files there", what)
	}
	return files, nil
}

// sourceName is the name of an input file in the tables.
func sourceName(file string) string {
	if file == "-" {
		return StdinName
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

// LoadManifest reads the manifest of a command: the file flagPath when
// given (--manifest), else the one loadverdict.yaml found in the input
// folders (more than one is an *ArgError); nil for none. A manifest that
// cannot be read or parsed is an *ArgError naming the key and line.
func LoadManifest(flagPath string, found []string) (*experiment.Manifest, error) {
	path := flagPath
	if path == "" {
		switch len(found) {
		case 0:
			return nil, nil
		case 1:
			path = found[0]
		default:
			return nil, argErrorf("several manifests (%s): give one with --manifest FILE", strings.Join(found, ", "))
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, argErrorf("--manifest: %v", err)
	}
	defer f.Close()
	b, err := experiment.ReadManifestFrom(path, f)
	var me *experiment.ManifestError
	if errors.As(err, &me) {
		return nil, argErrorf("%v", err)
	}
	if err != nil {
		return nil, argErrorf("--manifest: %v", err)
	}
	m, err := experiment.ParseManifest(path, b)
	if err != nil {
		return nil, argErrorf("%v", err)
	}
	m.Dir = filepath.ToSlash(filepath.Dir(filepath.Clean(path)))
	return m, nil
}
