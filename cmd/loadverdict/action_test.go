package main

import (
	"archive/tar"
	"cmp"
	"compress/gzip"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
	"mvdan.cc/sh/v3/syntax"
)

const (
	// actionDoc is the Action's reference; its Inputs and Outputs tables
	// list action.yml's inputs and outputs.
	actionDoc = "../../docs/ACTION.md"
	// releaseWorkflow builds and publishes the archives the Action installs.
	releaseWorkflow = "../../.github/workflows/release.yml"
	// versionFlag is the -X that stamps a release's version.
	versionFlag = "-X github.com/loadverdict/loadverdict/internal/version.Override="
)

// The release scheme: what `uses: loadverdict/loadverdict@REF` may name.
var (
	actionUse     = regexp.MustCompile("loadverdict/loadverdict@([^\\s\"'`)]*)")
	releaseScheme = regexp.MustCompile(`^v\d+(\.\d+\.\d+)?$`)
)

// docTable returns the rows of the first table under the heading
// "## "+section of a Markdown file: the first cell (backquotes removed) to
// the second.
func docTable(t *testing.T, doc, section string) map[string]string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n## "+section+"\n")
	if !ok {
		t.Fatalf("%s: no section %q", actionDoc, section)
	}
	rows := map[string]string{}
	inTable := false
	for line := range strings.Lines(rest) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		header := !inTable
		inTable = true
		cells := strings.Split(strings.Trim(line, "|"), "|")
		name := strings.Trim(strings.TrimSpace(cells[0]), "`")
		if header || len(cells) < 2 || strings.HasPrefix(name, "---") {
			continue
		}
		if _, dup := rows[name]; dup {
			t.Errorf("%s %s: %q twice", actionDoc, section, name)
		}
		rows[name] = strings.TrimSpace(cells[1])
	}
	return rows
}

// docDefault is how docs/ACTION.md writes an input's default.
func docDefault(def string, required bool) string {
	switch {
	case required && def == "":
		return "required"
	case def == "":
		return "`''`"
	}
	return "`" + def + "`"
}

// yamlBlocks returns the YAML documents a file holds: a .yml file itself,
// a Markdown file's ```yaml blocks.
func yamlBlocks(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, ".md") {
		return []string{string(b)}
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?ms)^```ya?ml\n(.*?)^```").FindAllStringSubmatch(string(b), -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// actionSteps returns the `with:` of every step in a YAML document that
// uses loadverdict/loadverdict, wherever it stands (a workflow, a list of
// steps, one step).
func actionSteps(t *testing.T, where, doc string) []map[string]string {
	t.Helper()
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &root); err != nil {
		t.Fatalf("%s: a YAML block does not parse: %v\n%s", where, err, doc)
	}
	var out []map[string]string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			var step struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			}
			if err := n.Decode(&step); err == nil && strings.HasPrefix(step.Uses, "loadverdict/loadverdict@") {
				out = append(out, step.With)
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&root)
	return out
}

