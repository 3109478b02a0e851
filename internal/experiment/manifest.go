package experiment

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
	"github.com/loadverdict/loadverdict/internal/store"
)

// Manifest is an experiment's optional raw/<experiment>/loadverdict.yaml,
// or on the command line loadverdict.yaml in an input folder or
// --manifest FILE.
type Manifest struct {
	// Labels map a run's target (host:port, or a file name for logs
	// without one) to a system's name.
	Labels Labels `yaml:"labels"`
	// Systems name systems by where their runs come from: every run of a
	// source that one of a system's patterns matches belongs to it. They
	// take precedence over Labels.
	Systems Systems `yaml:"systems"`
	// Baseline is the system every other system is compared against.
	Baseline string `yaml:"baseline"`
	// Order lists sources in execution order; sources not listed follow
	// in key order (in a bucket) or in the order given (on the command
	// line). An entry names a source by its key or path, or relative to
	// Dir.
	Order []string `yaml:"order"`
	// Merge lists groups of sources that are parts of one test, several
	// load generators at once (each a list of patterns, as Systems'): the
	// runs of a group become one run at analysis (see MergeRule).
	Merge []Patterns `yaml:"merge"`
	// SLO are thresholds checked on each system's steady values
	// (gate.ParseThreshold), e.g. "lat_p99_ms<250".
	SLO Thresholds `yaml:"slo"`
	// Gate says what fails the gate.
	Gate struct {
		// FailOn are conditions added to those that fail it (thresholds
		// given fail on threshold, marginal and unknown, a baseline on regression,
		// inconclusive and no-comparison): a list, or one
		// comma-separated string.
		FailOn Conditions `yaml:"fail_on"`
		// Allow are conditions that do not fail it, by name (met, they
		// are reported as allowed): a list, or one comma-separated
		// string.
		Allow Conditions `yaml:"allow"`
		// MaxRegression is the largest regression that does not, in
		// percent (5 or "5%").
		MaxRegression *Percent `yaml:"max_regression"`
	} `yaml:"gate"`
	// Series names the series of experiments this one belongs to
	// (loadverdict history); empty for none.
	Series string `yaml:"series"`
	// Meta says what this experiment measured and when: commit, version,
	// branch, date (2006-01-02 or RFC 3339), note.
	Meta analyze.Meta `yaml:"meta"`
	// History says which changes of the series are accepted (loadverdict
	// history): Accept lists experiments whose change is accepted (the
	// reference level starts again at each); Baseline pins the reference
	// to start at one experiment (those before it are not checked
	// against). Read from every experiment of the series.
	History struct {
		Accept   []string `yaml:"accept"`
		Baseline string   `yaml:"baseline"`
		// Control names the control system of the series (loadverdict
		// history --control): an unchanged reference measured in every
		// experiment; the others are checked relative to it.
		Control string `yaml:"control"`
	} `yaml:"history"`
	// Thresholds override analysis parameters.
	Thresholds AnalysisThresholds `yaml:"thresholds"`

	// Dir is the folder the manifest lies in ("raw/<experiment>" in a
	// bucket): patterns and order entries also match source names
	// relative to it. It is not read from the file.
	Dir string `yaml:"-"`
}

// stringList decodes a list of strings, or one string as a list of one.
// A null or empty item is an error (a YAML list item left blank, `slo:
// [null]`), never an item silently dropped.
func stringList(n *yaml.Node, what string) ([]string, error) {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	list := make([]string, 0, len(items))
	for i, it := range items {
		var s string
		if it.Kind == yaml.ScalarNode && it.Tag != "!!null" {
			if err := it.Decode(&s); err != nil {
				return nil, err
			}
		} else if it.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: %s: item %d is not a string", it.Line, what, i+1)
		}
		if strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("line %d: %s: item %d is empty", it.Line, what, i+1)
		}
		list = append(list, s)
	}
	return list, nil
}

