package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/gate"
)

// Manifest is an experiment's optional raw/<experiment>/loadverdict.yaml,
// or on the command line loadverdict.yaml in an input folder or
// --manifest FILE.
type Manifest struct {
	// Labels map a run's target (host:port, or a file name for logs
	// without one) to a system's name.
	Labels map[string]string `yaml:"labels"`
	// Systems name systems by where their runs come from: every run of a
	// source that one of a system's patterns matches belongs to it. They
	// take precedence over Labels.
	Systems map[string]Patterns `yaml:"systems"`
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
		// FailOn are the conditions that fail it: a list, or one
		// comma-separated string.
		FailOn Conditions `yaml:"fail_on"`
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
	} `yaml:"history"`
	// Thresholds override analysis parameters.
	Thresholds struct {
		NoiseBand     *float64 `yaml:"noise_band"`
		PracticalBand *float64 `yaml:"practical_band"`
		Alpha         *float64 `yaml:"alpha"`
		MinRuns       *int     `yaml:"min_runs"`
		ShortRunS     *float64 `yaml:"short_run_s"`
	} `yaml:"thresholds"`

	// Dir is the folder the manifest lies in ("raw/<experiment>" in a
	// bucket): patterns and order entries also match source names
	// relative to it. It is not read from the file.
	Dir string `yaml:"-"`
}

// stringList decodes a list of strings, or one string as a list of one.
func stringList(n *yaml.Node) ([]string, error) {
	if n.Kind == yaml.ScalarNode {
		var s string
		err := n.Decode(&s)
		return []string{s}, err
	}
	var list []string
	err := n.Decode(&list)
	return list, err
}

// Patterns are the path patterns of one manifest system. Each is a
// path.Match pattern (`*` any characters but '/', `?` one character,
// `[a-z]` a class, `\` quotes) over a source's name relative to the
// manifest's folder, or its whole key or path; a pattern that matches a
// folder matches every source below it.
type Patterns []string

// UnmarshalYAML reads a list of patterns (or one), checking each.
func (ps *Patterns) UnmarshalYAML(n *yaml.Node) error {
	list, err := stringList(n)
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

// Thresholds are a manifest's slo: list of threshold expressions.
type Thresholds []gate.Threshold

// UnmarshalYAML reads a list of expressions (or one), parsing each.
func (ts *Thresholds) UnmarshalYAML(n *yaml.Node) error {
	list, err := stringList(n)
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

// Conditions are a manifest's gate.fail_on.
type Conditions []gate.Condition

// UnmarshalYAML reads a list of conditions or one comma-separated
// string; an empty list is none.
func (cs *Conditions) UnmarshalYAML(n *yaml.Node) error {
	list, err := stringList(n)
	if err != nil || len(list) == 0 {
		*cs = Conditions{}
		return err
	}
	c, err := gate.ParseConditions(strings.Join(list, ","))
	if err != nil {
		return fmt.Errorf("line %d: gate.fail_on: %w", n.Line, err)
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

// ParseManifest reads a manifest strictly: unknown keys and bad values are
// errors that name the key and the line.
func ParseManifest(key string, data []byte) (*Manifest, error) {
	m, err := parseManifest(data)
	if err != nil {
		return nil, &ManifestError{Key: key, Err: err}
	}
	return m, nil
}

func parseManifest(data []byte) (*Manifest, error) {
	var m Manifest
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil && err.Error() != "EOF" {
		return nil, err
	}
	for k, v := range m.Labels {
		if k == "" || v == "" {
			return nil, fmt.Errorf("labels: empty label in %q: %q", k, v)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.Systems)) {
		if strings.TrimSpace(name) == "" {
			return nil, errors.New("systems: empty system name")
		}
		if len(m.Systems[name]) == 0 {
			return nil, fmt.Errorf("systems.%s: a system needs at least one pattern", name)
		}
	}
	if m.Series != "" {
		if err := CheckSeries(m.Series); err != nil {
			return nil, fmt.Errorf("series: %w", err)
		}
	}
	if m.Meta.Date != "" {
		if _, err := analyze.ParseDate(m.Meta.Date); err != nil {
			return nil, fmt.Errorf("meta.%w", err)
		}
	}
	for _, a := range append(slices.Clone(m.History.Accept), m.History.Baseline) {
		if a != "" && strings.TrimSpace(a) != a {
			return nil, fmt.Errorf("history: experiment name %q has surrounding spaces", a)
		}
	}
	t := m.Thresholds
	check := func(name string, p *float64, lo, hi float64) error {
		if p != nil && !(*p > lo && *p < hi) {
			return fmt.Errorf("thresholds.%s = %v, want a value in (%v, %v)", name, *p, lo, hi)
		}
		return nil
	}
	for _, err := range []error{
		check("noise_band", t.NoiseBand, 0, 1), check("practical_band", t.PracticalBand, 0, 1),
		check("alpha", t.Alpha, 0, 0.5), check("short_run_s", t.ShortRunS, 0, 1e9),
	} {
		if err != nil {
			return nil, err
		}
	}
	if t.MinRuns != nil && (*t.MinRuns < 2 || *t.MinRuns > 1000) {
		return nil, fmt.Errorf("thresholds.min_runs = %d, want 2..1000", *t.MinRuns)
	}
	return &m, nil
}

// apply sets the manifest's baseline, thresholds, SLO and gate on opts.
func (m *Manifest) apply(opts *analyze.Options) {
	if m == nil {
		return
	}
	if m.Baseline != "" {
		opts.Baseline = m.Baseline
	}
	opts.SLO = append(opts.SLO, m.SLO...)
	opts.FailOn = m.Gate.FailOn
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
		opts.MinRuns = *t.MinRuns
	}
	if t.ShortRunS != nil {
		opts.ShortRunS = *t.ShortRunS
	}
}
