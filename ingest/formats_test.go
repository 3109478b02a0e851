package ingest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestFormats walks the list of formats and requires, for every format,
// what "Adding a format" in docs/ARCHITECTURE.md asks: a unique name; its
// testdata folders, each holding at least one input Detect gives to it
// beside its golden file; its fuzz target, which names the format (or
// its parser's type); its row in docs/FORMATS.md's supported-formats table
// (and no row without a format); its entry in the package documentation;
// its parser in a file named after the format (or, for a parser of
// several formats, after the parser).
func TestFormats(t *testing.T) {
	fuzzOf := map[string]map[string]map[string]bool{}
	declOf := map[string]map[string]string{}
	table := formatsTableTools(t)
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	tools := map[string]bool{}
	for _, f := range formats {
		name := f.parser.Name()
		pkg := pkgDir(f.parser)
		if fuzzOf[pkg] == nil {
			fuzzOf[pkg], declOf[pkg] = fuzzTargets(t, pkg), declFiles(t, pkg)
		}
		fuzz, decl := fuzzOf[pkg], declOf[pkg]
		if seen[name] {
			t.Errorf("format %s listed twice", name)
		}
		seen[name] = true
		for _, tool := range f.tools {
			tools[tool] = true
			if !slices.Contains(table, tool) {
				t.Errorf("%s: no row %q in docs/FORMATS.md's supported-formats table", name, tool)
			}
		}
		if !strings.Contains(string(doc), strconv.Quote(name)) {
			t.Errorf("%s: not in the package documentation (doc.go)", name)
		}
		for _, dir := range f.dirs {
			n := 0
			for _, in := range goldenInputs(t, sampleDir(dir)) {
				if p, err := detect(k6FileHead(t, in)); err != nil || p.Name() != name {
					continue
				}
				if _, err := os.Stat(goldenPath(in)); err != nil {
					t.Errorf("%s: %s has no golden file", name, in)
					continue
				}
				n++
			}
			if n == 0 {
				t.Errorf("%s: no input of %s is detected as it, beside its golden file", name, sampleDir(dir))
			}
		}
		typ := reflect.TypeOf(f.parser).Name()
		mentions, ok := fuzz[f.fuzz]
		switch {
		case !ok:
			t.Errorf("%s: no fuzz target %s(f *testing.F)", name, f.fuzz)
		case !mentions[strconv.Quote(name)] && !mentions[typ]:
			t.Errorf("%s: fuzz target %s names neither %q nor %s", name, f.fuzz, name, typ)
		}
		file := strings.TrimSuffix(decl[typ], ".go")
		stem := snake(strings.TrimSuffix(typ, "Parser"))
		if file != strings.ReplaceAll(name, "-", "_") && file != stem && file != pkg+"_"+stem {
			t.Errorf("%s: its parser %s is declared in %s.go, not in a file named after the format or the parser", name, typ, file)
		}
	}
	for _, tool := range table {
		if !tools[tool] {
			t.Errorf("docs/FORMATS.md's supported-formats table has a row %q that no format lists", tool)
		}
	}
}

// fuzzTargets returns the fuzz targets of the tests of the package in
// folder dir, each with
// the string literals (quoted) and identifiers its body holds.
func fuzzTargets(t *testing.T, dir string) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	fs := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fs, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Fuzz") || fn.Type.Params.NumFields() != 1 {
				continue
			}
			if star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr); !ok || types(star.X) != "testing.F" {
				continue
			}
			m := map[string]bool{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BasicLit:
					m[n.Value] = true
				case *ast.Ident:
					m[n.Name] = true
				}
				return true
			})
			out[fn.Name.Name] = m
		}
	}
	return out
}

// types formats a selector type expression such as testing.F.
func types(e ast.Expr) string {
	if s, ok := e.(*ast.SelectorExpr); ok {
		if x, ok := s.X.(*ast.Ident); ok {
			return x.Name + "." + s.Sel.Name
		}
	}
	return ""
}

// formatsDoc is the page of the supported formats, and the heading of
// its table (what each tool's formats are read for).
const (
	formatsDoc     = "../docs/FORMATS.md"
	formatsSection = "\n## What is read\n"
)

// formatsTableTools returns the first cells of docs/FORMATS.md's
// supported-formats table.
func formatsTableTools(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(formatsDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), formatsSection)
	if !ok {
		t.Fatalf("%s has no section %q", formatsDoc, strings.TrimSpace(formatsSection))
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	var tools []string
	for _, line := range strings.Split(sec, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(line, "|") {
			continue
		}
		c := strings.TrimSpace(cells[1])
		if c == "tool" || strings.Trim(c, "-: ") == "" {
			continue
		}
		tools = append(tools, c)
	}
	if len(tools) == 0 {
		t.Fatalf("%s's supported-formats table has no rows", formatsDoc)
	}
	return tools
}

// snake turns a Go name into a file name: vegetaResults is vegeta_results.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 && !unicode.IsUpper(rune(s[i-1])) {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// packageDecls parses the package's non-test files and returns, for
// every package-level name (types, functions, constants, variables; not
// methods), the file declaring it, and the parsed files.
func packageDecls(t *testing.T, dir string) (map[string]string, map[string]*ast.File) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fs := token.NewFileSet()
	decl := map[string]string{}
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fs, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		name = filepath.Base(name)
		files[name] = f
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					decl[d.Name.Name] = name
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						decl[s.Name.Name] = name
					case *ast.ValueSpec:
						for _, n := range s.Names {
							decl[n.Name] = name
						}
					}
				}
			}
		}
	}
	return decl, files
}