// checkNodes checks a manifest's node tree in one walk, in time linear
// in its nodes: at most MaxManifestNodes nodes, an alias counted as the
// nodes of what it stands for (so aliases of aliases count as they
// expand); no alias of a node that contains it; no duplicate key in a
// mapping; no merge key (<<).
func checkNodes(doc *yaml.Node) error {
	sizes := map[*yaml.Node]int{} // anchored nodes, by expanded size
	total := 0
	var walk func(n *yaml.Node) (int, error)
	walk = func(n *yaml.Node) (int, error) {
		if n.Kind == yaml.AliasNode {
			size, ok := sizes[n.Alias]
			if !ok || size < 0 {
				return 0, fmt.Errorf("line %d:%d: alias *%s stands for a node that contains it", n.Line, n.Column, n.Value)
			}
			total = min(total+size, MaxManifestNodes+1)
			if total > MaxManifestNodes {
				return 0, errTooManyNodes(n)
			}
			return size, nil
		}
		if n.Anchor != "" {
			sizes[n] = -1 // being walked
		}
		total++
		if total > MaxManifestNodes {
			return 0, errTooManyNodes(n)
		}
		size := 1
		var keys map[string]*yaml.Node
		if n.Kind == yaml.MappingNode {
			keys = make(map[string]*yaml.Node, len(n.Content)/2)
		}
		for i, c := range n.Content {
			if keys != nil && i%2 == 0 {
				if c.Kind == yaml.ScalarNode && c.ShortTag() == "!!merge" {
					return 0, fmt.Errorf("line %d:%d: merge keys (<<) are not supported in a manifest", c.Line, c.Column)
				}
				k := strconv.Itoa(int(c.Kind)) + ":" + c.Value
				if prev, dup := keys[k]; dup {
					return 0, fmt.Errorf("line %d:%d: key %q already defined at line %d", c.Line, c.Column, c.Value, prev.Line)
				}
				keys[k] = c
			}
			cs, err := walk(c)
			if err != nil {
				return 0, err
			}
			size = min(size+cs, MaxManifestNodes+1)
		}
		if n.Anchor != "" {
			sizes[n] = size
		}
		return size, nil
	}
	_, err := walk(doc)
	return err
}

func errTooManyNodes(n *yaml.Node) error {
	return fmt.Errorf("line %d:%d: more than %d YAML nodes (aliases counted as the nodes they stand for): a manifest holds at most %d",
		n.Line, n.Column, MaxManifestNodes, MaxManifestNodes)
}

// checkKeys refuses, in time linear in its keys, a key of mapping n that
// names no field of struct type t (yaml.v3's names: the field's yaml
// tag, else its name in lower case), and checks the mappings of t's
// struct fields in turn; where is the path of n ("" for the top). A
// type that decodes itself (yaml.Unmarshaler) checks its own keys. So
// the mappings yaml.v3 decodes into structs hold at most as many keys
// as their struct has fields, and its quadratic check of duplicate keys
// stays small.
func checkKeys(n *yaml.Node, t reflect.Type, where string) error {
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil
		}
		n = n.Content[0]
	}
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil // yaml.v3 says what is wrong with it
	}
	fields := map[string]reflect.Type{}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		fields[name] = f.Type
		names = append(names, name)
	}
	unmarshaler := reflect.TypeFor[yaml.Unmarshaler]()
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		ft, ok := fields[k.Value]
		if !ok || k.Kind != yaml.ScalarNode {
			in := ""
			if where != "" {
				in = " in " + where
			}
			return fmt.Errorf("line %d:%d: unknown key %q%s (known: %s)", k.Line, k.Column, k.Value, in, strings.Join(names, ", "))
		}
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && !reflect.PointerTo(ft).Implements(unmarshaler) {
			if err := checkKeys(v, ft, strings.TrimPrefix(where+"."+k.Value, ".")); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolve follows aliases to the node they stand for.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// decodeMap decodes a mapping of names to values in one pass, checking
// its keys once (yaml.v3's decoding of a map checks them in quadratic
// time); what names the section in messages. Every name must be
// printable and not blank.
func decodeMap[V any](n *yaml.Node, what string, val func(k, v *yaml.Node) (V, error)) (map[string]V, error) {
	n = resolve(n)
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d:%d: %s: want a mapping of names", n.Line, n.Column, what)
	}
	out := make(map[string]V, len(n.Content)/2)
	lines := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := resolve(n.Content[i])
		var name string
		if k.Kind != yaml.ScalarNode || k.Decode(&name) != nil {
			return nil, fmt.Errorf("line %d:%d: %s: a key must be a name", k.Line, k.Column, what)
		}
		if err := CheckName(name); err != nil {
			return nil, fmt.Errorf("line %d:%d: %s: %w", k.Line, k.Column, what, err)
		}
		if l, dup := lines[name]; dup {
			return nil, fmt.Errorf("line %d:%d: %s: %q already defined at line %d", k.Line, k.Column, what, name, l)
		}
		lines[name] = k.Line
		v, err := val(k, resolve(n.Content[i+1]))
		if err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}

