package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/store"
	"github.com/loadverdict/loadverdict/internal/version"
	"github.com/loadverdict/loadverdict/report"
)

const wrkData = "../../ingest/wrk/testdata/wrk/"

// pkgDir is this package's folder, where the tests start.
var pkgDir, _ = os.Getwd()

// layout copies files into root: relative path -> a file relative to
// this package's folder, or the content when no such file exists.
func layout(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, src := range files {
		b, err := os.ReadFile(filepath.Join(pkgDir, src))
		if err != nil {
			b = []byte(src)
		}
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checksums maps every file below dir to its sha256.
func checksums(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		out[p] = sha256File(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkUnchanged fails for every file of sums whose content changed.
func checkUnchanged(t *testing.T, sums map[string][32]byte) {
	t.Helper()
	for p, sum := range sums {
		if sha256File(t, p) != sum {
			t.Errorf("input %s changed", p)
		}
	}
}

func readSummary(t *testing.T, path string) report.Summary {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s report.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// labelsBySource maps each source of a summary to its runs' systems.
func labelsBySource(s report.Summary) map[string]string {
	sets := map[string]map[string]bool{}
	for _, r := range s.Runs {
		if sets[r.Source] == nil {
			sets[r.Source] = map[string]bool{}
		}
		sets[r.Source][r.Label] = true
	}
	out := map[string]string{}
	for src, set := range sets {
		out[src] = strings.Join(slices.Sorted(maps.Keys(set)), "+")
	}
	return out
}

// --system and --label on report, with a manifest in the input folder:
// source-named systems first, then target mappings, then host:port.
func TestReportSystemsAndLabels(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	layout(t, ".", map[string]string{
		"runs/seed.txt":          seedFile,
		"runs/old/wrk_02.txt":    wrkData + "wrk_02.txt",
		"runs/new/wrk_03.txt":    wrkData + "wrk_03.txt",
		"runs/loadverdict.yaml":  "labels: {localhost:80: openresty, localhost:5555: zuul}\nsystems: {fresh: [new]}\n",
		"elsewhere/manifest.yml": "labels: {localhost:80: nginx}\n",
	})
	for _, tc := range []struct {
		name string
		args []string
		want map[string]string
	}{
		{"folder manifest", []string{"runs"}, map[string]string{
			"runs/seed.txt": "openresty+zuul", "runs/old/wrk_02.txt": "127.0.0.1:8080", "runs/new/wrk_03.txt": "fresh"}},
		{"flags over the manifest", []string{"--system", "before=runs/old", "--label", "localhost:80=web", "runs"}, map[string]string{
			"runs/seed.txt": "web+zuul", "runs/old/wrk_02.txt": "before", "runs/new/wrk_03.txt": "fresh"}},
		{"--system PATH is an input", []string{"--system", "s=runs/seed.txt", "runs/old"}, map[string]string{
			"runs/old/wrk_02.txt": "127.0.0.1:8080", "runs/seed.txt": "s"}},
		{"--manifest wins over the folder's", []string{"--manifest", "elsewhere/manifest.yml", "runs"}, map[string]string{
			"runs/seed.txt": "Zuul+nginx", "runs/old/wrk_02.txt": "127.0.0.1:8080", "runs/new/wrk_03.txt": "127.0.0.1:8080"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"report", "-o", out}, tc.args...)
			if _, errOut, err := runCLI(t, "", args...); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, errOut)
			}
			if got := labelsBySource(readSummary(t, filepath.Join(out, "summary.json"))); !maps.Equal(got, tc.want) {
				t.Errorf("systems %v, want %v", got, tc.want)
			}
		})
	}
}

// A name that matches nothing exits 2 with a message listing the systems.
func TestUnknownNamesExit2(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	layout(t, ".", map[string]string{
		"a/seed.txt":               seedFile,
		"badglob/seed.txt":         seedFile,
		"badglob/loadverdict.yaml": "systems: {gone: ['nosuch/*']}\n",
		"badbase/seed.txt":         seedFile,
		"badbase/loadverdict.yaml": "baseline: nosuch\n",
		"empty/.hidden":            "x",
	})
	const systems = "the systems are: OpenResty, Zuul"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"report", "--baseline", "nosuch", "a"}, `baseline "nosuch" is not a system of experiment a; ` + systems},
		{[]string{"report", "badglob"}, `system "gone": nosuch/* matched no input (the manifest's systems.gone); the systems are: OpenResty, Zuul`},
		{[]string{"report", "badbase"}, `baseline "nosuch"`},
		{[]string{"report", "--system", "x=nosuch", "a"}, "--system x=nosuch: no such file or directory"},
		{[]string{"report", "--system", "x=empty", "a"}, "--system x=empty: no input files there"},
		{[]string{"report", "--system", "p=a", "--system", "q=a/seed.txt", "a"}, `matched by two systems, "p" and "q"`},
		{[]string{"report", "badglob", "badbase"}, "several manifests (badglob/loadverdict.yaml, badbase/loadverdict.yaml)"},
		{[]string{"compare", "--system", "x=badbase", "a", "badglob"}, "in compare, --system names OLD"},
		{[]string{"compare", "a", "nosuch"}, "NEW nosuch: no such file or directory"},
		{[]string{"compare", "a", "a/seed.txt"}, "a/seed.txt is in both OLD and NEW"},
	} {
		out := t.TempDir()
		args := append([]string{tc.args[0], "-o", out}, tc.args[1:]...)
		_, _, err := runCLI(t, "", args...)
		if exitCode(err) != exitUsage || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: exit %d, err %v; want exit 2 with %q", args, exitCode(err), err, tc.want)
		}
	}
}

