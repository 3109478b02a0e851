package analyze

import "github.com/loadverdict/loadverdict/results"

// Attempted returns the requests a run attempted: the denominator of its
// error rate. What the runs table's requests column counts depends on the
// tool (docs/SCHEMA.md, next to errors):
//
//   - wrk and wrk2 count responses, non-2xx/3xx and timed-out ones
//     included; a connect, read or write error is an attempt that got no
//     response, so those are added.
//   - ab's "Complete requests" include receive, length and write failures
//     and non-2xx responses, but not failed connections or exceptions, so
//     those are added (exceptions are the errors that are neither connect,
//     read nor non-2xx; without ab's breakdown line nothing is added).
//   - every other tool (hey, vegeta, k6, JMeter, Locust, per-request logs)
//     counts every attempt, failed ones included.
//
// The result is never below the run's errors, so the rate is at most 1.
func Attempted(r results.Run) int64 {
	n := r.Requests
	val := func(p *int64) int64 {
		if p == nil || *p < 0 {
			return 0
		}
		return *p
	}
	switch r.Tool {
	case "wrk", "wrk2":
		n += val(r.ConnectErrors) + val(r.ReadErrors) + val(r.WriteErrors)
	case "ab":
		if r.ConnectErrors != nil && r.ReadErrors != nil {
			except := r.Errors - val(r.ConnectErrors) - val(r.ReadErrors) - val(r.Non2xx)
			n += val(r.ConnectErrors) + max(except, 0)
		}
	}
	return max(n, r.Errors)
}

// ErrorRate returns a run's errors over the requests it attempted
// (Attempted), a fraction in [0, 1]; ok is false when it attempted none.
func ErrorRate(r results.Run) (rate float64, ok bool) {
	n := Attempted(r)
	if n <= 0 {
		return 0, false
	}
	return float64(max(r.Errors, 0)) / float64(n), true
}
