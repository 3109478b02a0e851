package report

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// mathAllowed are the functions of package math report may use: each
// formats a figure analyze computed, none computes one.
var mathAllowed = map[string]string{
	"Abs":   "a magnitude for choosing a number's format and for unsigned words (\"by 3 %\")",
	"IsNaN": "a missing figure is worded as such",
	"IsInf": "an unbounded interval is worded as such",
	"Floor": "the integer part of Log10: a number's digits before the point",
	"Log10": "a number's order of magnitude, for its significant digits",
	"Pow10": "the scale of rounding to d decimals in summary.json",
	"Round": "rounding to the digits shown",
}

// forbiddenPackages are the packages none of whose functions report may
// use: they compute statistics.
var forbiddenPackages = []string{"github.com/loadverdict/loadverdict/stats", "gonum.org/v1/gonum/"}

// TestNoStatisticsInReport: report/ words and formats the verdict; the
// figures and decisions it words are analyze's, as values analyze filled
// when it decided. It type-checks report's files (not its tests) and
// fails on any use of a function or method of stats, gonum or analyze
// (report may use analyze's types, fields and constants, never call it
// back), or of math beyond mathAllowed: by the package a function is
// declared in, whatever its name.
func TestNoStatisticsInReport(t *testing.T) {
	fset := token.NewFileSet()
	files, info := typeCheckReport(t, fset)
	used := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			fn, ok := info.Uses[id].(*types.Func)
			if !ok || fn.Pkg() == nil {
				return true
			}
			if fn.Pkg().Path() == "math" {
				used[fn.Name()] = true
			}
			if why := forbiddenUse(fn); why != "" {
				t.Errorf("%s: %s: %s", fset.Position(id.Pos()), funcKey(fn), why)
			}
			return true
		})
	}
	// The list holds only what report uses, so that it only shrinks.
	for k := range mathAllowed {
		if !used[k] {
			t.Errorf("mathAllowed lists %s, which report does not use: remove it", k)
		}
	}
}

// forbiddenUse says why report may not use fn, or "" when it may.
func forbiddenUse(fn *types.Func) string {
	path := fn.Pkg().Path()
	switch {
	case slices.ContainsFunc(forbiddenPackages, func(p string) bool { return path == p || strings.HasSuffix(p, "/") && strings.HasPrefix(path, p) }):
		return "a statistical routine: compute it in analyze, word its result in report"
	case path == "math" && mathAllowed[fn.Name()] == "":
		return "arithmetic on figures belongs in analyze (report may use math's " + strings.Join(sortedNames(mathAllowed), ", ") + ")"
	case path == "github.com/loadverdict/loadverdict/analyze":
		return "report does not call back into analyze: give report the decided value (a field analyze fills when it decides)"
	}
	return ""
}

// funcKey names a function in a failure: "Name", or "Type.Name" for a
// method.
func funcKey(fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return fn.Name()
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name() + "." + fn.Name()
	}
	return fn.Name()
}

func sortedNames(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// typeCheckReport parses report's non-test files and type-checks them
// against the export data of its imports (go list -export, from the build
// cache the test's own build filled).
func typeCheckReport(t *testing.T, fset *token.FileSet) ([]*ast.File, *types.Info) {
	t.Helper()
	files := parseDir(t, fset, ".")
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	exports := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "\t"); ok && file != "" {
			exports[path] = file
		}
	}
	lookup := func(path string) (io.ReadCloser, error) {
		if f, ok := exports[path]; ok {
			return os.Open(f)
		}
		return nil, fmt.Errorf("no export data for %s", path)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	if _, err := conf.Check("github.com/loadverdict/loadverdict/report", fset, files, info); err != nil {
		t.Fatal(err)
	}
	return files, info
}
