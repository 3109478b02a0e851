package main

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"time"
)

// speedMeter measures the machine as the server's work sees it: each
// request's hash loop is timed by the wall clock, and the times and
// iterations are summed per second of the server's clock. A loop of
// under 10 ms is not preempted by Go's scheduler (one P, no blocking in
// it), so its wall time per iteration is the CPU's speed while it ran
// (the host's steal, the CPU's clock, caches a neighbour shares): what
// the planned truth assumes constant. The time another process takes
// between the loops does not show in it. The conformance generator reads the slices after each run
// (GET /speed), which drains them.
type speedMeter struct {
	mu     sync.Mutex
	slices map[int64]*SpeedSlice
}

// SpeedSlice is one second of the server's clock: the iterations of
// work done in it and the nanoseconds their loops took.
type SpeedSlice struct {
	AtS   int64 `json:"at_s"`
	Iters int64 `json:"iters"`
	Ns    int64 `json:"ns"`
}

// add counts a loop of iters iterations that took d, at elapsed time t.
func (m *speedMeter) add(t time.Duration, iters int, d time.Duration) {
	if iters <= 0 {
		return
	}
	k := int64(t / time.Second)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.slices == nil {
		m.slices = map[int64]*SpeedSlice{}
	}
	s := m.slices[k]
	if s == nil {
		s = &SpeedSlice{AtS: k}
		m.slices[k] = s
	}
	s.Iters += int64(iters)
	s.Ns += int64(d)
}

// drain returns the slices counted since the last drain, in time order,
// and forgets them.
func (m *speedMeter) drain() []SpeedSlice {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]SpeedSlice, 0, len(m.slices))
	for _, s := range m.slices {
		out = append(out, *s)
	}
	m.slices = nil
	slices.SortFunc(out, func(a, b SpeedSlice) int { return cmp.Compare(a.AtS, b.AtS) })
	return out
}

// serveSpeed answers GET /speed with the drained slices as JSON.
func (m *speedMeter) serveSpeed(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(m.drain())
}
