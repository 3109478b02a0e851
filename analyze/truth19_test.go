package analyze_test

import (
	"testing"

	"github.com/loadverdict/loadverdict/analyze"
)

// testdata/truth/order-from-time (scripts/truth/make-order-from-time.sh):
// the order runs ran in is read from their start times, not from the
// order of the inputs. Four draws: vegeta runs interleaved in time but
// read in blocks (d1: a1..a4 then b1..b4; d4: three B files then three A
// files, run A B B A A B), vegeta runs in blocks in time (B first) read
// alternating (d2), and wrk runs, which carry no start time, in blocks
// (d3: from the order of the inputs, and said so).
func TestTruthOrderFromTime(t *testing.T) {
	const a, b = "127.0.0.1:19621", "127.0.0.1:19622"
	for _, c := range []struct {
		dir          string
		flagged      bool
		first, from  string
		runsA, runsB int
	}{
		{"d1-interleaved-vegeta", false, "", "", 4, 4},
		{"d2-blocks-vegeta", true, b, analyze.OrderStartTime, 3, 3},
		{"d3-blocks-wrk", true, a, analyze.OrderArguments, 3, 3},
		{"d4-interleaved-vegeta", false, "", "", 3, 3},
	} {
		t.Run(c.dir, func(t *testing.T) {
			v := analyzeTruth(t, truthSet(t, nil, "order-from-time/"+c.dir))
			if len(v.Systems) != 2 || v.Systems[0].Runs+v.Systems[1].Runs != c.runsA+c.runsB {
				t.Fatalf("systems %d, want 2 with %d runs", len(v.Systems), c.runsA+c.runsB)
			}
			fs := findings(v, analyze.CodeNotInterleaved)
			if !c.flagged {
				if len(fs) > 0 {
					t.Fatalf("interleaved runs flagged: %+v", fs[0].Facts)
				}
				return
			}
			if len(fs) != 1 {
				t.Fatalf("%d not-interleaved findings, want 1", len(fs))
			}
			if x := fs[0].Facts.(analyze.NotInterleavedFacts); x.First != c.first || x.OrderFrom != c.from {
				t.Errorf("facts %+v, want %s first, from %s", x, c.first, c.from)
			}
		})
	}
}

// testdata/truth/error-bursts (scripts/truth/make-error-bursts.sh): every
// request arriving in the server's error window fails, the others
// succeed. The finding locates the window (to the 1 s windows of the
// series), holds all or nearly all of the errors, and names the status;
// errors spread evenly (every 8th request, d4) are no burst.
func TestTruthErrorBursts(t *testing.T) {
	type burst struct {
		from, to float64
		status   int32
	}
	for _, c := range []struct {
		file  string
		burst *burst
	}{
		{"d1-middle-vegeta/run.json.gz", &burst{3, 4, 503}},
		{"d2-start-vegeta/run.json.gz", &burst{0, 1, 500}},
		{"d3-end-hey/run.csv.gz", &burst{6, 8, 502}},
		{"d4-spread-vegeta/run.json.gz", nil},
		{"d5-twice-vegeta/run1.json.gz", &burst{1, 2, 503}},
		{"d5-twice-vegeta/run2.json.gz", &burst{5, 7, 503}},
	} {
		t.Run(c.file, func(t *testing.T) {
			v := analyzeTruth(t, truthSet(t, nil, "error-bursts/"+c.file))
			if len(findings(v, analyze.CodeErrors)) != 1 {
				t.Fatalf("want one errors finding: %+v", v.Findings)
			}
			fs := findings(v, analyze.CodeErrorBurst)
			if c.burst == nil {
				if len(fs) > 0 {
					t.Fatalf("spread errors called a burst: %+v", fs[0].Facts)
				}
				return
			}
			if len(fs) != 1 {
				t.Fatalf("%d error-burst findings, want 1", len(fs))
			}
			x := fs[0].Facts.(analyze.ErrorBurstFacts)
			if len(x.Bursts) != 1 || x.Share < 0.95 {
				t.Fatalf("facts %+v, want one burst with >= 95 %% of the errors", x)
			}
			b := x.Bursts[0]
			if b.FromS != c.burst.from || b.ToS != c.burst.to {
				t.Errorf("burst %v-%v s, want %v-%v s", b.FromS, b.ToS, c.burst.from, c.burst.to)
			}
			if len(b.Statuses) != 1 || b.Statuses[0].Status != c.burst.status || b.Statuses[0].N != b.Errors {
				t.Errorf("statuses %+v, want all %d", b.Statuses, c.burst.status)
			}
		})
	}
}
