package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

const wrkOutput = `$ wrk -t2 -c10 -d1s --latency http://localhost:8080/
Running 1s test @ http://localhost:8080/
  2 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   743.53us    1.36ms  13.85ms   88.42%
    Req/Sec    23.57k     6.60k   34.86k    70.00%
  Latency Distribution
     50%   99.00us
     75%    0.85ms
     90%    2.34ms
     99%    6.74ms
  47061 requests in 1.01s, 5.83MB read
Requests/sec:  46716.98
Transfer/sec:      5.79MB
`

// Example_detect shows detection: the first of Parsers that recognizes
// the head of the input, as Parse picks it.
func Example_detect() {
	p, err := core.DetectIn(ingest.Parsers(), []byte("Some prose first.\n"+wrkOutput))
	fmt.Println(p.Name(), err)
	_, err = core.DetectIn(ingest.Parsers(), []byte("Running 10s test @ http://localhost:3000\n10 connections\n"))
	fmt.Println(errors.Is(err, core.ErrNoOutput), err)
	// Output:
	// wrk <nil>
	// true input: not output of a known load generator (starts with "Running 10s test @ http://localhost:3000"); 'loadverdict formats' lists the formats read
}

func ExampleParse() {
	opts := core.Options{Source: "raw/demo/run.txt", Experiment: "demo"}
	err := ingest.Parse(context.Background(), strings.NewReader(wrkOutput), opts, core.RunFunc(func(r results.RunWithPercentiles) error {
		fmt.Println(r.Tool, r.Label, *r.Threads, *r.Connections, r.Requests, r.RPS, *r.LatP99Ms, r.Errors)
		fmt.Println(r.RunID == results.RunID("raw/demo/run.txt", 0), r.SourceLine, *r.Command)
		return nil
	}))
	fmt.Println(err)
	// Output:
	// wrk localhost:8080 2 10 47061 46716.98 6.74 0
	// true 1 wrk -t2 -c10 -d1s --latency http://localhost:8080/
	// <nil>
}