// TestFolderManifestSameAsBucket: a folder with loadverdict.yaml (labels,
// baseline, systems, slo, gate) gives the same report through `report` as
// through the bucket pipeline (Ingest and Analyze on a local store laid
// out as a bucket), the gate's decision included.
func TestFolderManifestSameAsBucket(t *testing.T) {
	root := t.TempDir()
	const exp = "tuning"
	layout(t, root, map[string]string{
		"raw/tuning/loadverdict.yaml": "labels: {localhost:80: openresty}\nsystems: {before: [old], after: ['new/*.txt']}\nbaseline: before\n" +
			"slo: ['lat_mean_ms{system=after}<1000', 'error_rate<0.5']\ngate: {fail_on: [regression, inconclusive], max_regression: 5%}\n",
		"raw/tuning/old/wrk_02.txt":    wrkData + "wrk_02.txt",
		"raw/tuning/old/wrk_10.txt":    wrkData + "wrk_10.txt",
		"raw/tuning/new/wrk_03.txt":    wrkData + "wrk_03.txt",
		"raw/tuning/new/wrk_11.txt":    wrkData + "wrk_11.txt",
		"raw/tuning/seed.txt":          seedFile,
		"raw/tuning/zz-not-a-load.bin": "\x00\x01 not a load test\n",
	})
	st, err := store.NewLocal(root)
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Store: st, GeneratedBy: version.GeneratedBy(), TempDir: t.TempDir()}
	ctx := context.Background()
	raws, err := st.List(ctx, "raw/")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range raws {
		if _, err := p.Ingest(ctx, o.Key); err != nil && !strings.Contains(o.Key, "zz-not-a-load") {
			t.Fatal(err)
		}
	}
	if _, err := p.Analyze(ctx, exp); err != nil {
		t.Fatal(err)
	}
	before := checksums(t, filepath.Join(root, "raw"))
	t.Chdir(root)
	local := t.TempDir()
	_, errOut, err := runCLI(t, "", "report", "-o", local, "raw/tuning")
	if !errors.Is(err, errReported) {
		t.Fatalf("report: %v (want the rejected input reported)\n%s", err, errOut)
	}
	// The gate failed too (inconclusive: one or two runs a side), but an
	// unread input exits 1; the gate's reasons are on stderr.
	if !strings.Contains(errOut, "loadverdict: gate failed:\n  - inconclusive: ") {
		t.Errorf("stderr lacks the gate's reasons:\n%s", errOut)
	}
	names := []string{"report.md", "summary.md", "summary.json"}
	figs, _ := filepath.Glob(filepath.Join(root, "reports", exp, "*.png"))
	for _, f := range figs {
		names = append(names, filepath.Base(f))
	}
	for _, name := range names {
		a, err1 := os.ReadFile(filepath.Join(root, "reports", exp, name))
		b, err2 := os.ReadFile(filepath.Join(local, name))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between the bucket pipeline and report (%v, %v)", name, err1, err2)
		}
	}
	s := readSummary(t, filepath.Join(local, "summary.json"))
	got := labelsBySource(s)
	want := map[string]string{"raw/tuning/old/wrk_02.txt": "before", "raw/tuning/old/wrk_10.txt": "before",
		"raw/tuning/new/wrk_03.txt": "after", "raw/tuning/new/wrk_11.txt": "after", "raw/tuning/seed.txt": "Zuul+openresty"}
	if !maps.Equal(got, want) {
		t.Errorf("systems %v, want %v", got, want)
	}
	for _, c := range s.Comparisons {
		if c.B != "before" {
			t.Errorf("comparison %s vs %s: the baseline is not side b", c.A, c.B)
		}
	}
	if len(s.Comparisons) == 0 {
		t.Error("no comparison against the baseline")
	}
	if !s.Gate.Failed || strings.Join(s.Gate.FailOn, ",") != "regression,threshold,marginal,inconclusive,unknown,no-comparison,errors" || s.Gate.MaxRegressionPct != 5 ||
		len(s.Thresholds) == 0 || s.Thresholds[0].Threshold != "lat_mean_ms{system=after}<1000" || s.Thresholds[0].System != "after" {
		t.Errorf("gate %+v, thresholds %+v", s.Gate, s.Thresholds)
	}
	if md, _ := os.ReadFile(filepath.Join(local, "report.md")); !strings.Contains(string(md), "zz-not-a-load.bin") {
		t.Error("report.md does not list the rejected input")
	}
	checkUnchanged(t, before)
}

