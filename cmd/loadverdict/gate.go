package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/internal/experiment"
	"github.com/loadverdict/loadverdict/internal/local"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/report"
)

// gateFlags are the flags of the CI gate on report and compare.
type gateFlags struct {
	failOn        experiment.Conditions
	allow         experiment.Conditions
	maxRegression *float64 // nil: not given
	thresholds    experiment.Thresholds
	junit         string
}

// addGateFlags declares --fail-on, --allow, --max-regression and
// --threshold on fs.
func addGateFlags(fs *flag.FlagSet) *gateFlags {
	g := &gateFlags{}
	names := make([]string, len(gate.Conditions))
	for i, c := range gate.Conditions {
		names[i] = string(c)
	}
	fs.Var(&g.failOn, "fail-on", "also exit 3 on `CONDITIONS`: "+strings.Join(names, ",")+" (comma-separated, repeatable; added to the manifest's gate.fail_on)")
	fs.Var(&g.allow, "allow", "do not exit 3 on `CONDITIONS` the gate guards by default, e.g. unknown,inconclusive (comma-separated, repeatable; added to the manifest's gate.allow; what was allowed is reported)")
	fs.Func("max-regression", "a regression fails the gate only beyond this `PCT` (e.g. 5 or 5%; default 0)", func(v string) error {
		x, err := gate.ParsePercent(v)
		if err == nil {
			g.maxRegression = &x
		}
		return err
	})
	fs.StringVar(&g.junit, "junit", "", "also write the gate's checks as JUnit XML to `FILE` (one test case per threshold, comparison or history check; GitLab, Jenkins and GitHub test reporters read it)")
	fs.Var(&g.thresholds, "threshold", "an SLO `EXPR` such as lat_p99_ms<250 or rps{system=new}>=1000 (repeatable; added to the manifest's slo:)")
	return g
}

// apply puts the gate's flags into the pipeline's overrides.
func (g *gateFlags) apply(o *experiment.Overrides) {
	o.SLO, o.FailOn, o.Allow, o.MaxRegressionPct = g.thresholds, g.failOn, g.allow, g.maxRegression
}

// gateExit is every command's one way out through the gate, after the
// report is written: it writes --junit (when asked), prints what was
// allowed on stderr, and returns a *gateError with the reasons when the
// gate failed; when inputs were rejected, it prints that error and
// returns errReported (exit 1 outranks 3: the gate saw only part of the
// inputs).
func gateExit(e *env, g report.GateOutcome, rejected int, junit string) error {
	if junit != "" {
		if err := local.WriteJUnit(junit, g.JUnit); err != nil {
			return err
		}
	}
	for _, a := range g.Allowed {
		fmt.Fprintln(e.stderr, "loadverdict: gate: allowed:", a)
	}
	var err error
	if g.Failed {
		err = &gateError{reasons: g.Reasons}
	}
	if rejected > 0 {
		if err != nil {
			fmt.Fprintln(e.stderr, "loadverdict:", err)
		}
		return errReported
	}
	return err
}

// writtenReports says where the reports written to dir are, one line
// each, those that exist: "report: DIR/report.md", "html:
// DIR/report.html", "comment: DIR/summary.md" (for a pull request),
// "summary: DIR/summary.json".
func writtenReports(w io.Writer, dir string) {
	for _, f := range []struct{ what, name string }{
		{"report", "report.md"}, {"html", pipeline.HTMLName}, {"comment", "summary.md"}, {"summary", "summary.json"},
	} {
		path := filepath.Join(dir, f.name)
		if _, err := os.Stat(path); err == nil {
			fmt.Fprintf(w, "%s: %s\n", f.what, path)
		}
	}
}
