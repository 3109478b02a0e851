package ingest_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/results"
)

// A JMeter CSV results file (JTL) with a header: one run per system under
// test (the URL's host:port) and sampler label (its endpoint), a
// transaction controller's sample skipped, connections from the thread
// counts.
func ExampleParse_jmeter() {
	const jtl = `timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect
1700000000000,12,home,200,OK,Users 1-1,text,true,,1024,120,2,2,http://localhost:8080/,11,0,3
1700000000005,30,search,500,Internal Server Error,Users 1-2,text,false,,512,130,2,2,http://localhost:8080/search?q=x,29,0,2
1700000000040,0,search,Non HTTP response code: java.net.ConnectException,Non HTTP response message: Connection refused,Users 1-2,text,false,,0,0,2,2,http://localhost:8080/search?q=y,0,0,0
1700000000000,42,journey,200,"Number of samples in transaction : 2, number of failing samples : 1",Users 1-2,,false,,1536,250,2,2,null,0,0,0
`
	opts := core.Options{Source: "raw/demo/results.jtl", Experiment: "demo"}
	err := ingest.Parse(context.Background(), strings.NewReader(jtl), opts, core.RunFunc(func(r results.RunWithPercentiles) error {
		fmt.Println(r.Tool, r.LoadModel, r.Label, *r.Endpoint, r.Target, *r.Connections)
		fmt.Println(r.Requests, r.Errors, *r.Non2xx, *r.LatMeanMs, r.DurationS, r.StartedAt.UnixMilli())
		fmt.Println(*r.Notes)
		return nil
	}))
	fmt.Println(err)
	// Output:
	// jmeter closed localhost:8080 home http://localhost:8080 2
	// 1 0 0 12 0.012 1700000000000
	// 1 transaction controller samples skipped: they total requests counted one by one
	// jmeter closed localhost:8080 search http://localhost:8080 2
	// 2 2 1 15 0.035 1700000000005
	// 1 transaction controller samples skipped: they total requests counted one by one
	// <nil>
}
