package analyze

// NoReplicationFacts are the figures of a no-replication finding.
type NoReplicationFacts struct {
	MinRuns int // the fewest runs per system and settings a comparison needs
}

func (NoReplicationFacts) facts() {}

// checkNoReplication adds one no-replication finding for the groups with
// fewer than Options.MinRuns runs that no partner group makes decidable.
func checkNoReplication(v *Verdict, _ *findingContext) {
	var thin []GroupRef
	for _, s := range v.Systems {
		for _, g := range s.Groups {
			if len(g.Runs) < v.Options.MinRuns && !v.decidablePartner(s.Label, g) {
				thin = append(thin, GroupRef{Label: s.Label, Settings: g.Settings, Runs: len(g.Runs)})
			}
		}
	}
	if len(thin) > 0 {
		v.add(SeverityWarning, CodeNoReplication, Subject{Groups: thin}, NoReplicationFacts{MinRuns: v.Options.MinRuns})
	}
}

// decidablePartner reports whether another system has a group at g's
// settings whose runs, against g's, a test could decide at alpha
// (decidable: the exact test, 3 runs against 8; Welch's t-test, 3
// against 3): then g's few runs are no obstacle, and no-replication does
// not name it.
func (v *Verdict) decidablePartner(label string, g Group) bool {
	for _, s := range v.Systems {
		if s.Label == label {
			continue
		}
		for _, h := range s.Groups {
			if h.key() == g.key() && decidable(len(g.Runs), len(h.Runs), v.Options.Alpha) {
				return true
			}
		}
	}
	return false
}
