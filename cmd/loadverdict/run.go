package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/loadverdict/loadverdict/analyze"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/local"
	"github.com/loadverdict/loadverdict/internal/version"
)

// errReported is returned when the errors were already written to stderr.
var errReported = errors.New("errors reported")

// usageError is a command-line mistake; main exits with status 2 for it.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

// gateError is a failed gate (--fail-on): main exits with status 3 for
// it, and for nothing else.
type gateError struct{ reasons []string }

func (e *gateError) Error() string {
	return "gate failed:\n  - " + strings.Join(e.reasons, "\n  - ")
}

// Exit statuses, the same for every command.
const (
	exitOK    = 0 // passed
	exitInput = 1 // an input could not be read or parsed (or another failure)
	exitUsage = 2 // a usage error: a bad flag, a name that matches nothing
	exitGate  = 3 // the gate failed
)

// exitStatuses says what each exit status means: the one text every
// --help ends with (exitStatusHelp) and docs/CLI.md's table are made of.
var exitStatuses = []struct {
	code          int
	short, detail string
}{
	{exitOK, "passed", "every input was read and the gate, when one was asked for, passed"},
	{exitInput, "an input could not be read or parsed", "each failure on stderr as file:line: message (the other inputs are still processed and the report lists the failures); or another failure such as a full disk; this outranks 3: the gate saw only part of the inputs"},
	{exitUsage, "usage error", "a bad flag or value, a manifest that cannot be parsed, a name that matches nothing (--baseline nosuch, a --system path or manifest pattern that matched no input); the message lists the known systems"},
	{exitGate, "the gate failed", "a crossed or unmeasurable threshold, a regression, an undecided comparison that could hide one, nothing compared, a watch that did not settle (--max-duration, or the input's end with --stop-when-settled); nothing else exits 3"},
}

// exitStatusHelp is the end of every command's --help.
var exitStatusHelp = func() string {
	var b strings.Builder
	b.WriteString("Exit status:\n")
	for _, s := range exitStatuses {
		meaning := s.short
		if s.detail != "" {
			meaning += ": " + s.detail
		}
		fmt.Fprintf(&b, "%s\n", wrapIndent(fmt.Sprintf("  %d  ", s.code), meaning, 92))
	}
	return b.String()
}()

// wrapIndent wraps text at width columns after prefix, its lines after
// the first indented as far as prefix.
func wrapIndent(prefix, text string, width int) string {
	var b strings.Builder
	b.WriteString(prefix)
	line := len(prefix)
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case line+1+len(w) > width:
			b.WriteString("\n" + strings.Repeat(" ", len(prefix)))
			line = len(prefix)
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}

// gateHelp describes the gate in the --help of report and compare.
const gateHelp = `The gate (exit 3) fails closed. Thresholds given (--threshold, the manifest's slo:) fail it
when crossed (threshold: the value over the steady runs on the wrong side of the limit), when
their 95 % CI reaches past the limit (marginal) or when they cannot be evaluated (unknown). A
regression check (compare's OLD, --baseline, or --fail-on regression) fails it on: regression,
a comparison against the baseline finding the other system worse, significant at alpha and
outside the practical band, by more than --max-regression percent (never less than the
practical band); inconclusive, an undecided comparison that could be more than that worse;
no-comparison, nothing compared against the baseline; errors, a higher error rate than the
baseline's. --fail-on adds conditions; --allow removes them by name, and what was allowed is
reported. The reasons go to stderr; every output records them.`

// exitCode maps an error of run to the exit status.
func exitCode(err error) int {
	var ue *usageError
	var ne *experiment.NameError
	var ge *gateError
	var ce *analyze.ControlError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ge):
		return exitGate
	case errors.As(err, &ue), errors.As(err, &ne), errors.As(err, &ce):
		return exitUsage
	}
	return exitInput
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, env *env) error
}

