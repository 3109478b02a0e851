package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/internal/pipeline"
)

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errReported, 1},
		{errors.New("disk full"), 1},
		{usagef("bad flag"), 2},
		{fmt.Errorf("report: %w", usagef("bad flag")), 2},
		{&pipeline.NameError{Msg: "baseline x"}, 2},
		{fmt.Errorf("x: %w", &pipeline.NameError{Msg: "baseline x"}), 2},
		{&gateError{reasons: []string{"rps regressed"}}, 3},
		{fmt.Errorf("compare: %w", &gateError{}), 3},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// Every command's --help states the exit codes.
func TestHelpListsExitCodes(t *testing.T) {
	for _, c := range commands() {
		_, errOut, err := runCLI(t, "", c.name, "--help")
		if err != nil || !strings.Contains(errOut, "Usage: loadverdict "+c.name) || !strings.Contains(errOut, exitStatusHelp) {
			t.Errorf("%s --help: %v\n%s", c.name, err, errOut)
		}
	}
	out, _, _ := runCLI(t, "", "help")
	if !strings.Contains(out, exitStatusHelp) {
		t.Error("help does not list the exit codes")
	}
}

func TestParseThreshold(t *testing.T) {
	for _, tc := range []struct {
		expr   string
		metric string
		scope  string // k=v,... in the order of thresholdScopes
		op     string
		value  float64
		errCol int // 0: valid
	}{
		{expr: "rps>=1000", metric: "rps", op: ">=", value: 1000},
		{expr: " lat_mean_ms < 50 ", metric: "lat_mean_ms", op: "<", value: 50},
		{expr: "lat_p99_ms<250", metric: "lat_p99_ms", op: "<", value: 250},
		{expr: "error_rate<0.01", metric: "error_rate", op: "<", value: 0.01},
		{expr: "rps{system=new,connections=100}>1e3", metric: "rps", scope: "system=new,connections=100", op: ">", value: 1000},
		{expr: "lat_max_ms{ system = api v2 }<=2", metric: "lat_max_ms", scope: "system=api v2", op: "<=", value: 2},
		{expr: "p99<250", errCol: 1},
		{expr: "rps=1000", errCol: 4},
		{expr: "rps>>1000", errCol: 5},
		{expr: "rps>", errCol: 5},
		{expr: "rps>fast", errCol: 5},
		{expr: "rps>-1", errCol: 5},
		{expr: "error_rate<2", errCol: 12},
		{expr: "rps{host=a}>1", errCol: 5},
		{expr: "rps{connections=many}>1", errCol: 17},
		{expr: "rps{system=a,system=b}>1", errCol: 14},
		{expr: "rps{system=a>1", errCol: 15},
		{expr: "rps{system}>1", errCol: 11},
		{expr: "", errCol: 1},
	} {
		th, err := ParseThreshold(tc.expr)
		if tc.errCol > 0 {
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("column %d:", tc.errCol)) {
				t.Errorf("%q: err %v, want one at column %d", tc.expr, err, tc.errCol)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.expr, err)
			continue
		}
		var scope []string
		for _, k := range thresholdScopes {
			if v, ok := th.Scope[k]; ok {
				scope = append(scope, k+"="+v)
			}
		}
		if th.Metric != tc.metric || th.Op != tc.op || th.Value != tc.value || strings.Join(scope, ",") != tc.scope {
			t.Errorf("%q: got %+v", tc.expr, th)
		}
	}
}

// The gate's flags are parsed and validated on report and compare: a bad
// value is a usage error (exit 2).
func TestGateFlags(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct {
		flags []string
		ok    bool
	}{
		{[]string{"--fail-on", "regression"}, true},
		{[]string{"--fail-on", "regression,threshold", "--fail-on=inconclusive"}, true},
		{[]string{"--max-regression", "5"}, true},
		{[]string{"--max-regression", "2.5%"}, true},
		{[]string{"--threshold", "lat_mean_ms<60", "--threshold", "rps{system=localhost:80}>=1000"}, true},
		{[]string{"--fail-on", "regresion"}, false},
		{[]string{"--fail-on", "regression,"}, false},
		{[]string{"--max-regression", "-1"}, false},
		{[]string{"--max-regression", "five"}, false},
		{[]string{"--threshold", "lat_mean<60"}, false},
	} {
		for _, cmd := range []string{"report", "compare"} {
			args := append([]string{cmd, "-o", out}, tc.flags...)
			if cmd == "compare" {
				args = append(args, "--format", "json", seedFile, "../../ingest/testdata/wrk/wrk_05.txt")
			} else {
				args = append(args, seedFile)
			}
			_, errOut, err := runCLI(t, "", args...)
			if tc.ok {
				if err != nil {
					t.Errorf("%v: %v\n%s", args, err, errOut)
				} else if !strings.Contains(errOut, "not evaluated yet") {
					t.Errorf("%v: no notice that the gate is not evaluated yet: %q", args, errOut)
				}
			} else if exitCode(err) != exitUsage {
				t.Errorf("%v: err %v (exit %d), want a usage error", args, err, exitCode(err))
			}
		}
	}
	if _, _, err := runCLI(t, "", "compare", "--format", "xml", seedFile, seedFile); exitCode(err) != exitUsage {
		t.Errorf("compare --format xml: %v", err)
	}
}

// FuzzParseThreshold: any string gives a threshold or an error with a
// column, never a panic; an accepted one is well-formed.
func FuzzParseThreshold(f *testing.F) {
	for _, s := range []string{"rps>=1000", "lat_p99_ms<250", "error_rate<0.01", "rps{system=new,connections=100}>1",
		"rps{", "rps{system=}<1", "lat_mean_ms<=", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		th, err := ParseThreshold(expr)
		if err != nil {
			if !strings.Contains(err.Error(), ", column ") {
				t.Errorf("%q: error without a column: %v", expr, err)
			}
			return
		}
		if !slices.Contains(thresholdMetrics, th.Metric) || !slices.Contains([]string{"<", "<=", ">", ">="}, th.Op) ||
			th.Value < 0 || th.Expr != expr {
			t.Errorf("%q: accepted %+v", expr, th)
		}
		for k, v := range th.Scope {
			if !slices.Contains(thresholdScopes, k) || strings.TrimSpace(v) == "" {
				t.Errorf("%q: scope %s=%q", expr, k, v)
			}
		}
	})
}

// ExampleParseThreshold reads two --threshold expressions.
func ExampleParseThreshold() {
	th, _ := ParseThreshold("lat_p99_ms{system=new,connections=100}<250")
	fmt.Println(th.Metric, th.Scope["system"], th.Scope["connections"], th.Op, th.Value)
	_, err := ParseThreshold("lat_p99<250")
	fmt.Println(err)
	// Output:
	// lat_p99_ms new 100 < 250
	// threshold "lat_p99<250", column 1: unknown metric "lat_p99": want one of rps, lat_mean_ms, lat_p50_ms, lat_p90_ms, lat_p99_ms, lat_p999_ms, lat_max_ms, error_rate
}
