package siege

import (
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// JSONParser ("siege-json") reads siege's JSON output; siege.go describes both formats.
type JSONParser struct{}

// Name returns "siege-json".
func (JSONParser) Name() string { return "siege-json" }

// Detect reports whether head holds siege's JSON summary: at its start,
// or after a terminal transcript's lines (a prompt with the siege command,
// "^C"), on a line that begins with "{".
func (JSONParser) Detect(head []byte) bool {
	head = core.JSONHead(head)
	if _, rest := preamble(head); len(rest) > 0 {
		head = rest
	}
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	probe := head[:min(len(head), 2048)]
	for _, k := range []string{`"transactions":`, `"availability":`, `"transaction_rate":`, `"failed_transactions":`} {
		if !bytes.Contains(probe, []byte(k)) {
			return false
		}
	}
	return true
}

// maxSiegePreamble bounds the transcript read before a JSON summary.
const maxSiegePreamble = 64 << 10

// preamble splits b, when it does not start with "{", at the first
// line (within maxSiegePreamble bytes) whose first non-blank byte is "{":
// the lines before it and the rest. rest is nil when there is no such line.
func preamble(b []byte) (pre, rest []byte) {
	for off := 0; off < len(b) && off < maxSiegePreamble; {
		line := b[off:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		if t := bytes.TrimLeft(line, " \t"); len(t) > 0 && t[0] == '{' {
			return b[:off], b[off:]
		}
		off += len(line)
	}
	return b, nil
}

// blankReader passes r through with every byte before the first line
// that starts with "{" turned into a space (newlines kept), so that the
// JSON decoder skips a transcript's lines and still counts lines right;
// the lines it blanked are kept (up to maxSiegePreamble) for the command.
type blankReader struct {
	r       io.Reader
	started bool
	atLine  bool // at the start of a line (blanks and tabs skipped)
	pre     []byte
}

func (b *blankReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	for i := 0; i < n && !b.started; i++ {
		c := p[i]
		switch {
		case c == '{' && b.atLine:
			b.started = true
			continue
		case c == '\n':
			b.atLine = true
		case c != ' ' && c != '\t' && c != '\r':
			b.atLine = false
		}
		if len(b.pre) < maxSiegePreamble {
			b.pre = append(b.pre, c)
		}
		if c != '\n' {
			p[i] = ' '
		}
	}
	return n, err
}

// json is siege's JSON summary.
type json struct {
	Transactions *float64 `json:"transactions"`
	Availability *float64 `json:"availability"`
	Elapsed      *float64 `json:"elapsed_time"`
	Data         *float64 `json:"data_transferred"`
	Response     *float64 `json:"response_time"`
	Rate         *float64 `json:"transaction_rate"`
	Throughput   *float64 `json:"throughput"`
	Concurrency  *float64 `json:"concurrency"`
	Successful   *float64 `json:"successful_transactions"`
	Failed       *float64 `json:"failed_transactions"`
	Longest      *float64 `json:"longest_transaction"`
	Shortest     *float64 `json:"shortest_transaction"`
}

// Parse streams the runs of r, one per JSON summary, to sink.
func (JSONParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	br := &blankReader{r: r, atLine: true}
	return core.JSONReports(ctx, br, opts, "siege-json", "siege JSON", func(m *json, line int, fill func(*results.RunWithPercentiles)) error {
		vals := []*float64{m.Transactions, m.Availability, m.Elapsed, m.Data, m.Response, m.Rate, m.Throughput,
			m.Concurrency, m.Successful, m.Failed, m.Longest, m.Shortest}
		for i, p := range vals {
			if p == nil || !core.Finite(*p) || *p >= 9e18 {
				return core.BadJSON("%q missing or out of range", strings.ToLower(strings.TrimSuffix(siegeKeys[i], ":")))
			}
		}
		s := summary{availability: *m.Availability, elapsedS: *m.Elapsed, dataMB: *m.Data, respS: *m.Response,
			rate: *m.Rate, tputMB: *m.Throughput, concurrency: *m.Concurrency, longestS: *m.Longest, shortestS: *m.Shortest}
		s.transactions, _ = core.ToInt64(*m.Transactions)
		s.successful, _ = core.ToInt64(*m.Successful)
		s.failed, _ = core.ToInt64(*m.Failed)
		// A transcript's siege command line (siege -c50 -t60 URL) gives
		// the users and the target, as in the text format.
		var cmd *command
		for ln, l := range bytes.Split(br.pre, []byte("\n")) {
			if i := core.FindCommand(l, isSiegeExe); i >= 0 {
				if c, ok := parseSiegeCommand(string(core.TrimRight(l[i:])), ln+1); ok {
					cmd = c
				}
			}
		}
		start := line
		if cmd != nil {
			start = cmd.line
		}
		out := run(&s, cmd, 0, start)
		fill(&out)
		return sink.Run(out)
	})
}
