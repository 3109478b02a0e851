package results

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Load models of a run (SCHEMA.md, column load_model).
const (
	// LoadClosed is a closed workload model: a fixed number of connections,
	// each waiting for its response before sending the next request.
	LoadClosed = "closed"
	// LoadOpen is an open workload model: requests are sent at a planned
	// rate whatever the latency of earlier ones.
	LoadOpen = "open"
)

// Run is one row of the runs table: one invocation of a load generator.
// Pointer fields are nullable columns; nil means "not known".
// Units follow SCHEMA.md: milliseconds, seconds, requests per second, bytes.
type Run struct {
	RunID      string `json:"run_id"`
	Experiment string `json:"experiment"`
	Source     string `json:"source"`
	Index      int32  `json:"index"`
	Seq        int32  `json:"seq"`
	Tool       string `json:"tool"`
	LoadModel  string `json:"load_model"`
	Label      string `json:"label"`
	Target     string `json:"target"`

	StartedAt        *time.Time `json:"started_at,omitempty"`
	DurationS        float64    `json:"duration_s"`
	PlannedDurationS *float64   `json:"planned_duration_s,omitempty"`
	Threads          *int32     `json:"threads,omitempty"`
	Connections      *int32     `json:"connections,omitempty"`
	TargetRPS        *float64   `json:"target_rps,omitempty"`

	Requests      int64  `json:"requests"`
	Errors        int64  `json:"errors"`
	Non2xx        *int64 `json:"non2xx,omitempty"`
	Timeouts      *int64 `json:"timeouts,omitempty"`
	ConnectErrors *int64 `json:"connect_errors,omitempty"`
	ReadErrors    *int64 `json:"read_errors,omitempty"`
	WriteErrors   *int64 `json:"write_errors,omitempty"`
	BytesIn       *int64 `json:"bytes_in,omitempty"`

	RPS         float64  `json:"rps"`
	TransferBPS *float64 `json:"transfer_bps,omitempty"`

	LatMeanMs  *float64 `json:"lat_mean_ms,omitempty"`
	LatStdevMs *float64 `json:"lat_stdev_ms,omitempty"`
	LatMinMs   *float64 `json:"lat_min_ms,omitempty"`
	LatMaxMs   *float64 `json:"lat_max_ms,omitempty"`
	LatP50Ms   *float64 `json:"lat_p50_ms,omitempty"`
	LatP90Ms   *float64 `json:"lat_p90_ms,omitempty"`
	LatP99Ms   *float64 `json:"lat_p99_ms,omitempty"`
	LatP999Ms  *float64 `json:"lat_p999_ms,omitempty"`

	ThreadRPSMean  *float64 `json:"thread_rps_mean,omitempty"`
	ThreadRPSStdev *float64 `json:"thread_rps_stdev,omitempty"`
	ThreadRPSMax   *float64 `json:"thread_rps_max,omitempty"`

	HasSamples bool `json:"has_samples"`

	// Columns added beyond the first SCHEMA.md draft.

	// SourceLine is the 1-based line of the source where the run's output starts.
	SourceLine int32 `json:"source_line"`
	// Command is the load generator's command line, when the output shows it.
	Command *string `json:"command,omitempty"`
	// TimeoutS is the request timeout the generator was given, in seconds.
	TimeoutS *float64 `json:"timeout_s,omitempty"`
	// Script is the script the generator ran (wrk -s), when known.
	Script *string `json:"script,omitempty"`
	// LatencyCorrected tells whether latencies are corrected for coordinated
	// omission (wrk2 by default: true; wrk2 -U/--u_latency also prints uncorrected ones).
	LatencyCorrected *bool `json:"latency_corrected,omitempty"`
	// Notes are remarks of the parser about this run, "; "-separated
	// (e.g. "uncorrected latency distribution also printed (-U)").
	Notes *string `json:"notes,omitempty"`
	// SentRPS is the rate at which requests were sent, as the tool reports
	// it (vegeta's "rate": requests over the attack's duration), in
	// requests per second.
	SentRPS *float64 `json:"sent_rps,omitempty"`
	// SuccessRPS is the rate of successful responses, as the tool reports
	// it (vegeta's "throughput": successful requests over the attack's
	// duration plus the wait for the last responses), in requests per second.
	SuccessRPS *float64 `json:"success_rps,omitempty"`
	// Endpoint names the request the run is about, when the tool's output
	// splits a test into several (JMeter's sampler label, k6's method and
	// name tag, vegeta's method and URL path, Gatling's request name); nil
	// for a run over the whole test.
	Endpoint *string `json:"endpoint,omitempty"`
}

