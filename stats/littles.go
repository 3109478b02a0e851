package stats

import (
	"fmt"
	"math"
)

// Little's law consistency bounds of the ratio rps·latency/connections.
const (
	LittleLow  = 0.9
	LittleHigh = 1.1
)

// The statuses of LittlesLaw.
const (
	LittleConsistent     = "consistent"
	LittleIdle           = "idle-connections" // ratio < LittleLow
	LittleHiddenQueueing = "hidden-queueing"  // ratio > LittleHigh
)

// LittlesLawCheck is the result of LittlesLaw.
type LittlesLawCheck struct {
	Ratio  float64 // rps·latency/connections; 1 when the law holds exactly
	Status string  // LittleConsistent, LittleIdle or LittleHiddenQueueing
}

// LittlesLaw checks a closed-model load test against Little's law (Little,
// "A proof for the queuing formula L = λW", Operations Research 9(3),
// 1961): the mean number of requests in flight, throughput (requests per
// second) times mean latency (seconds), should equal the number of
// connections kept busy. A ratio below LittleLow means connections sat idle
// (generator-bound or think time); above LittleHigh, the latency figure
// hides queueing (e.g. time spent connecting). The bounds are inclusive.
//
// rps and latencySeconds must be finite and >= 0 and connections finite
// and > 0 (else ErrParameter).
func LittlesLaw(rps, latencySeconds, connections float64) (LittlesLawCheck, error) {
	for _, v := range []float64{rps, latencySeconds, connections} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return LittlesLawCheck{}, fmt.Errorf("%w: Little's law needs finite, non-negative inputs", ErrParameter)
		}
	}
	if connections == 0 {
		return LittlesLawCheck{}, fmt.Errorf("%w: Little's law needs connections > 0", ErrParameter)
	}
	r := rps * latencySeconds / connections
	c := LittlesLawCheck{Ratio: r, Status: LittleConsistent}
	switch {
	case r < LittleLow:
		c.Status = LittleIdle
	case r > LittleHigh:
		c.Status = LittleHiddenQueueing
	}
	return c, nil
}