// declFiles returns the file declaring each package-level name of the
// package in folder dir.
func declFiles(t *testing.T, dir string) map[string]string {
	decl, _ := packageDecls(t, dir)
	return decl
}

// pkgDir is the folder, relative to this package's, of the package that
// declares p: "." for this package, "wrk" for ingest/wrk.
func pkgDir(p Parser) string {
	const self = "github.com/loadverdict/loadverdict/ingest"
	path := reflect.TypeOf(p).PkgPath()
	if path == self {
		return "."
	}
	return strings.TrimPrefix(path, self+"/")
}

// sampleDir is the path of a format's testdata folder (an entry of its
// dirs): under its package's testdata.
func sampleDir(dir string) string {
	for _, f := range formats {
		if slices.Contains(f.dirs, dir) {
			return filepath.Join(pkgDir(f.parser), "testdata", dir)
		}
	}
	return filepath.Join("testdata", dir)
}

// nameAliases are the other words a tool's names may use for it.
var nameAliases = map[string][]string{"jmeter": {"jtl"}}

// saysTool reports whether a Go name holds the tool's name (or an alias)
// as one of its words: abKeyBanner and isAbExe say "ab", table does not.
func saysTool(name, tool string) bool {
	for _, w := range append([]string{tool}, nameAliases[tool]...) {
		re := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(w))
		for _, m := range re.FindAllStringIndex(name, -1) {
			s, e := m[0], m[1]
			if (s == 0 || unicode.IsUpper(rune(name[s]))) && (e == len(name) || !unicode.IsLower(rune(name[e]))) {
				return true
			}
		}
	}
	return false
}

// TestSaysTool checks the word matching TestCoreSmall relies on.
func TestSaysTool(t *testing.T) {
	for _, c := range []struct {
		name, tool string
		want       bool
	}{
		{"abKeyBanner", "ab", true}, {"isAbExe", "ab", true}, {"abCSVParser", "ab", true}, {"table", "ab", false},
		{"kNone", "wrk", false}, {"wrkKindNone", "wrk", true}, {"wrk2Spectrum", "wrk", true}, {"parseJTLCSV", "jmeter", true},
		{"k6NDJSONParser", "k6", true}, {"isH2loadExe", "h2load", true}, {"ohaKeyAvg", "oha", true}, {"okAvg", "oha", false},
		{"abandon", "ab", false},
	} {
		if got := saysTool(c.name, c.tool); got != c.want {
			t.Errorf("saysTool(%q, %q) = %v", c.name, c.tool, got)
		}
	}
}

// TestDetectUnique: no input under testdata/ (this package's, the truth
// data, the examples) is recognized by two formats, so that the order of
// the list decides nothing for them, and a new format that claims
// another tool's output fails here. The project's data sets
// (../testdata: the conformance grid and the truth data, 5,000 files
// written by a few tools) are sampled unless ingesttest.Long: the first
// file of each kind (its folder under testdata/ and its name with the
// digits left out, e.g. conformance/flat and runN.json.gz) and every 8th
// file; every sample of the formats and every example is checked.
func TestDetectUnique(t *testing.T) {
	t.Parallel() // reads files, no shared state (the memory checks of guard_test.go run alone, sequential)
	n := 0
	roots, _ := filepath.Glob("*/testdata")
	kinds := map[string]bool{}
	digits := regexp.MustCompile(`[0-9]+`)
	for _, root := range append(roots, "testdata", "../testdata", "../examples") {
		i := 0
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			switch filepath.Ext(path) {
			case ".md", ".go", ".png", ".sh", ".src", ".yaml", ".yml", ".py", ".js", ".jmx", ".java":
				return nil
			}
			if strings.HasSuffix(path, ".golden.json") || strings.Contains(path, string(filepath.Separator)+"fuzz"+string(filepath.Separator)) {
				return nil
			}
			if root == "../testdata" && !ingesttest.Long() {
				rel, _ := filepath.Rel(root, path)
				parts := strings.Split(filepath.ToSlash(rel), "/")
				kind := parts[0] + "/" + digits.ReplaceAllString(parts[len(parts)-1], "N")
				if len(parts) > 2 {
					kind = parts[0] + "/" + parts[1] + "/" + digits.ReplaceAllString(parts[len(parts)-1], "N")
				}
				i++
				if kinds[kind] && i%8 != 0 {
					return nil
				}
				kinds[kind] = true
			}
			head := k6FileHead(t, path)
			var claims []string
			for _, f := range formats {
				if f.parser.Detect(head) {
					claims = append(claims, f.parser.Name())
				}
			}
			if len(claims) > 1 {
				t.Errorf("%s is recognized by %d formats: %v", path, len(claims), claims)
			}
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 300 {
		t.Errorf("only %d inputs looked at", n)
	}
}

// sampleDirs lists every folder of samples: this package's testdata/*
// and each tool package's <pkg>/testdata/* (the fuzz corpora among them).
func sampleDirs() []string {
	here, _ := filepath.Glob("testdata/*")
	tools, _ := filepath.Glob("*/testdata/*")
	return append(here, tools...)
}
