package experiment

import (
	"context"
	"fmt"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/results"
)

// errorTallies sets set.Errors: the failed requests by cause of every run
// of set.Runs that failed and has samples, read from the committed samples
// files (samples, by run_id of the runs read); a merged run's from its
// parts' samples, at their times since the merged run's start. In the
// same pass it sets set.Pauses: the short pauses of every run with samples
// (analyze.PauseTally, issue 31). Each file is read once, whatever the
// number of its runs. A file gone since the runs were read is the
// reader's error, as in a merge.
func (a *assembler) errorTallies(ctx context.Context, set *analyze.Set, samples map[string]string, merged []mergedRun) error {
	type target struct {
		tally *analyze.ErrorTally // nil for a run without errors
		pause *analyze.PauseTally
		shift float64 // seconds added to a sample's t_s
	}
	byPart := map[string]target{} // run_id in a samples file -> its tally
	var tallies []*analyze.ErrorTally
	var pauses []*analyze.PauseTally
	mergedOf := map[string]mergedRun{}
	for _, m := range merged {
		mergedOf[m.Run.RunID] = m
	}
	for _, r := range set.Runs {
		if !r.HasSamples {
			continue
		}
		var t *analyze.ErrorTally
		if r.Errors > 0 {
			t = analyze.NewErrorTally(r)
			tallies = append(tallies, t)
		}
		pt := analyze.NewPauseTally(r)
		pauses = append(pauses, pt)
		if m, ok := mergedOf[r.RunID]; ok {
			for _, part := range m.Parts {
				shift := 0.0
				if part.StartedAt != nil && r.StartedAt != nil {
					shift = part.StartedAt.Sub(*r.StartedAt).Seconds()
				}
				byPart[part.RunID] = target{t, pt, shift}
			}
		} else {
			byPart[r.RunID] = target{t, pt, 0}
		}
	}
	if len(pauses) == 0 {
		return nil
	}
	files, sources, err := sampleFiles(set.Runs, mergedOf, func(id string) bool { _, ok := byPart[id]; return ok }, samples)
	if err != nil {
		return err
	}
	readerOf := a.tallyReader(merged, samples)
	for _, key := range files {
		err := readerOf(key)(ctx, key, sources[key], func(s results.Sample) error {
			t, ok := byPart[s.RunID]
			if !ok {
				return nil
			}
			s.TS += t.shift
			s.RunID = t.pause.RunID()
			if t.tally != nil {
				t.tally.Add(s)
			}
			t.pause.Add(s)
			return nil
		})
		if err != nil {
			return wrapRead("errors of", sources[key], err)
		}
	}
	for _, t := range tallies {
		set.Errors = append(set.Errors, t.Result())
	}
	for _, t := range pauses {
		set.Pauses = append(set.Pauses, t.Result())
	}
	return nil
}

// tallyReader returns the reader of the samples file at a key for the
// tallies: a.tally, but a.read for a file of a merged run's part, whose
// times are shifted, so read whole.
func (a *assembler) tallyReader(merged []mergedRun, samples map[string]string) func(key string) SampleReader {
	parts := map[string]bool{}
	for _, m := range merged {
		for _, part := range m.Parts {
			parts[samples[part.RunID]] = true
		}
	}
	return func(key string) SampleReader {
		if parts[key] {
			return a.read
		}
		return a.tally
	}
}

// sampleFiles lists the samples files to read, each once, in the runs'
// order, with the source of each: the files of the runs (a merged run's
// parts) that wanted says are tallied.
func sampleFiles(runs []results.Run, mergedOf map[string]mergedRun, wanted func(runID string) bool, samples map[string]string) ([]string, map[string]string, error) {
	var files []string
	sources := map[string]string{}
	for _, r := range runs {
		ids := []results.Run{r}
		if m, ok := mergedOf[r.RunID]; ok {
			ids = m.Parts
		}
		for _, part := range ids {
			if !wanted(part.RunID) {
				continue
			}
			key := samples[part.RunID]
			if key == "" {
				return nil, nil, fmt.Errorf("errors of %s: run %s has samples but its committed generation has no samples table", part.Source, part.RunID)
			}
			if _, ok := sources[key]; !ok {
				files = append(files, key)
				sources[key] = part.Source
			}
		}
	}
	return files, sources, nil
}
