package columnar

import (
	"errors"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/loadverdict/loadverdict/results"
)

// Table names one of the four normalized tables of SCHEMA.md.
type Table string

// The four tables; the names are part of the public contract (Parquet paths,
// Glue tables, Athena queries).
const (
	// TableRuns is the runs table: one row per run.
	TableRuns Table = "runs"
	// TablePercentiles is the percentiles table: latency distribution points.
	TablePercentiles Table = "percentiles"
	// TableSeries is the series table: one row per run and time window.
	TableSeries Table = "series"
	// TableSamples is the samples table: one row per request.
	TableSamples Table = "samples"
)

// SchemaVersionKey is the schema metadata key that carries SchemaVersion,
// in every Arrow schema of this package and every Parquet file it writes.
const SchemaVersionKey = "loadverdict.schema_version"

// SchemaVersion is the version of the table schemas defined here: 2 since
// timestamps are written in microseconds (1: nanoseconds; the readers
// accept both).
const SchemaVersion = "2"

// ErrSchemaMismatch is wrapped by the errors of the readers when a file's
// columns do not match the table's schema.
var ErrSchemaMismatch = errors.New("schema mismatch")

// Tables returns the four tables in the order of SCHEMA.md.
func Tables() []Table {
	return []Table{TableRuns, TablePercentiles, TableSeries, TableSamples}
}

// Schema returns the Arrow schema of table t, or nil when t is not one of
// the four tables.
func (t Table) Schema() *arrow.Schema {
	switch t {
	case TableRuns:
		return RunsSchema
	case TablePercentiles:
		return PercentilesSchema
	case TableSeries:
		return SeriesSchema
	case TableSamples:
		return SamplesSchema
	}
	return nil
}

// Shorthands for the column types of SCHEMA.md.
var (
	tString    = arrow.BinaryTypes.String
	tInt32     = arrow.PrimitiveTypes.Int32
	tInt64     = arrow.PrimitiveTypes.Int64
	tFloat64   = arrow.PrimitiveTypes.Float64
	tBool      = arrow.FixedWidthTypes.Boolean
	tTimestamp = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
)

func notNull(name string, t arrow.DataType) arrow.Field { return arrow.Field{Name: name, Type: t} }

func nullable(name string, t arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: true}
}

// The columns of each table, in SCHEMA.md order: name, type, nullability
// (the nullable* constructors; pointer fields of model.go) and Go field.
// The exported schemas below are derived from these lists.

var runColumns = []column[results.Run]{
	stringCol("run_id", func(r *results.Run) *string { return &r.RunID }),
	stringCol("experiment", func(r *results.Run) *string { return &r.Experiment }),
	stringCol("source", func(r *results.Run) *string { return &r.Source }),
	int32Col("index", func(r *results.Run) *int32 { return &r.Index }),
	int32Col("seq", func(r *results.Run) *int32 { return &r.Seq }),
	stringCol("tool", func(r *results.Run) *string { return &r.Tool }),
	stringCol("load_model", func(r *results.Run) *string { return &r.LoadModel }),
	stringCol("label", func(r *results.Run) *string { return &r.Label }),
	stringCol("target", func(r *results.Run) *string { return &r.Target }),
	nullableTimeCol("started_at", func(r *results.Run) **time.Time { return &r.StartedAt }),
	float64Col("duration_s", func(r *results.Run) *float64 { return &r.DurationS }),
	nullableFloat64Col("planned_duration_s", func(r *results.Run) **float64 { return &r.PlannedDurationS }),
	nullableInt32Col("threads", func(r *results.Run) **int32 { return &r.Threads }),
	nullableInt32Col("connections", func(r *results.Run) **int32 { return &r.Connections }),
	nullableFloat64Col("target_rps", func(r *results.Run) **float64 { return &r.TargetRPS }),
	int64Col("requests", func(r *results.Run) *int64 { return &r.Requests }),
	int64Col("errors", func(r *results.Run) *int64 { return &r.Errors }),
	nullableInt64Col("non2xx", func(r *results.Run) **int64 { return &r.Non2xx }),
	nullableInt64Col("timeouts", func(r *results.Run) **int64 { return &r.Timeouts }),
	nullableInt64Col("connect_errors", func(r *results.Run) **int64 { return &r.ConnectErrors }),
	nullableInt64Col("read_errors", func(r *results.Run) **int64 { return &r.ReadErrors }),
	nullableInt64Col("write_errors", func(r *results.Run) **int64 { return &r.WriteErrors }),
	nullableInt64Col("bytes_in", func(r *results.Run) **int64 { return &r.BytesIn }),
	float64Col("rps", func(r *results.Run) *float64 { return &r.RPS }),
	nullableFloat64Col("transfer_bps", func(r *results.Run) **float64 { return &r.TransferBPS }),
	nullableFloat64Col("lat_mean_ms", func(r *results.Run) **float64 { return &r.LatMeanMs }),
	nullableFloat64Col("lat_stdev_ms", func(r *results.Run) **float64 { return &r.LatStdevMs }),
	nullableFloat64Col("lat_min_ms", func(r *results.Run) **float64 { return &r.LatMinMs }),
	nullableFloat64Col("lat_max_ms", func(r *results.Run) **float64 { return &r.LatMaxMs }),
	nullableFloat64Col("lat_p50_ms", func(r *results.Run) **float64 { return &r.LatP50Ms }),
	nullableFloat64Col("lat_p90_ms", func(r *results.Run) **float64 { return &r.LatP90Ms }),
	nullableFloat64Col("lat_p99_ms", func(r *results.Run) **float64 { return &r.LatP99Ms }),
	nullableFloat64Col("lat_p999_ms", func(r *results.Run) **float64 { return &r.LatP999Ms }),
	nullableFloat64Col("thread_rps_mean", func(r *results.Run) **float64 { return &r.ThreadRPSMean }),
	nullableFloat64Col("thread_rps_stdev", func(r *results.Run) **float64 { return &r.ThreadRPSStdev }),
	nullableFloat64Col("thread_rps_max", func(r *results.Run) **float64 { return &r.ThreadRPSMax }),
	boolCol("has_samples", func(r *results.Run) *bool { return &r.HasSamples }),
	int32Col("source_line", func(r *results.Run) *int32 { return &r.SourceLine }),
	nullableStringCol("command", func(r *results.Run) **string { return &r.Command }),
	nullableFloat64Col("timeout_s", func(r *results.Run) **float64 { return &r.TimeoutS }),
	nullableStringCol("script", func(r *results.Run) **string { return &r.Script }),
	nullableBoolCol("latency_corrected", func(r *results.Run) **bool { return &r.LatencyCorrected }),
	nullableStringCol("notes", func(r *results.Run) **string { return &r.Notes }),
	nullableFloat64Col("sent_rps", func(r *results.Run) **float64 { return &r.SentRPS }),
	nullableFloat64Col("success_rps", func(r *results.Run) **float64 { return &r.SuccessRPS }),
	nullableStringCol("endpoint", func(r *results.Run) **string { return &r.Endpoint }),
}

