// Package experiment assembles an experiment for analysis: from the runs
// read of one or more experiments, their rejected inputs, a manifest and
// the command line's settings, it makes what analyze.Analyze needs
// (Assemble): the runs in execution order, each named to its system,
// copies of one test dropped, parts of one test merged, the error and
// pause tallies of runs with samples, and the analysis options with the
// baseline decided once and checked against the systems. It also parses
// the manifest (ParseManifest: bounded, strict) and holds the setting
// types the command line's flags fill.
//
// It knows nothing of where runs are kept: the samples of merges and
// tallies come through the SampleReader its caller gives (the pipeline
// reads them from the store). docs/EXPERIMENTS.md says what the rules do.
package experiment
