package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/cmpimg"

	"github.com/loadverdict/loadverdict/internal/local"
)

// examples are the committed reports of examples/, each made from the
// repository's root by the command given (args after "loadverdict"), with
// the exit status it has. `go test ./cmd/loadverdict -run TestExample -update`
// remakes them. A README.md beside an example's files is its own.
var examples = []struct {
	dir  string
	args []string
	exit int
}{
	{"examples/zuul-vs-openresty", []string{"report", "-o", "examples/zuul-vs-openresty", "examples/zuul-vs-openresty.txt"}, exitOK},
	{"examples/before-after", []string{"compare", "-o", "examples/before-after", "--fail-on", "regression", "--threshold", "lat_p99_ms<250",
		"testdata/truth/before-after/old", "testdata/truth/before-after/new"}, exitGate},
	{"examples/history", []string{"history", "-o", "examples/history", "--fail-on", "regression", "--max-regression", "5",
		"testdata/truth/series/exp01", "testdata/truth/series/exp02", "testdata/truth/series/exp03", "testdata/truth/series/exp04",
		"testdata/truth/series/exp05", "testdata/truth/series/exp06", "testdata/truth/series/exp07", "testdata/truth/series/exp08"}, exitGate},
	{"examples/nightly-control", append([]string{"history", "-o", "examples/nightly-control", "--control", "control", "--max-regression", "5"},
		nights("testdata/truth/nightly-swings-step", 12)...), exitGate},
	{"examples/errors", []string{"report", "-o", "examples/errors", "--experiment", "errors-breakdown",
		"--system", "vegeta=testdata/truth/errors-breakdown/vegeta", "--system", "hey=testdata/truth/errors-breakdown/hey",
		"--system", "jmeter=testdata/truth/errors-breakdown/jmeter",
		"testdata/truth/errors-breakdown/vegeta", "testdata/truth/errors-breakdown/hey", "testdata/truth/errors-breakdown/jmeter"}, exitOK},
}

// nights are dir/night01 .. dir/nightNN.
func nights(dir string, n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("%s/night%02d", dir, i))
	}
	return out
}

// TestExampleReportIsCurrent fails when a committed example report is
// not what the code makes of its inputs today.
func TestExampleReportIsCurrent(t *testing.T) {
	t.Chdir("../..")
	for _, ex := range examples {
		dir := ex.dir
		if !*update {
			dir = t.TempDir()
		} else if err := removeExample(ex.dir); err != nil {
			t.Fatal(err)
		}
		args := slices.Clone(ex.args)
		args[slices.Index(args, "-o")+1] = dir
		if _, errOut, err := runCLI(t, "", args...); exitCode(err) != ex.exit {
			t.Fatalf("%v: exit %d, want %d: %v\n%s", args, exitCode(err), ex.exit, err, errOut)
		}
		if *update {
			continue
		}
		got, want := listFiles(t, dir), listFiles(t, ex.dir)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: files differ: made %v, committed %v (go test ./cmd/loadverdict -run TestExampleReport -update)", ex.dir, got, want)
		}
		for _, name := range got {
			a, _ := os.ReadFile(filepath.Join(dir, name))
			b, _ := os.ReadFile(filepath.Join(ex.dir, name))
			if strings.HasSuffix(name, ".png") {
				ok, err := cmpimg.EqualApprox("png", a, b, 0.01)
				if err != nil || !ok {
					t.Errorf("%s/%s differs from the committed figure (%v); run with -update and look at it", ex.dir, name, err)
				}
				if _, err := png.Decode(bytes.NewReader(a)); err != nil {
					t.Errorf("%s: %v", name, err)
				}
				continue
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s/%s is stale: run go test ./cmd/loadverdict -run TestExampleReport -update", ex.dir, name)
			}
		}
	}
}

// removeExample removes what an example's command made in dir, keeping
// its README.md.
func removeExample(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	for _, e := range entries {
		if e.Name() != "README.md" {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
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
		// The output folder's bookkeeping (its list of files, its lock
		// holding a pid) is no part of the report.
		if rel != "README.md" && rel != local.OwnListName && rel != local.LockName {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}