var percentileColumns = []column[results.Percentile]{
	stringCol("run_id", func(p *results.Percentile) *string { return &p.RunID }),
	float64Col("quantile", func(p *results.Percentile) *float64 { return &p.Quantile }),
	float64Col("latency_ms", func(p *results.Percentile) *float64 { return &p.LatencyMs }),
	nullableInt64Col("total_count", func(p *results.Percentile) **int64 { return &p.TotalCount }),
}

var seriesColumns = []column[results.Series]{
	stringCol("run_id", func(s *results.Series) *string { return &s.RunID }),
	float64Col("t_s", func(s *results.Series) *float64 { return &s.TS }),
	float64Col("window_s", func(s *results.Series) *float64 { return &s.WindowS }),
	int64Col("requests", func(s *results.Series) *int64 { return &s.Requests }),
	int64Col("errors", func(s *results.Series) *int64 { return &s.Errors }),
	float64Col("rps", func(s *results.Series) *float64 { return &s.RPS }),
	nullableFloat64Col("lat_mean_ms", func(s *results.Series) **float64 { return &s.LatMeanMs }),
	nullableFloat64Col("lat_p50_ms", func(s *results.Series) **float64 { return &s.LatP50Ms }),
	nullableFloat64Col("lat_p99_ms", func(s *results.Series) **float64 { return &s.LatP99Ms }),
	nullableFloat64Col("lat_max_ms", func(s *results.Series) **float64 { return &s.LatMaxMs }),
	nullableFloat64Col("lat_p90_ms", func(s *results.Series) **float64 { return &s.LatP90Ms }),
	nullableStringCol("error_statuses", func(s *results.Series) **string { return &s.ErrorStatuses }),
}

var sampleColumns = []column[results.Sample]{
	stringCol("run_id", func(s *results.Sample) *string { return &s.RunID }),
	float64Col("t_s", func(s *results.Sample) *float64 { return &s.TS }),
	float64Col("latency_ms", func(s *results.Sample) *float64 { return &s.LatencyMs }),
	int32Col("status", func(s *results.Sample) *int32 { return &s.Status }),
	int64Col("bytes_in", func(s *results.Sample) *int64 { return &s.BytesIn }),
	nullableStringCol("error", func(s *results.Sample) **string { return &s.Error }),
}

// RunsSchema is the Arrow schema of the runs table (one row per Run).
var RunsSchema = schemaOf(runColumns)

// PercentilesSchema is the Arrow schema of the percentiles table (one row per Percentile).
var PercentilesSchema = schemaOf(percentileColumns)

// SeriesSchema is the Arrow schema of the series table (one row per Series).
var SeriesSchema = schemaOf(seriesColumns)

// SamplesSchema is the Arrow schema of the samples table (one row per Sample).
var SamplesSchema = schemaOf(sampleColumns)
