package analyze

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/loadverdict/loadverdict/results"
)

// mcGamma draws Gamma(shape, 1) (Marsaglia and Tsang, ACM TOMS 26, 2000).
func mcGamma(rng *rand.Rand, shape float64) float64 {
	if shape < 1 {
		return mcGamma(rng, shape+1) * math.Pow(rng.Float64(), 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		if math.Log(rng.Float64()) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}

// mcErrorRun is a run of n requests whose error rate is drawn from a beta
// of mean mu and intra-run correlation rho (0: binomial at mu), its
// errors binomial at that rate (a normal draw for the binomial: n is in
// the thousands).
func mcErrorRun(rng *rand.Rand, seq, n int, mu, rho float64) results.Run {
	p := mu
	if rho > 0 && mu > 0 {
		s := 1/rho - 1
		a, b := mcGamma(rng, mu*s), mcGamma(rng, (1-mu)*s)
		p = a / (a + b)
	}
	k := math.Round(float64(n)*p + math.Sqrt(float64(n)*p*(1-p))*rng.NormFloat64())
	k = math.Max(0, math.Min(float64(n), k))
	return results.Run{RunID: results.RunID("mc", seq), Tool: "wrk", Requests: int64(n), Errors: int64(k), RPS: float64(n) / 3}
}

// mcErrorTrack is a track of refNights nights at error rate mu and a
// latest night at mu+delta, runs runs a night of about n requests each
// (±20 %), the sequential check's roles all reference.
func mcErrorTrack(rng *rand.Rand, refNights, runs, n int, mu, delta, rho float64) (*History, *Track) {
	h := &History{Options: DefaultOptions()}
	t := &Track{}
	roles := make([]NightRole, refNights+1)
	for i := range refNights + 1 {
		rate := mu
		if i == refNights {
			rate += delta
		}
		var rs []results.Run
		for j := range runs {
			rs = append(rs, mcErrorRun(rng, i*runs+j, int(float64(n)*(0.8+0.4*rng.Float64())), rate, rho))
		}
		h.Experiments = append(h.Experiments, SeriesExperiment{Name: fmt.Sprintf("night%02d", i+1)})
		t.Points = append(t.Points, Point{Experiment: i, runs: rs, all: rs})
		roles[i] = RoleReference
	}
	t.Metrics = []MetricTrack{{Gated: true, Check: Sequential{Roles: roles}}}
	return h, t
}

// TestHistoryErrorsMonteCarlo is the family check of the history's error
// check (docs/STATISTICS.md, "History"): a latest night against 10
// earlier nights (each checked in turn, a night whose errors rose left
// out of the later references), 1-3 runs a night of about 6000 requests
// (as the truth server's wrk runs of testdata/truth/nightly-errors), the
// error rate 0, 0.2 % or 1 % on every night, the runs binomial or
// overdispersed (a beta of intra-run correlation 0.001: at 1 % the runs'
// rates vary by 0.3 pts, 2.5 times the binomial). With no change the
// latest night fails the condition errors on at most 1 % of the draws
// (plus two standard errors) at 2 and 3 runs a night, and at 1 run with
// binomial runs; a rise of 1 or 2 points is caught in at least 90 % of
// the draws at 3 runs a night, and at 2 with binomial runs. The other
// cells are logged (STATISTICS.md states the limits): at 1 run a night
// with overdispersed runs the pooled Fisher test's binomial assumption
// fails while the few runs of the first nights cannot show it (12-14 %
// false fails); at 2 overdispersed runs a night a 2-point rise is caught
// in 85-88 % (an early night's false rise, left out of the reference,
// leaves it too few runs for the test over runs). 200 draws a cell,
// 2000 with LOADVERDICT_LONG=1 (the rates quoted are from 400).
func TestHistoryErrorsMonteCarlo(t *testing.T) {
	t.Parallel() // a pure function of fixed seeds
	draws := 200
	if os.Getenv("LOADVERDICT_LONG") == "1" {
		draws = 2000
	}
	var table strings.Builder
	fmt.Fprintf(&table, "base   dispersion  runs  no change  +0.5 pt  +1 pt  +2 pts  +5 pts\n")
	for _, mu := range []float64{0, 0.002, 0.01} {
		for _, rho := range []float64{0, 0.001} {
			for runs := 1; runs <= 3; runs++ {
				disp := "binomial"
				if rho > 0 {
					disp = "rho 0.001"
				}
				fmt.Fprintf(&table, "%4.1f %%  %-10s  %4d", 100*mu, disp, runs)
				for _, delta := range []float64{0, 0.005, 0.01, 0.02, 0.05} {
					fails := 0
					for d := range draws {
						rng := rand.New(rand.NewPCG(uint64(d), uint64(1000*mu*1000+rho*1e6)+uint64(100*runs)+uint64(1e4*delta)))
						h, tr := mcErrorTrack(rng, 10, runs, 6000, mu, delta, rho)
						h.Options.Seed = uint64(d) + 1
						if c := h.errorChecks(tr)[10]; c.Fails {
							fails++
						}
					}
					rate := float64(fails) / float64(draws)
					fmt.Fprintf(&table, "  %7.1f %%", 100*rate)
					se := math.Sqrt(0.01 * 0.99 / float64(draws))
					switch {
					case delta == 0 && rate > 0.01+2*se && (runs >= 2 || rho == 0):
						t.Errorf("base %g %%, %s, %d runs: no change fails %.1f %% of %d nights, want <= 1 %%", 100*mu, disp, runs, 100*rate, draws)
					case (delta == 0.01 || delta == 0.02) && (runs == 3 || runs == 2 && rho == 0) && rate < 0.90:
						t.Errorf("base %g %%, %s, %d runs: +%g pts caught in %.1f %% of %d nights, want >= 90 %%", 100*mu, disp, runs, 100*delta, 100*rate, draws)
					}
				}
				table.WriteString("\n")
			}
		}
	}
	t.Logf("share of latest nights failing the condition errors, %d draws a cell:\n%s", draws, table.String())
}
