package main

import (
	"flag"
	"time"

	"github.com/loadverdict/loadverdict/internal/local"
	"github.com/loadverdict/loadverdict/internal/version"
)

// addInputFlags declares --experiment and --window on fs, for a runner
// of the command's local inputs.
func addInputFlags(fs *flag.FlagSet, e *env) *local.Runner {
	r := &local.Runner{Stdin: e.stdin, Stderr: e.stderr, GeneratedBy: version.GeneratedBy(), Progress: local.ProgressBar(e.stderr)}
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
	return resolveInputs(fs.Name(), r, args, files)
}

// resolveInputs is parseInputs after the flags are parsed.
func resolveInputs(cmd string, r *local.Runner, args []string, files *local.Files) (*local.Inputs, string, error) {
	files.Paths = args
	in, err := files.Inputs()
	if err != nil {
		return nil, "", err
	}
	if len(in.Files) == 0 {
		return nil, "", usagef("%s: no input files", cmd)
	}
	exp, err := r.ExperimentFor(files.First())
	return in, exp, err
}
