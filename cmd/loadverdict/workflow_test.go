package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// workflowFile is the example GitHub Actions workflow that README.md and
// docs/GATE.md link.
const workflowFile = "../../examples/github-actions/loadtest.yml"

// workflow is the part of a GitHub Actions workflow the test reads.
type workflow struct {
	On   map[string]any `yaml:"on"`
	Jobs map[string]struct {
		Steps []struct {
			Name string            `yaml:"name"`
			If   string            `yaml:"if"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
			Env  map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// readYAML decodes the YAML file at path into v.
func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// ghExpr is a GitHub Actions expression, replaced before a script runs.
var ghExpr = regexp.MustCompile(`\$\{\{[^}]*\}\}`)

// parseScript parses a step's script, its GitHub expressions replaced.
func parseScript(t *testing.T, script string) *syntax.File {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(ghExpr.ReplaceAllString(script, "GHA")), "")
	if err != nil {
		t.Fatalf("a step's script does not parse: %v\n%s", err, script)
	}
	return f
}

// shellCommands returns every simple command of a step's script, its words
// expanded as the shell would (variables unset, quotes removed).
func shellCommands(t *testing.T, script string) [][]string {
	t.Helper()
	f := parseScript(t, script)
	var out [][]string
	cfg := &expand.Config{Env: expand.ListEnviron()}
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return true
		}
		var args []string
		for _, w := range c.Args {
			s, err := expand.Literal(cfg, w)
			if err != nil {
				s = "$(...)" // a command substitution
			}
			args = append(args, s)
		}
		out = append(out, args)
		return true
	})
	return out
}

// actionFile is the composite GitHub Action at the repository's root.
const actionFile = "../../action.yml"

// action is the part of action.yml the test reads.
type action struct {
	Inputs map[string]struct {
		Default  string `yaml:"default"`
		Required bool   `yaml:"required"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID    string            `yaml:"id"`
			Name  string            `yaml:"name"`
			If    string            `yaml:"if"`
			Uses  string            `yaml:"uses"`
			Run   string            `yaml:"run"`
			Shell string            `yaml:"shell"`
			Env   map[string]string `yaml:"env"`
			With  map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// checkCLI asks the CLI's own flag set whether args (a loadverdict
// command line without "loadverdict") parse: the command and every flag
// exist and every value is accepted.
func checkCLI(t *testing.T, args []string) {
	t.Helper()
	helpOut, _, err := runCLI(t, "", append(slices.Clone(args), "--help")...)
	if err != nil || !strings.Contains(helpOut, "Usage: loadverdict "+args[0]+" ") {
		t.Errorf("loadverdict %v: %v\n%s", args, err, helpOut)
	}
}

// TestAction checks action.yml without running it: a composite action;
// it installs loadverdict with go install of this module's command; the
// loadverdict command line it runs (with its command input set to each of
// report, compare and history) parses, -o and --junit included; it
// uploads the output folder, posts or updates one comment found by a
// marker, skips the comment on a fork's pull request and says so, and
// fails by loadverdict's exit status.
func TestAction(t *testing.T) {
	var a action
	readYAML(t, actionFile, &a)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q, want composite", a.Runs.Using)
	}
	for _, in := range []string{"command", "args", "output", "comment", "fail", "artifact-name"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("no input %q", in)
		}
	}
	var install, run, upload, patch, post, fork, fail bool
	for _, st := range a.Runs.Steps {
		if st.Uses != "" && !regexp.MustCompile(`^[\w.-]+/[\w.-]+@v\d+$`).MatchString(st.Uses) {
			t.Errorf("step %q uses %q: want owner/action@vN", st.Name, st.Uses)
		}
		if st.Run != "" && st.Shell == "" {
			t.Errorf("step %q: a composite step's run needs a shell", st.Name)
		}
		upload = upload || strings.HasPrefix(st.Uses, "actions/upload-artifact@") && strings.Contains(st.With["path"], "inputs.output")
		fork = fork || strings.Contains(st.Run, "HEAD_REPO") && strings.Contains(st.Run, "fork") && strings.Contains(st.Env["HEAD_REPO"], "head.repo.full_name")
		if strings.Contains(st.Run, `exit "$STATUS"`) && strings.Contains(st.Env["STATUS"], "steps.run.outputs.status") && strings.Contains(st.If, "inputs.fail") {
			fail = true
		}
		for _, args := range shellCommands(t, st.Run) {
			switch {
			case args[0] == "go" && len(args) > 2 && args[1] == "install":
				// the package after go install's own flags (-trimpath, -ldflags X)
				for i := 2; i < len(args); i++ {
					if args[i] == "-ldflags" {
						i++
						continue
					}
					if !strings.HasPrefix(args[i], "-") {
						install = strings.HasPrefix(args[i], "github.com/loadverdict/loadverdict/cmd/loadverdict@")
						break
					}
				}
			case args[0] == "loadverdict" && len(args) > 1 && args[1] == "":
				// loadverdict "$CMD" -o "$OUT" --junit ... "$@"
				run = true
				for _, cmd := range []string{"report", "compare", "history"} {
					line := append([]string{cmd}, args[2:]...)
					for k, w := range line {
						if w == "" || w == "/junit.xml" {
							line[k] = "x" + w // a variable's value
						}
					}
					checkCLI(t, line)
				}
			case args[0] == "gh" && len(args) > 3 && args[1] == "api":
				patch = patch || slices.Contains(args, "PATCH")
				post = post || slices.Contains(args, "POST")
			}
		}
	}
	if !install || !run || !upload || !patch || !post || !fork || !fail {
		t.Errorf("install %v, run %v, upload %v, update (PATCH) %v, post %v, fork skipped %v, fail by status %v", install, run, upload, patch, post, fork, fail)
	}
}

