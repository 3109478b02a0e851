package ingest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// module is the import path of the project.
const module = "github.com/loadverdict/loadverdict"

// packageImports returns the import paths of the Go files of folder dir,
// those of its tests apart, and the files' line count (without tests).
func packageImports(t *testing.T, dir string) (code, tests map[string]bool, lines int) {
	t.Helper()
	code, tests = map[string]bool{}, map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fs := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fs, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		into := code
		if strings.HasSuffix(name, "_test.go") {
			into = tests
		} else {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			lines += strings.Count(string(b), "\n")
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			into[p] = true
		}
	}
	return code, tests, lines
}

// toolPackages lists the folders of the tool packages: every folder of
// this one holding Go files but core, requests and internal.
func toolPackages(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		switch n := e.Name(); {
		case !e.IsDir(), n == "core", n == "requests", n == "internal", n == "testdata":
		default:
			if g, _ := filepath.Glob(filepath.Join(n, "*.go")); len(g) > 0 {
				out = append(out, n)
			}
		}
	}
	return out
}

// TestToolImports: a tool package imports, of this project, only the
// core, the per-request aggregator and results (its tests also the shared
// test helpers): never another tool's package, nor package ingest. The
// core imports nothing of ingest, the aggregator only the core (and
// internal/blocks, a container that imports nothing of the project).
func TestToolImports(t *testing.T) {
	allowed := map[string]bool{module + "/ingest/core": true, module + "/ingest/requests": true, module + "/results": true}
	check := func(pkg string, imports map[string]bool, ok map[string]bool) {
		for p := range imports {
			if strings.HasPrefix(p, module+"/") && !ok[p] {
				t.Errorf("%s imports %s", pkg, p)
			}
		}
	}
	tools := toolPackages(t)
	if len(tools) < 10 {
		t.Fatalf("only %d tool packages: %v", len(tools), tools)
	}
	testOK := map[string]bool{module + "/ingest/internal/ingesttest": true}
	for p := range allowed {
		testOK[p] = true
	}
	for _, dir := range tools {
		code, tests, _ := packageImports(t, dir)
		check("ingest/"+dir, code, allowed)
		check("ingest/"+dir+" (tests)", tests, testOK)
	}
	code, _, _ := packageImports(t, "core")
	check("ingest/core", code, map[string]bool{module + "/results": true})
	code, _, _ = packageImports(t, "requests")
	check("ingest/requests", code, map[string]bool{module + "/results": true, module + "/ingest/core": true, module + "/internal/blocks": true})
}

// TestCoreSmall: the core stays a core: under 3,000 lines, and none of
// the names it declares says a tool (what one tool needs lives in its
// package).
func TestCoreSmall(t *testing.T) {
	_, _, lines := packageImports(t, "core")
	if lines > 3000 {
		t.Errorf("ingest/core has %d lines (at most 3,000)", lines)
	}
	files, _ := filepath.Glob("core/*.go")
	fs := token.NewFileSet()
	var tools []string
	for _, f := range formats {
		tools = append(tools, f.dirs...)
	}
	tools = append(tools, "ab", "apache", "jtl", "jmeter")
	for _, name := range files {
		f, err := parser.ParseFile(fs, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || id.Obj == nil && !isDecl(f, id) {
				return true
			}
			for _, tool := range tools {
				if saysTool(id.Name, tool) {
					t.Errorf("%s: %s says the tool %s", fs.Position(id.Pos()), id.Name, tool)
				}
			}
			return true
		})
	}
}

// isDecl reports whether id names a method or a struct field declared in f.
func isDecl(f *ast.File, id *ast.Ident) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			found = found || n.Name == id
		case *ast.Field:
			for _, nm := range n.Names {
				found = found || nm == id
			}
		}
		return !found
	})
	return found
}
