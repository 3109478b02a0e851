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

// workflowFile is the example GitHub Actions workflow of the README's
// "Gate a CI job".
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
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// ghExpr is a GitHub Actions expression, replaced before a script runs.
var ghExpr = regexp.MustCompile(`\$\{\{[^}]*\}\}`)

// shellCommands returns every simple command of a step's script, its words
// expanded as the shell would (variables unset, quotes removed).
func shellCommands(t *testing.T, script string) [][]string {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(ghExpr.ReplaceAllString(script, "GHA")), "")
	if err != nil {
		t.Fatalf("a step's script does not parse: %v\n%s", err, script)
	}
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

// TestWorkflowExample checks examples/github-actions/loadtest.yml without
// running it: it parses (yaml.v3, and every step's script with a shell
// parser); every loadverdict command it runs exists and accepts every flag
// and value it is given (asked of the CLI's own flag sets, by parsing the
// arguments followed by --help); it starts the service, runs a bounded
// load test, downloads main's results, runs compare --fail-on regression,
// posts that compare's summary.md with gh pr comment --body-file, and
// fails the job by compare's exit status.
func TestWorkflowExample(t *testing.T) {
	b, err := os.ReadFile(workflowFile)
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatal(err)
	}
	if _, ok := wf.On["pull_request"]; !ok || len(wf.Jobs) != 1 {
		t.Fatalf("want one job on pull_request: %+v", wf)
	}
	var (
		compareOut, bodyFile, statusID string
		loadRuns, compares             int
		exitByStatus, download         bool
	)
	for _, job := range wf.Jobs {
		for _, step := range job.Steps {
			if step.Uses != "" && !regexp.MustCompile(`^[\w.-]+/[\w.-]+@v\d+$`).MatchString(step.Uses) {
				t.Errorf("step %q uses %q: want owner/action@vN", step.Name, step.Uses)
			}
			if strings.Contains(step.Run, "exit") && strings.Contains(step.Run, "steps.compare.outputs.status") {
				exitByStatus = true
			}
			for _, args := range shellCommands(t, step.Run) {
				switch {
				case args[0] == "loadverdict":
					// The command and its flags exist, the values parse.
					helpOut, _, err := runCLI(t, "", append(slices.Clone(args[1:]), "--help")...)
					if err != nil || !strings.Contains(helpOut, "Usage: loadverdict "+args[1]+" ") {
						t.Errorf("%v: %v\n%s", args, err, helpOut)
					}
					if args[1] == "compare" {
						compares++
						compareOut = flagValue(args, "-o")
						statusID = step.Name
						if !slices.Contains(args, "--fail-on") || !strings.Contains(flagValue(args, "--fail-on"), "regression") {
							t.Errorf("%v: compare without --fail-on regression", args)
						}
					}
				case args[0] == "wrk" || args[0] == "timeout" && slices.Contains(args, "wrk"):
					// Bounded: a duration and an outer timeout.
					if !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-d") }) || args[0] != "timeout" {
						t.Errorf("%v: an unbounded load run", args)
					}
					loadRuns++
				case args[0] == "gh" && len(args) > 2 && args[1] == "pr" && args[2] == "comment":
					bodyFile = flagValue(args, "--body-file")
				case args[0] == "gh" && len(args) > 2 && args[1] == "run" && args[2] == "download":
					download = true
				}
			}
		}
	}
	switch {
	case compares != 1:
		t.Errorf("%d loadverdict compare commands, want 1", compares)
	case compareOut == "" || bodyFile != compareOut+"/summary.md":
		t.Errorf("gh pr comment --body-file %q, want compare -o %q's summary.md", bodyFile, compareOut)
	case loadRuns == 0 || !download || !exitByStatus:
		t.Errorf("load runs %d, download of main's results %v, job failed by compare's status %v (step %q)", loadRuns, download, exitByStatus, statusID)
	}
}

// flagValue returns the value after flag in args ("" for none).
func flagValue(args []string, flag string) string {
	if i := slices.Index(args, flag); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}
