package gate_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/gate"
)

func TestParseThreshold(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	f64 := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		expr   string
		want   gate.Threshold // Expr is filled in
		errCol int            // 0: valid
	}{
		{expr: "rps>=1000", want: gate.Threshold{Metric: gate.RPS, Op: gate.GreaterEq, Limit: 1000}},
		{expr: " lat_mean_ms < 50 ", want: gate.Threshold{Metric: gate.LatMeanMs, Op: gate.Less, Limit: 50}},
		{expr: "lat_p99_ms<250", want: gate.Threshold{Metric: gate.LatP99Ms, Op: gate.Less, Limit: 250}},
		{expr: "error_rate<0.01", want: gate.Threshold{Metric: gate.ErrorRate, Op: gate.Less, Limit: 0.01}},
		{expr: "error_rate<=1", want: gate.Threshold{Metric: gate.ErrorRate, Op: gate.LessEq, Limit: 1}},
		{expr: "rps{system=new,connections=100}>1e3", want: gate.Threshold{Metric: gate.RPS, Op: gate.Greater, Limit: 1000,
			Scope: gate.Scope{System: "new", Connections: i32(100)}}},
		{expr: "lat_max_ms{ system = api v2 }<=2", want: gate.Threshold{Metric: gate.LatMaxMs, Op: gate.LessEq, Limit: 2,
			Scope: gate.Scope{System: "api v2"}}},
		{expr: "lat_p999_ms{threads=2,rate=1500.5,system=localhost:80}>0", want: gate.Threshold{Metric: gate.LatP999Ms, Op: gate.Greater,
			Scope: gate.Scope{System: "localhost:80", Threads: i32(2), Rate: f64(1500.5)}}},
		{expr: "p99<250", errCol: 1},
		{expr: "rps=1000", errCol: 4},
		{expr: "rps>>1000", errCol: 5},
		{expr: "rps>", errCol: 5},
		{expr: "rps>fast", errCol: 5},
		{expr: "rps>-1", errCol: 5},
		{expr: "rps>NaN", errCol: 5},
		{expr: "rps>Inf", errCol: 5},
		{expr: "error_rate<2", errCol: 12},
		{expr: "rps{host=a}>1", errCol: 5},
		{expr: "rps{connections=many}>1", errCol: 17},
		{expr: "rps{connections=1.5}>1", errCol: 17},
		{expr: "rps{threads=0}>1", errCol: 13},
		{expr: "rps{rate=-3}>1", errCol: 10},
		{expr: "rps{system=a,system=b}>1", errCol: 14},
		{expr: "rps{system=a>1", errCol: 15},
		{expr: "rps{system}>1", errCol: 11},
		{expr: "rps{system=}>1", errCol: 12},
		{expr: "", errCol: 1},
	} {
		th, err := gate.ParseThreshold(tc.expr)
		if tc.errCol > 0 {
			var se *gate.SyntaxError
			if !errors.As(err, &se) || se.Col != tc.errCol || !strings.Contains(err.Error(), fmt.Sprintf("column %d:", tc.errCol)) {
				t.Errorf("%q: err %v, want one at column %d", tc.expr, err, tc.errCol)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.expr, err)
			continue
		}
		tc.want.Expr = tc.expr
		if fmt.Sprintf("%+v", scopeOf(th)) != fmt.Sprintf("%+v", scopeOf(tc.want)) || th.Metric != tc.want.Metric ||
			th.Op != tc.want.Op || th.Limit != tc.want.Limit || th.Expr != tc.expr {
			t.Errorf("%q: got %+v, want %+v", tc.expr, th, tc.want)
		}
	}
}

// scopeOf shows a scope's values (not its pointers).
func scopeOf(t gate.Threshold) []string {
	s := t.Scope
	out := []string{"system=" + s.System}
	if s.Connections != nil {
		out = append(out, fmt.Sprint("connections=", *s.Connections))
	}
	if s.Threads != nil {
		out = append(out, fmt.Sprint("threads=", *s.Threads))
	}
	if s.Rate != nil {
		out = append(out, fmt.Sprint("rate=", *s.Rate))
	}
	return out
}

func TestHolds(t *testing.T) {
	for _, tc := range []struct {
		expr string
		x    float64
		want bool
	}{
		{"rps>=1000", 1000, true}, {"rps>=1000", 999.9, false},
		{"rps>1000", 1000, false}, {"rps>1000", 1000.1, true},
		{"lat_mean_ms<50", 50, false}, {"lat_mean_ms<50", 49.9, true},
		{"lat_mean_ms<=50", 50, true}, {"lat_mean_ms<=50", 50.1, false},
	} {
		th, err := gate.ParseThreshold(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := th.Holds(tc.x); got != tc.want {
			t.Errorf("%s holds for %v: %v, want %v", tc.expr, tc.x, got, tc.want)
		}
	}
}

// A threshold is written to JSON (and YAML) as the expression as given,
// and read back from it.
func TestThresholdText(t *testing.T) {
	th, _ := gate.ParseThreshold("rps{system=new} >= 10")
	b, _ := th.MarshalText()
	var back gate.Threshold
	if err := back.UnmarshalText(b); err != nil || back.Expr != th.Expr || back.Limit != 10 || back.Scope.System != "new" {
		t.Errorf("round trip: %q %+v %v", b, back, err)
	}
	if err := back.UnmarshalText([]byte("rps")); err == nil {
		t.Error("UnmarshalText accepted a bad expression")
	}
}

func TestParseConditions(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []gate.Condition
		ok   bool
	}{
		{"regression", []gate.Condition{gate.Regression}, true},
		{"threshold, inconclusive,threshold", []gate.Condition{gate.ThresholdFailed, gate.Inconclusive}, true},
		{"regression,threshold,marginal,inconclusive,unknown,no-comparison,drift,errors", gate.Conditions, true},
		{"errors", []gate.Condition{gate.Errors}, true},
		{"regresion", nil, false},
		{"regression,", nil, false},
		{"", nil, false},
	} {
		got, err := gate.ParseConditions(tc.in)
		if (err == nil) != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v %v, want %v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestParsePercent(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"5", 5, true}, {"2.5%", 2.5, true}, {" 0 % ", 0, true},
		{"-1", 0, false}, {"five", 0, false}, {"Inf", 0, false}, {"NaN%", 0, false}, {"", 0, false},
	} {
		got, err := gate.ParsePercent(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("%q: %v %v", tc.in, got, err)
		}
	}
}