// CheckName checks a system's name (or a label): not blank, and printable
// (no tab, NUL or other control character, which messages would print
// raw).
func CheckName(name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("empty name")
	}
	if i := strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }); i >= 0 {
		return fmt.Errorf("name %q: not printable (a tab, NUL or other control character at byte %d)", name, i)
	}
	if !utf8.ValidString(name) {
		return fmt.Errorf("name %q: not valid UTF-8", name)
	}
	return nil
}

// Labels are a manifest's labels: target -> system name.
type Labels map[string]string

// UnmarshalYAML reads the mapping of targets to names in linear time.
func (l *Labels) UnmarshalYAML(n *yaml.Node) error {
	m, err := decodeMap(n, "labels", func(k, v *yaml.Node) (string, error) {
		var s string
		if v.Kind != yaml.ScalarNode || v.Decode(&s) != nil {
			return "", fmt.Errorf("line %d:%d: labels.%s: want a system's name", v.Line, v.Column, k.Value)
		}
		if err := CheckName(s); err != nil {
			return "", fmt.Errorf("line %d:%d: labels.%s: %w", v.Line, v.Column, k.Value, err)
		}
		return s, nil
	})
	*l = m
	return err
}

// Systems are a manifest's systems: name -> patterns.
type Systems map[string]Patterns

// UnmarshalYAML reads the mapping of names to patterns in linear time.
func (s *Systems) UnmarshalYAML(n *yaml.Node) error {
	m, err := decodeMap(n, "systems", func(k, v *yaml.Node) (Patterns, error) {
		var ps Patterns
		err := ps.UnmarshalYAML(v)
		return ps, err
	})
	*s = m
	return err
}

// Count is a manifest's thresholds.min_runs: a whole number (2.5 or "2"
// is an error, not 2).
type Count int

// UnmarshalYAML reads a YAML integer.
func (c *Count) UnmarshalYAML(n *yaml.Node) error {
	var x int
	if n.ShortTag() != "!!int" || n.Decode(&x) != nil {
		return fmt.Errorf("line %d:%d: thresholds.min_runs: want a whole number, got %q", n.Line, n.Column, n.Value)
	}
	*c = Count(x)
	return nil
}

// Patterns are the path patterns of one manifest system. Each is a
// path.Match pattern (`*` any characters but '/', `?` one character,
// `[a-z]` a class, `\` quotes) over a source's name relative to the
// manifest's folder, or its whole key or path; a pattern that matches a
// folder matches every source below it.
type Patterns []string

// UnmarshalYAML reads a list of patterns (or one), checking each.
func (ps *Patterns) UnmarshalYAML(n *yaml.Node) error {
	list, err := stringList(n, "pattern")
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return fmt.Errorf("line %d: a system needs at least one pattern", n.Line)
	}
	for _, p := range list {
		if _, err := path.Match(p, ""); err != nil || strings.TrimSpace(p) == "" {
			return fmt.Errorf("line %d: bad pattern %q (path.Match syntax: *, ?, [a-z], \\)", n.Line, p)
		}
	}
	*ps = list
	return nil
}

// AnalysisThresholds are a manifest's thresholds: the analysis
// parameters it overrides (nil: the default).
type AnalysisThresholds struct {
	NoiseBand     *float64 `yaml:"noise_band"`
	PracticalBand *float64 `yaml:"practical_band"`
	Alpha         *float64 `yaml:"alpha"`
	MinRuns       *Count   `yaml:"min_runs"`
	ShortRunS     *float64 `yaml:"short_run_s"`
	// ErrorBand is the practical band of error rates, in percentage
	// points (analyze.Options.ErrorBandPts).
	ErrorBand *float64 `yaml:"error_band"`
}

// Thresholds are a manifest's slo: list of threshold expressions.
type Thresholds []gate.Threshold

// UnmarshalYAML reads a list of expressions (or one), parsing each.
func (ts *Thresholds) UnmarshalYAML(n *yaml.Node) error {
	list, err := stringList(n, "slo")
	if err != nil {
		return err
	}
	out := make(Thresholds, 0, len(list))
	for i, e := range list {
		t, err := gate.ParseThreshold(e)
		if err != nil {
			line := n.Line
			if n.Kind == yaml.SequenceNode && i < len(n.Content) {
				line = n.Content[i].Line
			}
			return fmt.Errorf("line %d: slo: %w", line, err)
		}
		out = append(out, t)
	}
	*ts = out
	return nil
}

// Conditions are a manifest's gate.fail_on or gate.allow.
type Conditions []gate.Condition

