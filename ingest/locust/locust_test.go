package locust

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/results"
)

func TestLocustStats(t *testing.T) {
	runs, err := ingesttest.ParseFile(t, parse, "testdata/locust/bitcoin-api_stats.csv")
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	r := runs[0]
	if r.Tool != "locust" || r.LoadModel != results.LoadClosed || r.Target != "" || r.Label != "bitcoin-api_stats" ||
		r.Requests != 2210 || r.Errors != 1607 || r.RPS != 37.30488469320527 || math.Abs(r.DurationS-2210/37.30488469320527) > 1e-9 ||
		*r.BytesIn != int64(math.Round(2210*162.21764705882353)) || *r.LatMeanMs != 50.184648958923994 || *r.LatP50Ms != 3 ||
		*r.LatP99Ms != 2000 || *r.LatP999Ms != 2100 || r.Connections != nil || r.SourceLine != 10 {
		t.Errorf("%+v", r.Run)
	}
	// min and max are exact; Locust's "100%" (2200) is rounded.
	if p := r.Percentiles; p[0].Quantile != 0 || p[0].LatencyMs != 2.5905000511556864 || p[len(p)-1].Quantile != 1 || p[len(p)-1].LatencyMs != 2160.2996999863535 {
		t.Errorf("percentiles %+v", p)
	}
	if !strings.Contains(*r.Notes, "GET /api/v1/health (n=573, median 4 ms)") {
		t.Errorf("notes %s", *r.Notes)
	}

	runs, err = ingesttest.ParseFile(t, parse, "testdata/locust/example_requests.csv")
	if err != nil || len(runs) != 1 || runs[0].Requests != 109 || runs[0].Errors != 56 || runs[0].RPS != 1.89 || *runs[0].LatP50Ms != 3 {
		t.Errorf("0.x requests.csv: %+v %v", runs, err)
	}

	// Locust 0.14-0.x: "# requests" columns, "Requests Failed/s", quoted header.
	v014 := `"Type","Name","# requests","# failures","Median response time","Average response time","Min response time","Max response time","Average Content Size","Requests/s","Requests Failed/s","50%","66%","75%","80%","90%","95%","98%","99%","99.9%","99.99%","100%"` + "\n" +
		`"GET","/",100,2,12,13,5,40,512,10.0,0.2,12,13,14,15,20,25,30,35,40,40,40` + "\n" +
		`"","Aggregated",100,2,12,13,5,40,512,10.0,0.2,12,13,14,15,20,25,30,35,40,40,40` + "\n"
	if !(Parser{}).Detect([]byte(v014)) {
		t.Fatal("0.14 header not detected")
	}
	runs, err = parseAll(context.Background(), strings.NewReader(v014), core.Options{Source: "a_stats.csv"})
	if err != nil || len(runs) != 1 || runs[0].DurationS != 10 || *runs[0].LatP99Ms != 35 || *runs[0].BytesIn != 51200 || runs[0].Label != "a_stats" {
		t.Errorf("0.14: %+v %v", runs, err)
	}

	for _, c := range []struct {
		name, in string
		line     int
	}{
		{"no aggregated", "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s\nGET,/,1,0,1,1,1,1,1,1\n", 0},
		{"bad count", "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s\n,Aggregated,x,0,1,1,1,1,1,1\n", 2},
		{"two totals", "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s\n,Aggregated,1,0,1,1,1,1,1,1\n,Aggregated,1,0,1,1,1,1,1,1\n", 3},
		{"quote", "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s\n,\"Aggr\"x,1\n", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := (Parser{}).Parse(context.Background(), strings.NewReader(c.in), core.Options{Source: "s"}, &ingesttest.Collect{})
			var se *core.SyntaxError
			if !errors.As(err, &se) || se.Line != c.line {
				t.Fatalf("error %v, want a SyntaxError at line %d", err, c.line)
			}
		})
	}
}

