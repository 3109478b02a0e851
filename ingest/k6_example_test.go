package ingest_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

const k6Output = `$ k6 run --vus 80 --duration 10s test.js

  scenarios: (100.00%) 1 scenario, 80 max VUs, 40s max duration (incl. graceful stop):
           * default: 80 looping VUs for 10s (gracefulStop: 30s)

running (10.0s), 00/80 VUs, 43404 complete and 0 interrupted iterations
default ✓ [======================================] 80 VUs  10s

     data_received..................: 76 MB  7.5 MB/s
     http_req_duration..............: avg=18.41ms min=654µs   med=17.22ms max=178.63ms p(90)=30.32ms p(95)=36.32ms
     http_req_failed................: 0.05%  ✓ 21          ✗ 43383
     http_reqs......................: 43404  4334.681688/s
     vus_max........................: 80     min=80        max=80
`

// Example_k6Summary parses the end-of-test summary of `k6 run`: durations
// in Go units become milliseconds, "76 MB" decimal bytes, the failed
// requests are http_req_failed's ✓ count.
func Example_k6Summary() {
	opts := core.Options{Source: "raw/k6/run1.txt"}
	err := ingest.Parse(context.Background(), strings.NewReader(k6Output), opts, core.RunFunc(func(r results.RunWithPercentiles) error {
		fmt.Println(r.Tool, r.LoadModel, r.Label, *r.Connections, *r.PlannedDurationS, r.Requests, r.Errors, r.RPS)
		fmt.Println(*r.LatMinMs, *r.LatP50Ms, *r.LatP90Ms, *r.BytesIn, len(r.Percentiles), *r.Command)
		return nil
	}))
	fmt.Println(err)
	// Output:
	// k6 closed run1 80 10 43404 21 4334.681688
	// 0.654 17.22 30.32 76000000 5 k6 run --vus 80 --duration 10s test.js
	// <nil>
}
