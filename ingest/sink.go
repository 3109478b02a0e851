package ingest

import "github.com/loadverdict/loadverdict/results"

// Sink receives what a parser reads, in input order. Summary formats send
// only runs; per-request formats send each run's samples first, then its
// series and last the run itself (with has_samples set).
type Sink interface {
	// Run receives a finished run and its latency percentiles.
	Run(results.RunWithPercentiles) error
	// Sample receives one request of a run.
	Sample(results.Sample) error
	// Series receives one time window of a run.
	Series(results.Series) error
}

// RunFunc is a Sink that passes runs to a function and drops samples and
// series: what `loadverdict parse` needs.
type RunFunc func(results.RunWithPercentiles) error

// Run calls f.
func (f RunFunc) Run(r results.RunWithPercentiles) error { return f(r) }

// Sample drops s.
func (RunFunc) Sample(results.Sample) error { return nil }

// Series drops s.
func (RunFunc) Series(results.Series) error { return nil }
