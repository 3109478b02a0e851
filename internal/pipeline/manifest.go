package pipeline

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/loadverdict/loadverdict/analyze"
)

// Manifest is an experiment's optional raw/<experiment>/loadverdict.yaml.
type Manifest struct {
	// Labels map a run's label (host:port, or a file name) to a name.
	Labels map[string]string `yaml:"labels"`
	// Baseline is the label every other system is compared against.
	Baseline string `yaml:"baseline"`
	// Order lists raw keys in execution order; sources not listed follow
	// in key order.
	Order []string `yaml:"order"`
	// Thresholds override analysis parameters.
	Thresholds struct {
		NoiseBand     *float64 `yaml:"noise_band"`
		PracticalBand *float64 `yaml:"practical_band"`
		Alpha         *float64 `yaml:"alpha"`
		MinRuns       *int     `yaml:"min_runs"`
		ShortRunS     *float64 `yaml:"short_run_s"`
	} `yaml:"thresholds"`
}

// ParseManifest reads a manifest strictly: unknown keys and bad values are
// errors that name the key and the line.
func ParseManifest(key string, data []byte) (*Manifest, error) {
	var m Manifest
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil && err.Error() != "EOF" {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	for k, v := range m.Labels {
		if k == "" || v == "" {
			return nil, fmt.Errorf("%s: labels: empty label in %q: %q", key, k, v)
		}
	}
	t := m.Thresholds
	check := func(name string, p *float64, lo, hi float64) error {
		if p != nil && !(*p > lo && *p < hi) {
			return fmt.Errorf("%s: thresholds.%s = %v, want a value in (%v, %v)", key, name, *p, lo, hi)
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
		return nil, fmt.Errorf("%s: thresholds.min_runs = %d, want 2..1000", key, *t.MinRuns)
	}
	return &m, nil
}

// apply sets the manifest's baseline and thresholds on opts.
func (m *Manifest) apply(opts *analyze.Options) {
	if m == nil {
		return
	}
	if m.Baseline != "" {
		opts.Baseline = m.Baseline
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
