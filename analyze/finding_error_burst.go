package analyze

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/loadverdict/loadverdict/results"
)

// BurstShare is the share of a run's errors its burst windows must hold,
// in at most BurstTimeShare of its windows, for the errors to count as
// concentrated in time (an error-burst finding).
const (
	BurstShare     = 0.5
	BurstTimeShare = 0.5
)

// ErrorBurstFacts are the figures of an error-burst finding: a run whose
// failed requests concentrate in time.
//
// The rule: each window of the run (its series) is tested against the
// run's error rate p = Errors/Requests by a one-sided exact binomial
// test, P(X >= errors in the window) for X ~ Binomial(requests in the
// window, p) (e.g. Conover, "Practical Nonparametric Statistics", 3rd
// ed., 1999, §3.1), at Alpha divided by the number of windows
// (Bonferroni): a window significantly worse is a burst window, and
// adjacent ones form a Span. The rate is then re-estimated without the
// burst windows and the others tested again, until no window is added
// (hotWindows): a burst does not raise the bar for another. The errors are
// concentrated when the burst windows hold at least BurstShare of them in
// at most BurstTimeShare of the run's windows; errors spread evenly (every
// n-th request) never pass the test.
type ErrorBurstFacts struct {
	// Errors and Requests are the run's, over its windows; DurationS the
	// time its windows cover.
	Errors, Requests int64
	DurationS        float64
	// Bursts are the spans of burst windows, in time order.
	Bursts []ErrorBurst
	// Share is the share of the run's errors inside Bursts, TimeShare
	// the share of its time they cover.
	Share, TimeShare float64
	// BaseRate is the error rate of the run's windows outside its bursts,
	// which the windows were last tested against (hotWindows).
	BaseRate float64
	// Alpha is the level of the binomial test (before its division by
	// Windows, the run's windows with requests).
	Alpha   float64
	Windows int
}

// ErrorBurst is one span of a run's burst windows.
type ErrorBurst struct {
	// FromS and ToS bound the span, seconds since the run's start.
	FromS, ToS float64
	// Errors of Requests in the span failed.
	Errors, Requests int64
	// Statuses are the statuses of its failed requests, most frequent
	// first (0: no response), when the source tells.
	Statuses []StatusCount
}

// StatusCount is how many failed requests had one status.
type StatusCount struct {
	Status int32
	N      int64
}

func (ErrorBurstFacts) facts() {}

// errorBurst looks for a burst of errors in a run's windows (the rule of
// ErrorBurstFacts); ok is false when there is none.
func errorBurst(ws []results.Series, alpha float64) (ErrorBurstFacts, bool) {
	var f ErrorBurstFacts
	for _, w := range ws {
		f.Errors += w.Errors
		f.Requests += w.Requests
		f.DurationS += w.WindowS
		if w.Requests > 0 {
			f.Windows++
		}
	}
	if f.Errors < 2 || f.Errors >= f.Requests || f.Windows < 2 {
		return f, false
	}
	f.Alpha = alpha
	hot, base := hotWindows(ws, alpha/float64(f.Windows))
	f.BaseRate = base
	var in float64 // time in bursts
	var cur *ErrorBurst
	var burstWins int
	for i, w := range ws {
		if !hot[i] {
			cur = nil
			continue
		}
		burstWins++
		in += w.WindowS
		if cur == nil {
			f.Bursts = append(f.Bursts, ErrorBurst{FromS: w.TS})
			cur = &f.Bursts[len(f.Bursts)-1]
		}
		cur.ToS = w.TS + w.WindowS
		cur.Errors += w.Errors
		cur.Requests += w.Requests
		cur.Statuses = addStatuses(cur.Statuses, w.ErrorStatuses)
	}
	var inErr int64
	for i := range f.Bursts {
		inErr += f.Bursts[i].Errors
		slices.SortFunc(f.Bursts[i].Statuses, func(a, b StatusCount) int { return cmp.Or(cmp.Compare(b.N, a.N), cmp.Compare(a.Status, b.Status)) })
	}
	f.Share = float64(inErr) / float64(f.Errors)
	if f.DurationS > 0 {
		f.TimeShare = in / f.DurationS
	}
	ok := len(f.Bursts) > 0 && f.Share >= BurstShare && float64(burstWins) <= BurstTimeShare*float64(f.Windows)
	return f, ok
}

// maxBaselineRounds bounds how many times hotWindows re-estimates the
// rate outside the hot windows (each round is one binomial test a
// window).
const maxBaselineRounds = 8

// hotWindows marks the windows whose errors are significantly more than
// the run's rate outside the hot windows gives (the one-sided exact
// binomial test at level). The rate is the run's overall one at first,
// then the rate of the windows not yet marked, until a round marks no
// more (at most maxBaselineRounds rounds): a burst raises the overall
// rate, so that one burst can hide another (a JMeter run with 503 and 500
// over a whole window each hid resets over two half windows). base is
// the rate of the windows left unmarked, the last one tested against.
// Each round only lowers the rate (the windows it marks fail more often
// than it), so every window marked is also significant against base.
func hotWindows(ws []results.Series, level float64) (hot []bool, base float64) {
	hot = make([]bool, len(ws))
	for range maxBaselineRounds {
		var e, n int64
		for i, w := range ws {
			if !hot[i] {
				e, n = e+w.Errors, n+w.Requests
			}
		}
		if n > 0 {
			base = float64(e) / float64(n)
		}
		if e == 0 || e >= n {
			break // nothing left to test against
		}
		p, added := base, false
		for i, w := range ws {
			if hot[i] || w.Requests == 0 || w.Errors == 0 {
				continue
			}
			b := distuv.Binomial{N: float64(w.Requests), P: p}
			// P(X >= e) = 1 - P(X <= e-1)
			if 1-b.CDF(float64(w.Errors-1)) < level {
				hot[i], added = true, true
			}
		}
		if !added {
			break
		}
	}
	return hot, base
}

// addStatuses adds a series row's error_statuses ("503:200,0:3") to c;
// malformed parts are skipped.
func addStatuses(c []StatusCount, s *string) []StatusCount {
	if s == nil {
		return c
	}
	for part := range strings.SplitSeq(*s, ",") {
		code, n, ok := strings.Cut(part, ":")
		st, err1 := strconv.ParseInt(code, 10, 32)
		cnt, err2 := strconv.ParseInt(n, 10, 64)
		if !ok || err1 != nil || err2 != nil {
			continue
		}
		i := slices.IndexFunc(c, func(x StatusCount) bool { return x.Status == int32(st) })
		if i < 0 {
			c = append(c, StatusCount{Status: int32(st)})
			i = len(c) - 1
		}
		c[i].N += cnt
	}
	return c
}

// checkErrorBurst adds an error-burst finding for every run whose errors
// concentrate in time (ErrorBurstFacts), from the runs' series.
func checkErrorBurst(v *Verdict, fc *findingContext) {
	for _, r := range v.Runs {
		ws := fc.series[r.RunID]
		if r.Errors <= 0 || len(ws) == 0 {
			continue
		}
		if f, ok := errorBurst(ws, v.Options.Alpha); ok {
			v.add(SeverityWarning, CodeErrorBurst, Subject{Systems: []string{r.Label}, Runs: []RunRef{runRef(r)}}, f)
		}
	}
}
