package ingest_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// heyOutput is real hey 0.1.5 output (histogram and details cut short)
// after the command line that ran it.
const heyOutput = `$ hey -n 2000 -c 10 http://127.0.0.1:19100/mixed?every=3

Summary:
  Total:	0.0775 secs
  Slowest:	0.0095 secs
  Fastest:	0.0000 secs
  Average:	0.0003 secs
  Requests/sec:	25795.9678
  
  Total data:	26000 bytes
  Size/request:	13 bytes

Latency distribution:
  10%% in 0.0001 secs
  25%% in 0.0001 secs
  50%% in 0.0002 secs
  75%% in 0.0003 secs
  90%% in 0.0005 secs
  95%% in 0.0008 secs
  99%% in 0.0043 secs

Status code distribution:
  [200]	1334 responses
  [500]	666 responses
`

func Example_hey() {
	opts := core.Options{Source: "runs/hey.txt"}
	err := ingest.Parse(context.Background(), strings.NewReader(heyOutput), opts, core.RunFunc(func(r results.RunWithPercentiles) error {
		fmt.Println(r.Tool, r.Label, *r.Connections, r.Requests, r.Errors, r.RPS, r.DurationS, *r.LatP99Ms)
		return nil
	}))
	fmt.Println(err)
	// Output:
	// hey 127.0.0.1:19100 10 2000 666 25795.9678 0.0775 4.3
	// <nil>
}