// actionDocs are the files that show the Action in use.
func actionDocs(t *testing.T) []string {
	t.Helper()
	files := []string{"../../README.md", actionFile, releaseWorkflow}
	for _, pattern := range []string{"../../docs/*.md", "../../examples/*/*.yml", "../../examples/*/*.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	return files
}

// TestActionDocs checks that action.yml and its documentation agree: every
// input and output is a row of docs/ACTION.md's tables, with the same
// default, and every row is one; every step of the README's, the docs' and
// the examples' YAML that uses the Action gives only inputs it has, its
// required ones included, and a command line loadverdict accepts; every
// loadverdict/loadverdict@REF they write is a release (vX.Y.Z) or a major
// version (vN), the refs the release workflow makes.
func TestActionDocs(t *testing.T) {
	var a action
	readYAML(t, actionFile, &a)
	b, err := os.ReadFile(actionDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)

	inputs := docTable(t, doc, "Inputs")
	for name, in := range a.Inputs {
		got, ok := inputs[name]
		switch want := docDefault(in.Default, in.Required); {
		case !ok:
			t.Errorf("input %q is not in %s", name, actionDoc)
		case got != want:
			t.Errorf("input %q: %s says default %s, action.yml %s", name, actionDoc, got, want)
		}
	}
	for name := range inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Errorf("%s: input %q is not in action.yml", actionDoc, name)
		}
	}
	outputs := docTable(t, doc, "Outputs")
	for name := range a.Outputs {
		if _, ok := outputs[name]; !ok {
			t.Errorf("output %q is not in %s", name, actionDoc)
		}
	}
	for name := range outputs {
		if _, ok := a.Outputs[name]; !ok {
			t.Errorf("%s: output %q is not in action.yml", actionDoc, name)
		}
	}

	uses := map[string]int{}
	for _, file := range actionDocs(t) {
		for _, block := range yamlBlocks(t, file) {
			for _, with := range actionSteps(t, file, block) {
				uses[file]++
				for key := range with {
					if _, ok := a.Inputs[key]; !ok {
						t.Errorf("%s: the Action has no input %q", file, key)
					}
				}
				for name, in := range a.Inputs {
					if _, ok := with[name]; in.Required && !ok {
						t.Errorf("%s: the Action's required input %q is missing", file, name)
					}
				}
				command := cmp.Or(with["command"], a.Inputs["command"].Default)
				for _, args := range shellCommands(t, "loadverdict "+command+" "+with["args"]) {
					checkCLI(t, args[1:])
				}
			}
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range actionUse.FindAllStringSubmatch(string(b), -1) {
			if !releaseScheme.MatchString(m[1]) {
				t.Errorf("%s: %s: want a release vX.Y.Z or a major version vN", file, m[0])
			}
		}
	}
	for _, file := range []string{"../../README.md", actionDoc, workflowFile} {
		if uses[file] == 0 {
			t.Errorf("%s: no YAML step uses the Action", file)
		}
	}
}

// scriptAssigns returns the words a script assigns to the variable name,
// as written (syntax.Printer).
func scriptAssigns(t *testing.T, script, name string) []string {
	t.Helper()
	f := parseScript(t, script)
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if as, ok := n.(*syntax.Assign); ok && as.Name != nil && as.Name.Value == name && as.Value != nil {
			var b strings.Builder
			if err := syntax.NewPrinter().Print(&b, as.Value); err != nil {
				t.Fatal(err)
			}
			out = append(out, b.String())
		}
		return true
	})
	return out
}

// scriptLoop returns the words of the script's `for name in WORDS` loop.
func scriptLoop(t *testing.T, script, name string) []string {
	t.Helper()
	f := parseScript(t, script)
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if it, ok := n.(*syntax.WordIter); ok && it.Name.Value == name {
			for _, w := range it.Items {
				out = append(out, w.Lit())
			}
		}
		return true
	})
	return out
}

// fakeGo is a `go` for the release workflow's build step: `go build ...
// -ldflags FLAGS -o FILE` writes FILE, a script that prints "loadverdict"
// and the version the flags stamp, and names GOOS/GOARCH in a comment; it
// logs every build to $FAKE_GO_LOG.
const fakeGo = `#!/usr/bin/env bash
set -eu
[ "$1" = build ] || { echo "fake go: $*" >&2; exit 2; }
out="" ldflags=""
while [ $# -gt 0 ]; do
  case $1 in -o) out=$2; shift ;; -ldflags) ldflags=$2; shift ;; esac
  shift
done
printf '#!/bin/sh\n# %s/%s\necho "loadverdict %s"\n' "$GOOS" "$GOARCH" "${ldflags##*.Override=}" > "$out"
chmod +x "$out"
echo "CGO_ENABLED=${CGO_ENABLED:-} $GOOS/$GOARCH $ldflags" >> "$FAKE_GO_LOG"
`

// runStep runs a step's bash script as the runner does (bash --noprofile
// --norc -eo pipefail) in dir, with env and the runner's files; it
// returns the step's outputs, the folders it added to PATH, and its
// output.
func runStep(t *testing.T, script, dir string, env []string) (outputs map[string]string, path []string, log string, err error) {
	t.Helper()
	tmp := t.TempDir()
	file := filepath.Join(tmp, "step.sh")
	outFile, pathFile := filepath.Join(tmp, "output"), filepath.Join(tmp, "path")
	runnerTemp := filepath.Join(tmp, "runner")
	for _, p := range []string{file, outFile, pathFile} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(runnerTemp, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", file)
	cmd.Dir = dir
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "RUNNER_TEMP=" + runnerTemp,
		"GITHUB_OUTPUT=" + outFile, "GITHUB_PATH=" + pathFile,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0",
	}, env...)
	b, err := cmd.CombinedOutput()
	outputs = map[string]string{}
	o, _ := os.ReadFile(outFile)
	for line := range strings.Lines(string(o)) {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
			outputs[k] = v
		}
	}
	p, _ := os.ReadFile(pathFile)
	return outputs, strings.Fields(string(p)), string(b), err
}

