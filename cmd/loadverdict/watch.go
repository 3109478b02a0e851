package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/loadverdict/loadverdict/internal/local"
	"github.com/loadverdict/loadverdict/internal/pipeline"
	"github.com/loadverdict/loadverdict/internal/watch"
)

func runWatch(ctx context.Context, args []string, e *env) error {
	fs := newFlagSet(e, "watch", "[--precision p50=1%,p99=5%] [--stop-when-settled] [--max-duration D] [--format text|json] [-o DIR] [FILE|-]",
		"Follow a per-request log as the load generator writes it (FILE, polled, or - for standard\n"+
			"input, e.g. vegeta attack ... | vegeta encode | loadverdict watch -) and state, at every\n"+
			"second of the run: the last window's numbers (req/s, p50, p90, p99, errors), the warm-up\n"+
			"as report finds it on the windows so far (still warming, steady since 14 s), and whether\n"+
			"the steady windows pin the --precision quantiles to the half-width asked, with a\n"+
			"confidence sequence that stays valid however often it is looked at (docs/STATISTICS.md,\n"+
			"\"Watching a running test\"). Formats, detected by content: vegeta JSON and CSV (vegeta\n"+
			"encode), k6 --out json, JMeter CSV (JTL), hey -o csv. A file replaced or truncated is\n"+
			"read again from its start; a partial last line is waited for; a malformed line is an\n"+
			"error (exit 1). On a terminal the statement is rewritten in place, otherwise (and with\n"+
			"--format json) it is one JSON line a look.\n"+
			"The watch ends when the input ends (standard input closed), on an interrupt, when the\n"+
			"precision is reached (--stop-when-settled: exit 0; end the generator then, e.g. by\n"+
			"running both under one pipe: the generator gets SIGPIPE once watch has exited) or at\n"+
			"--max-duration (not settled: exit 3, the gate's undecided, fail closed; also when the\n"+
			"input ends unsettled with --stop-when-settled). With -o DIR it writes the report of the\n"+
			"data seen, as report does on the same lines, and DIR/settle.json: when the run became\n"+
			"steady and when the precision was reached.")
	precision := fs.String("precision", "p50=1%,p99=5%", "the quantiles to pin and the relative half-width wanted for each, `pNN=PCT,...`")
	alpha := fs.Float64("alpha", 0.05, "error of the whole statement, shared by the quantiles (each at alpha/k)")
	stop := fs.Bool("stop-when-settled", false, "exit 0 at the first look where every quantile is pinned to its precision")
	maxDur := fs.Duration("max-duration", 0, "end an unsettled watch after `D` (wall clock since the watch started, or the run's own time, whichever first) and exit 3 (0: none)")
	format := fs.String("format", "", "`text` (rewritten in place) or json (one line a look); default: text on a terminal, json otherwise")
	poll := fs.Duration("poll", 200*time.Millisecond, "how often a FILE is polled for new lines")
	out := fs.String("o", "", "at the end, write the report of the data seen into `DIR`, with settle.json")
	r := addInputFlags(fs, e)
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("watch: takes one FILE or -, got %d", len(args))
	}
	metrics, err := watch.ParsePrecision(*precision)
	if err != nil {
		return usagef("watch: %v", err)
	}
	if err := checkWatchBounds(*alpha, *maxDur, *poll); err != nil {
		return err
	}
	term := isTerminal(e.stdout)
	if *format, err = watchFormat(*format, term); err != nil {
		return err
	}
	path := args[0]
	exp, err := r.ExperimentFor(path)
	if err != nil {
		return err
	}
	source, err := watchSource(path)
	if err != nil {
		return err
	}
	spool, err := os.CreateTemp("", "loadverdict-watch-")
	if err != nil {
		return err
	}
	defer func() { spool.Close(); os.Remove(spool.Name()) }()
	show := &watchView{w: e.stdout, json: *format == "json", term: term && *format != "json", metrics: metrics}
	st, err := watch.Run(ctx, watch.Config{Path: path, Stdin: e.stdin, Source: source, Poll: *poll, WindowS: r.Window.Seconds(),
		Metrics: metrics, Alpha: *alpha, StopWhenSettled: *stop, MaxDuration: *maxDur, Spool: spool,
		Look: show.look, Notice: func(s string) { fmt.Fprintln(e.stderr, "loadverdict: watch:", s) }})
	if err != nil {
		return err
	}
	if *out != "" {
		// An interrupt ends the watch, not the report of what it saw.
		if err := watchReport(context.WithoutCancel(ctx), r, *out, exp, spool, st); err != nil {
			return err
		}
		printWatchReport(e.stdout, *out)
	}
	if !st.Settled && (st.End == watch.EndMaxDuration || *stop) {
		return &gateError{reasons: []string{"undecided: " + unsettled(st)}}
	}
	return nil
}