// report -o replaces its own experiment's tables and never touches
// another experiment's; the same file name in two experiments does not
// collide; the inputs are only read.
func TestReportTouchesOnlyItsExperiment(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	layout(t, ".", map[string]string{
		"a/run.txt":  wrkData + "wrk_02.txt",
		"b/run.txt":  wrkData + "wrk_03.txt",
		"a/more.txt": wrkData + "wrk_10.txt",
	})
	inputs := checksums(t, ".")
	out := filepath.Join(dir, "out")
	run := func(args ...string) {
		t.Helper()
		if _, errOut, err := runCLI(t, "", append([]string{"report", "-o", out}, args...)...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errOut)
		}
	}
	run("a")
	run("b")
	expA := checksums(t, filepath.Join(out, "tables", "runs", "experiment=a"))
	expB := checksums(t, filepath.Join(out, "tables", "runs", "experiment=b"))
	if len(expA) != 2 || len(expB) != 1 {
		t.Fatalf("tables of a: %d, of b: %d; want 2 and 1", len(expA), len(expB))
	}
	// Same name run.txt: a's and b's tables differ and both stay.
	if tableFile(out, "runs", "a", "a/run.txt") == tableFile(out, "runs", "b", "b/run.txt") {
		t.Fatal("the same file name collides")
	}
	// a again with one input: its other table is stale output and goes;
	// b's stays byte for byte.
	run("--experiment", "a", "a/run.txt")
	if _, err := os.Stat(tableFile(out, "runs", "a", "a/more.txt")); !os.IsNotExist(err) {
		t.Errorf("stale table of a/more.txt kept: %v", err)
	}
	if _, err := os.Stat(tableFile(out, "percentiles", "a", "a/more.txt")); !os.IsNotExist(err) {
		t.Errorf("stale percentiles of a/more.txt kept: %v", err)
	}
	if got := checksums(t, filepath.Join(out, "tables", "runs", "experiment=b")); !maps.Equal(got, expB) {
		t.Error("experiment b's tables changed")
	}
	if s := readSummary(t, filepath.Join(out, "summary.json")); len(s.Runs) != 1 || s.Runs[0].Source != "a/run.txt" {
		t.Errorf("the report covers %+v, want only a/run.txt", s.Runs)
	}
	// ingest --out adds to an experiment, never removes.
	if _, errOut, err := runCLI(t, "", "ingest", "--out", out, "--experiment", "b", "a/more.txt"); err != nil {
		t.Fatalf("ingest: %v\n%s", err, errOut)
	}
	if got := checksums(t, filepath.Join(out, "tables", "runs", "experiment=b")); len(got) != 2 {
		t.Errorf("ingest --out: experiment b has %d runs tables, want 2", len(got))
	}
	// Two inputs whose default experiment names collide (run.txt of a
	// and of b are both experiment "run"): the second report says that it
	// replaced the first's tables, and how to keep both.
	run("a/run.txt")
	if _, errOut, err := runCLI(t, "", "report", "-o", out, "b/run.txt"); err != nil || !strings.Contains(errOut, "experiment run in "+out+" held the tables of 1 other input") ||
		!strings.Contains(errOut, "--experiment NAME") {
		t.Errorf("colliding default names: %v\n%s", err, errOut)
	}
	checkUnchanged(t, inputs)
	// An input inside the output folder's own files is refused.
	if _, _, err := runCLI(t, "", "report", "-o", out, filepath.Join(out, "summary.json")); exitCode(err) != exitUsage {
		t.Errorf("an input in the output folder: %v", err)
	}
}