// env is what a command may touch of the outside world.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func commands() []command {
	return []command{
		{"parse", "parse load-generator output and print its runs", runParse},
		{"ingest", "parse inputs and write the normalized tables as Parquet", runIngest},
		{"report", "analyze the inputs and write the verdict (summary.json) and tables", runReport},
		{"compare", "compare the runs of OLD (the baseline) with those of NEW", runCompare},
		{"duel", "run two load tests in interleaved rounds until the comparison is decided", runDuel},
		{"watch", "follow a running load test's per-request log: warm-up, and when the data suffice", runWatch},
		{"history", "a series of experiments: change points over time, the latest against its past", runHistory},
		{"analyze", "analyze experiments of a store (folder or S3) into reports/", runAnalyze},
		{"reanalyze", "re-make the missing or stale reports of a store", runReanalyze},
		{"formats", "list the load-generator output formats read, with a typical line of each", runFormats},
		{"version", "print the version", runVersion},
	}
}

var topUsage = `loadverdict reads raw load-generator output (wrk, wrk2, ...) and answers
which system is faster, whether it has warmed up, and whether the difference is real.

Usage:
  loadverdict <command> [flags] [FILE...]

Commands:
%s
Use "loadverdict help <command>" (or <command> --help) for a command's flags. FILE "-" reads standard input.

` + exitStatusHelp

// run is the whole CLI: it parses args and runs a command, writing only to
// stdout and stderr and reading only the files named and stdin.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	var list strings.Builder
	for _, c := range commands() {
		fmt.Fprintf(&list, "  %-9s %s\n", c.name, c.summary)
	}
	if len(args) == 0 {
		fmt.Fprintf(stderr, topUsage, list.String())
		return usagef("no command given")
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-version", "--version":
		name = "version"
	case "help", "-h", "-help", "--help":
		if len(rest) == 0 || name != "help" {
			fmt.Fprintf(stdout, topUsage, list.String())
			return nil
		}
		// help CMD: that command's own help, as CMD --help prints it.
		name, rest = rest[0], []string{"--help"}
	}
	for _, c := range commands() {
		if c.name == name {
			err := c.run(ctx, rest, e)
			if errors.Is(err, flag.ErrHelp) {
				return nil
			}
			var ae *local.ArgError
			if errors.As(err, &ae) {
				err = &usageError{msg: err.Error()}
			}
			var ue *usageError
			if errors.As(err, &ue) {
				// One line on where the help is, after the message (which
				// main prints once): never the whole help around it.
				ue.msg += fmt.Sprintf("\nRun 'loadverdict help %s' for its usage.", c.name)
			}
			return err
		}
	}
	return usagef("unknown command %q\nRun 'loadverdict help' for the commands.", name)
}

// newFlagSet returns a flag set for a command whose usage lists its flags.
// The usage goes to stdout, and only when asked for (-h, --help, help
// CMD); a flag error is returned once as a usage error, not printed by the
// flag package around the whole help (parseInterspersed).
func newFlagSet(e *env, name, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stdout)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "Usage: loadverdict %s %s\n\n%s\n\nFlags:\n", name, synopsis, about)
		fs.PrintDefaults()
		fmt.Fprint(out, "\n"+exitStatusHelp)
	}
	return fs
}

// parseInterspersed parses flags that may stand before, between or after
// the positional arguments (loadverdict parse FILE --json), using the flag
// package for every flag. "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard) // the flag package would print errors and usage itself
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				// -h / --help: the usage, on stdout; a help request is not a failure.
				fs.SetOutput(out)
				usage()
				return nil, flag.ErrHelp
			}
			return nil, &usageError{msg: fs.Name() + ": " + err.Error()}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func runVersion(_ context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "version", "", "Print the version of loadverdict.")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "loadverdict", version.String())
	return nil
}

func runFormats(_ context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "formats", "",
		"List every output format loadverdict reads (detected by content, in this order),\n"+
			"the load generator that writes it, and a line typical of it.")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("formats: takes no arguments, got %q", rest[0])
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "format\ttool\ttypical line")
	for _, f := range ingest.Formats() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Name, f.Tool, strings.ReplaceAll(f.Example, "\t", `\t`))
	}
	return tw.Flush()
}
