package results

import (
	"fmt"
	"math"
	"reflect"
)

// MaxValue bounds every floating-point figure of the tables: each is
// finite and within ±MaxValue (1e15: 31,000 years in milliseconds, a
// petabyte a second). Ingest refuses an input that yields another value
// (CheckValues), so the analysis's sums and squares of up to MaxRuns
// values stay finite and summary.json can encode every figure.
const MaxValue = 1e15

// CheckValues returns an error naming the first float64 or *float64 field
// of row (a Run, Percentile, Series or Sample, by value or pointer) that
// is not finite or is beyond ±MaxValue, nil when there is none.
func CheckValues(row any) error {
	v := reflect.Indirect(reflect.ValueOf(row))
	t := v.Type()
	for i := range t.NumField() {
		f := v.Field(i)
		switch {
		case f.Kind() == reflect.Struct && t.Field(i).Anonymous:
			if err := CheckValues(f.Interface()); err != nil {
				return err
			}
			continue
		case f.Kind() == reflect.Pointer && !f.IsNil() && f.Elem().Kind() == reflect.Float64:
			f = f.Elem()
		case f.Kind() != reflect.Float64:
			continue
		}
		if x := f.Float(); math.IsNaN(x) || math.Abs(x) > MaxValue {
			name := t.Field(i).Tag.Get("json")
			for j := range len(name) {
				if name[j] == ',' {
					name = name[:j]
					break
				}
			}
			return fmt.Errorf("%s = %v: not a finite number within ±%g", name, x, MaxValue)
		}
	}
	return nil
}
