package stats

import (
	"math"
	"slices"
)

// Short pauses seen in the requests themselves: a run whose
// server stops the world for tens of milliseconds every second has one
// pause in every one-second window, so its windows' means stay level and
// the windows cannot show the pauses nor their period. A pause shows in
// the requests sent during it: they all wait until it ends, so their
// completion times (send time + latency) bunch at its end while their
// latencies fall from the pause's length down to the usual.

// The parameters of Pauses.
const (
	// PauseMinExtraMs is the least extra wait (over the run's median
	// latency) of a request held by a pause, in ms, and PauseMinFactor
	// the least latency relative to the median: a request counts when
	// both hold.
	PauseMinExtraMs = 10.0
	PauseMinFactor  = 4.0
	// PauseGapS is the largest gap between the completions of the held
	// requests of one pause, seconds: held requests whose completions
	// lie further apart belong to two pauses.
	PauseGapS = 0.01
	// PauseMinRequests is the fewest held requests of a pause.
	PauseMinRequests = 3
	// PeriodicMinPauses is the fewest pauses on a grid that can be
	// called periodic (PausePeriod).
	PeriodicMinPauses = 5
)

// Pause is one pause of a run found by Pauses.
type Pause struct {
	// FromS is the send time of the first request it held, ToS the
	// last completion among them, seconds since the run's start.
	FromS, ToS float64
	// Requests is the number of requests it held.
	Requests int
}

// Pauses finds the short pauses of a run from its requests' send times
// ts (seconds since the run's start) and latencies latMs (ms): the
// requests held (latency at least PauseMinFactor times the median and
// PauseMinExtraMs above it), grouped by completion time (ts + latency;
// a gap of more than PauseGapS starts another group); a group of at
// least PauseMinRequests requests is a pause, from its earliest send to
// its last completion. It returns the pauses in time order, the median
// latency, and the number of requests held by them. Float32 values are
// read as the float64 of the same value (a tally keeps them so).
func Pauses[F float32 | float64](ts, latMs []F) (pauses []Pause, medianMs float64, held int) {
	n := min(len(ts), len(latMs))
	if n == 0 {
		return nil, 0, 0
	}
	medianMs = median(latMs[:n])
	bound := max(PauseMinFactor*medianMs, medianMs+PauseMinExtraMs)
	type req struct{ send, done float64 }
	var slow []req
	for i := range n {
		if t, l := float64(ts[i]), float64(latMs[i]); l >= bound && !math.IsNaN(t) {
			slow = append(slow, req{t, t + l/1000})
		}
	}
	slices.SortFunc(slow, func(a, b req) int {
		switch {
		case a.done < b.done:
			return -1
		case a.done > b.done:
			return 1
		}
		return 0
	})
	flush := func(g []req) {
		if len(g) < PauseMinRequests {
			return
		}
		p := Pause{FromS: g[0].send, ToS: g[len(g)-1].done, Requests: len(g)}
		for _, r := range g {
			p.FromS = min(p.FromS, r.send)
		}
		pauses = append(pauses, p)
		held += len(g)
	}
	start := 0
	for i := 1; i <= len(slow); i++ {
		if i == len(slow) || slow[i].done-slow[i-1].done > PauseGapS {
			flush(slow[start:i])
			start = i
		}
	}
	slices.SortFunc(pauses, func(a, b Pause) int {
		switch {
		case a.FromS < b.FromS:
			return -1
		case a.FromS > b.FromS:
			return 1
		}
		return 0
	})
	return pauses, medianMs, held
}

// PeriodicMinCoverage is the least share of the slots of a grid (from
// its first matched pause to its last) that hold a pause.
const PeriodicMinCoverage = 0.8

// maxPeriodicPauses bounds the pauses PausePeriod searches (the search
// is cubic in their number): the first ones are used.
const maxPeriodicPauses = 300

// Periodic is the regular part of a run's pauses (PausePeriod).
type Periodic struct {
	// PeriodS is the fitted interval (least squares of the matched
	// pauses' starts on their slot numbers), JitterMs the RMS of their
	// residuals; Matched are the indices of the pauses on the grid,
	// Slots the grid's slots from the first to the last.
	PeriodS, JitterMs float64
	Matched           []int
	Slots             int
}

