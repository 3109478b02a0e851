package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/cmpimg"
)

// exampleDir holds the committed report of the bundled example, made by
//
//	go run ./cmd/loadverdict report -o examples/zuul-vs-openresty examples/zuul-vs-openresty.txt
//
// from the repository's root. `go test ./cmd/loadverdict -run TestExampleReport -update` remakes it.
const exampleDir = "examples/zuul-vs-openresty"

// TestExampleReportIsCurrent fails when the committed example report is
// not what the code makes of the bundled example today.
func TestExampleReportIsCurrent(t *testing.T) {
	t.Chdir("../..")
	dir := exampleDir
	if !*update {
		dir = t.TempDir()
	} else if err := os.RemoveAll(exampleDir); err != nil {
		t.Fatal(err)
	}
	if _, errOut, err := runCLI(t, "", "report", "-o", dir, "examples/zuul-vs-openresty.txt"); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	if *update {
		return
	}
	got, want := listFiles(t, dir), listFiles(t, exampleDir)
	if !slices.Equal(got, want) {
		t.Fatalf("files differ: made %v, committed %v (go test ./cmd/loadverdict -run TestExampleReport -update)", got, want)
	}
	for _, name := range got {
		a, _ := os.ReadFile(filepath.Join(dir, name))
		b, _ := os.ReadFile(filepath.Join(exampleDir, name))
		if strings.HasSuffix(name, ".png") {
			ok, err := cmpimg.EqualApprox("png", a, b, 0.01)
			if err != nil || !ok {
				t.Errorf("%s differs from the committed figure (%v); run with -update and look at it", name, err)
			}
			if _, err := png.Decode(bytes.NewReader(a)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s is stale: run go test ./cmd/loadverdict -run TestExampleReport -update", name)
		}
	}
}

// listFiles lists the files below dir, relative and sorted.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}
