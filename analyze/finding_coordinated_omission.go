package analyze

import "github.com/loadverdict/loadverdict/results"

// checkCoordinatedOmission adds a coordinated-omission finding per
// closed-model tool, naming its runs.
func checkCoordinatedOmission(v *Verdict, _ *findingContext) {
	closed := map[string][]RunRef{}
	for _, r := range v.Runs {
		if r.LoadModel == results.LoadClosed {
			closed[r.Tool] = append(closed[r.Tool], runRef(r))
		}
	}
	for _, tool := range sortedKeys(closed) {
		v.add(SeverityWarning, CodeCoordinatedOmission, Subject{Tool: tool, Runs: closed[tool]}, nil)
	}
}
