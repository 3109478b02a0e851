package analyze

import (
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// PauseTallyMax is the most requests a PauseTally keeps (8 bytes each):
// a run with more is not searched for pauses (RunPauses.Skipped).
const PauseTallyMax = 2_000_000

// PauseTally keeps the send time and latency of the requests of one run
// with per-request data, for its short pauses (stats.Pauses): pauses
// shorter than a window, one in every window, leave the windows' means
// level and show only in the requests.
type PauseTally struct {
	runID   string
	ts, lat []float32
	skipped bool
}

// NewPauseTally returns the tally of run, its room made for the run's
// requests (at most PauseTallyMax), so that it does not grow by copies; a
// run whose counts alone show more than PauseTallyMax successful requests
// is skipped at once, no room made (the count is a lower bound: a tool's
// errors may count its non-2xx responses too, as ab's do).
func NewPauseTally(run results.Run) *PauseTally {
	ok := run.Requests - max(run.Errors, 0)
	if run.Non2xx != nil {
		ok -= max(*run.Non2xx, 0)
	}
	if ok > PauseTallyMax {
		return &PauseTally{runID: run.RunID, skipped: true}
	}
	n := int(min(max(run.Requests, 0), PauseTallyMax))
	return &PauseTally{runID: run.RunID, ts: make([]float32, 0, n), lat: make([]float32, 0, n)}
}

// RunID returns the id of the tally's run.
func (t *PauseTally) RunID() string { return t.runID }

// Add counts one request; failed requests are left out (a refused or
// reset connection answers at once, a timeout is a fault of its own).
func (t *PauseTally) Add(s results.Sample) {
	if t.skipped || s.Error != nil || s.Status >= 400 || s.Status == 0 {
		return
	}
	if len(t.ts) >= PauseTallyMax {
		t.skipped, t.ts, t.lat = true, nil, nil
		return
	}
	t.ts = append(t.ts, float32(s.TS))
	t.lat = append(t.lat, float32(s.LatencyMs))
}

// Result returns the run's pauses.
func (t *PauseTally) Result() RunPauses {
	out := RunPauses{RunID: t.runID, Skipped: t.skipped, Requests: len(t.ts)}
	if t.skipped || len(t.ts) == 0 {
		return out
	}
	out.Pauses, out.MedianMs, out.Held = stats.Pauses(t.ts, t.lat)
	return out
}

// RunPauses are the short pauses of one run (stats.Pauses) over its
// successful requests.
type RunPauses struct {
	RunID string
	// Pauses in time order; MedianMs the run's median latency; Held the
	// requests the pauses held, of Requests successful ones.
	Pauses         []stats.Pause
	MedianMs       float64
	Held, Requests int
	Skipped        bool // more than PauseTallyMax requests: not searched
}
