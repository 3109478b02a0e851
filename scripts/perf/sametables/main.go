// Command sametables compares Parquet table files by content, for
// sameoutput.sh: each argument pair A B is two files of the same table
// (told by the folder tables/<table>/ in A's path); they are the same when
// they read back (columnar.Read*) as the same rows and carry the same
// key-value metadata (the Arrow schema, the schema version). Their bytes
// may differ: a writer may cut pages differently.
//
//	go run ./scripts/perf/sametables A1 B1 [A2 B2 ...]
//
// It prints one line per pair that differs and exits 1 if any does.
package main

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"regexp"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/loadverdict/loadverdict/results/columnar"
)

var tableOf = regexp.MustCompile(`(^|/)tables/([a-z]+)/`)

func main() {
	args := os.Args[1:]
	if len(args) == 0 || len(args)%2 != 0 {
		fmt.Fprintln(os.Stderr, "usage: sametables A1 B1 [A2 B2 ...]")
		os.Exit(2)
	}
	status := 0
	for i := 0; i < len(args); i += 2 {
		if msg := compare(args[i], args[i+1]); msg != "" {
			fmt.Printf("%s %s: %s\n", args[i], args[i+1], msg)
			status = 1
		}
	}
	os.Exit(status)
}

// compare returns how a and b differ, or "".
func compare(a, b string) string {
	m := tableOf.FindStringSubmatch(a)
	if m == nil {
		return "no tables/<table>/ in the path"
	}
	ra, ma, err := read(columnar.Table(m[2]), a)
	if err != nil {
		return err.Error()
	}
	rb, mb, err := read(columnar.Table(m[2]), b)
	if err != nil {
		return err.Error()
	}
	if !reflect.DeepEqual(ma, mb) {
		return "key-value metadata differs"
	}
	va, vb := reflect.ValueOf(ra), reflect.ValueOf(rb)
	if va.Len() != vb.Len() {
		return fmt.Sprintf("%d rows vs %d", va.Len(), vb.Len())
	}
	for i := range va.Len() {
		if !same(va.Index(i), vb.Index(i)) {
			return fmt.Sprintf("row %d: %+v vs %+v", i, va.Index(i).Interface(), vb.Index(i).Interface())
		}
	}
	return ""
}

// same compares two rows field by field; floats by their bits.
func same(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return same(a.Elem(), b.Elem())
	case reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Struct:
		if a.Type().String() == "time.Time" {
			return reflect.DeepEqual(a.Interface(), b.Interface())
		}
		for i := range a.NumField() {
			if !same(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// read returns the rows and the key-value metadata of a file of table t.
func read(t columnar.Table, name string) (any, map[string]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	mem := memory.NewGoAllocator()
	var rows any
	switch t {
	case columnar.TableRuns:
		rows, err = columnar.ReadRuns(f, mem)
	case columnar.TablePercentiles:
		rows, err = columnar.ReadPercentiles(f, mem)
	case columnar.TableSeries:
		rows, err = columnar.ReadSeries(f, mem)
	case columnar.TableSamples:
		rows, err = columnar.ReadSamples(f, mem)
	default:
		return nil, nil, fmt.Errorf("unknown table %q", t)
	}
	if err != nil {
		return nil, nil, err
	}
	pf, err := file.NewParquetReader(f, file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		return nil, nil, err
	}
	defer pf.Close()
	kv := map[string]string{}
	for _, k := range pf.MetaData().KeyValueMetadata().Keys() {
		kv[k] = *pf.MetaData().KeyValueMetadata().FindValue(k)
	}
	return rows, kv, nil
}
