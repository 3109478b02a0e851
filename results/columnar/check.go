package columnar

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// CheckSamples checks that a samples file passes what ScanSamples checks
// before it decodes a value, and returns its rows: the footer, the schema
// (the same check as ScanSamples'), and every page of every column chunk
// through the reader's own page reader, which enforces its limits (the
// page header's size, the compressed and uncompressed page sizes) and
// decompresses each page, the dictionary pages too. A file it accepts
// holding rows rows is one ScanSamples reads (their values are decoded
// from pages of the sizes checked); it costs a fraction of a scan, as no
// value is decoded into a row. Each column chunk must hold the rows of
// its row group.
func CheckSamples(r parquet.ReaderAtSeeker, mem memory.Allocator) (int64, error) {
	pf, err := file.NewParquetReader(noCloseReader{r}, file.WithReadProps(readerProperties(mem)))
	if err != nil {
		return 0, fmt.Errorf("results: read %s: %w", TableSamples, err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: readBatchRows}, mem)
	if err != nil {
		return 0, fmt.Errorf("results: read %s: %w", TableSamples, err)
	}
	leaves, err := checkFileSchema(fr, TableSamples, sampleColumns)
	if err != nil {
		return 0, err
	}
	var rows int64
	for g := range pf.NumRowGroups() {
		rg := pf.RowGroup(g)
		for _, l := range leaves {
			if l < 0 {
				continue
			}
			if err := checkPages(rg, l); err != nil {
				return rows, err
			}
		}
		rows += rg.NumRows()
	}
	return rows, nil
}

// checkPages reads every page of column chunk col of row group rg and
// checks that its data pages hold the group's rows.
func checkPages(rg *file.RowGroupReader, col int) error {
	pr, err := rg.GetColumnPageReader(col)
	if err != nil {
		return fmt.Errorf("results: read %s: %w", TableSamples, err)
	}
	defer pr.Close()
	var values int64
	for pr.Next() {
		if p := pr.Page(); p.Type() == file.PageTypeDataPage || p.Type() == file.PageTypeDataPageV2 {
			values += int64(p.NumValues())
		}
	}
	if err := pr.Err(); err != nil {
		return fmt.Errorf("results: read %s: column %d: %w", TableSamples, col, err)
	}
	if values != rg.NumRows() {
		return fmt.Errorf("results: read %s: column %d holds %d values of %d rows", TableSamples, col, values, rg.NumRows())
	}
	return nil
}
