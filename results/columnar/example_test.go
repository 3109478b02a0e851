package columnar_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/loadverdict/loadverdict/results"
	"github.com/loadverdict/loadverdict/results/columnar"
)

// A samples log is streamed into a Parquet file and scanned back one
// record batch at a time; neither side holds the whole table.
func Example() {
	mem := memory.NewGoAllocator()
	runID := results.RunID("raw/exp/wrk.log", 0)

	var file bytes.Buffer
	w, err := columnar.NewSampleStream(&file, mem)
	if err != nil {
		log.Fatal(err)
	}
	for i := range 3 {
		s := results.Sample{RunID: runID, TS: float64(i) * 0.5, LatencyMs: 10 + float64(i), Status: 200, BytesIn: 512}
		if err := w.Append(s); err != nil {
			log.Fatal(err)
		}
	}
	timeout := results.Sample{RunID: runID, TS: 1.5, LatencyMs: 2000, Error: results.Ptr("timeout")}
	if err := w.Append(timeout); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	err = columnar.ScanSamples(bytes.NewReader(file.Bytes()), mem, func(s results.Sample) error {
		errText := "-"
		if s.Error != nil {
			errText = *s.Error
		}
		fmt.Printf("%s t=%.1fs %gms status=%d bytes=%d error=%s\n", s.RunID, s.TS, s.LatencyMs, s.Status, s.BytesIn, errText)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// 03f092e7bb1aeca4 t=0.0s 10ms status=200 bytes=512 error=-
	// 03f092e7bb1aeca4 t=0.5s 11ms status=200 bytes=512 error=-
	// 03f092e7bb1aeca4 t=1.0s 12ms status=200 bytes=512 error=-
	// 03f092e7bb1aeca4 t=1.5s 2000ms status=0 bytes=0 error=timeout
}
