package columnar

import (
	"fmt"
	"math"
	"reflect"
	"time"
)

// filled returns a T whose every field, nullable ones included, is set to a
// value distinct from the other fields of the same type; k varies the values
// between rows. New fields of the model are covered without editing tests.
func filled[T any](k int) T {
	var v T
	rv := reflect.ValueOf(&v).Elem()
	for i := range rv.NumField() {
		f := rv.Field(i)
		if f.Kind() == reflect.Pointer {
			f.Set(reflect.New(f.Type().Elem()))
			f = f.Elem()
		}
		fill(f, rv.Type().Field(i).Name, k, i)
	}
	return v
}

var plus2 = time.FixedZone("UTC+2", 2*60*60)

func fill(f reflect.Value, name string, k, n int) {
	switch f.Kind() {
	case reflect.String:
		f.SetString(fmt.Sprintf("%s-%d", name, k))
	case reflect.Int32, reflect.Int64:
		f.SetInt(int64(1000*k + n))
	case reflect.Float64:
		f.SetFloat(float64(k) + float64(n)/64)
	case reflect.Bool:
		f.SetBool((k+n)%2 == 0)
	default:
		if f.Type() != reflect.TypeOf(time.Time{}) {
			panic("fill: unexpected field type " + f.Type().String())
		}
		// Nanosecond precision in a zone other than UTC: read back in UTC.
		t := time.Date(2025, 3, 4, 5, 6, 7, 123456789, plus2).Add(time.Duration(k)*time.Second + time.Duration(n))
		f.Set(reflect.ValueOf(t))
	}
}

// nulled returns filled(k) with every nullable (pointer) field nil.
func nulled[T any](k int) T {
	v := filled[T](k)
	rv := reflect.ValueOf(&v).Elem()
	for i := range rv.NumField() {
		if f := rv.Field(i); f.Kind() == reflect.Pointer {
			f.SetZero()
		}
	}
	return v
}

// diff describes the first difference between want and got, or returns "".
// Floats are equal when both are NaN or their bits are equal (so -0 != +0);
// times are equal when got is want truncated to the microsecond (the
// precision of the tables) and in UTC.
func diff(want, got reflect.Value, path string) string {
	if want.Type() != got.Type() {
		return fmt.Sprintf("%s: type %s, want %s", path, got.Type(), want.Type())
	}
	switch want.Kind() {
	case reflect.Pointer:
		if want.IsNil() || got.IsNil() {
			if want.IsNil() != got.IsNil() {
				return fmt.Sprintf("%s: got %s, want %s", path, show(got), show(want))
			}
			return ""
		}
		return diff(want.Elem(), got.Elem(), path)
	case reflect.Slice:
		if want.Len() != got.Len() {
			return fmt.Sprintf("%s: %d rows, want %d", path, got.Len(), want.Len())
		}
		for i := range want.Len() {
			if d := diff(want.Index(i), got.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Float64:
		w, g := want.Float(), got.Float()
		if (math.IsNaN(w) && math.IsNaN(g)) || math.Float64bits(w) == math.Float64bits(g) {
			return ""
		}
		return fmt.Sprintf("%s: got %v, want %v", path, g, w)
	case reflect.Struct:
		if want.Type() == reflect.TypeOf(time.Time{}) {
			w, g := want.Interface().(time.Time), got.Interface().(time.Time)
			if w = w.Truncate(time.Microsecond); !w.Equal(g) || g.Location() != time.UTC {
				return fmt.Sprintf("%s: got %s, want %s (in UTC, to the microsecond)", path, g.Format(time.RFC3339Nano), w.UTC().Format(time.RFC3339Nano))
			}
			return ""
		}
		for i := range want.NumField() {
			if d := diff(want.Field(i), got.Field(i), path+"."+want.Type().Field(i).Name); d != "" {
				return d
			}
		}
		return ""
	default:
		if !want.Equal(got) {
			return fmt.Sprintf("%s: got %v, want %v", path, got, want)
		}
		return ""
	}
}

func show(v reflect.Value) string {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "nil"
		}
		return fmt.Sprintf("&%v", v.Elem())
	}
	return fmt.Sprint(v)
}
