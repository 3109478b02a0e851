// Package watch follows a per-request log as a load generator writes it
// (loadverdict watch): it decodes each line with the format's own line
// decoder (ingest.LineDecoder), keeps the run's windows, and at every look
// (once a window is complete) states the last window's numbers, the
// warm-up as analyze finds it (analyze.RunWarmupOf), and whether the
// steady windows pin the chosen latency quantiles to the precision asked,
// with a confidence sequence valid however often it is looked at (cs.go).
// Memory is bounded: the windows hold sparse histograms of 0.2 % buckets
// and the lines read go to a spool file (docs/STATISTICS.md, "Watching a
// running test").
package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/stats"
)

// Metric is a latency quantile to pin and the precision wanted: the
// half-width of its confidence sequence relative to its estimate.
type Metric struct {
	Name     string  // p50, p99, p99.9
	Quantile float64 // 0.5
	Want     float64 // 0.01 for 1 %
}

// ParsePrecision reads --precision: "p50=1%,p99=5%" (the % may be left
// out; quantiles p0.1 to p99.99).
func ParsePrecision(s string) ([]Metric, error) {
	var out []Metric
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || !strings.HasPrefix(name, "p") {
			return nil, fmt.Errorf("--precision: %q is not pNN=PCT (e.g. p99=5%%)", part)
		}
		q, err := strconv.ParseFloat(name[1:], 64)
		if err != nil || !(q >= 0.1 && q <= 99.99) {
			return nil, fmt.Errorf("--precision: %q is not a quantile from p0.1 to p99.99", name)
		}
		w, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(val), "%"), 64)
		if err != nil || !(w > 0 && w <= 100) {
			return nil, fmt.Errorf("--precision: %s=%s: the precision is a percentage above 0 and at most 100", name, val)
		}
		if seen[name] {
			return nil, fmt.Errorf("--precision: %s given twice", name)
		}
		seen[name] = true
		out = append(out, Metric{Name: name, Quantile: q / 100, Want: w / 100})
	}
	return out, nil
}

// Config is what a watch reads, how, and what it asks.
type Config struct {
	// Path is the file followed; "-" reads Stdin until it ends.
	Path  string
	Stdin io.Reader
	// Source names the input in messages and in the final parse.
	Source  string
	Poll    time.Duration // how often a file is polled for more
	WindowS float64       // window (and block) width, seconds
	Metrics []Metric
	// Alpha is the error of the whole statement: each metric's
	// confidence sequence is at Alpha/len(Metrics) (Bonferroni).
	Alpha           float64
	StopWhenSettled bool
	// MaxDuration ends an unsettled watch: wall-clock time since the
	// watch started, or the run's own time, whichever comes first (0:
	// none).
	MaxDuration time.Duration
	// Spool receives every line read (with its line end), in order: the
	// data seen, which the final statement is made from.
	Spool *os.File
	// Look is called at every look, and with the final statement.
	Look func(Statement)
	// Notice is told what the user should know (a file read again).
	Notice func(string)
}

// Statement is what a look says.
type Statement struct {
	Source string `json:"source"`
	Format string `json:"format"`
	// ElapsedS is the run's time at the look: seconds from its first
	// request's start to the latest one's.
	ElapsedS float64 `json:"elapsed_s"`
	Requests int64   `json:"requests"`
	Errors   int64   `json:"errors"`
	// Lines is how many lines of the input were read: the data seen.
	Lines int `json:"lines"`
	// OtherRequests counts the requests of other runs of the log (other
	// targets or endpoints), not watched: the watch follows the first.
	OtherRequests int64       `json:"other_requests,omitempty"`
	Window        *WindowStat `json:"window"`
	Warmup        WarmupState `json:"warmup"`
	Precision     []Precision `json:"precision"`
	Alpha         float64     `json:"alpha"`
	Settled       bool        `json:"settled"`
	// SettledAtS is the run's time at the first look that was settled.
	SettledAtS *float64 `json:"settled_at_s"`
	Final      bool     `json:"final,omitempty"`
	// End says why the watch ended (final statement only): settled,
	// input ended, max-duration, interrupted.
	End string `json:"end,omitempty"`
}

// WindowStat is the last complete window's numbers.
type WindowStat struct {
	TS      float64  `json:"t_s"`
	WindowS float64  `json:"window_s"`
	RPS     float64  `json:"rps"`
	P50Ms   *float64 `json:"p50_ms"`
	P90Ms   *float64 `json:"p90_ms"`
	P99Ms   *float64 `json:"p99_ms"`
	Errors  int64    `json:"errors"`
}

// WarmupState is the run's warm-up as analyze finds it on the windows so
// far.
type WarmupState struct {
	// State is "insufficient-data", "warming" or "steady".
	State        string   `json:"state"`
	Class        string   `json:"class"`
	SteadySinceS *float64 `json:"steady_since_s"`
	Windows      int      `json:"windows"`
}

