package ab

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// The ab-gnuplot parser reads the per-request rows of `ab -g FILE`, tab
// separated (layout: docs/FORMATS.md).
//
// seconds is the request's start in Unix seconds (whole seconds only),
// ctime the connect time, dtime the rest, ttime the total and wait the time
// to the first byte, in whole milliseconds. The latency is ttime. ab
// writes the rows sorted by ttime, not by start: they go to the aggregator
// earliest start first (reorderBuf), so that t_s counts from the run's
// start. ab -g records no status, no
// size and no target: every row counts as a successful request (status
// 200; ab's Failed requests are in its text report only), and the run is
// named after its file (a --label mapping of the file name renames it).
// Each header starts a run (appended files).
type GnuplotParser struct{}

// abGnuplotHeader is the header line of `ab -g`.
const abGnuplotHeader = "starttime\tseconds\tctime\tdtime\tttime\twait"

// Name returns "ab-gnuplot".
func (GnuplotParser) Name() string { return "ab-gnuplot" }

// Detect reports whether head starts with ab -g's header (its six column
// names), followed, if anything follows, by a row of six tab-separated
// fields.
func (GnuplotParser) Detect(head []byte) bool {
	l := core.HeadNonBlank(head, 2)
	if len(l) == 0 || string(l[0]) != abGnuplotHeader {
		return false
	}
	return len(l) == 1 || strings.Count(string(l[1]), "\t") == 5
}

// Parse streams the requests of r to sink: one run per header.
func (GnuplotParser) Parse(ctx context.Context, r io.Reader, opts core.Options, sink core.Sink) error {
	return requests.ParseHeaderedLog(ctx, r, opts, sink, requests.HeaderedLog{
		Format: "ab-gnuplot", What: "ab -g", Header: abGnuplotHeader, Sep: "\t",
		Meta: requests.RequestRun{Tool: "ab", LoadModel: results.LoadClosed, UnixTime: true, Notes: []string{
			"ab -g records no status (every request counted as a success, status 200), start times to the second and latencies in whole ms"}},
		Row:   gnuplotRow,
		Empty: "ab -g file without rows: no request completed",
	})
}

// gnuplotRow parses a row of ab -g; bad says what is wrong with it.
func gnuplotRow(rec []string) (req requests.Request, bad string) {
	if len(rec) != 6 {
		return req, fmt.Sprintf("%d fields, want 6", len(rec))
	}
	if strings.TrimSpace(rec[0]) == "" {
		return req, "empty starttime"
	}
	sec, ok := core.ParseUint([]byte(strings.TrimSpace(rec[1])))
	if !ok || sec > 1<<33 {
		return req, fmt.Sprintf("seconds %q is not a Unix time", rec[1])
	}
	for i := 2; i <= 5; i++ {
		if _, err := strconv.ParseInt(strings.TrimSpace(rec[i]), 10, 64); err != nil {
			return req, fmt.Sprintf("field %d: %q is not a whole number of ms", i+1, rec[i])
		}
	}
	ttime, ok := core.ParseUint([]byte(strings.TrimSpace(rec[4])))
	if !ok {
		return req, fmt.Sprintf("ttime %q", rec[4])
	}
	return requests.Request{Start: sec * 1e9, LatencyMs: float64(ttime), Status: 200}, ""
}
