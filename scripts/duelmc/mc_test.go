package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// draws: 300 duels a case by default, the full 2,000 with LOADVERDICT_LONG.
func testConfig() Config {
	c := defaultConfig()
	if os.Getenv("LOADVERDICT_LONG") == "" {
		c.Draws = 300
	}
	return c
}

// TestAAFalsePositives: A/A duels with a look after every round up to
// 30, at each real noise level: the sequential test claims a difference
// in at most alpha of them, naive repeated testing (a fixed-sample t at
// every look) visibly more.
func TestAAFalsePositives(t *testing.T) {
	c := testConfig()
	noises, err := MeasureNoise("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range noises {
		a, err := RunAA(c, n)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: sd(ln B/A) %.4f: sequential %.3f, naive %.3f, within band %.3f, undecided %.3f", n.Name, sigmaD(n), a.Seq, a.Naive, a.Equivalent, a.Undecided)
		if a.Seq > c.Alpha {
			t.Errorf("%s: the sequential test claimed a difference in %.3f of %d A/A duels, want <= %.2f", n.Name, a.Seq, c.Draws, c.Alpha)
		}
		if a.Naive < 3*c.Alpha || a.Naive < 3*a.Seq {
			t.Errorf("%s: naive repeated testing claimed one in %.3f (sequential %.3f), want visibly more: >= %.2f and >= 3x", n.Name, a.Naive, a.Seq, 3*c.Alpha)
		}
	}
}

// TestABRounds: at the noise of real 10 s wrk runs (before-after), B 3,
// 10 and 30 % faster: the duels decide the right side (never the wrong
// one beyond alpha), and at 10 % in fewer rounds on average than the
// fixed design of the same power on the same draws.
func TestABRounds(t *testing.T) {
	c := testConfig()
	noises, err := MeasureNoise("../..")
	if err != nil {
		t.Fatal(err)
	}
	n := noises[0]
	if !strings.HasPrefix(n.Name, "before-after") {
		t.Fatalf("first noise %q, want before-after's", n.Name)
	}
	for _, diff := range diffs {
		b, err := RunAB(c, n, diff)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%.0f %%: mean %.1f, median %.0f rounds; right %.3f, wrong %.3f, band %.3f, undecided %.3f; fixed %d rounds (%.3f)",
			100*diff, b.MeanRounds, b.MedianRounds, b.Right, b.Wrong, b.Equivalent, b.Undecided, b.FixedRounds, b.FixedRight)
		if b.Right < 0.95 {
			t.Errorf("%.0f %%: decided right in %.3f of the duels, want >= 0.95", 100*diff, b.Right)
		}
		if b.Wrong > c.Alpha {
			t.Errorf("%.0f %%: decided the wrong side in %.3f, want <= %.2f", 100*diff, b.Wrong, c.Alpha)
		}
		if diff == 0.10 && !(b.FixedRounds > 0 && b.MeanRounds < float64(b.FixedRounds)) {
			t.Errorf("10 %%: %.2f rounds on average, want fewer than the fixed design's %d", b.MeanRounds, b.FixedRounds)
		}
	}
}

// TestTables: the tables name both noise levels and every case.
func TestTables(t *testing.T) {
	c := defaultConfig()
	c.Draws, c.MaxFixed = 20, 40
	var b bytes.Buffer
	if err := tables(&b, "../..", c); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"before-after", "aa-gate", "| 3 % |", "| 10 % |", "| 30 % |", "naive t at every look"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("tables lack %q:\n%s", want, b.String())
		}
	}
}
