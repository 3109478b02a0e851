package columnar

import (
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/loadverdict/loadverdict/results"
)

// contractColumn is one column of SCHEMA.md as users' queries see it.
type contractColumn struct {
	name     string
	typ      arrow.DataType
	nullable bool
}

// contract is SCHEMA.md, hard-coded: names, order, types and nullability of
// the columns of every table. Changing it breaks users; adding columns at
// the end of a table is fine.
func contract() map[Table][]contractColumn {
	var (
		str   = arrow.BinaryTypes.String
		i32   = arrow.PrimitiveTypes.Int32
		i64   = arrow.PrimitiveTypes.Int64
		f64   = arrow.PrimitiveTypes.Float64
		boo   = arrow.FixedWidthTypes.Boolean
		tsUTC = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	)
	return map[Table][]contractColumn{
		TableRuns: {
			{"run_id", str, false},
			{"experiment", str, false},
			{"source", str, false},
			{"index", i32, false},
			{"seq", i32, false},
			{"tool", str, false},
			{"load_model", str, false},
			{"label", str, false},
			{"target", str, false},
			{"started_at", tsUTC, true},
			{"duration_s", f64, false},
			{"planned_duration_s", f64, true},
			{"threads", i32, true},
			{"connections", i32, true},
			{"target_rps", f64, true},
			{"requests", i64, false},
			{"errors", i64, false},
			{"non2xx", i64, true},
			{"timeouts", i64, true},
			{"connect_errors", i64, true},
			{"read_errors", i64, true},
			{"write_errors", i64, true},
			{"bytes_in", i64, true},
			{"rps", f64, false},
			{"transfer_bps", f64, true},
			{"lat_mean_ms", f64, true},
			{"lat_stdev_ms", f64, true},
			{"lat_min_ms", f64, true},
			{"lat_max_ms", f64, true},
			{"lat_p50_ms", f64, true},
			{"lat_p90_ms", f64, true},
			{"lat_p99_ms", f64, true},
			{"lat_p999_ms", f64, true},
			{"thread_rps_mean", f64, true},
			{"thread_rps_stdev", f64, true},
			{"thread_rps_max", f64, true},
			{"has_samples", boo, false},
			{"source_line", i32, false},
			{"command", str, true},
			{"timeout_s", f64, true},
			{"script", str, true},
			{"latency_corrected", boo, true},
			{"notes", str, true},
			{"sent_rps", f64, true},
			{"success_rps", f64, true},
			{"endpoint", str, true},
		},
		TablePercentiles: {
			{"run_id", str, false},
			{"quantile", f64, false},
			{"latency_ms", f64, false},
			{"total_count", i64, true},
		},
		TableSeries: {
			{"run_id", str, false},
			{"t_s", f64, false},
			{"window_s", f64, false},
			{"requests", i64, false},
			{"errors", i64, false},
			{"rps", f64, false},
			{"lat_mean_ms", f64, true},
			{"lat_p50_ms", f64, true},
			{"lat_p99_ms", f64, true},
			{"lat_max_ms", f64, true},
			{"lat_p90_ms", f64, true},
			{"error_statuses", str, true},
		},
		TableSamples: {
			{"run_id", str, false},
			{"t_s", f64, false},
			{"latency_ms", f64, false},
			{"status", i32, false},
			{"bytes_in", i64, false},
			{"error", str, true},
		},
	}
}