// checkWatchBounds checks --alpha, --max-duration and --poll.
func checkWatchBounds(alpha float64, maxDur, poll time.Duration) error {
	if !(alpha >= 0.001 && alpha <= 0.2) {
		return usagef("watch: --alpha must be from 0.001 to 0.2, got %g", alpha)
	}
	if maxDur < 0 || poll <= 0 {
		return usagef("watch: --max-duration must not be negative, --poll must be positive")
	}
	return nil
}

// watchFormat is --format's format: by default text on a terminal
// ("" here), json otherwise.
func watchFormat(format string, term bool) (string, error) {
	switch format {
	case "":
		if !term {
			return "json", nil
		}
	case "text", "json":
	default:
		return "", usagef("watch: --format is text or json, got %q", format)
	}
	return format, nil
}

// watchSource is the name the watch's input is known by: the file, or
// standard input's for -.
func watchSource(path string) (string, error) {
	if path == "-" {
		return local.StdinName, nil
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return "", usagef("watch: %s is not a file", path)
	}
	return filepath.Clean(path), nil
}

// printWatchReport names the report and settle.json written into out.
func printWatchReport(w io.Writer, out string) {
	fmt.Fprintln(w)
	writtenReports(w, out)
	fmt.Fprintf(w, "settle: %s\n", filepath.Join(out, settleName))
}

// settleName is the file -o DIR gets beside the report.
const settleName = "settle.json"

// watchReport writes the report of the spooled lines into dir, as
// report does on them (standard input, named as the watch's input), and
// settle.json.
func watchReport(ctx context.Context, r *local.Runner, dir, exp string, spool *os.File, st watch.Statement) error {
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	r.Stdin, r.Experiment = spool, exp
	files := local.Files{Paths: []string{"-"}, Output: dir}
	in, err := files.Inputs()
	if err != nil {
		return err
	}
	res, err := r.Report(ctx, dir, in, pipeline.Request{Experiment: exp})
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(settleOf(st), "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, settleName), append(b, '\n'), 0o644); err != nil {
		return err
	}
	if res.Rejected > 0 {
		return errReported
	}
	return nil
}

// settle is settle.json: when the run became steady and when the
// precision was reached, with the final statement.
type settle struct {
	SteadySinceS *float64        `json:"steady_since_s"`
	Settled      bool            `json:"settled"`
	SettledAtS   *float64        `json:"settled_at_s"`
	End          string          `json:"end"`
	Method       string          `json:"method"`
	Statement    watch.Statement `json:"statement"`
}

func settleOf(st watch.Statement) settle {
	return settle{SteadySinceS: st.Warmup.SteadySinceS, Settled: st.Settled, SettledAtS: st.SettledAtS, End: st.End,
		Method:    "asymptotic confidence sequence (Waudby-Smith et al. 2024) over 1-window blocks, quantiles by rank inversion; docs/STATISTICS.md \"Watching a running test\"",
		Statement: st}
}

// unsettled says what was not reached.
func unsettled(st watch.Statement) string {
	var parts []string
	for _, p := range st.Precision {
		if p.Reached {
			continue
		}
		if p.HalfWidthPct == nil {
			parts = append(parts, fmt.Sprintf("%s not bounded yet (want ±%s %%)", p.Metric, num(p.WantPct)))
		} else {
			parts = append(parts, fmt.Sprintf("%s ±%s %% (want ±%s %%)", p.Metric, num(*p.HalfWidthPct), num(p.WantPct)))
		}
	}
	what := "the precision was not reached"
	if st.Warmup.State != "steady" {
		what = "the run never became steady"
	}
	return fmt.Sprintf("%s after %s s of the run (%s): %s", what, num(st.ElapsedS), st.End, strings.Join(parts, ", "))
}