// UnmarshalYAML reads a list of conditions or one comma-separated
// string; an empty list is none.
func (cs *Conditions) UnmarshalYAML(n *yaml.Node) error {
	list, err := stringList(n, "gate")
	if err != nil || len(list) == 0 {
		*cs = Conditions{}
		return err
	}
	c, err := gate.ParseConditions(strings.Join(list, ","))
	if err != nil {
		return fmt.Errorf("line %d: gate: %w", n.Line, err)
	}
	*cs = c
	return nil
}

// Percent is a manifest's gate.max_regression: 5 or "5%".
type Percent float64

// UnmarshalYAML reads a percentage >= 0.
func (p *Percent) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err != nil {
		return err
	}
	x, err := gate.ParsePercent(s)
	if err != nil {
		return fmt.Errorf("line %d: gate.max_regression: %w", n.Line, err)
	}
	*p = Percent(x)
	return nil
}

// matchPattern tells whether pattern matches name or one of its folders.
func matchPattern(pattern, name string) bool {
	pattern = strings.TrimSuffix(pattern, "/")
	for {
		if ok, _ := path.Match(pattern, name); ok {
			return true
		}
		i := strings.LastIndexByte(name, '/')
		if i <= 0 {
			return false
		}
		name = name[:i]
	}
}

// systemRules returns the manifest's systems as rules, in name order.
func (m *Manifest) systemRules() []SystemRule {
	if m == nil {
		return nil
	}
	var out []SystemRule
	for _, name := range slices.Sorted(maps.Keys(m.Systems)) {
		out = append(out, SystemRule{Name: name, Patterns: m.Systems[name]})
	}
	return out
}

// The bounds of a manifest: it is a small file a person writes, and it
// is read whole in the function that analyses its experiment.
const (
	// MaxManifestBytes is the largest manifest read (256 KiB, thousands
	// of labels); a larger one is refused before it is parsed.
	MaxManifestBytes = 256 << 10
	// MaxManifestNodes is the most YAML nodes (scalars, lists, mappings)
	// a manifest may hold, every alias counted as the nodes it stands
	// for: a few kilobytes of nested aliases would otherwise stand for
	// millions of patterns.
	MaxManifestNodes = 100_000
)

// ParseManifest reads a manifest strictly: unknown keys and bad values are
// errors that name the key and the line. It reads one YAML document of
// at most MaxManifestBytes and MaxManifestNodes (aliases expanded), in
// time linear in its size.
func ParseManifest(key string, data []byte) (*Manifest, error) {
	m, err := parseManifest(data)
	if err != nil {
		return nil, &ManifestError{Key: key, Err: err}
	}
	return m, nil
}

// ReadManifestFrom reads a manifest (named key) from r, at most
// MaxManifestBytes of it: a larger one is a *ManifestError.
func ReadManifestFrom(key string, r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxManifestBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxManifestBytes {
		return nil, &ManifestError{Key: key, Err: errTooLarge}
	}
	return b, nil
}

var errTooLarge = fmt.Errorf("larger than %d KiB: a manifest is at most %d bytes", MaxManifestBytes>>10, MaxManifestBytes)

func parseManifest(data []byte) (*Manifest, error) {
	var m Manifest
	if len(data) > MaxManifestBytes {
		return nil, errTooLarge
	}
	doc, err := manifestNode(data)
	if err != nil || doc == nil {
		return &m, err
	}
	if err := checkNodes(doc); err != nil {
		return nil, err
	}
	if err := checkKeys(doc, reflect.TypeFor[Manifest](), ""); err != nil {
		return nil, err
	}
	if err := doc.Decode(&m); err != nil {
		return nil, err
	}
	if err := m.checkNames(); err != nil {
		return nil, err
	}
	if err := m.Thresholds.check(); err != nil {
		return nil, err
	}
	return &m, nil
}

// manifestNode reads the document into nodes once (nil for an empty
// one), to be checked (its size with aliases expanded, duplicate and
// unknown keys, in linear time: yaml.v3 checks a mapping's keys in time
// quadratic in their number) before it is decoded from them. A second
// document is an error.
func manifestNode(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, fmt.Errorf("line %d: a second YAML document (---): a manifest is one document", extra.Line)
	} else if !errors.Is(err, io.EOF) {
		return nil, err
	}
	return &doc, nil
}

