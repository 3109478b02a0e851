package wrk

import (
	"bytes"
	"context"
	"io"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// wrkBatchBytes is the size from which a batch of wrk lines ends at the
// next end of a run (a "Transfer/sec:" line); a batch ends anyway at four
// times it, or at wrkBatchLines lines: empty lines add no bytes but each
// costs a batchLine (5 MB of newlines took 540 MB in one batch).
var wrkBatchBytes = 256 << 10

// wrkBatchLines bounds the lines of a batch (and so its wrkLines).
const wrkBatchLines = 16 << 10

// batch is a batch of input lines, copied into raw, and what a worker
// made of them from the state of the start of an input.
type batch struct {
	raw   []byte
	lines []batchLine
	err   error // the error that ended the input after these lines (read, context)

	st   *state // the state after the lines
	runs []results.RunWithPercentiles
	perr error // the parse error that stopped the worker, after runs
}

// batchLine is one line of a batch: its place in raw and its number.
type batchLine struct {
	start, end, n int
}

// parseWrkBatches parses r as the wrk parser does line by line, in
// parallel: a reader goroutine cuts the lines into batches (ending after a
// run's last line when it can), workers parse each batch from the state
// of the start of an input, and the calling goroutine takes the batches in
// input order. A batch's work stands when the state before it, the one
// the sequential parse reaches, is that of a start (fresh: no run open, no
// command waiting), as it is after a run's last line; otherwise the batch
// is parsed again from that state. So the runs, their order and the first
// error are those of one sequential pass, whatever the cuts (the tests cut
// every few bytes). Runs get their index, run_id and label (fillCommon)
// here, in order, and go to sink from this goroutine only.
func parseWrkBatches(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink, batchBytes int) error {
	lab := core.Labeler{Labels: opts.Labels}
	index := 0
	emit := func(run results.RunWithPercentiles) error {
		core.FillCommon(&run, opts, index, &lab)
		index++
		return sink.Run(run)
	}
	var cur *state // the state the sequential parse has reached
	err := core.InOrder(core.BatchWorkers(), func() *batch { return &batch{} },
		func(get func() (*batch, bool), put func() bool) {
			readWrkLines(ctx, r, opts.Source, batchBytes, get, put)
		},
		func(b *batch) { b.parse(opts) },
		func(b *batch) error {
			if cur == nil || cur.fresh() {
				for _, run := range b.runs {
					if err := emit(run); err != nil {
						return err
					}
				}
				if b.perr != nil {
					return b.perr
				}
				cur, b.st = b.st, nil
				cur.emit = emit
			} else {
				for _, l := range b.lines {
					if err := cur.line(b.raw[l.start:l.end], l.n); err != nil {
						return err
					}
				}
			}
			return b.err
		})
	if err != nil {
		return err
	}
	if cur != nil {
		if err := cur.close(); err != nil {
			return err
		}
	}
	if index == 0 {
		return &core.NoOutputError{File: opts.Source, LookedFor: Parser{}.Formats()}
	}
	return nil
}

// parse parses the batch's lines from the state of a start.
func (b *batch) parse(opts core.Options) {
	st := &state{opts: opts, lab: core.Labeler{Labels: opts.Labels}}
	st.emit = func(run results.RunWithPercentiles) error {
		b.runs = append(b.runs, run)
		return nil
	}
	for _, l := range b.lines {
		if err := st.line(b.raw[l.start:l.end], l.n); err != nil {
			b.perr = err
			break
		}
	}
	b.st = st
}

// readWrkLines cuts the lines of r into batches (see inOrder's get and
// put) until the input ends or an error. Lines are read as eachLine reads
// them (numbered, a line longer than maxLine as an empty one).
func readWrkLines(ctx context.Context, r io.Reader, source string, batchBytes int, get func() (*batch, bool), put func() bool) {
	lr := core.NewLineReader(r)
	var b *batch
	send := func() bool {
		b = nil
		return put()
	}
	for {
		if b == nil {
			var ok bool
			if b, ok = get(); !ok {
				return
			}
			b.raw, b.lines, b.err, b.st, b.runs, b.perr = b.raw[:0], b.lines[:0], nil, nil, b.runs[:0], nil
		}
		if lr.Line%core.CtxEvery == 0 {
			if err := ctx.Err(); err != nil {
				b.err = err
				send()
				return
			}
		}
		line, err := lr.Next()
		if err == io.EOF {
			send()
			return
		}
		if err != nil {
			b.err = core.ReadError(source, err)
			send()
			return
		}
		start := len(b.raw)
		b.raw = append(b.raw, line...)
		b.lines = append(b.lines, batchLine{start: start, end: len(b.raw), n: lr.Line})
		if n := len(b.raw); n >= batchBytes && bytes.Contains(line, []byte("Transfer/sec:")) || n >= 4*batchBytes || len(b.lines) >= wrkBatchLines {
			if !send() {
				return
			}
		}
	}
}
