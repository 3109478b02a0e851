// Command duelmc is the Monte-Carlo check of loadverdict duel's stopping
// rule (stats.Sequential): A/A duels, whose share claiming a difference at
// some look must stay at or below alpha (beside naive repeated testing),
// and A/B duels at 3, 10 and 30 % true differences against the fixed
// design of the same power on the same draws. The noise is the real
// round-to-round scatter of wrk's throughput in testdata/truth, read with
// the project's ingest (docs/STATISTICS.md has the results).
//
//	go run ./scripts/duelmc              # 2,000 duels a case, markdown tables
//	go run ./scripts/duelmc -draws 500
//
// Its test (mc_test.go) asserts the bounds on fewer draws, all 2,000 with
// LOADVERDICT_LONG=1.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	c := defaultConfig()
	flag.IntVar(&c.Draws, "draws", c.Draws, "duels simulated per case")
	flag.IntVar(&c.MaxRounds, "max-rounds", c.MaxRounds, "the duel's last look")
	flag.Uint64Var(&c.Seed, "seed", c.Seed, "seed of the draws")
	flag.Float64Var(&c.Mixture, "mixture", c.Mixture, "mixture precision c of the sequential test (0: the default)")
	root := flag.String("root", ".", "the repository (for testdata/truth)")
	flag.Parse()
	if c.Draws < 1 || c.MaxRounds < 2 {
		fmt.Fprintln(os.Stderr, "duelmc: -draws must be >= 1 and -max-rounds >= 2")
		os.Exit(2)
	}
	if err := tables(os.Stdout, *root, c); err != nil {
		fmt.Fprintln(os.Stderr, "duelmc:", err)
		os.Exit(1)
	}
}

func defaultConfig() Config {
	return Config{Draws: 2000, MaxRounds: 30, Alpha: 0.05, Band: 0.02, MaxFixed: 200, Seed: 34}
}

// diffs are the true differences of the A/B duels.
var diffs = []float64{0.03, 0.10, 0.30}

// tables writes the noise levels and the A/A and A/B tables as markdown.
func tables(w io.Writer, root string, c Config) error {
	noises, err := MeasureNoise(root)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d duels a case, looks after every round up to %d, alpha %.2f, practical band ±%.0f %%, seed %d.\n\n", c.Draws, c.MaxRounds, c.Alpha, 100*c.Band, c.Seed)
	fmt.Fprintln(w, "| noise (real data) | runs | sd of ln x per run | sd of ln(B/A) per round |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, n := range noises {
		fmt.Fprintf(w, "| %s | %d | %.4f | %.4f |\n", n.Name, n.Runs, n.Sigma, sigmaD(n))
	}
	fmt.Fprintln(w, "\nA/A (no difference): the share of duels claiming one at some look.")
	fmt.Fprintln(w, "\n| noise sd(ln B/A) | sequential (duel) | naive t at every look | ended within the band | undecided at the last look |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, n := range noises {
		a, err := RunAA(c, n)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "| %.4f | %.1f %% | %.1f %% | %.1f %% | %.1f %% |\n", sigmaD(n), 100*a.Seq, 100*a.Naive, 100*a.Equivalent, 100*a.Undecided)
	}
	fmt.Fprintln(w, "\nA/B: rounds a duel ran, how it ended, and the fixed design (one t-test after a number of rounds set in advance) of the same power on the same draws.")
	fmt.Fprintln(w, "\n| noise sd(ln B/A) | true difference | mean rounds | median rounds | decided right | wrong side | within band | undecided | fixed design: rounds (its power) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, n := range noises {
		for _, diff := range diffs {
			b, err := RunAB(c, n, diff)
			if err != nil {
				return err
			}
			fixed := fmt.Sprintf("> %d", c.MaxFixed)
			if b.FixedRounds > 0 {
				fixed = fmt.Sprintf("%d (%.1f %%)", b.FixedRounds, 100*b.FixedRight)
			}
			fmt.Fprintf(w, "| %.4f | %.0f %% | %.1f | %.0f | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %s |\n", sigmaD(n), 100*diff, b.MeanRounds, b.MedianRounds,
				100*b.Right, 100*b.Wrong, 100*b.Equivalent, 100*b.Undecided, fixed)
		}
	}
	return nil
}