// checkNames checks the names and the date the manifest gives.
func (m *Manifest) checkNames() error {
	if m.Baseline != "" {
		if err := CheckName(m.Baseline); err != nil {
			return fmt.Errorf("baseline: %w", err)
		}
	}
	if m.Series != "" {
		if err := CheckSeries(m.Series); err != nil {
			return fmt.Errorf("series: %w", err)
		}
	}
	if m.Meta.Date != "" {
		if _, err := analyze.ParseDate(m.Meta.Date); err != nil {
			return fmt.Errorf("meta.%w", err)
		}
	}
	for _, a := range append(slices.Clone(m.History.Accept), m.History.Baseline) {
		if a != "" && strings.TrimSpace(a) != a {
			return fmt.Errorf("history: experiment name %q has surrounding spaces", a)
		}
	}
	return nil
}

// check checks the statistical settings against their bounds.
func (t *AnalysisThresholds) check() error {
	in := func(name string, p *float64, lo, hi float64, loIn bool, why string) error {
		if p == nil || (*p > lo || loIn && *p == lo) && *p <= hi {
			return nil
		}
		open := "("
		if loIn {
			open = "["
		}
		return fmt.Errorf("thresholds.%s = %v, want a value in %s%v, %v]%s", name, *p, open, lo, hi, why)
	}
	for _, err := range []error{
		in("noise_band", t.NoiseBand, 0, MaxBand, false, bandWhy), in("practical_band", t.PracticalBand, 0, MaxBand, false, bandWhy),
		in("alpha", t.Alpha, MinAlpha, MaxAlpha, true, alphaWhy), in("short_run_s", t.ShortRunS, 0, 1e9, false, ""),
		in("error_band", t.ErrorBand, 0, MaxErrorBandPts, true, errorBandWhy),
	} {
		if err != nil {
			return err
		}
	}
	if t.MinRuns != nil && (*t.MinRuns < 2 || *t.MinRuns > 1000) {
		return fmt.Errorf("thresholds.min_runs = %d, want 2..1000", *t.MinRuns)
	}
	return nil
}

// The bounds of the manifest's statistical settings: outside them a
// setting would switch the gate off rather than tune it (an alpha no test
// can reach at the runs users make, a band that calls a quarter's
// regression "no difference"), so they are refused.
const (
	MinAlpha = 0.001
	MaxAlpha = 0.2
	MaxBand  = 0.25
	// MaxErrorBandPts bounds thresholds.error_band, in points.
	MaxErrorBandPts = 2.0
)

const (
	alphaWhy = ": a smaller alpha leaves no test able to decide (the exact test's smallest p at 6 runs against 6 is 0.0022), a larger one decides on noise"
	bandWhy  = ": a wider band calls a difference of a quarter no difference"
	// errorBandWhy: at 2 points a wider band lets one request in 50 more fail unnoticed.
	errorBandWhy = " (points): a wider band lets more than one request in 50 more fail without failing the gate"
)

// Apply sets the manifest's baseline, thresholds, SLO and gate on opts.
func (m *Manifest) Apply(opts *analyze.Options) {
	if m == nil {
		return
	}
	if m.Baseline != "" {
		opts.Baseline = m.Baseline
	}
	opts.SLO = append(opts.SLO, m.SLO...)
	opts.FailOn = m.Gate.FailOn
	opts.Allow = m.Gate.Allow
	if m.Gate.MaxRegression != nil {
		opts.MaxRegressionPct = float64(*m.Gate.MaxRegression)
	}
	t := m.Thresholds
	if t.NoiseBand != nil {
		opts.NoiseBand = *t.NoiseBand
	}
	if t.PracticalBand != nil {
		opts.PracticalBand = *t.PracticalBand
	}
	if t.Alpha != nil {
		opts.Alpha = *t.Alpha
	}
	if t.MinRuns != nil {
		opts.MinRuns = int(*t.MinRuns)
	}
	if t.ErrorBand != nil {
		opts.ErrorBandPts = *t.ErrorBand
	}
	if t.ShortRunS != nil {
		opts.ShortRunS = *t.ShortRunS
	}
}

// ManifestError is a manifest that cannot be parsed: bad YAML, an unknown
// key, a value out of range. It is an input fault of its experiment.
type ManifestError struct {
	// Key is the manifest's key or path.
	Key string
	// Err says what is wrong, with its line where YAML gives one.
	Err error
}

func (e *ManifestError) Error() string { return e.Key + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *ManifestError) Unwrap() error { return e.Err }

// CheckSeries rejects what cannot be a series' name: the rule of
// experiment names (store.CheckExperiment), since it names
// reports/_series/<series>/ the same way.
func CheckSeries(name string) error {
	if err := store.CheckExperiment(name); err != nil {
		return fmt.Errorf("invalid series name: %w", err)
	}
	return nil
}