// stepEnv evaluates a step's env: (inputs.NAME and github.NAME only).
func stepEnv(t *testing.T, env map[string]string, ctx map[string]map[string]string) []string {
	t.Helper()
	expr := regexp.MustCompile(`^\$\{\{\s*(inputs|github)\.([\w-]+)\s*\}\}$`)
	var out []string
	for k, v := range env {
		m := expr.FindStringSubmatch(v)
		if m == nil {
			t.Fatalf("env %s: %q is not ${{ inputs.X }} or ${{ github.X }}", k, v)
		}
		out = append(out, k+"="+ctx[m[1]][m[2]])
	}
	return out
}

// gitRepo makes the bare repository root/loadverdict/loadverdict: commit
// one tagged v1.0.0 (annotated), two tagged v1.1.0 and v1, three main's
// untagged head. It returns the commits by name.
func gitRepo(t *testing.T, root string) map[string]string {
	t.Helper()
	src := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, b)
		}
		return strings.TrimSpace(string(b))
	}
	git("init", "-q", "-b", "main")
	commits := map[string]string{}
	for _, c := range []string{"one", "two", "three"} {
		git("commit", "-q", "--allow-empty", "-m", c)
		commits[c] = git("rev-parse", "HEAD")
		switch c {
		case "one":
			git("tag", "-a", "-m", "v1.0.0", "v1.0.0")
		case "two":
			git("tag", "v1.1.0")
			git("tag", "v1")
		}
	}
	git("clone", "-q", "--bare", src, filepath.Join(root, "loadverdict", "loadverdict"))
	return commits
}