// num formats a number for a sentence.
func num(v float64) string { return fmt.Sprintf("%.3g", v) }

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// watchView prints the looks: JSON lines, or text rewritten in place on
// a terminal (at most every renderEvery), or text blocks.
type watchView struct {
	w       io.Writer
	json    bool
	term    bool
	metrics []watch.Metric
	lines   int // lines printed last, to rewrite
	last    time.Time
}

// renderEvery bounds how often a terminal is redrawn (a file read at
// once makes many looks in a moment).
const renderEvery = 100 * time.Millisecond

func (v *watchView) look(st watch.Statement) {
	if v.json {
		b, _ := json.Marshal(st)
		fmt.Fprintf(v.w, "%s\n", b)
		return
	}
	if v.term && !st.Final && time.Since(v.last) < renderEvery {
		return
	}
	v.last = time.Now()
	text := statementText(st)
	if v.term && v.lines > 0 {
		fmt.Fprintf(v.w, "\x1b[%dA", v.lines)
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for _, l := range lines {
		if v.term {
			fmt.Fprint(v.w, "\x1b[2K")
		}
		fmt.Fprintln(v.w, l)
	}
	if v.term {
		v.lines = len(lines)
	} else {
		fmt.Fprintln(v.w)
	}
}

// statementText words a statement in a few lines.
func statementText(st watch.Statement) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s s, %d requests, %d errors", st.Source, st.Format, num(st.ElapsedS), st.Requests, st.Errors)
	if st.OtherRequests > 0 {
		fmt.Fprintf(&b, " (and %d requests of other targets, not watched)", st.OtherRequests)
	}
	b.WriteByte('\n')
	if w := st.Window; w != nil {
		fmt.Fprintf(&b, "  last window (%s s): %s req/s, p50 %s, p90 %s, p99 %s, %d errors\n", num(w.TS), num(w.RPS), ms(w.P50Ms), ms(w.P90Ms), ms(w.P99Ms), w.Errors)
	}
	switch st.Warmup.State {
	case "steady":
		fmt.Fprintf(&b, "  warm-up: steady since %s s\n", num(*st.Warmup.SteadySinceS))
	case "warming":
		fmt.Fprintf(&b, "  warm-up: still warming (%s over %d windows)\n", st.Warmup.Class, st.Warmup.Windows)
	default:
		fmt.Fprintf(&b, "  warm-up: not enough windows yet (%d)\n", st.Warmup.Windows)
	}
	b.WriteString("  precision:")
	for _, p := range st.Precision {
		switch {
		case p.HalfWidthPct != nil:
			mark := "not yet"
			if p.Reached {
				mark = "reached"
			}
			fmt.Fprintf(&b, " %s %s ±%s %% (want ±%s %%, %s);", p.Metric, ms(p.EstimateMs), num(*p.HalfWidthPct), num(p.WantPct), mark)
		default:
			fmt.Fprintf(&b, " %s not bounded yet (%d steady windows);", p.Metric, p.Blocks)
		}
	}
	b.WriteByte('\n')
	conf := num(100 * (1 - st.Alpha))
	switch {
	case st.Settled && st.SettledAtS != nil:
		fmt.Fprintf(&b, "  settled at %s s: the steady data pin every quantile to its precision (%s %% confidence, valid under every look)\n", num(*st.SettledAtS), conf)
	case st.SettledAtS != nil:
		fmt.Fprintf(&b, "  settled at %s s, not at this look (the steady start moved)\n", num(*st.SettledAtS))
	default:
		fmt.Fprintf(&b, "  not settled yet (%s %% confidence, valid under every look)\n", conf)
	}
	if st.Final {
		fmt.Fprintf(&b, "  watch ended: %s\n", st.End)
	}
	return b.String()
}

// ms formats a latency.
func ms(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.4g ms", *v)
}
