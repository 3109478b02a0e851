package main

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/loadverdict/loadverdict/results/columnar"
	"github.com/parquet-go/parquet-go"
)

// TestParquetReadByAnotherImplementation reads the files `ingest` writes
// with parquet-go, an implementation independent of arrow-go, and checks
// the column names, physical/logical types and nullability of SCHEMA.md.
func TestParquetReadByAnotherImplementation(t *testing.T) {
	dir := t.TempDir()
	if _, errOut, err := runCLI(t, "", "ingest", "--out", dir, seedFile); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	for table, cols := range parquetSchema() {
		p := tableFile(dir, table, "zuul-vs-openresty", seedFile)
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := fh.Stat()
		pf, err := parquet.OpenFile(fh, st.Size())
		if err != nil {
			fh.Close()
			t.Fatalf("parquet-go cannot open %s: %v", filepath.Base(p), err)
		}
		checkParquetColumns(t, table, parquetColumns(pf), cols)
		if table == columnar.TableRuns {
			checkParquetRuns(t, pf)
		}
		fh.Close()
	}
}

// parquetCol is a column as parquet-go reads it.
type parquetCol struct {
	kind     string // parquet physical type
	logical  string // parquet logical type, "" for none
	optional bool
}

// parquetSchema is SCHEMA.md's columns of each table.
func parquetSchema() map[columnar.Table]map[string]parquetCol {
	type col = parquetCol
	str := func(opt bool) col { return col{"BYTE_ARRAY", "STRING", opt} }
	f64 := func(opt bool) col { return col{"DOUBLE", "", opt} }
	i64 := func(opt bool) col { return col{"INT64", "INT(64,true)", opt} }
	i32 := func(opt bool) col { return col{"INT32", "INT(32,true)", opt} }
	return map[columnar.Table]map[string]col{
		columnar.TableRuns: {
			"run_id": str(false), "experiment": str(false), "source": str(false), "index": i32(false), "seq": i32(false),
			"tool": str(false), "load_model": str(false), "label": str(false), "target": str(false),
			"started_at":         {"INT64", "TIMESTAMP(isAdjustedToUTC=true,unit=MICROS)", true},
			"duration_s":         f64(false),
			"planned_duration_s": f64(true), "threads": i32(true), "connections": i32(true), "target_rps": f64(true),
			"requests": i64(false), "errors": i64(false), "non2xx": i64(true), "timeouts": i64(true),
			"connect_errors": i64(true), "read_errors": i64(true), "write_errors": i64(true), "bytes_in": i64(true),
			"rps": f64(false), "transfer_bps": f64(true),
			"lat_mean_ms": f64(true), "lat_stdev_ms": f64(true), "lat_min_ms": f64(true), "lat_max_ms": f64(true),
			"lat_p50_ms": f64(true), "lat_p90_ms": f64(true), "lat_p99_ms": f64(true), "lat_p999_ms": f64(true),
			"thread_rps_mean": f64(true), "thread_rps_stdev": f64(true), "thread_rps_max": f64(true),
			"has_samples": {"BOOLEAN", "", false},
			// columns added to the first SCHEMA.md draft
			"source_line": i32(false), "command": str(true), "timeout_s": f64(true), "script": str(true),
			"latency_corrected": {"BOOLEAN", "", true}, "notes": str(true),
			"sent_rps": f64(true), "success_rps": f64(true), "endpoint": str(true),
		},
		columnar.TablePercentiles: {
			"run_id": str(false), "quantile": f64(false), "latency_ms": f64(false), "total_count": i64(true),
		},
	}
}

// parquetColumns is pf's columns by name, as parquet-go reads them.
func parquetColumns(pf *parquet.File) map[string]parquetCol {
	got := map[string]parquetCol{}
	for _, fld := range pf.Schema().Fields() {
		c := parquetCol{kind: fld.Type().Kind().String(), optional: fld.Optional()}
		if lt := fld.Type().LogicalType(); lt != nil {
			c.logical = lt.String()
		}
		got[fld.Name()] = c
	}
	return got
}

// checkParquetColumns checks table's columns got are the columns want.
func checkParquetColumns(t *testing.T, table columnar.Table, got, want map[string]parquetCol) {
	t.Helper()
	var names []string
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if g, ok := got[n]; !ok {
			t.Errorf("%s: column %q missing", table, n)
		} else if g != want[n] {
			t.Errorf("%s.%s: got %+v, want %+v", table, n, g, want[n])
		}
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			t.Errorf("%s: unexpected column %q (add it to SCHEMA.md and this test)", table, n)
		}
	}
}

// checkParquetRuns checks the runs file pf has the seed's 6 rows, and
// reads them back through parquet-go to check the last run's rps.
func checkParquetRuns(t *testing.T, pf *parquet.File) {
	t.Helper()
	if pf.NumRows() != 6 {
		t.Errorf("runs: %d rows, want 6", pf.NumRows())
	}
	rows := make([]parquet.Row, 6)
	n := 0
	for _, rg := range pf.RowGroups() {
		rr := rg.Rows()
		k, _ := rr.ReadRows(rows[n:])
		rr.Close()
		n += k
	}
	rpsCol := -1
	for i, fld := range pf.Schema().Fields() {
		if fld.Name() == "rps" {
			rpsCol = i
		}
	}
	if n != 6 || rpsCol < 0 {
		t.Fatalf("read %d rows, rps column %d", n, rpsCol)
	}
	var last float64
	rows[5].Range(func(ci int, vs []parquet.Value) bool {
		if ci == rpsCol && len(vs) == 1 {
			last = vs[0].Double()
		}
		return true
	})
	if last != 3737.35 {
		t.Errorf("parquet-go read rps %v for the last run, want 3737.35", last)
	}
}
