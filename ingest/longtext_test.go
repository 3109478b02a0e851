package ingest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
)

// TestLongErrorsCapped: a sample's error longer than core.MaxText is
// stored capped (its first bytes, core.CapMark and a hash of the whole):
// errors that differ only past the cap stay distinct, the run's notes say
// so, and a short error is kept as it is; in every per-request format
// that keeps an error string, for sizes around the cap up to a line of
// almost core.MaxLine (a poison upload held 300 errors of 1 MB).
func TestLongErrorsCapped(t *testing.T) {
	formats := map[string]func(i int, e string) string{
		"vegeta.json": func(i int, e string) string {
			return fmt.Sprintf(`{"attack":"a","seq":%d,"code":0,"timestamp":"2024-05-01T12:00:00.%06dZ","latency":5000000,"bytes_out":0,"bytes_in":0,"error":%q,"body":null,"method":"GET","url":"http://h:8080/x","headers":null}`+"\n", i, i, e)
		},
		"vegeta.csv": func(i int, e string) string {
			return fmt.Sprintf("%d,0,5000000,0,0,%q,,a,%d,GET,http://h:8080/x,\n", 1714564800000000000+i*1000, e, i)
		},
		"results.jtl": func(i int, e string) string {
			h := ""
			if i == 0 {
				h = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,failureMessage,bytes,URL\n"
			}
			return h + fmt.Sprintf("%d,5,x,500,Error,T 1-1,false,%q,10,http://h/x\n", 1400000000000+i, e)
		},
	}
	for _, size := range []int{10, core.MaxText, core.MaxText + 1, 5000, 1_000_000} {
		for name, line := range formats {
			var in strings.Builder
			var errs []string
			for i := range 3 {
				e := fmt.Sprintf("%s%04d", strings.Repeat("e", size-4), i)
				if i == 2 {
					e = "short"
				}
				errs = append(errs, e)
				in.WriteString(line(i, e))
			}
			var c ingesttest.Collect
			err := Parse(context.Background(), strings.NewReader(in.String()), Options{Source: name, Experiment: "e"}, &c)
			if err != nil || len(c.Samples) != 3 || len(c.Runs) != 1 {
				t.Fatalf("%s, %d bytes: %d samples, %d runs, err %v", name, size, len(c.Samples), len(c.Runs), err)
			}
			seen := map[string]bool{}
			for _, s := range c.Samples {
				e := ingesttest.PtrString(s.Error)
				if len(e) > core.MaxText || seen[e] {
					t.Errorf("%s, %d bytes: error of %d bytes, seen before: %v", name, size, len(e), seen[e])
				}
				seen[e] = true
			}
			long := len(errs[0]) > core.MaxText
			if !seen["short"] || seen[errs[0]] == long {
				t.Errorf("%s, %d bytes: errors %v", name, size, seen)
			}
			if noted := strings.Contains(ingesttest.PtrString(c.Runs[0].Notes), core.CappedNote+"samples' error"); noted != long {
				t.Errorf("%s, %d bytes: notes %q", name, size, ingesttest.PtrString(c.Runs[0].Notes))
			}
		}
	}
}
