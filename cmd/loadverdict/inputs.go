package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/internal/local"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/version"
)

// labelFlag collects repeated --label host:port=name mappings.
type labelFlag map[string]string

func (l labelFlag) String() string {
	parts := make([]string, 0, len(l))
	for k, v := range l {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ",")
}

func (l labelFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" || v == "" {
		return fmt.Errorf("want host:port=name, got %q", s)
	}
	if err := pipeline.CheckName(v); err != nil {
		return err
	}
	l[k] = v
	return nil
}

// systemFlag collects repeated --system NAME=PATH, in order.
type systemFlag []local.System

func (s *systemFlag) String() string {
	var parts []string
	for _, x := range *s {
		parts = append(parts, x.Name+"="+x.Path)
	}
	return strings.Join(parts, ",")
}

func (s *systemFlag) Set(v string) error {
	name, p, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || p == "" {
		return fmt.Errorf("want NAME=PATH (a file or a folder), got %q", v)
	}
	if err := pipeline.CheckName(name); err != nil {
		return err
	}
	*s = append(*s, local.System{Name: name, Path: p})
	return nil
}

// mergeFlag collects repeated --merge PATH[,PATH...]: each is one group
// of inputs that are parts of one test.
type mergeFlag [][]string

func (m *mergeFlag) String() string {
	var parts []string
	for _, g := range *m {
		parts = append(parts, strings.Join(g, ","))
	}
	return strings.Join(parts, " ")
}

func (m *mergeFlag) Set(v string) error {
	var paths []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return fmt.Errorf("want PATH[,PATH...] (files or folders), got %q", v)
	}
	*m = append(*m, paths)
	return nil
}

// addInputFlags declares --experiment and --window on fs, for a runner
// of the command's local inputs.
func addInputFlags(fs *flag.FlagSet, e *env) *local.Runner {
	r := &local.Runner{Stdin: e.stdin, Stderr: e.stderr, GeneratedBy: version.GeneratedBy(),
		Progress: func(total int64) (io.Writer, func()) { return newProgress(e.stderr, total) }}
	fs.StringVar(&r.Experiment, "experiment", "", "experiment `name` (default: the first input's name)")
	fs.DurationVar(&r.Window, "window", time.Second, "`width` of the time windows built from per-request logs")
	return r
}

// parseInputs parses args with fs and resolves them, with the --system
// and --merge flags fs fills, into the inputs (at least one file), and
// names the experiment.
func parseInputs(fs *flag.FlagSet, r *local.Runner, args []string, files *local.Files) (*local.Inputs, string, error) {
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, "", err
	}
	files.Paths = args
	in, err := files.Inputs()
	if err != nil {
		return nil, "", err
	}
	if len(in.Files) == 0 {
		return nil, "", usagef("%s: no input files", fs.Name())
	}
	exp, err := r.ExperimentFor(files.First())
	return in, exp, err
}
