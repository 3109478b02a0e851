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