// TestReleaseAssets checks that the Action installs what the release
// workflow publishes. Both name the archive with the one template
// loadverdict_${version}_${goos}_${goarch}.tar.gz; the release builds one
// for each target, stamps its version and publishes the archives and
// SHA256SUMS. Then it runs the release's build step (with a stand-in go)
// for three releases, serves them and a git repository of their tags on
// 127.0.0.1 as GitHub does, and runs the Action's install step against
// them: a major tag, a release, latest, a commit and a branch resolve to
// the right release or to go install; every target's runner gets its own
// binary, on PATH; a checksum that does not match fails the step.
func TestReleaseAssets(t *testing.T) {
	var a action
	readYAML(t, actionFile, &a)
	var wf workflow
	readYAML(t, releaseWorkflow, &wf)
	s := findReleaseSteps(t, a, wf)
	targets := checkReleaseScripts(t, s)

	// The releases, built by the release workflow's own step.
	fakeBin := t.TempDir()
	if err := os.WriteFile(filepath.Join(fakeBin, "go"), []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	releases := map[string]string{} // tag: the folder of its files
	for _, v := range []string{"v1.0.0", "v1.1.0", "v1.0.2"} {
		releases[v] = buildRelease(t, s.build, fakeBin, v, targets)
	}
	// v1.0.2 was tampered with: its linux/amd64 archive is another, valid
	// one, not the one its SHA256SUMS lists.
	other, err := os.ReadFile(filepath.Join(releases["v1.0.2"], "loadverdict_v1.0.2_linux_arm64.tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(releases["v1.0.2"], "loadverdict_v1.0.2_linux_amd64.tar.gz"), other, 0o644); err != nil {
		t.Fatal(err)
	}

	root := t.TempDir()
	commits := gitRepo(t, root)
	srv := httptest.NewServer(releaseServer(t, root, releases))
	defer srv.Close()

	inputs := map[string]string{}
	for name, in := range a.Inputs {
		inputs[name] = in.Default
	}
	inputs["release-repository"] = srv.URL + "/loadverdict/loadverdict"
	covered := map[string]bool{}
	for _, c := range installCases(commits) {
		t.Run(c.name, func(t *testing.T) {
			in := maps.Clone(inputs)
			in["version"] = c.version
			env := stepEnv(t, s.installEnv, map[string]map[string]string{
				"inputs": in,
				"github": {"action_ref": c.actionRef, "action_repository": c.actionRepo},
			})
			env = append(env, "RUNNER_OS="+c.os, "RUNNER_ARCH="+c.arch)
			if checkInstall(t, s.install, env, c.want) {
				covered[c.want.target] = true
			}
		})
	}
	for _, target := range targets {
		if !covered[target] {
			t.Errorf("no runner got the release's %s binary", target)
		}
	}
}

// releaseSteps are the scripts TestReleaseAssets runs: action.yml's
// install step (and its env) and release.yml's build and release steps.
type releaseSteps struct {
	install, build, publish string
	installEnv              map[string]string
}

// findReleaseSteps finds the steps of releaseSteps; it fails the test if
// one is missing.
func findReleaseSteps(t *testing.T, a action, wf workflow) releaseSteps {
	t.Helper()
	var s releaseSteps
	for _, st := range a.Runs.Steps {
		if st.ID == "install" {
			s.install, s.installEnv = st.Run, st.Env
		}
	}
	for _, job := range wf.Jobs {
		for _, st := range job.Steps {
			switch {
			case strings.Contains(st.Run, "go build"):
				s.build = st.Run
			case strings.Contains(st.Run, "gh release create"):
				s.publish = st.Run
			}
		}
	}
	if s.install == "" || s.build == "" || s.publish == "" {
		t.Fatalf("action.yml's install step %v, release.yml's build step %v and release step %v", s.install != "", s.build != "", s.publish != "")
	}
	return s
}

// checkReleaseScripts checks, by reading the scripts, that the release and
// the Action name the archive alike, the targets the release builds, and
// that it publishes the archives and SHA256SUMS. It returns the targets.
func checkReleaseScripts(t *testing.T, s releaseSteps) []string {
	t.Helper()
	// One name on both sides.
	built, fetched := scriptAssigns(t, s.build, "asset"), scriptAssigns(t, s.install, "asset")
	const template = `"loadverdict_${version}_${goos}_${goarch}.tar.gz"`
	if len(built) != 1 || len(fetched) != 1 || built[0] != fetched[0] || built[0] != template {
		t.Errorf("the archive is named %v by the release and %v by the Action, want %s on both sides", built, fetched, template)
	}
	targets := scriptLoop(t, s.build, "target")
	if want := []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64"}; !slices.Equal(targets, want) {
		t.Errorf("the release builds %v, want %v", targets, want)
	}
	var created bool
	for _, args := range shellCommands(t, s.publish) {
		if len(args) > 3 && args[0] == "gh" && args[1] == "release" && args[2] == "create" {
			created = slices.ContainsFunc(args, func(s string) bool { return strings.HasSuffix(s, "/loadverdict_*.tar.gz") }) &&
				slices.ContainsFunc(args, func(s string) bool { return strings.HasSuffix(s, "/SHA256SUMS") })
		}
	}
	if !created {
		t.Errorf("the release step does not publish the archives and SHA256SUMS:\n%s", s.publish)
	}
	return targets
}

// buildRelease runs the release's build step for tag v with the stand-in
// go of fakeBin, checks that it built every target with CGO_ENABLED=0 and
// the version stamped, each archive holding loadverdict and README.md, and
// returns the folder of the release's files.
func buildRelease(t *testing.T, build, fakeBin, v string, targets []string) string {
	t.Helper()
	goLog := filepath.Join(t.TempDir(), "go.log")
	outputs, _, log, err := runStep(t, build, "../..", []string{
		"PATH=" + fakeBin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"GITHUB_REF_NAME=" + v, "FAKE_GO_LOG=" + goLog,
	})
	if err != nil {
		t.Fatalf("the release's build step, %s: %v\n%s", v, err, log)
	}
	b, err := os.ReadFile(goLog)
	if err != nil {
		t.Fatal(err)
	}
	var builds []string
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "CGO_ENABLED=0" || !strings.Contains(line, versionFlag+v) {
			t.Errorf("%s: a build without CGO_ENABLED=0 or %s%s: %s", v, versionFlag, v, line)
		}
		if len(f) > 1 {
			builds = append(builds, f[1])
		}
	}
	if !slices.Equal(builds, targets) {
		t.Errorf("%s: built %v, want %v", v, builds, targets)
	}
	for _, target := range targets {
		goos, goarch, _ := strings.Cut(target, "/")
		names := tarNames(t, filepath.Join(outputs["dist"], fmt.Sprintf("loadverdict_%s_%s_%s.tar.gz", v, goos, goarch)))
		if !slices.Equal(names, []string{"loadverdict", "README.md"}) {
			t.Errorf("%s %s: the archive holds %v, want loadverdict and README.md", v, target, names)
		}
	}
	return outputs["dist"]
}