// TestWorkflowExample checks examples/github-actions/loadtest.yml without
// running it: it parses (yaml.v3, and every step's script with a shell
// parser); every loadverdict command it runs, directly or through the
// Action (uses: loadverdict/loadverdict@vN, its command and args inputs),
// exists and accepts every flag and value it is given (asked of the CLI's
// own flag sets, by parsing the arguments followed by --help); it starts
// the service, runs a bounded load test, downloads main's results and
// compares them through the Action, which comments and fails the job.
func TestWorkflowExample(t *testing.T) {
	var wf workflow
	readYAML(t, workflowFile, &wf)
	if _, ok := wf.On["pull_request"]; !ok || len(wf.Jobs) != 1 {
		t.Fatalf("want one job on pull_request: %+v", wf)
	}
	var (
		loadRuns, compares int
		download           bool
	)
	for _, job := range wf.Jobs {
		for _, step := range job.Steps {
			if step.Uses != "" && !regexp.MustCompile(`^[\w.-]+/[\w.-]+@v\d+$`).MatchString(step.Uses) {
				t.Errorf("step %q uses %q: want owner/action@vN", step.Name, step.Uses)
			}
			var lines [][]string
			if strings.HasPrefix(step.Uses, "loadverdict/loadverdict@") {
				if !strings.Contains(step.If, "pull_request") {
					t.Errorf("step %q: the Action runs on pull requests only, got if %q", step.Name, step.If)
				}
				cmds := shellCommands(t, "loadverdict "+step.With["command"]+" -o "+step.With["output"]+" "+step.With["args"])
				lines = append(lines, cmds...)
			}
			lines = append(lines, shellCommands(t, step.Run)...)
			for _, args := range lines {
				switch {
				case args[0] == "loadverdict":
					checkCLI(t, args[1:])
					if args[1] == "compare" {
						compares++
						if slices.Contains(args, "--fail-on") || slices.Contains(args, "--allow") {
							t.Errorf("%v: the example keeps the default, fail-closed gate", args)
						}
					}
				case args[0] == "wrk" || args[0] == "timeout" && slices.Contains(args, "wrk"):
					// Bounded: a duration and an outer timeout.
					if !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-d") }) || args[0] != "timeout" {
						t.Errorf("%v: an unbounded load run", args)
					}
					loadRuns++
				case args[0] == "gh" && len(args) > 2 && args[1] == "pr" && args[2] == "comment":
					t.Errorf("%v: the Action posts the one comment; a gh pr comment adds one per push", args)
				case args[0] == "gh" && len(args) > 2 && args[1] == "run" && args[2] == "download":
					download = true
				}
			}
		}
	}
	if compares != 1 || loadRuns == 0 || !download {
		t.Errorf("%d loadverdict compare commands (want 1), load runs %d, download of main's results %v", compares, loadRuns, download)
	}
}
