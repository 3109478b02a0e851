package main

import (
	"crypto/sha256"
	"math"
	"math/rand/v2"
	"time"
)

// behaviour holds the settings that decide how a request is answered.
type behaviour struct {
	work         int           // SHA-256 iterations per request
	delay        time.Duration // wait per request after the work
	warmup       time.Duration // length of the warm-up phase
	warmupFactor float64       // cost multiplier at the start of a warm-up
	warmupSteps  int           // 0: linear fall; N: N equal steps
	warmupEvery  time.Duration // warm-up repeats with this period; 0: once
	ramp         time.Duration // extra wait per second of elapsed time
	grow         float64       // relative growth of work and delay per second of elapsed time (a leak)
	stallEvery   time.Duration // period of the stalls; 0: none
	stallFor     time.Duration // length of one stall
	stallAt      time.Duration // start of the first stall
	stallJitter  time.Duration // each stall moved by a uniform draw in [-stallJitter, stallJitter)
	workers      int           // worker pool size; 0: unlimited
	failEvery    int64         // every N-th request answers 500
	succeedEvery int64         // only every N-th request answers 200
	failShare    float64       // a deterministic share of the requests answers 500: the n-th when floor(n·share) steps
	failFrom     time.Duration // start of the error window (with failFor)
	failFor      time.Duration // length of the error window; 0: none
	failStatus   int           // status of a failed request (0: 500)
	slowdownAt   time.Duration // start of the slowdown
	slowdownFor  time.Duration // length of its rise; 0: abrupt
	slowdownK    float64       // cost multiplier from the end of the rise on; 0 or 1: none
	slowEvery    int64         // every N-th request waits slowDelay more
	slowDelay    time.Duration // the extra wait of every slowEvery-th request
	tailScale    time.Duration // scale of the heavy-tailed extra wait; 0: none
	tailAlpha    float64       // its Pareto (Lomax) shape
	burstAt      time.Duration // start of the error burst
	burstFor     time.Duration // its length; 0: none
	burstEvery   int64         // in the burst every N-th request answers 500 (0 or 1: all)
	burstStatus  int           // status of the burst's failures (0: failStatus)
	resetFrom    time.Duration // start of the reset window (with resetFor)
	resetFor     time.Duration // its length; 0: none
}

// factor is the cost multiplier at elapsed time t: warmupFactor at the
// start of a warm-up phase, falling linearly or stepwise to 1 at its end,
// times the leak's growth 1 + grow·t (t in seconds).
func (b behaviour) factor(t time.Duration) float64 {
	g := 1.0
	if b.grow > 0 && t > 0 {
		g = 1 + b.grow*t.Seconds()
	}
	return g * b.warmupFactor1(t)
}

// warmupFactor1 is the warm-up's part of factor.
func (b behaviour) warmupFactor1(t time.Duration) float64 {
	if b.warmup <= 0 || b.warmupFactor <= 1 || t < 0 {
		return 1
	}
	phase := t
	if b.warmupEvery > 0 {
		phase = t % b.warmupEvery
	}
	if phase >= b.warmup {
		return 1
	}
	frac := float64(phase) / float64(b.warmup)
	if b.warmupSteps > 0 {
		frac = math.Floor(frac*float64(b.warmupSteps)) / float64(b.warmupSteps)
	}
	return b.warmupFactor - (b.warmupFactor-1)*frac
}

// slowdown is the cost multiplier of the slowdown at elapsed time t: 1
// before slowdownAt, rising linearly to slowdownK over slowdownFor (at
// once when 0), then slowdownK to the end.
func (b behaviour) slowdown(t time.Duration) float64 {
	if b.slowdownK <= 0 || b.slowdownK == 1 || t < b.slowdownAt {
		return 1
	}
	if b.slowdownFor <= 0 || t >= b.slowdownAt+b.slowdownFor {
		return b.slowdownK
	}
	frac := float64(t-b.slowdownAt) / float64(b.slowdownFor)
	return 1 + (b.slowdownK-1)*frac
}

// cost is the multiplier of the work and the delay at elapsed time t: the
// warm-up's times the slowdown's.
func (b behaviour) cost(t time.Duration) float64 { return b.factor(t) * b.slowdown(t) }