// NoteRateInferred ends the note a parser adds to a run whose requested
// rate (TargetRPS) it took from what the tool measured, because the
// output does not state the requested rate: "requested rate 300.2 req/s
// taken from the send times" (a per-request log), "... taken from the
// measured rate" (vegeta's report without its command line).
const NoteRateInferred = "req/s taken from the"

// RateInferred reports whether the run's requested rate was inferred
// from what the tool measured (see NoteRateInferred) rather than read
// where the tool records it.
func (r Run) RateInferred() bool {
	return r.TargetRPS != nil && r.Notes != nil && strings.Contains(*r.Notes, NoteRateInferred)
}

// Percentile is one row of the percentiles table: a point of a run's
// latency distribution.
type Percentile struct {
	RunID     string  `json:"-"`
	Quantile  float64 `json:"quantile"`
	LatencyMs float64 `json:"latency_ms"`
	// TotalCount is the number of requests at or below LatencyMs, where the
	// tool prints it (wrk2's spectrum).
	TotalCount *int64 `json:"total_count,omitempty"`
}

// Series is one row of the series table: one run's figures over one time window.
type Series struct {
	RunID     string   `json:"run_id"`
	TS        float64  `json:"t_s"`
	WindowS   float64  `json:"window_s"`
	Requests  int64    `json:"requests"`
	Errors    int64    `json:"errors"`
	RPS       float64  `json:"rps"`
	LatMeanMs *float64 `json:"lat_mean_ms,omitempty"`
	LatP50Ms  *float64 `json:"lat_p50_ms,omitempty"`
	// LatP90Ms is the window's p90 latency (null in files that lack the
	// column).
	LatP90Ms *float64 `json:"lat_p90_ms,omitempty"`
	LatP99Ms *float64 `json:"lat_p99_ms,omitempty"`
	LatMaxMs *float64 `json:"lat_max_ms,omitempty"`
	// ErrorStatuses are the statuses of the window's failed requests
	// with their counts, most frequent first: "503:200,0:3" (0: no
	// response; -1: statuses beyond the 15 a window counts); nil when
	// none failed or the source does not tell.
	ErrorStatuses *string `json:"error_statuses,omitempty"`
}

// Sample is one row of the samples table: one request.
type Sample struct {
	RunID     string  `json:"run_id"`
	TS        float64 `json:"t_s"`
	LatencyMs float64 `json:"latency_ms"`
	Status    int32   `json:"status"`
	BytesIn   int64   `json:"bytes_in"`
	Error     *string `json:"error,omitempty"`
}

// RunWithPercentiles is a run together with its latency distribution, as
// parsers produce it and as `loadverdict parse --json` prints it.
type RunWithPercentiles struct {
	Run
	Percentiles []Percentile `json:"percentiles"`
}

// RunID returns the stable id of the index-th run of source: the first 16
// hex digits of sha256(source + "#" + index).
func RunID(source string, index int) string {
	var small [128]byte // most sources fit: one allocation, the id's
	b := append(append(small[:0], source...), '#')
	sum := sha256.Sum256(strconv.AppendInt(b, int64(index), 10))
	var id [16]byte
	hex.Encode(id[:], sum[:8])
	return string(id[:])
}

// Ptr returns a pointer to v; a convenience for nullable fields.
func Ptr[T any](v T) *T { return &v }