// Precision is one metric's confidence sequence at a look.
type Precision struct {
	Metric     string   `json:"metric"`
	WantPct    float64  `json:"want_pct"`
	EstimateMs *float64 `json:"estimate_ms"`
	LoMs       *float64 `json:"lo_ms"`
	HiMs       *float64 `json:"hi_ms"` // null: unbounded
	// HalfWidthPct is the half-width relative to the estimate, null
	// while unbounded or before minBlocks steady blocks.
	HalfWidthPct *float64 `json:"half_width_pct"`
	Blocks       int      `json:"blocks"`
	Reached      bool     `json:"reached"`
}

// Ends of a watch.
const (
	EndSettled     = "settled"
	EndInput       = "input ended"
	EndMaxDuration = "max-duration"
	EndInterrupted = "interrupted"
)

// watcher is one watch under way.
type watcher struct {
	cfg     Config
	format  string
	decode  requests.LineFunc
	agg     *requests.Requests
	head    []byte // lines before the format is known
	heads   int
	line    int
	pending []byte
	bad     string // the last malformed line's message, from the tap
	run     *runState
	other   int64
	looked  int // the window index of the last look
	settled *float64
	pool    pooled
	last    Statement
}

// Run follows the input until it ends, the precision is reached (with
// StopWhenSettled), MaxDuration passes or ctx ends, calling Look at
// every look, and returns the final statement (also passed to Look). An
// input that is not a per-request format read line by line, or a
// malformed line, is an error (a *core.SyntaxError with the line).
func Run(ctx context.Context, cfg Config) (Statement, error) {
	w := &watcher{cfg: cfg}
	w.reset()
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ch := make(chan chunk, 4)
	if err := follow(fctx, cfg, ch); err != nil {
		return Statement{}, err
	}
	var deadline <-chan time.Time
	if cfg.MaxDuration > 0 {
		t := time.NewTimer(cfg.MaxDuration)
		defer t.Stop()
		deadline = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return w.final(EndInterrupted)
		case <-deadline:
			return w.final(EndMaxDuration)
		case c := <-ch:
			end, err := w.take(c)
			if err != nil {
				return Statement{}, err
			}
			if end != "" {
				return w.final(end)
			}
		}
	}
}

// follow starts following the input (standard input for "-"), sending
// what it reads on ch until ctx ends.
func follow(ctx context.Context, cfg Config, ch chan<- chunk) error {
	if cfg.Path == "-" {
		go followReader(ctx, cfg.Stdin, ch)
		return nil
	}
	f, err := os.Open(cfg.Path)
	if err != nil {
		return err
	}
	go followFile(ctx, cfg.Path, f, cfg.Poll, ch)
	return nil
}

// take handles one chunk of the input: it returns how the watch ends
// ("" while it goes on).
func (w *watcher) take(c chunk) (string, error) {
	switch {
	case c.err != nil:
		return "", fmt.Errorf("%s: %w", w.cfg.Source, c.err)
	case c.restart != "":
		if w.cfg.Notice != nil {
			w.cfg.Notice(c.restart + ": reading it again from the start")
		}
		return "", w.restart()
	case c.eof:
		return EndInput, w.endOfInput()
	}
	if err := w.feed(c.data); err != nil {
		return "", err
	}
	if w.cfg.StopWhenSettled && w.settled != nil {
		return EndSettled, nil
	}
	if w.cfg.MaxDuration > 0 && w.run.started && w.elapsed() >= w.cfg.MaxDuration.Seconds() {
		return EndMaxDuration, nil
	}
	return "", nil
}

// endOfInput takes a last line without its end, and detects the format
// of an input too short to have been detected.
func (w *watcher) endOfInput() error {
	if len(w.pending) > 0 { // a last line without its end
		if err := w.feed([]byte{'\n'}); err != nil {
			return err
		}
	}
	if w.format == "" && w.line > 0 {
		return w.detect(true)
	}
	return nil
}

// reset forgets everything read.
func (w *watcher) reset() {
	*w = watcher{cfg: w.cfg, run: newRunState(w.cfg.WindowS), looked: math.MinInt}
}

// restart reads the input again from its start.
func (w *watcher) restart() error {
	w.reset()
	if s := w.cfg.Spool; s != nil {
		if err := s.Truncate(0); err != nil {
			return err
		}
		if _, err := s.Seek(0, io.SeekStart); err != nil {
			return err
		}
	}
	return nil
}

