package stats

import (
	"math"
	"slices"
)

// Short pauses seen in the requests themselves (issue 31): a run whose
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
// latency, and the number of requests held by them.
func Pauses(ts, latMs []float64) (pauses []Pause, medianMs float64, held int) {
	n := min(len(ts), len(latMs))
	if n == 0 {
		return nil, 0, 0
	}
	medianMs = Median(latMs[:n])
	bound := max(PauseMinFactor*medianMs, medianMs+PauseMinExtraMs)
	type req struct{ send, done float64 }
	var slow []req
	for i := range n {
		if latMs[i] >= bound && !math.IsNaN(ts[i]) {
			slow = append(slow, req{ts[i], ts[i] + latMs[i]/1000})
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

// PausePeriod finds the pauses that recur at a regular interval: the
// grid t0 + k·P (P at least 0.1 s, from the interval between two pauses,
// or its half or third) that fills the most slots (a slot is filled by
// pause starts within max(10 ms, 2 % of P) of it; several pauses in one
// slot fill it once) among those whose slots are filled to at least
// PeriodicMinCoverage and that span at least half the time from the first
// pause to the last (else among all), a tie going to the grid holding
// the most pauses, then to the grid filled best, refined by least
// squares; it is periodic when at least PeriodicMinPauses of its slots
// are filled, they are at least PeriodicMinCoverage of its slots, its
// slots span at least half the time from the first pause to the last,
// and it holds at least half of the pauses. Pauses off the grid (a hiccup of the
// machine, another cause) neither hide the period nor count in it.
func PausePeriod(pauses []Pause) (Periodic, bool) {
	on := make([]float64, 0, len(pauses))
	for i, p := range pauses {
		if i >= maxPeriodicPauses {
			break
		}
		on = append(on, p.FromS)
	}
	n := len(on)
	tolOf := func(P float64) float64 { return max(0.010, 0.02*P) }
	// match returns the pauses within the tolerance of the grid t0 + k·P,
	// the grid's slots from the first matched to the last, and how many
	// of them hold a pause: a burst of pauses within one slot's tolerance
	// (a busy host's hiccups) fills one slot, not many.
	match := func(t0, P float64) (idx []int, slots, filled int) {
		tol := tolOf(P)
		first, last := math.MaxInt, math.MinInt
		prev := math.MinInt
		for i, t := range on {
			k := math.Round((t - t0) / P)
			if math.Abs(t-t0-k*P) <= tol {
				idx = append(idx, i)
				first, last = min(first, int(k)), max(last, int(k))
				if int(k) != prev { // on is in time order: a slot's pauses are adjacent
					filled++
					prev = int(k)
				}
			}
		}
		if len(idx) > 0 {
			slots = last - first + 1
		}
		return idx, slots, filled
	}
	// spans tells whether a grid of slots at P covers at least half the
	// time from the first pause to the last: a few pauses that happen to
	// line up among many irregular ones are not a rhythm.
	spans := func(slots int, P float64) bool {
		return n > 0 && float64(slots)*P >= 0.5*(on[n-1]-on[0])
	}
	// most: the grid holds at least half of the pauses (a coarse grid
	// among dense irregular pauses catches a few of them by chance).
	most := func(matched int) bool { return 2*matched >= n }
	var best Periodic
	bestCov, bestFilled := 0.0, 0
	for i := range n {
		for j := i + 1; j < n; j++ {
			for div := 1.0; div <= 3; div++ {
				P := (on[j] - on[i]) / div
				if P < 0.1 {
					continue
				}
				idx, slots, filled := match(on[i], P)
				if len(idx) < 2 {
					continue
				}
				// Refine: least squares of the starts on their slots.
				var sk, st, skk, skt float64
				for _, m := range idx {
					k := math.Round((on[m] - on[i]) / P)
					sk, st, skk, skt = sk+k, st+on[m], skk+k*k, skt+k*on[m]
				}
				c := float64(len(idx))
				if d := c*skk - sk*sk; d > 0 {
					P2 := (c*skt - sk*st) / d
					t02 := (st - P2*sk) / c
					if P2 >= 0.1 {
						if idx2, slots2, filled2 := match(t02, P2); len(idx2) >= len(idx) {
							idx, slots, filled, P = idx2, slots2, filled2, P2
						}
					}
				}
				cov := float64(filled) / float64(slots)
				// A grid that fills its slots beats one that does not
				// (a short period catches more pauses by chance); then
				// the most slots filled, the most pauses; then the
				// better filled.
				full := cov >= PeriodicMinCoverage && spans(slots, P) && most(len(idx))
				bestFull := bestCov >= PeriodicMinCoverage && spans(best.Slots, best.PeriodS) && most(len(best.Matched))
				if full && !bestFull || full == bestFull && (filled > bestFilled || filled == bestFilled && (len(idx) > len(best.Matched) || len(idx) == len(best.Matched) && cov > bestCov)) {
					best, bestCov, bestFilled = Periodic{PeriodS: P, Matched: idx, Slots: slots}, cov, filled
				}
			}
		}
	}
	if len(best.Matched) < 2 {
		return Periodic{}, false
	}
	// The jitter: residuals of the matched starts from their fitted grid.
	var sk, st, skk, skt float64
	ks := make([]float64, len(best.Matched))
	t0 := on[best.Matched[0]]
	for x, m := range best.Matched {
		k := math.Round((on[m] - t0) / best.PeriodS)
		ks[x] = k
		sk, st, skk, skt = sk+k, st+on[m], skk+k*k, skt+k*on[m]
	}
	c := float64(len(best.Matched))
	if d := c*skk - sk*sk; d > 0 {
		best.PeriodS = (c*skt - sk*st) / d
		a := (st - best.PeriodS*sk) / c
		var ss float64
		for x, m := range best.Matched {
			r := on[m] - a - best.PeriodS*ks[x]
			ss += r * r
		}
		best.JitterMs = 1000 * math.Sqrt(ss/c)
	}
	return best, bestFilled >= PeriodicMinPauses && bestCov >= PeriodicMinCoverage && spans(best.Slots, best.PeriodS) && most(len(best.Matched))
}
