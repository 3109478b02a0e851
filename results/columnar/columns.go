package columnar

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// column maps one field of the Go row type T to one Arrow column: its
// schema field, how to append the Go value to the column's builder, and how
// to read it back. A table is a list of columns; its schema is derived from
// that list (schemaOf), so names, types and Go fields are written once.
type column[T any] struct {
	field arrow.Field
	// appender binds a builder of field.Type and returns a function that
	// appends the field of row to it.
	appender func(b array.Builder) func(row *T)
	// reader binds an array of field.Type and returns a function that sets
	// the field of row from the array's i-th value.
	reader func(a arrow.Array) func(i int, row *T)
	// check, when set, rejects values the column cannot represent; it runs
	// before any column of the row is appended.
	check func(row *T) error
}

// schemaOf returns the schema of a table made of cols.
func schemaOf[T any](cols []column[T]) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = c.field
	}
	md := arrow.NewMetadata([]string{SchemaVersionKey}, []string{SchemaVersion})
	return arrow.NewSchema(fields, &md)
}

type valueBuilder[V any] interface {
	Append(V)
	AppendNull()
}

type valueArray[V any] interface {
	IsNull(i int) bool
	Value(i int) V
}

// primitiveCol is a non-nullable column of a fixed-width type whose builder
// B and array A hold Go values of type V.
func primitiveCol[T, V any, B valueBuilder[V], A valueArray[V]](name string, typ arrow.DataType, get func(*T) *V) column[T] {
	return column[T]{
		field: notNull(name, typ),
		appender: func(b array.Builder) func(*T) {
			vb := b.(B)
			return func(row *T) { vb.Append(*get(row)) }
		},
		reader: func(a arrow.Array) func(int, *T) {
			va := a.(A)
			return func(i int, row *T) { *get(row) = va.Value(i) }
		},
	}
}

// nullablePrimitiveCol is primitiveCol for a nullable column held in a
// pointer field: nil is null.
func nullablePrimitiveCol[T, V any, B valueBuilder[V], A valueArray[V]](name string, typ arrow.DataType, get func(*T) **V) column[T] {
	return column[T]{
		field: nullable(name, typ),
		appender: func(b array.Builder) func(*T) {
			vb := b.(B)
			return func(row *T) {
				if p := *get(row); p != nil {
					vb.Append(*p)
				} else {
					vb.AppendNull()
				}
			}
		},
		reader: func(a arrow.Array) func(int, *T) {
			va := a.(A)
			return func(i int, row *T) {
				if va.IsNull(i) {
					*get(row) = nil
					return
				}
				v := va.Value(i)
				*get(row) = &v
			}
		},
	}
}

func int32Col[T any](name string, get func(*T) *int32) column[T] {
	return primitiveCol[T, int32, *array.Int32Builder, *array.Int32](name, tInt32, get)
}

func nullableInt32Col[T any](name string, get func(*T) **int32) column[T] {
	return nullablePrimitiveCol[T, int32, *array.Int32Builder, *array.Int32](name, tInt32, get)
}

func int64Col[T any](name string, get func(*T) *int64) column[T] {
	return primitiveCol[T, int64, *array.Int64Builder, *array.Int64](name, tInt64, get)
}

func nullableInt64Col[T any](name string, get func(*T) **int64) column[T] {
	return nullablePrimitiveCol[T, int64, *array.Int64Builder, *array.Int64](name, tInt64, get)
}

func float64Col[T any](name string, get func(*T) *float64) column[T] {
	return primitiveCol[T, float64, *array.Float64Builder, *array.Float64](name, tFloat64, get)
}

func nullableFloat64Col[T any](name string, get func(*T) **float64) column[T] {
	return nullablePrimitiveCol[T, float64, *array.Float64Builder, *array.Float64](name, tFloat64, get)
}

func boolCol[T any](name string, get func(*T) *bool) column[T] {
	return primitiveCol[T, bool, *array.BooleanBuilder, *array.Boolean](name, tBool, get)
}

func nullableBoolCol[T any](name string, get func(*T) **bool) column[T] {
	return nullablePrimitiveCol[T, bool, *array.BooleanBuilder, *array.Boolean](name, tBool, get)
}

// lastString returns a heap copy of a string read from an Arrow array
// (whose bytes belong to the array's buffer), reusing the previous copy
// while consecutive values are equal, as run_id is in every table.
type lastString struct{ s string }

func (c *lastString) copyOf(v string) string {
	if v != c.s {
		c.s = strings.Clone(v)
	}
	return c.s
}

func stringCol[T any](name string, get func(*T) *string) column[T] {
	return column[T]{
		field: notNull(name, tString),
		appender: func(b array.Builder) func(*T) {
			sb := b.(*array.StringBuilder)
			return func(row *T) { sb.Append(*get(row)) }
		},
		reader: func(a arrow.Array) func(int, *T) {
			sa := a.(*array.String)
			var last lastString
			return func(i int, row *T) { *get(row) = last.copyOf(sa.Value(i)) }
		},
	}
}

func nullableStringCol[T any](name string, get func(*T) **string) column[T] {
	return column[T]{
		field: nullable(name, tString),
		appender: func(b array.Builder) func(*T) {
			sb := b.(*array.StringBuilder)
			return func(row *T) {
				if p := *get(row); p != nil {
					sb.Append(*p)
				} else {
					sb.AppendNull()
				}
			}
		},
		reader: func(a arrow.Array) func(int, *T) {
			sa := a.(*array.String)
			var last lastString
			return func(i int, row *T) {
				if sa.IsNull(i) {
					*get(row) = nil
					return
				}
				v := last.copyOf(sa.Value(i))
				*get(row) = &v
			}
		},
	}
}

// Bounds of a timestamp[us] column: microseconds since the epoch in an
// int64, about 292,000 years either side of 1970.
var (
	minTimestamp = time.UnixMicro(math.MinInt64)
	maxTimestamp = time.UnixMicro(math.MaxInt64)
)

// nullableTimeCol is a nullable timestamp[us, UTC] column (Parquet
// TIMESTAMP(MICROS, UTC), which Athena, Spark and DuckDB read); values are
// truncated to the microsecond and read back in UTC. Files of schema
// version 1 hold timestamp[ns]: the reader takes any unit.
func nullableTimeCol[T any](name string, get func(*T) **time.Time) column[T] {
	return column[T]{
		field: nullable(name, tTimestamp),
		appender: func(b array.Builder) func(*T) {
			tb := b.(*array.TimestampBuilder)
			return func(row *T) {
				if p := *get(row); p != nil {
					tb.Append(arrow.Timestamp(p.UnixMicro()))
				} else {
					tb.AppendNull()
				}
			}
		},
		reader: func(a arrow.Array) func(int, *T) {
			ta := a.(*array.Timestamp)
			unit := ta.DataType().(*arrow.TimestampType).Unit
			return func(i int, row *T) {
				if ta.IsNull(i) {
					*get(row) = nil
					return
				}
				t := ta.Value(i).ToTime(unit).UTC()
				*get(row) = &t
			}
		},
		check: func(row *T) error {
			if p := *get(row); p != nil && (p.Before(minTimestamp) || p.After(maxTimestamp)) {
				return fmt.Errorf("results: column %s: time %s outside the microsecond timestamp range", name, p.Format(time.RFC3339Nano))
			}
			return nil
		},
	}
}
