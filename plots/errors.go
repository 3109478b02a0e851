package plots

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/loadverdict/loadverdict/analyze"
)

// maxErrorLines is the most causes the errors-over-time figure draws
// apart; the failed requests of the others are one line.
const maxErrorLines = 5

// ErrorsFigureName is the name (without extension) of the errors-over-time
// figure of the i-th breakdown of Verdict.Errors ("errors-1", ...).
func ErrorsFigureName(i int) string { return "errors-" + strconv.Itoa(i+1) }

// errorsFigures are the indices of the breakdowns with failed requests
// over time (per-request data).
func errorsFigures(v *analyze.Verdict) []int {
	out, _ := DrawnErrorsFigures(v)
	return out
}

// MaxErrorsFigures is the most errors-over-time figures a report draws.
const MaxErrorsFigures = 8

// DrawnErrorsFigures returns the indices of the breakdowns (of
// Verdict.Errors) with per-request errors that get a figure, at most
// MaxErrorsFigures, those with the most failed requests (in the
// breakdowns' order), and total, how many have per-request errors.
func DrawnErrorsFigures(v *analyze.Verdict) (drawn []int, total int) {
	for i, e := range v.Errors {
		if e.PerRequestRuns > 0 && e.BucketS > 0 {
			drawn = append(drawn, i)
		}
	}
	total = len(drawn)
	if total <= MaxErrorsFigures {
		return drawn, total
	}
	slices.SortStableFunc(drawn, func(a, b int) int { return cmp.Compare(v.Errors[b].PerRequestError, v.Errors[a].PerRequestError) })
	drawn = drawn[:MaxErrorsFigures]
	slices.Sort(drawn)
	return drawn, total
}

func errorsTitle(e analyze.ErrorBreakdown) string {
	s := "Errors over time: " + short(e.System)
	if e.Endpoint != nil {
		s += " " + short(*e.Endpoint)
	}
	return s
}

// errorsCauseName is the legend entry of a cause: its status and message.
func errorsCauseName(r analyze.ErrorRow) string {
	s := "status " + strconv.Itoa(int(r.Status))
	switch {
	case r.Status == 0:
		s = "no response"
	case r.Status < 0:
		s = "status not told"
	}
	m := r.Message
	if m == "" {
		return s
	}
	if strings.HasPrefix(m, strconv.Itoa(int(r.Status))+" ") {
		return m // "503 Service Unavailable"
	}
	if len(m) > 32 {
		// The last clause of a message tells the cause: "Get ...: read
		// tcp ...: read: connection reset by peer".
		if k := strings.LastIndex(m, ": "); k >= 0 && k+2 < len(m) {
			m = "…" + m[k+2:]
		}
	}
	return s + ": " + short(m)
}

// ErrorsOverTime returns the errors-over-time figure of the i-th breakdown
// of Verdict.Errors: its failed requests per second over time since the
// start of the runs, one step line per cause (the maxErrorLines largest;
// the others as one), in buckets of the breakdown's BucketS. The runs of a
// breakdown are aligned from their start and added.
func ErrorsOverTime(in Input, i int) (*plot.Plot, error) {
	v := in.Verdict
	if v == nil || i < 0 || i >= len(v.Errors) {
		return nil, fmt.Errorf("errors: %w", ErrNoData)
	}
	e := v.Errors[i]
	rows := errorsLines(e)
	if len(rows) == 0 || !(e.BucketS > 0) {
		return nil, fmt.Errorf("errors: %w", ErrNoData)
	}
	n := 0
	for _, r := range rows {
		n = max(n, len(r.Counts))
	}
	ylabel := "failed requests/s"
	if e.PerRequestRuns > 1 {
		ylabel = fmt.Sprintf("failed requests/s (%d runs added)", e.PerRequestRuns)
	}
	p := newPlot(titled(v, errorsTitle(e)), fmt.Sprintf("time since the run's start (s), per %s s", fmtNum(e.BucketS)), ylabel)
	end := float64(n) * e.BucketS
	for _, r := range v.Runs {
		if slices.Contains(e.RunIDs, r.RunID) && finite(r.DurationS) {
			end = max(end, r.DurationS)
		}
	}
	p.X.Min, p.X.Max = 0, end
	n = max(n, int(math.Ceil(end/e.BucketS))) // no error to the end: a line at 0
	p.Y.Min = 0
	top := 0.0
	for k, r := range rows {
		// A step line: each bucket is a flat segment over its width.
		xy := make(plotter.XYs, 0, 2*n)
		for j := range n {
			y := 0.0
			if j < len(r.Counts) {
				y = float64(r.Counts[j]) / e.BucketS
			}
			top = max(top, y)
			xy = append(xy, plotter.XY{X: float64(j) * e.BucketS, Y: y}, plotter.XY{X: float64(j+1) * e.BucketS, Y: y})
		}
		l, err := newLine(xy)
		if err != nil {
			return nil, err
		}
		l.LineStyle = styleOf(k).line(lineWidth)
		p.Add(l)
		p.Legend.Add(errorsCauseName(r), lineThumb{Line: l.LineStyle})
	}
	p.Y.Max = top * 1.08 // the tops of the steps clear of the frame
	return p, nil
}

// errorsLines are the lines of a breakdown's errors-over-time figure: its
// causes with counts over time, the maxErrorLines-1 largest apart and the
// others added into one.
func errorsLines(e analyze.ErrorBreakdown) []analyze.ErrorRow {
	var rows []analyze.ErrorRow
	for _, r := range e.Causes {
		if len(r.Counts) > 0 {
			rows = append(rows, r)
		}
	}
	if len(rows) > maxErrorLines {
		other := analyze.ErrorRow{Status: -1, Message: fmt.Sprintf("%d other causes", len(rows)-maxErrorLines+1)}
		for _, r := range rows[maxErrorLines-1:] {
			for j, c := range r.Counts {
				if j >= len(other.Counts) {
					other.Counts = append(other.Counts, make([]int64, j+1-len(other.Counts))...)
				}
				other.Counts[j] += c
			}
		}
		rows = append(rows[:maxErrorLines-1:maxErrorLines-1], other)
	}
	return rows
}

func errorsAlt(in Input, i int) string {
	e := in.Verdict.Errors[i]
	who := e.System
	if e.Endpoint != nil {
		who += " " + *e.Endpoint
	}
	s := fmt.Sprintf("Failed requests per second of %s over time, per %s s, by cause (%d causes)", who, fmtNum(e.BucketS), len(e.Causes))
	if e.PerRequestRuns > 1 {
		s += fmt.Sprintf(", %d runs aligned from their start and added", e.PerRequestRuns)
	}
	return s + "."
}
