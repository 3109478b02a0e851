package analyze

import (
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// PeriodicPausesFacts are the figures of a periodic-pauses finding.
type PeriodicPausesFacts struct {
	// Pauses is the number of pauses on the regular grid, Others those
	// off it (stats.PausePeriod); PeriodS the fitted interval and
	// JitterMs the RMS distance of the pauses' starts from the grid.
	Pauses, Others int
	PeriodS        float64
	JitterMs       float64
	// MinMs, MedianMs and MaxMs are the lengths of the pauses on the grid
	// (from the first held request's send to the last one's answer), ms.
	MinMs, MedianMs, MaxMs float64
	// ShareRequests is the share of the run's successful requests held by
	// a pause on the grid; LevelMs the run's median latency.
	ShareRequests, LevelMs float64
}

func (PeriodicPausesFacts) facts() {}

// checkPeriodicPauses adds a periodic-pauses finding for every run
// whose pauses recur at a regular interval, unless its windows showed its
// stalls already (Instability); it records both kinds in fc.stalled, which
// long-tail leaves out.
func checkPeriodicPauses(v *Verdict, fc *findingContext) {
	fc.stalled = map[string]bool{}
	for _, s := range v.Systems {
		for _, rw := range s.WithinRunWarmup {
			fc.stalled[rw.RunID] = rw.Instability != nil
		}
	}
	var quiet []results.Run
	for _, r := range v.Runs {
		if !fc.stalled[r.RunID] {
			quiet = append(quiet, r)
		}
	}
	for id := range v.periodicPauses(quiet, v.pauses) {
		fc.stalled[id] = true
	}
}

// periodicPauses adds a periodic-pauses finding for every run whose
// pauses recur at a regular interval (stats.PausePeriod) and returns
// those runs.
func (v *Verdict) periodicPauses(runs []results.Run, all []RunPauses) map[string]bool {
	byID := map[string]RunPauses{}
	for _, p := range all {
		byID[p.RunID] = p
	}
	out := map[string]bool{}
	for _, r := range runs {
		p, ok := byID[r.RunID]
		if !ok || p.Requests == 0 {
			continue
		}
		per, regular := stats.PausePeriod(p.Pauses)
		if !regular {
			continue
		}
		f := PeriodicPausesFacts{Pauses: len(per.Matched), Others: len(p.Pauses) - len(per.Matched), PeriodS: per.PeriodS,
			JitterMs: per.JitterMs, LevelMs: p.MedianMs}
		lens := make([]float64, len(per.Matched))
		held := 0
		for i, m := range per.Matched {
			x := p.Pauses[m]
			lens[i] = 1000 * (x.ToS - x.FromS)
			held += x.Requests
		}
		f.ShareRequests = float64(held) / float64(p.Requests)
		f.MinMs, f.MaxMs, f.MedianMs = lens[0], lens[0], stats.Median(lens)
		for _, l := range lens {
			f.MinMs, f.MaxMs = min(f.MinMs, l), max(f.MaxMs, l)
		}
		v.add(SeverityWarning, CodePeriodicPauses, Subject{Systems: []string{r.Label}, Runs: []RunRef{runRef(r)}}, f)
		out[r.RunID] = true
	}
	return out
}
