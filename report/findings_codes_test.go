package report

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
)

// knownGaps are finding codes that no golden or example summary.json
// shows yet, each with the reason; the list can only shrink
// (TestFindingCodes fails on a code listed here that a golden shows).
var knownGaps = map[string]string{}

// TestFindingCodes walks the finding codes (the Code constants of
// package analyze) and requires, for every code, what "Adding a finding"
// in docs/ARCHITECTURE.md asks: a check in analyze's findingChecks,
// declared in analyze/finding_<code>.go (or the file of a code it shares
// the check with); a wording in findingWordings, declared in
// report/finding_<code>.go likewise; a mention in docs/STATISTICS.md;
// and a finding of the code in a golden or example summary.json (under a
// testdata/ folder or examples/), unless it is a known gap.
func TestFindingCodes(t *testing.T) {
	codes := codeConsts(t)
	if len(codes) == 0 {
		t.Fatal("no Code constants found in analyze")
	}
	checks, checkCodes := findingChecks(t)
	checkFiles := funcFiles(t, filepath.Join("..", "analyze"))
	wordFiles := funcFiles(t, ".")
	wordCodes := map[string][]string{}
	for c, w := range findingWordings {
		wordCodes[funcName(w)] = append(wordCodes[funcName(w)], string(c))
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "STATISTICS.md"))
	if err != nil {
		t.Fatal(err)
	}
	shown := goldenFindingCodes(t)
	for name, code := range codes {
		if fn, ok := checks[name]; !ok {
			t.Errorf("%s: no check in analyze's findingChecks", code)
		} else if f := checkFiles[fn]; !namedAfter(f, valuesOf(codes, checkCodes[fn])) {
			t.Errorf("%s: its check %s is declared in analyze/%s, not in finding_<code>.go", code, fn, f)
		}
		if w, ok := findingWordings[analyze.Code(code)]; !ok {
			t.Errorf("%s: no wording in report's findingWordings", code)
		} else if f := wordFiles[funcName(w)]; !namedAfter(f, wordCodes[funcName(w)]) {
			t.Errorf("%s: its wording %s is declared in report/%s, not in finding_<code>.go", code, funcName(w), f)
		}
		if !strings.Contains(string(doc), "`"+code+"`") {
			t.Errorf("%s: not in docs/STATISTICS.md (as `%s`)", code, code)
		}
		_, gap := knownGaps[code]
		switch {
		case shown[code] && gap:
			t.Errorf("%s: a golden shows it now: remove it from knownGaps", code)
		case !shown[code] && !gap:
			t.Errorf("%s: in no golden or example summary.json (add a real input that raises it to TestFindingGoldens)", code)
		}
	}
	for c := range findingWordings {
		if !slices.Contains(valuesOf(codes, keys(codes)), string(c)) {
			t.Errorf("findingWordings words %s, which is no Code constant", c)
		}
	}
}

// codeConsts returns analyze's Code constants, name to value.
func codeConsts(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range parseDir(t, token.NewFileSet(), filepath.Join("..", "analyze")) {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" || len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, n := range vs.Names {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
						out[n.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	return out
}

// findingChecks reads analyze's findingChecks: the check of each code
// (constant names), and the codes of each check.
func findingChecks(t *testing.T) (checks map[string]string, codes map[string][]string) {
	t.Helper()
	checks, codes = map[string]string{}, map[string][]string{}
	for _, f := range parseDir(t, token.NewFileSet(), filepath.Join("..", "analyze")) {
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "findingChecks" || len(vs.Values) != 1 {
				return true
			}
			for _, e := range vs.Values[0].(*ast.CompositeLit).Elts {
				entry := e.(*ast.CompositeLit)
				fn := entry.Elts[1].(*ast.Ident).Name
				for _, c := range entry.Elts[0].(*ast.CompositeLit).Elts {
					checks[c.(*ast.Ident).Name] = fn
					codes[fn] = append(codes[fn], c.(*ast.Ident).Name)
				}
			}
			return false
		})
	}
	return checks, codes
}

// funcFiles returns the file (base name) declaring each function (not
// method) of the package in dir, tests left out.
func funcFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, f := range parseDir(t, fset, dir) {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				out[fn.Name.Name] = filepath.Base(fset.Position(f.Pos()).Filename)
			}
		}
	}
	return out
}

// parseDir parses the non-test Go files of a folder, in name order.
func parseDir(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

// goldenFindingCodes returns the codes of the findings of every JSON file
// under a testdata/ folder of the module (testdata/truth's inputs left
// out) or under examples/.
func goldenFindingCodes(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && path != ".." || path == filepath.Join("..", "testdata", "truth") {
				return filepath.SkipDir
			}
			return nil
		}
		slash := filepath.ToSlash(path)
		if !strings.HasSuffix(slash, ".json") || !strings.Contains(slash, "/testdata/") && !strings.HasPrefix(slash, "../examples/") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), `"findings"`) {
			return err
		}
		var doc struct {
			Findings []struct {
				Code string `json:"code"`
			} `json:"findings"`
		}
		if json.Unmarshal(b, &doc) == nil {
			for _, f := range doc.Findings {
				out[f.Code] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// namedAfter reports whether a file is finding_<code>.go for one of codes.
func namedAfter(file string, codes []string) bool {
	for _, c := range codes {
		if file == "finding_"+strings.ReplaceAll(c, "-", "_")+".go" {
			return true
		}
	}
	return false
}

// funcName is the name of a function value, without its package.
func funcName(fn any) string {
	name := runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
	return name[strings.LastIndex(name, ".")+1:]
}

func valuesOf(m map[string]string, ks []string) []string {
	var out []string
	for _, k := range ks {
		out = append(out, m[k])
	}
	return out
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
