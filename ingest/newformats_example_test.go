package ingest_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// h2loadOutput is h2load/testdata/h2load/real-h1.txt, real h2load 1.52.0 output
// after the command line that ran it, with its progress lines cut.
const h2loadOutput = `$ h2load --h1 -c 4 -n 2000 http://127.0.0.1:19320/ok
starting benchmark...
spawning thread #0: 4 total client(s). 2000 total requests
Application protocol: http/1.1
progress: 100% done

finished in 91.06ms, 21963.30 req/s, 2.72MB/s
requests: 2000 total, 2000 started, 2000 done, 2000 succeeded, 0 failed, 0 errored, 0 timeout
status codes: 2000 2xx, 0 3xx, 0 4xx, 0 5xx
traffic: 253.91KB (260000) total, 167.97KB (172000) headers (space savings 0.00%), 25.39KB (26000) data
                     min         max         mean         sd        +/- sd
time for request:       21us      8.10ms       177us       378us    97.65%
time for connect:      615us       914us       737us       129us    75.00%
time to 1st byte:     1.62ms      2.05ms      1.80ms       194us    75.00%
req/s           :    5519.36     5614.13     5566.29       52.22   100.00%
`

// Example_h2load parses an h2load summary: milliseconds, seconds and
// bytes as SCHEMA.md says, whatever units h2load printed.
func Example_h2load() {
	opts := core.Options{Source: "runs/h2load.txt"}
	err := ingest.Parse(context.Background(), strings.NewReader(h2loadOutput), opts, core.RunFunc(func(r results.RunWithPercentiles) error {
		fmt.Println(r.Tool, r.Label, *r.Connections, r.Requests, r.Errors, r.RPS, r.DurationS, *r.LatMeanMs, *r.LatMaxMs, *r.BytesIn)
		return nil
	}))
	fmt.Println(err)
	// Output:
	// h2load 127.0.0.1:19320 4 2000 0 21963.3 0.09106 0.177 8.1 260000
	// <nil>
}
