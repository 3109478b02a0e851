package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// failOnConditions are the values --fail-on accepts.
var failOnConditions = []string{"regression", "threshold", "inconclusive"}

// failOnFlag collects --fail-on conditions: comma-separated, repeatable.
type failOnFlag []string

func (f *failOnFlag) String() string { return strings.Join(*f, ",") }

func (f *failOnFlag) Set(v string) error {
	for _, c := range strings.Split(v, ",") {
		c = strings.TrimSpace(c)
		if !slices.Contains(failOnConditions, c) {
			return fmt.Errorf("unknown condition %q: want a comma-separated subset of %s", c, strings.Join(failOnConditions, ","))
		}
		if !slices.Contains(*f, c) {
			*f = append(*f, c)
		}
	}
	return nil
}

// percentFlag is --max-regression: a percentage >= 0, "5" or "5%".
type percentFlag struct {
	set bool
	pct float64
}

func (p *percentFlag) String() string {
	if p == nil || !p.set {
		return ""
	}
	return strconv.FormatFloat(p.pct, 'f', -1, 64)
}

func (p *percentFlag) Set(v string) error {
	x, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), "%"), 64)
	if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return fmt.Errorf("want a percentage >= 0 such as 5 or 5%%, got %q", v)
	}
	p.set, p.pct = true, x
	return nil
}

// Threshold is one --threshold: a limit on a metric of each system's
// steady values, optionally scoped to a system or a setting.
type Threshold struct {
	Metric string
	// Scope restricts the threshold: keys "system", "connections",
	// "threads", "rate"; empty applies it everywhere.
	Scope map[string]string
	Op    string // <, <=, >, >=
	Value float64
	// Expr is the expression as given.
	Expr string
}

// thresholdMetrics are the metrics a threshold may limit.
var thresholdMetrics = []string{"rps", "lat_mean_ms", "lat_p50_ms", "lat_p90_ms", "lat_p99_ms", "lat_p999_ms", "lat_max_ms", "error_rate"}

// thresholdScopes are the keys of a threshold's scope.
var thresholdScopes = []string{"system", "connections", "threads", "rate"}

// ParseThreshold reads METRIC[{KEY=VALUE,...}] OP NUMBER, e.g.
// `lat_p99_ms<250`, `rps{system=new,connections=100}>=1000`. Blanks
// around the parts are allowed. Errors name the column (1-based).
func ParseThreshold(expr string) (Threshold, error) {
	t := Threshold{Expr: expr}
	bad := func(pos int, format string, a ...any) (Threshold, error) {
		return Threshold{}, fmt.Errorf("threshold %q, column %d: %s", expr, pos+1, fmt.Sprintf(format, a...))
	}
	i := 0
	skip := func() {
		for i < len(expr) && expr[i] == ' ' {
			i++
		}
	}
	word := func() string {
		start := i
		for i < len(expr) && (expr[i] == '_' || expr[i] == '-' || expr[i] == '.' || expr[i] == ':' ||
			expr[i] >= 'a' && expr[i] <= 'z' || expr[i] >= 'A' && expr[i] <= 'Z' || expr[i] >= '0' && expr[i] <= '9') {
			i++
		}
		return expr[start:i]
	}
	skip()
	start := i
	t.Metric = word()
	if !slices.Contains(thresholdMetrics, t.Metric) {
		return bad(start, "unknown metric %q: want one of %s", t.Metric, strings.Join(thresholdMetrics, ", "))
	}
	skip()
	if i < len(expr) && expr[i] == '{' {
		i++
		t.Scope = map[string]string{}
		for {
			skip()
			ks := i
			k := word()
			if !slices.Contains(thresholdScopes, k) {
				return bad(ks, "unknown scope %q: want one of %s", k, strings.Join(thresholdScopes, ", "))
			}
			if _, dup := t.Scope[k]; dup {
				return bad(ks, "scope %q given twice", k)
			}
			skip()
			if i >= len(expr) || expr[i] != '=' {
				return bad(i, "want '=' after %q", k)
			}
			i++
			skip()
			vs := i
			for i < len(expr) && expr[i] != ',' && expr[i] != '}' {
				i++
			}
			v := strings.TrimSpace(expr[vs:i])
			if v == "" {
				return bad(vs, "empty value of %q", k)
			}
			if k != "system" {
				if x, err := strconv.ParseFloat(v, 64); err != nil || x <= 0 {
					return bad(vs, "%s wants a positive number, got %q", k, v)
				}
			}
			t.Scope[k] = v
			if i >= len(expr) {
				return bad(i, "want '}'")
			}
			i++
			if expr[i-1] == '}' {
				break
			}
		}
		skip()
	}
	for _, op := range []string{"<=", ">=", "<", ">"} {
		if strings.HasPrefix(expr[i:], op) {
			t.Op = op
			break
		}
	}
	if t.Op == "" {
		return bad(i, "want an operator <, <=, > or >=")
	}
	i += len(t.Op)
	skip()
	vs := i
	v, err := strconv.ParseFloat(strings.TrimSpace(expr[i:]), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return bad(vs, "want a number, got %q", strings.TrimSpace(expr[i:]))
	}
	if v < 0 || t.Metric == "error_rate" && v > 1 {
		return bad(vs, "%s cannot be %v", t.Metric, v)
	}
	t.Value = v
	return t, nil
}

// thresholdFlag collects --threshold expressions, parsed.
type thresholdFlag []Threshold

func (f *thresholdFlag) String() string {
	var parts []string
	for _, t := range *f {
		parts = append(parts, t.Expr)
	}
	return strings.Join(parts, " ")
}

func (f *thresholdFlag) Set(v string) error {
	t, err := ParseThreshold(v)
	if err != nil {
		return err
	}
	*f = append(*f, t)
	return nil
}

// gateFlags are the flags of the CI gate on report and compare.
type gateFlags struct {
	failOn        failOnFlag
	maxRegression percentFlag
	thresholds    thresholdFlag
}

// addGateFlags declares --fail-on, --max-regression and --threshold on fs.
func addGateFlags(fs *flag.FlagSet) *gateFlags {
	g := &gateFlags{}
	fs.Var(&g.failOn, "fail-on", "exit 3 on any of `regression,threshold,inconclusive` (comma-separated)")
	fs.Var(&g.maxRegression, "max-regression", "a regression counts for --fail-on only beyond this `PCT` (e.g. 5 or 5%)")
	fs.Var(&g.thresholds, "threshold", "an SLO `EXPR` such as lat_p99_ms<250 or rps{system=new}>=1000 (repeatable)")
	return g
}

// notice says on stderr that the gate is not evaluated yet, when asked
// for: its flags are checked, so scripts can adopt them now.
func (g *gateFlags) notice(stderr io.Writer) {
	if len(g.failOn) > 0 || g.maxRegression.set || len(g.thresholds) > 0 {
		fmt.Fprintln(stderr, "loadverdict: note: --fail-on, --max-regression and --threshold are checked but not evaluated yet; the exit status does not depend on them")
	}
}