// compare OLD NEW: the runs of each side form a system named after its
// folder, also on the same host:port; OLD is the baseline.
func TestCompareFolders(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	layout(t, ".", map[string]string{
		"old/wrk_02.txt":       wrkData + "wrk_02.txt",
		"old/wrk_10.txt":       wrkData + "wrk_10.txt",
		"new/wrk_03.txt":       wrkData + "wrk_03.txt",
		"new/wrk_11.txt":       wrkData + "wrk_11.txt",
		"x/run/wrk_02.txt":     wrkData + "wrk_02.txt",
		"y/run/wrk_03.txt":     wrkData + "wrk_03.txt",
		"old/loadverdict.yaml": "labels: {127.0.0.1:8080: ignored}\n",
	})
	inputs := checksums(t, ".")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, tc := range []struct {
		args     []string
		old, new string
		settings int
	}{
		{[]string{"old", "new"}, "old", "new", 2},
		{[]string{"new/", "./old"}, "new", "old", 2},
		{[]string{"x/run", "y/run"}, "old", "new", 1},
		{[]string{"--system", "v1=old", "old", "new"}, "v1", "new", 2},
	} {
		// One run a side cannot rule out a regression: allowed here, the
		// test is about naming and grouping (the gate fails closed).
		out, errOut, err := runCLI(t, "", append([]string{"compare", "--format", "json", "--allow", "inconclusive"}, tc.args...)...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", tc.args, err, errOut)
		}
		var res report.CompareDoc
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v: %v\n%s", tc.args, err, out)
		}
		if res.Old != tc.old || res.New != tc.new || res.Headline == "" {
			t.Errorf("%v: old %q new %q headline %q", tc.args, res.Old, res.New, res.Headline)
		}
		settings := map[string]bool{}
		for _, c := range res.Comparisons {
			if c.A != tc.new || c.B != tc.old {
				t.Errorf("%v: comparison %s vs %s, want %s vs %s", tc.args, c.A, c.B, tc.new, tc.old)
			}
			settings[fmt.Sprint(*c.Connections)] = true
		}
		if len(settings) != tc.settings {
			t.Errorf("%v: compared at %d settings, want %d", tc.args, len(settings), tc.settings)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("compare without -o left %d files in the temporary folder", len(left))
	}
	// Text and markdown; -o writes the full report.
	rep := filepath.Join(dir, "rep")
	out, errOut, err := runCLI(t, "", "compare", "-o", rep, "--allow", "inconclusive", "old", "new")
	if err != nil || !strings.Contains(out, "new vs old (the baseline) at ") || !strings.Contains(out, "req/s") {
		t.Errorf("compare text: %v %q %q", err, out, errOut)
	}
	if s := readSummary(t, filepath.Join(rep, "summary.json")); s.Experiment != "old-vs-new" || len(s.Systems) != 2 {
		t.Errorf("compare -o: experiment %q, %d systems", s.Experiment, len(s.Systems))
	}
	out, _, err = runCLI(t, "", "compare", "--format", "markdown", "--allow", "inconclusive", "old", "new")
	if err != nil || !strings.Contains(out, "| | old | new | delta | 95 % CI | p | runs |") {
		t.Errorf("compare markdown: %v %q", err, out)
	}
	// With --store: experiments of a store.
	st := filepath.Join(dir, "st")
	for _, side := range []string{"old", "new"} {
		if _, errOut, err := runCLI(t, "", "report", "-o", st, side); err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
	}
	out, errOut, err = runCLI(t, "", "compare", "--store", st, "--format", "json", "--allow", "inconclusive", "old", "new")
	var res report.CompareDoc
	if err != nil || json.Unmarshal([]byte(out), &res) != nil || len(res.Comparisons) == 0 || res.Comparisons[0].B != "old" {
		t.Errorf("compare --store: %v %s %s", err, out, errOut)
	}
	if _, _, err := runCLI(t, "", "compare", "--store", st, "old", "nosuch"); exitCode(err) != exitUsage ||
		!strings.Contains(err.Error(), "the systems are: old") {
		t.Errorf("compare --store with an unknown experiment: %v", err)
	}
	checkUnchanged(t, inputs)
}