// PausePeriod finds the pauses that recur at a regular interval: the grid
// t0 + k·P (P at least 0.1 s, from the interval between two pauses, or its
// half or third, refined by least squares) that wins by gridCand.beats; it
// is periodic when at least PeriodicMinPauses of its slots are filled and
// the grid is full (gridCand.full). Pauses off the grid (a hiccup of the
// machine, another cause) neither hide the period nor count in it.
func PausePeriod(pauses []Pause) (Periodic, bool) {
	on := make(onsets, 0, len(pauses))
	for i, p := range pauses {
		if i >= maxPeriodicPauses {
			break
		}
		on = append(on, p.FromS)
	}
	var best gridCand
	for i := range on {
		for j := i + 1; j < len(on); j++ {
			for div := 1.0; div <= 3; div++ {
				P := (on[j] - on[i]) / div
				if P < 0.1 {
					continue
				}
				g := on.match(on[i], P)
				if len(g.idx) < 2 {
					continue
				}
				g = on.refine(g, on[i])
				if on.beats(g, best) {
					best = g
				}
			}
		}
	}
	if len(best.idx) < 2 {
		return Periodic{}, false
	}
	// The jitter: residuals of the matched starts from their fitted grid.
	res := Periodic{PeriodS: best.P, Matched: best.idx, Slots: best.slots}
	t0 := on[best.idx[0]]
	if a, P, ok := on.fitGrid(best.idx, t0, best.P); ok {
		var ss float64
		for _, m := range best.idx {
			k := math.Round((on[m] - t0) / best.P)
			r := on[m] - a - P*k
			ss += r * r
		}
		res.PeriodS = P
		res.JitterMs = 1000 * math.Sqrt(ss/float64(len(best.idx)))
	}
	best.P = res.PeriodS
	return res, best.filled >= PeriodicMinPauses && on.full(best)
}

// onsets are the start times of pauses, in time order.
type onsets []float64

// gridCand is a grid of period P: the indices of the onsets on it, its
// slots from the first matched to the last, how many of them hold an
// onset, and their share cov.
type gridCand struct {
	P             float64
	idx           []int
	slots, filled int
	cov           float64
}

// match returns the onsets within max(10 ms, 2 % of P) of the grid
// t0 + k·P: a burst of pauses within one slot's tolerance (a busy host's
// hiccups) fills one slot, not many.
func (on onsets) match(t0, P float64) gridCand {
	g := gridCand{P: P}
	tol := max(0.010, 0.02*P)
	first, last := math.MaxInt, math.MinInt
	prev := math.MinInt
	for i, t := range on {
		k := math.Round((t - t0) / P)
		if math.Abs(t-t0-k*P) > tol {
			continue
		}
		g.idx = append(g.idx, i)
		first, last = min(first, int(k)), max(last, int(k))
		if int(k) != prev { // a slot's onsets are adjacent
			g.filled++
			prev = int(k)
		}
	}
	if len(g.idx) > 0 {
		g.slots = last - first + 1
		g.cov = float64(g.filled) / float64(g.slots)
	}
	return g
}

// refine refits the grid g (through t0) by least squares of its onsets on
// their slots, and keeps the refit when it matches no fewer onsets.
func (on onsets) refine(g gridCand, t0 float64) gridCand {
	t02, P2, ok := on.fitGrid(g.idx, t0, g.P)
	if !ok || !(P2 >= 0.1) {
		return g
	}
	if g2 := on.match(t02, P2); len(g2.idx) >= len(g.idx) {
		return g2
	}
	return g
}

// fitGrid fits the onsets idx as a + P·k by least squares, k their slot
// on the grid t0 + k·p; ok is false when the slots do not vary.
func (on onsets) fitGrid(idx []int, t0, p float64) (a, P float64, ok bool) {
	var sk, st, skk, skt float64
	for _, m := range idx {
		k := math.Round((on[m] - t0) / p)
		sk, st, skk, skt = sk+k, st+on[m], skk+k*k, skt+k*on[m]
	}
	c := float64(len(idx))
	d := c*skk - sk*sk
	if !(d > 0) {
		return 0, 0, false
	}
	P = (c*skt - sk*st) / d
	return (st - P*sk) / c, P, true
}

// full tells whether a grid's slots are filled to PeriodicMinCoverage,
// span at least half the time from the first onset to the last (a few
// pauses that happen to line up among many irregular ones are not a
// rhythm) and hold at least half of the onsets (a coarse grid among dense
// irregular pauses catches a few of them by chance).
func (on onsets) full(g gridCand) bool {
	n := len(on)
	spans := n > 0 && float64(g.slots)*g.P >= 0.5*(on[n-1]-on[0])
	return g.cov >= PeriodicMinCoverage && spans && 2*len(g.idx) >= n
}

// beats tells whether the grid g is better than best: a full grid beats
// one that is not (a short period catches more pauses by chance); then
// the most slots filled, the most onsets, the better filled.
func (on onsets) beats(g, best gridCand) bool {
	if full, bestFull := on.full(g), on.full(best); full != bestFull {
		return full
	}
	if g.filled != best.filled {
		return g.filled > best.filled
	}
	if len(g.idx) != len(best.idx) {
		return len(g.idx) > len(best.idx)
	}
	return g.cov > best.cov
}