// releaseServer serves, as GitHub does, the git repositories under root
// (git http-backend) and the files of releases (tag: folder) at
// /loadverdict/loadverdict/releases/download/TAG/FILE.
func releaseServer(t *testing.T, root string, releases map[string]string) http.Handler {
	t.Helper()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	backend := &cgi.Handler{Path: gitPath, Args: []string{"http-backend"}, Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, ok := strings.CutPrefix(r.URL.Path, "/loadverdict/loadverdict/releases/download/")
		if !ok {
			backend.ServeHTTP(w, r)
			return
		}
		tag, file, _ := strings.Cut(rest, "/")
		dir, ok := releases[tag]
		if !ok || strings.Contains(file, "/") {
			http.NotFound(w, r)
			return
		}
		if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join(dir, file))
	})
}

// installWant is what the Action's install step should do for a runner.
type installWant struct {
	source, version, target string // target: the binary installed
	fail                    string // a failed step says this
}

// installCase is a runner of TestReleaseAssets: the Action's version
// input, github.action_ref and github.action_repository, and RUNNER_OS and
// RUNNER_ARCH.
type installCase struct {
	name, version, actionRef, actionRepo, os, arch string
	want                                           installWant
}

// installCases are the runners of TestReleaseAssets; commits are
// gitRepo's.
func installCases(commits map[string]string) []installCase {
	type want = installWant
	return []installCase{
		{"uses @v1", "", "v1", "loadverdict/loadverdict", "Linux", "X64", want{source: "release", version: "v1.1.0", target: "linux/amd64"}},
		{"version v1.0.0", "v1.0.0", "v1", "loadverdict/loadverdict", "Linux", "X64", want{source: "release", version: "v1.0.0", target: "linux/amd64"}},
		{"version latest", "latest", "", "", "Linux", "X64", want{source: "release", version: "v1.1.0", target: "linux/amd64"}},
		{"uses ./", "", "", "", "Linux", "ARM64", want{source: "release", version: "v1.1.0", target: "linux/arm64"}},
		{"uses @commit of an annotated tag", "", commits["one"], "LoadVerdict/loadverdict", "macOS", "ARM64", want{source: "release", version: "v1.0.0", target: "darwin/arm64"}},
		{"version abbreviated commit", commits["two"][:12], "", "", "macOS", "X64", want{source: "release", version: "v1.1.0", target: "darwin/amd64"}},
		{"nested in another action", "", "v3", "someone/wrapper", "Linux", "X64", want{source: "release", version: "v1.1.0", target: "linux/amd64"}},
		{"uses @main", "", "main", "loadverdict/loadverdict", "Linux", "X64", want{source: "go", version: "main"}},
		{"uses @untagged commit", "", commits["three"], "loadverdict/loadverdict", "Linux", "X64", want{source: "go", version: commits["three"]}},
		{"version without a release", "v1.0.1", "", "", "Linux", "X64", want{source: "go", version: "v1.0.1"}},
		{"Windows", "", "v1", "loadverdict/loadverdict", "Windows", "X64", want{source: "go", version: "v1.1.0"}},
		{"checksum mismatch", "v1.0.2", "", "", "Linux", "X64", want{fail: "SHA256SUMS of release v1.0.2"}},
		{"checksum of another target", "v1.0.2", "", "", "Linux", "ARM64", want{source: "release", version: "v1.0.2", target: "linux/arm64"}},
	}
}

