package ingest_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

const vegetaOutput = `$ echo "GET http://localhost:8080/" | vegeta attack -rate=50 -duration=2s | vegeta report
Requests      [total, rate, throughput]         100, 50.51, 40.40
Duration      [total, attack, wait]             1.98s, 1.98s, 420.167µs
Latencies     [min, mean, 50, 90, 95, 99, max]  345.526µs, 646.714µs, 506.205µs, 867.424µs, 1.312ms, 3.502ms, 4.149ms
Bytes In      [total, mean]                     1300, 13.00
Bytes Out     [total, mean]                     0, 0.00
Success       [ratio]                           80.00%
Status Codes  [code:count]                      200:80  500:20
Error Set:
500 Internal Server Error
`

func ExampleParse_vegeta() {
	opts := core.Options{Source: "raw/demo/vegeta.txt", Experiment: "demo"}
	err := ingest.Parse(context.Background(), strings.NewReader(vegetaOutput), opts, core.RunFunc(func(r results.RunWithPercentiles) error {
		fmt.Println(r.Tool, r.LoadModel, r.Label, *r.TargetRPS, *r.PlannedDurationS, r.DurationS)
		fmt.Println(r.Requests, r.RPS, r.Errors, *r.Non2xx, *r.LatP50Ms, *r.LatP99Ms)
		fmt.Println(*r.Notes)
		return nil
	}))
	fmt.Println(err)
	// Output:
	// vegeta open localhost:8080 50 2 1.98
	// 100 40.4 20 20 0.506205 3.502
	// 1 distinct error(s): 500 Internal Server Error
	// <nil>
}