func TestSchemasMatchContract(t *testing.T) {
	want := contract()
	if got := Tables(); len(got) != len(want) {
		t.Fatalf("Tables() = %v, want %d tables", got, len(want))
	}
	for _, table := range Tables() {
		t.Run(string(table), func(t *testing.T) {
			cols, ok := want[table]
			if !ok {
				t.Fatalf("table %q is not in the contract", table)
			}
			s := table.Schema()
			if s == nil {
				t.Fatal("Schema() = nil")
			}
			if s.NumFields() != len(cols) {
				t.Errorf("%d columns, want %d", s.NumFields(), len(cols))
			}
			for i, c := range cols {
				if i >= s.NumFields() {
					t.Errorf("column %d %q missing", i, c.name)
					continue
				}
				f := s.Field(i)
				if f.Name != c.name || !arrow.TypeEqual(f.Type, c.typ) || f.Nullable != c.nullable {
					t.Errorf("column %d = %s %s nullable=%v, want %s %s nullable=%v",
						i, f.Name, f.Type, f.Nullable, c.name, c.typ, c.nullable)
				}
			}
			if v, ok := s.Metadata().GetValue(SchemaVersionKey); !ok || v != "2" {
				t.Errorf("metadata %s = %q (present %v), want \"1\"", SchemaVersionKey, v, ok)
			}
		})
	}
	if s := Table("nope").Schema(); s != nil {
		t.Errorf(`Table("nope").Schema() = %v, want nil`, s)
	}
	for table, s := range map[Table]*arrow.Schema{
		TableRuns: RunsSchema, TablePercentiles: PercentilesSchema, TableSeries: SeriesSchema, TableSamples: SamplesSchema,
	} {
		if table.Schema() != s {
			t.Errorf("%s.Schema() is not the exported schema variable", table)
		}
	}
}

// jsonName returns the column name a struct field stands for: its JSON key
// (Percentile.RunID, hidden from JSON, is the run_id column).
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" && f.Name == "RunID" {
		return "run_id"
	}
	return name
}

// TestColumnsMatchModel checks that every column holds the Go field whose
// JSON key is the column's name, and that every field has a column: a
// round trip cannot see two swapped columns, this test does.
func TestColumnsMatchModel(t *testing.T) {
	t.Run("runs", func(t *testing.T) { checkColumnsMatchModel(t, NewRunsBuilder, filled[results.Run](1)) })
	t.Run("percentiles", func(t *testing.T) { checkColumnsMatchModel(t, NewPercentilesBuilder, filled[results.Percentile](1)) })
	t.Run("series", func(t *testing.T) { checkColumnsMatchModel(t, NewSeriesBuilder, filled[results.Series](1)) })
	t.Run("samples", func(t *testing.T) { checkColumnsMatchModel(t, NewSamplesBuilder, filled[results.Sample](1)) })
}

func checkColumnsMatchModel[T any](t *testing.T, newB func(memory.Allocator, int) *Builder[T], row T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	b := newB(mem, 0)
	defer b.Release()
	if err := b.Append(row); err != nil {
		t.Fatal(err)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()

	rv := reflect.ValueOf(row)
	fields := map[string]reflect.Value{}
	for i := range rv.NumField() {
		fields[jsonName(rv.Type().Field(i))] = rv.Field(i)
	}
	for i, f := range rec.Schema().Fields() {
		fv, ok := fields[f.Name]
		if !ok {
			t.Errorf("column %q: no field of %T has this JSON key", f.Name, row)
			continue
		}
		delete(fields, f.Name)
		got := arrowValue(t, rec.Column(i), 0)
		want := reflect.Indirect(fv).Interface()
		if d := diff(reflect.ValueOf(want), reflect.ValueOf(got), f.Name); d != "" {
			t.Error(d)
		}
	}
	for name := range fields {
		t.Errorf("field with JSON key %q has no column", name)
	}
}

// arrowValue returns the i-th value of a, a column of one of our types, as
// the Go value of the model.
func arrowValue(t *testing.T, a arrow.Array, i int) any {
	t.Helper()
	switch a := a.(type) {
	case *array.String:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.Boolean:
		return a.Value(i)
	case *array.Timestamp:
		return a.Value(i).ToTime(a.DataType().(*arrow.TimestampType).Unit).UTC()
	}
	t.Fatalf("unexpected array type %s", a.DataType())
	return nil
}