// checkInstall runs the Action's install step with env and checks it does
// what c wants; it reports whether it installed c.target's binary on PATH.
func checkInstall(t *testing.T, install string, env []string, c installWant) bool {
	t.Helper()
	outputs, path, log, err := runStep(t, install, t.TempDir(), env)
	if c.fail != "" {
		if err == nil || !strings.Contains(log, c.fail) || len(path) != 0 {
			t.Errorf("want a failed step saying %q, nothing on PATH; got %v, PATH %v\n%s", c.fail, err, path, log)
		}
		return false
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if outputs["source"] != c.source || outputs["version"] != c.version {
		t.Errorf("source %q version %q, want %q %q\n%s", outputs["source"], outputs["version"], c.source, c.version, log)
	}
	if c.source == "go" {
		if len(path) != 0 {
			t.Errorf("nothing installed, yet PATH gets %v", path)
		}
		return false
	}
	if len(path) != 1 {
		t.Fatalf("PATH gets %v, want the binary's folder\n%s", path, log)
	}
	bin := filepath.Join(path[0], "loadverdict")
	out, err := exec.Command(bin, "version").Output()
	if err != nil || string(out) != "loadverdict "+c.version+"\n" {
		t.Errorf("loadverdict version: %q, %v; want loadverdict %s", out, err, c.version)
	}
	if b, _ := os.ReadFile(bin); !strings.Contains(string(b), "# "+c.target+"\n") {
		t.Errorf("installed %q, want the %s build", b, c.target)
	}
	return true
}

// tarNames lists a .tar.gz archive's files.
func tarNames(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		names = append(names, h.Name)
	}
}

// fakeGh is a `gh` for the release workflow's major-tag step: it lists
// $FAKE_TAGS as the repository's tags, has the major tag when
// $FAKE_MAJOR is set, and logs every other call to $FAKE_GH_LOG.
const fakeGh = `#!/usr/bin/env bash
case "$*" in
  *git/matching-refs/tags/*) for t in $FAKE_TAGS; do echo "refs/tags/$t"; done ;;
  "api repos/"*"/git/ref/tags/"*) [ -n "$FAKE_MAJOR" ] ;;
  *) echo "$*" >> "$FAKE_GH_LOG" ;;
esac
`

// TestReleaseMajorTag runs the release workflow's step that moves the
// major tag (with a stand-in gh): it moves v1 to the newest v1 release
// only, and creates v2 at the first v2 release.
func TestReleaseMajorTag(t *testing.T) {
	var wf workflow
	readYAML(t, releaseWorkflow, &wf)
	var script string
	for _, job := range wf.Jobs {
		for _, st := range job.Steps {
			if strings.Contains(st.Run, "matching-refs") {
				script = st.Run
			}
		}
	}
	if script == "" {
		t.Fatal("release.yml has no step that moves the major tag")
	}
	fakeBin := t.TempDir()
	if err := os.WriteFile(filepath.Join(fakeBin, "gh"), []byte(fakeGh), 0o755); err != nil {
		t.Fatal(err)
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	commit := strings.TrimSpace(string(head))
	for _, c := range []struct {
		version, tags, major string
		want                 string // the gh call, "" for none
	}{
		{"v1.10.0", "v1.2.0 v1.9.0 v1.10.0 v1.11.0-rc1", "yes", "api --method PATCH repos/o/r/git/refs/tags/v1 -f sha=" + commit + " -F force=true"},
		{"v1.2.4", "v1.2.3 v1.2.4 v1.10.0", "yes", ""},
		{"v2.0.0", "v2.0.0", "", "api --method POST repos/o/r/git/refs -f ref=refs/tags/v2 -f sha=" + commit},
	} {
		ghLog := filepath.Join(t.TempDir(), "gh.log")
		_, _, log, err := runStep(t, script, ".", []string{
			"PATH=" + fakeBin + string(os.PathListSeparator) + os.Getenv("PATH"),
			"GITHUB_REF_NAME=" + c.version, "GITHUB_REPOSITORY=o/r",
			"FAKE_TAGS=" + c.tags, "FAKE_MAJOR=" + c.major, "FAKE_GH_LOG=" + ghLog,
		})
		if err != nil {
			t.Errorf("%s: %v\n%s", c.version, err, log)
			continue
		}
		b, _ := os.ReadFile(ghLog)
		if got := strings.TrimSpace(string(b)); got != c.want {
			t.Errorf("%s with tags %s: gh %q, want %q\n%s", c.version, c.tags, got, c.want, log)
		}
	}
}