func TestLocustHistory(t *testing.T) {
	const src = "testdata/locust/full-history-edited_stats_history.csv"
	var c ingesttest.Collect
	runs := parseWith(t, src, &c)
	if len(runs) != 1 || len(c.Windows) != 3 {
		t.Fatalf("%d runs, %d series", len(runs), len(c.Windows))
	}
	r := runs[0]
	if r.RunID != results.RunID(src, 0) || r.Requests != 65 || r.Errors != 3 || r.DurationS != 4 || r.RPS != 16.25 ||
		*r.Connections != 10 || r.StartedAt.Unix() != 1700000000 || r.HasSamples || *r.LatP50Ms != 15 || r.LatP99Ms != nil {
		t.Errorf("%+v", r.Run)
	}
	want := []struct {
		ts, w, mean float64
		n, e        int64
		p50         float64
	}{{0, 1, 290.0 / 15, 15, 1, 14}, {1, 1, 456.0 / 22, 22, 1, 15}, {2, 2, 573.0 / 28, 28, 1, 15}}
	for i, s := range c.Windows {
		w := want[i]
		if s.RunID != r.RunID || s.TS != w.ts || s.WindowS != w.w || s.Requests != w.n || s.Errors != w.e ||
			math.Abs(*s.LatMeanMs-w.mean) > 1e-9 || *s.LatP50Ms != w.p50 {
			t.Errorf("series %d: %+v", i, s)
		}
	}
	if c.Windows[2].LatMaxMs != nil || *c.Windows[1].LatMaxMs != 55 {
		t.Errorf("lat_max %v %v", c.Windows[1].LatMaxMs, c.Windows[2].LatMaxMs)
	}
}

// TestLocustHistoryCumulative: without full history, no window
// percentiles; the run keeps the cumulative ones; the missing second
// gives a 2 s window.
func TestLocustHistoryCumulative(t *testing.T) {
	var c ingesttest.Collect
	runs := parseWith(t, "testdata/locust/bitcoin-api_stats_history.csv", &c)
	if len(runs) != 1 || len(c.Windows) != 55 || runs[0].Requests != 2050 || runs[0].DurationS != 56 || *runs[0].Connections != 50 ||
		*runs[0].LatP99Ms != 2000 {
		t.Fatalf("%d series %+v", len(c.Windows), runs)
	}
	var total int64
	for _, s := range c.Windows {
		total += s.Requests
		if s.LatP50Ms != nil || s.LatP99Ms != nil {
			t.Errorf("cumulative percentiles in %+v", s)
		}
	}
	if total != 2050 || c.Windows[16].WindowS != 2 || c.Windows[16].TS != 16 {
		t.Errorf("total %d, series 16 %+v", total, c.Windows[16])
	}
}

// TestLocustHistoryMalformed: malformed rows are skipped and noted, too
// many fail the file.
func TestLocustHistoryMalformed(t *testing.T) {
	hdr := "Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,99%,Total Request Count,Total Failure Count,Total Median Response Time,Total Average Response Time,Total Min Response Time,Total Max Response Time,Total Average Content Size\n"
	var b strings.Builder
	b.WriteString(hdr)
	for i := range 200 {
		b.WriteString(strings.Join([]string{strconv.Itoa(1700000000 + i), "5", "", "Aggregated", "5.0", "0", "10", "20", strconv.Itoa(5 * i), "0", "10", "11.0", "1", "30", "100"}, ",") + "\n")
	}
	b.WriteString("17000x,5,,Aggregated,5,0,10,20,1000,0,10,11,1,30,100\n")
	var c ingesttest.Collect
	if err := (HistoryParser{}).Parse(context.Background(), strings.NewReader(b.String()), core.Options{Source: "h"}, &c); err != nil ||
		len(c.Runs) != 1 || !strings.Contains(*c.Runs[0].Notes, "1 malformed rows skipped (line 202: timestamp") || len(c.Windows) != 199 {
		t.Fatalf("%v %+v", err, c.Runs)
	}
	b.WriteString("x\ny\nz\n")
	err := (HistoryParser{}).Parse(context.Background(), strings.NewReader(b.String()), core.Options{Source: "h"}, &ingesttest.Collect{})
	var se *core.SyntaxError
	if !errors.As(err, &se) || se.Line != 202 {
		t.Errorf("error %v", err)
	}
}