// feed takes bytes read: each complete line is spooled and decoded; a
// partial last line waits for the rest.
func (w *watcher) feed(data []byte) error {
	w.pending = append(w.pending, data...)
	start := 0
	for {
		i := bytes.IndexByte(w.pending[start:], '\n')
		if i < 0 {
			break
		}
		raw := w.pending[start : start+i+1]
		start += i + 1
		if w.cfg.Spool != nil {
			if _, err := w.cfg.Spool.Write(raw); err != nil {
				return err
			}
		}
		w.line++
		if err := w.handle(bytes.TrimRight(raw, "\r\n")); err != nil {
			return err
		}
		if w.cfg.StopWhenSettled && w.settled != nil {
			// What comes after the look that settled is not the data seen.
			w.pending = w.pending[:0]
			return nil
		}
	}
	w.pending = append(w.pending[:0], w.pending[start:]...)
	if len(w.pending) > core.MaxLine {
		return &core.SyntaxError{File: w.cfg.Source, Line: w.line + 1, Msg: fmt.Sprintf("line longer than %d bytes", core.MaxLine)}
	}
	return nil
}

// maxHeadLines is how many non-blank lines the format is looked for in.
const maxHeadLines = 20

// handle decodes one line (before the format is known: keeps it and
// tries to detect the format).
func (w *watcher) handle(line []byte) error {
	if w.format == "" {
		w.head = append(append(w.head, line...), '\n')
		if len(bytes.TrimSpace(line)) > 0 {
			w.heads++
		}
		return w.detect(w.heads >= maxHeadLines || len(w.head) >= 64<<10)
	}
	return w.decodeLine(line, w.line)
}

// detect looks for the format in the lines so far; when it is found,
// decodes them. giveUp says no more lines will help: then not finding
// it is an error.
func (w *watcher) detect(giveUp bool) error {
	if w.heads == 0 {
		return nil
	}
	p, err := core.DetectIn(ingest.Parsers(), w.head)
	if err != nil {
		if !giveUp {
			return nil
		}
		var no *core.NoOutputError
		var se *core.SyntaxError
		if errors.As(err, &no) {
			no.File = w.cfg.Source
		} else if errors.As(err, &se) && se.File == "" {
			se.File = w.cfg.Source
		}
		return err
	}
	w.agg = requests.NewRequests(core.Options{Source: w.cfg.Source, WindowS: w.cfg.WindowS}, core.RunFunc(func(results.RunWithPercentiles) error { return nil }))
	w.agg.SetTap(&requests.Tap{
		Add: func(h, _ int, q requests.Request) error {
			if h != 0 {
				w.other++
				return nil
			}
			if !w.run.started && len(w.run.pending) == 0 {
				w.run.noHTTPStatus = w.agg.Meta(0).NoHTTPStatus
			}
			w.run.add(q)
			return nil
		},
		Bad: func(_ int, msg string) { w.bad = msg },
	})
	dec, ok := ingest.LineDecoder(p.Name(), w.agg)
	if !ok {
		return &core.SyntaxError{File: w.cfg.Source, Msg: fmt.Sprintf("%s output is not read as it is written: watch reads the per-request formats %s (report reads it when it is complete)",
			p.Name(), strings.Join(ingest.LineFormats, ", "))}
	}
	w.format, w.decode = p.Name(), dec
	head := w.head
	w.head = nil
	for n, l := range bytes.Split(bytes.TrimSuffix(head, []byte{'\n'}), []byte{'\n'}) {
		if err := w.decodeLine(l, n+1); err != nil {
			return err
		}
	}
	return nil
}

// decodeLine decodes line n and looks when a window is complete.
func (w *watcher) decodeLine(line []byte, n int) error {
	if err := w.decode(line, n); err != nil {
		return err
	}
	if w.bad != "" {
		msg := w.bad
		w.bad = ""
		return &core.SyntaxError{File: w.cfg.Source, Line: n, Msg: fmt.Sprintf("malformed line: %s (expected a %s line)", msg, w.format)}
	}
	if w.run.started {
		if k := w.run.current(); k > w.looked {
			if w.looked != math.MinInt {
				w.look(k, false)
			}
			w.looked = k
		}
	}
	return nil
}

// elapsed is the run's time so far, seconds.
func (w *watcher) elapsed() float64 { return float64(w.run.maxStart-w.run.origin) / 1e9 }

// look makes the statement on the windows before index k.
func (w *watcher) look(k int, final bool) Statement {
	series := w.run.seriesBefore(k)
	rw := analyze.RunWarmupOf(results.Run{RunID: "watch"}, series, analyze.DefaultOptions())
	st := w.statement(series, rw, k)
	if !final && w.cfg.Look != nil {
		w.cfg.Look(st)
	}
	w.last = st
	return st
}

