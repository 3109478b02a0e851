package gate

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Metric is what a threshold limits: a column of the runs table, or the
// error rate (errors over requests attempted, docs/SCHEMA.md).
type Metric string

// The metrics a threshold may limit.
const (
	RPS       Metric = "rps"
	LatMeanMs Metric = "lat_mean_ms"
	LatP50Ms  Metric = "lat_p50_ms"
	LatP90Ms  Metric = "lat_p90_ms"
	LatP99Ms  Metric = "lat_p99_ms"
	LatP999Ms Metric = "lat_p999_ms"
	LatMaxMs  Metric = "lat_max_ms"
	ErrorRate Metric = "error_rate"
)

// Metrics lists every metric in the order of the grammar.
var Metrics = []Metric{RPS, LatMeanMs, LatP50Ms, LatP90Ms, LatP99Ms, LatP999Ms, LatMaxMs, ErrorRate}

// Op is a threshold's comparison operator.
type Op string

// The operators.
const (
	Less      Op = "<"
	LessEq    Op = "<="
	Greater   Op = ">"
	GreaterEq Op = ">="
)

// Ops lists the operators, longest first (the order they are matched in).
var Ops = []Op{LessEq, GreaterEq, Less, Greater}

// ScopeKeys are the keys of a threshold's scope.
var ScopeKeys = []string{"system", "connections", "threads", "rate"}

// Scope restricts a threshold to one system or setting; a zero field
// does not restrict.
type Scope struct {
	System      string
	Connections *int32
	Threads     *int32
	Rate        *float64 // the requested rate of an open-model tool, req/s
}

// Threshold is a limit on a metric of each system's steady values,
// optionally scoped.
type Threshold struct {
	Metric Metric
	Scope  Scope
	Op     Op
	Limit  float64
	// Expr is the expression as given.
	Expr string
}

// Holds reports whether value x meets the threshold.
func (t Threshold) Holds(x float64) bool {
	switch t.Op {
	case Less:
		return x < t.Limit
	case LessEq:
		return x <= t.Limit
	case Greater:
		return x > t.Limit
	case GreaterEq:
		return x >= t.Limit
	}
	return false
}

// String returns the expression as given.
func (t Threshold) String() string { return t.Expr }

// MarshalText returns the expression as given, so that a threshold
// appears in JSON as the string the user wrote.
func (t Threshold) MarshalText() ([]byte, error) { return []byte(t.Expr), nil }

// UnmarshalText parses an expression (ParseThreshold).
func (t *Threshold) UnmarshalText(b []byte) error {
	x, err := ParseThreshold(string(b))
	if err != nil {
		return err
	}
	*t = x
	return nil
}

// SyntaxError is a threshold expression that does not follow the grammar.
type SyntaxError struct {
	Expr string
	Col  int // 1-based column (byte) where the problem is
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("threshold %q, column %d: %s", e.Expr, e.Col, e.Msg)
}

// ParseThreshold reads METRIC[{KEY=VALUE,...}] OP NUMBER (see the package
// documentation), e.g. `lat_p99_ms<250`, `rps{system=new,connections=100}>=1000`.
// A mistake gives a *SyntaxError naming the column.
func ParseThreshold(expr string) (Threshold, error) {
	p := &parser{s: expr}
	t, err := p.threshold()
	if err != nil {
		return Threshold{}, err
	}
	t.Expr = expr
	return t, nil
}

// parser reads one expression; i is the position.
type parser struct {
	s string
	i int
}

func (p *parser) fail(pos int, format string, a ...any) error {
	return &SyntaxError{Expr: p.s, Col: pos + 1, Msg: fmt.Sprintf(format, a...)}
}

func (p *parser) blanks() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// word reads a run of name characters.
func (p *parser) word() string {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') {
			break
		}
		p.i++
	}
	return p.s[start:p.i]
}

func (p *parser) threshold() (Threshold, error) {
	var t Threshold
	p.blanks()
	start := p.i
	t.Metric = Metric(p.word())
	if !slices.Contains(Metrics, t.Metric) {
		return t, p.fail(start, "unknown metric %q: want one of %s", t.Metric, join(Metrics))
	}
	p.blanks()
	if p.i < len(p.s) && p.s[p.i] == '{' {
		p.i++
		if err := p.scope(&t.Scope); err != nil {
			return t, err
		}
		p.blanks()
	}
	for _, op := range Ops {
		if strings.HasPrefix(p.s[p.i:], string(op)) {
			t.Op = op
			break
		}
	}
	if t.Op == "" {
		return t, p.fail(p.i, "want an operator <, <=, > or >=")
	}
	p.i += len(t.Op)
	p.blanks()
	vs := p.i
	rest := strings.TrimSpace(p.s[p.i:])
	v, err := strconv.ParseFloat(rest, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return t, p.fail(vs, "want a number, got %q", rest)
	}
	if v < 0 || t.Metric == ErrorRate && v > 1 {
		return t, p.fail(vs, "%s cannot be %v", t.Metric, v)
	}
	t.Limit = v
	return t, nil
}

// scope reads KEY=VALUE,... up to and including the closing '}'.
func (p *parser) scope(sc *Scope) error {
	seen := map[string]bool{}
	for {
		p.blanks()
		ks := p.i
		k := p.word()
		if !slices.Contains(ScopeKeys, k) {
			return p.fail(ks, "unknown scope %q: want one of %s", k, strings.Join(ScopeKeys, ", "))
		}
		if seen[k] {
			return p.fail(ks, "scope %q given twice", k)
		}
		seen[k] = true
		p.blanks()
		if p.i >= len(p.s) || p.s[p.i] != '=' {
			return p.fail(p.i, "want '=' after %q", k)
		}
		p.i++
		p.blanks()
		vs := p.i
		for p.i < len(p.s) && p.s[p.i] != ',' && p.s[p.i] != '}' {
			p.i++
		}
		if err := p.scopeValue(sc, k, strings.TrimSpace(p.s[vs:p.i]), vs); err != nil {
			return err
		}
		if p.i >= len(p.s) {
			return p.fail(p.i, "want '}'")
		}
		p.i++
		if p.s[p.i-1] == '}' {
			return nil
		}
	}
}

// scopeValue sets the scope's key k to v, read at vs.
func (p *parser) scopeValue(sc *Scope, k, v string, vs int) error {
	if v == "" {
		return p.fail(vs, "empty value of %q", k)
	}
	switch k {
	case "system":
		sc.System = v
	case "connections", "threads":
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil || n <= 0 {
			return p.fail(vs, "%s wants a positive integer, got %q", k, v)
		}
		x := int32(n)
		if k == "connections" {
			sc.Connections = &x
		} else {
			sc.Threads = &x
		}
	case "rate":
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			return p.fail(vs, "rate wants a positive number, got %q", v)
		}
		sc.Rate = &x
	}
	return nil
}

func join[T ~string](xs []T) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = string(x)
	}
	return strings.Join(parts, ", ")
}
