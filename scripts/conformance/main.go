// Command conformance makes and checks loadverdict's conformance grid:
// real experiments whose truth is known by construction (the truth server
// on 127.0.0.1 made to behave a certain way, measured with wrk, vegeta
// and hey), the verdict of each, and the rates docs/CONFORMANCE.md shows.
//
//	go run ./scripts/conformance gen  [-seed 19] [-out testdata/conformance] [-family F,...] [-n N]
//	go run ./scripts/conformance plan [-seed 19] [-family F,...] [-n N]
//	go run ./scripts/conformance run  [-dir testdata/conformance] [-sample K] [-family F,...] [-list [-explain [-values]]] [-gate]
//	go run ./scripts/conformance mc   [-dir testdata/conformance] [-draws N]
//	go run ./scripts/conformance nightly-mc [-draws N] [-sigma-r 0.02] [-max-regression 5] [-j 1]
//	go run ./scripts/conformance docs [-dir testdata/conformance] [-o docs/CONFORMANCE.md]
//
// gen draws each experiment's parameters from the seed, starts the truth
// servers (scripts/truthserver), runs the tools, and records the
// experiment in <out>/<family>/<NNN>/: the tools' raw outputs, the
// manifest loadverdict.yaml (systems and execution order) and truth.json
// (the drawn parameters, the expected outcome, the truth and how it was
// made: commands, tool versions, /proc/loadavg before and after each
// run). An experiment already recorded is skipped, so a stopped gen
// continues where it was. run analyses every experiment as the command
// line's report does (internal/pipeline over a local store), maps the
// typed verdict to an outcome (outcome.go) and prints per family the
// confusion matrix and accuracy, the A/A false-positive rate, power per
// effect size and run count, and the steady states claimed over a trend;
// -explain says what each comparison tested and why it decided so, -gate
// how often the default gate of compare A B fails per comparison family.
// mc draws synthetic series from the grid's flat and A/A runs for the
// rates that need thousands of draws; nightly-mc draws nightly series
// with between-night variance, AR(1) wander and outlier nights, and gates
// each night as a nightly job does (nightly.go). docs writes docs/CONFORMANCE.md and
// the floors the go test holds the grid to (<dir>/floors.json).
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: conformance gen|run|mc|nightly-mc|docs [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = runGen(os.Args[2:])
	case "run":
		err = runRun(os.Args[2:])
	case "mc":
		err = runMC(os.Args[2:])
	case "nightly-mc":
		err = runNightlyMC(os.Args[2:])
	case "docs":
		err = runDocs(os.Args[2:])
	case "plan":
		err = runPlan(os.Args[2:])
	default:
		fmt.Fprintf(os.Stderr, "conformance: unknown command %q (gen, run, mc, nightly-mc, docs)\n", os.Args[1])
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
}
