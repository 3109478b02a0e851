// Command conformance makes and checks loadverdict's conformance grid
// (docs/CONFORMANCE.md: how it is made and graded):
//
//	go run ./scripts/conformance gen  [-seed 19] [-out testdata/conformance] [-family F,...] [-n N]
//	go run ./scripts/conformance plan [-seed 19] [-family F,...] [-n N]
//	go run ./scripts/conformance run  [-dir testdata/conformance] [-sample K] [-family F,...] [-list [-explain [-values]]] [-gate]
//	go run ./scripts/conformance mc   [-dir testdata/conformance] [-draws N]
//	go run ./scripts/conformance nightly-mc [-draws N] [-sigma-r 0.02] [-max-regression 5] [-j 1]
//	go run ./scripts/conformance docs [-dir testdata/conformance] [-o docs/CONFORMANCE.md]
//
// gen records the experiments not yet recorded; run analyses the grid and
// prints the rates (-explain: why each comparison decided so; -gate: how
// often compare's default gate fails); mc and nightly-mc are the
// Monte-Carlo layers; docs writes the page and <dir>/floors.json.
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
