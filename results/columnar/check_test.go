package columnar

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/loadverdict/loadverdict/results"
)

// checkAndScan returns what CheckSamples and ScanSamples make of b.
func checkAndScan(t *testing.T, b []byte) (checked int64, cerr error, scanned int, serr error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	checked, cerr = CheckSamples(bytes.NewReader(b), mem)
	serr = ScanSamples(bytes.NewReader(b), mem, func(results.Sample) error { scanned++; return nil })
	return checked, cerr, scanned, serr
}

// TestCheckSamples: CheckSamples accepts what ScanSamples reads, with
// the same rows, and refuses what ScanSamples refuses: a page past the
// reader's limit (here lowered, as a 300 MB page of error strings passed
// the real one), a truncated file, another table's file.
func TestCheckSamples(t *testing.T) {
	rows := sampleRows(5000, 3)
	for i := range rows {
		if i%7 == 0 {
			e := strings.Repeat("e", 200+i%300)
			rows[i].Error = &e
		}
	}
	var buf bytes.Buffer
	ss, err := NewSampleStream(&buf, memory.NewGoAllocator(), WithRowGroupRows(1500))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := ss.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := ss.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if c, cerr, s, serr := checkAndScan(t, b); cerr != nil || serr != nil || c != int64(len(rows)) || s != len(rows) {
		t.Fatalf("written file: checked %d rows (%v), scanned %d (%v), want %d", c, cerr, s, serr, len(rows))
	}

	defer func(l int64) { pageLimit = l }(pageLimit)
	pageLimit = 4 << 10 // below the pages of error strings
	if _, cerr, _, serr := checkAndScan(t, b); cerr == nil || serr == nil || !strings.Contains(cerr.Error(), "exceeds configured limit") {
		t.Errorf("page past the limit: check %v, scan %v; want both refused", cerr, serr)
	}
	pageLimit = 0

	if _, cerr, _, serr := checkAndScan(t, b[:len(b)*2/3]); cerr == nil || serr == nil {
		t.Errorf("truncated file: check %v, scan %v; want both refused", cerr, serr)
	}
	var runs bytes.Buffer
	if err := WriteRuns(&runs, []results.Run{{RunID: "r"}}, memory.NewGoAllocator()); err != nil {
		t.Fatal(err)
	}
	if _, cerr, _, serr := checkAndScan(t, runs.Bytes()); cerr == nil || serr == nil {
		t.Errorf("a runs file: check %v, scan %v; want both refused", cerr, serr)
	}
}