// FuzzParseThreshold: any string gives a threshold or a *SyntaxError
// with a column inside the expression, never a panic; an accepted one is
// well-formed and parses again to the same.
func FuzzParseThreshold(f *testing.F) {
	for _, s := range []string{"rps>=1000", "lat_p99_ms<250", "error_rate<0.01", "rps{system=new,connections=100}>1",
		"rps{", "rps{system=}<1", "lat_mean_ms<=", "x", "rps{rate=1e3,threads=2}>=0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		th, err := gate.ParseThreshold(expr)
		if err != nil {
			var se *gate.SyntaxError
			if !errors.As(err, &se) || se.Col < 1 || se.Col > len(expr)+1 {
				t.Errorf("%q: %v", expr, err)
			}
			return
		}
		if !slices.Contains(gate.Metrics, th.Metric) || !slices.Contains(gate.Ops, th.Op) || th.Limit < 0 || th.Expr != expr ||
			th.Metric == gate.ErrorRate && th.Limit > 1 {
			t.Errorf("%q: accepted %+v", expr, th)
		}
		s := th.Scope
		if s.Connections != nil && *s.Connections <= 0 || s.Threads != nil && *s.Threads <= 0 || s.Rate != nil && !(*s.Rate > 0) ||
			strings.ContainsAny(s.System, ",}") || s.System != strings.TrimSpace(s.System) {
			t.Errorf("%q: scope %+v", expr, s)
		}
		again, err := gate.ParseThreshold(th.String())
		if err != nil || fmt.Sprint(scopeOf(again)) != fmt.Sprint(scopeOf(th)) || again.Limit != th.Limit || again.Op != th.Op {
			t.Errorf("%q: parses differently the second time: %+v %v", expr, again, err)
		}
	})
}

// ParseThreshold reads --threshold expressions and the manifest's slo:
// entries; a mistake names its column.
func ExampleParseThreshold() {
	th, _ := gate.ParseThreshold("lat_p99_ms{system=new,connections=100}<250")
	fmt.Println(th.Metric, th.Scope.System, *th.Scope.Connections, th.Op, th.Limit, th.Holds(180))
	_, err := gate.ParseThreshold("lat_p99<250")
	fmt.Println(err)
	// Output:
	// lat_p99_ms new 100 < 250 true
	// threshold "lat_p99<250", column 1: unknown metric "lat_p99": want one of rps, lat_mean_ms, lat_p50_ms, lat_p90_ms, lat_p99_ms, lat_p999_ms, lat_max_ms, error_rate
}

// The policy fails closed: thresholds given guard threshold, marginal and unknown,
// a regression check guards regression, inconclusive, no-comparison,
// drift and errors; FailOn adds, Allow removes (and beats FailOn).
func TestPolicy(t *testing.T) {
	for _, tc := range []struct {
		p    gate.Policy
		want []gate.Condition
	}{
		{gate.Policy{}, nil},
		{gate.Policy{Thresholds: true}, []gate.Condition{gate.ThresholdFailed, gate.Marginal, gate.Unknown}},
		{gate.Policy{RegressionCheck: true}, []gate.Condition{gate.Regression, gate.Inconclusive, gate.NoComparison, gate.Drift, gate.Errors}},
		{gate.Policy{RegressionCheck: true, Allow: []gate.Condition{gate.Errors}}, []gate.Condition{gate.Regression, gate.Inconclusive, gate.NoComparison, gate.Drift}},
		{gate.Policy{FailOn: []gate.Condition{gate.Inconclusive}}, []gate.Condition{gate.Inconclusive}},
		{gate.Policy{Thresholds: true, RegressionCheck: true, Allow: []gate.Condition{gate.Unknown, gate.Inconclusive}},
			[]gate.Condition{gate.Regression, gate.ThresholdFailed, gate.Marginal, gate.NoComparison, gate.Drift, gate.Errors}},
		{gate.Policy{FailOn: []gate.Condition{gate.Inconclusive}, Allow: []gate.Condition{gate.Inconclusive}}, nil},
	} {
		if got := tc.p.Failing(); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: fails on %v, want %v", tc.p, got, tc.want)
		}
		for _, c := range gate.Conditions {
			if tc.p.Fails(c) != slices.Contains(tc.want, c) || tc.p.Fails(c) && tc.p.Allowed(c) {
				t.Errorf("%+v: Fails(%s) = %v", tc.p, c, tc.p.Fails(c))
			}
		}
	}
}