// iterations is the number of hash iterations a request does at elapsed time t.
func (b behaviour) iterations(t time.Duration) int {
	return int(math.Round(float64(b.work) * b.cost(t)))
}

// extra is the extra wait of the n-th counted request (n from 1): the
// slow requests' delay, and a heavy-tailed wait drawn with u, a uniform
// number in [0, 1): Lomax (Pareto II) with shape tailAlpha and scale
// tailScale, tailScale*((1-u)^(-1/alpha) - 1), capped at 100*tailScale.
func (b behaviour) extra(n int64, u float64) time.Duration {
	var d time.Duration
	if b.slowEvery > 0 && n%b.slowEvery == 0 {
		d += b.slowDelay
	}
	if b.tailScale > 0 && b.tailAlpha > 0 {
		x := math.Min(math.Pow(1-u, -1/b.tailAlpha)-1, 100)
		d += time.Duration(float64(b.tailScale) * x)
	}
	return d
}

// uniform is the source of extra's draws.
var uniform = rand.Float64

// wait is how long a request sleeps at elapsed time t: the delay scaled by
// the warm-up and slowdown factors plus the ramp.
func (b behaviour) wait(t time.Duration) time.Duration {
	d := time.Duration(float64(b.delay) * b.cost(t))
	if b.ramp > 0 && t > 0 {
		d += time.Duration(float64(b.ramp) * t.Seconds())
	}
	return d
}

// stall returns the elapsed start of stall k (k = 0, 1, ...).
func (b behaviour) stall(k int) time.Duration {
	at := b.stallAt
	if at <= 0 {
		at = b.stallEvery
	}
	return at + time.Duration(k)*b.stallEvery
}

// fails reports whether the n-th counted request (n from 1), arriving at
// elapsed time t, fails: every one inside the error window [failFrom,
// failFrom+failFor), and those that -fail-every, -fail-share or
// -succeed-every pick.
func (b behaviour) fails(n int64, t time.Duration) bool {
	if b.failFor > 0 && t >= b.failFrom && t < b.failFrom+b.failFor {
		return true
	}
	if b.failEvery > 0 && n%b.failEvery == 0 {
		return true
	}
	if b.failShare > 0 && math.Floor(float64(n)*b.failShare) > math.Floor(float64(n-1)*b.failShare) {
		return true
	}
	if b.burstFor > 0 && t >= b.burstAt && t < b.burstAt+b.burstFor && (b.burstEvery <= 1 || n%b.burstEvery == 0) {
		return true
	}
	return b.succeedEvery > 0 && n%b.succeedEvery != 0
}

// resets reports whether a request arriving at elapsed time t gets no
// answer: its connection is reset (inside the reset window [resetFrom,
// resetFrom+resetFor)). A reset takes precedence over every error window.
func (b behaviour) resets(t time.Duration) bool {
	return b.resetFor > 0 && t >= b.resetFrom && t < b.resetFrom+b.resetFor
}

// failStatusOf is the status code of the n-th counted request, arriving at
// elapsed time t, when it fails: burstStatus for a request that only the
// error burst makes fail (when set), otherwise status().
func (b behaviour) failStatusOf(n int64, t time.Duration) int {
	inWindow := b.failFor > 0 && t >= b.failFrom && t < b.failFrom+b.failFor
	inBurst := b.burstFor > 0 && t >= b.burstAt && t < b.burstAt+b.burstFor && (b.burstEvery <= 1 || n%b.burstEvery == 0)
	if b.burstStatus > 0 && inBurst && !inWindow {
		return b.burstStatus
	}
	return b.status()
}

// status is the status code of a failed request: failStatus, or 500.
func (b behaviour) status() int {
	if b.failStatus > 0 {
		return b.failStatus
	}
	return 500
}

// hashWork runs n iterations of SHA-256 over a 32-byte state, starting from
// the zero state, and returns the final state.
func hashWork(n int) [sha256.Size]byte {
	var s [sha256.Size]byte
	for range n {
		s = sha256.Sum256(s[:])
	}
	return s
}
