package analyze_test

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/results"
)

// pauseSink collects one vegeta log's run, its windows and its samples
// (a parser gives the samples before the run they make).
type pauseSink struct {
	set     *analyze.Set
	samples *[]results.Sample
}

func (s pauseSink) Run(r results.RunWithPercentiles) error {
	s.set.Runs = append(s.set.Runs, r.Run)
	s.set.Percentiles = append(s.set.Percentiles, r.Percentiles...)
	return nil
}
func (s pauseSink) Sample(x results.Sample) error { *s.samples = append(*s.samples, x); return nil }
func (s pauseSink) Series(r results.Series) error { s.set.Series = append(s.set.Series, r); return nil }

// testdata/truth/periodic-pauses (scripts/truth/make-periodic-pauses.sh):
// vegeta at 200-500 req/s against a server that freezes all handling for
// 40-80 ms every 0.25-3 s (periodic), the same at irregular times
// (-stall-jitter), or never. The periodic runs are named periodic-pauses
// with the server's period (within 5 %), their pause lengths within the
// server's (+-15 ms: the request before a pause and the answer after it
// bound what the client sees) and a share of requests held about the
// share of time paused; the others are not, and no long-tail finding
// calls the periodic pauses rare stalls.
func TestTruthPeriodicPauses(t *testing.T) {
	dir := filepath.Join("..", "testdata", "truth", "periodic-pauses")
	tf, err := os.Open(filepath.Join(dir, "truth.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Close()
	sc := bufio.NewScanner(tf)
	n := 0
	right := map[string][2]int{}
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 7 || fs[0] == "run" {
			continue
		}
		n++
		name, truth := fs[0], fs[5]
		set := analyze.Set{Experiment: "truth"}
		var samples []results.Sample
		path := filepath.Join(dir, name+".json.gz")
		fh, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		err = ingest.Parse(context.Background(), fh, ingest.Options{Source: path, Experiment: "truth"}, pauseSink{&set, &samples})
		fh.Close()
		if err != nil || len(set.Runs) != 1 {
			t.Fatalf("%s: %v", name, err)
		}
		tally := analyze.NewPauseTally(set.Runs[0])
		for _, x := range samples {
			tally.Add(x)
		}
		set.Pauses = []analyze.RunPauses{tally.Result()}
		v := analyzeTruth(t, set)
		fsP := findings(v, analyze.CodePeriodicPauses)
		ok := true
		switch truth {
		case "periodic":
			every, _ := parseDur(fs[2])
			length, _ := parseDur(fs[3])
			if len(fsP) != 1 {
				ok = false
				t.Errorf("%s: periodic pauses every %s of %s not found (%d pauses)", name, fs[2], fs[3], len(set.Pauses[0].Pauses))
				break
			}
			x := fsP[0].Facts.(analyze.PeriodicPausesFacts)
			t.Logf("%s: %d pauses (and %d others) every %.3f s (jitter %.1f ms), %.0f-%.0f ms (median %.0f), %.1f %% of requests held; long-tail %d",
				name, x.Pauses, x.Others, x.PeriodS, x.JitterMs, x.MinMs, x.MaxMs, x.MedianMs, 100*x.ShareRequests, len(findings(v, analyze.CodeLongTail)))
			if math.Abs(x.PeriodS-every) > 0.05*every || math.Abs(x.MedianMs-1000*length) > 15 {
				ok = false
				t.Errorf("%s: period %.3f s (want %.3f), median pause %.0f ms (want %.0f)", name, x.PeriodS, every, x.MedianMs, 1000*length)
			}
			if len(findings(v, analyze.CodeLongTail)) != 0 {
				ok = false
				t.Errorf("%s: a long-tail finding beside the periodic pauses", name)
			}
		default:
			t.Logf("%s (%s): %d pauses found, periodic-pauses findings %d", name, truth, len(set.Pauses[0].Pauses), len(fsP))
			if len(fsP) != 0 {
				ok = false
				t.Errorf("%s (%s): named periodic", name, truth)
			}
		}
		r := right[truth]
		r[1]++
		if ok {
			r[0]++
		}
		right[truth] = r
	}
	if n < 8 {
		t.Fatalf("%d runs in truth.tsv", n)
	}
	t.Logf("right by truth: %v", right)
}

// parseDur reads a duration such as 250ms, 1s or 1060ms, in seconds.
func parseDur(s string) (float64, error) {
	switch {
	case strings.HasSuffix(s, "ms"):
		x, err := strconv.ParseFloat(strings.TrimSuffix(s, "ms"), 64)
		return x / 1000, err
	case strings.HasSuffix(s, "s"):
		return strconv.ParseFloat(strings.TrimSuffix(s, "s"), 64)
	}
	return strconv.ParseFloat(s, 64)
}
