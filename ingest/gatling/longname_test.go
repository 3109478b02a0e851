package gatling

import (
	"context"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestGatlingLongNamesStayApart: two requests whose names share their
// first 200 bytes (once cut there and merged into one endpoint) or more
// than core.MaxText stay two runs, a long name capped with a hash.
func TestGatlingLongNamesStayApart(t *testing.T) {
	for _, n := range []int{199, 200, 300, core.MaxText, 5000} {
		prefix := strings.Repeat("n", n)
		in := "RUN\tsim\tsim\t1400000000000\t \t3.9.5\n"
		for i, ms := range []string{"5", "50", "5", "50"} {
			name := prefix + []string{"A", "B"}[i%2]
			in += "REQUEST\t\t" + name + "\t1400000000100\t" + map[string]string{"5": "1400000000105", "50": "1400000000150"}[ms] + "\tOK\t \n"
		}
		var c ingesttest.Collect
		err := core.ParseWith(context.Background(), []core.Parser{LogParser{}}, strings.NewReader(in), core.Options{Source: "simulation.log"}, &c)
		if err != nil || len(c.Runs) != 2 {
			t.Fatalf("%d bytes: %d runs, %v", n, len(c.Runs), err)
		}
		for i, r := range c.Runs {
			if r.LatMeanMs == nil || *r.LatMeanMs != []float64{5, 50}[i] || len(ingesttest.PtrString(r.Endpoint)) > core.MaxText {
				t.Errorf("%d bytes: run %d: mean %v, endpoint %q", n, i, r.LatMeanMs, ingesttest.PtrString(r.Endpoint))
			}
		}
	}
}
