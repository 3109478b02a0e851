package vegeta

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// The HDR histogram plot file of `vegeta report -type=hdrplot`:
//
//	Value(ms)  Percentile  TotalCount  1/(1-Percentile)
//	0.128602   0.000000    0           1.000000
//	0.217469   0.100000    20          1.111111
//	...
//	2.575248   1.000000    200         10000000.000000
//
// Each table is a run that has only a latency distribution: requests is
// the last row's TotalCount, the minimum and maximum the rows at quantiles
// 0 and 1, the 50th, 90th and 99th percentiles the rows at exactly those
// quantiles. Duration, rate and errors are not in the file (0, null).
type HdrplotParser struct{}

// Name returns "vegeta-hdrplot".
func (HdrplotParser) Name() string { return "vegeta-hdrplot" }

// hdrplotIsHeader reports whether fields f are vegeta's hdrplot header.
func hdrplotIsHeader(f [][]byte) bool {
	return len(f) == 4 && string(f[0]) == "Value(ms)" && string(f[1]) == "Percentile" &&
		string(f[2]) == "TotalCount" && string(f[3]) == "1/(1-Percentile)"
}

// hdrplotRow parses a table row; ok is false when f is not one.
func hdrplotRow(f [][]byte) (p core.PctRow, ok bool) {
	if len(f) != 4 {
		return p, false
	}
	ms, ok1 := core.ParseDec(f[0], 0)
	q, ok2 := core.ParseDec(f[1], 0)
	n, ok3 := core.ParseUint(f[2])
	_, ok4 := core.ParseDec(f[3], 0)
	if !ok1 || !ok2 || !ok3 || !ok4 || !core.Finite(ms) || q > 1 {
		return p, false
	}
	return core.PctRow{Q: q, Ms: ms, Count: n, HasCount: true}, true
}

// Detect reports whether head holds the hdrplot header followed by a row.
func (HdrplotParser) Detect(head []byte) bool {
	var buf [6][]byte
	header := false
	for _, line := range core.HeadLines(head) {
		f := core.Fields(core.Normalize(line), buf[:0])
		if header {
			if _, ok := hdrplotRow(f); ok {
				return true
			}
		}
		header = hdrplotIsHeader(f)
	}
	return false
}

// Parse streams the hdrplot tables of r to sink.
func (HdrplotParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	lr := core.NewLineReader(r)
	lab := core.Labeler{Labels: opts.Labels}
	var buf [6][]byte
	var rows []core.PctRow
	inTable, startLine, index := false, 0, 0
	emit := func() error {
		if !inTable {
			return nil
		}
		inTable = false
		if len(rows) == 0 {
			return &core.SyntaxError{File: opts.Source, Line: startLine, Msg: "vegeta hdrplot header without rows"}
		}
		run := hdrplotRun(rows)
		run.SourceLine = int32(min(startLine, math.MaxInt32))
		core.FillCommon(&run, opts, index, &lab)
		index++
		rows = rows[:0]
		return sink.Run(run)
	}
	for {
		if err := core.CheckCtx(ctx, lr.Line); err != nil {
			return err
		}
		b, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return core.ReadError(opts.Source, err)
		}
		f := core.Fields(core.Normalize(b), buf[:0])
		if inTable {
			if p, ok := hdrplotRow(f); ok {
				if len(rows) >= core.MaxPercentiles {
					return &core.SyntaxError{File: opts.Source, Line: lr.Line, Msg: fmt.Sprintf("vegeta hdrplot table longer than %d rows", core.MaxPercentiles)}
				}
				rows = append(rows, p)
				continue
			}
			if err := emit(); err != nil {
				return err
			}
		}
		if hdrplotIsHeader(f) {
			inTable, startLine = true, lr.Line
		}
	}
	if err := emit(); err != nil {
		return err
	}
	if index == 0 {
		return &core.NoOutputError{File: opts.Source, LookedFor: []string{"vegeta-hdrplot"}}
	}
	return nil
}

// hdrplotAt returns the latency of the first row at quantile q, or at
// most tol above it, or nil.
func hdrplotAt(rows []core.PctRow, q, tol float64) *float64 {
	for _, p := range rows {
		if p.Q >= q && p.Q-q <= tol {
			return results.Ptr(p.Ms)
		}
	}
	return nil
}

// hdrplotRun converts the rows of one table.
func hdrplotRun(rows []core.PctRow) results.RunWithPercentiles {
	var out results.RunWithPercentiles
	out.Tool, out.LoadModel = "vegeta", results.LoadOpen
	out.Requests = rows[len(rows)-1].Count
	out.Notes = results.Ptr("hdrplot report: latency distribution only (no duration, rate or errors)")
	out.Percentiles = make([]results.Percentile, 0, len(rows))
	for _, p := range rows {
		out.Percentiles = append(out.Percentiles, results.Percentile{Quantile: p.Q, LatencyMs: p.Ms, TotalCount: results.Ptr(p.Count)})
	}
	out.LatMinMs = hdrplotAt(rows, 0, 0)
	out.LatMaxMs = hdrplotAt(rows, 1, 0)
	out.LatP50Ms = hdrplotAt(rows, 0.5, 0)
	out.LatP90Ms = hdrplotAt(rows, 0.9, 0)
	// vegeta's table has no 0.99 and 0.999 rows but 0.990625 and 0.999023.
	var near []string
	for _, c := range []struct {
		name string
		q    float64
		dst  **float64
	}{{"p99", 0.99, &out.LatP99Ms}, {"p99.9", 0.999, &out.LatP999Ms}} {
		if *c.dst = hdrplotAt(rows, c.q, 0); *c.dst == nil {
			if *c.dst = hdrplotAt(rows, c.q, 0.001); *c.dst != nil {
				near = append(near, c.name)
			}
		}
	}
	if len(near) > 0 {
		*out.Notes += "; " + strings.Join(near, " and ") + " read at the next quantile listed (less than 0.001 above)"
	}
	if out.Requests == 0 {
		// An empty attack prints zeros: no distribution.
		out.Percentiles = []results.Percentile{}
		out.LatMinMs, out.LatP50Ms, out.LatP90Ms, out.LatP99Ms, out.LatP999Ms, out.LatMaxMs = nil, nil, nil, nil, nil, nil
	}
	return out
}
