package ingest

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/ingest/requests"
	"github.com/loadverdict/loadverdict/results"
)

// collect is a Sink that keeps everything.
type collect = ingesttest.Collect

func TestRequestsAggregate(t *testing.T) {
	var sink collect
	a := requests.NewRequests(core.Options{Source: "log.json", Experiment: "e"}, &sink)
	meta := requests.RequestRun{Tool: "vegeta", LoadModel: results.LoadOpen, Target: "http://127.0.0.1:8080/a", UnixTime: true}
	const t0 = int64(1_700_000_000_000_000_000)
	// 100 requests per second for 10 s; latency i%100+1 ms; every 50th a 500.
	for i := range 1000 {
		status := int32(200)
		if i%50 == 0 {
			status = 500
		}
		h := a.Run("GET http://127.0.0.1:8080/a", meta)
		if err := a.Add(h, i+1, requests.Request{Start: t0 + int64(i)*10_000_000, LatencyMs: float64(i%100 + 1), Status: status, BytesIn: 10}); err != nil {
			t.Fatal(err)
		}
	}
	// A second target, seen later: a second run.
	h2 := a.Run("GET http://127.0.0.1:8080/b", requests.RequestRun{Tool: "vegeta", LoadModel: results.LoadOpen, Target: "http://127.0.0.1:8080/b"})
	if err := a.Add(h2, 1001, requests.Request{Start: t0, LatencyMs: 5, Status: 0, Error: "Get: context deadline exceeded (Client.Timeout exceeded)"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if len(sink.Runs) != 2 || len(sink.Samples) != 1001 {
		t.Fatalf("%d runs, %d samples", len(sink.Runs), len(sink.Samples))
	}
	r := sink.Runs[0]
	if r.Requests != 1000 || r.Errors != 20 || *r.Non2xx != 20 || *r.BytesIn != 10000 || !r.HasSamples || r.Label != "127.0.0.1:8080" {
		t.Errorf("run: %+v", r.Run)
	}
	if r.StartedAt == nil || r.StartedAt.UnixNano() != t0 {
		t.Errorf("started_at %v", r.StartedAt)
	}
	// Duration: from the first start to the last end (9.99 s + 100 ms);
	// sent over the sends (9.99 s); an open model's rps counts the 980
	// successful responses; the requested rate, not in the log, is the
	// sent one.
	if math.Abs(r.DurationS-10.09) > 1e-9 || math.Abs(r.RPS-980/10.09) > 1e-9 || math.Abs(*r.SuccessRPS-980/10.09) > 1e-9 ||
		math.Abs(*r.SentRPS-1000/9.99) > 1e-9 || r.TargetRPS == nil || *r.TargetRPS != *r.SentRPS ||
		r.Notes == nil || *r.Notes != "requested rate 100.1 req/s taken from the send times" {
		t.Errorf("duration %v rps %v success %v sent %v target %v notes %v", r.DurationS, r.RPS, *r.SuccessRPS, *r.SentRPS, r.TargetRPS, r.Notes)
	}
	if math.Abs(*r.LatMeanMs-50.5) > 1e-9 || *r.LatMinMs != 1 || *r.LatMaxMs != 100 || *r.LatP50Ms != 50 || *r.LatP99Ms != 99 {
		t.Errorf("latency mean %v min %v max %v p50 %v p99 %v", *r.LatMeanMs, *r.LatMinMs, *r.LatMaxMs, *r.LatP50Ms, *r.LatP99Ms)
	}
	if r.Percentiles[0].Quantile != 0 || r.Percentiles[0].LatencyMs != 1 || r.Percentiles[len(r.Percentiles)-1].LatencyMs != 100 {
		t.Errorf("percentiles %+v", r.Percentiles)
	}
	checkAggregateSeries(t, &sink, r)
}

// checkAggregateSeries checks the windows of TestRequestsAggregate's
// first run r and its second run.
func checkAggregateSeries(t *testing.T, sink *collect, r results.RunWithPercentiles) {
	t.Helper()
	var ser []results.Series
	for _, s := range sink.Windows {
		if s.RunID == r.RunID {
			ser = append(ser, s)
		}
	}
	if len(ser) != 10 || ser[0].Requests != 100 || ser[0].RPS != 100 || ser[3].TS != 3 || ser[0].WindowS != 1 || ser[0].Errors != 2 {
		t.Errorf("series %+v", ser)
	}
	if p := *ser[0].LatP50Ms; math.Abs(p-50) > 0.5 {
		t.Errorf("window p50 %v, want 50 within 1 %%", p)
	}
	b := sink.Runs[1]
	if b.Errors != 1 || *b.Timeouts != 1 || b.RunID != results.RunID("log.json", 1) || b.Index != 1 {
		t.Errorf("second run %+v", b.Run)
	}
}

// A request that started before the first one read (logs are in
// completion order) still sets the origin; a long run's windows double.
func TestRequestsWindows(t *testing.T) {
	var sink collect
	a := requests.NewRequests(core.Options{Source: "s"}, &sink)
	h := a.Run("k", requests.RequestRun{Tool: "hey", LoadModel: results.LoadClosed})
	// The first read starts at 10 s, an earlier one at 8.5 s: t_s counts from 8.5 s.
	add := func(sec float64) {
		if err := a.Add(h, 1, requests.Request{Start: int64(sec * 1e9), LatencyMs: 1, Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	add(10)
	add(8.5) // 1.5 s before the first read: window -2
	for s := 0; s < 5000; s++ {
		add(10 + float64(s))
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if len(sink.Windows) > requests.MaxWindows {
		t.Fatalf("%d windows, more than %d", len(sink.Windows), requests.MaxWindows)
	}
	w := sink.Windows[0].WindowS
	if w != 4 {
		t.Errorf("window width %v, want 4 s after doubling twice", w)
	}
	var total int64
	for _, s := range sink.Windows {
		total += s.Requests
	}
	if total != 5002 || sink.Windows[0].TS != 0 || sink.Samples[0].TS != 1.5 {
		t.Errorf("total %d, first window at %v", total, sink.Windows[0].TS)
	}
	if sink.Runs[0].Label != "s" {
		t.Errorf("label %q, want the source name", sink.Runs[0].Label)
	}
}

// Beyond exactCap requests, percentiles come from the HdrHistogram, within
// its 0.1 % bound, and the run says so.
func TestRequestsHistogramPercentiles(t *testing.T) {
	if testing.Short() {
		t.Skip("1M requests")
	}
	var sink core.RunFunc = func(r results.RunWithPercentiles) error {
		if r.Notes == nil || !strings.Contains(*r.Notes, "HdrHistogram") {
			t.Errorf("notes %v", r.Notes)
		}
		for _, p := range r.Percentiles {
			want := math.Max(1, math.Ceil(p.Quantile*float64(requests.ExactCap+1000))) / 1000 // latencies 0.001..N/1000 ms
			if p.Quantile > 0 && p.Quantile < 1 && math.Abs(p.LatencyMs-want) > 0.001*want+0.001 {
				t.Errorf("q %v: %v ms, want %v within 0.1 %%", p.Quantile, p.LatencyMs, want)
			}
		}
		return nil
	}
	a := requests.NewRequests(core.Options{Source: "s"}, sink)
	h := a.Run("k", requests.RequestRun{})
	for i := 1; i <= requests.ExactCap+1000; i++ {
		if err := a.Add(h, i, requests.Request{Start: int64(i), LatencyMs: float64(i) / 1000, Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestRequestsBadLines(t *testing.T) {
	run := func(good, bad int) error {
		a := requests.NewRequests(core.Options{Source: "x.csv"}, &collect{})
		h := a.Run("k", requests.RequestRun{})
		for i := range good {
			if err := a.Add(h, i+1, requests.Request{LatencyMs: 1, Status: 200}); err != nil {
				t.Fatal(err)
			}
		}
		for i := range bad {
			a.Bad(good+i+1, "not a number")
		}
		return a.Close()
	}
	if err := run(1000, 10); err != nil {
		t.Errorf("1 %% bad lines rejected: %v", err)
	}
	err := run(1000, 11)
	var se *core.SyntaxError
	if !errors.As(err, &se) || se.Line != 1001 || !strings.Contains(se.Msg, "11 of 1011 lines malformed") {
		t.Errorf("over 1 %% bad: %v", err)
	}
}

// Per-window percentiles come from a histogram with 2 significant digits,
// whose bucket values can lie beyond the window's exact extremes: 33 ms
// reads back as 33.023 ms, 0 ms (recorded as 1 µs) as 0.001 ms. They are
// clamped to the window's minimum and maximum, also after windows merge.
func TestRequestsWindowPercentilesWithinExtremes(t *testing.T) {
	cases := []struct {
		name    string
		lat     func(i int) float64
		n       int // requests, 10 per second
		windows int
	}{
		{"33 ms max", func(i int) float64 { return []float64{33, 32.9, 33, 31.7}[i%4] }, 100, 10},
		{"all 0 ms", func(int) float64 { return 0 }, 100, 10},
		{"0 and 33 ms", func(i int) float64 { return float64(i%2) * 33 }, 100, 10},
		// 2049 s of requests: the windows merge (2 s each).
		{"merged", func(i int) float64 { return []float64{0, 33, 33, 12.345}[i%4] }, 20490, 1025},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sink collect
			a := requests.NewRequests(core.Options{Source: "log.csv", Experiment: "e"}, &sink)
			meta := requests.RequestRun{Tool: "hey", LoadModel: results.LoadClosed}
			h := a.Run("run", meta)
			for i := range c.n {
				if err := a.Add(h, i+1, requests.Request{Start: int64(i) * 100_000_000, LatencyMs: c.lat(i), Status: 200}); err != nil {
					t.Fatal(err)
				}
			}
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			if len(sink.Windows) != c.windows {
				t.Fatalf("%d windows, want %d", len(sink.Windows), c.windows)
			}
			// The exact extremes of each window, from the samples.
			for _, s := range sink.Windows {
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, x := range sink.Samples {
					if x.TS >= s.TS && x.TS < s.TS+s.WindowS {
						lo, hi = math.Min(lo, x.LatencyMs), math.Max(hi, x.LatencyMs)
					}
				}
				if *s.LatMaxMs != hi {
					t.Fatalf("window at %v s: max %v, samples' %v", s.TS, *s.LatMaxMs, hi)
				}
				for name, p := range map[string]float64{"p50": *s.LatP50Ms, "p99": *s.LatP99Ms} {
					if p < lo || p > hi {
						t.Fatalf("window at %v s: %s %v outside its samples' %v..%v ms", s.TS, name, p, lo, hi)
					}
				}
			}
		})
	}
}

// TestWindowQuantilesMatchDense checks the per-window p50 and p99 of every
// per-request log under testdata, in 1 s windows and in windows of 1 ms
// (which double until a run fits in maxWindows, merging histograms),
// against a dense HdrHistogram (what the windows used before they were
// sparse) filled with the samples of each window, clamped as the series
// are to the window's exact extremes.
func TestWindowQuantilesMatchDense(t *testing.T) {
	t.Parallel() // reads files, no shared state (the memory checks of guard_test.go run alone, sequential)
	dirs := sampleDirs()
	logs := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() || filepath.Base(dir) == "fuzz" {
			continue
		}
		for _, in := range goldenInputs(t, dir) {
			for _, w := range []float64{1, 0.001} {
				var c collect
				f, err := os.Open(in)
				if err != nil {
					t.Fatal(err)
				}
				err = Parse(context.Background(), f, core.Options{Source: in, WindowS: w}, &c)
				f.Close()
				if err != nil || len(c.Samples) == 0 {
					continue
				}
				if w == 1 {
					logs++
				}
				width := map[string]float64{}
				for _, s := range c.Windows {
					width[s.RunID] = s.WindowS
				}
				type key struct {
					run string
					k   int
				}
				dense := map[key]*hdrhistogram.Histogram{}
				ext := map[key][2]float64{}
				for _, s := range c.Samples {
					k := key{s.RunID, int(math.Floor(s.TS / width[s.RunID]))}
					if dense[k] == nil {
						dense[k] = hdrhistogram.New(1, requests.WindowHistMax, 2)
						ext[k] = [2]float64{s.LatencyMs, s.LatencyMs}
					}
					ext[k] = [2]float64{math.Min(ext[k][0], s.LatencyMs), math.Max(ext[k][1], s.LatencyMs)}
					requests.ClampRecord(dense[k], requests.Micros(s.LatencyMs), requests.WindowHistMax)
				}
				checked := 0
				for _, s := range c.Windows {
					h := dense[key{s.RunID, int(math.Round(s.TS / s.WindowS))}]
					if s.Requests == 0 {
						if h != nil {
							t.Errorf("%s (%g s): window %g s of %s: no requests, but %d samples", in, w, s.TS, s.RunID, h.TotalCount())
						}
						continue
					}
					if h == nil || h.TotalCount() != s.Requests {
						t.Fatalf("%s (%g s): window %g s of %s: %d requests, samples do not match", in, w, s.TS, s.RunID, s.Requests)
					}
					// Clamped to the window's exact extremes, as the series are.
					lo, hi := ext[key{s.RunID, int(math.Round(s.TS / s.WindowS))}][0], ext[key{s.RunID, int(math.Round(s.TS / s.WindowS))}][1]
					p50 := requests.ClampMs(float64(h.ValueAtQuantile(50))/1000, lo, hi)
					p99 := requests.ClampMs(float64(h.ValueAtQuantile(99))/1000, lo, hi)
					if *s.LatP50Ms != p50 || *s.LatP99Ms != p99 {
						t.Errorf("%s (%g s): window %g s of %s: p50 %v p99 %v, dense %v %v", in, w, s.TS, s.RunID, *s.LatP50Ms, *s.LatP99Ms, p50, p99)
					}
					checked++
				}
				if checked == 0 {
					t.Errorf("%s (%g s): no window checked", in, w)
				}
			}
		}
	}
	if logs < 20 {
		t.Errorf("only %d per-request logs under testdata", logs)
	}
}
