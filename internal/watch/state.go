package watch

import (
	"math"

	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// window is one time window of the watched run: its counts and its
// latencies' sparse histogram.
type window struct {
	n, errors     int64
	sum, min, max float64
	h             hist
}

// runState is the watched run: its windows by request start, as the
// Requests aggregator of ingest cuts them (width doubling past
// requests.MaxWindows windows), so memory is bounded by the windows, not
// by the requests.
type runState struct {
	started      bool
	origin       int64 // the first request's start, ns
	maxStart     int64
	width        float64 // seconds
	base         int
	wins         []window
	n, errors    int64
	noHTTPStatus bool
	pending      []requests.Request // until the origin is fixed
}

func newRunState(width float64) *runState { return &runState{width: width} }

// Logs are written in completion order, not start order: the run's
// origin (t = 0) is the earliest start among its first requests, held
// back until originHold of them came or their starts span originSpan.
const (
	originHold = 10000
	originSpan = 2e9 // ns
)

// add records one request.
func (s *runState) add(q requests.Request) {
	if !s.started {
		s.pending = append(s.pending, q)
		lo, hi := s.pending[0].Start, s.pending[0].Start
		for _, p := range s.pending {
			lo, hi = min(lo, p.Start), max(hi, p.Start)
		}
		if len(s.pending) < originHold && hi-lo < originSpan {
			return
		}
		s.start()
		return
	}
	s.record(q)
}

// start fixes the origin at the earliest pending start and records the
// pending requests.
func (s *runState) start() {
	if s.started || len(s.pending) == 0 {
		return
	}
	s.started, s.origin, s.maxStart = true, s.pending[0].Start, s.pending[0].Start
	for _, p := range s.pending {
		s.origin = min(s.origin, p.Start)
	}
	for _, p := range s.pending {
		s.record(p)
	}
	s.pending = nil
}

// record adds one request to its window.
func (s *runState) record(q requests.Request) {
	s.maxStart = max(s.maxStart, q.Start)
	failed := requests.Failed(q, s.noHTTPStatus)
	s.n++
	w := s.window(float64(q.Start-s.origin) / 1e9)
	if w.n == 0 || q.LatencyMs < w.min {
		w.min = q.LatencyMs
	}
	w.n++
	w.sum += q.LatencyMs
	w.max = math.Max(w.max, q.LatencyMs)
	if failed {
		w.errors++
		s.errors++
	}
	w.h.add(bucketOf(q.LatencyMs), 1)
}

// index returns the index of the window holding offset t (seconds).
func (s *runState) index(t float64) int { return int(math.Floor(t / s.width)) }

// window returns the window holding offset t, growing the windows and
// doubling their width when there would be more than MaxWindows.
func (s *runState) window(t float64) *window {
	k := s.index(t)
	for len(s.wins) > 0 && max(s.base+len(s.wins)-1, k)-min(s.base, k)+1 > requests.MaxWindows {
		s.double()
		k = s.index(t)
	}
	s.wins, s.base = requests.GrowWindows(s.wins, s.base, k)
	return &s.wins[k-s.base]
}

// double merges adjacent windows pairwise.
func (s *runState) double() {
	nb := requests.FloorDiv(s.base, 2)
	merged := make([]window, requests.FloorDiv(s.base+len(s.wins)-1, 2)-nb+1)
	for i := range s.wins {
		m, w := &merged[requests.FloorDiv(s.base+i, 2)-nb], &s.wins[i]
		if w.n > 0 && (m.n == 0 || w.min < m.min) {
			m.min = w.min
		}
		m.n += w.n
		m.errors += w.errors
		m.sum += w.sum
		m.max = math.Max(m.max, w.max)
		m.h.merge(&w.h)
	}
	s.wins, s.base, s.width = merged, nb, s.width*2
}

// current returns the index of the window of the latest start: the
// windows before it are complete (a request's start comes at most one
// window late).
func (s *runState) current() int { return s.index(float64(s.maxStart-s.origin) / 1e9) }

// seriesBefore returns the windows before index k as the series table's
// rows (p50, p90 and p99 from the buckets, within the window's exact
// minimum and maximum).
func (s *runState) seriesBefore(k int) []results.Series {
	var out []results.Series
	for i := range s.wins {
		if s.base+i >= k {
			break
		}
		out = append(out, s.row(i))
	}
	return out
}

// row returns window i as a series row.
func (s *runState) row(i int) results.Series {
	w := &s.wins[i]
	r := results.Series{TS: float64(s.base+i) * s.width, WindowS: s.width, Requests: w.n, Errors: w.errors, RPS: float64(w.n) / s.width}
	if w.n > 0 {
		q := func(p float64) *float64 { return results.Ptr(min(max(bucketMid(w.h.quantile(p)), w.min), w.max)) }
		r.LatMeanMs, r.LatMaxMs = results.Ptr(w.sum/float64(w.n)), results.Ptr(w.max)
		r.LatP50Ms, r.LatP90Ms, r.LatP99Ms = q(0.5), q(0.9), q(0.99)
	}
	return r
}

// blocksFrom returns the histograms of the windows from offset from
// (seconds) up to before index k: the steady blocks.
func (s *runState) blocksFrom(from float64, k int) []*hist {
	var out []*hist
	for i := range s.wins {
		idx := s.base + i
		if idx >= k {
			break
		}
		if float64(idx)*s.width >= from-1e-9 {
			out = append(out, &s.wins[i].h)
		}
	}
	return out
}