// TestLocustHistoryOld: Locust 0.14's history header.
func TestLocustHistoryOld(t *testing.T) {
	old := `"Type","Name","Timestamp","# requests","# failures","Requests/s","Requests Failed/s","Median response time","Average response time","Min response time","Max response time","Average Content Size","50%","99%"` + "\n" +
		`"","Aggregated",1600000000,10,0,1.0,0,5,6.0,1,9,10,5,9` + "\n" + `"","Aggregated",1600000002,30,1,10.0,0.5,5,7.0,1,12,10,5,12` + "\n"
	var c ingesttest.Collect
	if err := (HistoryParser{}).Parse(context.Background(), strings.NewReader(old), core.Options{Source: "h"}, &c); err != nil ||
		len(c.Windows) != 1 || c.Windows[0].Requests != 20 || *c.Windows[0].LatMeanMs != (30*7.0-10*6.0)/20 || c.Runs[0].Connections != nil {
		t.Errorf("0.14: %v %+v %+v", err, c.Windows, c.Runs)
	}
}

// parseWith parses a file into c and returns its runs.
func parseWith(t *testing.T, name string, c *ingesttest.Collect) []results.RunWithPercentiles {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := parse(context.Background(), bytes.NewReader(data), core.Options{Source: name}, c); err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Runs {
		ingesttest.CheckRun(t, r)
	}
	return c.Runs
}

func TestLocustFailures(t *testing.T) {
	for _, name := range []string{"testdata/locust/bitcoin-api_failures.csv", "testdata/locust/example_distribution.csv"} {
		var c ingesttest.Collect
		if got := parseWith(t, name, &c); len(got) != 0 || len(c.Windows) != 0 {
			t.Errorf("%s: %d runs", name, len(got))
		}
	}
	exc := "Count,Message,Traceback,Nodes\n3,ZeroDivisionError(),\"Traceback (most recent call last):\n  File x\",local\n"
	p, err := core.DetectIn(parsers, []byte(exc))
	if err != nil || p.Name() != "locust-failures" {
		t.Fatalf("exceptions.csv detected as %v %v", p, err)
	}
	if runs, err := parseAll(context.Background(), strings.NewReader(exc), core.Options{Source: "e"}); err != nil || len(runs) != 0 {
		t.Errorf("%v %v", runs, err)
	}
	err = (FailuresParser{}).Parse(context.Background(), strings.NewReader("Method,Name,Error,Occurrences\nGET,/,\"x\"y,1\n"), core.Options{Source: "f"}, &ingesttest.Collect{})
	var se *core.SyntaxError
	if !errors.As(err, &se) || se.Line != 2 {
		t.Errorf("error %v", err)
	}
}

// FuzzLocust checks the Locust stats parser.
func FuzzLocust(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/locust/*_stats.csv")
	ingesttest.FuzzSeeds(f, "testdata/locust/*_requests.csv")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckContract(t, parsers, Parser{}, data) })
}

// FuzzLocustHistory checks the Locust stats history parser.
func FuzzLocustHistory(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/locust/*_stats_history.csv")
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckContract(t, parsers, HistoryParser{}, data) })
}

// FuzzLocustFailures checks the parser of Locust's files without runs.
func FuzzLocustFailures(f *testing.F) {
	ingesttest.FuzzSeeds(f, "testdata/locust/*_failures.csv")
	ingesttest.FuzzSeeds(f, "testdata/locust/*_distribution.csv")
	f.Add([]byte("Count,Message,Traceback,Nodes\n1,x,y,z\n"))
	f.Fuzz(func(t *testing.T, data []byte) { ingesttest.CheckContract(t, parsers, FailuresParser{}, data) })
}
