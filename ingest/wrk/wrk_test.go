package wrk

import (
	"context"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/ingest/core"
	"github.com/loadverdict/loadverdict/ingest/internal/ingesttest"
	"github.com/loadverdict/loadverdict/results"
)

// TestSeed checks the six runs of the seed blog post value by value.
func TestSeed(t *testing.T) {
	const src = "testdata/wrk/seed-zuul-vs-openresty.txt"
	runs, err := ingesttest.ParseFile(t, parse, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 6 {
		t.Fatalf("got %d runs, want 6", len(runs))
	}
	conns := []int32{50, 50, 100, 100, 100, 100}
	// The post names its ports (line 17: Zuul 5555, OpenResty 80): the labels are its names.
	labels := []string{"Zuul", "OpenResty", "Zuul", "OpenResty", "OpenResty", "Zuul"}
	dur := []float64{10.04, 10.11, 10.04, 10.09, 10.10, 10.03}
	reqs := []int64{21045, 16222, 31196, 16332, 16328, 37504}
	rps := []float64{2095.30, 1604.71, 3107.57, 1619.00, 1617.40, 3737.35}
	for i, r := range runs {
		if r.Index != int32(i) || r.Seq != int32(i) || r.RunID != results.RunID(src, i) || r.Source != src || r.Experiment != "test" {
			t.Errorf("run %d: index/seq/run_id/source/experiment = %d/%d/%s/%s/%s", i, r.Index, r.Seq, r.RunID, r.Source, r.Experiment)
		}
		if r.Tool != "wrk" || r.LoadModel != results.LoadClosed || r.LatencyCorrected != nil {
			t.Errorf("run %d: tool %s load model %s corrected %v", i, r.Tool, r.LoadModel, r.LatencyCorrected)
		}
		if r.Threads == nil || *r.Threads != 10 || r.Connections == nil || *r.Connections != conns[i] {
			t.Errorf("run %d: threads/connections %v/%v, want 10/%d", i, r.Threads, r.Connections, conns[i])
		}
		if r.Label != labels[i] {
			t.Errorf("run %d: label %q, want %q", i, r.Label, labels[i])
		}
		if r.DurationS != dur[i] || r.PlannedDurationS == nil || *r.PlannedDurationS != 10 {
			t.Errorf("run %d: duration %v planned %v", i, r.DurationS, r.PlannedDurationS)
		}
		if r.Requests != reqs[i] || r.RPS != rps[i] {
			t.Errorf("run %d: requests %d rps %v, want %d %v", i, r.Requests, r.RPS, reqs[i], rps[i])
		}
		if r.Errors != 0 || r.Non2xx == nil || *r.Non2xx != 0 || r.Timeouts == nil || *r.Timeouts != 0 {
			t.Errorf("run %d: errors %d non2xx %v timeouts %v", i, r.Errors, r.Non2xx, r.Timeouts)
		}
		if r.Command == nil || !strings.HasPrefix(*r.Command, "wrk -t 10 -c ") {
			t.Errorf("run %d: command %v", i, r.Command)
		}
	}
	r := runs[0]
	for _, c := range []struct {
		name      string
		got       *float64
		want      float64
		tolerance float64
	}{
		{"lat_mean_ms", r.LatMeanMs, 33.95, 0},
		{"lat_stdev_ms", r.LatStdevMs, 43.06, 0},
		{"lat_max_ms", r.LatMaxMs, 599.09, 0},
		{"thread_rps_mean", r.ThreadRPSMean, 210.68, 0},
		{"thread_rps_stdev", r.ThreadRPSStdev, 73.11, 0},
		{"thread_rps_max", r.ThreadRPSMax, 460, 0},
		{"transfer_bps", r.TransferBPS, 419.61 * 1024, 1e-9},
	} {
		if c.got == nil || math.Abs(*c.got-c.want) > c.tolerance {
			t.Errorf("run 0 %s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if r.BytesIn == nil || *r.BytesIn != int64(math.Round(4.12*1024*1024)) {
		t.Errorf("run 0 bytes_in = %v, want %d", r.BytesIn, int64(math.Round(4.12*1024*1024)))
	}
	if r.Target != "http://localhost:5555/api/test/hello" || r.SourceLine != 20 {
		t.Errorf("run 0 target %q source line %d", r.Target, r.SourceLine)
	}
}

func TestWrk2Spectrum(t *testing.T) {
	runs, err := ingesttest.ParseFile(t, parse, "testdata/wrk2/wrk2_02.txt")
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %d err %v", len(runs), err)
	}
	r := runs[0]
	if r.Tool != "wrk2" || r.LoadModel != results.LoadOpen || r.LatencyCorrected == nil || !*r.LatencyCorrected {
		t.Fatalf("tool %s model %s corrected %v", r.Tool, r.LoadModel, r.LatencyCorrected)
	}
	if r.TargetRPS == nil || *r.TargetRPS != 2000 {
		t.Errorf("target_rps %v", r.TargetRPS)
	}
	if r.Notes == nil || !strings.Contains(*r.Notes, "uncorrected") {
		t.Errorf("notes %v", r.Notes)
	}
	// The corrected spectrum: 0.921.. in wrk2_01, 0.677 .. 11.319 here; the
	// uncorrected one (0.264 .. 7.015) must not appear.
	var withCount int
	for i, p := range r.Percentiles {
		if i > 0 && p.Quantile < r.Percentiles[i-1].Quantile {
			t.Errorf("percentiles not in quantile order at %d", i)
		}
		if p.TotalCount != nil {
			withCount++
		}
		if p.LatencyMs == 0.264 || p.LatencyMs == 7.015 {
			t.Errorf("uncorrected point %+v in percentiles", p)
		}
	}
	if withCount != 79 {
		t.Errorf("%d spectrum rows, want 79", withCount)
	}
	last := r.Percentiles[len(r.Percentiles)-1]
	if last.Quantile != 1 || last.LatencyMs != 11.319 || last.TotalCount == nil || *last.TotalCount != 39500 {
		t.Errorf("last point %+v", last)
	}
	for _, c := range []struct {
		got  *float64
		want float64
	}{{r.LatP50Ms, 6.207}, {r.LatP90Ms, 8.463}, {r.LatP99Ms, 10.52}, {r.LatP999Ms, 11.19}, {r.LatMeanMs, 6.178}, {r.LatMaxMs, 11.312}, {r.LatMinMs, 0.677}} {
		if c.got == nil || *c.got != c.want {
			t.Errorf("got %v want %v", c.got, c.want)
		}
	}
}

func TestPromptsAndCommands(t *testing.T) {
	for _, c := range []struct {
		line, cmd string
	}{
		{"$ wrk -t2 -c10 -d1s http://x/", "wrk -t2 -c10 -d1s http://x/"},
		{"% wrk -t2 http://x/", "wrk -t2 http://x/"},
		{"➜  ~ wrk -t 10 -c 50 -d 10s http://localhost:5555/api/test/hello", "wrk -t 10 -c 50 -d 10s http://localhost:5555/api/test/hello"},
		{"➜  spring-benchmark git:(master) wrk -t2 -c100 -d30s http://localhost:80  ", "wrk -t2 -c100 -d30s http://localhost:80"},
		{"user@host:~$ wrk --latency http://x/", "wrk --latency http://x/"},
		{"root@host # wrk -t2 http://x/", "wrk -t2 http://x/"},
		{"root@host:/opt# ./wrk -t2 http://x/", "./wrk -t2 http://x/"},
		{"❯ wrk2 -R 100 http://x/", "wrk2 -R 100 http://x/"},
		{`PS C:\> .\wrk.exe -t2 http://x/`, `.\wrk.exe -t2 http://x/`},
		{"$ time wrk -t2 http://x/", "wrk -t2 http://x/"},
		{"$ docker run --rm williamyeh/wrk -t2 http://x/", "williamyeh/wrk -t2 http://x/"},
		{"`wrk -t2 -c4 http://x/`", "wrk -t2 -c4 http://x/"},
		{"wrk is a modern HTTP benchmarking tool", ""},
		{"the wrk2 README explains -R", ""},
		{"wrk -t option sets threads", ""},
		{"Running 10s test @ http://wrk.example.com/", ""},
	} {
		s := core.Normalize([]byte(c.line))
		got := ""
		if i := findWrkCommand(s); i >= 0 {
			if cmd, ok := parseWrkCommand(string(s[i:]), 1); ok {
				got = cmd.raw
			}
		}
		if got != c.cmd {
			t.Errorf("%q: command %q, want %q", c.line, got, c.cmd)
		}
	}
}

func TestParseWrkCommand(t *testing.T) {
	c, ok := parseWrkCommand(`wrk -t12 -c 400 --duration=1m -R2k --timeout 2s -s "my script.lua" -H 'Host: a b' -LU "http://h:1/?q=1&r=2" -- arg1`, 3)
	if !ok {
		t.Fatal("not parsed")
	}
	if c.threads != 12 || c.connections != 400 || c.duration != 60 || c.rate != 2000 || c.timeout != 2 ||
		c.script != "my script.lua" || !c.latency || !c.uLatency || !c.wrk2 || c.url != "http://h:1/?q=1&r=2" || c.line != 3 || c.more {
		t.Errorf("%+v", c)
	}
	c, ok = parseWrkCommand(`wrk -t2 -c10 -d10s $URL | tee out.txt`, 1)
	if !ok || !c.placeholder || c.url != "" || c.more || c.threads != 2 {
		t.Errorf("%+v %v", c, ok)
	}
	c, ok = parseWrkCommand(`wrk -t2 -c10 \`, 1)
	if !ok || !c.more {
		t.Errorf("continuation: %+v %v", c, ok)
	}
	if _, ok := parseWrkCommand(`wrk is great`, 1); ok {
		t.Error("prose parsed as a command")
	}
}

func TestNaNSummary(t *testing.T) {
	in := "Running 1s test @ http://h/\n  1 threads and 1 connections\n" +
		"  Thread Stats   Avg      Stdev     Max   +/- Stdev\n" +
		"    Latency    -nanus    -nanus   0.00us    -nan%\n" +
		"    Req/Sec     0.00      0.00     0.00      -nan%\n" +
		"  0 requests in 0.00us, 0.00B read\n" +
		"Requests/sec:     -nan\nTransfer/sec:    -nanB\n"
	runs, err := parseAll(context.Background(), strings.NewReader(in), core.Options{Source: "s"})
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, err %v", len(runs), err)
	}
	r := runs[0]
	ingesttest.CheckRun(t, r)
	if r.RPS != 0 || r.TransferBPS != nil || r.LatMeanMs != nil || r.LatMaxMs == nil || r.Notes == nil || !strings.Contains(*r.Notes, "nan") {
		t.Errorf("%+v notes %v", r.Run, r.Notes)
	}
}

// TestBareWrkArgs: a line of wrk's arguments without the program name is
// taken as the command of the run that follows (its rate makes it wrk2);
// bullets, prose and partial argument lists are not.
func TestBareWrkArgs(t *testing.T) {
	for _, c := range []struct {
		line string
		ok   bool
		rate float64
	}{
		{"-t1 -c64 -d60s -R2000 http://h:8080/", true, 2000},
		{"-t2 -c100 -d30s --latency http://h/", true, 0},
		{"--threads=2 --connections=10 http://h/", true, 0},
		{"-c64 http://h/", false, 0},                   // one load option
		{"-t1 -c64 -d60s -R2000", false, 0},            // no URL
		{"- threads: -t2, connections -c10", false, 0}, // a bullet
		{"-t2 -c10 and then http://h/", false, 0},      // prose
		{"--", false, 0},
		{"-", false, 0},
	} {
		cmd, ok := parseBareWrkArgs([]byte(c.line), 1)
		if ok != c.ok || ok && (cmd.rate != c.rate || cmd.raw != c.line || cmd.url != "http://h:8080/" && cmd.url != "http://h/") {
			t.Errorf("%q: %+v %v, want ok %v rate %v", c.line, cmd, ok, c.ok, c.rate)
		}
	}
}

// parse is ingest.Parse with this package's format alone: no sample of
// it is detected as another format (TestDetectUnique in package ingest),
// so it parses every sample as ingest.Parse does.
var parse = ingesttest.ParseWith([]core.Parser{Parser{}})

// parseAll is parse collecting the runs.
func parseAll(ctx context.Context, r io.Reader, opts core.Options) ([]results.RunWithPercentiles, error) {
	return ingesttest.ParseAll(ctx, parse, r, opts)
}

// TestGolden compares what every sample under testdata/ parses to with its
// golden file (`go test ./ingest/wrk -update` rewrites them).
func TestGolden(t *testing.T) { ingesttest.Golden(t, parse, "testdata/wrk", "testdata/wrk2") }