// statement words a look from the windows and their warm-up.
func (w *watcher) statement(series []results.Series, rw analyze.RunWarmup, k int) Statement {
	st := Statement{Source: w.cfg.Source, Format: w.format, ElapsedS: round(w.elapsed(), 3), Requests: w.run.n, Errors: w.run.errors,
		Lines: w.line, OtherRequests: w.other, Alpha: w.cfg.Alpha}
	if n := len(series); n > 0 {
		s := series[n-1]
		st.Window = &WindowStat{TS: s.TS, WindowS: s.WindowS, RPS: round(s.RPS, 2), P50Ms: r3(s.LatP50Ms), P90Ms: r3(s.LatP90Ms), P99Ms: r3(s.LatP99Ms), Errors: s.Errors}
	}
	st.Warmup = WarmupState{Class: string(rw.Class), Windows: rw.Windows}
	switch {
	case rw.WarmupEndS != nil:
		st.Warmup.State, st.Warmup.SteadySinceS = "steady", results.Ptr(round(*rw.WarmupEndS, 3))
	case rw.Class == stats.ClassInsufficientData:
		st.Warmup.State = "insufficient-data"
	default:
		st.Warmup.State = "warming"
	}
	var blocks []*hist
	if st.Warmup.SteadySinceS != nil {
		blocks = w.run.blocksFrom(*rw.WarmupEndS, k)
	}
	all := len(w.cfg.Metrics) > 0 && blocks != nil
	for _, m := range w.cfg.Metrics {
		p := Precision{Metric: m.Name, WantPct: 100 * m.Want}
		if blocks != nil {
			b := quantileCS(blocks, m.Quantile, w.cfg.Alpha/float64(len(w.cfg.Metrics)), &w.pool)
			p.Blocks = b.Blocks
			if b.N > 0 && b.OK {
				p.EstimateMs, p.LoMs = results.Ptr(round(b.Estimate, 4)), results.Ptr(round(b.Lo, 4))
				if !math.IsInf(b.Hi, 1) {
					p.HiMs = results.Ptr(round(b.Hi, 4))
					p.HalfWidthPct = results.Ptr(round(100*b.HalfWidth, 3))
					p.Reached = b.HalfWidth <= m.Want
				}
			}
		}
		all = all && p.Reached
		st.Precision = append(st.Precision, p)
	}
	if all && w.settled == nil {
		w.settled = results.Ptr(st.ElapsedS)
	}
	st.Settled, st.SettledAtS = all, w.settled
	return st
}

// final makes the final statement on the data seen: its warm-up from
// the windows the report's parse makes of the spooled lines (so it is
// the report's own), the precision from the watch's windows since then.
func (w *watcher) final(end string) (Statement, error) {
	k := math.MaxInt
	w.run.start()
	if !w.run.started {
		st := Statement{Source: w.cfg.Source, Format: w.format, Alpha: w.cfg.Alpha, Final: true, End: end,
			Warmup: WarmupState{State: "insufficient-data"}}
		for _, m := range w.cfg.Metrics {
			st.Precision = append(st.Precision, Precision{Metric: m.Name, WantPct: 100 * m.Want})
		}
		if w.cfg.Look != nil {
			w.cfg.Look(st)
		}
		return st, nil
	}
	var st Statement
	if series, run, err := w.parseSpool(); err == nil && run != nil {
		rw := analyze.RunWarmupOf(*run, series, analyze.DefaultOptions())
		st = w.statement(w.run.seriesBefore(k), rw, k)
	} else {
		st = w.look(k, true)
	}
	// A watch stopped by its settling look stays settled, whatever the
	// windows of the report's parse say of the steady start.
	st.Settled = st.Settled || end == EndSettled
	st.Final, st.End = true, end
	if w.cfg.Look != nil {
		w.cfg.Look(st)
	}
	return st, nil
}

// parseSpool parses the spooled lines as report does and returns the
// first run's windows and the run (nil without a spool or a run).
func (w *watcher) parseSpool() ([]results.Series, *results.Run, error) {
	s := w.cfg.Spool
	if s == nil {
		return nil, nil, nil
	}
	if _, err := s.Seek(0, io.SeekStart); err != nil {
		return nil, nil, err
	}
	defer s.Seek(0, io.SeekEnd)
	c := &firstRun{id: results.RunID(w.cfg.Source, 0)}
	err := ingest.Parse(context.Background(), s, core.Options{Source: w.cfg.Source, WindowS: w.cfg.WindowS}, c)
	return c.series, c.run, err
}

// firstRun is a sink keeping the first run of a log and its windows.
type firstRun struct {
	id     string
	series []results.Series
	run    *results.Run
}

func (f *firstRun) Run(r results.RunWithPercentiles) error {
	if r.RunID == f.id {
		f.run = &r.Run
	}
	return nil
}
func (f *firstRun) Sample(results.Sample) error { return nil }
func (f *firstRun) Series(s results.Series) error {
	if s.RunID == f.id {
		f.series = append(f.series, s)
	}
	return nil
}

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

func r3(v *float64) *float64 {
	if v == nil {
		return nil
	}
	return results.Ptr(round(*v, 3))
}
