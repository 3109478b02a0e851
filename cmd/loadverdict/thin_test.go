package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestThinCLI: the command line keeps its flags, its printing and its
// exit status; what it does is one call per command into internal/local
// or the pipeline (issue 23). Its code imports neither the store (the key
// layout), nor the tables' model or their Arrow and Parquet libraries.
func TestThinCLI(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{"github.com/loadverdict/loadverdict/internal/store", "github.com/loadverdict/loadverdict/results", "github.com/apache/arrow-go"}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		n++
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, bad := range forbidden {
				if strings.HasPrefix(path, bad) {
					t.Errorf("%s imports %s: the key layout and the tables belong to internal/local, the pipeline and the store", f, path)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no source files")
	}
}
